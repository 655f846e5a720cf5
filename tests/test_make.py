"""The two commands: ``make run`` installs the application's own dependencies
only (not the test tools), ``make test`` the test extras and the benchmarks' peers; the port of
``make run PORT=...`` reaches the first administrator's sign-in line. Read from ``make -n``
(what make would run) in a copy of the project's build files, so nothing is installed here."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _dry_run(tmp_path: Path, *goal: str) -> str:
    if shutil.which("make") is None:
        pytest.fail("make is required (it is one of the two commands)")
    for name in ("Makefile", "pyproject.toml", "benchmarks/requirements.txt", "package.json",
                 "package-lock.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    done = subprocess.run(["make", "-n", *goal], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_run_installs_the_app_without_the_test_tools(tmp_path: Path) -> None:
    run = _dry_run(tmp_path, "run", "PORT=8000")
    installs = [line for line in run.splitlines() if "pip install" in line]
    assert any(line.rstrip().endswith("install -q -e .") for line in installs), installs
    assert not any("[test]" in line or "requirements" in line for line in installs), installs
    assert "create-admin --if-none --host 127.0.0.1 --port 8000" in run
    assert "waitress-serve --host 127.0.0.1 --port 8000" in run


def test_make_test_installs_the_test_extras_and_the_benchmark_peers(tmp_path: Path) -> None:
    test = _dry_run(tmp_path, "test")
    assert "install -q -e '.[test]' -r benchmarks/requirements.txt" in test
    assert "pytest" in test


def test_make_run_workers_serves_n_processes_with_gunicorn(tmp_path: Path) -> None:
    """``make run WORKERS=N`` serves N app processes (gunicorn); one is waitress."""
    run = _dry_run(tmp_path, "run", "WORKERS=3", "PORT=8000")
    assert "gunicorn -c python:dealer_assist.gunicorn_conf --workers 3" in run
    assert "--bind 127.0.0.1:8000" in run
    assert "waitress-serve" not in run


def test_make_run_and_make_test_install_the_pinned_pyodide_with_npm_ci(tmp_path: Path) -> None:
    """The tablet's runtime is the npm ``pyodide`` package at one pinned version,
    installed by the project's own files (``npm ci`` from the lock), never from a CDN."""
    for goal in ("run", "test"):
        assert "npm ci --no-audit --no-fund" in _dry_run(tmp_path, goal), goal
    stamp = tmp_path / "node_modules" / ".stamp-npm"
    stamp.parent.mkdir()
    stamp.touch()
    later = time.time() + 60
    os.utime(stamp, (later, later))  # installed after the lock was written (copied again below)
    assert "npm ci" not in _dry_run(tmp_path, "run")


def test_the_pyodide_package_is_pinned_at_one_exact_version_in_the_lock() -> None:
    import json

    declared = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    locked = json.loads((ROOT / "package-lock.json").read_text())
    assert declared[0].isdigit() and declared.count(".") == 2, declared  # no ^ or ~
    assert locked["packages"]["node_modules/pyodide"]["version"] == declared

"""Every script in ``benchmarks/`` runs (``benchmarks/http.py`` had rotted into a
404 and its p95 was gone): each once in its ``--smoke`` mode (seconds; no figure is asserted,
timings are never tested), and each still prints its headline figures last, one per line, as
``name: value unit``. Helper modules without a ``__main__`` must be used by a script that runs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("*.py")
                 if 'if __name__ == "__main__":' in p.read_text())
HELPERS = sorted(p.name for p in BENCHMARKS.glob("*.py") if p.name not in SCRIPTS)
#: ``name: value unit`` (the unit may be ``x``, ``ms``, ``Mhands/s``, ``responses`` ...)
HEADLINE = re.compile(r"^[\w.%-]+: -?[\d.,]+ \S+$")
RUNS = [pytest.param([name], id=name) for name in SCRIPTS] + [
    pytest.param(["load.py", "--db", "postgres"], id="load.py-postgres"),
    # the floor at human pace on PostgreSQL too (it exits 1 if the database check
    # after the run finds a step lost or stored twice)
    pytest.param(["floor.py", "--db", "postgres"], id="floor.py-postgres"),
    # the table screen's own requests as a path, on both databases (each run exits 1
    # if a tap's answer disagrees with the engine's follow-ups or the check finds a step lost)
    pytest.param(["load.py", "--path", "screen"], id="load.py-screen"),
    pytest.param(["load.py", "--path", "screen", "--db", "postgres"],
                 id="load.py-screen-postgres"),
    pytest.param(["floor.py", "--path", "screen"], id="floor.py-screen"),
    pytest.param(["floor.py", "--path", "screen", "--db", "postgres"],
                 id="floor.py-screen-postgres"),
    pytest.param(["profile_step.py", "--path", "screen", "--sql"], id="profile_step.py-screen")]


def test_the_benchmarks_are_found() -> None:
    assert {"http.py", "load.py", "evaluator.py", "report.py",
            "tablet_engine.py"} <= set(SCRIPTS)  # the tablet's engine, in Chromium


@pytest.mark.parametrize("helper", HELPERS)
def test_each_helper_module_is_used_by_a_script_that_runs(helper: str) -> None:
    users = [s for s in SCRIPTS if helper.removesuffix(".py") in (BENCHMARKS / s).read_text()]
    assert users, f"benchmarks/{helper} has no __main__ and no script uses it"


@pytest.mark.parametrize("argv", RUNS)
def test_each_benchmark_runs_in_smoke_mode_and_prints_its_headline_last(
        argv: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(BENCHMARKS.parent)}
    done = subprocess.run([sys.executable, str(BENCHMARKS / argv[0]), *argv[1:], "--smoke"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-4000:])
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert lines and HEADLINE.match(lines[-1]), lines[-5:]

"""The benchmarks run (issue 25): ``benchmarks/floor.py --smoke`` plays a small floor against the
real server on each database and checks the database after it, so the script never rots. No
figure is asserted (timings are never tested): only that it ran, found no problem in the stored
rounds, and printed its headline figures last, one per line, as ``name: value unit``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
#: ``name: value unit`` (the unit may be ``x``, ``ms``, ``steps/s``, ``responses`` ...)
HEADLINE = re.compile(r"^[\w.%-]+: -?[\d.,]+ \S+$")
FLOOR_FIGURES = ("steps_per_s", "offered_steps_per_s", "step_p50", "step_p95", "step_p99",
                 "http_5xx", "lost_or_duplicated", "bare_commit_rate", "steps_vs_bare_commits")


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_floor_runs_in_smoke_mode_and_prints_its_headline_last(
        database: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(BENCHMARKS.parent)}
    done = subprocess.run([sys.executable, str(BENCHMARKS / "floor.py"), "--smoke",
                           "--db", database],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-4000:])
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    headline = lines[-len(FLOOR_FIGURES):]
    assert all(HEADLINE.match(line) for line in headline), headline
    assert [line.split(":")[0] for line in headline] == list(FLOOR_FIGURES)
    assert "lost_or_duplicated: 0 problems" in headline
    assert "http_5xx: 0 responses" in headline

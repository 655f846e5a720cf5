""""First view of a settled round took 10.5 s and the first shift report
preview 12.5 s (0.15 s afterwards): something is built per process on first use; build it at
start-up or make it cheap."

The production entry point (``wsgi.production_app``) calls ``wsgi.warm_up``; after it, judging
a round's decisions (the advisor of every lab game, at the table minimum and at another ANTE)
builds nothing more. Measured in a fresh process (the test suite's own process has built the
tables long ago): CPU seconds of the first judgements after the warm-up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, time
from dealer_assist.wsgi import warm_up
warm_up()
from dealer_assist.lab import counting
from dealer_assist.lab.advice import advise
from dealer_assist.rules.profiles import get_profile
built = counting.hand_classes.cache_info().misses
start = time.process_time()
for name in ("russian-classic", "russian-pair-game", "caribbean-classic", "split-classic"):
    p = get_profile(name)
    up = {} if p.game == "russian" else {"up": "ad"}
    for ante in (p.min_ante, 5 * p.min_ante):
        advise(p, "deal", "3h 7c 9d js kh".split(), ante=ante, **up)
    if p.game == "russian":
        advise(p, "no_game", "5h 6c 7d 8s 9h".split(), dealer="2c 4d 8h td qs".split())
print(json.dumps({"cpu": time.process_time() - start,
                  "tables_built": counting.hand_classes.cache_info().misses - built}))
"""


@pytest.mark.slow
def test_after_the_start_up_warm_up_the_first_judgements_build_no_lab_tables() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=600, check=True)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["tables_built"] == 0
    # cold, the first Russian poker judgement alone took about 11 s of CPU
    assert figures["cpu"] < 4.0, figures

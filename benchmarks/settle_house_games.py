"""Time Caribbean stud, Oasis and Big/Small full tables, and the Big/Small split suggestion.

Run from the project root::

    .venv/bin/python benchmarks/settle_house_games.py [--repeats 2000] [--boxes 20]

Each settle scenario is a complete calculator request (a full table of seven boxes) timed through
``GAMES[game].settle_request(body)``, the API's path: parse, verify every action, settle; the
median per settle is reported. The suggestion is timed for one box at a time (``--boxes`` random
boxes dealt from a seeded deck, 20,000 sampled dealer deals each, after one warm-up call that
builds the evaluator's tables): median and 95th percentile, plus the median standard error of the
best split's EV. Headline figures come last, one per line, as ``name: value unit``.

``house_scenarios()`` returns the settle scenarios as (name, game, body) triples for
``benchmarks/settle.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

try:
    from dealer_assist.rules.games import GAMES
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from dealer_assist.rules.games import GAMES

from dealer_assist.rules import ALL_CARDS
from dealer_assist.rules.games.stud.split_suggest import DEFAULT_SAMPLES, suggest_split

TABLE = {"min_ante": 10, "max_ante": 1000, "max_payout": 50000}


def _box(i: int, cards: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"box": str(i), "seat": "ABCD"[(i - 1) % 4], "ante": 100,
                           "cards": cards.split(), "decision": "bet"}
    out.update(extra)
    return out


#: dealer Ace-King (a game); seven boxes: wins from AK to a flush, a loss, a tie-free fold
CARIBBEAN_FULL_TABLE: dict[str, Any] = {
    "profile": "caribbean-classic", "table": TABLE,
    "dealer": {"cards": ["Ah", "Kd", "9c", "5s", "2h"]},
    "boxes": [
        _box(1, "7s 7d 4c 4h Js"), _box(2, "Ac Ks Qd 3h 4d"), _box(3, "6s 7c 8c 9h Ts"),
        _box(4, "3s 8s 9s Qs 2s"), _box(5, "Qh Jd 8d 4s 3c", decision="fold"),
        _box(6, "Kh Kc 6h 6d 6c"), _box(7, "Jh Th 9d 7h 5c"),
    ],
}

#: dealer a pair of nines; every box but one replaces cards (all five for box 4: it must raise)
OASIS_FULL_TABLE: dict[str, Any] = {
    "profile": "oasis-classic", "table": TABLE,
    "dealer": {"cards": ["9h", "9d", "Kc", "5s", "2h"]},
    "boxes": [
        _box(1, "7s 7d 4c Jh 3d", improvement={"replace": {"discard": ["3d"], "draw": ["7c"]}}),
        _box(2, "Ac Ks Qd 3h 4d", improvement={"replace": {"discard": ["4d"], "draw": ["Ad"]}}),
        _box(3, "6s 7h 8c Jc 2c",
             improvement={"replace": {"discard": ["Jc", "2c"], "draw": ["9s", "Ts"]}}),
        _box(4, "3s 4s 5d 6d 8d",
             improvement={"replace": {"discard": ["3s", "4s", "5d", "6d", "8d"],
                                      "draw": ["Qs", "Qc", "Qh", "2d", "2s"]}}),
        _box(5, "Jd Td 8h 4h 3c", decision="fold",
             improvement={"replace": {"discard": ["3c"], "draw": ["5c"]}}),
        _box(6, "6h 6c 8s 9c Tc"),
        _box(7, "Js 5h Th Kh Kd", improvement={"replace": {"discard": ["5h"], "draw": ["As"]}}),
    ],
}

#: dealer a pair of twos (a game) with Small Hand K-5; free, bought and no extra cards
SPLIT_FULL_TABLE: dict[str, Any] = {
    "profile": "split-classic", "table": TABLE,
    "dealer": {"cards": ["2h", "2d", "9c", "5s", "3h"], "small": ["Kc", "5d"]},
    "boxes": [
        _box(1, "7s 7d Ac Kh 3d", extra={"mode": "bought", "cards": ["7c", "Qh"]},
             split={"big": ["7s", "7d", "7c", "3d", "Qh"], "small": ["Ac", "Kh"]}),
        _box(2, "Ts Td 8c 4h 3s", extra={"mode": "free", "cards": ["Qd", "Qs"]}),
        _box(3, "Ks Kd 8d 6h 4s"),
        _box(4, "Js Jd 9s 6s 2s", extra={"mode": "bought", "cards": ["2c", "4d"]},
             split={"big": ["Js", "Jd", "2s", "2c", "9s"], "small": ["6s", "4d"]}),
        _box(5, "Ah 8h 6c 4c 3c", extra={"mode": "free", "cards": ["Tc", "Th"]}),
        _box(6, "Jh Ad 9h 8s 7h", decision="fold",
             extra={"mode": "bought", "cards": ["6d", "As"]}),
        _box(7, "Qc Jc 9d 5c 5h"),
    ],
}


def house_scenarios() -> list[tuple[str, str, dict[str, Any]]]:
    return [("caribbean_full_table_settle", "caribbean", CARIBBEAN_FULL_TABLE),
            ("oasis_full_table_settle", "oasis", OASIS_FULL_TABLE),
            ("split_full_table_settle", "split", SPLIT_FULL_TABLE)]


def median_ms(run: Callable[[], object], repeats: int) -> float:
    """Median wall time of one call, in milliseconds (after a short warm-up)."""
    for _ in range(min(50, repeats)):
        run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def time_suggestions(boxes: int, samples: int) -> tuple[float, float, float]:
    """Median and p95 milliseconds of one box's suggestion, and the median SE of the best EV."""
    deck = list(ALL_CARDS)
    rng = random.Random(2024)
    suggest_split(deck[:7], deck[7], seed=0, samples=samples)  # warm-up: evaluator tables
    times, errors = [], []
    for n in range(boxes):
        rng.shuffle(deck)
        start = time.perf_counter()
        result = suggest_split(deck[:7], deck[7], seed=n, samples=samples)
        times.append((time.perf_counter() - start) * 1000)
        errors.append(result.best.se)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times), p95, statistics.median(errors)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2000)
    parser.add_argument("--boxes", type=int, default=20)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test); no figure "
                             "of a smoke run means anything")
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats, args.boxes, args.samples = 3, 2, 200
    results = []
    for name, game, body in house_scenarios():
        settle_request = GAMES[game].settle_request
        settle_request(body)  # a refused scenario would time an error path
        results.append((name, median_ms(lambda s=settle_request, b=body: s(b), args.repeats)))
    med, p95, se = time_suggestions(args.boxes, args.samples)
    print(f"median of {args.repeats} settles per scenario; suggestion over {args.boxes} boxes, "
          f"{args.samples} sampled dealer deals each (time.perf_counter)")
    for name, ms in results:
        print(f"{name}: {ms:.3f} ms")
    print(f"split_suggest_one_box: {med:.1f} ms")
    print(f"split_suggest_one_box_p95: {p95:.1f} ms")
    print(f"split_suggest_ev_se: {se:.3f} ante")


if __name__ == "__main__":
    main()

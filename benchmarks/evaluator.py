"""Time the hand evaluator against its peers (treys, eval7) on the same hands, in one run.

Run from the project root::

    .venv/bin/pip install -r benchmarks/requirements.txt
    .venv/bin/python benchmarks/evaluator.py [--hands 20000] [--repeats 7] [--seed 2024]

Every evaluator sees the same seeded random hands of 5, 6 and 7 cards, each converted to its own
card representation before timing. The evaluators take turns on chunks of 5,000 hands, and each
figure is the best chunk over several repeats (the least disturbed by other work on the machine).
Before timing, the script checks that all evaluators order a sample of hand pairs the same way.
The headline figures come last, one per line, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

try:
    import dealer_assist.rules as rules
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import dealer_assist.rules as rules

import eval7  # type: ignore[import-untyped]
from treys import Card as TreysCard  # type: ignore[import-untyped]
from treys import Evaluator as TreysEvaluator

SIZES = (5, 6, 7)
STANDARD = rules.get_ranking("standard")


def deal(n: int, count: int, seed: int) -> list[list[str]]:
    """``count`` seeded random hands of ``n`` distinct cards, as two-character codes."""
    rng = random.Random(seed * 100 + n)
    deck = [c.code for c in rules.ALL_CARDS]
    return [rng.sample(deck, n) for _ in range(count)]


def make_runners() -> dict[str, tuple[Callable[[list[str]], Any], Callable[[Any], None]]]:
    """name -> (convert one hand beforehand, evaluate a list of converted hands)."""
    rank_key, evaluate = rules.rank_key, rules.evaluate
    treys = TreysEvaluator()
    treys_eval = treys.evaluate
    eval7_eval = eval7.evaluate

    def run_rank_key(hands: Sequence[tuple[rules.Card, ...]]) -> None:
        r = STANDARD
        for h in hands:
            rank_key(h, r)

    def run_evaluate(hands: Sequence[tuple[rules.Card, ...]]) -> None:
        r = STANDARD
        for h in hands:
            evaluate(h, r)

    def run_treys(hands: Sequence[tuple[list[int], list[int]]]) -> None:
        for hole, board in hands:
            treys_eval(hole, board)

    def run_eval7(hands: Sequence[list[Any]]) -> None:
        for h in hands:
            eval7_eval(h)

    def ours(h: list[str]) -> tuple[rules.Card, ...]:
        return rules.parse_cards(h)

    def for_treys(h: list[str]) -> tuple[list[int], list[int]]:
        ints = [TreysCard.new(c) for c in h]
        return ints[:2], ints[2:]

    def for_eval7(h: list[str]) -> list[Any]:
        return [eval7.Card(c) for c in h]

    return {
        "rank_key": (ours, run_rank_key),
        "evaluate": (ours, run_evaluate),
        "treys": (for_treys, run_treys),
        "eval7": (for_eval7, run_eval7),
    }


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def check_agreement(hands: list[list[str]], pairs: int) -> int:
    """All evaluators order ``pairs`` hand pairs the same way (treys: lower is better)."""
    treys = TreysEvaluator()

    def scores(h: list[str]) -> tuple[int, int, int]:
        ours = rules.rank_key(rules.parse_cards(h), STANDARD)
        ints = [TreysCard.new(c) for c in h]
        return ours, -treys.evaluate(ints[:2], ints[2:]), eval7.evaluate([eval7.Card(c) for c in h])

    sample = [scores(h) for h in hands[: 2 * pairs]]
    for a, b in zip(sample[::2], sample[1::2], strict=True):
        signs = {sign(x - y) for x, y in zip(a, b, strict=True)}
        if len(signs) != 1:
            raise SystemExit(f"evaluators disagree on a pair of hands: {a} vs {b}")
    return len(sample) // 2


def best_times(jobs: dict[str, tuple[Callable[[Any], None], Sequence[Any]]], repeats: int,
               chunk: int = 5_000) -> dict[str, float]:
    """Seconds per hand for each job: the best chunk time over ``repeats`` interleaved rounds.

    The evaluators take turns chunk by chunk, so that a slow moment of a shared machine falls on
    all of them alike instead of on whichever ran during it.
    """
    best = {name: float("inf") for name in jobs}
    for _ in range(repeats):
        for start in range(0, max(len(hands) for _, hands in jobs.values()), chunk):
            for name, (run, hands) in jobs.items():
                part = hands[start:start + chunk]
                if not part:
                    continue
                t0 = time.perf_counter()
                run(part)
                best[name] = min(best[name], (time.perf_counter() - t0) / len(part))
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per size")
    parser.add_argument("--repeats", type=int, default=7, help="repeats; the best one counts")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test); no figure "
                             "of a smoke run means anything")
    args = parser.parse_args(argv)
    if args.smoke:
        args.hands, args.repeats = 400, 1

    runners = make_runners()
    rates: dict[tuple[str, int], float] = {}
    checked = 0
    for n in SIZES:
        codes = deal(n, args.hands, args.seed)
        checked += check_agreement(codes, min(2_000, args.hands // 2))
        jobs = {}
        for name, (convert, run) in runners.items():
            converted = [convert(h) for h in codes]
            run(converted[:100])  # warm-up: builds lookup tables, fills caches
            jobs[name] = (run, converted)
        for name, seconds in best_times(jobs, args.repeats).items():
            rates[(name, n)] = 1 / seconds

    print(f"evaluator benchmark: {args.hands} hands per size, best 5,000-hand chunk of "
          f"{args.repeats} interleaved repeats, "
          f"seed {args.seed}, Python {sys.version.split()[0]}")
    print(f"sanity: rank_key, treys and eval7 order all {checked} sampled hand pairs alike")
    print()
    names = list(runners)
    header = f"{'cards':>5} " + "".join(f"{name + ' hands/s':>20}" for name in names)
    header += "".join(f"{'rank_key/' + peer:>18}" for peer in ("treys", "eval7"))
    header += "".join(f"{'evaluate/' + peer:>18}" for peer in ("treys", "eval7"))
    print(header)
    for n in SIZES:
        row = f"{n:>5} " + "".join(f"{rates[(name, n)]:>20,.0f}" for name in names)
        for ours in ("rank_key", "evaluate"):
            row += "".join(f"{rates[(ours, n)] / rates[(peer, n)]:>17.2f}x"
                           for peer in ("treys", "eval7"))
        print(row)
    print()
    for n in SIZES:
        print(f"rank_key_{n}_vs_treys: {rates[('rank_key', n)] / rates[('treys', n)]:.2f} x")
    for n in SIZES:
        print(f"rank_key_{n}_vs_eval7: {rates[('rank_key', n)] / rates[('eval7', n)]:.2f} x")
    for n in SIZES:
        print(f"evaluate_{n}_vs_treys: {rates[('evaluate', n)] / rates[('treys', n)]:.2f} x")
    for n in SIZES:
        print(f"rank_key_{n}_hands_per_s: {rates[('rank_key', n)]:.0f} hands/s")


if __name__ == "__main__":
    main()

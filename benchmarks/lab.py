"""Time the game-math lab: the batch evaluator against eval7's per-call loop, then each computation.

Run from the project root::

    .venv/bin/pip install -r benchmarks/requirements.txt
    .venv/bin/python benchmarks/lab.py [--repeats 3] [--rounds 4000000] [--skip-exact]
        [--workers 2] [--to-target]

The evaluators see the same 2,598,960 five-card hands (every hand of the deck), each in its own
representation built before timing; each figure is the best of ``--repeats`` runs (the least
disturbed by other work on the machine). Before timing, the script checks that both order the
hands identically (the same 7,462 distinct values, in the same order). Then it times the
exact Caribbean stud count and the Monte Carlo of every profile that has one (Caribbean, Oasis,
Russian poker, Big/Small), each with its wall and CPU time (the CPU time includes the worker
processes), and from the measured rate and standard deviation the time a run needs for a
standard error of 0.05 % of the ANTE. ``--to-target`` runs each profile's default rounds
(``lab.house_edge.DEFAULT_ROUNDS``) instead and reports the time actually taken. Headline
figures come last, one per line, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

try:
    import dealer_assist  # noqa: F401
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import eval7  # type: ignore[import-untyped]
import numpy as np

from dealer_assist.lab import batch, caribbean_exact, house_edge, montecarlo
from dealer_assist.rules import games  # noqa: F401
from dealer_assist.rules.profiles import get_profile
from dealer_assist.rules.ranking import get_ranking

STANDARD = get_ranking("standard")
MC_PROFILES = ("caribbean-classic", "oasis-classic", "oasis-per-card", "oasis-one-card",
               "russian-classic", "russian-pair-game", "split-classic")


def best_of(repeats: int, fn: object) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return min(times)


def monte_carlo(name: str, args: argparse.Namespace) -> tuple[float, float, float]:
    """Time one profile's simulation; (rounds per wall second, wall and CPU seconds to
    SE 0.05 %; the CPU figure counts every worker and does not depend on other jobs).

    A first small run builds the profile's look-up tables (Russian poker's pay tables: about
    45,000 engine calls), timed apart: a process builds them once, whatever it simulates."""
    profile = get_profile(name)
    t = time.perf_counter()
    montecarlo.simulate(profile, rounds=1000, workers=1)
    print(f"Monte Carlo {name}: tables built in {time.perf_counter() - t:.1f} s")
    rounds = house_edge.default_rounds(profile) if args.to_target else args.rounds
    sim = montecarlo.simulate(profile, rounds=rounds, workers=args.workers)
    sd = sim.standard_error * rounds ** 0.5
    needed = (sd / house_edge.TARGET_SE) ** 2
    to_target = sim.seconds if args.to_target else needed / rounds * sim.seconds
    cpu_target = sim.cpu_seconds if args.to_target else needed / rounds * sim.cpu_seconds
    how = "measured" if args.to_target else "projected"
    print(f"Monte Carlo {name}: {rounds} rounds in {sim.seconds:.1f} s wall, "
          f"{sim.cpu_seconds:.1f} s CPU ({args.workers} workers); house edge "
          f"{sim.house_edge * 100:.3f} % +- {sim.standard_error * 100:.3f} % (1 SE), sd "
          f"{sd:.2f} ANTEs: SE 0.05 % needs {needed / 1e6:.1f} M rounds, {how} "
          f"{to_target:.1f} s wall, {cpu_target:.1f} s CPU")
    return rounds / sim.seconds, to_target, cpu_target


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=4_000_000)
    ap.add_argument("--skip-exact", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--to-target", action="store_true",
                    help="run each profile's default rounds (SE below 0.05 %%) and time them")
    ap.add_argument("--smoke", action="store_true",
                    help="a tiny run that proves the script works (make test); no figure of "
                         "a smoke run means anything")
    args = ap.parse_args()
    if args.smoke:
        args.repeats, args.rounds, args.skip_exact, args.workers = 1, 2_000, True, 1
    hands = batch.all_five_card_hands()
    if args.smoke:  # every 100th hand: the comparison with eval7 still runs
        hands = hands[::100]
    batch.rank_keys(hands[:10], STANDARD)  # build the tables outside the timing
    cards = [eval7.Card("23456789TJQKA"[i % 13] + "shdc"[i // 13]) for i in range(52)]
    e7_hands = [[cards[c] for c in row] for row in hands.tolist()]
    ours = batch.rank_keys(hands, STANDARD)
    theirs = np.array([eval7.evaluate(h) for h in e7_hands])
    assert len(np.unique(ours)) == len(np.unique(theirs)) == (
        len(np.unique(ours)) if args.smoke else 7462)
    same = np.array_equal(np.unique(ours, return_inverse=True)[1],
                          np.unique(theirs, return_inverse=True)[1])
    assert same, "the two evaluators order the hands differently"
    e7 = eval7.evaluate

    def eval7_loop() -> None:
        for h in e7_hands:
            e7(h)

    t_ours = best_of(args.repeats, lambda: batch.rank_keys(hands, STANDARD))
    t_e7 = best_of(args.repeats, eval7_loop)
    print(f"batch evaluator, {len(hands):,} five-card hands: {t_ours:.3f} s")
    print(f"eval7 per-call loop, same hands: {t_e7:.3f} s")
    exact_s = None
    if not args.skip_exact:
        t = time.perf_counter()
        c0 = time.process_time()
        result = caribbean_exact.analyse(get_profile("caribbean-classic"))
        exact_s = time.perf_counter() - t
        print(f"exact Caribbean stud (4 strategies): {exact_s:.1f} s wall, "
              f"{time.process_time() - c0:.1f} s CPU; optimal house edge "
              f"{result.strategies['optimal'].house_edge * 100:.3f} %")
    mc = {name: monte_carlo(name, args) for name in MC_PROFILES}
    print(f"batch_evaluator_5card: {len(hands) / t_ours / 1e6:.2f} Mhands/s")
    print(f"eval7_5card: {len(hands) / t_e7 / 1e6:.2f} Mhands/s")
    print(f"batch_vs_eval7: {t_e7 / t_ours:.2f} x")
    if exact_s is not None:
        print(f"caribbean_exact: {exact_s:.1f} s")
    for name, (rate, _, _) in mc.items():
        print(f"montecarlo_{name}: {rate / 1e6:.3f} Mrounds/s")
    for name, (_, to_target, cpu_target) in mc.items():
        print(f"montecarlo_{name}_se_0.05pct_wall: {to_target:.1f} s")
        print(f"montecarlo_{name}_se_0.05pct_cpu: {cpu_target:.1f} s")

if __name__ == "__main__":
    main()

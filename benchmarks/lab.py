"""Time the game-math lab: the batch evaluator against eval7's per-call loop, then each computation.

Run from the project root::

    .venv/bin/pip install -r benchmarks/requirements.txt
    .venv/bin/python benchmarks/lab.py [--repeats 3] [--rounds 4000000] [--skip-exact]
        [--workers 2] [--to-target] [--hands 20] [--reference 1500] [--speedup]
        [--speedup-classes N] [--smoke]

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

Adds the decision advisor and the best strategies: ``--hands`` random Russian poker
hands are advised (CPU seconds per hand, tables built beforehand), and each is checked against
a precise reference (every modelled option corrected by ``--reference`` exact sampled draws):
every pair of options the reference separates by more than 0.01 ANTE must be ranked the same.
The best strategies' house edges are read from the stored figures (``flask lab
best-strategy`` computes them); ``--speedup`` times the Russian poker table on a local Dask
cluster of one and then two workers. ``--smoke`` runs the rest once on tiny sizes (``make
test`` does, so the script does not rot) and leaves out the advisor, whose tables take minutes
of CPU under load, and the speed-up: their own tests run them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

# benchmarks/http.py would shadow the standard library's http (Dask imports it): run with the
# project root, not this folder, on the path
try:
    sys.path[:] = [p for p in sys.path
                   if Path(p or ".").resolve() != Path(__file__).resolve().parent]
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
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--reference", type=int, default=1500)
    ap.add_argument("--speedup", action="store_true")
    ap.add_argument("--speedup-classes", type=int, default=None,
                    help="time only the first N hand classes of the Russian table (a bounded "
                         "speed-up measurement; default: the whole table)")
    ap.add_argument("--smoke", action="store_true",
                    help="a tiny run that proves the script works (make test); no figure of "
                         "a smoke run means anything")
    args = ap.parse_args()
    if args.smoke:
        args.repeats, args.rounds, args.skip_exact, args.workers = 1, 2_000, True, 1
        args.hands, args.reference = 1, 40
    headlines = advisor_and_best(args)
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
    for line in headlines:
        print(line)


def advisor_and_best(args: argparse.Namespace) -> list[str]:
    """The figures (see the module docstring); returns the headline lines. A smoke
    run leaves out the advisor (its tables take minutes of CPU to build) and the Dask
    speed-up: ``tests/lab/test_advisor.py`` and ``tests/lab/test_best_dask.py`` run those."""
    from dealer_assist.lab import best, cluster, strategy_store
    profile = get_profile("russian-classic")
    if args.smoke:
        print("smoke: the advisor and the Dask speed-up are left out (their own tests run them)")
        lines: list[str] = []
    else:
        lines = advisor_figures(args, profile)
    wall = cpu_total = 0.0
    for name in (*MC_PROFILES[1:], "caribbean-classic"):
        f = strategy_store.figures(get_profile(name))
        s = (f or {}).get("strategies", {}).get("best")
        if not s:
            print(f"best strategy {name}: not stored (flask lab best-strategy computes it)")
            continue
        wall, cpu_total = wall + s["seconds"], cpu_total + s["cpu_seconds"]
        se = f" +- {s['standard_error'] * 100:.3f} %" if s["standard_error"] else " (exact)"
        lines.append(f"best_{name}_house_edge: {s['house_edge'] * 100:.3f} %{se}")
    lines += [f"best_all_profiles_wall_stored: {wall:.0f} s",
              f"best_all_profiles_cpu_stored: {cpu_total:.0f} s"]
    if args.speedup:
        classes = args.speedup_classes
        times = {}
        for n in (1, 2):
            with cluster.connect(workers=n) as client:
                t = time.perf_counter()
                _table, task_cpu = best.russian_table(client, profile, classes)
                times[n] = time.perf_counter() - t
                print(f"Russian poker table on {n} worker(s): {times[n]:.1f} s wall, "
                      f"{task_cpu:.1f} s CPU in the workers")
        print(f"speed-up measured on {classes or 'all'} hand classes of the Russian table")
        lines.append(f"best_table_speedup_1_to_2_workers: {times[1] / times[2]:.2f} x")
    return lines


def advisor_figures(args: argparse.Namespace, profile: Any) -> list[str]:
    """The advisor's CPU per Russian poker hand and its ranking against a precise reference."""
    from dealer_assist.lab import advice
    rng = np.random.default_rng(24)
    t = time.perf_counter()
    advice.advise(profile, "deal", [int(c) for c in rng.choice(52, 5, replace=False)])
    print(f"advisor: tables built in {time.perf_counter() - t:.1f} s (once per process)")
    cpu, errors, pairs, worst = [], 0, 0, 0.0
    for _ in range(args.hands):
        hand = [int(c) for c in rng.choice(52, 5, replace=False)]
        fast = advice.advise(profile, "deal", hand)
        cpu.append(fast.seconds)
        ref = advice.advise(profile, "deal", hand, precise=args.reference)
        got = {(o.action, o.cards): o.ev for o in fast.options}
        want = {(o.action, o.cards): o.ev for o in ref.options}
        worst = max(worst, max(abs(got[k] - want[k]) for k in want))
        keys = list(want)
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                if abs(want[a] - want[b]) > 0.01:
                    pairs += 1
                    errors += (got[a] > got[b]) != (want[a] > want[b])
    print(f"advisor: {args.hands} Russian poker hands, {pairs} option pairs more than 0.01 "
          f"ANTE apart by the reference ({args.reference} exact draws per modelled option)")
    return [f"advisor_russian_cpu_per_hand_mean: {np.mean(cpu):.3f} s",
            f"advisor_russian_cpu_per_hand_max: {np.max(cpu):.3f} s",
            f"advisor_russian_misranked_pairs_over_0.01: {errors} of {pairs}",
            f"advisor_russian_max_difference_from_reference: {worst:.4f} ANTE"]


if __name__ == "__main__":
    main()

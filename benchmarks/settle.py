"""Time settling full tables, game by game, with the calculator path the API uses.

Run from the project root::

    .venv/bin/python benchmarks/settle.py [--repeats 2000]

Each scenario is a complete calculator request (a full table); the script settles it once to
check that it is legal, then times ``settle_request(body)`` (parse, verify every action, settle)
``--repeats`` times with ``time.perf_counter`` and reports the median per settle. For Russian
poker it also times ``settle(state)`` alone on the verified round state. The headline figures
come last, one per line, as ``name: value unit``.

To add a game, append a :class:`Scenario` to ``SCENARIOS`` (a name, the game, a request body).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    from dealer_assist.rules.games import GAMES
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from dealer_assist.rules.games import GAMES

from settle_house_games import house_scenarios, median_ms, time_suggestions  # beside this script

from dealer_assist.rules.games import russian


@dataclass(frozen=True)
class Scenario:
    """One timed case: ``run`` is called ``repeats`` times; ``check`` once before timing."""

    name: str
    run: Callable[[], object]
    check: Callable[[], object]


def calculator(game: str, body: Mapping[str, Any]) -> Callable[[], object]:
    """The API's path: ``GAMES[game].settle_request(body)``."""
    settle_request = GAMES[game].settle_request
    return lambda: settle_request(body)


def _russian_box(i: int, seat: str, cards: str, sixth: str, choice: str) -> dict[str, Any]:
    return {"box": str(i), "seat": seat, "ante": 100, "bonus": 50, "cards": cards.split(),
            "improvement": {"sixth_card": sixth}, "decision": "bet", "on_no_game": choice}


#: seven boxes on four seats, every box buys a sixth card; the dealer has no game, four boxes buy
#: one (with the free second replacement: Ad, then Qc), three take the ANTE
RUSSIAN_FULL_TABLE: dict[str, Any] = {
    "profile": "russian-classic",
    "table": {"min_ante": 10, "max_ante": 1000, "max_payout": 50000},
    "dealer": {"cards": ["Ah", "Qd", "9c", "5s", "2h"], "draw": ["Ad", "Qc", "3h"]},
    "boxes": [
        _russian_box(1, "A", "Js Jd Jc 4h 4s", "7c", "buy_game"),
        _russian_box(2, "A", "Ks Kd 8c 8h 3s", "3d", "buy_game"),
        _russian_box(3, "B", "5h 6c 7d 8s 2c", "9h", "take_ante"),
        _russian_box(4, "B", "Ts 9s 7s 6s 2d", "As", "buy_game"),
        _russian_box(5, "C", "Th 9d 6h 4c 3c", "Ac", "take_ante"),
        _russian_box(6, "C", "Kh Kc 7h Qs 6d", "Qh", "buy_game"),
        _russian_box(7, "D", "2s 4d Jh Td 5c", "8d", "take_ante"),
    ],
}


def _russian_settle_only() -> Callable[[], object]:
    state = russian.round_from_request(RUSSIAN_FULL_TABLE)
    return lambda: russian.settle(state)


SCENARIOS: list[Scenario] = [
    Scenario("russian_full_table_settle", calculator("russian", RUSSIAN_FULL_TABLE),
             calculator("russian", RUSSIAN_FULL_TABLE)),
    Scenario("russian_full_table_settle_state_only", _russian_settle_only(),
             _russian_settle_only()),
]


def _house_game_scenarios() -> list[Scenario]:
    """Caribbean stud, Oasis and Big/Small full tables (defined in ``settle_house_games.py``)."""

    return [Scenario(name, calculator(game, body), calculator(game, body))
            for name, game, body in house_scenarios()]


SCENARIOS += _house_game_scenarios()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2000)
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test); no figure "
                             "of a smoke run means anything")
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats = 3
    results = []
    for scenario in SCENARIOS:
        scenario.check()  # a scenario that the engine refuses would time an error path
        results.append((scenario.name, median_ms(scenario.run, args.repeats)))
    print(f"median of {args.repeats} settles per scenario (time.perf_counter)")
    for name, ms in results:
        print(f"{name}: {ms:.3f} ms")
    # Big/Small suggested split for one box: 20 random boxes, 20,000 sampled dealer deals each

    med, p95, se = (time_suggestions(boxes=2, samples=200) if args.smoke
                    else time_suggestions(boxes=20, samples=20_000))
    print(f"split_suggest_one_box_p95: {p95:.1f} ms")
    print(f"split_suggest_one_box: {med:.1f} ms")
    print(f"split_suggest_ev_se: {se:.3f} ante")


if __name__ == "__main__":
    main()

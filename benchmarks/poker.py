"""Time one full 6-player Americana stud hand with two all-ins: the API, the engine, pokerkit.

Run from the project root::

    .venv/bin/python benchmarks/poker.py [--repeats 300]

The hand (no-limit, ANTE 5, BRING-IN 10, button seat 6): the king of spades brings in, five
players see the second street, seat 2 goes all in for 45 in round 2 and seat 4 for 60 in round 3;
the last round is checked and four hands are shown: a main pot and two side pots. It is timed

* through the calculator API, ``POST /api/v1/poker/hand`` with the Flask test client (JSON in,
  replay of the 25 actions, JSON out), the way a table tablet asks after each action;
* through the engine alone: ``replay`` of the parsed actions to the complete state;
* with pokerkit (the peer, ``benchmarks/requirements.txt``) playing the same hand: the same
  cards dealt, the same bring-in, bets, calls and folds, showdown and chip pushing automated.

Both engines must agree on every player's final stack (checked once before timing). Each figure
is the median of ``--repeats`` runs (``time.perf_counter``); ratios and headline figures come
last, one per line, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# benchmarks/http.py would shadow the standard library's ``http`` (Flask imports it): take the
# benchmarks directory off the path, put the project root on it
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from pokerkit import (  # noqa: E402
    Automation,
    BettingStructure,
    Deck,
    Opening,
    StandardHighHand,
    State,
    Street,
)

from dealer_assist import create_app  # noqa: E402
from dealer_assist.rules.games.poker import hand_to_dict, parse_hand  # noqa: E402
from dealer_assist.rules.games.poker.calculator import parse_action  # noqa: E402

STACKS = [1000, 60, 1000, 120, 1000, 1000]
HOLE = ["Ah", "Kc", "9s", "Td", "8h", "Js"]
STREETS = [
    ["9c", "Ks", "8d", "Jh", "Tc", "7s"],
    ["9d", "7c", "Qh", "8s", "Qc"],
    ["7h", "Kh", "Qd", "Jd"],
    ["8c", "Kd", "Ts", "Jc"],
]
# (seat, action, to) per betting round; seat 6 folds in round 1, seat 5 in round 2
BETTING = [
    [("2", "bring_in", None), ("3", "call", None), ("4", "call", None), ("5", "call", None),
     ("6", "fold", None), ("1", "call", None)],
    [("1", "bet", 20), ("2", "raise", 45), ("3", "call", None), ("4", "call", None),
     ("5", "fold", None), ("1", "call", None)],
    [("3", "bet", 100), ("4", "call", None), ("1", "call", None)],
    [("3", "check", None), ("1", "check", None)],
]
SHOW_ORDER = ["1", "2", "3", "4"]


def request_body() -> dict[str, Any]:
    actions: list[dict[str, Any]] = []
    live = ["1", "2", "3", "4", "5", "6"]
    for street, betting in zip(STREETS, BETTING, strict=True):
        actions.append({"type": "street", "up": dict(zip(live, street, strict=True))})
        for seat, kind, to in betting:
            actions.append({"type": kind, "seat": seat, **({"to": to} if to else {})})
            if kind == "fold":
                live.remove(seat)
    for seat in SHOW_ORDER:
        actions.append({"type": "show", "seat": seat, "cards": [HOLE[int(seat) - 1]]})
    return {"profile": "americana-no-limit", "stakes": {"ante": 5, "bring_in": 10},
            "button": "6", "seats": [{"seat": str(i + 1), "stack": s}
                                     for i, s in enumerate(STACKS)], "actions": actions}


def pokerkit_hand() -> list[int]:
    """The same hand in pokerkit: stud streets, antes, bring-in, no-limit, showdown."""
    # pokerkit wants the bring-in below the first street's "completion"; ours completes by
    # raising one BRING-IN (to 20), so that is the completion; later streets bet 10 at least
    streets = (Street(False, (False, True), 0, False, Opening.HIGH_CARD, 20, None),
               *(Street(False, (True,), 0, False, Opening.HIGH_HAND, 10, None)
                 for _ in range(3)))
    state = State((Automation.ANTE_POSTING, Automation.BET_COLLECTION,
                   Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
                   Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING),
                  Deck.STANDARD, (StandardHighHand,), streets, BettingStructure.NO_LIMIT,
                  True, 5, 0, 10, STACKS, 6)
    for player in range(6):
        state.deal_hole(HOLE[player])
    live = [0, 1, 2, 3, 4, 5]
    for street, betting in zip(STREETS, BETTING, strict=True):
        assert len(street) == len(live)  # one up card for each player still in
        for card in street:
            state.deal_hole(card)
        for seat, kind, to in betting:
            if kind == "bring_in":
                state.post_bring_in()
            elif kind in ("call", "check"):
                state.check_or_call()
            elif kind == "fold":
                state.fold()
                live.remove(int(seat) - 1)
            else:
                state.complete_bet_or_raise_to(to)
    return list(state.stacks)


def median_us(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=300)
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test); no figure "
                             "of a smoke run means anything")
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeats = 3
    body = request_body()
    app = create_app({"TESTING": True, "SECRET_KEY": "bench",
                      "DATABASE_URL": "sqlite:///:memory:"})
    client = app.test_client()

    def api() -> dict[str, Any]:
        resp = client.post("/api/v1/poker/hand", json=body)
        assert resp.status_code == 200, resp.get_data()
        return resp.json  # type: ignore[no-any-return]

    ours = api()
    theirs = pokerkit_hand()
    assert ours["status"] == "complete", ours
    mine = [ours["stacks"][str(i + 1)] for i in range(6)]
    assert mine == theirs, (mine, theirs)
    actions = [parse_action(a, f"actions[{i}]") for i, a in enumerate(body["actions"])]
    state = parse_hand(body)

    from dealer_assist.rules.games.poker import get_poker_profile, make_stakes, replay
    from dealer_assist.rules.games.poker.setup import SeatEntry
    profile = get_poker_profile("americana-no-limit")
    stakes = make_stakes(profile, {"ante": 5, "bring_in": 10})
    seats = [SeatEntry(str(i + 1), s) for i, s in enumerate(STACKS)]
    assert replay(profile, stakes, "6", seats, actions) == state

    api_us = median_us(api, args.repeats)
    engine_us = median_us(lambda: replay(profile, stakes, "6", seats, actions), args.repeats)
    parse_us = median_us(lambda: hand_to_dict(parse_hand(body)), args.repeats)
    peer_us = median_us(pokerkit_hand, args.repeats)
    print(f"one 6-player Americana no-limit hand, {len(actions)} actions, 2 all-ins, "
          f"3 pots; median of {args.repeats} runs")
    print(f"final stacks (ours = pokerkit): {mine}")
    print(f"poker_engine_plus_json: {parse_us:.0f} us")
    print(f"ratio_engine_vs_pokerkit: {engine_us / peer_us:.2f} x")
    print(f"ratio_api_vs_engine: {api_us / engine_us:.2f} x")
    print(f"poker_pokerkit_hand: {peer_us:.0f} us")
    print(f"poker_engine_hand: {engine_us:.0f} us")
    print(f"poker_api_hand: {api_us:.0f} us")


if __name__ == "__main__":
    main()

"""Parlour Americana over random deals: chips are conserved and the play-out always ends with
exactly one winner ("Done when"). Betting sequences are random too: each step is a
random action kept only if the engine accepts it, so every finished round is a legal one."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.rules import IllegalActionError, RulesError
from dealer_assist.rules.cards import ALL_CARDS
from dealer_assist.rules.games.parlour import (
    DEFAULT_PROFILE,
    Action,
    Board,
    ExtraHand,
    HandInput,
    play_hand,
    run_betting,
)

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")


def legal_betting(data: st.DataObject, players: tuple[str, ...]) -> tuple[Action, ...]:
    actions: list[Action] = []
    for _ in range(40):
        try:
            run_betting(players, actions)
            return tuple(actions)
        except IllegalActionError as err:
            if err.field != "betting":
                raise
            turn = str(err.value)
        kinds = ["call", "pass"] if len(actions) > 12 else ["bet", "call", "raise", "pass"]
        for kind in data.draw(st.permutations(kinds)):
            amount = data.draw(st.integers(1, 5)) if kind in ("bet", "raise") else None
            act = Action(turn, kind, amount)
            try:
                run_betting(players, [*actions, act])
            except IllegalActionError as err:
                if err.field != "betting":
                    continue
            actions.append(act)
            break
    raise AssertionError("betting did not finish")  # pragma: no cover


def deal(cards: list[Any], n: int) -> tuple[dict[str, tuple[Any, ...]], tuple[Any, ...]]:
    hands = [tuple(cards[i::n + 1]) for i in range(n + 1)]
    return {NAMES[i]: hands[i] for i in range(n)}, hands[n]


@settings(max_examples=150, deadline=None)
@given(cards=st.permutations(ALL_CARDS), n=st.integers(2, 9), data=st.data(),
       variant=st.sampled_from(["basic", "clockwise"]),
       extra=st.sampled_from(["keep", "exchange", "sell"]),
       pool=st.integers(0, 30), ante=st.integers(0, 30), other=st.integers(0, 30))
def test_chips_are_conserved_and_the_play_out_has_exactly_one_winner(
        cards: list[Any], n: int, data: st.DataObject, variant: str, extra: str, pool: int,
        ante: int, other: int) -> None:
    players = NAMES[:n]
    hands, extra_cards = deal(cards, n)
    choice = ExtraHand("sell", players[data.draw(st.integers(1, n - 1))],
                       data.draw(st.integers(1, 9))) if extra == "sell" else ExtraHand(extra)
    board = Board(pool, {"ante": ante, "KQ-clubs": other, "8-9-10": other})
    result = play_hand(HandInput(DEFAULT_PROFILE, variant, players, board, hands, extra_cards,
                                 choice, legal_betting(data, players)))
    # conserved: what the players lost is exactly what the board gained
    assert sum(result.net.values()) + result.board_after.total - board.total == 0
    assert all(v >= 0 for v in result.board_after.sections.values())
    po = result.playout
    out = [p for p in players if not po.left[p]]
    assert out == [po.winner]
    assert po.payments == {p: len(po.left[p]) for p in players if p != po.winner}
    assert result.board_after.sections["ante"] == sum(po.payments.values())
    # every card played is played once, by its holder; every stop card was dead or played
    played: set[str] = set()
    dead = {c.code for c in result.dead}
    for step in po.plays:
        if "stop" in step:
            assert step["stop"] in dead | played
        elif "pays" not in step:
            assert step["card"] not in played
            assert step["card"] in {c.code for c in result.held[step["player"]]}
            played.add(step["card"])


def test_a_random_betting_driver_really_refuses_an_out_of_turn_action() -> None:
    try:
        run_betting(("Ann", "Bob"), [Action("Ann", "bet", 1)])
    except RulesError as err:
        assert err.field == "betting[0].player"
    else:  # pragma: no cover
        raise AssertionError("out of turn accepted")

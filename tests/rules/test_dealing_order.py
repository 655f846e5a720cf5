"""Seeded random rounds of all four house games played through the live engine in both orders
(all cards first, as a card-reading shoe sends them; dealing order, as the croupier sees them)
settle exactly as the calculator does, and no step offered before the reveal asks for a hidden
card (the same cases run through the HTTP API in tests/web/test_dealing_order_api.py)."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.rules.games.registry import start
from tests.rules.round_cases import Case, calculator, case, money, play

GAMES = ("russian", "caribbean", "oasis", "split")
SEEDS = range(100)


def settle_live(c: Case, order: str) -> dict[str, Any]:
    table = c.body["table"]
    engine, state = start(c.game, c.profile, table["min_ante"], table["max_ante"],
                        table["max_payout"])
    holder = [engine.step(state, "place", {"boxes": [
        {k: b[k] for k in ("box", "seat", "ante", "bonus") if k in b} for b in c.body["boxes"]]})]

    def post(type: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
        holder[0] = engine.step(holder[0], type, engine.normalize(holder[0], type, payload))
        return [s.to_dict() for s in engine.next_steps(holder[0])]

    play(c, order, post, [s.to_dict() for s in engine.next_steps(holder[0])])
    assert engine.can_settle(holder[0])
    return engine.settle(holder[0]).to_dict()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("order", ["cards_first", "dealing_order"])
def test_a_hundred_seeded_rounds_settle_as_the_calculator_in_either_order(game: str,
                                                                          order: str) -> None:
    for seed in SEEDS:
        c = case(seed, game)
        assert money(settle_live(c, order)) == money(calculator(c)), (seed, c.body)

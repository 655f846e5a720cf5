"""The table screen's one-line heading follows the croupier's next job."""

from __future__ import annotations

import pytest

from dealer_assist.rules import RulesError
from dealer_assist.rules.engine import Step
from dealer_assist.rules.games.registry import start
from dealer_assist.rules.games.stud import phase


def test_once_bets_are_down_the_heading_asks_for_the_deal_even_though_boxes_may_still_be_added(
) -> None:
    steps = [Step("place", None, "Place the bets"), Step("deal_box", "1", "Enter cards", cards=5)]
    assert phase(steps, settled=False) == "Deal: enter the cards"


def test_in_dealing_order_the_heading_asks_for_the_deal_without_box_cards() -> None:
    steps = [Step("place", None, "Place the bets"), Step("deal_dealer", None, "Deal", cards=1)]
    assert phase(steps, settled=False) == "Deal the cards"


def test_before_any_bet_the_heading_asks_for_the_bets() -> None:
    assert phase([Step("place", None, "Place the bets")], settled=False) == "Place the bets"


def test_a_settled_round_with_nothing_left_to_record_is_paid_out() -> None:
    assert phase([], settled=True) == "Pay out"


def test_a_bonus_sent_to_a_stud_game_table_is_refused_by_the_engine_and_kept_for_russian_poker(
) -> None:
    """RULES.md has a bonus side bet for Russian poker only; the shared place codec passes the
    bonus through and each engine decides."""
    place = {"boxes": [{"box": "1", "ante": 100, "bonus": 50}]}
    engine, state = start("caribbean", "caribbean-classic", 10, 500, 50000)
    with pytest.raises(RulesError, match="no bonus bet"):
        engine.step(state, "place", place)
    engine, state = start("russian", "russian-classic", 10, 500, 50000)
    assert engine.step(state, "place", place).boxes[0].bonus == 50

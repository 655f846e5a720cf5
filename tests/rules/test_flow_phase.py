"""The table screen's one-line heading follows the croupier's next job."""

from __future__ import annotations

from dealer_assist.rules.games.flow import Step, phase


def test_once_bets_are_down_the_heading_asks_for_the_deal_even_though_boxes_may_still_be_added(
) -> None:
    steps = [Step("place", None, "Place the bets"), Step("deal_box", "1", "Enter cards", cards=5)]
    assert phase(steps, settled=False) == "Deal: enter the cards"


def test_before_any_bet_the_heading_asks_for_the_bets() -> None:
    assert phase([Step("place", None, "Place the bets")], settled=False) == "Place the bets"


def test_a_settled_round_with_nothing_left_to_record_is_paid_out() -> None:
    assert phase([], settled=True) == "Pay out"

"""The insurance form showed its limit only after refusing an amount. The
engine offers the insurance step for the hand the player shows with its limit, the box's
presumptive payout (RULES.md, Russian poker: "Insurance: only for a box holding three of a kind
or better; stake from the table minimum up to the box's presumptive payout, never above the
maximum payout")."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.rules import IllegalActionError
from dealer_assist.rules.games.registry import start


def _bet(max_payout: int = 50000) -> tuple[Any, Any]:
    """Box 1 (ANTE 100) has bet; nobody has seen its cards yet."""
    engine, state = start("russian", "russian-classic", 10, 500, max_payout)
    for type, payload in (("place", {"boxes": [{"box": "1", "ante": 100}]}),
                          ("deal_dealer", {"up": []}), ("bet", {"box": "1"})):
        state = engine.step(state, type, payload)
    return engine, state


def test_the_offered_insurance_step_asks_for_the_hand_and_knows_no_limit_yet() -> None:
    engine, state = _bet()
    step = next(s for s in engine.next_steps(state) if s.type == "insure")
    assert (step.cards, step.min_amount, step.max_amount) == (5, 10, None)


def test_the_insurance_step_for_a_shown_hand_carries_its_presumptive_payout() -> None:
    # trips pay 3 x BET 200 = 600: the presumptive payout; the table minimum is 10
    engine, state = _bet()
    step = engine.insure_step(state, "1", "As Ad Ah 2c 3d")
    assert (step.type, step.box, step.cards, step.min_amount, step.max_amount) == (
        "insure", "1", 5, 10, 600)
    # the limit is the one recording holds the amount to
    engine.step(state, "insure", {"box": "1", "amount": 600, "cards": "As Ad Ah 2c 3d"})


def test_the_insurance_limit_is_never_above_the_maximum_payout() -> None:
    # royal flush: presumptive 100 x 200 = 20000, but the table pays at most 5000
    engine, state = _bet(max_payout=5000)
    assert engine.insure_step(state, "1", "As Ks Qs Js Ts").max_amount == 5000


def test_a_hand_that_may_not_be_insured_has_no_limit_but_its_refusal() -> None:
    # "only for a box holding three of a kind or better"
    engine, state = _bet()
    with pytest.raises(IllegalActionError):
        engine.insure_step(state, "1", "Js Jd 8c 4h 3s")

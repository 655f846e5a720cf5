"""Oasis poker, rule by rule (RULES.md "Oasis poker and Caribbean stud"; source: Wizard of Odds,
"Oasis Poker"): Caribbean stud plus one paid, non-refundable replacement. ANTE 100, raise 200."""

from __future__ import annotations

import pytest

from dealer_assist.rules import CardCountError, DuplicateCardError, IllegalActionError, RulesError
from dealer_assist.rules import parse_cards as pc
from dealer_assist.rules.games import stud as hr
from dealer_assist.rules.games.stud import oasis
from dealer_assist.rules.games.stud.table import Table

from .house_bodies import body, box, nets, settle

AK_DEALER = "Ah Kd 9c 5s 2h"
HAND = "7s 7d 4c Jh 3d"
# cards for draws: none of them is in HAND or AK_DEALER
SPARE = ["7c", "Qs", "Tc", "8d", "6h"]


def replace_box(discard: list[str], draw: list[str], **kw: object) -> dict[str, object]:
    return box(HAND, improvement={"replace": {"discard": discard, "draw": draw}}, **kw)


@pytest.mark.parametrize(("profile", "count", "fee_in_antes"), [
    # "default ...: 1 card 1 x ANTE, 2 cards 2 x, 3 cards 3 x, 4 cards 2 x, 5 cards 1 x"
    ("oasis-classic", 1, 1), ("oasis-classic", 2, 2), ("oasis-classic", 3, 3),
    ("oasis-classic", 4, 2), ("oasis-classic", 5, 1),
    # "Other schedules in use: 1 x ANTE per card; one card only."
    ("oasis-per-card", 1, 1), ("oasis-per-card", 3, 3), ("oasis-per-card", 5, 5),
    ("oasis-one-card", 1, 1),
])
def test_the_replacement_fee_follows_the_profiles_schedule(profile: str, count: int,
                                                           fee_in_antes: int) -> None:
    discard = HAND.split()[:count]
    request = body(AK_DEALER, replace_box(discard, SPARE[:count]), profile=profile)
    assert nets(settle("oasis", request))["improvement_fee"] == -100 * fee_in_antes


def test_the_replaced_hand_is_the_one_compared_and_the_fee_is_kept_on_a_win() -> None:
    # 3d out, 7c in: three sevens beat the dealer's Ace-King; trips pay 3 on the raise
    result = settle("oasis", body(AK_DEALER, replace_box(["3d"], ["7c"])))
    assert result.boxes[0].hand is not None
    assert result.boxes[0].hand.category.value == "three_of_a_kind"
    assert nets(result) == {"ante": 100, "bet": 600, "improvement_fee": -100, "total": 600}


def test_the_fee_is_lost_when_the_dealer_has_no_game() -> None:
    # "paid, non-refundable card replacement"
    result = settle("oasis", body("Ah Qd 9c 5s 2h", replace_box(["3d"], ["7c"])))
    assert nets(result) == {"ante": 100, "bet": 0, "improvement_fee": -100, "total": 0}


def test_a_fold_after_a_replacement_loses_ante_and_fee() -> None:
    result = settle("oasis", body(AK_DEALER, replace_box(["7s", "7d", "4c", "Jh"],
                                                         SPARE[1:5], decision="fold")))
    assert nets(result) == {"ante": -100, "bet": 0, "improvement_fee": -200, "total": -300}


def test_the_cap_limits_winnings_but_the_fee_is_not_winnings() -> None:
    # 3d -> 7c, Jh -> 7h: four sevens pay 20 x 200 = 4000, ANTE 100; cap 2000
    request = body(AK_DEALER, replace_box(["3d", "Jh"], ["7c", "7h"]), max_payout=2000)
    result = settle("oasis", request)
    assert nets(result) == {"ante": 100, "bet": 1900, "improvement_fee": -200, "total": 1800}
    assert result.boxes[0].capped


@pytest.mark.parametrize(("rule", "profile", "discard", "draw", "decision", "error", "field"), [
    ("a replacement of 0 cards", "oasis-classic", [], [], "bet", IllegalActionError,
     "boxes[0].improvement.replace.discard"),
    ("two cards under 'one card only'", "oasis-one-card", ["3d", "Jh"], ["7c", "Qs"], "bet",
     IllegalActionError, "boxes[0].improvement.replace.discard"),
    ("replacing all five forces the raise", "oasis-classic", HAND.split(), SPARE, "fold",
     IllegalActionError, "boxes[0].decision"),
    ("replacing all five forces the raise (per card)", "oasis-per-card", HAND.split(), SPARE,
     "fold", IllegalActionError, "boxes[0].decision"),
    ("discarding a card the box does not hold", "oasis-classic", ["As"], ["7c"], "bet",
     IllegalActionError, "boxes[0].improvement.replace.discard"),
    ("drawing as many cards as discarded", "oasis-classic", ["3d"], ["7c", "Qs"], "bet",
     CardCountError, "boxes[0].improvement.replace.draw"),
    ("a drawn card already on the table", "oasis-classic", ["3d"], ["Kd"], "bet",
     DuplicateCardError, "boxes[0].improvement.replace.draw"),
])
def test_illegal_replacements_are_refused_with_a_named_error(
        rule: str, profile: str, discard: list[str], draw: list[str], decision: str,
        error: type[RulesError], field: str) -> None:
    request = body(AK_DEALER, replace_box(discard, draw, decision=decision), profile=profile)
    with pytest.raises(error) as info:
        settle("oasis", request)
    assert info.value.field == field, rule


def test_four_replaced_cards_do_not_force_the_raise() -> None:
    request = body(AK_DEALER, replace_box(HAND.split()[:4], SPARE[1:5], decision="fold"))
    assert settle("oasis", request).boxes[0].folded


def test_a_box_replaces_cards_only_once() -> None:
    state = _dealt()
    state = oasis.apply(state, oasis.Replace("1", pc("3d"), pc("7c")))
    assert not oasis.can_replace(state, "1", 1)
    with pytest.raises(IllegalActionError):
        oasis.apply(state, oasis.Replace("1", pc("Jh"), pc("Qs")))


def test_can_replace_follows_the_schedule() -> None:
    state = _dealt(oasis.OASIS_ONE_CARD)
    assert oasis.can_replace(state, "1", 1)
    assert not oasis.can_replace(state, "1", 2)
    assert not oasis.can_replace(state, "1", 0)


def test_no_replacement_after_the_decision() -> None:
    state = oasis.apply(_dealt(), hr.Bet("1", 200))
    with pytest.raises(IllegalActionError):
        oasis.apply(state, oasis.Replace("1", pc("3d"), pc("7c")))


def _dealt(profile: oasis.CaribbeanProfile = oasis.OASIS_CLASSIC) -> hr.RoundState:
    state = hr.new_round(profile, Table(10, 1000, 50000))
    for action in (hr.PlaceBox("1", "A", 100), hr.DealBox("1", pc(HAND)),
                   hr.DealDealer(pc(AK_DEALER))):
        state = oasis.apply(state, action)
    return state

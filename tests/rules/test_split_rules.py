"""Big/Small hand poker, rule by rule (seed 004, RULES.md "Big/Small hand poker", profile
``split-classic``). ANTE 100, BET 200; bought extra cards cost 1 ANTE."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.rules import (
    CardCountError,
    HouseRulesError,
    IllegalActionError,
    RulesError,
    parse_cards,
)
from dealer_assist.rules.games import stud as hr
from dealer_assist.rules.games.stud import split as sp
from dealer_assist.rules.games.stud.table import Table

from .house_bodies import body, box, nets, settle

ACES = "Ah Ad 9c 5s 2h"  # dealer: a pair of aces, a game
TWOS = "2h 2d 9c 5s 3h"  # dealer: a pair of twos, the lowest game
NO_GAME = "Ah Qd 9c 5s 2h"  # "Minimum game – ducks": ace high is no game
TRIPS = "7s 7d 7c 3d Qh"  # a Big Hand that beats the dealer's aces


def bought(cards: str, extra: str, big: str, small: str, **kw: Any) -> dict[str, Any]:
    return box(cards, extra={"mode": "bought", "cards": extra.split()},
               split={"big": big.split(), "small": small.split()}, **kw)


def trips_box(small: str, **kw: Any) -> dict[str, Any]:
    """Dealt 7s 7d 7c 3d Qh, bought two more, splits trips / ``small``."""
    dealt = "7s 7d 7c 3d Qh"
    return bought(dealt, small, dealt, small, **kw)


@pytest.mark.parametrize(("rule", "player_small", "dealer_small", "expected"), [
    # "If the players "Small Hand" combination is higher, then the payment is done in
    # compliance with a coefficient of BET payment table (ANTE bet is not paid)."
    ("player's Small Hand higher: BET paid at the coefficient", "Qs Jh", "Jc 3c",
     {"ante": 0, "bet": 600}),
    # "In opposite case the payment is done with ANTE coefficient."
    ("player's Small Hand lower: ANTE paid at the coefficient", "Qs Jh", "Kc Kh",
     {"ante": 300, "bet": 0}),
    # ""Stand off" on "Small Hand" is in favour of a player."
    ("equal Small Hands count for the player", "Qs 3s", "Qc 3c", {"ante": 0, "bet": 600}),
    # RULES.md: "pair beats no pair, then high card, then second card"
    ("a pair beats no pair", "2s 2c", "Ac Kh", {"ante": 0, "bet": 600}),
    ("no pair loses to a pair", "Ac Kh", "2s 2c", {"ante": 300, "bet": 0}),
    ("then the high card", "Ks 4s", "Qc Jc", {"ante": 0, "bet": 600}),
    ("then the second card (higher)", "Qs 9s", "Qc 8c", {"ante": 0, "bet": 600}),
    ("then the second card (lower)", "Qs 8s", "Qc 9h", {"ante": 300, "bet": 0}),
])
def test_a_higher_big_hand_is_paid_on_the_bet_or_the_ante_by_the_small_hands(
        rule: str, player_small: str, dealer_small: str, expected: dict[str, int]) -> None:
    result = settle("split", body(ACES, trips_box(player_small), small=dealer_small))
    got = nets(result)
    assert (got["ante"], got["bet"]) == (expected["ante"], expected["bet"]), rule
    assert got["improvement_fee"] == -100  # bought for 1 ANTE, lost whatever happens


@pytest.mark.parametrize(("category", "cards", "coefficient"), [
    # seed 004 "Payment coefficients"; quads, straight flush, royal from RULES.md
    ("one pair", "Ks Kd 8c 6h 4s", 1),
    ("two pairs", "Ks Kd 8c 8h 4s", 1),
    ("three of a kind", "Ks Kd Kc 6h 4s", 3),
    ("straight", "6s 7d 8c 9h Ts", 4),
    ("flush", "3s 7s 8s Js Qs", 5),
    ("full house", "Ks Kd Kc 6h 6s", 7),
    ("four of a kind", "Ks Kd Kc Kh 4s", 20),
    ("straight flush", "6s 7s 8s 9s Ts", 50),
    ("royal flush", "As Ks Qs Js Ts", 100),
])
def test_a_box_without_extra_cards_is_paid_the_coefficient_on_the_ante(
        category: str, cards: str, coefficient: int) -> None:
    # "otherwise (or no Small Hand) -> ANTE paid at the coefficient and BET returned"
    result = settle("split", body(TWOS, box(cards), small="Qc Qh"))
    assert nets(result) == {"ante": 100 * coefficient, "bet": 0, "total": 100 * coefficient}
    assert result.boxes[0].small_hand is None, category


def test_a_lower_big_hand_loses_ante_and_bet() -> None:
    # "If the player's "Big Hand" combination is lower than the dealer's main bet, then the
    # dealer takes ANTE and BET"
    result = settle("split", body(ACES, box("Ks Kd 8c 6h 4s"), small="Qc 3c"))
    assert nets(result) == {"ante": -100, "bet": -200, "total": -300}


def test_an_equal_big_hand_returns_everything_but_the_fee() -> None:
    # "In "Stand off" and "Big Hand" situations bets don't win or lose."
    dealt = "As Ac 9d 5h 2c"
    request = body(ACES, bought(dealt, "Kc Ks", dealt, "Kc Ks"), small="Qc 3c")
    assert nets(settle("split", request)) == {"ante": 0, "bet": 0, "improvement_fee": -100,
                                              "total": -100}


def test_no_game_pays_the_ante_one_to_one_and_returns_the_bet() -> None:
    # "If the dealer "doesn't have a game" ... pay all players who want only ANTE bet in the
    # ratio 1:1"
    result = settle("split", body(NO_GAME, box("Ks Kd 8c 6h 4s")))
    assert nets(result) == {"ante": 100, "bet": 0, "total": 100}
    assert result.dealer.small == ()


def test_free_extra_cards_are_the_small_hand_as_dealt() -> None:
    # "Get 2 additional cards for free without looking at them. You must give an answer "BET"."
    request = body(TWOS, box("Ts Td 8c 4h 3s", extra={"mode": "free", "cards": ["Qh", "Qs"]}),
                   small="Kc 5d")
    result = settle("split", request)
    assert result.boxes[0].small_hand is not None
    assert set(result.boxes[0].small_hand.cards) == set(parse_cards("Qh Qs"))
    # pair of tens beats the twos; pair of queens beats K-5: BET paid 1:1, no fee
    assert nets(result) == {"ante": 0, "bet": 200, "total": 200}


def test_a_fold_after_bought_extra_cards_loses_ante_and_fee() -> None:
    # "Buy 2 additional cards for ANTE bet. ... or refuse to play a game (ANTE bet loses)."
    request = body(ACES, box("7s 7d 7c 3d Qh", decision="fold",
                             extra={"mode": "bought", "cards": ["Jh", "Js"]}))
    assert nets(settle("split", request)) == {"ante": -100, "bet": 0, "improvement_fee": -100,
                                              "total": -200}


def test_a_bought_game_that_qualifies_is_played_by_the_buyers_only() -> None:
    # "The dealer changes his high card on the next in a pack. If the dealer has a combination
    # he puts out 2 cards of "Small Hand" and the game goes on according the rules."
    request = body(NO_GAME, box("Ks Kd 8c 6h 4s", on_no_game="buy_game"),
                   box("Js Jd 8d 6c 4c", name="2"), draw="Qc", small="3c 3s")
    result = settle("split", request)
    assert result.dealer.new_qualified is True  # Ah -> Qc: a pair of queens
    assert nets(result, 0) == {"ante": 100, "bet": 0, "buy_game_fee": -100, "total": 0}
    assert nets(result, 1) == {"ante": 100, "bet": 0, "total": 100}  # took the ANTE 1:1


def test_a_bought_game_gets_no_free_second_replacement() -> None:
    # "A game buying can be done only once." RULES.md: "no free second replacement"
    request = body(NO_GAME, box("Ks Kd 8c 6h 4s", on_no_game="buy_game"), draw="As Qc")
    result = settle("split", request)
    assert [c.code for c in result.dealer.drawn] == ["As"]
    # "If the dealer doesn't have a combination the game finishes without ANTE payment."
    assert nets(result) == {"ante": 0, "bet": 0, "buy_game_fee": -100, "total": -100}


def test_the_maximum_payout_caps_a_box_but_not_its_fee() -> None:
    dealt = "As Ks Qs Js Ts"
    request = body(TWOS, bought(dealt, "9h 9d", dealt, "9h 9d"), small="Kc 5d",
                   max_payout=5000)
    result = settle("split", request)
    assert nets(result) == {"ante": 0, "bet": 5000, "improvement_fee": -100, "total": 4900}
    assert result.boxes[0].capped


@pytest.mark.parametrize(("rule", "request_body", "error", "field"), [
    ("a Small Hand of three cards",
     body(ACES, bought("7s 7d 7c 3d Qh", "Jh Js", "7s 7d 7c 3d", "Qh Jh Js"), small="Qc 3c"),
     CardCountError, "boxes[0].split.small"),
    ("a split that does not use exactly the seven cards",
     body(ACES, bought("7s 7d 7c 3d Qh", "Jh Js", "7s 7d 7c 3d Kh", "Jh Js"), small="Qc 3c"),
     IllegalActionError, "boxes[0].split.big"),
    ("a blind (free) Small Hand rearranged",
     body(ACES, box("7s 7d 7c 3d Qh", extra={"mode": "free", "cards": ["Jh", "Js"]},
                    split={"big": ["7s", "7d", "7c", "Jh", "Js"], "small": ["3d", "Qh"]}),
          small="Qc 3c"), IllegalActionError, "boxes[0].split.small"),
    ("a fold after free cards",
     body(ACES, box("7s 7d 7c 3d Qh", decision="fold",
                    extra={"mode": "free", "cards": ["Jh", "Js"]})),
     IllegalActionError, "boxes[0].decision"),
    ("a bet on bought cards not yet split",
     body(ACES, box("7s 7d 7c 3d Qh", extra={"mode": "bought", "cards": ["Jh", "Js"]}),
          small="Qc 3c"), IllegalActionError, "boxes[0].split"),
    ("a box without extra cards has no Small Hand",
     body(ACES, box("7s 7d 7c 3d Qh", split={"big": TRIPS.split(), "small": ["Jh", "Js"]}),
          small="Qc 3c"), IllegalActionError, "boxes[0].split"),
    ("a buy-game when the dealer qualified",
     body(ACES, box("7s 7d 7c 3d Qh", on_no_game="buy_game"), small="Qc 3c"),
     IllegalActionError, "boxes[0].on_no_game"),
    ("no dealer Small Hand without a game",
     body(NO_GAME, box("7s 7d 7c 3d Qh"), small="Qc 3c"), IllegalActionError, "dealer.small"),
    ("the dealer's Small Hand is needed once he has a game",
     body(ACES, box("7s 7d 7c 3d Qh")), CardCountError, "dealer.small"),
    ("a card used twice at the table",
     body(ACES, box("7s 7d 7c 3d Qh"), small="7s 3c"), RulesError, "dealer.small"),
    ("two extra cards, not three",
     body(ACES, box("7s 7d 7c 3d Qh", extra={"mode": "free", "cards": ["Jh", "Js", "Jd"]})),
     CardCountError, "boxes[0].extra.cards"),
    ("BET = 2 x ANTE", body(ACES, box("7s 7d 7c 3d Qh", bet=100), small="Qc 3c"),
     RulesError, "boxes[0].bet"),
])
def test_illegal_actions_are_refused_with_a_named_error(
        rule: str, request_body: dict[str, Any], error: type[RulesError], field: str) -> None:
    with pytest.raises(error) as info:
        settle("split", request_body)
    assert info.value.field == field, rule


def test_a_profile_whose_qualifier_is_below_a_pair_must_price_ace_king() -> None:
    # docs/rules/big-small-split.md: a Big Hand below a pair beats a qualified dealer only
    # under such a profile, and it must say what it pays
    with pytest.raises(HouseRulesError) as info:
        sp.SplitProfile(name="split-ak", qualifier="ace_king")
    assert info.value.field == "pay_table.ace_king"


def test_an_ace_king_big_hand_is_paid_its_coefficient_under_an_ace_king_qualifier() -> None:
    profile = sp.SplitProfile(name="split-ak-test", qualifier="ace_king",
                              pay_table={**sp.CLASSIC_COEFFICIENTS, "ace_king": 1})
    state = hr.new_round(profile, Table(10, 1000, 50000))
    for action in (hr.PlaceBox("1", "A", 100), hr.DealBox("1", parse_cards("Ac Ks Qd 3h 4c")),
                   hr.DealDealer(parse_cards("Ah Kd 9c 5s 2h")), hr.Bet("1", 200),
                   hr.RevealDealer(), sp.DealerSmall(parse_cards("Jc Jd"))):
        state = sp.apply(state, action)
    assert nets(sp.settle(state)) == {"ante": 100, "bet": 0, "total": 100}


def test_the_live_table_offers_a_split_only_for_bought_cards_not_yet_split() -> None:
    state = hr.new_round(sp.SPLIT_CLASSIC, Table(10, 1000, 50000))
    for action in (hr.PlaceBox("1", "A", 100), hr.PlaceBox("2", "B", 100),
                   hr.DealBox("1", parse_cards(TRIPS)), hr.DealBox("2", parse_cards(TWOS)),
                   hr.DealDealer(parse_cards("Ks Kd 8c 6h 4s"))):
        state = sp.apply(state, action)
    assert sp.can_deal_extra(state, "1", "bought") and not sp.can_split(state, "1")
    state = sp.apply(state, sp.DealExtra("1", "bought", parse_cards("Jh Js")))
    state = sp.apply(state, sp.DealExtra("2", "free", parse_cards("Tc Td")))
    assert sp.can_split(state, "1") and not hr.can_bet(state, "1")
    assert not sp.can_split(state, "2") and not hr.can_fold(state, "2")
    state = sp.apply(state, sp.ChooseSplit("1", parse_cards(TRIPS), parse_cards("Jh Js")))
    assert hr.can_bet(state, "1") and not sp.can_split(state, "1")
    assert not sp.can_dealer_small(state)

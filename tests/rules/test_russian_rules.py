"""Russian poker, rule by rule (seed 001 and shared/RULES.md, profile ``russian-classic``).

Every case quotes the rule it checks. Expected amounts are worked out by hand from the rule and
the pay tables of RULES.md (restated below), never read back from the engine.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from dealer_assist.rules import (
    ALL_CARDS,
    CardCountError,
    CardNotInDeckError,
    CardParseError,
    DuplicateCardError,
    HouseRulesError,
    IllegalActionError,
    StakeError,
    get_ranking,
    parse_cards,
)
from dealer_assist.rules.combinations import find_combinations, paid_combinations
from dealer_assist.rules.fields import RequestError
from dealer_assist.rules.games import russian as R
from dealer_assist.rules.games.stud.table import Table, apply_cap, cap_amount
from dealer_assist.rules.profiles import get_profile

STANDARD = get_ranking("standard")
# RULES.md "BET pay table"
PAY = {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7,
       "flush": 5, "straight": 4, "three_of_a_kind": 3, "two_pairs": 2, "one_pair": 1,
       "ace_king": 1}
# RULES.md "Bonus side bet"
BONUS = {"royal_flush": 1000, "straight_flush": 500, "four_of_a_kind": 300, "full_house": 100,
         "two_pairs": 5}
DEALER_AK = "Ah Kd 9c 5s 2h"          # Ace-King: the minimum game
DEALER_NO_GAME = "Ah Qd 9c 5s 2h"     # ace high without a king: no game


def box(cards: str, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"box": "1", "seat": "A", "ante": 100, "cards": cards.split(),
                           "decision": "bet"}
    out.update(kw)
    return out


def body(boxes: list[dict[str, Any]], dealer: str, draw: str = "", *, max_payout: int = 50000,
         profile: str = "russian-classic") -> dict[str, Any]:
    return {"profile": profile,
            "table": {"min_ante": 10, "max_ante": 1000, "max_payout": max_payout},
            "dealer": {"cards": dealer.split(), "draw": draw.split()}, "boxes": boxes}


def settle(boxes: list[dict[str, Any]], dealer: str, draw: str = "", **kw: Any) -> dict[str, Any]:
    return R.settle_request(body(boxes, dealer, draw, **kw)).to_dict()


def nets(result: dict[str, Any], index: int = 0) -> dict[str, int]:
    return {name: w["net"] for name, w in result["boxes"][index]["wagers"].items()}


def refused(error: type[Exception], field: str, boxes: list[dict[str, Any]], dealer: str,
            draw: str = "", **kw: Any) -> Any:
    with pytest.raises(error) as info:
        settle(boxes, dealer, draw, **kw)
    assert info.value.field == field  # type: ignore[attr-defined]
    return info.value


# --- the profile is validated data --------------------------------------------------------

def test_the_classic_profile_holds_the_pay_tables_of_the_rules() -> None:
    p = get_profile("russian-classic", "russian")
    assert {c.value: m for c, m in p.pay_table.items()} == PAY
    assert {c.value: m for c, m in p.bonus_table.items()} == BONUS  # type: ignore[attr-defined]
    assert (p.qualifier.value, p.bet_multiple) == ("ace_king", 2)


CLASSIC = R.RUSSIAN_CLASSIC
BAD_PROFILES = [
    ({"pay_table": {**PAY, "flush": -5}}, "pay_table.flush"),           # negative multiplier
    ({"pay_table": {k: v for k, v in PAY.items() if k != "ace_king"}}, "pay_table.ace_king"),
    ({"bonus_unit": 0}, "bonus_unit"),
    ({"bonus_table": {"full_house": -1}}, "bonus_table.full_house"),
    ({"qualifier": "five_aces"}, "qualifier"),
    ({"max_combinations": 3}, "max_combinations"),
    ({"free_second_replacement": "yes"}, "free_second_replacement"),
    ({"improvement_fee": 1.5}, "improvement_fee"),
    ({"min_ante": 100, "max_ante": 50}, "max_ante"),
    ({"insurance_min_category": "pair"}, "insurance_min_category"),
    ({"no_such_rule": 1}, "no_such_rule"),
]


@pytest.mark.parametrize(("change", "field"), BAD_PROFILES)
def test_loading_a_profile_with_a_bad_value_names_the_field(change: dict[str, Any],
                                                            field: str) -> None:
    data = {"name": "russian-test", **change}
    with pytest.raises(HouseRulesError) as info:
        R.RussianProfile.from_mapping(data)
    assert info.value.field == field


def test_replacing_a_profile_field_validates_it_again() -> None:
    with pytest.raises(HouseRulesError) as info:
        dataclasses.replace(CLASSIC, bonus_unit=0)
    assert info.value.field == "bonus_unit"


def test_an_unknown_profile_is_refused_naming_the_profile() -> None:
    refused(HouseRulesError, "profile", [box("Ah Ad 9c 5s 2h")], DEALER_AK, profile="nope")


# --- the two-combinations rule ------------------------------------------------------------
# RULES.md: "Two combinations are both paid when the box beats the dealer and the second (the
# lower-paying one) has at least one significant card that is not significant in the first.
# The pair of combinations with the highest total is paid."

TWO_COMBINATIONS = [
    # five cards
    ("7s 7d Ah Kc 3d", ["one_pair", "ace_king"], 2),        # RULES.md example
    ("Kh Kd Ac 7s 3d", ["one_pair", "ace_king"], 2),        # the ace is new to the pair of kings
    ("Ah Ad 7c 7s Kd", ["two_pairs", "ace_king"], 3),
    ("7h 7d 7c Ah Kd", ["three_of_a_kind", "ace_king"], 4),
    ("Ah Ad Ac As Kd", ["four_of_a_kind", "ace_king"], 21),
    ("Ah Ad Ac Kd Ks", ["full_house"], 7),                  # RULES.md: "a full house only"
    ("Ah Ad Kc Ks 3d", ["two_pairs"], 2),                   # A and K are in the two pairs
    ("Ac Kd Qh Js Tc", ["straight"], 4),                    # the AK is inside the straight
    ("Ah Kh 9h 5h 2h", ["flush"], 5),                       # the AK is inside the flush
    ("Ah Kh Qh Jh Th", ["royal_flush"], 100),
    ("Ah Ad Ac 7s 3d", ["three_of_a_kind"], 3),
    ("Ah Kd 9c 5s 2h", ["ace_king"], 1),
    ("2c 5d 9h Jc Ks", [], 0),
    # six cards
    ("5h 6c 7d 8s 9h Tc", ["straight", "straight"], 8),     # RULES.md example
    ("As Ks Qs Js Ts 9s", ["royal_flush", "straight_flush"], 150),  # RULES.md example
    ("Ah Kh Qh Jh Th 2h", ["royal_flush", "flush"], 105),
    ("5h 6h 7h 8h 9h Th", ["straight_flush", "straight_flush"], 100),
    ("5h 6h 7h 8h 9h Jh", ["straight_flush", "flush"], 55),
    ("5h 6h 7h 8h 9h 4c", ["straight_flush", "straight"], 54),
    ("5h 6h 7h 8h 9h 9d", ["straight_flush", "straight"], 54),  # 9d makes a new straight
    ("2h 5h 7h 9h Jh Kh", ["flush", "flush"], 10),
    ("5h 6h 7h 9h Jh 8c", ["flush", "straight"], 9),
    ("2h 5h 7h 9h Jh Jd", ["flush", "one_pair"], 6),
    ("Ah 5h 7h 9h Jh Kd", ["flush", "ace_king"], 6),
    ("5h 6c 7d 8s 9h 9d", ["straight", "straight"], 8),     # a paired rank makes a 2nd straight
    ("5h 4c 3d 2s Ah Kd", ["straight", "ace_king"], 5),      # the wheel's ace with a king
    ("5h 4h 3h 2h Ah Kd", ["straight_flush", "ace_king"], 51),
    ("Ah Ad Ac 7d 7s Kc", ["full_house", "ace_king"], 8),
    ("Ah Ad Ac Kd Ks Kc", ["full_house", "full_house"], 14),
    ("Ah Ad Ac As Kd Ks", ["four_of_a_kind", "full_house"], 27),   # the kings are new
    ("7h 7d 7c 7s Ah Kd", ["four_of_a_kind", "ace_king"], 21),
    ("Ah Ad Kc Ks Qd Qs", ["two_pairs", "two_pairs"], 4),
    ("7h 7d 3c 3s Ah Kd", ["two_pairs", "ace_king"], 3),
    ("7h 7d 7c Ah Kd 2s", ["three_of_a_kind", "ace_king"], 4),
    ("Ah Ad Kc 7s 5d 2h", ["one_pair", "ace_king"], 2),
    ("Ah Kh Qh Jh Th Ad", ["royal_flush", "straight"], 104),   # Ad Kh Qh Jh Th
]


def _multiplier(category: Any) -> int:
    return PAY.get(category.value, 0)


@pytest.mark.parametrize(("cards", "categories", "total"), TWO_COMBINATIONS)
def test_a_winning_box_is_paid_for_its_best_one_or_two_combinations(
        cards: str, categories: list[str], total: int) -> None:
    paid = paid_combinations(parse_cards(cards), _multiplier, STANDARD)
    assert sorted(c.category.value for c in paid) == sorted(categories)
    assert sum(PAY[c.category.value] for c in paid) == total


def test_every_pair_paid_has_a_significant_card_new_to_the_higher_combination() -> None:
    for cards, _, _ in TWO_COMBINATIONS:
        paid = paid_combinations(parse_cards(cards), _multiplier, STANDARD)
        if len(paid) == 2:
            assert set(paid[1].cards) - set(paid[0].cards), cards


def test_the_table_above_covers_every_pair_of_categories_found_in_sampled_hands() -> None:
    # seeded sample of five- and six-card hands, biased towards few ranks or one suit so that
    # the rare categories show up; every pair of paid categories must be a case of the table
    rnd = random.Random(2024)
    covered = {tuple(sorted(cats)) for _, cats, _ in TWO_COMBINATIONS}
    for i in range(24000):
        if i % 3 == 0:
            ranks = rnd.sample(range(2, 15), 3 + i % 2)
            pool = [c for c in ALL_CARDS if c.rank in ranks]
        elif i % 3 == 1:
            suit, ranks = rnd.randrange(4), rnd.sample(range(2, 15), 2)
            pool = [c for c in ALL_CARDS if c.suit_index == suit or c.rank in ranks]
        else:
            pool = list(ALL_CARDS)
        hand = rnd.sample(pool, 5 + i % 2)
        paid = paid_combinations(hand, _multiplier, STANDARD)
        if len(paid) == 2:
            assert tuple(sorted(c.category.value for c in paid)) in covered, hand


def test_combinations_are_enumerated_beyond_the_best_five_cards() -> None:
    found = find_combinations(parse_cards("Ah Ad Kc 7s 3d"), STANDARD)
    aks = [c for c in found if c.category.value == "ace_king"]
    assert sorted(tuple(x.code for x in c.cards) for c in aks) == [("Ad", "Kc"), ("Ah", "Kc")]


def test_a_one_combination_house_pays_only_the_best_combination() -> None:
    single = dataclasses.replace(CLASSIC, name="russian-single", max_combinations=1)
    paid = paid_combinations(parse_cards("7s 7d Ah Kc 3d"), single.multiplier, STANDARD, 1)
    assert [c.category.value for c in paid] == ["one_pair"]


def test_two_combinations_are_paid_on_the_bet_when_the_box_beats_the_dealer() -> None:
    # box: pair of sevens + Ace-King (2) against the dealer's Ace-King (pair beats AK)
    result = settle([box("7s 7d Ac Kh 3d")], "As Kd 9c 5s 2h")
    b = result["boxes"][0]
    assert b["wagers"]["bet"]["net"] == 200 * 2
    assert sorted(c["category"] for c in b["combinations"]) == ["ace_king", "one_pair"]


# --- dealer has a game: win, lose, stay ---------------------------------------------------

def test_box_higher_bet_paid_by_the_table_ante_returned_not_paid() -> None:
    # seed: "If Your combination higher than dealer has, BET is paid according to the payment
    # table. Thereby ANTE bet is not paid."
    result = settle([box("Js Jd Jc 4h 4s")], DEALER_AK)
    assert nets(result) == {"ante": 0, "bet": 1400, "improvement_fee": 0, "buy_game_fee": 0,
                            "insurance": 0, "bonus": 0}
    bet = result["boxes"][0]["wagers"]["bet"]
    assert bet["explanation"] == "BET 200 x 7 (full house) = 1400; ANTE returned"
    assert result["boxes"][0]["net"] == 1400


def test_a_house_that_pays_the_ante_on_a_win_pays_it_one_to_one() -> None:
    generous = dataclasses.replace(CLASSIC, name="russian-ante-paid", ante_paid_on_win=True)
    state = _dealt(generous, [("1", "A", 100, "Js Jd Jc 4h 4s")], DEALER_AK)
    state = _run(state, R.Bet("1", 200), R.RevealDealer())
    assert R.settle(state).boxes[0].wagers["ante"].net == 100


def test_box_lower_loses_ante_and_bet() -> None:
    # seed: "Combinations lower than dealer's lose."
    result = settle([box("Ac Kh 8d 6s 3c")], "Qh Qd 9c 5s 2h")
    assert (nets(result)["ante"], nets(result)["bet"]) == (-100, -200)


def test_equal_rank_only_suits_differ_is_a_stay() -> None:
    # seed: "If cards combinations are identical (only suits differ), it is considered to be STAY"
    result = settle([box("As Kc 9d 5h 2c")], DEALER_AK)
    assert (nets(result)["ante"], nets(result)["bet"]) == (0, 0)
    assert result["boxes"][0]["wagers"]["bet"]["outcome"] == "push"


# --- qualification, no game, buying a game ------------------------------------------------

@pytest.mark.parametrize(("profile", "dealer", "qualified"), [
    ("russian-classic", DEALER_AK, True),           # "Minimal game - is Ace & King"
    ("russian-classic", DEALER_NO_GAME, False),
    ("russian-pair-game", DEALER_AK, False),        # RULES.md "Variant: pair or better"
    ("russian-pair-game", "2c 2d 9c 5s Ah", True),
])
def test_the_dealer_qualifies_with_the_profile_qualifier(profile: str, dealer: str,
                                                         qualified: bool) -> None:
    result = settle([box("Js Jd Jc 4h 4s")], dealer, profile=profile)
    assert result["dealer"]["qualified"] is qualified


def test_no_game_pays_the_ante_one_to_one_and_returns_the_bet() -> None:
    # seed: "Gamblers who do not want to buy the game get the ANTE in the ratio 1:1"
    result = settle([box("Js Jd Jc 4h 4s", on_no_game="take_ante")], DEALER_NO_GAME)
    assert (nets(result)["ante"], nets(result)["bet"]) == (100, 0)


def test_a_bought_game_replaces_the_highest_card_and_the_box_plays_the_new_hand() -> None:
    # RULES.md: "Buying replaces the dealer's highest card with the next card of the deck."
    result = settle([box("Js Jd Jc 4h 4s", on_no_game="buy_game")], DEALER_NO_GAME, "Qc")
    dealer = result["dealer"]
    assert (dealer["replaced"], dealer["drawn"]) == (["Ah"], ["Qc"])
    assert dealer["new_hand"]["category"] == "one_pair" and dealer["new_qualified"] is True
    assert nets(result) | {} == {"ante": 0, "bet": 1400, "improvement_fee": 0,
                                 "buy_game_fee": -100, "insurance": 0, "bonus": 0}


def test_still_no_game_after_buying_returns_ante_and_bet_and_keeps_the_fee() -> None:
    # seed: "If dealer has no game after buying the game, ANTE and BET are not paid and not
    # taken away."
    result = settle([box("Js Jd Jc 4h 4s", on_no_game="buy_game")], DEALER_NO_GAME, "Kc")
    assert result["dealer"]["new_qualified"] is False
    assert (nets(result)["ante"], nets(result)["bet"], nets(result)["buy_game_fee"]) == \
        (0, 0, -100)


def test_same_rank_replacement_without_a_game_is_replaced_once_more_free() -> None:
    # seed: "if the next card from the deck has the same range with changeable card ... dealer
    # makes additional exchange of the high card without charge (only once)"
    result = settle([box("Js Jd Jc 4h 4s", on_no_game="buy_game")], DEALER_NO_GAME, "Ad 8c 3h")
    assert (result["dealer"]["replaced"], result["dealer"]["drawn"]) == (["Ah", "Ad"],
                                                                         ["Ad", "8c"])
    assert nets(result)["buy_game_fee"] == -100  # charged once


def test_the_free_replacement_happens_only_once() -> None:
    result = settle([box("Js Jd Jc 4h 4s", on_no_game="buy_game")], DEALER_NO_GAME, "Ad As")
    assert result["dealer"]["drawn"] == ["Ad", "As"]
    assert result["dealer"]["new_cards"].count("As") == 1


def test_a_same_rank_card_that_makes_a_flush_stays() -> None:
    # seed: "If the next card has the same range ... but together with other four cards on
    # bank makes significant combination (Ex Flush), it is not exchanged twice."
    result = settle([box("Js Jd Jc 4s 4c", on_no_game="buy_game")], "Ac Qh 9h 5h 2h", "Ah 8c")
    assert result["dealer"]["drawn"] == ["Ah"]
    assert result["dealer"]["new_hand"]["category"] == "flush"
    assert nets(result)["bet"] == 200 * 7


def test_a_house_without_the_free_replacement_replaces_once() -> None:
    strict = dataclasses.replace(CLASSIC, name="russian-strict", free_second_replacement=False)
    state = _dealt(strict, [("1", "A", 100, "Js Jd Jc 4h 4s")], DEALER_NO_GAME)
    state = _run(state, R.Bet("1", 200), R.RevealDealer(), R.BuyGame("1"),
                 R.DealerDraw(parse_cards("Ad 8c")))
    assert R.settle(state).dealer.drawn == parse_cards("Ad")


def test_all_buyers_play_one_new_dealer_hand_and_non_buyers_are_paid_as_for_no_game() -> None:
    boxes = [box("Js Jd Jc 4h 4s", on_no_game="buy_game"),
             box("3c 3d 8h 8s Ts", box="2", seat="B", on_no_game="buy_game"),
             box("Kh Ks 6c 6d 7h", box="3", seat="C", on_no_game="take_ante")]
    result = settle(boxes, DEALER_NO_GAME, "Qc")        # new dealer hand: pair of queens
    assert nets(result, 0)["bet"] == 1400               # full house beats it
    assert nets(result, 1)["bet"] == 400                # two pairs, eights and threes
    assert (nets(result, 2)["ante"], nets(result, 2)["bet"]) == (100, 0)


def test_buying_a_game_when_the_dealer_qualified_is_refused() -> None:
    state = _dealt(CLASSIC, [("1", "A", 100, "Js Jd Jc 4h 4s")], DEALER_AK)
    state = _run(state, R.Bet("1", 200), R.RevealDealer())
    assert not R.can_buy_game(state, "1")
    with pytest.raises(IllegalActionError) as info:
        R.apply(state, R.BuyGame("1"))
    assert info.value.field == "on_no_game"


def test_a_bought_game_without_enough_draw_cards_names_the_draw() -> None:
    refused(CardCountError, "dealer.draw", [box("Js Jd Jc 4h 4s", on_no_game="buy_game")],
            DEALER_NO_GAME, "")


# --- stakes, seats and boxes --------------------------------------------------------------

def test_ante_outside_the_table_limits_is_refused() -> None:
    refused(StakeError, "boxes[0].ante", [box("Js Jd Jc 4h 4s", ante=5)], DEALER_AK)
    refused(StakeError, "boxes[0].ante", [box("Js Jd Jc 4h 4s", ante=1001)], DEALER_AK)


def test_a_bet_that_is_not_twice_the_ante_is_refused() -> None:
    # RULES.md: "BET = 2 x ANTE"
    err = refused(StakeError, "boxes[0].bet", [box("Js Jd Jc 4h 4s", bet=150)], DEALER_AK)
    assert err.value == 150


def test_all_boxes_of_one_player_carry_equal_antes() -> None:
    # seed: "All bets of one player should be equal."
    boxes = [box("Js Jd Jc 4h 4s"), box("3c 3d 8h 8s Ts", box="2", ante=200)]
    refused(StakeError, "boxes[1].ante", boxes, DEALER_AK)


def test_a_player_plays_at_most_four_boxes() -> None:
    # seed: "The maximum number the boxes in the game - 4."
    hands = ["2c 3c 4c 5c 7d", "2d 3d 4d 5d 7h", "2h 3h 4h 5h 7s", "2s 3s 4s 5s 7c",
             "8c 8d 8h 9s Tc"]
    boxes = [box(h, box=str(i + 1)) for i, h in enumerate(hands)]
    refused(IllegalActionError, "boxes[4].seat", boxes, "Ah Kd Qc Js 9h")
    result = settle(boxes[:4], "Ah Kd Qc Js 9h")
    assert len(result["boxes"]) == 4


def test_fold_loses_the_ante_and_the_bonus() -> None:
    # RULES.md: "Fold loses the ANTE (and the bonus bet)."
    result = settle([box("Js Jd Jc 4h 4s", decision="fold", bonus=50)], DEALER_AK)
    assert nets(result) == {"ante": -100, "bet": 0, "improvement_fee": 0, "buy_game_fee": 0,
                            "insurance": 0, "bonus": -50}
    assert result["boxes"][0]["folded"] is True


# --- improvement ------------------------------------------------------------------------

def test_the_improvement_fee_is_lost_whatever_happens() -> None:
    # RULES.md: "for a fee of 1 ANTE (the fee is lost whatever happens)"
    exchange = {"exchange": {"discard": ["3d"], "draw": ["7h"]}}
    result = settle([box("7s 7d 7c Kh 3d", improvement=exchange)], DEALER_AK)
    assert nets(result)["improvement_fee"] == -100
    assert nets(result)["bet"] == 200 * 20                # four sevens after the exchange


def test_a_sixth_card_plays_the_best_of_six() -> None:
    result = settle([box("5h 6c 7d 8s 2c", improvement={"sixth_card": "9h"})], DEALER_AK)
    assert nets(result)["bet"] == 200 * 4 and nets(result)["improvement_fee"] == -100


@pytest.mark.parametrize(("improvement", "error", "field"), [
    ({"exchange": {"discard": [], "draw": []}}, CardCountError,
     "boxes[0].improvement.exchange.discard"),
    ({"exchange": {"discard": ["3d"], "draw": ["7h", "8h"]}}, CardCountError,
     "boxes[0].improvement.exchange.draw"),
    ({"exchange": {"discard": ["2c"], "draw": ["7h"]}}, IllegalActionError,
     "boxes[0].improvement.exchange.discard"),
    ({"exchange": {"discard": ["3d"], "draw": ["Ah"]}}, DuplicateCardError,
     "boxes[0].improvement.exchange.draw"),
    ({"exchange": {"discard": ["3d"]}, "sixth_card": "9h"}, RequestError,
     "boxes[0].improvement"),
])
def test_a_wrong_exchange_is_refused_naming_the_field(improvement: dict[str, Any],
                                                      error: type[Exception],
                                                      field: str) -> None:
    refused(error, field, [box("7s 7d 7c Kh 3d", improvement=improvement)], DEALER_AK)


def test_a_sixth_card_after_an_exchange_is_refused() -> None:
    # RULES.md: "One improvement per box"
    state = _dealt(CLASSIC, [("1", "A", 100, "7s 7d 7c Kh 3d")], DEALER_AK)
    state = R.apply(state, R.Exchange("1", parse_cards("3d"), parse_cards("7h")))
    assert not R.can_sixth_card(state, "1") and not R.can_exchange(state, "1")
    with pytest.raises(IllegalActionError) as info:
        R.apply(state, R.SixthCard("1", parse_cards("9h")[0]))
    assert info.value.field == "improvement.sixth_card"


# --- insurance ---------------------------------------------------------------------------

def test_insurance_wins_one_to_one_when_the_dealer_has_no_game() -> None:
    result = settle([box("Js Jd Jc 4h 4s", insurance=300)], DEALER_NO_GAME)
    assert nets(result)["insurance"] == 300


def test_insurance_wins_and_buying_a_game_afterwards_is_still_allowed() -> None:
    # seed: "The bet on insurance does not shut out the opportunity of buying the game"
    result = settle([box("Js Jd Jc 4h 4s", insurance=300, on_no_game="buy_game")],
                    DEALER_NO_GAME, "Qc")
    assert (nets(result)["insurance"], nets(result)["bet"]) == (300, 1400)


def test_insurance_is_lost_when_the_dealer_has_a_game_lower_than_the_box() -> None:
    result = settle([box("Js Jd Jc 4h 4s", insurance=300)], DEALER_AK)
    assert nets(result)["insurance"] == -300


def test_insurance_is_returned_when_the_dealer_is_higher_or_equal() -> None:
    # seed: "Except the situation when dealer's combination is higher or equal with box
    # combination. In such case the bet on insurance is not taken away and not paid."
    result = settle([box("3s 3d 3c 8h 9s", insurance=100)], "Qs Qd Qc 5s 2h")
    assert (nets(result)["insurance"], nets(result)["bet"]) == (0, -200)


def test_insurance_on_a_pair_is_refused() -> None:
    # seed: "If You have Three of a kind and higher combinations, You can ensure it"
    err = refused(IllegalActionError, "boxes[0].insurance",
                  [box("Js Jd 8c 4h 3s", insurance=100)], DEALER_AK)
    assert err.value == 100


@pytest.mark.parametrize("amount", [5, 601])
def test_insurance_outside_minimum_and_presumptive_payout_is_refused(amount: int) -> None:
    # trips pay 3 x BET 200 = 600: the presumptive payout; the table minimum is 10
    refused(StakeError, "boxes[0].insurance", [box("Js Jd Jc 4h 3s", insurance=amount)],
            DEALER_AK)


def test_insurance_never_above_the_maximum_payout() -> None:
    # royal flush: presumptive 20000, but the table pays at most 5000
    refused(StakeError, "boxes[0].insurance", [box("As Ks Qs Js Ts", insurance=5001)],
            DEALER_AK, max_payout=5000)


def test_a_folded_box_cannot_insure() -> None:
    refused(IllegalActionError, "boxes[0].insurance",
            [box("Js Jd Jc 4h 3s", insurance=100, decision="fold")], DEALER_AK)


# --- maximum payout -----------------------------------------------------------------------

def test_the_combination_payout_is_capped_and_says_so() -> None:
    # RULES.md: "A capped result says that it was capped."
    result = settle([box("As Ks Qs Js Ts")], DEALER_AK, max_payout=15000)
    assert nets(result)["bet"] == 15000 and result["boxes"][0]["capped"] is True
    assert "capped at 15000" in result["boxes"][0]["wagers"]["bet"]["explanation"]


def test_combination_plus_insurance_is_capped_together() -> None:
    # seed: "Aggregate payment on combination and insurance cannot be higher than maximum"
    result = settle([box("Js Jd Jc 4h 4s", insurance=500, on_no_game="buy_game")],
                    DEALER_NO_GAME, "Qc", max_payout=1000)
    assert (nets(result)["insurance"], nets(result)["bet"]) == (500, 500)
    assert result["boxes"][0]["capped"] is True


def test_the_bonus_is_capped_separately_from_the_combination() -> None:
    # bonus 50 x 100 (full house) = 5000 -> 1000; BET 200 x 7 = 1400 -> 1000
    result = settle([box("Js Jd Jc 4h 4s", bonus=50)], DEALER_AK, max_payout=1000)
    assert (nets(result)["bonus"], nets(result)["bet"]) == (1000, 1000)


def test_cap_helpers_trim_later_winnings_first() -> None:
    assert cap_amount(1500, 1000) == (1000, True)
    assert apply_cap((300, 900, -200), 1000) == ((300, 700, -200), True)
    assert apply_cap((300, 600), 1000) == ((300, 600), False)


# --- bonus --------------------------------------------------------------------------------

@pytest.mark.parametrize(("amount", "ante"), [(70, 200), (100, 100), (-50, 100)])
def test_a_bonus_not_a_multiple_of_50_or_above_half_the_ante_is_refused(amount: int,
                                                                        ante: int) -> None:
    error = RequestError if amount < 0 else StakeError
    refused(error, "boxes[0].bonus", [box("Js Jd Jc 4h 4s", bonus=amount, ante=ante)],
            DEALER_AK)


def test_the_bonus_pays_whatever_the_dealer_holds() -> None:
    # seed: "Bonus plays apart the dealer's game"; the box loses to four queens
    result = settle([box("Js Jd Jc 4h 4s", bonus=50)], "Qs Qd Qc Qh 2h")
    assert (nets(result)["bonus"], nets(result)["bet"]) == (50 * 100, -200)


@pytest.mark.parametrize(("cards", "category"), [
    ("7h 7d 3c 3s Kd", "two_pairs"), ("As Ks Qs Js Ts", "royal_flush"),
    ("9s 8s 7s 6s 5s", "straight_flush"), ("4s 4d 4c 4h Kd", "four_of_a_kind"),
])
def test_the_bonus_pays_its_table(cards: str, category: str) -> None:
    result = settle([box(cards, bonus=50, ante=200)], "Ac Kc 9d 5d 2c")
    assert nets(result)["bonus"] == 50 * BONUS[category]


@pytest.mark.parametrize(("cards", "improvement", "decision"), [
    ("6h 6d 3c 3s Kd", None, "bet"),                       # two pairs below sevens
    ("Js Jd Jc 8h 3c", None, "bet"),                       # three of a kind is not a bonus
    ("Js Jd Jc 4h 4s", {"sixth_card": "9h"}, "bet"),       # "In case of buying the sixth card"
    ("Js Jd Jc 4h 4s", {"exchange": {"discard": ["4h"], "draw": ["Jh"]}}, "bet"),
    ("Js Jd Jc 4h 4s", None, "fold"),
])
def test_the_bonus_loses(cards: str, improvement: Any, decision: str) -> None:
    result = settle([box(cards, bonus=50, improvement=improvement, decision=decision)],
                    "Ac Kc 9d 5d 2c")
    assert nets(result)["bonus"] == -50


# --- cards and redeal ---------------------------------------------------------------------

@pytest.mark.parametrize(("boxes", "dealer", "draw", "field"), [
    ([box("Js Jd Jc 4h 4s")], "Js Kd 9c 5s 2h", "", "dealer.cards"),
    ([box("Js Jd Jc 4h 4s"), box("Js 2d 3c 8h 9s", box="2")], DEALER_AK, "", "boxes[1].cards"),
    ([box("Js Jd Jc 4h 4s")], DEALER_NO_GAME, "Jd", "dealer.draw"),
    ([box("Js Jd Jc 4h 3s", improvement={"sixth_card": "Ah"})], DEALER_AK, "",
     "boxes[0].improvement.sixth_card"),
])
def test_a_card_used_twice_at_the_table_is_refused(boxes: list[dict[str, Any]], dealer: str,
                                                   draw: str, field: str) -> None:
    # RULES.md: "a card named twice anywhere in one round is an error"
    refused(DuplicateCardError, field, boxes, dealer, draw)


def test_a_wrong_card_count_calls_for_a_redeal() -> None:
    # seed: "The redeal happens when if just one of the gamblers got incorrect amount of cards."
    err = refused(CardCountError, "boxes[0].cards", [box("Js Jd Jc 4h")], DEALER_AK)
    assert "redeal" in str(err)


def test_a_redeal_voids_the_round_with_nothing_paid() -> None:
    state = _dealt(CLASSIC, [("1", "A", 100, "Js Jd Jc 4h 4s")], DEALER_AK)
    voided = R.apply(state, R.Redeal("1", 6))
    assert not R.can_settle(voided) and not R.can_bet(voided, "1")
    with pytest.raises(IllegalActionError):
        R.settle(voided)


def test_a_dealer_card_face_up_is_no_reason_for_a_redeal() -> None:
    state = _dealt(CLASSIC, [("1", "A", 100, "Js Jd Jc 4h 4s")], DEALER_AK)
    with pytest.raises(IllegalActionError):
        R.apply(state, R.Redeal("1", 5))


def test_a_token_that_is_not_a_card_is_refused_naming_the_hand() -> None:
    err = refused(CardParseError, "boxes[0].cards", [box("Js Jd Xx 4h 4s")], DEALER_AK)
    assert err.value == "Xx"


def test_a_card_outside_the_games_deck_is_refused() -> None:
    thirty_two = dataclasses.replace(CLASSIC, name="russian-32", ranking="americana",
                                     qualifier="one_pair", insurance_min_category="one_pair",
                                     bonus_table={"full_house": 100},
                                     pay_table={k: v for k, v in PAY.items()
                                                if k not in ("ace_king", "royal_flush")})
    state = R.new_round(thirty_two, Table(10, 1000, 50000))
    state = R.apply(state, R.PlaceBox("1", "A", 100))
    with pytest.raises(CardNotInDeckError):
        R.apply(state, R.DealBox("1", parse_cards("5h Jd Jc 8h 9s")))


# --- verify, can, do ----------------------------------------------------------------------

def _dealt(profile: Any, boxes: list[tuple[str, str, int, str]], dealer: str) -> Any:
    state = R.new_round(profile, Table(10, 1000, 50000))
    for name, seat, ante, _ in boxes:
        state = R.apply(state, R.PlaceBox(name, seat, ante))
    for name, _, _, cards in boxes:
        state = R.apply(state, R.DealBox(name, parse_cards(cards)))
    return R.apply(state, R.DealDealer(parse_cards(dealer)))


def _run(state: Any, *actions: Any) -> Any:
    for action in actions:
        state = R.apply(state, action)
    return state


def test_an_action_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    state = _dealt(CLASSIC, [("1", "A", 100, "Js Jd Jc 4h 4s")], DEALER_AK)
    after = R.apply(state, R.Bet("1", 200))
    assert state.boxes[0].decision is None and after.boxes[0].decision == "bet"


def test_can_functions_follow_the_phase_of_the_round() -> None:
    state = R.new_round(CLASSIC, Table(10, 1000, 50000))
    assert R.can_place_box(state) and not R.can_deal_dealer(state)
    state = _dealt(CLASSIC, [("1", "A", 100, "Js Jd Jc 4h 3s")], DEALER_NO_GAME)
    assert not R.can_place_box(state) and R.can_exchange(state, "1")
    assert not R.can_insure(state, "1") and not R.can_reveal_dealer(state)
    state = R.apply(state, R.Bet("1", 200))
    assert R.can_insure(state, "1") and R.can_reveal_dealer(state) and not R.can_fold(state, "1")
    state = R.apply(state, R.RevealDealer())
    assert R.can_take_ante(state, "1") and not R.can_dealer_draw(state)
    state = R.apply(state, R.BuyGame("1"))
    assert R.can_dealer_draw(state) and not R.can_settle(state)
    state = R.apply(state, R.DealerDraw(parse_cards("Qc")))
    assert R.can_settle(state)


def test_the_dealer_reveals_only_after_every_box_decided() -> None:
    state = _dealt(CLASSIC, [("1", "A", 100, "Js Jd Jc 4h 3s")], DEALER_AK)
    with pytest.raises(IllegalActionError) as info:
        R.apply(state, R.RevealDealer())
    assert info.value.field == "decision"


def test_the_bet_of_the_action_stream_must_be_twice_the_ante() -> None:
    state = _dealt(CLASSIC, [("1", "A", 100, "Js Jd Jc 4h 3s")], DEALER_AK)
    with pytest.raises(StakeError) as info:
        R.apply(state, R.Bet("1", 100))
    assert (info.value.field, info.value.value) == ("bet", 100)

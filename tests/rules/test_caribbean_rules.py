"""Caribbean stud, rule by rule (RULES.md "Oasis poker and Caribbean stud", profile
``caribbean-classic``; source: Wizard of Odds, "Caribbean Stud Poker"). ANTE 100, raise 200."""

from __future__ import annotations

import pytest

from dealer_assist.rules import HouseRulesError, RulesError, parse_cards
from dealer_assist.rules.games import stud as hr
from dealer_assist.rules.games.stud import caribbean as cb
from dealer_assist.rules.games.stud.table import Table

from .house_bodies import body, box, nets, settle

AK_DEALER = "Ah Kd 9c 5s 2h"  # Ace-King, nine kicker: the lowest kind of game
NO_GAME_DEALER = "Ah Qd 9c 5s 2h"  # ace-queen high: no game


@pytest.mark.parametrize(("rule", "dealer", "player", "ante_net", "bet_net"), [
    # "Dealer qualifies with AK or better. No game: ANTE 1:1, raise returned."
    ("no game: ANTE 1:1, raise returned", NO_GAME_DEALER, "7s 7d 4c 4h Js", 100, 0),
    # "Player wins: ANTE 1:1 and raise by the pay table (AK/pair 1, ...)"
    ("AK beats a lower AK: ANTE 1:1, raise 1:1", AK_DEALER, "Ac Ks Qd 3h 4c", 100, 200),
    ("a pair pays 1", AK_DEALER, "3s 3d Jc 8h 6c", 100, 200),
    ("two pair pays 2", AK_DEALER, "7s 7d 4c 4h Js", 100, 400),
    ("trips pay 3", AK_DEALER, "7s 7d 7c 4h Js", 100, 600),
    ("a straight pays 4", AK_DEALER, "6s 7d 8c 9h Ts", 100, 800),
    ("a flush pays 5", AK_DEALER, "3s 7s 8s Js Qs", 100, 1000),
    ("a full house pays 7", AK_DEALER, "7s 7d 7c 4h 4s", 100, 1400),
    ("quads pay 20", AK_DEALER, "7s 7d 7c 7h 4s", 100, 4000),
    ("a straight flush pays 50", AK_DEALER, "6s 7s 8s 9s Ts", 100, 10000),
    ("a royal flush pays 100", "Ad Kd 9c 5s 2h", "As Ks Qs Js Ts", 100, 20000),
    # "Dealer wins: both lose."
    ("dealer wins: both lose", "Qh Qd 9c 5s 2h", "Jh Jd 8c 4s 3h", -100, -200),
    ("dealer AK beats player high card", AK_DEALER, "Qs Jd 8c 4s 3h", -100, -200),
    # "Tie: push."
    ("tie: push", AK_DEALER, "As Kc 9d 5h 2c", 0, 0),
])
def test_a_betting_box_is_paid_as_the_rules_say(rule: str, dealer: str, player: str,
                                                ante_net: int, bet_net: int) -> None:
    result = settle("caribbean", body(dealer, box(player)))
    assert nets(result) == {"ante": ante_net, "bet": bet_net, "total": ante_net + bet_net}, rule


def test_a_fold_loses_the_ante_and_places_no_raise() -> None:
    # "ANTE, raise = 2 x ANTE or fold."
    result = settle("caribbean", body(AK_DEALER, box("Qs Jd 8c 4s 3h", decision="fold")))
    assert nets(result) == {"ante": -100, "bet": 0, "total": -100}
    assert result.boxes[0].folded


def test_the_maximum_payout_caps_ante_and_raise_winnings_together() -> None:
    # RULES.md: "the winnings of one box (ANTE win plus BET/raise win ...) never exceed it"
    result = settle("caribbean", body("Ad Kd 9c 5s 2h", box("As Ks Qs Js Ts"), max_payout=5000))
    assert nets(result) == {"ante": 100, "bet": 4900, "total": 5000}
    assert result.boxes[0].capped


def test_a_paid_box_names_its_combination_and_multiplier() -> None:
    result = settle("caribbean", body(AK_DEALER, box("7s 7d 4c 4h Js")))
    (combo,) = result.boxes[0].combinations
    assert (combo.category.value, combo.multiplier) == ("two_pairs", 2)
    assert set(combo.cards) == set(parse_cards("7s 7d 4c 4h"))


@pytest.mark.parametrize(("rule", "request_body", "field"), [
    ("BET must be 2 x ANTE", body(AK_DEALER, box("7s 7d 4c 4h Js", bet=150)), "boxes[0].bet"),
    ("ANTE within the table limits", body(AK_DEALER, box("7s 7d 4c 4h Js", ante=5)),
     "boxes[0].ante"),
    ("ANTE within the table limits (max)", body(AK_DEALER, box("7s 7d 4c 4h Js", ante=5000)),
     "boxes[0].ante"),
    ("a card used twice at the table", body("7s Kd 9c 5s 2h", box("7s 7d 4c 4h Js")),
     "dealer.cards"),
    ("a card used twice across boxes",
     body(AK_DEALER, box("7s 7d 4c 4h Js"), box("7s 3d 3c 8h 8s", name="2")), "boxes[1].cards"),
    ("five cards per box", body(AK_DEALER, box("7s 7d 4c 4h")), "boxes[0].cards"),
    ("caribbean-classic sells no game to the player",
     body(NO_GAME_DEALER, box("7s 7d 4c 4h Js", on_no_game="buy_game"), draw="3c"),
     "boxes[0].on_no_game"),
    ("no Oasis replacement in Caribbean stud",
     body(AK_DEALER, box("7s 7d 4c 4h Js",
                         improvement={"replace": {"discard": ["Js"], "draw": ["7c"]}})),
     "boxes[0].improvement"),
])
def test_illegal_input_is_refused_with_an_error_naming_the_field(
        rule: str, request_body: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as info:
        settle("caribbean", request_body)
    assert info.value.field == field, rule


def test_a_buy_game_variant_profile_replaces_the_dealers_highest_card() -> None:
    # RULES.md: "no game -> ANTE 1:1 (raise returned) / buy a game where the profile allows it"
    profile = cb.CaribbeanProfile(name="caribbean-test-buy", buy_game_allowed=True)
    state = hr.new_round(profile, Table(10, 1000, 50000))
    for action in (hr.PlaceBox("1", "A", 100), hr.DealBox("1", parse_cards("7s 7d 4c 4h Js")),
                   hr.DealDealer(parse_cards(NO_GAME_DEALER)), hr.Bet("1", 200),
                   hr.RevealDealer(), hr.BuyGame("1"), hr.DealerDraw(parse_cards("Qc"))):
        state = cb.apply(state, action)
    result = cb.settle(state)
    # Ah replaced by Qc: Qd Qc 9c 5s 2h = a pair of queens, a game; two pairs win 2:1
    assert result.dealer.new_qualified is True
    assert nets(result) == {"ante": 100, "bet": 400, "buy_game_fee": -100, "total": 400}


def test_the_live_table_can_functions_follow_the_phase_of_the_round() -> None:
    state = hr.new_round(cb.CARIBBEAN_CLASSIC, Table(10, 1000, 50000))
    for action in (hr.PlaceBox("1", "A", 100), hr.DealBox("1", parse_cards("7s 7d 4c 4h Js")),
                   hr.DealDealer(parse_cards(NO_GAME_DEALER))):
        state = cb.apply(state, action)
    assert hr.can_bet(state, "1") and hr.can_fold(state, "1")
    state = cb.apply(cb.apply(state, hr.Bet("1", 200)), hr.RevealDealer())
    assert not hr.can_bet(state, "1")
    # no game and no buying: the ANTE is taken by itself, nothing is left to choose
    assert state.boxes[0].no_game == hr.TAKE_ANTE
    assert not hr.can_take_ante(state, "1") and not hr.can_buy_game(state, "1")


def test_at_no_game_the_only_possible_outcome_is_settled_without_a_tap() -> None:
    """RULES.md: "Caribbean stud: ... No game: ANTE 1:1, raise returned." With buying off it is
    the only outcome, so the reveal settles it; a ``take_ante`` stored by older screens still
    replays to the same round."""
    state = hr.new_round(cb.CARIBBEAN_CLASSIC, Table(10, 1000, 50000))
    for action in (hr.PlaceBox("1", "A", 100), hr.PlaceBox("2", "B", 50),
                   hr.DealBox("1", parse_cards("7s 7d 4c 4h Js")),
                   hr.DealBox("2", parse_cards("Qs Jd 8c 4s 3h")),
                   hr.DealDealer(parse_cards(NO_GAME_DEALER)), hr.Bet("1", 200), hr.Fold("2"),
                   hr.RevealDealer()):
        state = cb.apply(state, action)
    settled = cb.settle(state)
    assert [b.net for b in settled.boxes] == [100, -50]
    assert settled.boxes[0].wagers["bet"].net == 0  # the raise returned
    assert cb.apply(state, hr.TakeAnte("1")) == state


def test_a_profile_without_a_price_for_a_paid_category_is_refused() -> None:
    with pytest.raises(HouseRulesError) as info:
        cb.CaribbeanProfile(name="broken", pay_table={"one_pair": 1})
    assert info.value.field is not None and info.value.field.startswith("pay_table.")


def test_replaying_the_same_round_gives_the_same_settlement() -> None:
    request = body(AK_DEALER, box("7s 7d 4c 4h Js"), box("Qs Jd 8c 4s 3h", name="2"))
    assert settle("caribbean", request).to_dict() == settle("caribbean", request).to_dict()


def test_a_bonus_side_bet_is_refused_because_the_stud_games_have_none() -> None:
    """RULES.md lists a bonus bet for Russian poker only; seed 004: 'there is no "bonus" game'."""
    state = hr.new_round(cb.CARIBBEAN_CLASSIC, Table(10, 1000, 50000))
    with pytest.raises(RulesError, match="no bonus bet"):
        cb.apply(state, hr.PlaceBox("1", "A", 100, bonus=50))

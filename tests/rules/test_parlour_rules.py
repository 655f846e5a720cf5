"""Parlour Americana, rule by rule (seed 003, RULES.md "Parlour Americana", profile
``parlour-americana``). Every expected figure below is worked out by hand from the deals in
``parlour_deals.py``; the comments quote the rule they check."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.rules import RulesError
from dealer_assist.rules.cards import parse_cards
from dealer_assist.rules.games.parlour import DEFAULT_PROFILE, Board, end_of_game
from dealer_assist.rules.games.parlour.calculator import settle_hand_request
from dealer_assist.rules.games.parlour.profile import get_parlour_profile

from .parlour_deals import STOPS, SUITED, body

HEARTS = ("Ah", "Kh", "Qh", "Jh", "10h")


def hand(deal: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return settle_hand_request(body(deal, **kw)).to_dict()


def refused(doc: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as info:
        settle_hand_request(doc)
    return info.value


def bets(*steps: str) -> list[dict[str, Any]]:
    """``"Bob bet 2"``, ``"Cy call"`` -> betting actions."""
    out = []
    for step in steps:
        player, kind, *amount = step.split()
        out.append({"player": player, "type": kind} | ({"amount": int(amount[0])} if amount
                                                       else {}))
    return out


def test_the_default_board_has_the_ante_and_seven_sections_that_rules_md_names() -> None:
    # "Default sections: `ante`, `8-9-10`, `KQ-clubs`, and `Ah`, `Kh`, `Qh`, `Jh`, `10h`"
    assert DEFAULT_PROFILE.section_names == ("ante", "8-9-10", "KQ-clubs", *HEARTS)
    assert get_parlour_profile("parlour-americana") is DEFAULT_PROFILE
    with pytest.raises(RulesError, match="unknown profile"):
        get_parlour_profile("parlour-nope")


def test_every_player_antes_one_chip_per_space_and_the_dealer_two() -> None:
    # "every player but the dealer puts 1 chip in the pool and 1 in each section; the dealer 2
    # in the pool and 2 in each section"
    result = hand(SUITED)
    assert result["antes"] == {"Ann": 18, "Bob": 9, "Cy": 9}
    assert result["sections"]["KQ-clubs"]["chips"] == 4  # 2 + 1 + 1, nobody holds Kc and Qc
    assert result["pool"]["amount"] == 4


@pytest.mark.parametrize(("rule", "change", "field", "value"), [
    ("a card twice is an error naming the card",
     lambda d: d["hands"]["Bob"].__setitem__(0, "2c"), "hands.Bob", "2c"),
    ("a card missing from the pack is named",
     lambda d: d["extra"].remove("7s"), "hands", "7s"),
    ("hand sizes differ by at most one card",
     lambda d: (d["extra"].remove("7s"), d["hands"]["Cy"].append("7s")), "hands.Cy", 14),
    ("a hand for somebody who is not playing",
     lambda d: d["hands"].__setitem__("Zed", d["hands"].pop("Cy")), "hands.Zed", "Zed"),
    ("2 to 9 players", lambda d: d.__setitem__("players", ["Ann"]), "players", 1),
    ("a section the board does not have",
     lambda d: d["board"]["sections"].__setitem__("Js", 3), "board.sections.Js", "Js"),
])
def test_the_whole_pack_is_dealt_exactly_once(rule: str, change: Any, field: str,
                                              value: Any) -> None:
    # "The whole pack is dealt into one hand per player and one extra hand; hand sizes differ by
    # at most one card." / "2 to 9 players, 52 cards"
    doc = body(SUITED)
    change(doc)
    err = refused(doc)
    assert (err.field, err.value) == (field, value), rule


def test_the_dealer_may_take_the_extra_hand_unseen_in_exchange_for_his_own() -> None:
    # "the dealer may take it, unseen, in exchange for his own ... The hand given up (or the
    # unsold extra hand) is the dead hand." / "The dealer leads from the hand he holds after any
    # exchange."
    result = hand(SUITED, extra_hand={"action": "exchange"})
    assert result["held"]["Ann"] == SUITED["extra"].split()
    assert result["dead"] == SUITED["hands"]["Ann"].split()
    plays = result["playout"]["plays"]
    assert [p["card"] for p in plays] == SUITED["extra"].split()  # Ann runs the spades out
    assert result["playout"]["winner"] == "Ann"
    # Ann now holds 8s 9s Ts: three holders share the 8-9-10's 4 chips, the odd one to ante
    assert result["sections"]["8-9-10"]["awards"] == {"Ann": 1, "Bob": 1, "Cy": 1}
    assert result["sections"]["8-9-10"]["to_ante"] == 1
    assert result["playout"]["ante_won"] == 5


def test_the_extra_hand_sold_costs_the_buyer_his_bid_paid_to_the_dealer() -> None:
    # "otherwise he may sell it to the highest bidder (a bid of at least 1 chip, paid to the
    # dealer), who gives up his own hand"
    kept = hand(SUITED)
    sold = hand(SUITED, extra_hand={"action": "sell", "buyer": "Bob", "price": 3})
    assert sold["held"]["Bob"] == SUITED["extra"].split()
    assert sold["dead"] == SUITED["hands"]["Bob"].split()
    # Bob's 8d 9d Td are dead now, but he bought 8s 9s Ts: he still shares the 8-9-10
    assert sold["sections"]["8-9-10"]["awards"] == {"Bob": 2, "Cy": 2}
    # Ann leads 2c into Bob's dead 3c; 2d..7d stop at 8d; 4c stops at 5c; Ann has only clubs
    # left, so Bob (next clockwise) leads 2s and runs all thirteen spades out
    stops = [p for p in sold["playout"]["plays"] if "stop" in p]
    assert stops == [{"stop": "3c", "leads": "Ann"}, {"stop": "8d", "leads": "Ann"},
                     {"stop": "5c", "leads": "Bob"}]
    assert sold["playout"]["winner"] == "Bob"
    # Ann: antes 18, the price 3 received, 5 clubs left in hand at the end
    assert sold["net"]["Ann"] == -18 + 3 - 5
    assert kept["net"]["Ann"] == -18 + 4


@pytest.mark.parametrize(("rule", "extra_hand", "field"), [
    ("the dealer does not buy from himself", {"action": "sell", "buyer": "Ann", "price": 2},
     "extra_hand.buyer"),
    ("a bid is at least 1 chip", {"action": "sell", "buyer": "Bob", "price": 0},
     "extra_hand.price"),
    ("the buyer is a player", {"action": "sell", "buyer": "Zed", "price": 2},
     "extra_hand.buyer"),
    ("keep, exchange or sell", {"action": "burn"}, "extra_hand.action"),
])
def test_an_illegal_sale_of_the_extra_hand_is_refused(rule: str, extra_hand: dict[str, Any],
                                                      field: str) -> None:
    assert refused(body(SUITED, extra_hand=extra_hand)).field == field, rule


@pytest.mark.parametrize(("rule", "steps", "outcome", "winners", "awards", "pool_after"), [
    # "If nobody bets, the pool stays."
    ("nobody bets: the pool stays", ("Bob pass", "Cy pass", "Ann pass"), "no_bet", [], {}, 4),
    # "A bet nobody calls wins the pool (the bet included) without a showdown."
    ("an uncalled bet takes the pool unseen", ("Bob bet 2", "Cy pass", "Ann pass"),
     "uncalled", ["Bob"], {"Bob": 6}, 0),
    # "Amounts here are what the player adds above the current bet" and "exact ties split (odd
    # chips stay where they were)": Bob and Cy both hold a royal flush; 4 + 5 + 5 + 5 = 19.
    ("a raise adds to the current bet; a tie splits, the odd chip stays",
     ("Bob bet 2", "Cy raise 3", "Ann call", "Bob call"), "showdown", ["Cy", "Bob"],
     {"Bob": 9, "Cy": 9}, 1),
    # "a pass with a bet to call is a fold"
    ("a pass facing a bet folds", ("Bob pass", "Cy bet 1", "Ann call", "Bob pass"),
     "showdown", ["Cy"], {"Cy": 6}, 0),
])
def test_the_pool_goes_to_the_best_hand_after_one_betting_round(
        rule: str, steps: tuple[str, ...], outcome: str, winners: list[str],
        awards: dict[str, int], pool_after: int) -> None:
    result = hand(SUITED, betting=bets(*steps))
    assert result["pool"]["outcome"] == outcome, rule
    assert result["pool"]["winners"] == winners
    assert result["pool"]["awards"] == awards
    assert result["board_after"]["pool"] == pool_after


def test_the_last_raiser_shows_first_then_the_others_clockwise() -> None:
    # "When a raise has been called by all still in, the last raiser shows first, then the
    # others"
    result = hand(SUITED, betting=bets("Bob bet 2", "Cy raise 3", "Ann call", "Bob call"))
    assert result["pool"]["shows"] == ["Cy", "Ann", "Bob"]
    assert result["pool"]["hands"]["Ann"].startswith("Straight flush")


def test_folding_affects_only_the_pool() -> None:
    # "Folding affects only the pool: every player collects sections and plays out."
    result = hand(SUITED, betting=bets("Bob bet 2", "Cy pass", "Ann pass"))
    assert all(result["sections"][h]["awards"] == {"Cy": 4} for h in HEARTS)
    assert result["playout"]["payments"]["Cy"] == 13


@pytest.mark.parametrize(("rule", "steps", "field", "value"), [
    ("betting starts left of the dealer", ("Cy bet 1",), "betting[0].player", "Cy"),
    ("no bet to call", ("Bob call",), "betting[0].type", "call"),
    ("a raise needs a bet", ("Bob raise 2",), "betting[0].type", "raise"),
    ("a second bet is a raise", ("Bob bet 2", "Cy bet 1"), "betting[1].type", "bet"),
    ("a bet adds at least 1 chip", ("Bob bet 0",), "betting[0].amount", 0),
    ("nothing after the round is over", ("Bob pass", "Cy pass", "Ann pass", "Bob bet 1"),
     "betting[3]", "Bob"),
    ("the round must be finished", ("Bob bet 2", "Cy call"), "betting", "Ann"),
    ("a player of this hand", ("Zed bet 1",), "betting[0].player", "Zed"),
])
def test_an_illegal_bet_is_refused_naming_it(rule: str, steps: tuple[str, ...], field: str,
                                             value: Any) -> None:
    # "in turn each player bets, calls, raises or passes"; "starting left of the dealer, the
    # dealer last"
    err = refused(body(SUITED, betting=bets(*steps)))
    assert (err.field, err.value) == (field, value), rule


def test_sections_go_to_their_holders_and_an_uneven_split_sends_odd_chips_to_ante() -> None:
    # "every section is won by the player(s) holding its cards; several holders share it
    # evenly, odd chips going to the `ante` section." / "Chips nobody wins stay on the board"
    result = hand(SUITED, board={"pool": 0, "sections": {"8-9-10": 1}})
    eight = result["sections"]["8-9-10"]
    assert (eight["chips"], eight["winners"], eight["awards"], eight["to_ante"]) == \
        (5, ["Bob", "Cy"], {"Bob": 2, "Cy": 2}, 1)
    assert result["sections"]["KQ-clubs"]["winners"] == []  # Qc with Ann, Kc with Bob
    assert result["board_after"]["sections"]["KQ-clubs"] == 4
    assert result["playout"]["ante_won"] == 4 + 1


def test_the_ante_play_out_runs_each_suit_up_to_its_ace_and_the_first_out_wins() -> None:
    # "the dealer leads his lowest card (ace high; equal ranks: clubs, diamonds, hearts, spades).
    # The holder of the next higher card of that suit plays it, and so on up to the ace" ... "a
    # run that ends with its ace records no stop" ... "The first player out of cards wins the
    # `ante` section; every other player pays 1 chip per card held into it for the next hand."
    result = hand(SUITED)
    po = result["playout"]
    clubs = [f"{r}c" for r in "23456789TJQKA"]
    assert [p["card"] for p in po["plays"]] == [*clubs, "2d", "3d", "4d", "5d", "6d", "7d"]
    assert [p["player"] for p in po["plays"][:4]] == ["Ann", "Bob", "Ann", "Bob"]
    assert (po["winner"], po["payments"], po["ante_won"]) == ("Ann", {"Bob": 7, "Cy": 13}, 4)
    assert result["board_after"]["sections"]["ante"] == 20
    # conserved: Ann -18 + 4, Bob -9 + 2 - 7, Cy -9 + 2 + 20 - 13; the board holds the rest
    assert result["net"] == {"Ann": -14, "Bob": -14, "Cy": 0}
    assert result["board_after"]["pool"] == 4


STOPS_PLAYS = [
    {"player": "Ann", "card": "2c", "lead": True}, {"player": "Ann", "card": "3c"},
    {"player": "Ann", "card": "4c"}, {"stop": "5c", "leads": "Bob"},
    {"player": "Bob", "card": "2h", "lead": True},
    *({"player": "Bob", "card": f"{r}h"} for r in "3456"),
    *({"player": "Cy", "card": f"{r}h"} for r in "789TJQKA"),
    {"player": "Cy", "card": "2s", "lead": True}, {"player": "Cy", "card": "3s"},
    {"player": "Cy", "card": "4s"},
]


def test_a_stop_names_the_dead_card_and_the_next_player_clockwise_with_another_suit_leads() -> None:
    # "up to the ace or to a stop (the next card is in the dead hand ...). Whoever played the last
    # card leads his lowest card of another suit (if he has none, the next player clockwise who
    # has one leads ...). The play-out list names a stop by the card that could not be played"
    result = hand(STOPS)
    po = result["playout"]
    assert po["plays"] == STOPS_PLAYS
    assert (po["winner"], po["payments"]) == ("Cy", {"Ann": 7, "Bob": 6, "Dee": 10})
    # 8-9-10 held three times (clubs, hearts, spades): 5 chips, 1 each, 2 to the ante
    assert result["sections"]["8-9-10"]["to_ante"] == 2
    assert po["ante_won"] == 5 + 2
    assert result["net"] == {"Ann": -24, "Bob": -15, "Cy": 24, "Dee": -18}


def test_the_clockwise_variant_makes_each_player_in_turn_play_or_pay_one_chip() -> None:
    # "in turn clockwise, each player plays the next card of the suit or pays 1 chip to the
    # `ante` section; when the turn comes back round to the last player to play, he plays the
    # next card if he holds it; if nobody can play it, it is a stop. Chips paid during the play
    # are in the `ante` section the winner takes"
    result = hand(STOPS, variant="clockwise")
    po = result["playout"]
    # 3c 4c 5c: Bob, Cy, Dee pay three times; 3h..6h: Cy, Dee, Ann four times; 8h..Ah: Dee,
    # Ann, Bob seven times; 3s 4s: Dee, Ann, Bob twice. After an ace nobody pays.
    assert po["paid_during"] == {"Ann": 4 + 7 + 2, "Bob": 3 + 7 + 2, "Cy": 3 + 4,
                                 "Dee": 3 + 4 + 7 + 2}
    assert [p for p in po["plays"] if "stop" in p] == [{"stop": "5c", "leads": "Bob"}]
    assert po["plays"][1:4] == [{"player": p, "pays": 1, "card": "3c"} for p in
                                ("Bob", "Cy", "Dee")]
    assert (po["winner"], po["ante_won"]) == ("Cy", 7 + 48)
    assert result["net"] == {"Ann": -37, "Bob": -27, "Cy": 65, "Dee": -34}


def test_chips_left_on_the_board_carry_to_the_next_hand() -> None:
    # "Chips nobody wins stay on the board for the next hand."
    first = hand(SUITED)
    nxt = {"players": ["Bob", "Cy", "Ann"], "hands": {"Bob": SUITED["hands"]["Ann"],
           "Cy": SUITED["hands"]["Bob"], "Ann": SUITED["hands"]["Cy"]}, "extra": SUITED["extra"]}
    second = hand(nxt, board=first["board_after"])
    assert second["pool"]["amount"] == first["board_after"]["pool"] + 4
    assert second["playout"]["ante_won"] == first["board_after"]["sections"]["ante"] + 4
    before = sum(first["board_after"]["sections"].values()) + first["board_after"]["pool"]
    after = sum(second["board_after"]["sections"].values()) + second["board_after"]["pool"]
    assert sum(second["net"].values()) + after - before == 0


def test_the_end_of_game_deal_gives_every_chip_left_to_the_best_five_cards() -> None:
    # "End of game: five cards to each player face up; the best hand wins every chip left on the
    # board." / "exact ties split (odd chips stay where they were)"
    board = Board(7, {"ante": 3, "KQ-clubs": 4})
    hands = {"Ann": parse_cards("As Ad 2c 3c 4c"), "Bob": parse_cards("Ks Kd Kc 5h 6h"),
             "Cy": parse_cards("7s 8d 9c Th Jh")}
    end = end_of_game(board, ("Ann", "Bob", "Cy"), hands, DEFAULT_PROFILE)
    assert (end.winners, dict(end.awards), end.left) == (("Cy",), {"Cy": 14}, 0)
    tie = {"Ann": parse_cards("As Ad 2c 3c 4c"), "Bob": parse_cards("Ac Ah 2d 3d 4d"),
           "Cy": parse_cards("7s 8d 9c Th 2h")}
    split = end_of_game(board, ("Ann", "Bob", "Cy"), tie, DEFAULT_PROFILE)
    assert (split.winners, dict(split.awards), split.left) == (("Ann", "Bob"),
                                                               {"Ann": 7, "Bob": 7}, 0)
    with pytest.raises(RulesError) as info:
        end_of_game(board, ("Ann", "Bob", "Cy"), {**hands, "Cy": parse_cards("7s 8d 9c Th")},
                    DEFAULT_PROFILE)
    assert info.value.field == "hands.Cy"

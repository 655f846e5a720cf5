"""RULES.md "Americana stud (seed 000)", one test per rule, quoted (seed lines in
``docs/rules/americana-stud.md``). Stakes: ANTE 1, so the BRING-IN is 2."""

from __future__ import annotations

import pytest

from tests.rules.poker_table import even, hand, refusal

FIRST = "street 1:Kc 2:Ah 3:As"  # seat 3 has the highest card: the ace of spades


def test_every_player_posts_the_ante_and_the_bring_in_is_twice_the_ante() -> None:
    """"Table stakes: ANTE and BRING-IN (default BRING-IN = 2 x ANTE ...). Every player posts
    the ANTE before the deal." """
    state = hand("americana-limit", even(3), stakes={"ante": 5})
    assert state["status"] == "street" and state["to_act"] is None and state["pot"] == 15
    assert state["posted"] == [{"seat": s, "kind": "ante", "amount": 5, "dead": False}
                               for s in "123"]
    opened = hand("americana-limit", even(3), FIRST, stakes={"ante": 5})
    assert opened["legal"]["bring_in"] == 10


def test_the_highest_up_card_by_rank_then_suit_must_bring_in_or_raise() -> None:
    """"Round 1: the highest up card (rank, then suit) must open with the bring-in or a raise
    (limit: to 2 x bring-in ...); he may not check or fold." Spades > Hearts."""
    state = hand("americana-limit", even(3), FIRST)
    assert state["bring_in"] == "3" and state["to_act"] == "3"
    assert state["legal"] == {"fold": False, "check": False, "call": None, "bring_in": 2,
                              "bet": None, "raise": {"min_to": 4, "max_to": 4},
                              "parole": False}
    assert refusal("americana-limit", even(3), FIRST, "3 fold") == (
        "actions[1]", "seat 3 has the highest card and must bring in 2 or raise")
    after = hand("americana-limit", even(3), FIRST, "3 bring_in")
    assert after["to_act"] == "1" and after["legal"]["call"] == 2
    assert after["legal"]["raise"] == {"min_to": 4, "max_to": 4}


def test_in_limit_the_openers_raise_counts_as_two_of_the_four_bets() -> None:
    """"(limit: to 2 x bring-in, which counts as two of the four bets)" -- two more raises."""
    state = hand("americana-limit", even(3), FIRST, "3 raise 4", "1 raise 6", "2 raise 8")
    assert state["to_act"] == "3" and state["legal"]["raise"] is None
    assert state["legal"]["call"] == 4


def test_a_player_all_in_from_the_ante_is_passed_over_for_the_bring_in() -> None:
    """"A player all in from the ante is passed over: the next highest card opens." """
    state = hand("americana-limit", {"1": 100, "2": 100, "3": 1}, FIRST)
    assert state["bring_in"] == "2" and state["to_act"] == "2"


def test_pot_limit_opener_may_raise_to_the_bring_in_plus_the_pot_after_it() -> None:
    """"Pot-limit: the opener may raise to at most the bring-in + the pot after it." Antes 15,
    bring-in 10: at most 10 + 25 = 35."""
    state = hand("americana-pot-limit", even(3), FIRST, stakes={"ante": 5})
    assert state["legal"]["raise"] == {"min_to": 20, "max_to": 35}
    assert refusal("americana-pot-limit", even(3), FIRST, "3 raise 36",
                   stakes={"ante": 5}) == ("actions[1]", "seat 3 may raise to at most 35")


@pytest.mark.parametrize(("second", "first_to_act", "why"), [
    ("street 1:Kd 2:Qh 3:7c", "1", "a pair of kings beats ace-queen high"),
    ("street 1:9d 2:Ks 3:7c", "2", "ace-king beats ace-seven and king-nine"),
    ("street 1:Kh 2:Ac 3:Ad", "3", "aces: seat 3's pair holds the ace of spades"),
])
def test_rounds_two_to_four_start_with_the_best_shown_hand(second: str, first_to_act: str,
                                                          why: str) -> None:
    """"Rounds 2-4: the best shown hand (up cards only: pairs, two pairs, trips, quads count
    ...; then high cards; exact ties by suit, a pair against an equal pair by the best suit in
    the pair) acts first and may check, bet or fold." """
    state = hand("americana-no-limit", even(3), FIRST, "3 bring_in", "1 call", "2 call",
                 second)
    assert state["round"] == 2 and state["to_act"] == first_to_act, why
    assert state["legal"]["check"] and state["legal"]["bring_in"] is None


def test_four_suited_up_cards_are_no_flush_and_lose_to_a_pair() -> None:
    """"straights and flushes need five cards" -- four hearts up rank by their high cards."""
    lines = (FIRST, "3 bring_in", "1 call", "2 call", "street 1:Kd 2:Qh 3:7c", "1 check",
             "2 check", "3 check", "street 1:7d 2:Jh 3:8c", "1 check", "2 check", "3 check",
             "street 1:8d 2:Th 3:9d")
    state = hand("americana-no-limit", even(3), *lines)
    assert state["round"] == 4 and state["to_act"] == "1"


def test_limit_units_are_the_bring_in_then_twice_the_bring_in() -> None:
    """"Limit units: rounds 1 and 2 = BRING-IN, rounds 3 and 4 = 2 x BRING-IN." """
    lines = (FIRST, "3 bring_in", "1 call", "2 call", "street 1:Kd 2:Qh 3:7c")
    assert hand("americana-limit", even(3), *lines)["legal"]["bet"] == {"min_to": 2,
                                                                      "max_to": 2}
    lines += ("1 check", "2 check", "3 check", "street 1:7d 2:Jh 3:8c")
    assert hand("americana-limit", even(3), *lines)["legal"]["bet"] == {"min_to": 4,
                                                                      "max_to": 4}


def test_no_limit_minimum_bet_is_the_bring_in() -> None:
    """"No-limit and pot-limit: the minimum bet is the BRING-IN." """
    lines = (FIRST, "3 bring_in", "1 call", "2 call", "street 1:Kd 2:Qh 3:7c")
    state = hand("americana-no-limit", even(3), *lines)
    assert state["legal"]["bet"] == {"min_to": 2, "max_to": 97}
    assert refusal("americana-no-limit", even(3), *lines, "1 bet 1") == (
        "actions[5]", "seat 1 may bet to at least 2")


FULL = (FIRST, "3 bring_in", "1 call", "2 call", "street 1:Kd 2:Qh 3:7c", "1 check",
        "2 check", "3 check", "street 1:7d 2:Jh 3:8c", "1 check", "2 check", "3 check",
        "street 1:8d 2:Th 3:9d", "1 check", "2 check", "3 bet 10", "1 call", "2 fold")


def test_a_stud_hand_is_shown_by_its_hole_card_or_all_five_cards() -> None:
    """Stud `show` cards are the hole card (the full five are accepted when the up cards
    match); the best five-card hand under the Americana ranking takes the pot."""
    state = hand("americana-no-limit", even(3), *FULL)
    assert state["status"] == "showdown" and state["show_order"] == ["3", "1"]
    done = hand("americana-no-limit", even(3), *FULL, "3 show Jd", "1 show Kh 7d Kd Kc 8d")
    assert done["status"] == "complete" and done["pots"][0]["winners"] == ["1"]
    assert done["net"] == {"1": 16, "2": -3, "3": -13}
    assert refusal("americana-no-limit", even(3), *FULL, "3 show Jd 7c 8c 9d Jc")[1] == (
        "the cards shown by seat 3 do not match his up cards As 7c 8c 9d")


def test_a_card_seen_twice_or_outside_the_32_card_deck_is_refused() -> None:
    """RULES.md, card notation: "A card that is not in the game's deck (a `5h` in a 32-card
    game), a duplicate card ... is an error that names the card"."""
    field, detail = refusal("americana-limit", even(3), "street 1:Kc 2:5h 3:As")
    assert field == "actions[0]" and "5h" in detail and "32-card deck" in detail
    field, detail = refusal("americana-limit", even(3), FIRST, "3 bring_in", "1 call",
                            "2 call", "street 1:Kd 2:Kc 3:7c")
    assert field == "actions[4]" and detail.startswith("Kc is already on the table")


def test_a_short_all_in_does_not_reopen_the_stud_betting_either() -> None:
    """Common rules: "An all-in raise smaller than a full raise does not reopen the betting for
    players who have already acted". Seat 2 has 12 chips behind after his ante."""
    stacks = {"1": 100, "2": 13, "3": 100}
    state = hand("americana-no-limit", stacks, FIRST, "3 bring_in", "1 raise 10", "2 raise 12",
                 "3 call")
    assert state["to_act"] == "1" and state["legal"]["raise"] is None
    assert state["legal"]["call"] == 2

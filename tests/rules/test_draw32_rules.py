"""RULES.md "32-card draw (seed 002)", one test per rule, quoted (seed lines in
``docs/rules/draw32.md``). Stakes: small blind 1, so big blind 2 and over blind 4."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rules.poker_table import even, hand, refusal


def _posted(state: dict[str, Any]) -> list[tuple[str, str, int, bool]]:
    return [(p["seat"], p["kind"], p["amount"], p["dead"]) for p in state["posted"]]


def test_blinds_left_of_the_button_and_the_over_blind_with_four_or_five_players() -> None:
    """"Blinds: small blind left of the button, big blind next; with 4 or 5 players dealt in,
    the over blind next ... The largest blind posted ... is the opening blind; it counts as the
    first bet of round 1." Action starts left of it."""
    four = hand("draw32-limit", even(4), button="2")
    assert _posted(four) == [("3", "small_blind", 1, False), ("4", "big_blind", 2, False),
                             ("1", "over_blind", 4, False)]
    assert four["to_act"] == "2" and four["legal"]["call"] == 4
    three = hand("draw32-limit", even(3), button="2")
    assert _posted(three) == [("3", "small_blind", 1, False), ("1", "big_blind", 2, False)]
    assert three["to_act"] == "2" and three["legal"]["call"] == 2


def test_heads_up_the_button_posts_the_big_blind_and_the_small_blind_acts_first() -> None:
    """"Heads-up, as the seed says literally: the player left of the button posts the small
    blind and the button the big blind; round 1 therefore starts with the small blind ...
    Round 2 starts with the first player still in left of the opening blind's seat." """
    state = hand("draw32-no-limit", even(2))
    assert _posted(state) == [("2", "small_blind", 1, False), ("1", "big_blind", 2, False)]
    assert state["to_act"] == "2" and state["legal"]["call"] == 1
    state = hand("draw32-no-limit", even(2), "2 call", "1 check", "2 draw 1", "1 draw 2")
    assert state["status"] == "parole" and state["round"] == 2 and state["to_act"] == "2"


def test_limit_units_are_the_opening_blind_then_twice_the_opening_blind() -> None:
    """"Limit units: round 1 = opening blind, round 2 = 2 x opening blind." """
    round_one = hand("draw32-limit", even(4))
    assert round_one["legal"]["raise"] == {"min_to": 8, "max_to": 8}
    lines = ("1 call", "2 call", "3 call", "4 check", "2 draw 1", "3 draw 1", "4 draw 1",
             "1 draw 1", "parole no")
    round_two = hand("draw32-limit", even(4), *lines)
    assert round_two["to_act"] == "1" and round_two["legal"]["bet"] == {"min_to": 8,
                                                                      "max_to": 8}


def test_no_limit_minimum_bet_is_the_opening_blind() -> None:
    """"No-limit and pot-limit: minimum bet = opening blind." """
    lines = ("1 call", "2 call", "3 call", "4 check", "2 draw 1", "3 draw 1", "4 draw 1",
             "1 draw 1", "parole no")
    state = hand("draw32-no-limit", even(4), *lines)
    assert state["legal"]["bet"] == {"min_to": 4, "max_to": 96}
    pot = hand("draw32-pot-limit", even(4), *lines)
    assert pot["legal"]["bet"] == {"min_to": 4, "max_to": 16}


def test_the_draw_goes_clockwise_from_left_of_the_button_zero_to_four_cards() -> None:
    """"Draw: clockwise from the first player still in left of the button, each player
    discards 0 to 4 cards (never 5) and gets as many." """
    lines = ("1 call", "2 fold", "3 call", "4 check")
    state = hand("draw32-limit", even(4), *lines)
    assert state["status"] == "draw" and state["to_act"] == "3"
    assert refusal("draw32-limit", even(4), *lines, "3 draw 5") == (
        "actions[4]", "seat 3 may discard 0 to 4 cards, not 5")
    assert refusal("draw32-limit", even(4), *lines, "4 draw 1")[1] == (
        "it is seat 3's turn to draw, not seat 4's")


def test_when_the_deck_runs_out_only_other_players_discards_are_reshuffled() -> None:
    """"When the deck runs out, the rest of the deck is dealt first, then the discards of the
    OTHER players are shuffled and dealt; a player never gets his own discards back." Five
    players: 32 - 25 = 7 cards left."""
    calls = ("1 call", "2 call", "3 call", "4 check")
    five = even(5)
    lines = ("5 call", "1 call", "2 call", "3 call", "4 check")
    assert hand("draw32-limit", five, *lines)["deck"] == {"left": 7, "reshuffle": []}
    after_two = hand("draw32-limit", five, *lines, "2 draw 4")
    assert after_two["deck"] == {"left": 3, "reshuffle": ["2"]}
    # seat 3 draws 4: 3 from the stub, 1 from seat 2's 4 discards (never his own 4)
    after_three = hand("draw32-limit", five, *lines, "2 draw 4", "3 draw 4")
    assert after_three["deck"] == {"left": 3, "reshuffle": ["3"]}
    last = hand("draw32-limit", five, *lines, "2 draw 4", "3 draw 4", "4 draw 4", "5 draw 4")
    assert last["to_act"] == "1" and last["deck"] == {"left": 3, "reshuffle": ["5"]}
    # four players leave 12 in the stub: the fourth drawer may get the other three's discards
    four = hand("draw32-limit", even(4), *calls, "2 draw 4", "3 draw 4", "4 draw 4")
    assert four["deck"] == {"left": 0, "reshuffle": ["2", "3", "4"]}


def test_parole_agreed_splits_every_pot_among_its_eligible_players() -> None:
    """"Parole: before anyone acts in round 2 ..., the first player to act may propose Parole;
    if every player still in agrees, the hand ends and every pot is split in equal shares among
    its eligible players (odd chips by the odd-chip rule)." """
    stacks = {"1": 100, "2": 100, "3": 30}
    lines = ("1 raise 40", "2 call", "3 call", "2 draw 1", "3 draw 2", "1 draw 0")
    state = hand("draw32-no-limit", stacks, *lines)
    assert state["status"] == "parole" and state["legal"]["parole"] and state["to_act"] == "1"
    done = hand("draw32-no-limit", stacks, *lines, "parole yes")
    assert [(p["amount"], p["eligible"], p["awards"]) for p in done["pots"]] == [
        (90, ["1", "2", "3"], {"2": 30, "3": 30, "1": 30}), (20, ["1", "2"], {"2": 10, "1": 10})]
    assert done["net"] == {"1": 0, "2": 0, "3": 0}
    declined = hand("draw32-no-limit", stacks, *lines, "parole no")
    assert declined["status"] == "betting" and declined["to_act"] == "1"
    assert declined["legal"]["parole"] is False and declined["legal"]["check"]


def test_parole_is_not_offered_when_round_two_has_no_betting() -> None:
    """"(and only when round 2 will have betting: at least two players still in who are not all
    in)" -- with one of two players all in, the hand goes straight to the showdown."""
    state = hand("draw32-no-limit", {"1": 100, "2": 30}, "2 raise 30", "1 call", "2 draw 1",
                 "1 draw 1")
    assert state["status"] == "showdown" and state["legal"]["parole"] is False
    assert refusal("draw32-no-limit", {"1": 100, "2": 30}, "2 raise 30", "1 call",
                   "2 draw 1", "1 draw 1", "parole yes")[1] == (
        "Parole may be proposed only before anyone acts in round 2")


@pytest.mark.parametrize(("missed", "posted"), [
    ("small", [("5", "big_blind", 2, False)]),
    ("small_big", [("5", "big_blind", 2, False), ("5", "small_blind", 1, True)]),
    ("all", [("5", "over_blind", 4, False), ("5", "small_blind", 1, True),
             ("5", "big_blind", 2, True)]),
    ("new", [("5", "over_blind", 4, False)]),
])
def test_missed_blinds_are_posted_live_and_dead(missed: str,
                                                posted: list[tuple[str, str, int, bool]]) -> None:
    """"Missed blinds: a returning player who missed the small blind posts an amount equal to
    the big blind; missed small and big: the big blind plus a dead small blind; missed all
    three: the over blind plus a dead small and big blind. A new player posts the over blind".
    Button 1: seats 2, 3, 4 post the blinds, seat 5 his dues."""
    seats = [{"seat": s, "stack": 100} for s in "1234"] + [
        {"seat": "5", "stack": 100, "missed": missed}]
    state = hand("draw32-limit", seats)
    assert _posted(state)[3:] == posted
    live = posted[0][2]
    assert state["to_act"] == "5" and state["legal"]["call"] == (4 - live or None)
    assert state["legal"]["check"] == (live == 4)


def test_dead_money_goes_to_the_pot_and_is_never_returned_as_an_uncalled_bet() -> None:
    """"Posted live amounts count as his round-1 bet; dead amounts go to the pot only." """
    seats = [{"seat": s, "stack": 100} for s in "1234"] + [
        {"seat": "5", "stack": 100, "missed": "small_big"}]
    state = hand("draw32-limit", seats, "5 fold", "1 fold", "2 fold", "3 fold")
    assert state["status"] == "complete"
    assert state["committed"] == {"1": 0, "2": 1, "3": 2, "4": 2, "5": 3}
    assert state["net"] == {"1": 0, "2": -1, "3": -2, "4": 6, "5": -3}


def test_blind_dues_are_owed_only_outside_the_blinds_and_all_three_is_two_with_three_players(
        ) -> None:
    """"Dues are owed only by a player who is not in a blind position this hand; with 2-3
    players (no over blind) "missed all three" counts as missed small and big." """
    seats = [{"seat": "1", "stack": 100}, {"seat": "2", "stack": 100, "missed": "all"},
             {"seat": "3", "stack": 100}]
    assert _posted(hand("draw32-limit", seats)) == [("2", "small_blind", 1, False),
                                                    ("3", "big_blind", 2, False)]
    seats = [{"seat": "1", "stack": 100, "missed": "all"}, {"seat": "2", "stack": 100},
             {"seat": "3", "stack": 100}]
    assert _posted(hand("draw32-limit", seats))[2:] == [("1", "big_blind", 2, False),
                                                        ("1", "small_blind", 1, True)]


def test_a_shown_draw_hand_has_five_cards_of_the_32_card_deck_and_suits_break_ties() -> None:
    """Suit order "32-card draw Hearts > Diamonds > Clubs > Spades": two ace-high flushes of
    equal ranks are decided by the suit of the highest card."""
    lines = ("2 call", "1 check", "2 draw 0", "1 draw 0", "parole no", "2 check", "1 check")
    state = hand("draw32-no-limit", even(2), *lines, "2 show As Ks Js 9s 8s",
                 "1 show Ac Kc Jc 9c 8c")
    assert state["pots"][0]["winners"] == ["1"]
    assert refusal("draw32-no-limit", even(2), *lines, "2 show As Ks Js 9s 5s")[1] == (
        "5s (seat 2's hand) is not in the 32-card deck")
    assert refusal("draw32-no-limit", even(2), *lines, "2 show As Ks Js 9s")[1] == (
        "seat 2 shows 5 cards, not 4")

"""RULES.md "Player-versus-player games: common rules", one test per rule, quoted.

Hands are written in the dealer's shorthand of ``tests/rules/poker_table.py`` and run through the
calculator's own parser, so each test is also a request the API accepts or refuses.
"""

from __future__ import annotations

import pytest

from dealer_assist.rules.games.poker import (
    Action,
    PokerProfile,
    SeatEntry,
    apply,
    make_stakes,
    start_hand,
)
from dealer_assist.rules.ranking import DRAW32
from tests.rules.poker_table import even, hand, refusal

# Four players, button 1: seat 2 small blind 1, seat 3 big blind 2, seat 4 over blind 4; seat 1
# acts first. Three players, button 1: seat 2 small blind 1, seat 3 big blind 2 (opening).
DEAL4 = ("4 check",)


def test_limit_bets_are_one_unit_and_at_most_four_bets_in_a_round() -> None:
    """"Limit: bets and raises are one fixed unit per round ...; at most 4 bets in a round (bet
    or bring-in or opening blind, raise, re-raise, final raise)." The over blind is bet 1."""
    state = hand("draw32-limit", even(4))
    assert state["to_act"] == "1" and state["legal"]["raise"] == {"min_to": 8, "max_to": 8}
    assert refusal("draw32-limit", even(4), "1 raise 10") == (
        "actions[0]", "seat 1 may raise to at most 8")
    capped = hand("draw32-limit", even(4), "1 raise 8", "2 raise 12", "3 raise 16")
    assert capped["to_act"] == "4"
    assert capped["legal"]["raise"] is None and capped["legal"]["call"] == 12
    field, detail = refusal("draw32-limit", even(4), "1 raise 8", "2 raise 12", "3 raise 16",
                            "4 raise 20")
    assert field == "actions[3]" and "limit of 4 bets" in detail


def test_no_limit_raise_must_be_at_least_the_largest_increment_and_at_most_all_chips() -> None:
    """"No-limit: the smallest bet is the game's minimum bet; a raise must raise by at least the
    largest bet or raise increment made earlier in the same round; the largest is all the
    player's chips." """
    state = hand("draw32-no-limit", even(3), "1 raise 10")
    assert state["legal"]["raise"] == {"min_to": 18, "max_to": 100}
    assert refusal("draw32-no-limit", even(3), "1 raise 10", "2 raise 17") == (
        "actions[1]", "seat 2 may raise to at least 18")
    assert refusal("draw32-no-limit", even(3), "1 raise 101")[1] == (
        "seat 1 has only 100 chips: he can raise to at most 100")


def test_pot_limit_raise_is_at_most_the_current_bet_plus_the_pot_after_the_call() -> None:
    """"Pot-limit: ... the largest raise takes the player's total bet in the round to: the
    current bet + the pot after he has called (pot = all chips in the middle and in front of
    players, including his own call)." Blinds 1+2+4 = 7: seat 1 may go to 4 + 7 + 4 = 15."""
    state = hand("draw32-pot-limit", even(4, 500))
    assert state["legal"]["raise"] == {"min_to": 8, "max_to": 15}
    after = hand("draw32-pot-limit", even(4, 500), "1 raise 15")
    # seat 2 (small blind 1) faces 15: pot 22 + his call 14 -> 15 + 36 = 51
    assert after["legal"]["raise"] == {"min_to": 26, "max_to": 51}
    assert refusal("draw32-pot-limit", even(4, 500), "1 raise 16") == (
        "actions[0]", "seat 1 may raise to at most 15")


def test_a_short_all_in_raise_does_not_reopen_the_betting_for_players_who_have_acted() -> None:
    """"An all-in raise smaller than a full raise does not reopen the betting for players who
    have already acted" (seat 3, the big blind, goes all in for 5 more than the raise of 8)."""
    stacks = {"1": 100, "2": 100, "3": 15}
    state = hand("draw32-no-limit", stacks, "1 raise 10", "2 call", "3 raise 15")
    assert state["to_act"] == "1"
    assert state["legal"]["raise"] is None and state["legal"]["call"] == 5
    field, detail = refusal("draw32-no-limit", stacks, "1 raise 10", "2 call", "3 raise 15",
                            "1 raise 30")
    assert field == "actions[3]" and "does not reopen" in detail


def test_several_short_all_ins_that_make_a_full_raise_reopen_the_betting() -> None:
    """"several short all-ins that together make a full raise do reopen it (TDA Rule 47)"."""
    stacks = {"1": 200, "2": 16, "3": 20, "4": 200}
    state = hand("draw32-no-limit", stacks, "1 raise 12", "2 raise 16", "3 raise 20",
                 "4 call")
    assert state["to_act"] == "1" and state["legal"]["raise"] == {"min_to": 28, "max_to": 200}
    short = {"1": 200, "2": 16, "3": 18, "4": 200}
    state = hand("draw32-no-limit", short, "1 raise 12", "2 raise 16", "3 raise 18", "4 call")
    assert state["to_act"] == "1" and state["legal"]["raise"] is None


def test_in_limit_a_short_all_in_does_not_reopen_either() -> None:
    """"The same in limit (no 50 % rule)." Seat 2 goes all in for 1 more than a raise to 4."""
    stacks = {"1": 100, "2": 5, "3": 100}
    state = hand("draw32-limit", stacks, "1 raise 4", "2 raise 5", "3 call")
    assert state["to_act"] == "1"
    assert state["legal"]["raise"] is None and state["legal"]["call"] == 1


def test_no_raise_is_offered_when_nobody_else_could_put_in_more_chips() -> None:
    """"No bet or raise is offered when no other player still in could put in more chips." """
    state = hand("draw32-no-limit", {"1": 2, "2": 100}, button="1")
    assert state["to_act"] == "2" and state["legal"]["call"] == 1
    assert state["legal"]["raise"] is None


def test_raise_to_amounts_are_the_total_bet_in_the_round() -> None:
    """""Raise to" amounts are the player's total bet in the current round." The small blind
    raising to 8 adds 7."""
    state = hand("draw32-no-limit", even(3), "1 call", "2 raise 8")
    assert state["committed"]["2"] == 8 and state["stacks"]["2"] == 92


def test_everyone_else_folded_wins_without_showing_and_the_uncalled_bet_comes_back() -> None:
    """"Everyone else folded: the last player wins every pot he is eligible for without
    showing; a bet nobody called is returned to its owner." """
    state = hand("draw32-no-limit", even(3), "1 raise 30", "2 fold", "3 fold")
    assert state["status"] == "complete" and "show_order" not in state
    assert state["committed"] == {"1": 2, "2": 1, "3": 2} and state["pot"] == 5
    assert state["net"] == {"1": 3, "2": -1, "3": -2}


def test_an_all_in_player_wins_only_the_pots_he_contributed_to() -> None:
    """"Side pots: an all-in player can win only the pots he contributed to; each pot goes to
    the best hand among its contributors"."""
    state = hand("draw32-no-limit", {"1": 100, "2": 20, "3": 100},
                 "1 raise 50", "2 call", "3 call", "2 draw 0", "3 draw 0", "1 draw 0",
                 "parole no", "1 check", "3 check",
                 "2 show Ah Ad Ac 9s 8s", "3 show Kh Kd Kc Ks 7d", "1 show Qh Qd 7h 8h 9h")
    main, side = state["pots"]
    assert main == {"amount": 60, "eligible": ["1", "2", "3"], "winners": ["3"],
                    "awards": {"3": 60}}
    assert side == {"amount": 60, "eligible": ["1", "3"], "winners": ["3"],
                    "awards": {"3": 60}}
    beaten = hand("draw32-no-limit", {"1": 100, "2": 20, "3": 100},
                  "1 raise 50", "2 call", "3 call", "2 draw 0", "3 draw 0", "1 draw 0",
                  "parole no", "1 check", "3 check",
                  "2 show Kh Kd Kc Ks 7d", "3 show Ah Ad Ac 9s 8s", "1 show Qh Qd 7h 8h 9h")
    assert beaten["net"] == {"1": -50, "2": 40, "3": 10}


def test_showdown_order_last_bettor_first_and_a_partial_call_keeps_him_first() -> None:
    """"the last player to bet or raise in the final round shows first ... A bet that was
    called only in part by an all-in player still makes its maker the last to bet." """
    stacks = {"1": 100, "2": 100, "3": 30}
    lines = ("1 call", "2 call", "3 check", "2 draw 1", "3 draw 1", "1 draw 1", "parole no",
             "1 bet 40", "2 fold", "3 call")
    state = hand("draw32-no-limit", stacks, *lines)
    assert state["show_order"] == ["1", "3"] and state["to_act"] == "1"
    assert state["committed"]["1"] == 30  # the 12 nobody could call came back


def test_showdown_order_without_a_bet_starts_left_of_the_button_and_first_may_not_muck() -> None:
    """"if nobody bet, the first player still in clockwise from the button. Then clockwise; a
    player may muck a losing hand, but the first to show may not muck." """
    lines = ("3 call", "1 call", "2 check", "1 draw 1", "2 draw 1", "3 draw 1", "parole no",
             "3 check", "1 check", "2 check")
    state = hand("draw32-no-limit", even(3), *lines, button="3")
    # button 3: seat 1 small blind, seat 2 big blind; round 2 starts left of seat 2
    assert state["show_order"] == ["1", "2", "3"]
    assert refusal("draw32-no-limit", even(3), *lines, "1 muck", button="3") == (
        "actions[10]", "seat 1 shows first and may not muck")
    done = hand("draw32-no-limit", even(3), *lines, "1 show 7h 8d 9c Js Qh", "2 muck",
                "3 show Ah Ad 7c 8c 9s", button="3")
    assert done["pots"][0]["winners"] == ["3"] and done["net"]["3"] == 4


def test_odd_chips_go_one_each_to_the_winners_clockwise_from_the_button() -> None:
    """"Odd chips: when a pot splits unevenly, the odd chips go one each to the winners
    clockwise from the button." (Exact ties cannot happen with suit tie-breaks, so the split
    here is a Parole: 64 among three, button 1, seat 3 is the first winner left of it.)"""
    stacks = {"1": 100, "2": 100, "3": 21, "4": 100}
    state = hand("draw32-no-limit", stacks, "1 raise 30", "2 fold", "3 call", "4 call",
                 "3 draw 0", "4 draw 0", "1 draw 0", "parole yes")
    main, side = state["pots"]
    assert main["amount"] == 64 and main["awards"] == {"3": 22, "4": 21, "1": 21}
    assert side == {"amount": 18, "eligible": ["1", "4"], "winners": ["4", "1"],
                    "awards": {"4": 9, "1": 9}}


def test_a_default_profile_takes_no_rake_and_a_raked_profile_keeps_the_chips_apart() -> None:
    """"The house's income is a rake or a time charge (profile data; default none, so a
    default profile's hand moves chips between players only)." """
    default = hand("draw32-no-limit", even(3), "1 raise 30", "2 fold", "3 call",
                   "3 draw 0", "1 draw 0", "parole no", "1 check", "3 check",
                   "3 show Ah Ad Ac 9s 8s", "1 show Kh Kd Kc Ks 7d")
    assert default["rake"] == 0 and sum(default["net"].values()) == 0
    raked = PokerProfile(name="draw32-raked", game="draw32", structure="no-limit",
                         ranking=DRAW32, max_players=5, rake_percent=5, rake_cap=2)
    seats = [SeatEntry(s, 100) for s in "123"]
    hand_state = start_hand(raked, make_stakes(raked, {"small_blind": 1}), "1", seats)
    for action in (Action("raise", "1", to=30), Action("fold", "2"), Action("call", "3"),
                   Action("draw", "3", discard=0), Action("draw", "1", discard=0),
                   Action("parole", "1", agreed=True)):
        hand_state = apply(hand_state, action)
    assert hand_state.rake == 2  # 5 % of 61 is 3, capped at 2
    assert sum(hand_state.stacks.values()) + hand_state.rake == 300


@pytest.mark.parametrize(("profile", "players"), [("americana-limit", 7), ("americana-limit", 1),
                                                  ("draw32-limit", 6)])
def test_player_counts_outside_the_game_are_refused(profile: str, players: int) -> None:
    """Americana: "2 to 6 players"; 32-card draw: "2 to 5 players"."""
    field, detail = refusal(profile, even(players))
    assert field == "seats" and f"not {players}" in detail


def test_the_last_player_who_can_claim_a_pot_must_show_to_win_it() -> None:
    """"a player may muck a losing hand" -- but when everyone else in a side pot has mucked, the
    last one left in it shows (docs/rules/americana-stud.md, decision 8)."""
    stacks = {"1": 100, "2": 20, "3": 100}
    lines = ("1 raise 50", "2 call", "3 call", "2 draw 0", "3 draw 0", "1 draw 0", "parole no",
             "1 check", "3 check", "2 show Ah Ad Ac 9s 8s", "3 muck")
    assert refusal("draw32-no-limit", stacks, *lines, "1 muck") == (
        "actions[11]", "seat 1 is the last player in a pot of 60 and must show")
    done = hand("draw32-no-limit", stacks, *lines, "1 show Qh Qd 7h 8h 9h")
    assert [p["winners"] for p in done["pots"]] == [["2"], ["1"]]

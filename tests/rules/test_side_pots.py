"""Side pots of the player-versus-player games, table-driven and quoting the rule.

RULES.md: "Side pots: an all-in player can win only the pots he contributed to; each pot goes to
the best hand among its contributors; a split pot's odd chip goes by the house rule (default: to
the first winner left of the button)."

Seed 000: "If the player which goes All-In did not win, the winner receives all chips (both the
Main and Side pots). If the player who goes All-In wins, he receives the Main Pot, but the Side
pot is passed to the player having the second highest ranking Poker hand."
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.rules import StakeError, evaluate, get_ranking, parse_cards
from dealer_assist.rules.pots import Pot, award_pots, build_pots

AMERICANA = get_ranking("americana")
SEATS = ("A", "B", "C", "D")


def hand(text: str) -> object:
    return evaluate(parse_cards(text), AMERICANA)


def test_an_all_in_player_who_wins_takes_only_the_main_pot_and_the_side_pot_goes_to_the_next_best(
) -> None:
    """Seed 000: 'If the player who goes All-In wins, he receives the Main Pot, but the Side pot
    is passed to the player having the second highest ranking Poker hand.'"""
    pots = build_pots({"A": 100, "B": 300, "C": 300})
    assert pots == (Pot(300, ("A", "B", "C")), Pot(400, ("B", "C")))
    hands = {"A": hand("As Ah Ad Kc Qh"),   # three aces: best
             "B": hand("Ks Kh 9d 8c 7h"),   # pair of kings: second best
             "C": hand("Qs Jh 9c 8d 7s")}   # queen high
    assert award_pots(pots, hands, SEATS[:3]) == {"A": 300, "B": 400, "C": 0}


def test_when_the_all_in_player_loses_the_winner_takes_main_and_side_pots() -> None:
    """Seed 000: 'If the player which goes All-In did not win, the winner receives all chips
    (both the Main and Side pots).'"""
    pots = build_pots({"A": 100, "B": 300, "C": 300})
    hands = {"A": hand("7s 8h 9d Jc Qh"), "B": hand("Ks Kh Kd 8c 7h"), "C": hand("Qs Jh 9c 8d 7d")}
    assert award_pots(pots, hands, SEATS[:3]) == {"A": 0, "B": 700, "C": 0}


def test_several_all_ins_make_several_side_pots_each_won_only_by_its_contributors() -> None:
    """Seed 000: 'If several players go All-In, the several Side pots can be created ... Every
    All-In player having highest ranking hand can take only the pot (or pots) in forming of which
    he took part.'"""
    pots = build_pots({"A": 50, "B": 120, "C": 400, "D": 400})
    assert [p.amount for p in pots] == [200, 210, 560]
    assert [p.eligible for p in pots] == [("A", "B", "C", "D"), ("B", "C", "D"), ("C", "D")]
    hands = {"A": hand("Qs Qh 9d 8c 7h"), "B": hand("As Ah Ad 8d 7s"),
             "C": hand("Ks Kh 9c 8h 7c"), "D": hand("Js Jh Ts 8s 7d")}
    # B (three aces) wins the main and the first side pot, which B contributed to; the last
    # side pot is only C's and D's: C's kings beat D's jacks.
    assert award_pots(pots, hands, SEATS) == {"A": 0, "B": 410, "C": 560, "D": 0}


def test_a_folded_players_chips_stay_in_the_pot_but_he_wins_nothing() -> None:
    """RULES.md: 'each pot goes to the best hand among its contributors' — a folded player has
    given up his claim, not his chips."""
    pots = build_pots({"A": 200, "B": 200, "C": 80}, folded=frozenset({"A"}))
    assert pots == (Pot(240, ("B", "C")), Pot(240, ("B",)))
    hands = {"B": hand("8s 8h 9d Tc Qh"), "C": hand("As Ah Kd 8c 7h")}
    assert award_pots(pots, hands, SEATS[:3]) == {"A": 0, "B": 240, "C": 240}


def test_an_uncalled_bet_comes_back_to_the_player_who_made_it() -> None:
    pots = build_pots({"A": 500, "B": 200})
    assert pots == (Pot(400, ("A", "B")), Pot(300, ("A",)))
    hands = {"A": hand("7s 8h 9d Jc Qh"), "B": hand("Ks Kh 9c 8c 7d")}
    assert award_pots(pots, hands, SEATS[:2]) == {"A": 300, "B": 400}


@pytest.mark.parametrize(("order", "expected"), [
    (("A", "B", "C"), {"A": 51, "B": 50, "C": 0}),
    (("B", "C", "A"), {"A": 50, "B": 51, "C": 0}),
])
def test_a_split_pots_odd_chip_goes_to_the_first_winner_left_of_the_button(
        order: tuple[str, ...], expected: dict[str, int]) -> None:
    """RULES.md: 'a split pot's odd chip goes by the house rule (default: to the first winner left
    of the button)'. Under the 32-card suit tie-breaks identical ranks still differ by suit, so
    the tie here is between two equal rank keys of the standard ranking."""
    standard = get_ranking("standard")
    pots = build_pots({"A": 34, "B": 34, "C": 33})
    hands = {"A": evaluate(parse_cards("As Kh Qd Jc 9h"), standard),
             "B": evaluate(parse_cards("Ad Kc Qs Js 9d"), standard),
             "C": evaluate(parse_cards("2s 3h 4d 6c 8h"), standard)}
    assert award_pots(pots, hands, order) == expected


def test_a_negative_or_fractional_contribution_is_refused_naming_the_player() -> None:
    with pytest.raises(StakeError, match="B's contribution") as err:
        build_pots({"A": 10, "B": -5})
    assert err.value.field == "contributions.B"
    with pytest.raises(StakeError):
        build_pots({"A": 10, "B": 2.5})  # type: ignore[dict-item]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 1000), min_size=2, max_size=6),
       st.data())
def test_every_chip_put_in_is_awarded_to_someone_who_contributed_to_its_pot(
        amounts: list[int], data: st.DataObject) -> None:
    players = [f"P{i}" for i in range(len(amounts))]
    contributions = dict(zip(players, amounts, strict=True))
    folded = frozenset(data.draw(st.sets(st.sampled_from(players), max_size=len(players) - 1)))
    strengths = {p: data.draw(st.integers(0, 3)) for p in players if p not in folded}
    pots = build_pots(contributions, folded)
    won = award_pots(pots, strengths, players)
    assert sum(won.values()) == sum(amounts)
    for p in folded:
        # a folded player gets back at most his own uncalled excess, never another's chips
        assert won[p] <= contributions[p]
    for p, amount in won.items():
        assert amount == 0 or any(p in pot.eligible for pot in pots)

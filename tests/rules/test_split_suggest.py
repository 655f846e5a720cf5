"""The Big/Small "suggest split" helper: 21 splits ranked by expected return in ANTEs."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from dealer_assist.rules import (
    ALL_CARDS,
    Card,
    CardCountError,
    DuplicateCardError,
    evaluate,
    evaluate_small,
    get_ranking,
    parse_card,
    parse_cards,
)
from dealer_assist.rules.games import stud as hr
from dealer_assist.rules.games.stud import split as sp
from dealer_assist.rules.games.stud.split_suggest import (
    score_splits,
    small_key,
    splits_of,
    suggest_split,
)
from dealer_assist.rules.games.stud.table import Table

STANDARD = get_ranking("standard")
BOX = parse_cards("7s 7d Ac Kh 3d 7c Qh")
UP = parse_card("9h")
# seed 004 coefficients, written out independently of the engine's table
COEF = {"one_pair": 1, "two_pairs": 1, "three_of_a_kind": 3, "straight": 4, "flush": 5,
        "full_house": 7, "four_of_a_kind": 20, "straight_flush": 50, "royal_flush": 100}


def reference_return(big: tuple[Card, ...], small: tuple[Card, ...],
                     dealer: tuple[Card, ...], dealer_small: tuple[Card, ...]) -> int:
    """What one split wins against one dealer deal, in ANTEs (ANTE 1, BET 2), by the rules."""
    d = evaluate(dealer, STANDARD)
    if d.category.value in ("high_card", "ace_king"):
        return 1  # no game: ANTE 1:1, BET returned
    b = evaluate(big, STANDARD)
    if b < d:
        return -3
    if b == d:
        return 0
    coef = COEF[b.category.value]
    return 2 * coef if evaluate_small(small) >= evaluate_small(dealer_small) else coef


def six_unknown_deals() -> tuple[list[Card], list[tuple[tuple[Card, ...], tuple[Card, ...]]]]:
    """Every other card is known but six: the 15 ways to deal them are equally likely."""
    unknown = parse_cards("2c 2d Qs 9s 4h Ks")
    known = [c for c in ALL_CARDS if c not in unknown and c not in BOX and c != UP]
    deals = []
    for hidden in combinations(unknown, 4):
        rest = tuple(c for c in unknown if c not in hidden)
        deals.append(((UP, *hidden), rest))
    return known, deals


def test_there_are_21_splits_and_each_uses_all_seven_cards() -> None:
    splits = splits_of(BOX)
    assert len(splits) == 21
    assert len({frozenset(small) for _, small in splits}) == 21
    for big, small in splits:
        assert (len(big), len(small)) == (5, 2)
        assert set(big) | set(small) == set(BOX)


def test_the_small_hand_key_orders_as_evaluate_small_does() -> None:
    for a, b in combinations(parse_cards("As Ah Kd 7c 7s 2h"), 2):
        assert small_key(a, b) == evaluate_small((a, b)).key


def test_scoring_explicit_deals_gives_the_exact_expected_return_of_every_split() -> None:
    _, deals = six_unknown_deals()
    result = score_splits(BOX, deals)
    assert len(result.options) == 21
    for option in result.options:
        exact = sum(reference_return(option.big, option.small, d, s) for d, s in deals) / 15
        assert option.ev == pytest.approx(exact), option.explain()


def test_the_monte_carlo_estimate_is_within_four_standard_errors_of_the_exact_value() -> None:
    known, deals = six_unknown_deals()
    exact = {frozenset(o.small): o.ev for o in score_splits(BOX, deals).options}
    result = suggest_split(BOX, UP, known=known, seed=7, samples=4000)
    for option in result.options:
        assert abs(option.ev - exact[frozenset(option.small)]) <= 4 * option.se + 1e-9


def test_splits_are_ranked_best_first() -> None:
    result = suggest_split(BOX, UP, seed=1, samples=3000)
    evs = [o.ev for o in result.options]
    assert evs == sorted(evs, reverse=True)
    assert result.best is result.options[0]


def test_the_best_split_keeps_the_three_sevens_in_the_big_hand() -> None:
    result = suggest_split(BOX, UP, seed=2, samples=3000)
    sevens = {c for c in BOX if c.rank == 7}
    assert sevens <= set(result.best.big)
    broken = [o for o in result.options if not sevens <= set(o.big)]
    assert all(o.ev < result.best.ev for o in broken)


def test_the_same_seed_gives_the_same_suggestion_and_a_random_instance_is_accepted() -> None:
    a = suggest_split(BOX, UP, seed=11, samples=2000)
    b = suggest_split(BOX, UP, seed=random.Random(11), samples=2000)
    assert a.to_dict() == b.to_dict()


def test_the_explanation_names_the_best_three_splits_and_folding() -> None:
    result = suggest_split(BOX, UP, seed=3, samples=2000)
    lines = result.explain()
    assert len(lines) == 4
    for n, (line, option) in enumerate(zip(lines[:3], result.options[:3], strict=True), start=1):
        assert line.startswith(f"{n}. Big Hand {option.big_hand.label}")
        assert option.small_hand.label in line and "±" in line and "ante" in line
    assert lines[-1].startswith("Fold: EV -1 ante")


def test_a_hopeless_hand_is_still_better_played_than_folded() -> None:
    # the box is always paid 1:1 when the dealer has no game, so playing beats -1
    result = suggest_split(parse_cards("2s 3d 5c 7h 9s Jd 4c"), UP, seed=4, samples=2000)
    assert not result.fold_is_better and result.best.ev > -1


@pytest.mark.parametrize(("cards", "up", "error"), [
    ("7s 7d Ac Kh 3d 7c", "9h", CardCountError),
    ("7s 7d Ac Kh 3d 7c Qh", "7s", DuplicateCardError),
])
def test_bad_cards_are_refused(cards: str, up: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        suggest_split(parse_cards(cards), parse_card(up), seed=0, samples=100)


def test_a_known_card_of_another_box_is_never_in_the_dealers_sampled_hand() -> None:
    known, deals = six_unknown_deals()
    # with everything else known the dealer's cards are six fixed cards, so no split can meet
    # a dealer hand holding a known card: the counts add up to the samples and nothing fails
    result = suggest_split(BOX, UP, known=known, seed=5, samples=500)
    assert sum(result.best.counts.values()) == 500
    assert len(deals) == 15


def test_the_engine_accepts_the_suggested_split() -> None:
    state = hr.new_round(sp.SPLIT_CLASSIC, Table(10, 1000, 50000))
    for action in (hr.PlaceBox("1", "A", 100), hr.DealBox("1", BOX[:5]),
                   hr.DealDealer(parse_cards("9h 2c 3c 4d 5d")),
                   sp.DealExtra("1", "bought", BOX[5:])):
        state = sp.apply(state, action)
    best = suggest_split(BOX, UP, seed=6, samples=500).best
    state = sp.apply(state, sp.ChooseSplit("1", best.big, best.small))
    assert set(state.boxes[0].small) == set(best.small)

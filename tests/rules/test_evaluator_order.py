"""The evaluator's order against a plain reference comparator, its properties, and the house rules.

``tests/rules/reference.py`` classifies five cards by rank counts into a tuple; here the integer
``rank_key`` must order hands exactly as that tuple does, for all three rankings, on seeded random
samples, on exhaustive structured sets, and for best-of-n hands of 6..17 cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.rules import (
    Card,
    CardCountError,
    CardNotInDeckError,
    CardParseError,
    DuplicateCardError,
    HandValue,
    Ranking,
    Suit,
    evaluate,
    evaluate_small,
    get_ranking,
    parse_cards,
    rank_key,
)

from .reference import reference_best, reference_category, reference_key

RANKINGS = ("standard", "americana", "draw32")


def hand(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def assert_same_order(hands: Sequence[Sequence[Card]], name: str) -> None:
    """``rank_key`` orders ``hands`` exactly as the reference does (ties included).

    Sorting by the reference and checking each neighbour pair proves agreement on every pair of
    the set: keys rise exactly where the reference rises and stay equal exactly where it ties.
    """
    ranking = get_ranking(name)
    rows = sorted(
        ((reference_key(h, name), rank_key(h, ranking), tuple(h)) for h in hands),
        key=lambda row: (row[0], row[1]),
    )
    for (ref_a, key_a, a), (ref_b, key_b, b) in zip(rows, rows[1:], strict=False):
        if ref_a == ref_b:
            assert key_a == key_b, f"{name}: {a} and {b} tie by the reference"
        else:
            assert key_a < key_b, f"{name}: {a} is below {b} by the reference"


def random_hands(deck: Sequence[Card], n: int, count: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(deck, n)) for _ in range(count)]


# --- (a) the integer key against the reference comparator --------------------------------------


@pytest.mark.parametrize("name", RANKINGS)
def test_rank_key_orders_seeded_random_five_card_hands_as_the_reference(name: str) -> None:
    deck = get_ranking(name).deck.cards
    assert_same_order(random_hands(deck, 5, 20_000, seed=1), name)


@pytest.mark.parametrize("name", RANKINGS)
def test_rank_key_orders_random_pairs_with_the_same_ranks_in_other_suits_as_the_reference(
    name: str,
) -> None:
    """Pairs of hands that differ only by suit: the case where the suit tie-breaks decide."""
    ranking = get_ranking(name)
    rng = random.Random(2)
    by_rank_suit = {(c.rank, c.suit): c for c in ranking.deck.cards}
    for a in random_hands(ranking.deck.cards, 5, 5_000, seed=3):
        suits = list(Suit)
        rng.shuffle(suits)
        swap = dict(zip(Suit, suits, strict=True))
        b = tuple(by_rank_suit[(c.rank, swap[c.suit])] for c in a)
        ref_a, ref_b = reference_key(a, name), reference_key(b, name)
        key_a, key_b = rank_key(a, ranking), rank_key(b, ranking)
        assert (ref_a > ref_b) == (key_a > key_b), (a, b)
        assert (ref_a == ref_b) == (key_a == key_b), (a, b)


@pytest.mark.parametrize("name", RANKINGS)
@pytest.mark.parametrize("n", [6, 7])
def test_rank_key_orders_seeded_random_pairs_of_six_and_seven_card_hands_as_the_reference(
    name: str, n: int
) -> None:
    ranking = get_ranking(name)
    hands = random_hands(ranking.deck.cards, n, 1_200, seed=n)
    for a, b in zip(hands[::2], hands[1::2], strict=True):
        ref_a, ref_b = reference_best(a, name), reference_best(b, name)
        key_a, key_b = rank_key(a, ranking), rank_key(b, ranking)
        assert (ref_a > ref_b) == (key_a > key_b), (a, b)
        assert (ref_a == ref_b) == (key_a == key_b), (a, b)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["americana", "draw32"])
def test_rank_key_orders_every_five_card_hand_of_the_32_card_deck_as_the_reference(
    name: str,
) -> None:
    assert_same_order(list(combinations(get_ranking(name).deck.cards, 5)), name)


@pytest.mark.slow
@pytest.mark.parametrize(
    "ranks",
    [
        (14, 2, 3, 4, 5, 6, 13),  # wheel, six-high straight, ace-king, low pairs and flushes
        (14, 13, 12, 11, 10, 9),  # royal flush, broadway, king-high straight flush, ace-king
    ],
)
def test_rank_key_orders_every_standard_hand_from_a_set_of_ranks_as_the_reference(
    ranks: tuple[int, ...],
) -> None:
    deck = [c for c in get_ranking("standard").deck.cards if c.rank in ranks]
    assert_same_order(list(combinations(deck, 5)), "standard")


# --- (b) properties ------------------------------------------------------------------------------


@st.composite
def hands_of(draw: st.DrawFn, n_min: int, n_max: int) -> tuple[Ranking, tuple[Card, ...]]:
    """A ranking and ``n_min..n_max`` distinct cards of its deck.

    Half the time the cards come from a few suits and a window of ranks, so that flushes,
    straights, several pairs and suit ties are common rather than rare.
    """
    ranking = get_ranking(draw(st.sampled_from(RANKINGS)))
    n = draw(st.integers(n_min, n_max))
    pool = list(ranking.deck.cards)
    if draw(st.booleans()):
        suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=4))
        low = draw(st.sampled_from(ranking.deck.ranks))
        width = draw(st.integers(5, 13))
        dense = [c for c in pool if c.suit in suits and low <= c.rank < low + width]
        if len(dense) >= n:
            pool = dense
    cards = draw(st.permutations(pool))[:n]
    return ranking, tuple(cards)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(RANKINGS).flatmap(
        lambda name: st.tuples(
            st.just(name),
            *[st.permutations(get_ranking(name).deck.cards).map(lambda p: tuple(p[:5]))] * 3,
        )
    )
)
def test_hand_values_form_a_total_order(
    case: tuple[str, tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]],
) -> None:
    name, *hands = case
    a, b, c = (evaluate(h, get_ranking(name)) for h in hands)
    for x, y in ((a, b), (b, c), (a, c)):
        assert [x < y, x == y, x > y].count(True) == 1  # trichotomy
        assert (x <= y and y <= x) == (x == y)  # antisymmetry
        assert (x == y) == (hash(x) == hash(y)) or x != y
    if a <= b and b <= c:
        assert a <= c  # transitivity
    if a < b and b < c:
        assert a < c


@settings(max_examples=400, deadline=None)
@given(hands_of(5, 7))
def test_evaluate_key_equals_rank_key(case: tuple[Ranking, tuple[Card, ...]]) -> None:
    ranking, cards = case
    assert evaluate(cards, ranking).key == rank_key(cards, ranking)


@settings(max_examples=400, deadline=None)
@given(hands_of(5, 5))
def test_five_card_category_matches_the_reference(case: tuple[Ranking, tuple[Card, ...]]) -> None:
    ranking, cards = case
    assert evaluate(cards, ranking).category.name == reference_category(cards, ranking.name)


def check_best_of_n(ranking: Ranking, cards: tuple[Card, ...]) -> None:
    """The n-card key is the best key of any five, and the reference's best five has that key."""
    key = rank_key(cards, ranking)
    assert key == max(rank_key(five, ranking) for five in combinations(cards, 5))
    best_by_reference = max(
        combinations(cards, 5), key=lambda five: reference_key(five, ranking.name)
    )
    assert rank_key(best_by_reference, ranking) == key


@settings(max_examples=500, deadline=None)
@given(hands_of(6, 7))
def test_best_of_six_or_seven_cards_is_the_best_five_card_subset(
    case: tuple[Ranking, tuple[Card, ...]],
) -> None:
    check_best_of_n(*case)


@settings(max_examples=40, deadline=None)
@given(hands_of(8, 17))
def test_best_of_eight_to_seventeen_cards_is_the_best_five_card_subset(
    case: tuple[Ranking, tuple[Card, ...]],
) -> None:
    check_best_of_n(*case)


@settings(max_examples=300, deadline=None)
@given(hands_of(5, 12))
def test_the_five_cards_used_are_distinct_input_cards_that_reproduce_the_key(
    case: tuple[Ranking, tuple[Card, ...]],
) -> None:
    ranking, cards = case
    value = evaluate(cards, ranking)
    assert len(value.cards) == 5 and len(set(value.cards)) == 5
    assert set(value.cards) <= set(cards)
    assert set(value.significant) <= set(value.cards)
    again = evaluate(value.cards, ranking)
    assert again.key == value.key
    assert again.category == value.category
    assert again.label == value.label


@settings(max_examples=200, deadline=None)
@given(hands_of(5, 9), st.randoms(use_true_random=False))
def test_card_order_does_not_change_the_value(
    case: tuple[Ranking, tuple[Card, ...]], rng: random.Random
) -> None:
    ranking, cards = case
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert rank_key(shuffled, ranking) == rank_key(cards, ranking)


# --- (c) house rules, quoted from the seeds ------------------------------------------------------

# Seed 000 (Americana): "Flush, Straight, Straight Flush and Highest Card are determined by suit of
# high card. Pair and Two Pairs are determined by Kicker suit." Suit rank from highest to lowest:
# Spades, Hearts, Diamonds, Clubs.
# Seed 002 (32-card draw): "Flushes, straights, straight flushes and nothings are determined by
# the suit of the highest card. Pairs and two pairs are decided by the suit of the highest
# kicker." Suit rankings from highest to lowest: Hearts, Diamonds, Clubs, Spades.

SUIT_TIES = [
    # (what, spades-favoured hand, hearts-favoured hand): americana prefers the first, draw32 the
    # second, because the deciding card is a spade in one and a heart in the other.
    ("high card", "As Qd Jc 9d 8c", "Ah Qc Jd 9c 8d"),
    ("flush", "As Qs Js 9s 8s", "Ah Qh Jh 9h 8h"),
    ("straight", "Qs Jd Tc 9d 8c", "Qh Jc Td 9c 8d"),
    ("straight flush", "Qs Js Ts 9s 8s", "Qh Jh Th 9h 8h"),
    # the pair's own suits favour the other hand; only the highest kicker's suit counts
    ("one pair", "Kd Kc As 8d 7c", "Ks Kh Ah 8c 7d"),
    ("two pairs", "Ad Ac Kd Kc Qs", "As Ah Ks Kh Qh"),
]


@pytest.mark.parametrize(("what", "spade_hand", "heart_hand"), SUIT_TIES)
def test_americana_breaks_exact_ties_by_suit_spades_over_hearts(
    what: str, spade_hand: str, heart_hand: str
) -> None:
    r = get_ranking("americana")
    assert evaluate(hand(spade_hand), r) > evaluate(hand(heart_hand), r), what


@pytest.mark.parametrize(("what", "spade_hand", "heart_hand"), SUIT_TIES)
def test_draw32_breaks_exact_ties_by_suit_hearts_over_spades(
    what: str, spade_hand: str, heart_hand: str
) -> None:
    r = get_ranking("draw32")
    assert evaluate(hand(heart_hand), r) > evaluate(hand(spade_hand), r), what


@pytest.mark.parametrize(("what", "spade_hand", "heart_hand"), SUIT_TIES)
def test_standard_ranking_never_breaks_ties_by_suit(
    what: str, spade_hand: str, heart_hand: str
) -> None:
    r = get_ranking("standard")
    assert evaluate(hand(spade_hand), r) == evaluate(hand(heart_hand), r), what


@pytest.mark.parametrize(
    ("name", "better", "worse"),
    [
        # americana: Spades > Hearts > Diamonds > Clubs, each step
        ("americana", "As Qd Jc 9d 8c", "Ah Qd Jc 9d 8c"),
        ("americana", "Ah Qd Jc 9d 8c", "Ad Qs Jc 9s 8c"),
        ("americana", "Ad Qs Jc 9s 8c", "Ac Qs Jd 9s 8d"),
        # draw32: Hearts > Diamonds > Clubs > Spades, each step
        ("draw32", "Ah Qd Jc 9d 8c", "Ad Qs Jc 9s 8c"),
        ("draw32", "Ad Qs Jc 9s 8c", "Ac Qs Jd 9s 8d"),
        ("draw32", "Ac Qs Jd 9s 8d", "As Qd Jc 9d 8c"),
    ],
)
def test_each_suit_outranks_the_next_in_the_games_suit_order(
    name: str, better: str, worse: str
) -> None:
    r = get_ranking(name)
    assert evaluate(hand(better), r) > evaluate(hand(worse), r)


@pytest.mark.parametrize("name", ["americana", "draw32"])
def test_a_higher_kicker_rank_beats_a_better_kicker_suit(name: str) -> None:
    """Suits break only exact ties: with equal pairs the kicker's rank comes first."""
    r = get_ranking(name)
    assert evaluate(hand("Kd Kc Ac 8d 7c"), r) > evaluate(hand("Ks Kh Qh 8c 7d"), r)
    assert evaluate(hand("Jd Jc 8d 8c Ac"), r) > evaluate(hand("Js Jh 8s 8h Kh"), r)


@pytest.mark.parametrize("name", ["americana", "draw32"])
def test_the_ten_decides_a_tie_between_two_ace_seven_eight_nine_ten_straights(name: str) -> None:
    """In A-7-8-9-10 the ace plays low, so the ten is the straight's high card.

    Here the diamond ten beats the club ten in both suit orders, while the aces (spade vs heart)
    would decide the other way in Americana: the ten must be the card that counts.
    """
    r = get_ranking(name)
    with_ace_of_spades = evaluate(hand("As 7c 8c 9c Tc"), r)
    with_ten_of_diamonds = evaluate(hand("Ah 7d 8d 9d Td"), r)
    assert with_ten_of_diamonds > with_ace_of_spades
    assert with_ace_of_spades.label == "Straight, ten high"


@pytest.mark.parametrize("name", ["americana", "draw32"])
def test_ace_seven_eight_nine_ten_is_the_lowest_32_card_straight(name: str) -> None:
    """Seed 002: "Aces can play high or low, so you could have a straight of A-7-8-9-10"."""
    r = get_ranking(name)
    wheel = evaluate(hand("Ah 7s 8d 9c Tc"), r)
    assert wheel.category.name == "straight"
    assert wheel < evaluate(hand("7h 8s 9d Tc Jc"), r)
    assert wheel > evaluate(hand("Ah Ad Ac Kd Qs"), r)


@pytest.mark.parametrize("name", ["americana", "draw32"])
def test_every_other_32_card_straight_beats_the_best_ace_seven_eight_nine_ten_straight(
    name: str,
) -> None:
    r = get_ranking(name)

    def straights(ranks: tuple[int, ...]) -> list[tuple[Card, ...]]:
        """Every non-flush hand of these five ranks, built suit by suit."""
        return [
            tuple(Card.of(f"{'  23456789TJQKA'[rank]}{suit}") for rank, suit in zip(
                ranks, suits, strict=True))
            for suits in product("shdc", repeat=5) if len(set(suits)) > 1
        ]

    wheels = straights((14, 7, 8, 9, 10))
    assert {evaluate(h, r).category.name for h in wheels[::50]} == {"straight"}
    best_wheel = max(rank_key(h, r) for h in wheels)
    for top in range(11, 15):
        others = straights(tuple(range(top - 4, top + 1)))
        assert min(rank_key(h, r) for h in others) > best_wheel


@pytest.mark.parametrize("name", ["americana", "draw32"])
def test_a_flush_beats_a_full_house_in_the_32_card_games(name: str) -> None:
    """Seed 000: "For example, Flush and Full House exchange their ranks"."""
    r = get_ranking(name)
    flush = evaluate(hand("7s 8s 9s Js Ks"), r)
    full_house = evaluate(hand("Ah Ad Ac Kd Kc"), r)
    assert flush.category.name == "flush" and full_house.category.name == "full_house"
    assert flush > full_house
    assert evaluate(hand("7h 7d 7c 7s 8s"), r) > flush  # four of a kind stays above the flush


def test_a_full_house_beats_a_flush_in_the_standard_ranking() -> None:
    r = get_ranking("standard")
    assert evaluate(hand("2h 2d 2c 3d 3c"), r) > evaluate(hand("As Ks Qs Js 9s"), r)


def test_thirty_two_card_rankings_have_no_royal_flush_and_no_ace_king() -> None:
    for name in ("americana", "draw32"):
        r = get_ranking(name)
        assert evaluate(hand("As Ks Qs Js Ts"), r).category.name == "straight_flush"
        assert evaluate(hand("As Kd Qs Js 9s"), r).category.name == "high_card"


def test_ace_two_three_four_five_is_the_lowest_standard_straight() -> None:
    r = get_ranking("standard")
    wheel = evaluate(hand("Ah 2s 3d 4c 5c"), r)
    assert wheel.category.name == "straight"
    assert wheel.label == "Straight, five high"
    assert wheel < evaluate(hand("2h 3s 4d 5c 6c"), r)
    assert wheel > evaluate(hand("Ah Ad Ac Kd Qs"), r)
    assert evaluate(hand("Ah 2h 3h 4h 5h"), r).category.name == "straight_flush"
    assert evaluate(hand("Qh Kd Ah 2c 3s"), r).category.name == "ace_king"  # no wrap-around


def test_ace_king_sits_between_high_card_and_one_pair() -> None:
    r = get_ranking("standard")
    ace_king = evaluate(hand("As Kd 7h 4c 2c"), r)
    assert ace_king.category.name == "ace_king"
    assert evaluate(hand("As Qd Jh 9c 8c"), r) < ace_king < evaluate(hand("2s 2d 3h 4c 5d"), r)
    assert [c.code for c in ace_king.significant] == ["As", "Kd"]


def test_a_royal_flush_is_its_own_category_above_the_straight_flush() -> None:
    r = get_ranking("standard")
    royal = evaluate(hand("As Ks Qs Js Ts 9s"), r)
    assert royal.category.name == "royal_flush"
    assert royal.label == "Royal flush"
    assert royal > evaluate(hand("Kh Qh Jh Th 9h"), r)


@pytest.mark.parametrize(
    ("name", "cards", "label"),
    [
        ("standard", "Kh Kd 7s 7c As", "Two pairs, kings and sevens, ace kicker"),
        ("standard", "6h 6d 2s 9c Ks", "One pair, sixes, king kicker"),
        ("standard", "Qh Qd Qs Jc Jd", "Full house, queens over jacks"),
        ("standard", "Th Td Ts Tc 3d", "Four of a kind, tens, three kicker"),
        ("standard", "9h 9d 9s Ac 3d", "Three of a kind, nines"),
        ("standard", "As Kd Qh 4c 2c", "Ace-King, queen kicker"),
        ("standard", "Ks Jd 9h 4c 2c", "High card, king"),
        ("standard", "Ks Js 9s 4s 2s", "Flush, king high"),
        ("standard", "9h 8d 7s 6c 5d", "Straight, nine high"),
        ("standard", "9h 8h 7h 6h 5h", "Straight flush, nine high"),
        ("americana", "As Kd Qh Jc 9c", "High card, ace"),
        ("draw32", "Jh Th 9h 8h 7h", "Straight flush, jack high"),
    ],
)
def test_labels_read_as_a_croupier_says_the_hand(name: str, cards: str, label: str) -> None:
    assert evaluate(hand(cards), get_ranking(name)).label == label


def test_significant_cards_are_the_combination_and_cards_put_it_first() -> None:
    r = get_ranking("standard")
    value = evaluate(hand("7c 2d Kh 7s Kd As 3h"), r)
    assert value.category.name == "two_pairs"
    assert {c.code for c in value.significant} == {"Kh", "Kd", "7c", "7s"}
    assert {c.code for c in value.cards} == {"Kh", "Kd", "7c", "7s", "As"}


def test_best_of_seven_prefers_the_flush_over_the_straight_it_contains() -> None:
    r = get_ranking("standard")
    value = evaluate(hand("9h 8h 7h 6c 5h 2h Td"), r)
    assert value.category.name == "flush"
    assert value.label == "Flush, nine high"


def test_evaluate_accepts_a_text_hand() -> None:
    r = get_ranking("standard")
    assert evaluate("As Ks Qs Js Ts", r) == evaluate(hand("As Ks Qs Js Ts"), r)


def test_hand_values_of_different_rankings_refuse_to_be_ordered() -> None:
    a = evaluate(hand("As Kd Qh Jc 9c"), get_ranking("americana"))
    b = evaluate(hand("As Kd Qh Jc 9c"), get_ranking("draw32"))
    with pytest.raises(TypeError):
        _ = a < b
    assert isinstance(a, HandValue)


# --- Small Hand (Big/Small game) -----------------------------------------------------------------


def test_a_small_hand_pair_beats_any_high_card() -> None:
    pair = evaluate_small("2c 2d")
    assert pair.category.name == "one_pair"
    assert pair.label == "Pair of twos"
    assert pair > evaluate_small("As Kd")


def test_small_hands_compare_the_high_card_then_the_second_card() -> None:
    assert evaluate_small("As 2d") > evaluate_small("Kh Qd")
    assert evaluate_small("As Qd") > evaluate_small("Ah Jd")
    assert evaluate_small("Kh Kd") > evaluate_small("Qs Qc")
    assert evaluate_small("As Kd").label == "Ace-king high"


def test_equal_small_hands_are_equal_whatever_their_suits() -> None:
    a, b = evaluate_small("Ah Kd"), evaluate_small("As Kc")
    assert a == b and not a < b and not b < a and hash(a) == hash(b)


@pytest.mark.parametrize("cards", ["As", "As Kd Qh"])
def test_a_small_hand_must_have_two_cards(cards: str) -> None:
    with pytest.raises(CardCountError):
        evaluate_small(cards)


def test_a_small_hand_may_not_repeat_a_card() -> None:
    with pytest.raises(DuplicateCardError):
        evaluate_small("As as")


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RANKINGS)
@pytest.mark.parametrize("n", [0, 4, 18])
def test_a_hand_needs_five_to_seventeen_cards(name: str, n: int) -> None:
    r = get_ranking(name)
    cards = get_ranking("standard").deck.cards[:n] if n > len(r.deck) else r.deck.cards[:n]
    with pytest.raises(CardCountError) as err:
        rank_key(cards, r)
    assert err.value.got == n
    with pytest.raises(CardCountError):
        evaluate(cards, r)


@pytest.mark.parametrize("name", RANKINGS)
@pytest.mark.parametrize("n", [5, 6, 7, 9])
def test_a_card_named_twice_is_a_duplicate_card_error_naming_it(name: str, n: int) -> None:
    r = get_ranking(name)
    cards = list(r.deck.cards[10:10 + n - 1]) + [r.deck.cards[10]]
    with pytest.raises(DuplicateCardError) as err:
        rank_key(cards, r)
    assert err.value.card == r.deck.cards[10].code and err.value.position == n
    with pytest.raises(DuplicateCardError):
        evaluate(cards, r)


@pytest.mark.parametrize("name", ["americana", "draw32"])
@pytest.mark.parametrize("n", [5, 7, 8])
def test_a_five_of_hearts_is_not_in_the_32_card_deck(name: str, n: int) -> None:
    r = get_ranking(name)
    cards = list(r.deck.cards[:n - 1]) + [Card.of("5h")]
    with pytest.raises(CardNotInDeckError) as err:
        evaluate(cards, r)
    assert err.value.card == "5h" and err.value.position == n
    assert "5h" in str(err.value)
    with pytest.raises(CardNotInDeckError):
        rank_key(cards, r)


@pytest.mark.parametrize("name", RANKINGS)
@pytest.mark.parametrize("intruder", ["As", None, 14, ("A", "s")])
def test_something_that_is_not_a_card_is_a_card_parse_error(name: str, intruder: object) -> None:
    r = get_ranking(name)
    for n in (5, 6, 8):
        cards: list[object] = [*r.deck.cards[-(n - 1):], intruder]
        with pytest.raises(CardParseError) as err:
            rank_key(cards, r)  # type: ignore[arg-type]
        assert err.value.position == n
        with pytest.raises(CardParseError):
            evaluate(cards, r)  # type: ignore[arg-type]


def test_get_ranking_names_the_known_rankings_when_asked_for_an_unknown_one() -> None:
    from dealer_assist.rules import HouseRulesError

    with pytest.raises(HouseRulesError) as err:
        get_ranking("lowball")
    assert "americana" in str(err.value) and err.value.value == "lowball"

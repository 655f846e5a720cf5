"""Card notation (RULES.md "Card notation"), decks, and table-wide uniqueness."""

from __future__ import annotations

import pytest

from dealer_assist.rules import (
    ALL_CARDS,
    STANDARD_52,
    STRIPPED_32,
    Card,
    CardCountError,
    CardNotInDeckError,
    CardParseError,
    DuplicateCardError,
    Suit,
    check_unique_across,
    format_cards,
    parse_card,
    parse_cards,
)


def codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


# --- accepted forms -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "As Kd Th Qc",
        "As Kd 10h Qc",
        "as kd th qc",
        "AS KD TH QC",
        "A♠ K♦ 10♥ Q♣",
        "A♤ K♢ 10♡ Q♧",
        "As,Kd,10h,Qc",
        "As, Kd, 10h, Q♣",
        "  As\tKd\n10h  Qc  ",
        "As;Kd;Th;Qc",
    ],
)
def test_every_accepted_notation_reads_the_same_four_cards(text: str) -> None:
    assert codes(parse_cards(text)) == ["As", "Kd", "Th", "Qc"]


def test_a_list_of_tokens_and_cards_is_accepted_too() -> None:
    assert codes(parse_cards(["As", "10h", Card.of("Kd")])) == ["As", "Th", "Kd"]


@pytest.mark.parametrize(("token", "rank", "suit"), [
    ("2c", 2, Suit.clubs), ("9d", 9, Suit.diamonds), ("10s", 10, Suit.spades),
    ("Td", 10, Suit.diamonds), ("jh", 11, Suit.hearts), ("Q♠", 12, Suit.spades),
    ("k♥", 13, Suit.hearts), ("A♦", 14, Suit.diamonds),
])
def test_each_rank_and_suit_reads_as_its_number_and_suit(token: str, rank: int, suit: Suit) -> None:
    card = parse_card(token)
    assert (card.rank, card.suit) == (rank, suit)


def test_an_empty_text_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()


# --- errors name the token and its 1-based position ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("Xs Kd", "Xs", 1),
        ("As Kx", "Kx", 2),
        ("As Kd 1h", "1h", 3),
        ("As Kd Qh 11c", "11c", 4),
        ("As A", "A", 2),
        ("As Kd Qh Jc 5", "5", 5),
        ("As Kd ♠A", "♠A", 3),
    ],
)
def test_a_token_that_is_not_a_card_is_named_with_its_position(
    text: str, token: str, position: int
) -> None:
    with pytest.raises(CardParseError) as err:
        parse_cards(text)
    assert err.value.token == token
    assert err.value.position == position
    assert f"'{token}'" in str(err.value) and f"card {position}" in str(err.value)
    assert err.value.problem()["value"] == token


def test_a_non_string_token_is_a_parse_error_at_its_position() -> None:
    with pytest.raises(CardParseError) as err:
        parse_cards(["As", 7])  # type: ignore[list-item]
    assert err.value.position == 2


def test_a_card_named_twice_is_a_duplicate_naming_the_card_and_its_position() -> None:
    with pytest.raises(DuplicateCardError) as err:
        parse_cards("As Kd 10h Kd")
    assert err.value.card == "Kd" and err.value.position == 4
    assert "Kd (card 4)" in str(err.value)


@pytest.mark.parametrize("text", ["As as", "A♠ As", "Th 10h", "Th, 10♥"])
def test_two_spellings_of_one_card_are_still_a_duplicate(text: str) -> None:
    with pytest.raises(DuplicateCardError):
        parse_cards(text)


def test_a_wrong_number_of_cards_is_a_count_error_naming_the_hand() -> None:
    with pytest.raises(CardCountError) as err:
        parse_cards("As Kd Qh Jc", count=5, what="dealer hand")
    assert err.value.got == 4 and err.value.expected == "5"
    assert "dealer hand" in str(err.value)
    assert len(parse_cards("As Kd Qh Jc Tc", count=5)) == 5


def test_rules_errors_describe_themselves_for_the_edge() -> None:
    with pytest.raises(CardParseError) as err:
        parse_cards("As Zz")
    problem = err.value.problem()
    assert problem["code"] == "card_parse_error"
    assert "Zz" in problem["detail"]
    assert err.value.at("boxes[0].cards").field == "boxes[0].cards"


# --- the card model -----------------------------------------------------------------------------


def test_cards_are_interned_whatever_the_spelling() -> None:
    assert parse_card("10h") is parse_card("Th") is parse_card("t♥") is Card.of("Th")
    assert parse_cards([Card(10, Suit.hearts)])[0] is Card.of("Th")


def test_a_card_shows_as_its_two_character_code() -> None:
    card = Card.of("As")
    assert repr(card) == "As" and str(card) == "As"
    assert repr(list(parse_cards("As 10d"))) == "[As, Td]"
    assert Card.of("Th").pretty == "10♥"
    assert Card.of("Qc").name == "queen of clubs"


def test_cards_are_frozen_and_hashable() -> None:
    card = Card.of("As")
    with pytest.raises(AttributeError):
        card.rank = 13  # type: ignore[misc]
    assert len({Card.of("As"), Card(14, Suit.spades), Card.of("Ah")}) == 2


def test_a_card_of_an_impossible_rank_cannot_be_made() -> None:
    with pytest.raises(CardParseError):
        Card(15, Suit.spades)
    with pytest.raises(CardParseError):
        Card(1, Suit.spades)


def test_there_are_52_distinct_cards_with_distinct_masks() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 52
    assert len({c.mask for c in ALL_CARDS}) == 52
    assert sorted(c.index for c in ALL_CARDS) == list(range(52))


def test_format_cards_writes_the_canonical_text_form() -> None:
    assert format_cards(parse_cards("a♠ 10h kd")) == "As Th Kd"
    assert parse_cards(format_cards(ALL_CARDS)) == ALL_CARDS


# --- decks --------------------------------------------------------------------------------------


def test_the_standard_deck_holds_all_52_cards() -> None:
    assert len(STANDARD_52) == 52
    assert STANDARD_52.ranks == tuple(range(2, 15))
    assert all(c in STANDARD_52 for c in ALL_CARDS)


def test_the_stripped_deck_holds_the_32_cards_seven_to_ace() -> None:
    """Seed 002: "Stripped deck: cards of rank 2-6 are removed"."""
    assert len(STRIPPED_32) == 32
    assert STRIPPED_32.ranks == (7, 8, 9, 10, 11, 12, 13, 14)
    assert Card.of("7c") in STRIPPED_32 and Card.of("As") in STRIPPED_32
    assert Card.of("6s") not in STRIPPED_32 and Card.of("2h") not in STRIPPED_32
    assert "7c" not in STRIPPED_32  # only cards are members, not codes
    assert {c.suit for c in STRIPPED_32.cards} == set(Suit)


def test_a_five_of_hearts_is_not_in_the_32_card_deck_and_the_error_says_where() -> None:
    with pytest.raises(CardNotInDeckError) as err:
        STRIPPED_32.check(parse_cards("As Kd 5h"))
    assert err.value.card == "5h" and err.value.position == 3
    assert err.value.deck == "32-card"
    STANDARD_52.check(parse_cards("As Kd 5h"))


def test_a_card_named_in_two_places_of_one_round_is_an_error_naming_both() -> None:
    groups = {
        "box 1": parse_cards("As Kd Qh Jc Tc"),
        "box 2": parse_cards("2s 3d 4h 5c 6c"),
        "dealer": parse_cards("9s 9d 9h 8c Qh"),
    }
    with pytest.raises(DuplicateCardError) as err:
        check_unique_across(groups)
    assert err.value.card == "Qh" and err.value.position == 5
    assert "box 1" in str(err.value) and "dealer" in str(err.value)


def test_cards_unique_across_every_place_pass() -> None:
    check_unique_across({
        "box 1": parse_cards("As Kd Qh Jc Tc"),
        "dealer": parse_cards("2s 3d 4h 5c 6c"),
        "dealer draw": parse_cards("7s"),
    })


def test_a_count_error_says_1_card_not_1_cards() -> None:
    from dealer_assist.rules.cards import parse_cards

    with pytest.raises(CardCountError) as one:
        parse_cards("As", count=2, what="box 2")
    assert "the box 2 has 1 card; expected 2" in str(one.value)
    with pytest.raises(CardCountError) as three:
        parse_cards("As Kd Qh", count=2, what="box 2")
    assert "has 3 cards; expected 2" in str(three.value)

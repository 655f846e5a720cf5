"""Cards: a frozen, interned ``Card`` with compact repr ``As`` and a forgiving parser.

Cards are interned: ``parse_cards`` and ``Card.of`` always hand out the same 52 objects, and each
carries the precomputed integers the evaluator needs (rank bit, suit index, prime, 52-bit mask), so
the hot path never recomputes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from .errors import CardCountError, CardParseError, DuplicateCardError


class Suit(StrEnum):
    """The four suits; the value is the one-letter code used in notation."""

    spades = "s"
    hearts = "h"
    diamonds = "d"
    clubs = "c"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    # ``index`` shadows ``str.index`` on purpose (0..3, the evaluator's suit number); mypy flags
    # the signature change, which is intended.
    @property
    def index(self) -> int:  # type: ignore[override]
        return _SUIT_INDEX[self]


_SUIT_SYMBOL = {Suit.spades: "♠", Suit.hearts: "♥", Suit.diamonds: "♦", Suit.clubs: "♣"}
_SUIT_INDEX = {Suit.spades: 0, Suit.hearts: 1, Suit.diamonds: 2, Suit.clubs: 3}
SUITS: tuple[Suit, ...] = (Suit.spades, Suit.hearts, Suit.diamonds, Suit.clubs)

RANK_CHARS = "23456789TJQKA"
#: rank number (2..14) -> one-character code
RANK_CODE: dict[int, str] = {r: RANK_CHARS[r - 2] for r in range(2, 15)}
RANK_NAME: dict[int, str] = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}
RANK_PLURAL: dict[int, str] = {r: ("sixes" if r == 6 else n + "s") for r, n in RANK_NAME.items()}
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. ``rank`` is 2..14 (ace high), ``suit`` a :class:`Suit`."""

    rank: int
    suit: Suit
    # Derived integers for the evaluator; excluded from comparison and repr.
    index: int = field(init=False, compare=False, repr=False)
    bit: int = field(init=False, compare=False, repr=False)
    suit_index: int = field(init=False, compare=False, repr=False)
    prime: int = field(init=False, compare=False, repr=False)
    mask: int = field(init=False, compare=False, repr=False)
    # suit counter increment (one byte per suit) and the evaluator's packed accumulator term
    sinc: int = field(init=False, compare=False, repr=False)
    acc: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank not in RANK_CODE:
            raise CardParseError(str(self.rank), 1, "rank must be 2..14")
        suit = Suit(self.suit)
        object.__setattr__(self, "suit", suit)
        si = suit.index
        object.__setattr__(self, "suit_index", si)
        object.__setattr__(self, "index", si * 13 + self.rank - 2)
        object.__setattr__(self, "bit", 1 << self.rank)
        object.__setattr__(self, "prime", _PRIMES[self.rank - 2])
        object.__setattr__(self, "mask", 1 << (si * 13 + self.rank - 2))
        object.__setattr__(self, "sinc", 1 << (8 * si))
        # acc: card mask << 55 | 4-bit suit counter << 39 | 3-bit rank counter (see evaluator);
        # kept under 107 bits so that the evaluator's sums stay four machine digits long
        acc = self.mask << 55 | 1 << (39 + 4 * si) | 1 << (3 * (self.rank - 2))
        object.__setattr__(self, "acc", acc)

    @staticmethod
    def of(code: str) -> Card:
        """The interned card for a two-character code such as ``"As"``."""
        return parse_card(code)

    def __repr__(self) -> str:
        return RANK_CODE[self.rank] + self.suit.value

    __str__ = __repr__

    @property
    def code(self) -> str:
        return RANK_CODE[self.rank] + self.suit.value

    @property
    def pretty(self) -> str:
        """``A♠``, ``10♥``: how a croupier reads a card."""
        rank = "10" if self.rank == 10 else RANK_CODE[self.rank]
        return rank + self.suit.symbol

    @property
    def name(self) -> str:
        return f"{RANK_NAME[self.rank]} of {self.suit.name}"


#: every card of a 52-card deck, interned, by code and by (rank, suit)
ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(2, 15))
_BY_CODE: dict[str, Card] = {c.code: c for c in ALL_CARDS}

_SUIT_ALIASES = {
    "s": "s", "h": "h", "d": "d", "c": "c",
    "♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c",
}
_RANK_ALIASES = {ch: ch for ch in RANK_CHARS} | {"10": "T"}
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_card(token: str, position: int = 1) -> Card:
    """One card from ``As``, ``as``, ``10h``, ``Th``, ``Q♣``; ``CardParseError`` otherwise."""
    raw = token.strip()
    if len(raw) < 2:
        raise CardParseError(token, position, "expected a rank and a suit, e.g. As or 10h")
    rank_part, suit_part = raw[:-1].upper(), raw[-1].lower()
    rank = _RANK_ALIASES.get(rank_part)
    if rank is None:
        raise CardParseError(token, position, f"unknown rank '{raw[:-1]}'")
    suit = _SUIT_ALIASES.get(suit_part)
    if suit is None:
        raise CardParseError(token, position, f"unknown suit '{raw[-1]}'")
    return _BY_CODE[rank + suit]


def parse_cards(
    text: str | Iterable[str | Card], *, count: int | None = None, what: str = "hand"
) -> tuple[Card, ...]:
    """Parse ``"As Kd 10h Q♣"`` (spaces or commas) or a list of tokens into interned cards.

    A card named twice raises ``DuplicateCardError``; with ``count`` a different number of cards
    raises ``CardCountError``. Positions in errors are 1-based, as a croupier counts.
    """
    tokens: list[str | Card]
    if isinstance(text, str):
        tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    else:
        tokens = list(text)
    cards: list[Card] = []
    seen: set[Card] = set()
    for pos, tok in enumerate(tokens, start=1):
        if isinstance(tok, Card):
            card = _BY_CODE[tok.code]
        elif isinstance(tok, str):
            card = parse_card(tok, pos)
        else:
            raise CardParseError(repr(tok), pos, "expected a card code such as 'As'")
        if card in seen:
            raise DuplicateCardError(card.code, pos, f"in the {what}")
        seen.add(card)
        cards.append(card)
    if count is not None and len(cards) != count:
        raise CardCountError(len(cards), str(count), what)
    return tuple(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """``As Kd Th``: the canonical text form, as stored in events."""
    return " ".join(c.code for c in cards)

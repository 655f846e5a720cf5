"""Exact hand evaluation for every ranking, with an integer fast path for bulk work.

``rank_key(cards, ranking)`` returns an ``int``; a higher key is a better hand and equal keys are
exactly the hands that tie. Layout: ``strength << 24 | ranks << 4 | suit``, where ``strength`` is
the category's position in the ranking's order, ``ranks`` are five 4-bit tie-break ranks (most
significant first) and ``suit`` is the suit tie-break digit of the 32-card games (0 elsewhere).

The n-card path (5..17 cards) never enumerates five-card subsets: one pass over the cards builds
the rank multiplicity masks (seen once, twice, three, four times) and one rank mask per suit, and
every category is read off those masks with bit operations. Five cards in a ranking without suit
tie-breaks take a lookup path (flush masks and prime products, as in Cactus Kev's evaluator).

``evaluate`` decodes the key into a :class:`HandValue` with the five cards used, the significant
cards and a human label. Both validate their input: count, duplicates and deck membership.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from operator import attrgetter

from .cards import ALL_CARDS, SUITS, Card, parse_cards
from .errors import CardCountError, CardParseError, DuplicateCardError
from .hands import HandValue as HandValue
from .hands import SmallHandValue as SmallHandValue
from .hands import evaluate_small as evaluate_small
from .hands import label_of
from .ranking import Category, Ranking

C = Category
# Members bound once: reading ``Category.x`` costs a few hundred nanoseconds per access on
# Python 3.11, and members are singletons, so the decoder compares them by identity.
_ROYAL, _SF, _QUADS, _FULL = C.royal_flush, C.straight_flush, C.four_of_a_kind, C.full_house
_FLUSH, _STRAIGHT, _TRIPS, _TWO = C.flush, C.straight, C.three_of_a_kind, C.two_pairs
_PAIR, _AK = C.one_pair, C.ace_king
_RUNS = frozenset({_ROYAL, _SF, _STRAIGHT})
_SUITED = frozenset({_ROYAL, _SF, _FLUSH})
_ACE = 1 << 14
_KING = 1 << 13


def _top5_table() -> list[int]:
    """For every rank mask (bits 2..14): its five highest ranks packed as nibbles, left-aligned."""
    table = [0] * (1 << 15)
    for mask in range(1 << 15):
        packed, m, shift = 0, mask, 16
        while m and shift >= 0:
            r = m.bit_length() - 1
            packed |= r << shift
            m ^= 1 << r
            shift -= 4
        table[mask] = packed
    return table


_TOP5 = _top5_table()


class _Tables:
    """Per-ranking constants and the five-card lookup tables (built once per ranking)."""

    def __init__(self, ranking: Ranking) -> None:
        self.ranking = ranking
        base = {cat: ranking.strength(cat) << 24 for cat in ranking.order}
        self.b_high = base[C.high_card]
        self.b_ak = base.get(C.ace_king, -1)
        self.b_pair = base[C.one_pair]
        self.b_two = base[C.two_pairs]
        self.b_trips = base[C.three_of_a_kind]
        self.b_straight = base[C.straight]
        self.b_flush = base[C.flush]
        self.b_full = base[C.full_house]
        self.b_quads = base[C.four_of_a_kind]
        self.b_sf = base[C.straight_flush]
        self.b_royal = base.get(C.royal_flush, self.b_sf)
        self.low_ace_shift = ranking.straights[0][-2] - 1  # bit just below the wheel's lowest card
        self.deck_mask = ranking.deck.mask
        self.not_deck = ((1 << 52) - 1) & ~ranking.deck.mask  # the cards this game lacks
        # suit tie-break digit per suit index (0 when the game has no suit tie-breaks)
        self.suit_digit = [ranking.suit_strength(s) for s in SUITS]
        self.suit_pref = (
            [s.index for s in ranking.suit_order] if ranking.suit_order else [0, 1, 2, 3]
        )
        self.uses_suits = ranking.suit_order is not None
        # decoding takes cards highest rank first, the game's best suit first within a rank
        pref = {si: n for n, si in enumerate(self.suit_pref)}
        self.decode_order = [0] * 52
        for c in ALL_CARDS:
            self.decode_order[c.index] = (14 - c.rank) * 4 + pref[c.suit_index]
        self.flush5: dict[int, int] = {}
        self.multi: dict[int, int] = {}
        if not self.uses_suits:
            self._build_tables()

    def _build_tables(self) -> None:
        """Keys for every five-card flush (by card mask) and every rank multiset of 5..7 cards.

        In a ranking without suit tie-breaks a hand that holds no flush is worth exactly what its
        rank multiset is worth, so one dictionary look-up on the packed rank counters evaluates it.
        """
        deck_ranks = self.ranking.deck.ranks
        by_rs = {(c.rank, c.suit_index): c for c in self.ranking.deck.cards}
        for si in range(4):
            for ranks in combinations(deck_ranks, 5):
                cards = [by_rs[(r, si)] for r in ranks]
                self.flush5[sum(c.mask for c in cards)] = _key_any(cards, self)
        for n in range(5, 8):
            for multiset in combinations_with_replacement(deck_ranks, n):
                s = p = tr = q = counts = 0
                for r in multiset:
                    b = 1 << r
                    q |= tr & b
                    tr |= p & b
                    p |= s & b
                    s |= b
                    counts += 1 << (3 * (r - 2))
                if all(multiset.count(r) <= 4 for r in set(multiset)):  # no five of a kind
                    self.multi[counts] = _key_ranks(s, p, tr, q, (), self)


_TABLES: dict[Ranking, _Tables] = {}


def _tables(ranking: Ranking) -> _Tables:
    try:
        return _TABLES[ranking]
    except KeyError:
        t = _TABLES[ranking] = _Tables(ranking)
        return t


def _best_suit_of_rank(cards: Sequence[Card], rank: int, t: _Tables) -> int:
    """Suit tie-break digit of the best card of one rank (32-card games)."""
    return max(t.suit_digit[c.suit_index] for c in cards if c.rank == rank)


def _straight_top(mask: int, low_ace_shift: int) -> int:
    """Highest card of the best straight in a rank mask, 0 if none (the ace also plays low)."""
    m = mask | ((mask >> 14) & 1) << low_ace_shift
    runs = m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)
    return runs.bit_length() + 3 if runs else 0


# A suit counter holds one byte per suit, started at 3: a byte reaches 8 (bit 3 or 4 set) exactly
# when that suit has five or more cards, so one AND tells whether any flush is possible.
_SUIT_COUNTER_START = 0x03030303
_FLUSH_BITS = 0x18181818


def _key_any(cards: Sequence[Card], t: _Tables) -> int:
    """The key of the best five of any number of cards, from multiplicity and suit masks."""
    s = p = tr = q = 0
    sc = _SUIT_COUNTER_START
    for c in cards:
        b = c.bit
        q |= tr & b
        tr |= p & b
        p |= s & b
        s |= b
        sc += c.sinc
    best = _key_ranks(s, p, tr, q, cards, t)
    if sc & _FLUSH_BITS:
        best = max(best, _best_flush(cards, t))
    return best


def _key_ranks(s: int, p: int, tr: int, q: int, cards: Sequence[Card], t: _Tables) -> int:
    """The best key that does not need a flush, from the ranks seen at least 1, 2, 3, 4 times.

    ``cards`` is read only for the suit tie-breaks of the 32-card games.
    """
    top5 = _TOP5
    if t.uses_suits:
        best = t.b_high | top5[s] << 4 | _best_suit_of_rank(cards, s.bit_length() - 1, t)
    elif s & _ACE and s & _KING and t.b_ak >= 0:
        best = t.b_ak | top5[s] << 4
    else:
        best = t.b_high | top5[s] << 4
    if p:
        top = p.bit_length() - 1
        rest_p = p ^ (1 << top)
        if rest_p:  # two pairs
            second = rest_p.bit_length() - 1
            kick = s & ~(1 << top) & ~(1 << second)
            k = t.b_two | top << 20 | second << 16 | (top5[kick] >> 16) << 12
        else:
            kick = s ^ (1 << top)
            k = t.b_pair | top << 20 | (top5[kick] >> 8) << 8
        if t.uses_suits and kick:
            k |= _best_suit_of_rank(cards, kick.bit_length() - 1, t)
        best = max(best, k)
        if tr:
            top = tr.bit_length() - 1
            best = max(best, t.b_trips | top << 20 | (top5[s ^ (1 << top)] >> 12) << 12)
            pairs = p ^ (1 << top)
            if pairs:
                best = max(best, t.b_full | top << 20 | (pairs.bit_length() - 1) << 16)
            if q:
                top = q.bit_length() - 1
                kicker = (s ^ (1 << top)).bit_length() - 1
                best = max(best, t.b_quads | top << 20 | kicker << 16)
    high = _straight_top(s, t.low_ace_shift)
    if high:
        k = t.b_straight | high << 20
        if t.uses_suits:
            k |= _best_suit_of_rank(cards, high, t)
        best = max(best, k)
    return best


def _best_flush(cards: Sequence[Card], t: _Tables) -> int:
    """The best straight flush or flush key among suits holding five or more cards."""
    best = 0
    for si in range(4):
        m = 0
        for c in cards:
            if c.suit_index == si:
                m |= c.bit
        if m.bit_count() >= 5:
            high = _straight_top(m, t.low_ace_shift)
            if high:
                k = (t.b_royal if high == 14 else t.b_sf) | high << 20
            else:
                k = t.b_flush | _TOP5[m] << 4
            best = max(best, k | t.suit_digit[si])
    return best


def _validate(cards: Sequence[Card], t: _Tables) -> None:
    n = len(cards)
    if not 5 <= n <= 17:
        raise CardCountError(n, "5 to 17", "hand")
    union = 0
    for pos, c in enumerate(cards, start=1):
        if not isinstance(c, Card):
            raise CardParseError(repr(c), pos, "not a Card; use parse_cards")
        if union & c.mask:
            raise DuplicateCardError(c.code, pos, "in the hand")
        union |= c.mask
    t.ranking.deck.check(cards)


# Layout of ``Card.acc`` (and of a sum of up to seven of them): bits 0..38 hold one 3-bit counter
# per rank, bits 39..54 one 4-bit counter per suit, bits 55..106 the 52-bit card mask. The suit
# counters start at 3, so a counter reaches 8 (its bit 3) exactly when the suit has five or more
# cards; no counter can overflow into the next with seven cards or fewer.
_COUNTS = (1 << 39) - 1
_ACC_START = 0x3333 << 39
_ACC_FLUSH = 0x8888 << 39
_UNION_SHIFT = 55
_acc = attrgetter("acc")


def rank_key(cards: Sequence[Card], ranking: Ranking) -> int:
    """The integer strength of the best five of ``cards``; equal keys exactly when hands tie.

    Input is validated on every call (count, duplicates, deck): the checks ride on the same
    packed sum the evaluation needs. Each card contributes ``mask << 55 | suit counter << 39 |
    rank counter`` to one sum; a sum whose mask part has fewer bits than cards means a duplicate
    (a carry), the suit counters tell whether a flush is possible, and the rank counters index the
    precomputed table of rank multisets.
    """
    try:
        t = _TABLES[ranking]
    except KeyError:
        t = _tables(ranking)
    n = len(cards)
    if 5 <= n <= 7 and t.multi:
        try:
            if n == 5:
                a, b, c, d, e = cards
                acc = _ACC_START + a.acc + b.acc + c.acc + d.acc + e.acc
            else:
                acc = sum(map(_acc, cards), _ACC_START)
        except (AttributeError, TypeError):
            _validate(cards, t)
            raise
        union = acc >> _UNION_SHIFT
        if union.bit_count() != n or union & t.not_deck:
            _validate(cards, t)
        if acc & _ACC_FLUSH:
            if n == 5:
                return t.flush5[union]
            return max(t.multi[acc & _COUNTS], _best_flush(cards, t))
        return t.multi[acc & _COUNTS]
    _validate(cards, t)
    return _key_any(cards, t)


def evaluate(cards: Sequence[Card] | str, ranking: Ranking) -> HandValue:
    """The best five-card hand of 5..17 cards under ``ranking``, with cards and a label."""
    hand = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    key = rank_key(hand, ranking)
    return _decode(key, hand, _tables(ranking))


def _decode(key: int, hand: tuple[Card, ...], t: _Tables) -> HandValue:
    """Rebuild the five cards behind ``key``: per rank, the game's best suit comes first.

    Every category reads each of its ranks once (a pair's rank, then kickers of other ranks...),
    so the cards of one rank are never taken twice.
    """
    ranking = t.ranking
    category = ranking.order[key >> 24]
    r = [(key >> shift) & 15 for shift in (20, 16, 12, 8, 4)]
    order = t.decode_order
    pool = sorted(hand, key=lambda c: order[c.index])
    if category in _SUITED:
        suit = _flush_suit(hand, key, t)
        pool = [c for c in pool if c.suit_index == suit]
    by_rank: dict[int, list[Card]] = {}
    for c in pool:
        if c.rank in by_rank:
            by_rank[c.rank].append(c)
        else:
            by_rank[c.rank] = [c]

    if category in _RUNS:
        ranks = next(s for s in ranking.straights if s[0] == r[0])
        used = [by_rank[x][0] for x in ranks]
        sig = used
    elif category is _QUADS:
        sig = by_rank[r[0]][:4]
        used = sig + by_rank[r[1]][:1]
    elif category is _FULL:
        used = sig = by_rank[r[0]][:3] + by_rank[r[1]][:2]
    elif category is _TRIPS:
        sig = by_rank[r[0]][:3]
        used = sig + by_rank[r[1]][:1] + by_rank[r[2]][:1]
    elif category is _TWO:
        sig = by_rank[r[0]][:2] + by_rank[r[1]][:2]
        used = sig + by_rank[r[2]][:1]
    elif category is _PAIR:
        sig = by_rank[r[0]][:2]
        used = sig + [by_rank[x][0] for x in r[1:4]]
    else:  # flush, ace_king, high card: five distinct ranks
        used = [by_rank[x][0] for x in r]
        sig = used if category is _FLUSH else used[:2] if category is _AK else used[:1]
    return HandValue(key, category, tuple(used), tuple(sig), label_of(category, r), ranking)


def _flush_suit(hand: tuple[Card, ...], key: int, t: _Tables) -> int:
    """The suit index whose cards alone reproduce the key (the best flush suit)."""
    for si in t.suit_pref:
        suited = [c for c in hand if c.suit_index == si]
        if len(suited) >= 5 and _best_flush(suited, t) == key:
            return si
    raise AssertionError("flush key without a matching suit")  # pragma: no cover

"""Big/Small hand game: suggest how to split seven known cards into a Big Hand and a Small Hand.

A box that bought its two extra cards sees all seven and chooses which two form the Small Hand
(seed 004: "choose 2 combinations ("Small Hand" of 2 cards and "Big Hand" of 5 cards)"). There
are C(7, 2) = 21 ways. This module ranks them by expected return in ANTE units (ANTE = 1,
BET = 2; the fee for the extra cards is already paid and so does not enter the comparison)
against the dealer hands still possible given the cards seen: the box's seven, the dealer's
face-up card and any other cards the caller passes (other boxes' cards).

How: Monte Carlo with common random numbers. One seeded sample of dealer deals (four hidden
cards plus the two cards of his Small Hand) is shared by all 21 splits, so differences between
splits are not sampling noise between different samples. The dealer keys come from the integer
fast path (``rank_key``); the 21 splits are then scored in one sweep over the dealer keys in
sorted order with a running histogram of dealer Small Hands, so the cost is one ``rank_key`` per
sampled dealer hand, not 21. Randomness is never hidden: the caller passes the seed (or a
``random.Random``), and the same input always gives the same answer.

Assumptions (docs/rules/big-small-split.md): when the dealer has no game the box takes the
ANTE 1:1 (buying a game is a later decision, valued here at "take the ANTE"); the maximum table
payout is not applied (it is a currency figure, the EV is in ANTEs). Folding is worth -1 ANTE.

EV figures are statistics, not money: this is the one module of the rules package that uses
floating point (means and standard errors). The settlement (``split_settle``) does not import
it; the game module uses it only for the suggested split, whose payload is card codes.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Protocol

from ...cards import ALL_CARDS, Card, format_cards
from ...decks import check_unique_across
from ...errors import CardCountError, RulesError
from ...evaluator import HandValue, SmallHandValue, evaluate, evaluate_small, rank_key
from ...ranking import Category, Ranking
from .split_profile import SPLIT_CLASSIC

#: default number of sampled dealer deals; SE of one split's EV is about 2 / sqrt(samples)
DEFAULT_SAMPLES = 20_000
#: folding after buying the extra cards loses the ANTE (the fee is already spent)
FOLD_EV = -1


class SplitTerms(Protocol):
    """What the suggestion needs from a Big/Small house-rules profile."""

    @property
    def ranking(self) -> Ranking: ...
    @property
    def qualifier(self) -> Category: ...
    @property
    def coefficients(self) -> Mapping[Category, int]: ...
    @property
    def small_tie_to_player(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class SplitOption:
    """One way to split the seven cards, with its expected return (ANTE units) and error."""

    big: tuple[Card, ...]
    small: tuple[Card, ...]
    big_hand: HandValue
    small_hand: SmallHandValue
    ev: float  # statistics, not money (see module docstring)
    se: float  # statistics, not money
    #: sampled outcome counts: no_game, lose, push, ante_paid, bet_paid
    counts: Mapping[str, int]

    def explain(self) -> str:
        """Plain words for the croupier: the two hands and the expected return."""
        return (f"Big Hand {self.big_hand.label} ({format_cards(self.big)}), "
                f"Small Hand {self.small_hand.label} ({format_cards(self.small)}): "
                f"EV {self.ev:+.3f} ± {self.se:.3f} ante")

    def to_dict(self) -> dict[str, Any]:
        return {
            "big": [c.code for c in self.big], "small": [c.code for c in self.small],
            "big_hand": self.big_hand.label, "small_hand": self.small_hand.label,
            "ev": round(self.ev, 4), "se": round(self.se, 4), "counts": dict(self.counts),
            "explanation": self.explain(),
        }


@dataclass(frozen=True, slots=True)
class SplitSuggestion:
    """The 21 splits, best first, and how they were computed."""

    cards: tuple[Card, ...]
    dealer_up: Card
    options: tuple[SplitOption, ...]
    samples: int
    fold_ev: int = FOLD_EV

    @property
    def best(self) -> SplitOption:
        return self.options[0]

    @property
    def fold_is_better(self) -> bool:
        """True when even the best split is expected to lose more than folding (-1 ANTE)."""
        return self.best.ev < self.fold_ev

    def explain(self, top: int = 3) -> list[str]:
        """The best ``top`` splits in plain words, numbered, plus the fold comparison."""
        lines = [f"{n}. {opt.explain()}" for n, opt in enumerate(self.options[:top], start=1)]
        verdict = "fold is better" if self.fold_is_better else "playing is better than folding"
        lines.append(f"Fold: EV {self.fold_ev:+d} ante ({verdict}); "
                     f"{self.samples} sampled dealer deals, shared by all 21 splits")
        return lines

    def to_dict(self, top: int | None = None) -> dict[str, Any]:
        shown = self.options if top is None else self.options[:top]
        return {
            "cards": [c.code for c in self.cards], "dealer_up": self.dealer_up.code,
            "samples": self.samples, "method": "monte_carlo_common_random_numbers",
            "unit": "ante", "fold_ev": self.fold_ev, "fold_is_better": self.fold_is_better,
            "options": [o.to_dict() for o in shown], "explanation": self.explain(),
        }


def small_key(a: Card, b: Card) -> int:
    """The Small Hand key of ``evaluate_small`` (pair > no pair, then high, then second card)."""
    ra, rb = a.rank, b.rank
    if ra == rb:
        return 256 | ra << 4 | ra
    return ra << 4 | rb if ra > rb else rb << 4 | ra


def splits_of(cards: Sequence[Card]) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """All 21 (big, small) splits of seven cards, in a fixed order (by position of the pair)."""
    if len(cards) != 7:
        raise CardCountError(len(cards), "7", "box with its two extra cards")
    out: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    for i, j in combinations(range(7), 2):
        small = (cards[i], cards[j])
        big = tuple(c for k, c in enumerate(cards) if k not in (i, j))
        out.append((big, small))
    return out


def _unknown_cards(seen: Iterable[Card]) -> list[Card]:
    mask = 0
    for c in seen:
        mask |= c.mask
    return [c for c in ALL_CARDS if not c.mask & mask]


def suggest_split(
    cards: Sequence[Card],
    dealer_up: Card,
    *,
    seed: int | random.Random,
    profile: SplitTerms | None = None,
    known: Sequence[Card] = (),
    samples: int = DEFAULT_SAMPLES,
) -> SplitSuggestion:
    """Rank the 21 splits of ``cards`` (seven) by EV against the dealer's possible deals.

    ``seed`` is an int or a ``random.Random`` supplied by the caller (no hidden randomness);
    ``known`` are other cards already seen on the table (they cannot be in the dealer's hand).
    """
    if profile is None:
        profile = SPLIT_CLASSIC
    cards = tuple(cards)
    if len(cards) != 7:
        raise CardCountError(len(cards), "7", "box with its two extra cards").at("cards")
    if samples < 2:
        raise RulesError("at least two samples are needed for a standard error",
                         field="samples", value=samples)
    check_unique_across({"box": cards, "dealer up card": (dealer_up,), "known cards": known})
    profile.ranking.deck.check(cards)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    qualified, no_game = _sample_dealer(dealer_up, _unknown_cards((*cards, dealer_up, *known)),
                                        rng, samples, profile)
    return _suggestion(cards, dealer_up, qualified, no_game, samples, profile)


def score_splits(
    cards: Sequence[Card],
    deals: Sequence[tuple[Sequence[Card], Sequence[Card]]],
    *,
    profile: SplitTerms | None = None,
) -> SplitSuggestion:
    """Rank the 21 splits against an explicit list of equally likely dealer deals.

    Each deal is (dealer's five cards, dealer's two Small Hand cards); the first dealer card is
    taken as the face-up card. Useful for exact answers on small card sets and for checking the
    sampler: ``suggest_split`` is this function over a seeded sample.
    """
    if profile is None:
        profile = SPLIT_CLASSIC
    cards = tuple(cards)
    if len(cards) != 7:
        raise CardCountError(len(cards), "7", "box with its two extra cards").at("cards")
    if len(deals) < 2:
        raise RulesError("at least two deals are needed for a standard error",
                         field="deals", value=len(deals))
    threshold = profile.ranking.strength(profile.qualifier) << 24
    qualified: list[tuple[int, int]] = []
    no_game = 0
    for n, (hand, small) in enumerate(deals):
        check_unique_across({"box": cards, f"deal {n + 1}": (*hand, *small)})
        k = rank_key(tuple(hand), profile.ranking)
        if k < threshold:
            no_game += 1
        else:
            qualified.append((k, evaluate_small(small).key))
    qualified.sort()
    return _suggestion(cards, deals[0][0][0], qualified, no_game, len(deals), profile)


def _suggestion(cards: tuple[Card, ...], dealer_up: Card, qualified: list[tuple[int, int]],
                no_game: int, samples: int, profile: SplitTerms) -> SplitSuggestion:
    options = _score_splits(cards, qualified, no_game, samples, profile)
    options.sort(key=lambda o: (-o.ev, -o.big_hand.key, -o.small_hand.key))
    return SplitSuggestion(cards, dealer_up, tuple(options), samples)


def _sample_dealer(up: Card, unknown: list[Card], rng: random.Random, samples: int,
                   profile: SplitTerms) -> tuple[list[tuple[int, int]], int]:
    """Sampled dealer deals: (dealer key, dealer Small Hand key) of each qualified deal, sorted,
    and the number of deals where the dealer has no game."""
    ranking = profile.ranking
    threshold = ranking.strength(profile.qualifier) << 24
    if len(unknown) < 6:
        raise RulesError("too few unseen cards left to deal the dealer's hand",
                         field="known", value=len(unknown))
    sample, key = rng.sample, rank_key
    qualified: list[tuple[int, int]] = []
    append = qualified.append
    no_game = 0
    for _ in range(samples):
        a, b, c, d, e, f = sample(unknown, 6)
        k = key((up, a, b, c, d), ranking)
        if k < threshold:
            no_game += 1
        else:
            append((k, small_key(e, f)))
    qualified.sort()
    return qualified, no_game


#: every possible Small Hand key, in increasing order (78 high-card hands, then 13 pairs)
_SMALL_KEYS = sorted({small_key(a, b) for a, b in combinations(ALL_CARDS, 2)})
_SMALL_INDEX = {k: i for i, k in enumerate(_SMALL_KEYS)}


def _score_splits(cards: tuple[Card, ...], qualified: list[tuple[int, int]], no_game: int,
                  samples: int, profile: SplitTerms) -> list[SplitOption]:
    """Score every split in one sweep over the qualified dealer deals in key order.

    For a Big Hand with key ``b``: deals with a higher key lose 3 (ANTE + BET), equal keys push,
    lower keys win, at the coefficient on the BET (x2) when the box's Small Hand is at least the
    dealer's (ties to the player, per the profile) or on the ANTE otherwise. A running histogram
    of the dealer Small Hands of all deals below ``b`` answers "how many are <= mine" at once.
    """
    ranking, pay = profile.ranking, profile.coefficients
    dealer_keys = [k for k, _ in qualified]
    rows = []
    for big, small in splits_of(cards):
        bk = rank_key(big, ranking)
        rows.append((bk, big, small))
    rows.sort(key=lambda r: r[0])
    hist = [0] * len(_SMALL_KEYS)
    swept = 0
    options = []
    tie_shift = 0 if profile.small_tie_to_player else -1
    for bk, big, small in rows:
        below = bisect_left(dealer_keys, bk)
        while swept < below:
            hist[_SMALL_INDEX[qualified[swept][1]]] += 1
            swept += 1
        upto = bisect_right(dealer_keys, bk)
        small_hand = evaluate_small(small)
        limit = _SMALL_INDEX[small_hand.key] + 1 + tie_shift
        bet_paid = sum(hist[:limit])
        ante_paid = below - bet_paid
        push, lose = upto - below, len(dealer_keys) - upto
        big_hand = evaluate(big, ranking)
        coef = pay[big_hand.category] if below else 0  # profile validation: every category
        # at or above the qualifier has a coefficient, and only those can beat a qualified dealer
        total = no_game - 3 * lose + coef * (2 * bet_paid + ante_paid)
        squares = no_game + 9 * lose + coef * coef * (4 * bet_paid + ante_paid)
        mean = total / samples
        var = max(squares / samples - mean * mean, 0) * samples / (samples - 1)
        counts = {"no_game": no_game, "lose": lose, "push": push, "ante_paid": ante_paid,
                  "bet_paid": bet_paid}
        options.append(SplitOption(big, small, big_hand, small_hand, mean,
                                   math.sqrt(var / samples), counts))
    return options

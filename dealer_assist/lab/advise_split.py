"""The decision advisor for Big/Small: fold, bet, free or bought extra cards, the split, and
buying the dealer's game.

Every position is valued exactly against the dealer hands that hold the up card and avoid the
cards the box has seen (:meth:`.split_value.SplitValuer.exact`); a Small Hand's chance counts
the dealer's possible Small Hands among the cards the box has not seen. Free extra cards are a
random Small Hand: it wins or ties with ``(1 + P(tie)) / 2`` by symmetry. Bought extra cards:
every one of the 1,035 pairs is enumerated; the model (:mod:`.split_best`) picks each seven
cards' ``TOP`` most promising splits, which are valued exactly (the best of them is taken).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..rules.errors import IllegalActionError
from ..rules.games.stud import SplitProfile
from .batch import combination_array, rank_keys
from .buygame import buy_game
from .options import Option, card_indices, dealer_five, one_card
from .split_best import grid_values, small_chances, valuer
from .split_mc import SPLITS
from .split_value import SplitValuer, interpolate, small_chance, small_keys
from .strategy_store import load
from .suits import hand_index
from .version import fingerprint

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
TOP = 3


def _free_chance(unseen: I64) -> float:
    """P(a random Small Hand of the unseen cards wins or ties against another): by symmetry
    one half plus half the chance of a tie, counted over ordered pairs of distinct two-card
    hands (hands sharing a card are counted too: a simplification below 0.1 %)."""
    pairs = unseen[combination_array(len(unseen), 2).astype(np.int64)]
    counts = np.bincount(small_keys(pairs))
    same = float(np.sum(counts * (counts - 1)))
    total = float(len(pairs) * (len(pairs) - 1))
    return 0.5 + 0.5 * same / total


def _position_values(v: SplitValuer, big: I64, small: I64 | None, seen: I64, up: int,
                     ) -> F64:
    """Exact values of rows of (Big Hand, Small Hand or none) for a box that saw ``seen``."""
    if small is None:
        p = np.zeros(len(big))
    else:
        p = small_chance(small, np.hstack([seen, np.full((len(seen), 1), up)]),
                         v.profile.small_tie_to_player)
    return v.exact(np.sort(big, axis=1), p, seen, np.full(len(big), up))


def options(profile: SplitProfile, stage: str, hand: I64, up: Any, dealer: Any, dead: I64,
            ante: int, small: Any = None) -> tuple[list[Option], list[str]]:
    v = valuer(profile)
    if stage == "no_game":
        return _no_game(profile, v, hand, small, dealer, dead), []
    u = one_card(up)
    if stage == "split":
        return _split(v, hand, u, dead), []
    return _deal(profile, v, hand, u, dead), []


def _deal(profile: SplitProfile, v: SplitValuer, hand: I64, up: int, dead: I64,
          ) -> list[Option]:
    if len(hand) != 5:
        raise IllegalActionError("a dealt hand has five cards", field="cards", value=len(hand))
    base = np.sort(np.concatenate([hand, dead]))
    unseen = np.setdiff1d(np.arange(52), np.append(base, up))
    bet = float(_position_values(v, hand[None, :], None, base[None, :], up)[0])
    out = [Option("fold", (), -1.0, 0.0, "exact"), Option("bet", (), bet, 0.0, "exact")]
    if profile.free_extra_allowed:
        p = np.array([_free_chance(unseen)])
        free = float(v.exact(hand[None, :], p, base[None, :], [up])[0])
        out.append(Option("free_extra", (), free, 0.0, "exact"))
    if profile.bought_extra_allowed:
        pairs = unseen[combination_array(len(unseen), 2).astype(np.int64)]
        seven = np.sort(np.hstack([np.repeat(hand[None, :], len(pairs), axis=0), pairs]),
                        axis=1)
        seen = np.sort(np.hstack([np.repeat(base[None, :], len(pairs), axis=0), pairs]),
                       axis=1)
        best = _best_of_splits(v, seven, seen, up)
        value = float(np.maximum(-1.0, best).mean()) - float(profile.extra_fee)
        out.append(Option("bought_extra", (), value, 0.0, "exact"))
    return sorted(out, key=lambda o: -o.ev)


def _best_of_splits(v: SplitValuer, seven: I64, seen: I64, up: int) -> F64:
    """Per row of seven cards: the exact value of the best of the model's ``TOP`` splits."""
    order = np.argsort(-_model_split_values(_grid(v), seven), axis=1)[:, :TOP]
    picks = [order[:, j] for j in range(order.shape[1])]
    best = np.full(len(seven), -np.inf)
    for pick in picks:
        chosen = np.take_along_axis(seven, SPLITS[pick], axis=1)
        values = _position_values(v, chosen[:, 2:], chosen[:, :2], seen, up)
        best = np.maximum(best, values)
    return best


def _model_split_values(grid: F64, seven: I64) -> F64:
    """(n, 21) the model's value of every split of sorted seven-card rows."""
    n = len(seven)
    arranged = seven[:, SPLITS]
    cls = hand_index().classes(arranged[:, :, 2:].reshape(n * 21, 5))
    p = small_chances()[small_keys(arranged[:, :, :2].reshape(n * 21, 2))]
    return interpolate(grid[cls], p).reshape(n, 21)


_GRIDS: dict[str, F64] = {}


def _grid(v: SplitValuer) -> F64:
    """The model's grid of every hand class (stored with the strategy when computed)."""
    key = fingerprint(v.profile)
    if key not in _GRIDS:
        stored = load(v.profile)
        _GRIDS[key] = stored["grid"].astype(np.float64) if stored is not None \
            and "grid" in stored else grid_values(v.profile, 0, len(hand_index()))
    return _GRIDS[key]


def _split(v: SplitValuer, hand: I64, up: int, dead: I64) -> list[Option]:
    if len(hand) != 7:
        raise IllegalActionError("a split needs the box's seven cards", field="cards",
                                 value=len(hand))
    seen = np.sort(np.concatenate([hand, dead]))
    chosen = hand[SPLITS]
    values = _position_values(v, chosen[:, 2:], chosen[:, :2],
                              np.repeat(seen[None, :], len(SPLITS), axis=0), up)
    out = [Option("fold", (), -1.0 - float(v.profile.extra_fee), 0.0, "exact")]
    out += [Option("split", tuple(int(c) for c in row[:2]),
                   float(value) - float(v.profile.extra_fee), 0.0, "exact")
            for row, value in zip(chosen, values, strict=True)]
    return sorted(out, key=lambda o: -o.ev)


def _no_game(profile: SplitProfile, v: SplitValuer, big: I64, small: Any, dealer: Any,
             dead: I64) -> list[Option]:
    if len(big) != 5:
        raise IllegalActionError("a dealt hand has five cards", field="cards", value=len(big))
    d = dealer_five(dealer)
    s = None if small is None else card_indices(small, "small")
    seen = np.concatenate([big, d, dead] + ([s] if s is not None else []))
    deck = np.setdiff1d(np.arange(52), seen)
    take = float(profile.no_game_ante_multiplier)
    out = [Option("take_ante", (), take, 0.0, "exact", 0.0)]
    if profile.buy_game_allowed:
        p = 0.0 if s is None else float(small_chance(s[None, :], seen[None, :],
                                                     profile.small_tie_to_player)[0])
        k = rank_keys(np.sort(big)[None, :], profile.ranking)[0]
        cls = np.searchsorted(v.hc.class_keys, k)
        win = float(v.win_amount(np.array([cls]), np.array([p]))[0])
        _, keys, ok = buy_game(np.repeat(d[None, :], len(deck), axis=0),
                               np.stack([deck, deck], axis=1), profile.ranking,
                               profile.qualifier, free_second_replacement=False)
        lose = -float(1 + profile.bet_multiple)
        result = np.where(ok, np.where(k > keys, win, np.where(k < keys, lose, 0.0)), 0.0)
        out.append(Option("buy_game", (), float(result.mean()) - profile.buy_game_fee, 0.0,
                          "exact", float(np.var(result))))
    return sorted(out, key=lambda o: -o.ev)

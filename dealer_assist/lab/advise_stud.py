"""The decision advisor for Caribbean stud and Oasis: fold, raise, and every replacement.

Every final hand is valued exactly against the dealer hands that hold the up card and avoid
every card the box has seen (:class:`.stud_value.StudValuer`). Raising as dealt and replacing
one or two cards are exact (all draws: at most 1,035 per choice); replacing three to five cards
(up to 1.37 million draws) is estimated from ``SAMPLES`` draws, with its standard error. A
replacement is followed by the better of raise and fold, or by the raise when the profile says
that replacing that many cards forces it.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import CaribbeanProfile
from .batch import combination_array
from .cache import per_version
from .options import Option
from .stud_value import StudValuer

I64 = npt.NDArray[np.int64]
SAMPLES = 400
EXACT_UP_TO = 2
_VALUERS: dict[tuple[str, int, int], StudValuer] = {}


def _valuer(profile: CaribbeanProfile, ante: int, cap: int) -> StudValuer:
    return per_version(_VALUERS, StudValuer, profile, ante, cap)


def deal_options(profile: CaribbeanProfile, hand: I64, up: int, dead: I64, ante: int,
                 cap: int | None = None, seed: int = 1) -> tuple[list[Option], list[str]]:
    v = _valuer(profile, ante, profile.max_payout if cap is None else cap)
    base = np.sort(np.concatenate([hand, dead]))
    unseen = np.setdiff1d(np.arange(52), np.append(base, up))
    raise_value = float(v.values(hand[None, :], [up], base[None, :])[0])
    out = [Option("fold", (), -1.0, 0.0, "exact"), Option("raise", (), raise_value, 0.0,
                                                            "exact")]
    notes: list[str] = []
    rng = np.random.default_rng(seed)
    for n, fee in sorted(profile.replace_fees.items()):
        forced = bool(profile.forced_raise_replacing) and n >= profile.forced_raise_replacing
        draws = combination_array(len(unseen), n).astype(np.int64)
        sampled = n > EXACT_UP_TO
        if sampled:
            draws = draws[rng.choice(len(draws), size=SAMPLES, replace=False)]
            notes.append(f"replacing {n} cards: {SAMPLES} sampled draws per choice")
        x = unseen[draws]
        seen = np.sort(np.hstack([np.repeat(base[None, :], len(x), axis=0), x]), axis=1)
        for discard in combinations(range(5), n):
            kept = np.delete(hand, list(discard))
            finals = np.sort(np.hstack([np.repeat(kept[None, :], len(x), axis=0), x]), axis=1)
            values = v.values(finals, np.full(len(x), up), seen)
            result = values if forced else np.maximum(-1.0, values)
            se = float(result.std(ddof=1) / np.sqrt(len(result))) if sampled else 0.0
            out.append(Option("replace", tuple(int(c) for c in hand[list(discard)]),
                              float(result.mean()) - fee, se,
                              "monte-carlo" if sampled else "exact"))
    return sorted(out, key=lambda o: -o.ev), notes

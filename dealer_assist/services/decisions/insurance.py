"""Russian poker's insurance judged: the recorded stake against the best stake.

RULES.md: insurance wins 1:1 when the dealer has no game at the first reveal, is returned when
the dealer's hand is equal to or higher than the box's, and loses otherwise. Per unit staked
its result is +m with P(no game), -1 with P(a game below the box), 0 otherwise, counted
exactly over the dealer hands the box's cards leave. The value is linear in the stake, so the
best stake is the largest allowed (the presumptive payout) when the unit value is positive,
else none.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np

from ...lab.russian_best import valuer
from ...rules.games.russian import RussianProfile
from .judged import Judged, indices, names_player, player_of, seen_cards


def judge_insurance(profile: RussianProfile, state: Any, box: Any,
                    net: dict[str, Any] | None) -> Judged | None:
    v = valuer(profile)
    final = np.array([sorted(indices(box.hand_cards))])
    k, totals = v.classes_and_totals(final)
    if v.hc.strength[k[0]] < v.insure_from or not totals[0]:
        return None  # not offered: the box holds less than the insurance minimum
    seen = np.array([seen_cards(box)])
    below = v.hc.disjoint_below(seen, np.stack([np.array([v.q0]), k], axis=1))[0]
    hands = float(comb(52 - seen.shape[1], 5))
    no_game, win = float(below[0]), float(below[1] - below[0])
    m = float(profile.insurance_multiplier)
    unit = (no_game * m - win) / hands
    spread = (no_game * m * m + win) / hands - unit * unit
    most = min(profile.bet_multiple * box.ante * int(totals[0]), state.table.max_payout)
    stake = int(box.insurance)
    best_stake = most if unit > 0 else 0
    realized = None
    if net is not None:
        realized = int(net.get("wagers", {}).get("insurance", {}).get("net", 0)) / box.ante
    chosen = ("insure", (stake,)) if stake else ("no_insurance", ())
    best = ("insure", (best_stake,)) if best_stake else ("no_insurance", ())
    return Judged(box.box, player_of(box), "insurance", chosen, best,
                  stake / box.ante * unit, best_stake / box.ante * unit, box.ante, "exact",
                  realized, (stake / box.ante) ** 2 * spread, names_player(box))

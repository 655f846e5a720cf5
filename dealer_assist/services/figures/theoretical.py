"""Theoretical win against actual win for a shift report (the lab's stored house edge).

Theoretical win = house edge (per ANTE, under the strategy the table assumes) x the
ANTEs wagered on the shift's settled boxes. The house edge covers the whole hand (ANTE, raise and
fees together: the raise is the player's choice, so it has no edge of its own), so the game allows
no split per wager type and the report gives one line. Side bets the lab's strategies never place
(insurance, the bonus) are left out of that line and listed apart with their actual win. The
95 % range is the theoretical win +- 1.96 x the standard deviation of the shift's own box
results x sqrt(boxes); actual win outside it is flagged for an explanation (regulators ask for
one). Figures are whole currency units (expectations, rounded), percentages three-decimal
strings: the report's JSON holds no floats. The caller hands over the profile's stored figures
(``house_edge.stored``: the database): this module reads nothing itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

#: wagers the lab's strategies never place (Russian poker's insurance and bonus side bet): their
#: results are listed apart and left out of the comparison, which would otherwise set the side
#: bets' swings against an edge that does not include them
SIDE_WAGERS = ("insurance", "bonus")


def strategy_named(figures: Mapping[str, Any], strategy: str | None) -> str | None:
    """The name under which ``figures`` (a profile's stored figures) keep the players' strategy
    a table assumes (``basic`` or ``best``: None: the figures' default), or None when
    it was not computed. The Caribbean exact count names its best strategy ``optimal`` and its
    basic one ``ak-or-better``."""
    names = figures["strategies"]
    if strategy is None:
        return str(figures["default_strategy"])
    aliases = {"best": ("best", "optimal"), "basic": ("basic", "ak-or-better")}
    return next((n for n in aliases.get(strategy, (strategy,)) if n in names), None)


def command_for(profile: str, strategy: str | None) -> str:
    """The exact command that computes a profile's missing figure for the players' strategy a
    table assumes ("a missing figure must say exactly what computes it"): the best
    strategy's table and figures (kept with the code), else the basic strategy's house edge
    (stored in the database every app process reads)."""
    if strategy == "best":
        return f"flask --app dealer_assist lab best-strategy {profile}"
    return f"flask --app dealer_assist lab house-edge {profile}"


def edge_of(figures: Mapping[str, Any] | None,
            strategy: str | None = None) -> tuple[float, str] | None:
    """(house edge per ANTE, strategy) in a profile's stored figures (``house_edge.stored``)
    under the players' strategy the table assumes (:func:`strategy_named`), if computed. What
    a cached figure depends on besides the settlements (the floor page keys its cache by it,
    )."""
    if figures is None:
        return None
    name = strategy_named(figures, strategy)
    if name is None:
        return None
    return float(figures["strategies"][name]["house_edge"]), strategy or name


def section(rows: list[tuple[Any, dict[str, Any], int]], profile: str,
            figures: Mapping[str, Any] | None = None,
            strategy: str | None = None) -> dict[str, Any]:
    """The report's "theoretical" section for the settled rounds ``rows``; ``figures`` are the
    profile's stored figures for its current rules (``house_edge.stored``; None: the section
    is unavailable), ``strategy`` the players' strategy the table assumes (the shift report and
    the floor pass the table's; None: the figures' default)."""
    found = edge_of(figures, strategy)
    if found is None:
        return {"available": False, "profile": profile, "strategy": strategy or "basic",
                "command": command_for(profile, strategy)}
    edge, strategy = found
    antes = 0
    results: list[int] = []
    side = {name: {"stakes": 0, "actual_win": 0} for name in SIDE_WAGERS}
    for _rnd, s, _v in rows:
        for box in s["boxes"]:
            wagers = box["wagers"]
            antes += int(wagers.get("ante", {}).get("stake", 0))
            results.append(-sum(int(w["net"]) for name, w in wagers.items()
                                if name not in SIDE_WAGERS))
            for name in SIDE_WAGERS:
                if name in wagers:
                    side[name]["stakes"] += int(wagers[name]["stake"])
                    side[name]["actual_win"] -= int(wagers[name]["net"])
    actual = sum(results)
    theoretical = round(edge * antes)
    n = len(results)
    out: dict[str, Any] = {
        "available": True, "profile": profile, "strategy": strategy,
        "house_edge_percent": f"{edge * 100:.3f}", "antes_wagered": antes, "boxes": n,
        "theoretical_win": theoretical, "actual_win": actual,
        "difference": actual - theoretical, "range": None, "outside": False,
        "side_wagers": {k: v for k, v in side.items() if v["stakes"]}}
    if n >= 2:
        mean = actual / n
        var = sum((x - mean) ** 2 for x in results) / (n - 1)
        half = round(1.96 * math.sqrt(var * n))
        out["range"] = {"low": theoretical - half, "high": theoretical + half}
        out["outside"] = not theoretical - half <= actual <= theoretical + half
    return out

"""Request builders for the Caribbean stud, Oasis and Big/Small rules tests (plain data, no app)."""

from __future__ import annotations

from typing import Any

from dealer_assist.rules.games import GAMES
from dealer_assist.rules.settlement import Settlement


def box(cards: str, *, ante: int = 100, decision: str = "bet", name: str = "1",
        **extra: Any) -> dict[str, Any]:
    """One box of a request: five cards as a space-separated string."""
    out: dict[str, Any] = {"box": name, "seat": "A", "ante": ante, "cards": cards.split(),
                           "decision": decision}
    out.update(extra)
    return out


def body(dealer: str, *boxes: dict[str, Any], profile: str | None = None,
         max_payout: int = 50000, draw: str = "", small: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {
        "table": {"min_ante": 10, "max_ante": 1000, "max_payout": max_payout},
        "dealer": {"cards": dealer.split()},
        "boxes": list(boxes),
    }
    if profile:
        out["profile"] = profile
    if draw:
        out["dealer"]["draw"] = draw.split()
    if small:
        out["dealer"]["small"] = small.split()
    return out


def settle(game: str, request: dict[str, Any]) -> Settlement:
    return GAMES[game].settle_request(request)


def nets(settlement: Settlement, index: int = 0) -> dict[str, int]:
    """Wager name -> net of one box (ANTE, BET and the fees actually paid), plus ``"total"``."""
    b = settlement.boxes[index]
    out = {name: w.net for name, w in b.wagers.items() if name in ("ante", "bet") or w.stake}
    out["total"] = b.net
    return out

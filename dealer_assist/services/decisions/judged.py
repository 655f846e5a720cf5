"""One judged decision and what every judge of a box reads (``judge``, ``insurance``): the box's
cards as indices, who played it, every card it saw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: two options whose values differ by less than this (ANTEs) are the same decision
TIE = 1e-6


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision of one box, valued in ANTEs (``ev_*``) for a box of ANTE ``ante``."""

    box: str
    seat: str
    stage: str
    chosen: tuple[str, tuple[int, ...]]
    best: tuple[str, tuple[int, ...]]
    ev_chosen: float
    ev_best: float
    ante: int
    method: str
    #: what the chosen option returned (ANTEs) and its variance given what the player knew;
    #: None where the record does not separate the decision's own result
    realized: float | None = None
    variance: float | None = None
    #: ``seat`` names a player (his card or seat letter); False: the box stands for its own
    #: (the report called box numbers players)
    named: bool = True

    @property
    def ev_lost(self) -> float:
        return max(0.0, self.ev_best - self.ev_chosen)

    @property
    def ev_lost_chips(self) -> float:
        return self.ev_lost * self.ante

    @property
    def differs(self) -> bool:
        return self.chosen != self.best and self.ev_lost > TIE

    def to_dict(self) -> dict[str, Any]:
        return {"box": self.box, "seat": self.seat, "stage": self.stage,
                "chosen": {"action": self.chosen[0], "cards": list(self.chosen[1])},
                "best": {"action": self.best[0], "cards": list(self.best[1])},
                "ev_chosen": round(self.ev_chosen, 5), "ev_best": round(self.ev_best, 5),
                "ev_lost_chips": round(self.ev_lost_chips, 2), "differs": self.differs,
                "method": self.method, "realized": self.realized}


def indices(cards: Any) -> list[int]:
    """Card indices of engine cards."""
    return [c.index for c in cards]


def player_of(box: Any) -> str:
    """Who played the box, as the report names him: his card number, else the seat
    letter the croupier gave him, else the box's seat (rounds that name no player)."""
    player = getattr(box, "player", None)
    if player is not None:
        return str(player.card or player.seat)
    return str(box.seat)


def names_player(box: Any) -> bool:
    """Whether :func:`player_of` names a player: a player recorded on the box, or a seat
    letter other than the box's own label (``place`` defaults the seat to the box)."""
    return getattr(box, "player", None) is not None or str(box.seat) != str(box.box)


def seen_cards(box: Any) -> list[int]:
    """Every card the box saw: dealt, discarded, drawn and its final hand."""
    cards = set(indices(box.cards)) | set(indices(box.hand_cards))
    if box.improvement is not None:
        cards |= set(indices(box.improvement.discard)) | set(indices(box.improvement.cards))
    return sorted(cards)

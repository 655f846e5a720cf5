"""Ratings as the pages, the API, the CSV export and the shift report ask for them.

* :func:`player_ratings` -- one player: every gaming day (or one) with its slips, and his total;
* :func:`day_slips` -- every rating slip of a gaming day (the CSV export for a casino's
  player-tracking system);
* :func:`top_players` -- the top rated players of a shift (the shift report), by theoretical
  win, then by amount wagered.

The number of a player's decisions that differ from the lab's strategy would come from the
judging service through :func:`decision_judge`, the one hook for it (not wired: see there); his
buy-ins at the tables from the records (``played.buy_ins``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlmodel import Session

from . import cards, played
from .played import EdgeBook
from .ratings import DayRating, Judge, Rating, SessionRating, combine, day_ratings

TOP = 10


def decision_judge(session: Session) -> Judge | None:
    """The judging service, the one hook for a rating's "decisions that differ".

    Not wired: ``services.decisions.player_judge(session)`` fits the hook, but it runs the
    lab's advisor on every round of the player each time a rating is read (no judgement is
    stored), seconds per Caribbean, Oasis or Big/Small round: with it, the 200-shift ratings
    test did not finish in 15 minutes. Until judgements are stored with the round, the figure
    is not known (None), never a made-up count; the round's page, the dispute review and the
    shift report judge their own rounds."""
    del session
    return None


@dataclass(frozen=True, slots=True)
class PlayerRatings:
    player: cards.CardView
    days: list[DayRating]
    total: Rating | None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"card": self.player.card}
        if self.player.name is not None:
            out["name"] = self.player.name
        out["total"] = self.total.to_dict() if self.total else None
        out["days"] = [d.to_dict() for d in self.days]
        return out


def player_ratings(session: Session, card: str, *, reader_role: str | None, edges: EdgeBook,
                   day: date | None = None) -> PlayerRatings:
    """One player's ratings (``NotFound`` for an unknown card): per gaming day (only ``day``
    when given) with its table sessions, and over those days."""
    player = cards.get(session, card, reader_role)
    rounds = played.played_rounds(session, edges, card=player.card, day=day).get(player.card, [])
    visits = played.visits(session, [player.card]).get(player.card, [])
    judge = decision_judge(session)
    bought = played.buy_ins(session, [player.card])[player.card]
    days = day_ratings(rounds, visits, judge=judge, buy_ins=bought)
    slips = [s for d in days for s in d.sessions]
    total = combine(slips, rounds, judge=judge, buy_ins=bought) if rounds else None
    return PlayerRatings(player, days, total)


def day_slips(session: Session, day: date, edges: EdgeBook) -> list[tuple[str, SessionRating]]:
    """Every rating slip of the gaming ``day``: (card, slip), by start time then card."""
    by_card = played.played_rounds(session, edges, day=day)
    visits = played.visits(session, by_card)
    judge = decision_judge(session)
    bought = played.buy_ins(session, by_card)
    out = [(card, slip) for card, rounds in by_card.items()
           for d in day_ratings(rounds, visits.get(card, []), judge=judge,
                                buy_ins=bought.get(card, []))
           for slip in d.sessions]
    return sorted(out, key=lambda cs: (cs[1].rating.start or datetime.min.replace(tzinfo=UTC),
                                       cs[0]))


def top_players(session: Session, shift_id: int, edges: EdgeBook,
                limit: int = TOP) -> list[dict[str, Any]]:
    """The shift's rated players, the highest theoretical win first (players whose rounds have
    no lab figure after them), then by amount wagered; card numbers only (no names)."""
    by_card = played.played_rounds(session, edges, shift_id=shift_id)
    visits = played.visits(session, by_card)
    judge = decision_judge(session)
    bought = played.buy_ins(session, by_card)
    rated = []
    for card, rounds in by_card.items():
        mine = bought.get(card, [])
        slips = [s for d in day_ratings(rounds, visits.get(card, []), judge=judge, buy_ins=mine)
                 for s in d.sessions]
        rated.append((card, combine(slips, rounds, judge=judge, buy_ins=mine)))
    rated.sort(key=lambda cr: (cr[1].theoretical is None, -(cr[1].theoretical or 0),
                               -cr[1].wagered, cr[0]))
    return [{"card": card, **rating.to_dict()} for card, rating in rated[:limit]]

"""Player cards: a rated player is a card number and, optionally, a name.

* :func:`sit_down` -- the table screen's one step when a rated player sits down: his card is
  found or created (a pit or management role may give his name) and his visit at the table
  starts (a visit still open at another table ends there: a player sits at one table);
* :func:`leave` -- his leave, tapped: the visit ends (the rating's time played then runs from
  sit-down to leave);
* :func:`seated` -- the rated players sitting at a table now (the bets form offers their cards);
* a card a ``place`` names must be a registered one: the record path checks it
  (``services.rounds.player_cards``);
* :func:`view` -- a card as a reader may see it: only pit and management roles see the name
  (:data:`NAME_READERS`); the croupier sees the card number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from ...models import PlayerCard, PlayerVisit, Role, User, utcnow
from ...models.players import NAME_MAX
from ...rules.games.stud.players import CARD, normal_card
from ..errors import NotFound, PermissionDenied, ValidationError
from ..people import duties
from ..tables import tables

#: who sees a player's name (pit and management); everyone else sees his card number
NAME_READERS = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value, Role.ADMIN.value})


@dataclass(frozen=True, slots=True)
class CardView:
    """A player card as its reader may see it (``name`` None: none, or not for this reader)."""

    id: int
    card: str
    name: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SeatedView:
    """A rated player sitting at a table now (``name`` only for a reader who may see it)."""

    card: str
    sat_at: datetime
    name: str | None = None


def may_see_names(role: str | None) -> bool:
    return role in NAME_READERS


def view(row: PlayerCard, reader_role: str | None) -> CardView:
    assert row.id is not None
    return CardView(row.id, row.card, row.name if may_see_names(reader_role) else None,
                    row.created_at)


def card_number(raw: str, field: str = "card") -> str:
    """A card number as typed, checked and kept upper case (the engine's rule)."""
    card = normal_card(raw or "")
    if not CARD.fullmatch(card):
        raise ValidationError("A player card number is 1 to 20 letters, digits or dashes.",
                              field=field)
    return card


def find(session: Session, card: str) -> PlayerCard | None:
    return session.exec(select(PlayerCard).where(PlayerCard.card == normal_card(card))).first()


def get(session: Session, card: str, reader_role: str | None) -> CardView:
    row = find(session, card)
    if row is None:
        raise NotFound("No player card %(card)s.", card=normal_card(card)[:20])
    return view(row, reader_role)


def sit_down(session: Session, *, table_id: int, card: str, actor_id: int,
             name: str | None = None, at: datetime | None = None) -> CardView:
    """A rated player sits down at a table: his card found or created, his visit started."""
    actor = session.get(User, actor_id)
    assert actor is not None
    tables.get_table(session, table_id)  # NotFound
    duties.check_at_table(session, user=actor, table_id=table_id)
    number = card_number(card)
    name = (name or "").strip() or None
    if name is not None and not may_see_names(actor.role):
        raise PermissionDenied("Only the pit enters a player's name.", field="name")
    if name is not None and len(name) > NAME_MAX:
        raise ValidationError("A name is at most %(most)s characters.", most=NAME_MAX,
                              field="name")
    row = find(session, number)
    if row is None:
        row = PlayerCard(card=number, name=name, created_by=actor_id)
        session.add(row)
        session.flush()
    elif name is not None and row.name is None:
        row.name = name
    assert row.id is not None
    now = at or utcnow()
    for visit in _open_visits(session, row.id):
        if visit.table_id == table_id:
            return view(row, actor.role)  # already seated here: a double tap
        visit.left_at, visit.left_by = max(now, visit.sat_at), actor_id
    session.add(PlayerVisit(player_id=row.id, table_id=table_id, sat_at=now, sat_by=actor_id))
    session.flush()
    return view(row, actor.role)


def leave(session: Session, *, table_id: int, card: str, actor_id: int,
          at: datetime | None = None) -> None:
    """His leave is tapped: his visit at the table ends."""
    actor = session.get(User, actor_id)
    assert actor is not None
    duties.check_at_table(session, user=actor, table_id=table_id)
    row = find(session, card)
    visits = [v for v in _open_visits(session, row.id) if v.table_id == table_id] \
        if row is not None and row.id is not None else []
    if not visits:
        raise NotFound("Player card %(card)s is not seated at this table.",
                       card=normal_card(card)[:20])
    now = at or utcnow()
    for visit in visits:
        visit.left_at, visit.left_by = max(now, visit.sat_at), actor_id
    session.flush()


def _open_visits(session: Session, player_id: int) -> Sequence[PlayerVisit]:
    return session.exec(select(PlayerVisit).where(PlayerVisit.player_id == player_id,
                                                  col(PlayerVisit.left_at).is_(None))).all()


def seated(session: Session, table_id: int, reader_role: str | None = None) -> list[SeatedView]:
    """The rated players sitting at the table now, in the order they sat down; their names
    only for a ``reader_role`` that may see them."""
    names = may_see_names(reader_role)
    query = (select(PlayerCard.card, PlayerVisit.sat_at, PlayerCard.name)
             .join(PlayerVisit, col(PlayerVisit.player_id) == PlayerCard.id)
             .where(PlayerVisit.table_id == table_id, col(PlayerVisit.left_at).is_(None))
             .order_by(col(PlayerVisit.sat_at), col(PlayerVisit.id)))
    return [SeatedView(card, sat_at, name if names else None)
            for card, sat_at, name in session.exec(query).all()]


def recent(session: Session, reader_role: str | None, limit: int = 100) -> list[CardView]:
    """The newest player cards first (the players page's list)."""
    rows = session.exec(select(PlayerCard).order_by(col(PlayerCard.id).desc()).limit(limit)).all()
    return [view(r, reader_role) for r in rows]

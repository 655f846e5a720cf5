"""The parlour board game's evening: a game and its hands as append-only events (issue 16).

A game's state comes only from its stored events, replayed through the pure engine
(``rules.parlour``): each ``hand`` event stores the whole hand as entered (players in this hand's
seating, the dealer first; the board carried in; the cards; the extra hand; the betting), so the
replay recomputes every figure. Recording a hand takes the board and the seating from the replay
(the deal passes to the left after each hand), lets the engine verify it, and stores it only if
the engine accepts it: a refused hand stores nothing. The client's idempotency key makes a double
tap record once; ``expected_seq`` refuses a hand entered on a stale screen. An ``end`` event (the
five-card deal for the chips left on the board) closes the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from ...models import User, utcnow
from ...models.parlour import ParlourEvent, ParlourGame
from ...rules.parlour.board import check_board
from ...rules.parlour.hand import check_players
from ...rules.parlour.profile import VARIANTS, get_parlour_profile
from ...rules.parlour.request import end_of_game_request, parse_board, settle_hand_request
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from .store import KEY_MAX, encode_payload

#: who runs the parlour board: a host or club dealer (croupier) and administrators
HOSTS = frozenset({"croupier", "admin"})
HAND, END = "hand", "end"
#: what a recorded hand may carry; the rest comes from the replay
HAND_FIELDS = ("hands", "extra", "extra_hand", "betting")


@dataclass(frozen=True, slots=True)
class HandView:
    seq: int
    number: int
    request: dict[str, Any]
    result: dict[str, Any]
    created_at: datetime


@dataclass(slots=True)
class GameView:
    id: int
    name: str
    profile: str
    variant: str
    players: tuple[str, ...]
    board: dict[str, Any]  # now: the board the next hand starts with
    seating: tuple[str, ...]  # the next hand's players, its dealer first
    hands: list[HandView] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    ended: dict[str, Any] | None = None
    last_seq: int = 0

    @property
    def dealer(self) -> str:
        return self.seating[0]


def _check_actor(session: Session, actor_id: int) -> None:
    user = session.get(User, actor_id)
    if user is None or not user.active or user.role not in HOSTS:
        raise PermissionDenied("Only a croupier or an administrator runs the parlour board.")


def create_game(session: Session, *, name: str, players: Sequence[str], actor_id: int,
                variant: str = "basic", profile: str = "parlour-americana",
                board: Mapping[str, Any] | None = None) -> int:
    """A new evening; ``players`` in seating order, the first dealer first."""
    _check_actor(session, actor_id)
    name = name.strip()
    if not name or len(name) > 64:
        raise ValidationError("A game's name is 1 to 64 characters.", field="name")
    if variant not in VARIANTS:
        raise ValidationError("The variant is basic or clockwise.", field="variant")
    prof = get_parlour_profile(profile)
    seated = tuple(p.strip() for p in players)
    check_players(seated, prof)
    start = check_board(parse_board({"board": dict(board or {})}), prof).to_dict()
    row = ParlourGame(name=name, profile=prof.name, variant=variant,
                      players=encode_payload({"players": list(seated)}),
                      board=encode_payload(start), created_by=actor_id, created_at=utcnow())
    session.add(row)
    session.flush()
    assert row.id is not None
    return row.id


def _events(session: Session, game_id: int) -> list[ParlourEvent]:
    query = select(ParlourEvent).where(ParlourEvent.game_id == game_id)
    return list(session.exec(query.order_by(col(ParlourEvent.seq))).all())


def load(session: Session, game_id: int) -> GameView:
    """The game replayed from its events: every hand's figures, the board now, the totals."""
    row = session.get(ParlourGame, game_id)
    if row is None:
        raise NotFound("No parlour game with id %(game_id)s.", game_id=game_id)
    assert row.id is not None
    players = tuple(json.loads(row.players)["players"])
    view = GameView(row.id, row.name, row.profile, row.variant, players, json.loads(row.board),
                    players, totals={p: 0 for p in players})
    for event in _events(session, game_id):
        payload = json.loads(event.payload)
        view.last_seq = event.seq
        if event.type == END:
            view.ended = end_of_game_request(payload).to_dict()
            for p, won in view.ended["awards"].items():
                view.totals[p] += won
            continue
        result = settle_hand_request(payload).to_dict()
        view.hands.append(HandView(event.seq, len(view.hands) + 1, payload, result,
                                   event.created_at))
        view.board = result["board_after"]
        seating = payload["players"]
        view.seating = (*seating[1:], seating[0])
        for p, net in result["net"].items():
            view.totals[p] += net
    return view


def hand_request(view: GameView, hand: Mapping[str, Any]) -> dict[str, Any]:
    """The whole hand: the entered fields plus the seating, board and rules from the replay."""
    unknown = sorted(set(hand) - set(HAND_FIELDS))
    if unknown:
        raise ValidationError("A hand does not carry '%(v)s'.", v=unknown[0], field=unknown[0])
    return {"profile": view.profile, "variant": view.variant, "players": list(view.seating),
            "board": view.board, **{k: hand[k] for k in HAND_FIELDS if k in hand}}


def _check_key(key: str) -> str:
    if not key or len(key) > KEY_MAX:
        raise ValidationError("An idempotency key is 1 to %(KEY_MAX)s characters.",
                              KEY_MAX=KEY_MAX)
    return key


def _append(session: Session, view: GameView, type: str, payload: Mapping[str, Any],
            actor_id: int, key: str) -> None:
    event = ParlourEvent(game_id=view.id, seq=view.last_seq + 1, type=type,
                         payload=encode_payload(payload), actor_id=actor_id,
                         created_at=utcnow(), idempotency_key=key)
    try:
        with session.begin_nested():
            session.add(event)
    except IntegrityError:
        raise Conflict("Another hand was recorded at the same moment; reload and try again."
                       ) from None


def _already(session: Session, game_id: int, key: str, type: str) -> bool:
    """True when this key already recorded this kind of step (a double tap); Conflict if not."""
    query = select(ParlourEvent).where(ParlourEvent.game_id == game_id,
                                       ParlourEvent.idempotency_key == key)
    existing = session.exec(query).first()
    if existing is None:
        return False
    if existing.type != type:
        raise Conflict("This idempotency key was already used for a different step.")
    return True


def _ready(session: Session, game_id: int, actor_id: int, key: str,
           expected_seq: int | None) -> GameView:
    _check_actor(session, actor_id)
    _check_key(key)
    view = load(session, game_id)
    if view.ended is not None:
        raise Conflict("This game has ended; start a new one.")
    if expected_seq is not None and expected_seq != view.last_seq:
        raise Conflict("Another hand was recorded meanwhile; the screen shows it now.")
    return view


def record_hand(session: Session, *, game_id: int, actor_id: int, hand: Mapping[str, Any],
                idempotency_key: str, expected_seq: int | None = None) -> GameView:
    """Verify one whole hand with the engine and store it; the game replayed afterwards."""
    if _already(session, game_id, idempotency_key, HAND):
        return load(session, game_id)
    view = _ready(session, game_id, actor_id, idempotency_key, expected_seq)
    request = hand_request(view, hand)
    settle_hand_request(request)  # a RulesError stores nothing
    _append(session, view, HAND, request, actor_id, idempotency_key)
    return load(session, game_id)


def end_game(session: Session, *, game_id: int, actor_id: int, hands: Mapping[str, Any],
             idempotency_key: str, expected_seq: int | None = None) -> GameView:
    """The end-of-game deal: five cards each, the best hand takes the board; the game closes."""
    if _already(session, game_id, idempotency_key, END):
        return load(session, game_id)
    view = _ready(session, game_id, actor_id, idempotency_key, expected_seq)
    request = {"profile": view.profile, "players": list(view.seating), "board": view.board,
               "hands": dict(hands)}
    end_of_game_request(request)
    _append(session, view, END, request, actor_id, idempotency_key)
    return load(session, game_id)


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    name: str
    players: tuple[str, ...]
    hands: int
    created_at: datetime


def list_games(session: Session, limit: int = 20) -> list[GameSummary]:
    """The latest games first, with how many hands each has recorded."""
    counts = dict(session.exec(select(ParlourEvent.game_id, func.count())
                               .where(ParlourEvent.type == HAND)
                               .group_by(col(ParlourEvent.game_id))).all())
    rows = session.exec(select(ParlourGame).order_by(col(ParlourGame.id).desc()).limit(limit))
    out = []
    for row in rows.all():
        assert row.id is not None
        out.append(GameSummary(row.id, row.name, tuple(json.loads(row.players)["players"]),
                               counts.get(row.id, 0), row.created_at))
    return out

"""The parlour board game's evening: a game and its hands as events of the one event table.

A game's state comes only from its stored events, replayed through the pure engine
(``rules.games.parlour``, memoised): each ``hand`` event stores the whole hand as the engine
plays it (players in this hand's seating, the dealer first; the board carried in; the cards;
the extra hand; the betting), so the replay recomputes every figure. Every hand goes through
the one record path (:mod:`.record`): the engine verifies it and it is stored only if the
engine accepts it (a refused hand stores nothing); the client's idempotency key makes a double
tap record once; ``expected_seq`` refuses a hand entered on a stale screen; the last hand can
be undone while the game goes on; contention is retried, then 503. An ``end`` event (the
five-card deal for the chips left on the board) closes the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, func, select

from ...models import ParlourGame, RoundEvent, User, utcnow
from ...rules.engine import UNDO
from ...rules.games.parlour import PARLOUR
from ...rules.games.parlour.board import check_board
from ...rules.games.parlour.calculator import parse_board
from ...rules.games.parlour.game import END, HAND
from ...rules.games.parlour.hand import check_players
from ...rules.games.parlour.profile import VARIANTS, get_parlour_profile
from ..errors import N_, NotFound, PermissionDenied, ValidationError
from ..people import stints
from . import memo
from . import record as path
from .record import OPEN, Closed, Loaded, Locked, Wording
from .store import encode_payload, events, last_seq

#: who runs the parlour board: a host or club dealer (croupier) and administrators
HOSTS = frozenset({"croupier", "admin"})
ENDED = "ended"


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


class ParlourStream:
    """A parlour evening: ``round_event.game_id``; the ``end`` event closes it."""

    wording = Wording(
        closed=N_("This game has ended; start a new one."),
        stale=N_("Another hand was recorded meanwhile; the screen shows it now."),
        frozen=N_("This game has ended; start a new one."),
        reused=N_("This idempotency key was already used for a different step."),
        nothing=N_("No hand is recorded in this game yet: nothing to undo."),
    )
    column = "game_id"
    settles_when_complete = False

    def load(self, session: Session, stream_id: int, actor_id: int | None = None) -> Loaded:
        row = session.get(ParlourGame, stream_id)
        if row is None:
            raise NotFound("No parlour game with id %(game_id)s.", game_id=stream_id)
        rules = {"profile": row.profile, "variant": row.variant,
                 "players": json.loads(row.players)["players"], "board": json.loads(row.board)}
        found = events(session, game_id=stream_id)
        folded = memo.replay(PARLOUR, rules, found)
        status = ENDED if folded.state.ended is not None else OPEN
        return Loaded(stream_id, stream_id, status, None, rules, PARLOUR, found, folded,
                      head=row.name)

    def check_actor(self, session: Session, actor_id: int, loaded: Loaded | None) -> None:
        _check_actor(session, actor_id)

    def lock(self, session: Session, loaded: Loaded) -> Locked:
        session.exec(select(ParlourGame.id).where(ParlourGame.id == loaded.id)
                     .with_for_update(key_share=True)).one()
        return Locked(loaded.status, False, last_seq(session, self.column, loaded.id))

    def store_settlement(self, session: Session, loaded: Loaded, seq: int, settlement: Any,
                         state: Any) -> Closed:
        raise NotImplementedError("a parlour evening stores no settlement row")


PARLOUR_STREAM = ParlourStream()


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
    stints.open_game(session, game_id=row.id, host_id=actor_id)  # the host's stint
    return row.id


def view(loaded: Loaded) -> GameView:
    """The game replayed: every hand's figures, the board now, the totals."""
    state = loaded.folded.state
    rules = loaded.rules
    effective = set(loaded.effective)
    played = [e for e in loaded.events if e.seq in effective and e.type == HAND]
    hands = [HandView(e.seq, n, e.payload, result.to_dict(), e.created_at)
             for n, (e, (_hand, result)) in enumerate(zip(played, state.hands, strict=True),
                                                      start=1)]
    return GameView(loaded.id, loaded.head, rules["profile"], rules["variant"],
                    tuple(rules["players"]), state.board.to_dict(), tuple(state.seating), hands,
                    dict(state.totals), state.ended.to_dict() if state.ended else None,
                    loaded.last_seq)


def load(session: Session, game_id: int) -> GameView:
    return view(PARLOUR_STREAM.load(session, game_id))


def _record(session: Session, game_id: int, actor_id: int, type: str,
            payload: Mapping[str, Any], key: str, expected_seq: int | None) -> GameView:
    return view(path.record(session, PARLOUR_STREAM, game_id, actor_id=actor_id, type=type,
                            payload=payload, idempotency_key=key,
                            expected_seq=expected_seq).loaded)


def record_hand(session: Session, *, game_id: int, actor_id: int, hand: Mapping[str, Any],
                idempotency_key: str, expected_seq: int | None = None) -> GameView:
    """Verify one whole hand with the engine and store it; the game replayed afterwards."""
    return _record(session, game_id, actor_id, HAND, hand, idempotency_key, expected_seq)


def end_game(session: Session, *, game_id: int, actor_id: int, hands: Mapping[str, Any],
             idempotency_key: str, expected_seq: int | None = None) -> GameView:
    """The end-of-game deal: five cards each, the best hand takes the board; the game closes."""
    return _record(session, game_id, actor_id, END, {"hands": dict(hands)}, idempotency_key,
                   expected_seq)


def undo(session: Session, *, game_id: int, actor_id: int, idempotency_key: str,
         expected_seq: int | None = None) -> GameView:
    """Take back the last hand while the game goes on (an ``undo`` event naming it)."""
    return _record(session, game_id, actor_id, UNDO, {}, idempotency_key, expected_seq)


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    name: str
    players: tuple[str, ...]
    hands: int
    created_at: datetime


def list_games(session: Session, limit: int = 20) -> list[GameSummary]:
    """The latest games first, with how many hands each has recorded (an undone hand does not
    count: each undo takes one back)."""
    counts: dict[int, int] = {}
    rows = session.exec(select(RoundEvent.game_id, RoundEvent.type, func.count())
                        .where(col(RoundEvent.game_id).is_not(None),
                               col(RoundEvent.type).in_((HAND, UNDO)))
                        .group_by(col(RoundEvent.game_id), col(RoundEvent.type))).all()
    for game_id, type, count in rows:
        if game_id is not None:
            counts[game_id] = counts.get(game_id, 0) + (count if type == HAND else -count)
    games = session.exec(select(ParlourGame).order_by(col(ParlourGame.id).desc()).limit(limit))
    out = []
    for row in games.all():
        assert row.id is not None
        out.append(GameSummary(row.id, row.name, tuple(json.loads(row.players)["players"]),
                               counts.get(row.id, 0), row.created_at))
    return out


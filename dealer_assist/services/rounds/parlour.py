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
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from ...models import ParlourGame, RoundEvent, User, utcnow
from ...rules.engine import UNDO
from ...rules.games.parlour.board import check_board
from ...rules.games.parlour.calculator import parse_board
from ...rules.games.parlour.game import END, HAND
from ...rules.games.parlour.hand import check_players
from ...rules.games.parlour.profile import VARIANTS, get_parlour_profile
from ...rules.games.registry import get_engine
from ..errors import N_, NotFound, PermissionDenied, ValidationError
from ..people import reliefs, stints
from . import memo, txn
from . import record as record_path
from .store import encode_payload, events, last_seq
from .streams import OPEN, Closed, Loaded, Locked, Opening, Wording

#: who runs the parlour board: a host or club dealer (croupier) and administrators
HOSTS = stints.HOSTS
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
        engine = get_engine("parlour")
        folded = memo.replay(engine, rules, found)
        status = ENDED if folded.state.ended is not None else OPEN
        return Loaded(stream_id, stream_id, status, None, rules, engine, found, folded,
                      name=row.name)

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
                board: Mapping[str, Any] | None = None,
                idempotency_key: str | None = None) -> int:
    """A new evening through the one start path (:func:`.record.start`); ``players`` in
    seating order, the first dealer first. ``idempotency_key``: the same key and the same
    evening again answers the evening it created (without: every request creates one)."""
    start = {"name": name, "players": list(players), "variant": variant, "profile": profile,
             "board": dict(board or {})}
    return record_path.start(session, PARLOUR_START, None, actor_id=actor_id, payload=start,
                      idempotency_key=idempotency_key or uuid.uuid4().hex).loaded.id


def _start_of(payload: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The evening's name and its start (profile, variant, players, board) as stored."""
    name = str(payload.get("name") or "").strip()
    if not name or len(name) > 64:
        raise ValidationError("A game's name is 1 to 64 characters.", field="name")
    variant = payload.get("variant", "basic")
    if variant not in VARIANTS:
        raise ValidationError("The variant is basic or clockwise.", field="variant")
    prof = get_parlour_profile(str(payload.get("profile", "parlour-americana")))
    seated = tuple(str(p).strip() for p in payload.get("players") or ())
    check_players(seated, prof)
    board = check_board(parse_board({"board": dict(payload.get("board") or {})}), prof)
    return name, {"profile": prof.name, "variant": variant, "players": list(seated),
                  "board": board.to_dict()}


class ParlourStart:
    """A parlour evening starts anywhere, by its host; its row keeps the key (``start_key``,
    unique per host: the compare of its compare-and-append is that index)."""

    stream = PARLOUR_STREAM
    step = None

    def read(self, session: Session, scope_id: int | None, actor_id: int,
             key: str) -> Opening:
        _check_actor(session, actor_id)
        return Opening(session.exec(select(ParlourGame.id).where(
            ParlourGame.created_by == actor_id, ParlourGame.start_key == key)).first())

    def same(self, session: Session, loaded: Loaded, payload: Mapping[str, Any]) -> bool:
        return _start_of(payload) == (loaded.name, loaded.rules)

    def check(self, session: Session, opening: Opening, actor_id: int,
              payload: Mapping[str, Any]) -> Loaded:
        name, rules = _start_of(payload)
        engine = get_engine("parlour")
        return Loaded(0, 0, OPEN, None, rules, engine, [], memo.replay(engine, rules, []),
                      name=name)

    def lock(self, session: Session, opening: Opening, key: str) -> bool:
        return True  # a twin's row breaks the unique index (below): read again

    def insert(self, session: Session, opening: Opening, locked: bool, empty: Loaded | None,
               actor_id: int, key: str) -> Loaded:
        assert empty is not None
        rules = empty.rules
        row = ParlourGame(name=empty.name or "", profile=rules["profile"], variant=rules["variant"],
                          players=encode_payload({"players": rules["players"]}),
                          board=encode_payload(rules["board"]), created_by=actor_id,
                          created_at=utcnow(), start_key=key)
        session.add(row)
        try:
            session.flush()
        except IntegrityError:
            raise txn.Stale from None  # the unit is rolled back whole and reads again
        assert row.id is not None
        reliefs.open_game(session, game_id=row.id, host_id=actor_id)  # host's stint
        return replace(empty, id=row.id, number=row.id)


PARLOUR_START = ParlourStart()


def view(loaded: Loaded) -> GameView:
    """The game replayed: every hand's figures, the board now, the totals."""
    state = loaded.folded.state
    rules = loaded.rules
    effective = set(loaded.effective)
    played = [e for e in loaded.events if e.seq in effective and e.type == HAND]
    hands = [HandView(e.seq, n, e.payload, result.to_dict(), e.created_at)
             for n, (e, (_hand, result)) in enumerate(zip(played, state.hands, strict=True),
                                                      start=1)]
    return GameView(loaded.id, loaded.name or "", rules["profile"], rules["variant"],
                    tuple(rules["players"]), state.board.to_dict(), tuple(state.seating), hands,
                    dict(state.totals), state.ended.to_dict() if state.ended else None,
                    loaded.last_seq)


def load(session: Session, game_id: int) -> GameView:
    return view(PARLOUR_STREAM.load(session, game_id))


def _record(session: Session, game_id: int, actor_id: int, type: str,
            payload: Mapping[str, Any], key: str, expected_seq: int | None) -> GameView:
    return view(record_path.record(session, PARLOUR_STREAM, game_id, actor_id=actor_id, type=type,
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


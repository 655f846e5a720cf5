"""Every game is recorded by the one record path, the same way, on SQLite and PostgreSQL.

Russian poker, Caribbean stud, Oasis, Big/Small, Americana stud, 32-card draw and the parlour
game: a resent step (same idempotency key, same step) is answered with the stream as it is and
stores nothing (HTTP 200); a key used again for another step is a 409; a step entered on a
screen that did not see the stream's last event (``expected_seq``) is a 409 and stores nothing;
undo takes the last step back with an event and a resent undo records once; a stream whose row
another writer holds is retried and then refused as busy (HTTP 503, ``txn.Busy``), with nothing
half-written, and the same request once the lock is released records once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlmodel import Session, func, select

from dealer_assist.db import make_engine
from dealer_assist.models import RoundEvent
from dealer_assist.services.errors import Conflict
from dealer_assist.services.rounds import live, parlour, poker_hands, txn
from dealer_assist.services.rounds import record as path
from dealer_assist.services.rounds.house import HOUSE
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.factories import make_table, make_user, start_round
from tests.rules.parlour_deals import SUITED

Step = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Game:
    """How to open one stream of a game and two steps of it (the second may depend on the
    first: whose turn it is)."""

    open: Callable[[Session], tuple[path.Stream, int, int]]
    first: Step
    second: Callable[[path.Loaded], Step]
    lock_sql: str


def _house(game: str, up: list[str]) -> Game:
    def open_round(session: Session) -> tuple[path.Stream, int, int]:
        table = make_table(session, name=f"T {game}", game=game)
        carla = make_user(session, "carla", "croupier").id
        shifts.open_shift(session, table_id=table.id, user_id=carla)
        session.commit()
        rnd = start_round(session, table_id=table.id, actor_id=carla,
                               boxes=[live.BoxStake("1", 100)], idempotency_key="start")
        return HOUSE, rnd.round.id, carla
    return Game(open_round, ("deal_dealer", {"up": up}),
                lambda loaded: ("bet", {"box": "1"}),
                "SELECT id FROM game_round WHERE id = :id FOR UPDATE")


def _poker(profile: str, stakes: dict[str, int], first: Step) -> Game:
    def open_hand(session: Session) -> tuple[path.Stream, int, int]:
        table = poker_tables.open_table(session, name="PK", profile=profile, stakes=stakes,
                                        seat_count=4)
        carla = make_user(session, "carla", "croupier").id
        shifts.open_shift(session, table_id=table.id, user_id=carla)
        for seat in "123":
            poker_tables.seat_player(session, table.id, seat=seat, player=f"P{seat}",
                                     buy_in=1000)
        session.commit()
        hand = poker_hands.start_hand(session, table_id=table.id, user_id=carla)
        return poker_hands.POKER, hand.round.id, carla

    def second(loaded: path.Loaded) -> Step:
        state = loaded.folded.state
        kind = "bring_in" if state.opener is not None else "call"
        return "action", {"type": kind, "seat": state.to_act}
    return Game(open_hand, first, second,
                "SELECT id FROM game_round WHERE id = :id FOR UPDATE")


def _hand(order: list[str]) -> dict[str, Any]:
    return {"hands": {p: c.split() for p, c in SUITED["hands"].items()},
            "extra": SUITED["extra"].split(), "extra_hand": {"action": "keep"},
            "betting": [{"player": p, "type": "pass"} for p in order]}


def _open_parlour(session: Session) -> tuple[path.Stream, int, int]:
    host = make_user(session, "carla", "croupier").id
    gid = parlour.create_game(session, name="Friday", players=["Ann", "Bob", "Cy"],
                              actor_id=host)
    session.commit()
    return parlour.PARLOUR_STREAM, gid, host


GAMES = {
    "russian": _house("russian", []),
    "caribbean": _house("caribbean", ["9h"]),
    "oasis": _house("oasis", ["9h"]),
    "split": _house("split", ["9h"]),
    "americana": _poker("americana-limit", {"ante": 5},
                        ("action", {"type": "street", "up": {"1": "As", "2": "Kd", "3": "Qh"}})),
    "draw32": _poker("draw32-limit", {"small_blind": 10}, ("action", {"type": "call",
                                                                       "seat": "1"})),
    "parlour": Game(_open_parlour, ("hand", _hand(["Bob", "Cy", "Ann"])),
                    lambda loaded: ("hand", _hand(["Cy", "Ann", "Bob"])),
                    "SELECT id FROM parlour_game WHERE id = :id FOR UPDATE"),
}


@pytest.fixture(params=list(GAMES))
def game(request: pytest.FixtureRequest) -> Game:
    return GAMES[request.param]


def _record(session: Session, stream: path.Stream, sid: int, actor: int, step: Step, key: str,
            expected_seq: int | None = None) -> path.Recorded:
    done = path.record(session, stream, sid, actor_id=actor, type=step[0], payload=step[1],
                       idempotency_key=key, expected_seq=expected_seq)
    session.commit()
    return done


def _events(session: Session, stream: path.Stream, sid: int) -> int:
    """The stream's events as stored (none is ever half-written)."""
    column = getattr(RoundEvent, stream.column)
    found = session.exec(select(func.count()).select_from(RoundEvent).where(column == sid)).one()
    session.rollback()
    return int(found)


def test_a_resent_step_is_answered_as_stored_and_a_reused_key_is_a_conflict(
        session: Session, game: Game) -> None:
    stream, sid, actor = game.open(session)
    first = _record(session, stream, sid, actor, game.first, "a")
    again = _record(session, stream, sid, actor, game.first, "a")
    assert first.created and not again.created
    assert again.loaded.last_seq == first.loaded.last_seq
    assert again.loaded.folded.state == first.loaded.folded.state
    with pytest.raises(Conflict, match="already used for a different"):
        _record(session, stream, sid, actor, game.second(first.loaded), "a")
    session.rollback()
    assert _events(session, stream, sid) == first.loaded.last_seq


def test_a_step_from_a_screen_behind_the_stream_is_a_conflict_and_stores_nothing(
        session: Session, game: Game) -> None:
    stream, sid, actor = game.open(session)
    first = _record(session, stream, sid, actor, game.first, "a",
                    expected_seq=stream.load(session, sid).last_seq)
    with pytest.raises(Conflict):
        _record(session, stream, sid, actor, game.second(first.loaded), "b",
                expected_seq=first.loaded.last_seq - 1)
    session.rollback()
    assert _events(session, stream, sid) == first.loaded.last_seq
    ok = _record(session, stream, sid, actor, game.second(first.loaded), "b",
                 expected_seq=first.loaded.last_seq)
    assert ok.created and ok.loaded.last_seq == first.loaded.last_seq + 1


def test_undo_takes_the_last_step_back_with_an_event_and_a_resent_undo_records_once(
        session: Session, game: Game) -> None:
    stream, sid, actor = game.open(session)
    before = stream.load(session, sid)
    session.rollback()
    done = _record(session, stream, sid, actor, game.first, "a")
    undone = _record(session, stream, sid, actor, ("undo", {}), "u")
    again = _record(session, stream, sid, actor, ("undo", {}), "u")
    assert undone.created and not again.created
    assert undone.loaded.folded.state == before.folded.state
    assert undone.loaded.events[-1].type == "undo"
    assert undone.loaded.events[-1].payload == {done.loaded.engine.undo_field:
                                                done.loaded.last_seq}
    assert _events(session, stream, sid) == done.loaded.last_seq + 1
    redone = _record(session, stream, sid, actor, game.first, "a2")
    assert redone.loaded.folded.state == done.loaded.folded.state


@pytest.fixture
def quick(db_url: str) -> Iterator[Engine]:
    """An engine whose lock waits give up after 50 ms (SQLite busy timeout, PostgreSQL
    lock_timeout), as a contended floor's would after its own timeout."""
    engine = make_engine(db_url, busy_timeout_ms=50)
    yield engine
    engine.dispose()


def test_a_stream_another_writer_holds_is_busy_then_records_once_when_released(
        engine: Engine, session: Session, quick: Engine, game: Game) -> None:
    stream, sid, actor = game.open(session)
    session.commit()
    with Session(quick, expire_on_commit=False) as tablet, engine.connect() as holder:
        if engine.dialect.name == "sqlite":  # BEGIN IMMEDIATE: the database's write lock
            holder.execute(text("INSERT INTO login_throttle (username, ip, failures) "
                                "VALUES ('x', 'y', 0)"))
        else:
            holder.execute(text(game.lock_sql), {"id": sid})
        with pytest.raises(txn.Busy):
            path.record(tablet, stream, sid, actor_id=actor, type=game.first[0],
                        payload=game.first[1], idempotency_key="busy")
        holder.rollback()
        assert _events(tablet, stream, sid) == stream.load(tablet, sid).last_seq
        tablet.rollback()
        done = path.record(tablet, stream, sid, actor_id=actor, type=game.first[0],
                           payload=game.first[1], idempotency_key="busy")
        again = path.record(tablet, stream, sid, actor_id=actor, type=game.first[0],
                            payload=game.first[1], idempotency_key="busy")
    assert done.created and not again.created

"""The parlour evening as events, on SQLite and PostgreSQL: hands recorded through
the engine, the board carried from hand to hand, the deal passing left, refused hands storing
nothing, double taps recording once, append-only events and the audit chain covering them."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session

from dealer_assist import audit
from dealer_assist.rules import RulesError
from dealer_assist.services.errors import Conflict, PermissionDenied
from dealer_assist.services.rounds import parlour
from tests.factories import make_user
from tests.rules.parlour_deals import SUITED

ALL_PASS = [{"player": p, "type": "pass"} for p in ("Bob", "Cy", "Ann")]


def suited_hand(**kw: Any) -> dict[str, Any]:
    return {"hands": {p: c.split() for p, c in SUITED["hands"].items()},
            "extra": SUITED["extra"].split(), "extra_hand": {"action": "keep"},
            "betting": ALL_PASS, **kw}


@pytest.fixture
def game(session: Session) -> tuple[int, int]:
    host = make_user(session, "carla", "croupier")
    gid = parlour.create_game(session, name="Friday", players=["Ann", "Bob", "Cy"],
                              actor_id=host.id)
    session.commit()
    return gid, host.id


def test_two_hands_carry_the_board_and_pass_the_deal_left(session: Session,
                                                          game: tuple[int, int]) -> None:
    gid, host = game
    first = parlour.record_hand(session, game_id=gid, actor_id=host, hand=suited_hand(),
                                idempotency_key="h1")
    # the engine's own figures for this deal (tests/rules): the pool stays at 4, ante 20, KQ 4
    assert first.board == {"pool": 4, "sections": {"ante": 20, "8-9-10": 0, "KQ-clubs": 4,
                                                   "Ah": 0, "Kh": 0, "Qh": 0, "Jh": 0, "10h": 0}}
    assert first.seating == ("Bob", "Cy", "Ann")
    # Bob deals now: the betting starts with Cy, Bob bets last
    second = parlour.record_hand(session, game_id=gid, actor_id=host, hand=suited_hand(
        betting=[{"player": p, "type": "pass"} for p in ("Cy", "Ann", "Bob")]),
        idempotency_key="h2", expected_seq=1)
    session.commit()
    assert second.hands[1].request["board"] == first.board
    assert second.hands[1].request["players"] == ["Bob", "Cy", "Ann"]
    assert second.hands[1].result["antes"] == {"Bob": 18, "Cy": 9, "Ann": 9}
    assert second.board["pool"] == 4 + 4
    before, after = 0, second.board["pool"] + sum(second.board["sections"].values())
    assert sum(second.totals.values()) + after - before == 0
    assert parlour.load(session, gid).totals == second.totals


def test_a_refused_hand_stores_nothing(session: Session, game: tuple[int, int]) -> None:
    gid, host = game
    bad = suited_hand()
    bad["hands"]["Cy"][0] = "As"
    with pytest.raises(RulesError) as info:
        parlour.record_hand(session, game_id=gid, actor_id=host, hand=bad, idempotency_key="x")
    assert info.value.value == "As"
    session.rollback()
    assert parlour.load(session, gid).last_seq == 0


def test_a_double_tap_records_once_and_a_stale_screen_is_refused(
        session: Session, game: tuple[int, int]) -> None:
    gid, host = game
    parlour.record_hand(session, game_id=gid, actor_id=host, hand=suited_hand(),
                        idempotency_key="same")
    again = parlour.record_hand(session, game_id=gid, actor_id=host, hand=suited_hand(),
                                idempotency_key="same")
    assert len(again.hands) == 1
    with pytest.raises(Conflict):
        parlour.record_hand(session, game_id=gid, actor_id=host, hand=suited_hand(),
                            idempotency_key="other", expected_seq=0)


def test_the_end_of_game_deal_takes_the_board_and_closes_the_game(
        session: Session, game: tuple[int, int]) -> None:
    gid, host = game
    parlour.record_hand(session, game_id=gid, actor_id=host, hand=suited_hand(),
                        idempotency_key="h1")
    ended = parlour.end_game(session, game_id=gid, actor_id=host, idempotency_key="end", hands={
        "Bob": ["As", "Ad", "2c", "3c", "4c"], "Cy": ["Ks", "Kd", "Kc", "5h", "6h"],
        "Ann": ["7s", "8d", "9c", "Th", "2h"]})
    assert ended.ended is not None and ended.ended["awards"] == {"Cy": 28}
    assert ended.totals["Cy"] == 0 + 28  # Cy's first hand was even (tests/rules)
    assert sum(ended.totals.values()) == 0
    with pytest.raises(Conflict):
        parlour.record_hand(session, game_id=gid, actor_id=host, hand=suited_hand(),
                            idempotency_key="late")


def test_only_a_croupier_or_an_administrator_runs_the_board(session: Session) -> None:
    boss = make_user(session, "pete", "pit_boss")
    with pytest.raises(PermissionDenied):
        parlour.create_game(session, name="x", players=["A", "B"], actor_id=boss.id)
    admin = make_user(session, "ada", "admin")
    assert parlour.create_game(session, name="x", players=["A", "B"], actor_id=admin.id)


def test_hands_are_append_only_and_covered_by_the_audit_chain(engine: Engine) -> None:
    audit.install(engine)
    with Session(engine) as session, audit.acting_as(audit.Actor(None, "test", "system")):
        host = make_user(session, "carla", "croupier")
        gid = parlour.create_game(session, name="Friday", players=["Ann", "Bob", "Cy"],
                                  actor_id=host.id)
        parlour.record_hand(session, game_id=gid, actor_id=host.id, hand=suited_hand(),
                            idempotency_key="h1")
        session.commit()
        actions = set(session.exec(text("SELECT action FROM audit_entry")).scalars())  # type: ignore[call-overload]
    # a parlour hand is an event of the one event table (``round_event.game_id``)
    assert {"parlour_game.created", "round_event.hand"} <= actions
    for statement in ("UPDATE round_event SET payload = '{}' WHERE game_id IS NOT NULL",
                      "DELETE FROM round_event WHERE game_id IS NOT NULL",
                      "UPDATE parlour_game SET name = 'x'"):
        with pytest.raises(DBAPIError, match="append-only"):
            with engine.begin() as conn:
                conn.execute(text(statement))
    with engine.connect() as conn:
        assert audit.verify(conn).ok

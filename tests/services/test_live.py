"""The live round service on SQLite and PostgreSQL: steps verified by the engine, stored as events.

State comes only from stored events; a refused step stores nothing; a resent step records once;
undo is an event; "Paid" stores exactly ``settle(replay(events))``; a redeal asks a pit boss to
void the round and freezes it until one decides.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from dealer_assist.models import Round, RoundEvent, RoundSettlement, RoundStatus
from dealer_assist.rules.engine import Event
from dealer_assist.rules.errors import (
    CardParseError,
    DuplicateCardError,
    IllegalActionError,
    RulesError,
    StakeError,
)
from dealer_assist.rules.games.registry import start
from dealer_assist.services.errors import Conflict, PermissionDenied
from dealer_assist.services.rounds import live, voids
from dealer_assist.services.shifts import shifts
from tests.factories import (
    make_table,
    make_user,
    old_event,
    pay_round,
    record_step,
    start_round,
    undo_step,
)

#: a Russian poker round with an exchange, a sixth card, insurance and a bought game
RUSSIAN_STEPS: list[tuple[str, dict[str, Any]]] = [
    ("deal_box", {"box": "1", "cards": "as ad ah 2c 3d"}),
    ("deal_box", {"box": "2", "cards": ["7s", "8s", "9d", "Jc", "2h"]}),
    ("deal_box", {"box": "3", "cards": "kc qc 4h 6s 9h"}),
    ("deal_dealer", {"cards": "kh qh 4s 5c 6d"}),
    ("exchange", {"box": "2", "discard": ["2h"], "draw": ["Td"]}),
    ("sixth_card", {"box": "3", "card": "jh"}),
    ("bet", {"box": "1"}),
    ("insure", {"box": "1", "amount": 100}),
    ("bet", {"box": "2"}),
    ("bet", {"box": "3"}),
    ("reveal", {}),
    ("buy_game", {"box": "1"}),
    ("take_ante", {"box": "2"}),
    ("take_ante", {"box": "3"}),
    ("dealer_draw", {"cards": ["js"]}),
]
BOXES = [live.BoxStake("1", 100, 50), live.BoxStake("2", 100), live.BoxStake("3", 50)]


@dataclass
class Table:
    id: int
    carla: int


@pytest.fixture
def table(session: Session) -> Table:
    t = make_table(session)
    carla = make_user(session)
    shifts.open_shift(session, table_id=t.id, user_id=carla.id)
    session.commit()
    return Table(t.id, carla.id)


def begin(session: Session, table: Table, boxes: list[live.BoxStake] = BOXES,
          key: str = "start-1") -> live.LiveRound:
    rnd = start_round(session, table_id=table.id, actor_id=table.carla, boxes=boxes,
                           idempotency_key=key)
    session.commit()
    return rnd


def step(session: Session, table: Table, round_id: int, type: str, payload: dict[str, Any],
         key: str) -> live.LiveRound:
    rnd = record_step(session, round_id=round_id, actor_id=table.carla, type=type,
                           payload=payload, idempotency_key=key)
    session.commit()
    return rnd


def play(session: Session, table: Table, steps: list[tuple[str, dict[str, Any]]],
         round_id: int) -> live.LiveRound:
    rnd = live.load(session, round_id)
    for n, (type, payload) in enumerate(steps):
        rnd = step(session, table, round_id, type, payload, f"k{round_id}-{n}")
    return rnd


def engine_replay(rnd: live.LiveRound) -> Any:
    """The engine's own fold of the stored events, from scratch."""
    t = rnd.table
    engine, empty = start(t.game, t.profile, t.min_ante, t.max_ante, t.max_payout)
    return engine.replay(empty, [Event(e.seq, e.type, e.payload) for e in rnd.events]).state


def test_a_full_russian_round_is_played_paid_and_stored(session: Session, table: Table) -> None:
    rnd = begin(session, table)
    rnd = play(session, table, RUSSIAN_STEPS, rnd.round.id)
    assert rnd.settlement is not None and rnd.phase == "Pay out"
    paid = pay_round(session, round_id=rnd.round.id, actor_id=table.carla, idempotency_key="pay")
    session.commit()
    assert paid.round.status == RoundStatus.SETTLED.value and not paid.steps
    assert [e.type for e in paid.events][-1] == "paid"
    assert paid.stored_settlement == rnd.settlement.to_dict()
    box1 = paid.stored_settlement["boxes"][0]
    assert box1["wagers"]["insurance"]["net"] == 100  # no game at the first reveal: 1:1
    assert box1["wagers"]["buy_game_fee"]["net"] == -100


def test_the_stored_settlement_equals_settle_of_the_replayed_events(session: Session,
                                                                   table: Table) -> None:
    rnd = begin(session, table)
    play(session, table, RUSSIAN_STEPS, rnd.round.id)
    pay_round(session, round_id=rnd.round.id, actor_id=table.carla, idempotency_key="pay")
    session.commit()
    stored = session.exec(select(RoundSettlement)
                          .where(RoundSettlement.round_id == rnd.round.id)).one()
    reloaded = live.load(session, rnd.round.id)
    recomputed = reloaded.engine.settle(engine_replay(reloaded)).to_dict()
    assert json.loads(stored.settlement) == recomputed
    assert stored.through_seq == reloaded.last_seq and stored.profile == "russian-classic"
    assert stored.engine_version.startswith("dealer_assist")


def test_a_double_submitted_step_is_recorded_once(session: Session, table: Table) -> None:
    rnd = begin(session, table)
    payload = {"box": "1", "cards": "as ad ah 2c 3d"}
    first = step(session, table, rnd.round.id, "deal_box", payload, "tap-1")
    again = step(session, table, rnd.round.id, "deal_box", payload, "tap-1")
    assert first.last_seq == again.last_seq == 2
    assert len(again.events) == 2


def test_a_double_submitted_start_opens_one_round(session: Session, table: Table) -> None:
    first = begin(session, table, key="start-x")
    again = begin(session, table, key="start-x")
    assert again.round.id == first.round.id and len(again.events) == 1


def test_a_key_reused_for_another_step_is_a_conflict(session: Session, table: Table) -> None:
    rnd = begin(session, table)
    step(session, table, rnd.round.id, "deal_box", {"box": "1", "cards": "as ad ah 2c 3d"}, "k")
    with pytest.raises(Conflict, match="different step"):
        record_step(session, round_id=rnd.round.id, actor_id=table.carla,
                         type="deal_box", payload={"box": "2", "cards": "2s 3s 4s 5s 7d"},
                         idempotency_key="k")


REFUSED = [
    pytest.param("deal_box", {"box": "2", "cards": "2s 3s zz 4s 5s"}, CardParseError,
                 "'zz' (card 3) is not a card", id="invalid-card"),
    pytest.param("deal_box", {"box": "2", "cards": "as 3s 4s 5s 7d"}, DuplicateCardError,
                 "As (card 1) is already on the table", id="duplicate-card"),
    pytest.param("reveal", {}, IllegalActionError, "deal is not complete", id="illegal-action"),
    pytest.param("insure", {"box": "1", "amount": 100}, IllegalActionError, "must bet",
                 id="insure-before-bet"),
]


@pytest.mark.parametrize(("type", "payload", "error", "message"), REFUSED)
def test_a_refused_step_leaves_the_round_unchanged_with_a_clear_message(
        session: Session, table: Table, type: str, payload: dict[str, Any],
        error: type[RulesError], message: str) -> None:
    rnd = begin(session, table)
    before = step(session, table, rnd.round.id, "deal_box",
                  {"box": "1", "cards": "as ad ah 2c 3d"}, "k1")
    with pytest.raises(error, match=re.escape(message)):
        record_step(session, round_id=rnd.round.id, actor_id=table.carla, type=type,
                         payload=payload, idempotency_key="k2")
    session.rollback()
    after = live.load(session, rnd.round.id)
    assert len(after.events) == len(before.events) == 2
    assert after.state == before.state


def test_an_ante_outside_the_table_limits_starts_no_round(session: Session,
                                                          table: Table) -> None:
    with pytest.raises(StakeError, match="ANTE 5000 is above the table maximum 500"):
        begin(session, table, boxes=[live.BoxStake("1", 5000)])
    session.rollback()
    assert live.open_round_id(session, table.id) is None
    assert session.exec(select(RoundEvent)).all() == []


def test_a_second_round_waits_until_the_first_is_paid(session: Session, table: Table) -> None:
    rnd = begin(session, table)
    with pytest.raises(Conflict, match="still open"):
        begin(session, table, key="start-2")
    session.rollback()
    play(session, table, RUSSIAN_STEPS, rnd.round.id)
    pay_round(session, round_id=rnd.round.id, actor_id=table.carla, idempotency_key="pay")
    session.commit()
    nxt = begin(session, table, key="start-2")
    assert nxt.round.number == 2 and live.open_round_id(session, table.id) == nxt.round.id


def test_undo_cancels_the_last_step_with_an_event_and_deletes_nothing(session: Session,
                                                                     table: Table) -> None:
    rnd = begin(session, table)
    rnd = play(session, table, RUSSIAN_STEPS[:5], rnd.round.id)  # ... exchange on box 2
    assert rnd.engine.summary(rnd.state)["boxes"][1]["improvement"] == "exchange"
    undone = undo_step(session, round_id=rnd.round.id, actor_id=table.carla,
                       idempotency_key="u1")
    session.commit()
    assert [e.type for e in undone.events][-1] == "undo" and len(undone.events) == 7
    assert undone.events[-1].payload == {"cancels": 6}
    assert undone.engine.summary(undone.state)["boxes"][1]["improvement"] is None
    assert "exchange" in {s.type for s in undone.steps}
    # the exchange can be entered again, differently
    again = step(session, table, rnd.round.id, "sixth_card", {"box": "2", "card": "2d"}, "k9")
    assert again.engine.summary(again.state)["boxes"][1]["improvement"] == "sixth_card"


def test_a_stale_undo_naming_an_older_step_is_refused(session: Session, table: Table) -> None:
    rnd = begin(session, table)
    rnd = play(session, table, RUSSIAN_STEPS[:2], rnd.round.id)
    with pytest.raises(IllegalActionError, match="only the last step"):
        record_step(session, round_id=rnd.round.id, actor_id=table.carla, type="undo",
                         payload={"cancels": 2}, idempotency_key="u")


def test_a_step_from_a_tablet_that_missed_a_change_is_a_conflict(session: Session,
                                                                 table: Table) -> None:
    rnd = begin(session, table)
    step(session, table, rnd.round.id, "deal_box", {"box": "1", "cards": "as ad ah 2c 3d"}, "a")
    with pytest.raises(Conflict, match="changed on another device"):
        record_step(session, round_id=rnd.round.id, actor_id=table.carla,
                         type="deal_box", payload={"box": "2", "cards": "2s 3s 4s 5s 7d"},
                         idempotency_key="b", expected_seq=1)


def test_the_round_resumes_from_stored_events_in_a_new_session(engine: Engine, session: Session,
                                                              table: Table) -> None:
    rnd = begin(session, table)
    before = play(session, table, RUSSIAN_STEPS[:9], rnd.round.id)
    with Session(engine) as other:  # another request, another device
        resumed = live.load(other, live.open_round_id(other, table.id) or 0)
    assert resumed.state == before.state == engine_replay(before)
    assert [s.to_dict() for s in resumed.steps] == [s.to_dict() for s in before.steps]


def test_paying_an_incomplete_round_is_refused_and_stores_nothing(session: Session,
                                                                 table: Table) -> None:
    rnd = begin(session, table)
    play(session, table, RUSSIAN_STEPS[:10], rnd.round.id)
    with pytest.raises(IllegalActionError, match="has not opened"):
        pay_round(session, round_id=rnd.round.id, actor_id=table.carla, idempotency_key="p")
    session.rollback()
    assert session.exec(select(RoundSettlement)).all() == []
    assert live.load(session, rnd.round.id).is_open


def test_a_settled_round_takes_no_more_steps(session: Session, table: Table) -> None:
    rnd = begin(session, table)
    play(session, table, RUSSIAN_STEPS, rnd.round.id)
    pay_round(session, round_id=rnd.round.id, actor_id=table.carla, idempotency_key="pay")
    session.commit()
    again = pay_round(session, round_id=rnd.round.id, actor_id=table.carla,
                     idempotency_key="pay")  # a double tap on "Paid"
    assert len(session.exec(select(RoundSettlement)).all()) == 1 and not again.is_open
    with pytest.raises(Conflict, match="settled"):
        undo_step(session, round_id=rnd.round.id, actor_id=table.carla, idempotency_key="u")


DEALT = RUSSIAN_STEPS[:4]  # three boxes and the dealer dealt, nobody has decided yet
REDEAL_BOX_2 = {"box": "2", "cards_received": 4}


def dealt_then_redeal(session: Session, table: Table, actor: int | None = None) -> live.LiveRound:
    """A round dealt, then the croupier (or ``actor``) presses Redeal: box 2 had 4 cards."""
    rnd = play(session, table, DEALT, begin(session, table).round.id)
    asked = record_step(session, round_id=rnd.round.id, actor_id=actor or table.carla,
                             type="redeal", payload=REDEAL_BOX_2, idempotency_key="redeal",
                             expected_seq=rnd.last_seq)
    session.commit()
    return asked


def test_a_croupiers_redeal_asks_for_a_void_and_leaves_the_round_open_and_frozen(
        session: Session, table: Table) -> None:
    before = play(session, table, DEALT, begin(session, table).round.id)
    rnd = step(session, table, before.round.id, "redeal", REDEAL_BOX_2, "redeal")
    assert rnd.round.status == RoundStatus.OPEN.value and rnd.void_pending
    assert rnd.phase == "Void requested — waiting for a pit boss"
    assert rnd.steps == () and not rnd.can_undo and rnd.summary()["next_steps"] == []
    assert [e.seq for e in rnd.events] == [e.seq for e in before.events]  # no event stored
    pending = voids.changes(session, round_id=rnd.round.id, status=voids.PENDING)
    assert [(c.kind, c.reason, c.requested_by) for c in pending] == \
        [("void", "redeal: box 2 received 4 cards", table.carla)]
    again = step(session, table, rnd.round.id, "redeal", REDEAL_BOX_2, "redeal-tap-2")
    assert again.void_pending and len(voids.changes(session, round_id=rnd.round.id)) == 1
    refused = [("bet", {"box": "1"}), ("undo", {}), ("paid", {}),
               ("redeal", {"box": "1", "cards_received": 6})]
    for n, (type, payload) in enumerate(refused):
        with pytest.raises(Conflict, match="waits for a pit boss"):
            step(session, table, rnd.round.id, type, payload, f"frozen-{n}")
        session.rollback()
    with pytest.raises(Conflict, match="waits for a pit boss to decide on its void"):
        begin(session, table, key="start-2")
    session.rollback()
    assert live.load(session, rnd.round.id).events == rnd.events


def test_a_redeal_with_five_cards_is_refused_and_asks_for_nothing(session: Session,
                                                                  table: Table) -> None:
    rnd = play(session, table, DEALT, begin(session, table).round.id)
    with pytest.raises(IllegalActionError, match="wrong number of cards"):
        step(session, table, rnd.round.id, "redeal", {"box": "2", "cards_received": 5}, "r5")
    session.rollback()
    assert voids.changes(session, round_id=rnd.round.id) == []
    assert not live.load(session, rnd.round.id).void_pending


def test_whoever_asked_for_the_redeal_cannot_approve_it(session: Session, table: Table) -> None:
    pavel = make_user(session, "pavel", "pit_boss")
    rnd = dealt_then_redeal(session, table, actor=pavel.id)  # a pit boss dealing the table
    request = voids.changes(session, round_id=rnd.round.id)[0]
    assert request.requested_by == pavel.id
    with pytest.raises(PermissionDenied, match="another pit boss"):
        voids.decide_change(session, request_id=request.id, approve=True, note="",
                            actor_id=pavel.id)
    session.rollback()
    with pytest.raises(PermissionDenied, match="may not approve"):
        voids.decide_change(session, request_id=request.id, approve=True, note="",
                            actor_id=table.carla)
    session.rollback()
    assert live.load(session, rnd.round.id).void_pending


def test_a_pit_boss_approval_voids_the_redealt_round_and_the_next_round_starts(
        session: Session, table: Table) -> None:
    pavel = make_user(session, "pavel", "pit_boss")
    rnd = dealt_then_redeal(session, table)
    request = voids.changes(session, round_id=rnd.round.id)[0]
    voids.decide_change(session, request_id=request.id, approve=True, note="Seen on camera",
                        actor_id=pavel.id)
    session.commit()
    voided = live.load(session, rnd.round.id)
    assert voided.round.status == RoundStatus.VOIDED.value and not voided.is_open
    assert voided.steps == () and voided.phase == "Round voided" and not voided.void_pending
    assert voided.void_request is not None and voided.void_request.status == voids.APPROVED
    assert engine_replay(voided) == voided.state  # the stored stream still replays
    assert session.exec(select(RoundSettlement)).all() == []
    assert live.open_round_id(session, table.id) is None
    with pytest.raises(Conflict, match="voided; it takes no more steps"):
        step(session, table, rnd.round.id, "bet", {"box": "1"}, "late")
    session.rollback()
    following = begin(session, table, key="start-2")
    assert following.round.number == rnd.round.number + 1 and following.is_open


def test_a_refused_redeal_returns_the_round_to_play_where_it_stopped(session: Session,
                                                                     table: Table) -> None:
    pavel = make_user(session, "pavel", "pit_boss")
    before = play(session, table, DEALT, begin(session, table).round.id)
    rnd = step(session, table, before.round.id, "redeal", REDEAL_BOX_2, "redeal")
    request = voids.changes(session, round_id=rnd.round.id)[0]
    voids.decide_change(session, request_id=request.id, approve=False,
                        note="Box 2 had five cards", actor_id=pavel.id)
    session.commit()
    resumed = live.load(session, rnd.round.id)
    assert resumed.is_open and not resumed.void_pending and resumed.steps == before.steps
    assert resumed.void_refused is not None and resumed.void_refused.note == \
        "Box 2 had five cards"
    assert resumed.phase == "Players decide" and resumed.can_undo
    for n, (type, payload) in enumerate(RUSSIAN_STEPS[4:]):
        step(session, table, rnd.round.id, type, payload, f"rest-{n}")
    paid = pay_round(session, round_id=rnd.round.id, actor_id=table.carla,
                    idempotency_key="pay")
    assert paid.round.status == RoundStatus.SETTLED.value


def test_a_misdeal_asked_for_from_the_rounds_page_freezes_the_round_the_same_way(
        session: Session, table: Table) -> None:
    maria = make_user(session, "maria", "shift_manager")
    rnd = play(session, table, DEALT, begin(session, table).round.id)
    request = voids.request_change(session, round_id=rnd.round.id, kind="void",
                                   reason="Misdeal: a dealer card fell face up",
                                   actor_id=table.carla)
    session.commit()
    frozen = live.load(session, rnd.round.id)
    assert frozen.void_pending and frozen.steps == ()
    with pytest.raises(Conflict, match="waits for a pit boss"):
        step(session, table, rnd.round.id, "bet", {"box": "1"}, "b")
    session.rollback()
    voids.decide_change(session, request_id=request.id, approve=True, note="",
                        actor_id=maria.id)
    session.commit()
    assert live.load(session, rnd.round.id).round.status == RoundStatus.VOIDED.value
    assert begin(session, table, key="start-2").is_open


def test_the_croupier_cannot_close_a_round_as_void_without_approval(session: Session,
                                                                    table: Table) -> None:
    rnd = play(session, table, DEALT, begin(session, table).round.id)
    with pytest.raises(IllegalActionError, match="pit boss's approval"):
        step(session, table, rnd.round.id, "void", {}, "v")
    session.rollback()
    after = live.load(session, rnd.round.id)
    assert after.is_open and after.events == rnd.events


def test_a_round_closed_by_a_void_event_before_approvals_existed_still_replays(
        session: Session, table: Table) -> None:
    rnd = play(session, table, DEALT, begin(session, table).round.id)
    for type, payload in (("redeal", {"box": "2", "cards_received": 6}), ("void", {})):
        old_event(session, round_id=rnd.round.id, type=type, payload=payload,
                  actor_id=table.carla, key=f"old-{type}")
    row = session.get(Round, rnd.round.id)
    assert row is not None
    row.status = RoundStatus.VOIDED.value
    session.add(row)
    session.commit()
    old = live.load(session, rnd.round.id)
    assert old.phase == "Round voided" and old.steps == ()
    assert old.engine.voided(old.state) == "box 2 received 6 cards"
    assert engine_replay(old) == old.state


def test_an_oasis_round_with_a_replacement_is_settled(session: Session) -> None:
    t = make_table(session, name="OP 1", game="oasis")
    carla = make_user(session)
    shifts.open_shift(session, table_id=t.id, user_id=carla.id)
    table = Table(t.id, carla.id)
    rnd = begin(session, table, boxes=[live.BoxStake("1", 50)])
    rnd = play(session, table, [
        ("deal_box", {"box": "1", "cards": "as kd 7h 4c 2s"}),
        ("deal_dealer", {"cards": "qs qd 5h 6h 9c"}),
        ("replace", {"box": "1", "discard": ["7h", "4c", "2s"], "draw": ["ad", "kc", "3h"]}),
        ("bet", {"box": "1"}), ("reveal", {})], rnd.round.id)
    paid = pay_round(session, round_id=rnd.round.id, actor_id=carla.id, idempotency_key="p")
    wagers = paid.stored_settlement["boxes"][0]["wagers"]  # type: ignore[index]
    assert (wagers["ante"]["net"], wagers["bet"]["net"], wagers["improvement_fee"]["net"]) == \
        (50, 200, -150)


def test_an_admin_cannot_record_steps(session: Session, table: Table) -> None:
    root = make_user(session, "root", "admin")
    with pytest.raises(PermissionDenied):
        start_round(session, table_id=table.id, actor_id=root.id, boxes=BOXES,
                         idempotency_key="x")

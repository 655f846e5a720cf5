"""Every round carries its own rules: the game, the full house-rules profile
as data with its hash and the table limits in force are stored when the round starts; replay,
settlement and the dispute review read only them. Rounds stored all cards first (the old event
shapes) replay to the same settlement; a database migrated from revision 0003 with rounds in it
gets their rules and still passes ``audit verify``."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from sqlmodel import Session

from dealer_assist import audit, db
from dealer_assist.models import Round, utcnow
from dealer_assist.rules import profiles as profile_registry
from dealer_assist.rules.games import GAMES
from dealer_assist.rules.games.registry import start
from dealer_assist.rules.profiles import get_profile, load_profile, profile_data, profile_hash
from dealer_assist.services.errors import Conflict
from dealer_assist.services.rounds import live
from dealer_assist.services.rounds import review as round_review
from dealer_assist.services.rounds import store as rounds
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import tables
from tests.factories import (
    insert_as_of_now,
    make_table,
    make_user,
    old_event,
    old_round,
    pay_round,
    table_spec,
)
from tests.services.test_live import Table, begin, play

#: dealing order: box 1 wins a full house (7 x BET 200 = 1400) against the dealer's pair
DEALING_ORDER: list[tuple[str, dict[str, Any]]] = [
    ("deal_dealer", {"up": []}),
    ("bet", {"box": "1"}),
    ("fold", {"box": "2"}),
    ("reveal", {"cards": ["Kh", "Kd", "4s", "5c", "6d"]}),
    ("show", {"box": "1", "cards": ["Qs", "Qd", "Qh", "2c", "2d"]}),
]
STAKES = [live.BoxStake("1", 100), live.BoxStake("2", 100)]


@pytest.fixture
def table(session: Session) -> Table:
    t = make_table(session, max_payout=1000)
    carla = make_user(session)
    shifts.open_shift(session, table_id=t.id, user_id=carla.id)
    session.commit()
    return Table(t.id, carla.id)


def paid_round(session: Session, table: Table) -> live.LiveRound:
    rnd = play(session, table, DEALING_ORDER, begin(session, table, STAKES).round.id)
    paid = pay_round(session, round_id=rnd.round.id, actor_id=table.carla, idempotency_key="pay")
    session.commit()
    return paid


def test_a_round_stores_its_game_its_whole_profile_and_the_limits_when_it_starts(
        session: Session, table: Table) -> None:
    rnd = begin(session, table, STAKES)
    row = session.get(Round, rnd.round.id)
    assert row is not None and row.rules
    rules = json.loads(row.rules)
    assert rules["game"] == "russian"
    assert rules["limits"] == {"min_ante": 10, "max_ante": 500, "max_payout": 1000}
    assert load_profile(rules["profile"]) == get_profile("russian-classic")
    assert rules["profile_hash"] == profile_hash(profile_data(get_profile("russian-classic")))


def test_the_review_still_says_a_paid_round_was_paid_right_after_the_table_and_the_code_change(
        session: Session, table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    paid = paid_round(session, table)
    box = paid.stored_settlement["boxes"][0] if paid.stored_settlement else {}
    assert box["net"] == 1000 and box["capped"]  # 1400 capped at the table's 1000
    # an admin lowers the maximum payout, and a new release changes the profile's pay table
    view = tables.get_table(session, table.id)
    tables.update_table(session, table.id, dataclasses.replace(
        tables.TableSpec(view.name, view.game, view.profile, view.min_ante, view.max_ante,
                         view.max_payout, view.boxes), max_payout=300))
    session.commit()
    changed = dataclasses.replace(get_profile("russian-classic"),
                                  pay_table={**get_profile("russian-classic").pay_table,
                                             "full_house": 3})
    monkeypatch.setitem(profile_registry._PROFILES, "russian-classic", changed)
    # replayed under today's table and code, the round would be settled differently ...
    engine, empty = start("russian", "russian-classic", 10, 500, 300)
    from dealer_assist.rules.engine import Event
    today = engine.settle(engine.replay(empty, [Event(e.seq, e.type, e.payload)
                                            for e in paid.events]).state)
    assert today.boxes[0].net != box["net"]
    # ... but the review reads the round's own rules and says it was paid right
    review = round_review.replay_round(session, paid.round.id)
    assert review.matches and review.differences == ()
    assert review.recomputed is not None and review.recomputed["boxes"][0]["net"] == 1000
    assert live.load(session, paid.round.id).settlement is not None


def test_table_limits_cannot_change_while_a_round_is_open(session: Session,
                                                          table: Table) -> None:
    begin(session, table, STAKES)
    view = tables.get_table(session, table.id)
    spec = tables.TableSpec(view.name, view.game, view.profile, view.min_ante, view.max_ante,
                            5000, view.boxes)
    with pytest.raises(Conflict, match="limits change after it is paid"):
        tables.update_table(session, table.id, spec)


def test_a_round_whose_stored_profile_was_altered_is_not_replayed_as_if_nothing_happened(
        session: Session, table: Table) -> None:
    rnd = begin(session, table, STAKES)
    row = session.get(Round, rnd.round.id)
    assert row is not None and row.rules
    rules = json.loads(row.rules)
    rules["profile"]["pay_table"]["full_house"] = 70
    row.rules = json.dumps(rules)
    session.flush()
    with pytest.raises(Exception, match="does not match its hash"):
        live.load(session, rnd.round.id)


#: a round stored before dealing order: every card first, the old shapes
OLD_SHAPE: list[tuple[str, dict[str, Any]]] = [
    ("deal_box", {"box": "1", "cards": ["As", "Ad", "Ah", "2c", "3d"]}),
    ("deal_box", {"box": "2", "cards": ["7s", "8s", "9d", "Jc", "2h"]}),
    ("deal_box", {"box": "3", "cards": ["Kc", "Qc", "4h", "6s", "9h"]}),
    ("deal_dealer", {"cards": ["Kh", "Qh", "4s", "5c", "6d"]}),
    ("exchange", {"box": "2", "discard": ["2h"], "draw": ["Td"]}),
    ("sixth_card", {"box": "3", "card": "Jh"}),
    ("bet", {"box": "1", "amount": 200}),
    ("insure", {"box": "1", "amount": 100}),
    ("bet", {"box": "2", "amount": 200}),
    ("bet", {"box": "3", "amount": 200}),
    ("reveal", {}),
    ("buy_game", {"box": "1"}),
    ("take_ante", {"box": "2"}),
    ("take_ante", {"box": "3"}),
    ("dealer_draw", {"cards": ["Js"]}),
]


def test_a_round_stored_in_the_old_all_cards_first_shape_replays_to_its_settlement(
        session: Session, table: Table) -> None:
    """Events written as they were before dealing order, straight into the store (as an old
    database holds them): replay, the review and the calculator agree."""
    rnd = old_round(session, shift_id=live.load(session, begin(
        session, table, [live.BoxStake("9", 100)], key="other").round.id).round.shift_id)
    # (the round above only opened the shift's numbering; this one is written as it was)
    row = session.get(Round, rnd.id)
    assert row is not None and row.rules is None  # written without rules: read with the table's
    old_event(session, round_id=rnd.id, type="place", payload={"boxes": [
        {"box": "1", "seat": "1", "ante": 100, "bonus": 50},
        {"box": "2", "seat": "2", "ante": 100, "bonus": 0},
        {"box": "3", "seat": "3", "ante": 100, "bonus": 0}]}, actor_id=table.carla, key="o0")
    for n, (type, payload) in enumerate(OLD_SHAPE, start=1):
        old_event(session, round_id=rnd.id, type=type, payload=payload, actor_id=table.carla,
                  key=f"o{n}")
    session.commit()
    loaded = live.load(session, rnd.id)
    assert loaded.settlement is not None
    body = {"profile": "russian-classic",
            "table": {"min_ante": 10, "max_ante": 500, "max_payout": 1000},
            "dealer": {"cards": ["Kh", "Qh", "4s", "5c", "6d"], "draw": ["Js"]},
            "boxes": [
                {"box": "1", "seat": "1", "ante": 100, "bonus": 50,
                 "cards": ["As", "Ad", "Ah", "2c", "3d"], "decision": "bet",
                 "insurance": 100, "on_no_game": "buy_game"},
                {"box": "2", "seat": "2", "ante": 100, "cards": ["7s", "8s", "9d", "Jc", "2h"],
                 "improvement": {"exchange": {"discard": ["2h"], "draw": ["Td"]}},
                 "decision": "bet", "on_no_game": "take_ante"},
                {"box": "3", "seat": "3", "ante": 100, "cards": ["Kc", "Qc", "4h", "6s", "9h"],
                 "improvement": {"sixth_card": "Jh"}, "decision": "bet",
                 "on_no_game": "take_ante"}]}
    expected = GAMES["russian"].settle_request(body).to_dict()
    assert loaded.settlement.to_dict()["boxes"] == expected["boxes"]
    paid = pay_round(session, round_id=rnd.id, actor_id=table.carla, idempotency_key="op")
    session.commit()
    assert round_review.replay_round(session, paid.round.id).matches


def test_a_database_migrated_from_0003_with_rounds_gets_their_rules_and_passes_audit_verify(
        empty_db_url: str) -> None:
    """At 0003 the staff and the table are written by the services, the rounds and their events
    with the columns 0003 had (Core inserts: the models now have ``rules``). Nothing is audited
    at 0003 here (today's audit entries have revision 0005's ``chain`` column): revision 0005's
    baseline describes those rows, and ``audit verify`` then checks them against the log."""
    engine = db.make_engine(empty_db_url)
    try:
        db.upgrade(engine, "0003")
        now = utcnow()
        with engine.begin() as conn:  # the user, table and shift with the columns 0003 had
            carla_id = insert_as_of_now(conn, "user_account", username="carla",
                                        display_name="Carla", role="croupier", password_hash="x",
                                        active=True, must_change_password=False, created_at=now)
            spec = table_spec(max_payout=1000)
            table_id = insert_as_of_now(
                conn, "game_table", name=spec.name, game=spec.game, profile=spec.profile,
                min_ante=spec.min_ante, max_ante=spec.max_ante, max_payout=spec.max_payout,
                boxes=spec.boxes, active=True, created_at=now)
            shift_id = insert_as_of_now(
                conn, "shift", table_id=table_id, gaming_date=now.date(), status="open",
                opened_by=carla_id, opened_at=now)
        events = [("place", {"boxes": [{"box": "1", "seat": "1", "ante": 100, "bonus": 0}]}),
                  OLD_SHAPE[0], OLD_SHAPE[3], ("bet", {"box": "1", "amount": 200}),
                  ("reveal", {}), ("take_ante", {"box": "1"})]
        with engine.begin() as conn:
            insert_as_of_now(conn, "game_round", id=1, table_id=table_id, shift_id=shift_id,
                             number=1, status="open", opened_at=now)
            for seq, (type, payload) in enumerate(events, start=1):
                insert_as_of_now(conn, "round_event", round_id=1, seq=seq, type=type,
                                 payload=rounds.encode_payload(payload), actor_id=carla_id,
                                 created_at=now, idempotency_key=f"k{seq}")
        db.upgrade(engine)
        with Session(engine) as session:
            row = session.get(Round, 1)
            assert row is not None and row.rules is not None
            rules = json.loads(row.rules)
            assert rules["limits"]["max_payout"] == 1000 and rules["game"] == "russian"
            loaded = live.load(session, 1)
            assert loaded.settlement is not None
            assert loaded.settlement.boxes[0].net == 100  # no game: ANTE paid 1:1
            result = audit.verify(session)
            assert result.problem is None and result.checked >= 2
    finally:
        engine.dispose()

""""A shift is the table's; a stint is the dealer's" and "Two people means two
authentications", on SQLite and PostgreSQL: reliefs and the dealer of record, the mid-round
relief, PINs throttled per account and per device, and every two-person act refused without the
second person's PIN (nothing stored).

RULES.md, "People at the table": "a round or hand is dealt by the dealer at the table when it
started (its dealer of record). A relief happens between rounds; in the middle of a round only
with a pit boss, and the round keeps its dealer of record. Separation of duties looks at the
dealer of record." -- "Two-person acts (opening and closing counts, fills, credits, a poker
float) are signed by two people, each authenticated; a name picked from a list is not a
signature"."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, func, text
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from dealer_assist import audit
from dealer_assist.models import (
    ActSignature,
    ChipTransfer,
    DealerStint,
    InventoryCount,
    Round,
    Shift,
    User,
    utcnow,
)
from dealer_assist.services.disputes import disputes
from dealer_assist.services.errors import (
    AuthenticationFailed,
    Conflict,
    PermissionDenied,
    Throttled,
    ValidationError,
)
from dealer_assist.services.people import cosign, pins, reliefs, stints
from dealer_assist.services.rounds import live, poker_hands
from dealer_assist.services.shifts import inventory, shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.factories import (
    PIN,
    SIGNED,
    cage_issue,
    make_table,
    make_user,
    pay_round,
    record_step,
    start_round,
)
from tests.services.test_disputes import STEPS, Floor, play

WRONG = cosign.Credential(pin="9753")
ON_TABLET = cosign.Credential(pin=PIN, device_id=None, origin="10.0.0.7")


@pytest.fixture
def floor(engine: Engine, session: Session) -> Floor:
    """Carla opened the table (her stint opens with the shift) and counted its float with
    Pavel; Dimitri, Petra (pit boss) and Maria (shift manager) are on the floor."""
    audit.install(engine)
    ids = [make_user(session, name, role).id for name, role in (
        ("carla", "croupier"), ("dimitri", "croupier"), ("pavel", "pit_boss"),
        ("petra", "pit_boss"), ("maria", "shift_manager"))]
    table = make_table(session)
    shift, _ = inventory.open_shift_with_count(
        session, table_id=table.id, actor_id=ids[0], croupier_id=ids[0], pit_boss_id=ids[2],
        chips={"100": 1000}, credential=SIGNED)
    session.commit()
    return Floor(*ids, table.id, shift.id)


def relieve(session: Session, floor: Floor, dealer: int, **kw: Any) -> stints.StintView:
    done = reliefs.relieve(session, table_id=floor.table_id,
                           relief=reliefs.Relief(dealer, kw.pop("credential", SIGNED), **kw))
    session.commit()
    return done


def test_the_croupier_who_counts_the_float_deals_first_and_records_the_rounds(
        session: Session, floor: Floor) -> None:
    now = stints.current(session, floor.shift_id)
    assert now is not None and (now.dealer_id, now.kind, now.ended_at) == (
        floor.croupier, "opening", None)
    rid = play(session, floor)
    assert session.get(Round, rid).dealer_id == floor.croupier  # type: ignore[union-attr]


def test_a_relief_between_rounds_makes_the_next_round_the_relief_dealers(
        session: Session, floor: Floor) -> None:
    """The Done-when walk on the services: A deals two, B relieves him and deals two, A
    relieves B; each round names its dealer; the stints end where the next begins."""
    rounds = [play(session, floor, dealer=floor.croupier) for _ in range(2)]
    relieve(session, floor, floor.croupier2)
    with pytest.raises(PermissionDenied, match="Dimitri deals at this table now"):
        play(session, floor, dealer=floor.croupier)
    session.rollback()
    rounds += [play(session, floor, dealer=floor.croupier2) for _ in range(2)]
    relieve(session, floor, floor.croupier)
    dealers = [session.get(Round, r).dealer_id for r in rounds]  # type: ignore[union-attr]
    assert dealers == [floor.croupier] * 2 + [floor.croupier2] * 2
    history = stints.of_shift(session, floor.shift_id)
    assert [(s.dealer, s.kind) for s in history] == [("Carla", "opening"),
                                                     ("Dimitri", "relief"), ("Carla", "relief")]
    assert history[0].ended_at == history[1].started_at and history[2].ended_at is None


def test_a_relief_mid_round_needs_a_pit_boss_pin_and_the_round_keeps_its_dealer(
        session: Session, floor: Floor) -> None:
    rid = play(session, floor, pay=False)
    with pytest.raises(ValidationError, match="needs a pit boss") as err:
        relieve(session, floor, floor.croupier2)
    assert err.value.field == "pit_boss"
    session.rollback()
    with pytest.raises(AuthenticationFailed, match="Wrong PIN for Pavel") as err2:
        relieve(session, floor, floor.croupier2, pit_boss_id=floor.pit_boss,
                pit_credential=WRONG)
    assert err2.value.field == "pit_pin"
    session.rollback()
    done = relieve(session, floor, floor.croupier2, pit_boss_id=floor.pit_boss,
                   pit_credential=SIGNED)
    assert (done.kind, done.round_id, done.authorized_by) == ("mid_round", rid, floor.pit_boss)
    pay_round(session, round_id=rid, actor_id=floor.croupier2, idempotency_key="paid-by-b")
    session.commit()
    assert session.get(Round, rid).dealer_id == floor.croupier  # type: ignore[union-attr]
    signed = session.exec(select(ActSignature.act, ActSignature.user_id)
                          .where(ActSignature.entity == "dealer_stint")).all()
    assert sorted(signed) == sorted([("relief", floor.croupier2),
                                     ("relief_mid_round", floor.pit_boss)])


def test_the_dealer_of_record_decides_no_dispute_on_his_round(session: Session,
                                                              floor: Floor) -> None:
    """Separation of duties looks at the dealer of record: Petra (a pit boss) took the table
    and dealt; Pavel recorded every step of her round from his own terminal. Petra may not
    decide the dispute on it although she recorded nothing."""
    relieve(session, floor, floor.pit_boss2)
    rnd = start_round(session, table_id=floor.table_id, actor_id=floor.pit_boss,
                           boxes=[live.BoxStake("1", 100, 50), live.BoxStake("2", 100)],
                           idempotency_key="p-start")
    assert rnd.round.dealer_id == floor.pit_boss2
    for n, (type, payload) in enumerate(STEPS):
        record_step(session, round_id=rnd.round.id, actor_id=floor.pit_boss, type=type,
                         payload=payload, idempotency_key=f"p{n}")
    pay_round(session, round_id=rnd.round.id, actor_id=floor.pit_boss, idempotency_key="pp")
    dispute = disputes.file_dispute(session, round_id=rnd.round.id, box="2", claim="short",
                                    claimed_amount=100, croupier_note="", actor_id=floor.pit_boss)
    session.commit()
    with pytest.raises(PermissionDenied, match="You dealt or recorded this round"):
        disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=50,
                        note="mine", actor_id=floor.pit_boss2)
    session.rollback()
    assert disputes.decide(session, dispute_id=dispute.id, outcome="denied", note="camera",
                           actor_id=floor.manager).status == "denied"


def test_a_dealer_deals_at_one_table_at_a_time(session: Session, floor: Floor) -> None:
    other = make_table(session, name="RP 2")
    shifts.open_shift(session, table_id=other.id, user_id=floor.pit_boss)
    session.commit()
    relieve(session, floor, floor.croupier2)
    with pytest.raises(Conflict, match="Dimitri deals at RP 1 now: a relief there comes first"):
        reliefs.relieve(session, table_id=other.id, relief=reliefs.Relief(floor.croupier2,
                                                                          SIGNED))
    session.rollback()
    with pytest.raises(Conflict, match="already deals at this table"):
        relieve(session, floor, floor.croupier2)
    session.rollback()
    reliefs.relieve(session, table_id=other.id, relief=reliefs.Relief(floor.croupier, SIGNED))
    assert stints.dealing_now(session, floor.croupier).table_id == other.id  # type: ignore[union-attr]


def test_a_relief_refuses_a_wrong_pin_a_missing_pin_and_an_auditor(session: Session,
                                                                   floor: Floor) -> None:
    with pytest.raises(ValidationError, match="enter your PIN") as missing:
        relieve(session, floor, floor.croupier2, credential=cosign.NONE)
    assert missing.value.field == "pin"
    session.rollback()
    with pytest.raises(AuthenticationFailed):
        relieve(session, floor, floor.croupier2, credential=WRONG)
    session.commit()  # the failure counts; nothing else was written
    assert len(stints.of_shift(session, floor.shift_id)) == 1
    audrey = make_user(session, "audrey", "auditor")
    with pytest.raises(ValidationError, match="may sign this"):
        relieve(session, floor, audrey.id)


def test_a_pit_boss_in_his_own_session_signs_without_a_pin(session: Session,
                                                           floor: Floor) -> None:
    """"his own signed-in session": the signer is the one signed in on the request (the pit
    may step in at any table)."""
    done = relieve(session, floor, floor.pit_boss2,
                   credential=cosign.Credential(signed_in=floor.pit_boss2))
    assert done.dealer_id == floor.pit_boss2
    method = session.exec(select(ActSignature.method).order_by(
        col(ActSignature.id).desc())).first()
    assert method == "session"


def test_a_croupier_signed_in_elsewhere_takes_no_table_with_or_without_his_pin(
        session: Session, floor: Floor) -> None:
    """"A croupier takes any table from his own browser without a PIN". RULES.md:
    "a croupier acts only at the table he is dealing (its device or his own stint there)": from
    his own browser Dimitri takes no table, his session or his PIN; on the table's device he
    does (the device's own table only)."""
    from dealer_assist.services.tables import devices

    for credential in (cosign.Credential(signed_in=floor.croupier2),
                       cosign.Credential(pin=PIN, signed_in=floor.croupier2)):
        with pytest.raises(PermissionDenied, match="takes a table on its tablet"):
            relieve(session, floor, floor.croupier2, credential=credential)
        session.rollback()
    other = make_table(session, name="RP 2")
    elsewhere, _ = devices.bind(session, table_id=other.id, actor_id=floor.pit_boss)
    mine, _ = devices.bind(session, table_id=floor.table_id, actor_id=floor.pit_boss)
    session.commit()
    with pytest.raises(PermissionDenied, match="not the device of this table"):
        relieve(session, floor, floor.croupier2,
                credential=cosign.Credential(pin=PIN, device_id=elsewhere.id))
    session.rollback()
    assert stints.current(session, floor.shift_id).dealer_id == floor.croupier  # type: ignore
    done = relieve(session, floor, floor.croupier2,
                   credential=cosign.Credential(pin=PIN, device_id=mine.id))
    assert done.dealer_id == floor.croupier2


def test_a_hand_at_a_poker_table_names_the_dealer_tapped_in(session: Session,
                                                           floor: Floor) -> None:
    table = poker_tables.open_table(session, name="PK 1", profile="draw32-limit",
                                    stakes={"small_blind": 10}, seat_count=4)
    shift, _ = inventory.open_shift_with_count(
        session, table_id=table.id, actor_id=floor.pit_boss, croupier_id=floor.croupier,
        pit_boss_id=floor.pit_boss, chips={"100": 100}, credential=SIGNED)
    for n, name in enumerate(("Ann", "Bob")):
        poker_tables.seat_player(session, table.id, seat=str(n + 1), player=name, buy_in=500)
    reliefs.relieve(session, table_id=table.id, relief=reliefs.Relief(floor.croupier2, SIGNED))
    hand = poker_hands.start_hand(session, table_id=table.id, user_id=floor.croupier2)
    session.commit()
    assert hand.round.dealer_id == floor.croupier2
    with pytest.raises(PermissionDenied, match="Dimitri deals at this table now"):
        poker_hands.start_hand(session, table_id=table.id, user_id=floor.croupier)
    session.rollback()
    with pytest.raises(ValidationError, match="needs a pit boss"):
        reliefs.relieve(session, table_id=table.id, relief=reliefs.Relief(floor.croupier,
                                                                          SIGNED))
    assert shift.id is not None


# --- PINs throttled like the login ------------------------------------------------------------

def _tries(session: Session, floor: Floor, device: str, n: int, user: int | None = None) -> None:
    for _ in range(n):
        with pytest.raises(AuthenticationFailed):
            relieve(session, floor, user or floor.croupier2,
                    credential=cosign.Credential(pin="9753", origin=device))
        session.commit()


def test_pins_are_throttled_per_account_and_device(session: Session, floor: Floor) -> None:
    _tries(session, floor, "tablet-1", 5)
    with pytest.raises(Throttled) as locked:
        relieve(session, floor, floor.croupier2,
                credential=cosign.Credential(pin=PIN, origin="tablet-1"))
    assert locked.value.retry_after > 0
    session.rollback()
    # another tablet still lets him in (the per-account limit across devices is 10) ...
    relieve(session, floor, floor.croupier2,
            credential=cosign.Credential(pin=PIN, origin="tablet-2"))


def test_pins_are_throttled_per_account_across_devices(session: Session, floor: Floor) -> None:
    for n in range(5):
        _tries(session, floor, f"tablet-{n}", 2)
    with pytest.raises(Throttled):
        relieve(session, floor, floor.croupier2,
                credential=cosign.Credential(pin=PIN, origin="tablet-9"))


def test_pins_are_throttled_per_device_across_accounts(session: Session, floor: Floor) -> None:
    """One tablet guessing many people's PINs is locked for everyone after 20 failures."""
    people = [make_user(session, f"dealer{n}", "croupier").id for n in range(5)]
    session.commit()
    for person in people:
        _tries(session, floor, "tablet-x", 4, user=person)
    with pytest.raises(Throttled):
        relieve(session, floor, floor.croupier2,
                credential=cosign.Credential(pin=PIN, origin="tablet-x"))


def test_the_lock_runs_out(session: Session, floor: Floor) -> None:
    user = session.get(User, floor.croupier2)
    assert user is not None
    later = utcnow() + timedelta(hours=1)
    _tries(session, floor, "tablet-1", 5)
    assert pins.lock_remaining(session, user, "ip:tablet-1") > 0
    assert pins.lock_remaining(session, user, "ip:tablet-1", now=later) == 0


# --- two people, two authentications: every act ------------------------------------------------

def _count(session: Session, model: Any) -> int:
    return int(session.exec(select(func.count()).select_from(model)).one())


_n = itertools.count(1)
def _issued(session: Session, floor: Floor, kind: str) -> int:
    """The cage's waiting issue of that kind for the floor's shift, or a new one."""
    from dealer_assist.services.cage import issues

    waiting = [i.id for i in issues.of_shift(session, floor.shift_id, waiting=True)
               if i.kind == kind]
    return waiting[0] if waiting else cage_issue(session, floor.shift_id, kind, 5000)


ACTS: dict[str, Callable[[Session, Floor, cosign.Credential | None], Any]] = {
    "opening count": lambda s, f, c: inventory.open_shift_with_count(
        s, table_id=make_table(s, name=f"RP 9-{next(_n)}").id, actor_id=f.croupier2,
        croupier_id=f.croupier2,
        pit_boss_id=f.pit_boss, chips={"100": 10}, credential=c),
    "fill": lambda s, f, c: inventory.record_transfer(
        s, shift_id=f.shift_id, kind="fill", amount=5000, croupier_id=f.croupier,
        issue_id=_issued(s, f, "fill"),
        pit_boss_id=f.pit_boss, actor_id=f.pit_boss, credential=c),
    "credit": lambda s, f, c: inventory.record_transfer(
        s, shift_id=f.shift_id, kind="credit", amount=5000, croupier_id=f.croupier,
        issue_id=_issued(s, f, "credit"),
        pit_boss_id=f.pit_boss, actor_id=f.pit_boss, credential=c),
    "closing count": lambda s, f, c: inventory.close_shift(
        s, shift_id=f.shift_id, closing_amount=100_000, croupier_id=f.croupier,
        pit_boss_id=f.pit_boss, actor_id=f.pit_boss, credential=c),
    "poker float": lambda s, f, c: inventory.open_shift_with_count(
        s, table_id=poker_tables.open_table(s, name=f"PK 9-{next(_n)}", profile="draw32-limit",
                                            stakes={"small_blind": 10}, seat_count=4).id,
        actor_id=f.pit_boss, croupier_id=f.croupier2, pit_boss_id=f.pit_boss,
        chips={"100": 10}, credential=c),
}
#: the PIN each act asks for: the signer who is not the one recording it
FIELDS = {"opening count": "pit_boss_pin", "fill": "croupier_pin", "credit": "croupier_pin",
          "closing count": "croupier_pin", "poker float": "croupier_pin"}


def _stored(session: Session) -> tuple[int, ...]:
    closed = session.exec(select(func.count()).select_from(Shift)
                          .where(Shift.status == "closed")).one()
    return (_count(session, InventoryCount), _count(session, ChipTransfer),
            _count(session, Shift), int(closed), _count(session, ActSignature))


@pytest.mark.parametrize("act", sorted(ACTS))
def test_a_two_person_act_without_the_second_persons_pin_is_refused_and_stores_nothing(
        session: Session, floor: Floor, act: str) -> None:
    if act in ("fill", "credit"):  # the cage issued it before the table signs
        cage_issue(session, floor.shift_id, act, 5000)
        session.commit()
    before = _stored(session)
    for credential in (None, cosign.Credential(pin=""),
                       cosign.Credential(signed_in=floor.croupier)):
        with pytest.raises(ValidationError, match="enter your PIN") as missing:
            ACTS[act](session, floor, credential)
        assert missing.value.field == FIELDS[act]
        session.rollback()
    with pytest.raises(AuthenticationFailed, match="Wrong PIN") as wrong:
        ACTS[act](session, floor, WRONG)
    assert wrong.value.field == FIELDS[act]
    session.commit()  # the failed attempt counts; nothing else is written
    assert _stored(session) == before
    ACTS[act](session, floor, SIGNED)
    session.commit()
    after = _stored(session)
    assert after != before and after[-1] == before[-1] + 2  # both signatures stored
    methods = session.exec(select(ActSignature.method).order_by(
        col(ActSignature.id).desc()).limit(2)).all()
    assert sorted(methods) == ["pin", "session"]


def test_a_pit_boss_without_a_pin_cannot_co_sign_until_he_sets_one(session: Session,
                                                                   floor: Floor) -> None:
    nopin = make_user(session, "nikolai", "pit_boss", pin=None)
    session.commit()
    with pytest.raises(ValidationError, match="has no PIN yet"):
        inventory.open_shift_with_count(
            session, table_id=make_table(session, name="RP 8").id, actor_id=floor.croupier2,
            croupier_id=floor.croupier2, pit_boss_id=nopin.id, chips={"100": 1},
            credential=SIGNED)
    session.rollback()
    pins.set_pin(session, nopin.id, password="correct horse battery", pin="8642",
                 confirm="8642")
    inventory.open_shift_with_count(
        session, table_id=make_table(session, name="RP 8").id, actor_id=floor.croupier2,
        croupier_id=floor.croupier2, pit_boss_id=nopin.id, chips={"100": 1},
        credential=cosign.Credential(pin="8642"))


def test_a_stint_is_append_only(session: Session, floor: Floor) -> None:
    with pytest.raises(DBAPIError):
        session.exec(text("UPDATE dealer_stint SET dealer_id = dealer_id"))  # type: ignore[call-overload]
    session.rollback()
    assert _count(session, DealerStint) == 1


# --- per-dealer figures (item 7) ----------------------------------------------------------------

def test_each_dealers_stints_rounds_voids_corrections_and_disputes_are_his_own(
        session: Session, floor: Floor) -> None:
    from dealer_assist.services import reports
    from dealer_assist.services.reports import dealers
    from dealer_assist.services.rounds import voids

    opened = session.get(Shift, floor.shift_id).opened_at  # type: ignore[union-attr]
    carla = [play(session, floor, dealer=floor.croupier) for _ in range(2)]
    reliefs.relieve(session, table_id=floor.table_id, now=opened + timedelta(minutes=30),
                    relief=reliefs.Relief(floor.croupier2, SIGNED))
    mine = [play(session, floor, dealer=floor.croupier2) for _ in range(2)]
    voided = play(session, floor, dealer=floor.croupier2, pay=False)
    asked = voids.request_change(session, round_id=voided, kind="void", reason="misdeal",
                                 actor_id=floor.croupier2)
    voids.decide_change(session, request_id=asked.id, approve=True, note="",
                        actor_id=floor.pit_boss)
    voids.request_change(session, round_id=mine[0], kind="correction", reason="short pay",
                         box="2", amount=50, actor_id=floor.pit_boss)
    upheld = disputes.file_dispute(session, round_id=mine[1], box="2", claim="x",
                                   claimed_amount=10, croupier_note="", actor_id=floor.croupier2)
    disputes.decide(session, dispute_id=upheld.id, outcome="upheld", adjustment=10, note="ok",
                    actor_id=floor.pit_boss)
    reliefs.relieve(session, table_id=floor.table_id, now=opened + timedelta(minutes=90),
                    relief=reliefs.Relief(floor.croupier, SIGNED))
    session.commit()
    lines = {d["name"]: d for d in reports.build_shift_report(session,
                                                              floor.shift_id)["dealers"]}
    assert list(lines) == ["Carla", "Dimitri"]
    dimitri, carla_line = lines["Dimitri"], lines["Carla"]
    assert [s["minutes"] for s in dimitri["stints"]] == [60] and dimitri["minutes"] == 60
    assert (dimitri["rounds"], dimitri["settled"], dimitri["voided"]) == (3, 2, 1)
    assert dimitri["per_hour"] == "3.00"
    assert (dimitri["corrections_requested"], dimitri["disputes_upheld"]) == (1, 1)
    assert len(carla_line["stints"]) == 2 and carla_line["stints"][1]["to"] is None
    assert (carla_line["rounds"], carla_line["voided"], carla_line["disputes_upheld"]) == (
        2, 0, 0)
    assert carla_line["minutes"] == 30 and carla_line["per_hour"] == "4.00"
    assert len(carla) == 2
    page = dealers.dealer_page(session, floor.croupier2, zone=None, now=utcnow())
    assert page["totals"]["rounds"] == 3 and page["totals"]["stints"] == 1
    assert page["shifts"][0]["table"] == "RP 1"


def test_rounds_per_hour_are_exact_decimals() -> None:
    from dealer_assist.services.reports.dealers import per_hour

    assert per_hour(3, 60) == "3.00" and per_hour(1, 45) == "1.33" and per_hour(2, 45) == "2.67"
    assert per_hour(5, 0) is None and per_hour(0, 10) == "0.00"


def test_a_dealer_who_starts_a_round_where_nobody_is_tapped_in_leaves_his_other_table(
        session: Session, floor: Floor) -> None:
    """The floor showed one dealer dealing AM 1, DR 1 and OA 1 at once. A
    table where nobody is tapped in gave its next round to whoever started it (a ``start``
    stint) while he still counted as dealing at his other tables. RULES.md: "a round or hand is
    dealt by the dealer at the table when it started"; a dealer deals at one table at a time:
    starting there moves him (refused while a round of his other table is being dealt)."""
    other = make_table(session, name="OA 1", game="oasis")
    # Carla deals at RP 1; she counts OA 1's float too, so she is its staff, not its dealer
    shifts.open_shift(session, table_id=other.id, user_id=floor.croupier)
    poker = poker_tables.open_table(session, name="DR 1", profile="draw32-limit",
                                    stakes={"small_blind": 10}, seat_count=4)
    shifts.open_shift(session, table_id=poker.id, user_id=floor.pit_boss)  # nobody tapped in
    for n, name in enumerate(("Ann", "Bob")):
        poker_tables.seat_player(session, poker.id, seat=str(n + 1), player=name, buy_in=500)
    session.commit()
    rp1 = play(session, floor, pay=False)  # a round being dealt at RP 1
    with pytest.raises(Conflict, match="Carla deals at RP 1 now: a relief there comes first"):
        start_round(session, table_id=other.id, actor_id=floor.croupier,
                         boxes=[live.BoxStake("1", 100)], idempotency_key="oa-1")
    session.rollback()
    pay_round(session, round_id=rp1, actor_id=floor.croupier, idempotency_key="pay-rp1")
    started = start_round(session, table_id=other.id, actor_id=floor.croupier,
                               boxes=[live.BoxStake("1", 100)], idempotency_key="oa-2")
    session.commit()
    assert started.round.dealer_id == floor.croupier
    assert stints.current(session, floor.shift_id) is None  # RP 1: nobody tapped in now
    assert stints.current_dealer_id(session, floor.shift_id) is None
    assert stints.dealing_now(session, floor.croupier).table_id == other.id  # type: ignore[union-attr]
    # the pit boss steps in at DR 1, then at RP 1: one table at a time
    hand = poker_hands.start_hand(session, table_id=poker.id, user_id=floor.pit_boss)
    session.commit()
    assert hand.round.dealer_id == floor.pit_boss
    with pytest.raises(Conflict, match="Pavel deals at DR 1 now"):
        start_round(session, table_id=floor.table_id, actor_id=floor.pit_boss,
                         boxes=[live.BoxStake("1", 100)], idempotency_key="rp-3")
    session.rollback()
    dealing: dict[int, list[int]] = {}
    for stint in stints.current_by_shift(session).values():
        dealing.setdefault(stint.dealer_id, []).append(stint.table_id or 0)
    assert dealing == {floor.croupier: [other.id], floor.pit_boss: [poker.id]}

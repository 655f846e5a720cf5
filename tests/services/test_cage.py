"""Issue 27 on SQLite and PostgreSQL: buy-ins, numbered slips and their voids, the soft count
by two authenticated counters, win = closing - opening + credits - fills + drop and hold =
win / drop against a hand computation, and the variance named by its cause."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import Engine, text
from sqlmodel import Session, select

from dealer_assist.db import make_engine
from dealer_assist.models import Round, RoundEvent, Slip
from dealer_assist.services.cage import buyins, drop, slips, win
from dealer_assist.services.errors import (
    AuthenticationFailed,
    Conflict,
    PermissionDenied,
    ValidationError,
)
from dealer_assist.services.people import cosign
from dealer_assist.services.reports import hold, sections
from dealer_assist.services.rounds import store as rounds
from dealer_assist.services.shifts import inventory, shifts
from tests.factories import PIN, SIGNED, make_table
from tests.services.conftest_reports import (
    T0,
    Floor,
    make_floor,
    open_inventory,
    play_shift,
    stored_settlements,
)

END = T0 + timedelta(hours=13)
#: two counters, each by his PIN on the count room's device
BY_PIN = cosign.Credential(pin=PIN)


@pytest.fixture
def floor(session: Session) -> Floor:
    made = make_floor(session)
    session.commit()
    return made


def _buy(session: Session, floor: Floor, amount: int, minutes: int, seat: str = "1") -> None:
    buyins.record_buy_in(session, table_id=floor.table_id, amount=amount,
                         actor_id=floor.croupier, seat=seat,
                         now=T0 + timedelta(minutes=minutes))


def _settled_by_hand(session: Session, floor: Floor) -> int:
    """The house's win from the stored settlement JSON, summed here (not by the services)."""
    return -sum(int(box["net"]) for s in stored_settlements(session, floor.shift_id)
                for box in s["boxes"])


def _count(session: Session, floor: Floor, cash: dict[int, int], note: str = "",
           threshold: int = 100) -> drop.DropView:
    return drop.soft_count(session, table_id=floor.table_id, gaming_date=T0.date(), cash=cash,
                           counter_a=floor.pit_boss, counter_b=floor.manager,
                           credential_a=BY_PIN, credential_b=BY_PIN, actor_id=floor.pit_boss,
                           note=note, note_threshold=threshold, now=END)


def _seeded_shift(session: Session, floor: Floor, *, tray_error: int = 0) -> int:
    """A shift of 30 rounds with three buy-ins (31,500), a fill and a credit; the closing count
    is what the tray must hold (minus ``tray_error``). Returns the hand-computed settled win."""
    open_inventory(session, floor, opening=200_000, fills=(50_000,), credits=(20_000,))
    for amount, minutes in ((10_000, 2), (20_000, 200), (1_500, 500)):
        _buy(session, floor, amount, minutes)
    play_shift(session, floor, 30, hours=10)
    settled = _settled_by_hand(session, floor)
    closing = 200_000 + 50_000 - 20_000 + settled - 31_500 - tray_error
    inventory.close_shift(session, shift_id=floor.shift_id, closing_amount=closing,
                          croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                          actor_id=floor.pit_boss, credential=SIGNED, now=END)
    session.commit()
    return settled


def test_win_and_hold_equal_the_hand_computation_and_the_variance_is_zero_when_all_agree(
        session: Session, floor: Floor) -> None:
    settled = _seeded_shift(session, floor)
    counted = _count(session, floor, {5000: 6, 1000: 1, 500: 1})  # 31,500 in the box
    session.commit()
    assert counted.amount == 31_500 and counted.variance == 0
    closing = 200_000 + 50_000 - 20_000 + settled - 31_500
    by_hand = closing - 200_000 + 20_000 - 50_000 + 31_500  # closing-opening+credits-fills+drop
    day = win.day_money(session, floor.table_id, T0.date())
    assert day.win == by_hand == settled
    assert day.variance == 0 and day.differences() == []
    assert day.shifts[0].win == by_hand  # the shift's win with the recorded buy-ins as drop
    hundredths = (2 * abs(by_hand) * 10000 + 31_500) // (2 * 31_500)
    sign = "-" if by_hand < 0 else ""
    report = hold.build_hold_report(session, T0.date(), band=hold.Band())
    line = report["tables"][0]
    assert line["day"]["hold"]["percent"] == f"{sign}{hundredths // 100}.{hundredths % 100:02d}"
    assert line["day"]["win"] == line["mtd"]["win"] == line["ytd"]["win"] == by_hand
    assert line["day"]["drop"] == 31_500 and line["day"]["variance"] == 0


def test_a_planted_error_is_named_by_its_cause_tray_and_drop(session: Session,
                                                            floor: Floor) -> None:
    settled = _seeded_shift(session, floor, tray_error=500)  # 500 in chips missing
    with pytest.raises(ValidationError) as refused:  # 1,000 more cash than recorded
        _count(session, floor, {5000: 6, 1000: 2, 500: 1})
    assert refused.value.field == "note"
    session.rollback()
    _count(session, floor, {5000: 6, 1000: 2, 500: 1}, note="a 1,000 buy-in not recorded")
    session.commit()
    day = win.day_money(session, floor.table_id, T0.date())
    assert day.win == settled - 500 + 1000
    assert day.variance == 500
    assert day.differences() == [{"cause": "drop", "amount": 1000},
                                 {"cause": "tray", "amount": -500}]
    line = hold.build_hold_report(session, T0.date(), band=hold.Band())["tables"][0]
    assert line["day"]["differences"] == [{"cause": "drop", "amount": 1000},
                                          {"cause": "tray", "amount": -500}]


def test_a_buy_in_mid_round_leaves_the_round_exactly_as_it_was(session: Session,
                                                               floor: Floor) -> None:
    rnd = rounds.start_round(session, shift_id=floor.shift_id, now=T0 + timedelta(minutes=1))
    rounds.append_event(session, round_id=rnd.id, type="place",
                        payload={"boxes": [{"box": "1", "seat": "1", "ante": 100}]},
                        actor_id=floor.croupier, idempotency_key="p",
                        now=T0 + timedelta(minutes=1))
    session.commit()
    before = [(e.seq, e.type, e.payload) for e in session.exec(
        select(RoundEvent).where(RoundEvent.round_id == rnd.id))]
    bought = buyins.record_buy_in(session, table_id=floor.table_id, amount=5_000,
                                  actor_id=floor.croupier, seat="3", player="C-1007",
                                  now=T0 + timedelta(minutes=2))
    session.commit()
    after = [(e.seq, e.type, e.payload) for e in session.exec(
        select(RoundEvent).where(RoundEvent.round_id == rnd.id))]
    assert after == before
    stored = session.get(Round, rnd.id)
    assert stored is not None and stored.status == "open"
    assert (bought.round_id, bought.round_number, bought.seat) == (rnd.id, 1, "3")
    assert buyins.total_of_shift(session, floor.shift_id) == 5_000


def test_a_double_tap_records_the_buy_in_once(session: Session, floor: Floor) -> None:
    args = {"table_id": floor.table_id, "actor_id": floor.croupier, "key": "form-1"}
    first = buyins.record_buy_in(session, amount=5_000, seat="2", **args)
    again = buyins.record_buy_in(session, amount=5_000, seat="2", **args)
    session.commit()
    assert first.created and not again.created and again.id == first.id
    assert buyins.total_of_shift(session, floor.shift_id) == 5_000
    with pytest.raises(Conflict):
        buyins.record_buy_in(session, amount=7_000, seat="2", **args)


@pytest.mark.parametrize("amount", [0, -1, 10**11])
def test_a_buy_in_is_a_positive_plausible_whole_amount(session: Session, floor: Floor,
                                                       amount: int) -> None:
    with pytest.raises(ValidationError):
        buyins.record_buy_in(session, table_id=floor.table_id, amount=amount,
                             actor_id=floor.croupier)


def test_the_soft_count_needs_two_authenticated_counters(session: Session,
                                                         floor: Floor) -> None:
    _seeded_shift(session, floor)
    cash = {5000: 6, 1000: 1, 500: 1}
    args = {"table_id": floor.table_id, "gaming_date": T0.date(), "cash": cash,
            "actor_id": floor.pit_boss}
    with pytest.raises(AuthenticationFailed):
        drop.soft_count(session, counter_a=floor.pit_boss, counter_b=floor.manager,
                        credential_a=BY_PIN, credential_b=cosign.Credential(pin="9147"), **args)
    session.rollback()
    with pytest.raises(ValidationError) as missing:  # a name from a list is no signature
        drop.soft_count(session, counter_a=floor.pit_boss, counter_b=floor.manager,
                        credential_a=BY_PIN, credential_b=None, **args)
    assert missing.value.field == "counter_b_pin"
    with pytest.raises(ValidationError):
        drop.soft_count(session, counter_a=floor.pit_boss, counter_b=floor.pit_boss,
                        credential_a=BY_PIN, credential_b=BY_PIN, **args)
    with pytest.raises(ValidationError):  # a croupier does not count his table's drop
        drop.soft_count(session, counter_a=floor.pit_boss, counter_b=floor.croupier,
                        credential_a=BY_PIN, credential_b=BY_PIN, **args)
    session.rollback()
    own = cosign.Credential(signed_in=floor.pit_boss)  # his own session signs for him
    counted = drop.soft_count(session, counter_a=floor.pit_boss, counter_b=floor.manager,
                              credential_a=own, credential_b=BY_PIN, **args)
    session.commit()
    assert counted.counters == ("Pavel", "Maria")
    methods = session.execute(text("SELECT method FROM act_signature WHERE entity = "
                                   "'drop_count' ORDER BY id")).scalars().all()
    assert methods == ["session", "pin"]
    with pytest.raises(Conflict):
        drop.soft_count(session, counter_a=floor.pit_boss, counter_b=floor.manager,
                        credential_a=BY_PIN, credential_b=BY_PIN, **args)


def test_the_drop_is_counted_only_after_the_days_shift_closed(session: Session,
                                                              floor: Floor) -> None:
    with pytest.raises(Conflict):
        _count(session, floor, {})


def _fill(session: Session, floor: Floor, amount: int, shift_id: int | None = None
          ) -> inventory.TransferView:
    return inventory.record_transfer(session, shift_id=shift_id or floor.shift_id, kind="fill",
                                     amount=amount, croupier_id=floor.croupier,
                                     pit_boss_id=floor.pit_boss, actor_id=floor.pit_boss,
                                     credential=SIGNED)


def test_a_void_keeps_the_slip_and_its_number_and_the_fill_no_longer_counts(
        session: Session, floor: Floor) -> None:
    first, second = _fill(session, floor, 5_000), _fill(session, floor, 7_000)
    session.commit()
    assert (first.slip, second.slip) == (1, 2)
    with pytest.raises(ValidationError) as own:  # nobody approves what he requested
        slips.void_slip(session, number=1, reason="never brought", actor_id=floor.pit_boss,
                        signer_id=floor.pit_boss, credential=BY_PIN)
    assert own.value.field == "signer_id"
    with pytest.raises(ValidationError):
        slips.void_slip(session, number=1, reason=" ", actor_id=floor.pit_boss,
                        signer_id=floor.croupier, credential=BY_PIN)
    voided = slips.void_slip(session, number=1, reason="never brought",
                             actor_id=floor.pit_boss, signer_id=floor.croupier,
                             credential=BY_PIN)
    session.commit()
    assert voided.void is not None and voided.void.signed_by == "Carla"
    assert session.exec(select(Slip).where(Slip.number == 1)).one().amount == 5_000
    inv = inventory.inventory_of(session, floor.shift_id)
    assert inv.fills == 7_000 and [t.void for t in inv.transfers] == [True, False]
    with pytest.raises(Conflict):
        slips.void_slip(session, number=1, reason="again", actor_id=floor.pit_boss,
                        signer_id=floor.croupier, credential=BY_PIN)
    account = slips.accounting(session, T0.date(), END.date() + timedelta(days=400))
    assert [(s["number"], s["status"]) for s in account["slips"]] == [(1, "void"), (2, "used")]
    assert account["gaps"] == []


def test_the_accounting_flags_a_gap_in_the_numbers(session: Session, floor: Floor) -> None:
    _fill(session, floor, 5_000)
    session.commit()
    row = session.exec(select(Slip)).one()
    session.add(Slip(number=3, kind="fill", table_id=row.table_id, shift_id=row.shift_id,
                     game=row.game, gaming_date=row.gaming_date, amount=1,
                     croupier_id=row.croupier_id, pit_boss_id=row.pit_boss_id))
    session.commit()
    assert slips.accounting(session, T0.date(), END.date() + timedelta(days=400))["gaps"] == [2]


def test_slip_numbers_never_repeat_across_tables_concurrent_fills_and_restarts(
        engine: Engine, db_url: str, session: Session, floor: Floor) -> None:
    shift_ids = [floor.shift_id]
    for name in ("RP 2", "RP 3", "RP 4"):
        table = make_table(session, name=name)
        shift_ids.append(shifts.open_shift(session, table_id=table.id, user_id=floor.croupier,
                                           now=T0).id)
    session.commit()
    errors: list[BaseException] = []
    per_table = 5

    def tablet(shift_id: int, eng: Engine) -> None:
        try:
            for i in range(per_table):
                with Session(eng, expire_on_commit=False) as own:
                    _fill(own, floor, 100 + i, shift_id)
                    own.commit()
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=tablet, args=(s, engine)) for s in shift_ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    engine.dispose()
    restarted = make_engine(db_url, busy_timeout_ms=5000)  # the server starts again
    try:
        tablet(shift_ids[1], restarted)
        with Session(restarted) as fresh:
            numbers = [s.number for s in fresh.exec(select(Slip).order_by(Slip.number))]
            tables = {s.table_id for s in fresh.exec(select(Slip))}
    finally:
        restarted.dispose()
    assert errors == []
    total = per_table * (len(shift_ids) + 1)
    assert numbers == list(range(1, total + 1))
    assert len(tables) == 4


def test_the_opener_and_closer_get_slips_too(session: Session, floor: Floor) -> None:
    _seeded_shift(session, floor)
    kinds = [s.kind for s in slips.of_shift(session, floor.shift_id)]
    assert kinds == ["opener", "fill", "credit", "closer"]
    closer = slips.of_shift(session, floor.shift_id)[-1]
    assert closer.signed and {m for _n, m in closer.signed} == {"session", "pin"}


def test_a_hold_outside_the_band_is_flagged_until_read_with_its_note(session: Session,
                                                                    floor: Floor) -> None:
    _seeded_shift(session, floor)
    _count(session, floor, {5000: 6, 1000: 1, 500: 1})
    session.commit()
    band = hold.Band(base_bp=100_000, points_bp=1)  # 1000 %: nothing real is inside
    line = hold.build_hold_report(session, T0.date(), band=band)["tables"][0]
    assert line["day"]["outside"] and line["mtd"]["outside"] and line["day"]["notes"] == []
    from dealer_assist.services.cage import notes
    with pytest.raises(PermissionDenied):
        notes.write_note(session, table_id=floor.table_id, period="day", day=T0.date(),
                         note="checked", actor_id=floor.pit_boss)
    notes.write_note(session, table_id=floor.table_id, period="day", day=T0.date(),
                     note="a big winner, camera checked", actor_id=floor.manager, now=END)
    session.commit()
    line = hold.build_hold_report(session, T0.date(), band=band)["tables"][0]
    assert [n["note"] for n in line["day"]["notes"]] == ["a big winner, camera checked"]
    assert line["mtd"]["notes"] == []
    with pytest.raises(NotImplementedError):
        hold.band_from({"mode": "lab"})


def test_a_year_to_date_hold_outside_the_band_is_flagged_like_the_day_and_the_month(
        session: Session, floor: Floor) -> None:
    """Issue 35 item 14: the YTD row was not flagged when outside the band while the day and
    MTD rows were (only those two were compared)."""
    _seeded_shift(session, floor)
    _count(session, floor, {5000: 6, 1000: 1, 500: 1})
    session.commit()
    band = hold.Band(base_bp=100_000, points_bp=1)  # 1000 %: nothing real is inside
    line = hold.build_hold_report(session, T0.date(), band=band)["tables"][0]
    assert line["day"]["outside"] and line["mtd"]["outside"] and line["ytd"]["outside"]
    assert line["ytd"]["notes"] == []  # notes are kept per day and per month
    inside = hold.build_hold_report(session, T0.date(), band=hold.Band(0, 10**9))
    assert not any(inside["tables"][0][p]["outside"] for p in hold.PERIODS)


def test_the_shift_report_counts_the_buy_ins_in_its_reconciliation(session: Session,
                                                                   floor: Floor) -> None:
    _seeded_shift(session, floor)
    from dealer_assist.services import reports
    data = reports.build_shift_report(session, floor.shift_id)
    assert data["inventory"]["buy_ins"] == 31_500
    assert data["inventory"]["variance_corrected"] == 0
    assert sections.ratio(1, 2)["percent"] == "50.00"


def test_the_settled_win_is_the_shift_reports_win_after_corrections(session: Session,
                                                                    floor: Floor) -> None:
    """The hold report reads a period's settlements in one pass; its settled win must be the
    shift report's "win after corrections", a correction paid after the round included."""
    from dealer_assist.models import RoundCorrection
    from dealer_assist.services import reports

    _seeded_shift(session, floor)
    rnd = session.exec(select(Round).where(Round.status == "settled")).first()
    assert rnd is not None and rnd.id is not None
    session.add(RoundCorrection(round_id=rnd.id, table_id=floor.table_id,
                                shift_id=floor.shift_id, box="1", amount=120,
                                source="correction", reason="overpaid by the book",
                                approved_by=floor.manager))
    session.commit()
    report = reports.build_shift_report(session, floor.shift_id)
    day = win.day_money(session, floor.table_id, T0.date())
    assert day.settled == report["after_corrections"]["house_win"]
    assert day.settled == _settled_by_hand(session, floor) - 120
    assert day.shifts[0].tray == report["inventory"]["tray"]

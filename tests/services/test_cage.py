"""On SQLite and PostgreSQL: buy-ins, numbered slips and their voids, the soft count
by two authenticated counters, win = closing - opening + credits - fills + drop and hold =
win / drop against a hand computation, and the variance named by its cause."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import Engine, text
from sqlmodel import Session, col, select

from dealer_assist.db import make_engine
from dealer_assist.models import Round, RoundEvent, Slip, User
from dealer_assist.services.cage import buyins, drop, issues, slips, win
from dealer_assist.services.errors import (
    AuthenticationFailed,
    Conflict,
    PermissionDenied,
    ValidationError,
)
from dealer_assist.services.people import cosign
from dealer_assist.services.reports import hold, sections
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import inventory, shifts
from tests.factories import PIN, SIGNED, cage_issue, make_table, make_user, start_round
from tests.services.conftest_reports import (
    T0,
    Floor,
    make_floor,
    open_inventory,
    play_shift,
    stored_settlements,
)

END = T0 + timedelta(hours=13)
#: the two members of the count team who count the drop
TEAM = ("kira", "kostya")
#: two counters, each by his PIN on the count room's device
BY_PIN = cosign.Credential(pin=PIN)


@pytest.fixture
def floor(session: Session) -> Floor:
    made = make_floor(session)
    for name in TEAM:  # the count team, independent of the pit
        make_user(session, name, "count_team")
    session.commit()
    return made


def _team(session: Session) -> tuple[int, int]:
    """The two count team members' ids."""
    found = {u.username: u.id for u in session.exec(select(User).where(
        col(User.username).in_(TEAM))).all()}
    return found[TEAM[0]] or 0, found[TEAM[1]] or 0


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
    kira, kostya = _team(session)
    return drop.soft_count(session, table_id=floor.table_id, gaming_date=T0.date(), cash=cash,
                           counter_a=kira, counter_b=kostya,
                           credential_a=BY_PIN, credential_b=BY_PIN, actor_id=kira,
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
    rnd = start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                      boxes=[live.BoxStake("1", 100)], idempotency_key="p").round
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
    kira, kostya = _team(session)
    cash = {5000: 6, 1000: 1, 500: 1}
    args = {"table_id": floor.table_id, "gaming_date": T0.date(), "cash": cash,
            "actor_id": kira}
    with pytest.raises(AuthenticationFailed):
        drop.soft_count(session, counter_a=kira, counter_b=kostya,
                        credential_a=BY_PIN, credential_b=cosign.Credential(pin="9147"), **args)
    session.rollback()
    with pytest.raises(ValidationError) as missing:  # a name from a list is no signature
        drop.soft_count(session, counter_a=kira, counter_b=kostya,
                        credential_a=BY_PIN, credential_b=None, **args)
    assert missing.value.field == "counter_b_pin"
    with pytest.raises(ValidationError):
        drop.soft_count(session, counter_a=kira, counter_b=kira,
                        credential_a=BY_PIN, credential_b=BY_PIN, **args)
    with pytest.raises(ValidationError):  # a croupier does not count his table's drop
        drop.soft_count(session, counter_a=kira, counter_b=floor.croupier,
                        credential_a=BY_PIN, credential_b=BY_PIN, **args)
    session.rollback()
    own = cosign.Credential(signed_in=kira)  # her own session signs for her
    counted = drop.soft_count(session, counter_a=kira, counter_b=kostya,
                              credential_a=own, credential_b=BY_PIN, **args)
    session.commit()
    assert counted.counters == ("Kira", "Kostya")
    methods = session.execute(text("SELECT method FROM act_signature WHERE entity = "
                                   "'drop_count' ORDER BY id")).scalars().all()
    assert methods == ["session", "pin"]
    with pytest.raises(Conflict):
        drop.soft_count(session, counter_a=kira, counter_b=kostya,
                        credential_a=BY_PIN, credential_b=BY_PIN, **args)


def test_the_pit_counts_no_drop_only_the_count_team_does(session: Session,
                                                         floor: Floor) -> None:
    """RULES.md, "People at the table": "the drop box is counted by the count team, who are
    independent of the pit (no pit boss, shift manager or croupier counts the drop)"; "An
    administrator ... takes no part in counts"."""
    _seeded_shift(session, floor)
    kira, kostya = _team(session)
    args = {"table_id": floor.table_id, "gaming_date": T0.date(),
            "cash": {5000: 6, 1000: 1, 500: 1}, "credential_a": BY_PIN, "credential_b": BY_PIN}
    for outsider in (floor.pit_boss, floor.manager, floor.admin, floor.croupier):
        with pytest.raises(PermissionDenied):  # records it, with two counters of the team
            drop.soft_count(session, counter_a=kira, counter_b=kostya, actor_id=outsider,
                            **args)
        for a, b, field in ((outsider, kostya, "counter_a_pin"),
                            (kira, outsider, "counter_b_pin")):
            with pytest.raises(ValidationError) as refused:  # signs as a counter
                drop.soft_count(session, counter_a=a, counter_b=b, actor_id=kira, **args)
            assert refused.value.field == field
    assert drop.counters(session) == [(kira, "Kira"), (kostya, "Kostya")]
    assert drop.soft_count(session, counter_a=kira, counter_b=kostya, actor_id=kostya,
                           **args).amount == 31_500


def test_the_drop_is_counted_only_after_the_days_shift_closed(session: Session,
                                                              floor: Floor) -> None:
    with pytest.raises(Conflict):
        _count(session, floor, {})


def _fill(session: Session, floor: Floor, amount: int, shift_id: int | None = None
          ) -> inventory.TransferView:
    shift_id = shift_id or floor.shift_id
    return inventory.record_transfer(session, shift_id=shift_id, kind="fill",
                                     issue_id=cage_issue(session, shift_id, "fill", amount),
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
    make_user(session, "cleo", "cage_cashier")  # the cage issues every fill
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
    """The YTD row was not flagged when outside the band while the day and
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


def test_the_cage_issues_fills_and_credits_and_the_table_signs_for_them(
        session: Session, floor: Floor) -> None:
    """RULES.md, "People at the table": "fill and credit slips are issued by the cage and
    signed at the table by the dealer and the pit"; nobody approves what he requested."""
    cleo = make_user(session, "cleo", "cage_cashier").id
    sign = {"shift_id": floor.shift_id, "croupier_id": floor.croupier,
            "pit_boss_id": floor.pit_boss, "actor_id": floor.pit_boss, "credential": SIGNED}
    with pytest.raises(ValidationError) as unissued:  # the pit writes no fill of its own
        inventory.record_transfer(session, issue_id=None, kind="fill", amount=5_000, **sign)
    assert unissued.value.field == "issue_id"
    for pit in (floor.pit_boss, floor.manager, floor.admin, floor.croupier):
        with pytest.raises(PermissionDenied):  # the pit issues no slip
            issues.issue(session, kind="fill", table_id=floor.table_id, amount=5_000,
                         actor_id=pit)
    fill = issues.issue(session, kind="fill", table_id=floor.table_id, amount=5_000,
                        actor_id=cleo)
    credit = issues.issue(session, kind="credit", table_id=floor.table_id, amount=2_000,
                          actor_id=cleo)
    session.commit()
    assert [i.id for i in issues.of_shift(session, floor.shift_id, waiting=True)] == [
        fill.id, credit.id]
    with pytest.raises(ValidationError) as other:  # the table counts what the cage issued
        inventory.record_transfer(session, issue_id=fill.id, amount=4_000, **sign)
    assert other.value.field == "amount"
    with pytest.raises(ValidationError):
        inventory.record_transfer(session, issue_id=fill.id, kind="credit", **sign)
    with pytest.raises(ValidationError):  # the cashier cannot sign for the table
        inventory.record_transfer(session, issue_id=fill.id, **{**sign, "croupier_id": cleo})
    session.rollback()
    done = inventory.record_transfer(session, issue_id=fill.id, chips={"1000": 5}, **sign)
    session.commit()
    assert (done.kind, done.amount) == ("fill", 5_000)
    with pytest.raises(Conflict):  # signed for once
        inventory.record_transfer(session, issue_id=fill.id, **sign)
    session.rollback()
    slip = slips.get_slip(session, done.slip or 0)
    assert (slip.cashier, slip.croupier, slip.pit_boss) == ("Cleo", "Carla", "Pavel")
    assert [i.id for i in issues.of_shift(session, floor.shift_id, waiting=True)] == [
        credit.id]
    inventory.record_transfer(session, issue_id=credit.id, **sign)
    session.commit()
    inv = inventory.inventory_of(session, floor.shift_id)
    assert (inv.fills, inv.credits) == (5_000, 2_000)
    signers = session.execute(text(
        "SELECT entity, user_id, method FROM act_signature WHERE entity IN "
        "('cage_issue', 'chip_transfer') ORDER BY id")).all()
    assert [tuple(r) for r in signers] == [
        ("cage_issue", cleo, "session"), ("cage_issue", cleo, "session"),
        ("chip_transfer", floor.pit_boss, "session"), ("chip_transfer", floor.croupier, "pin"),
        ("chip_transfer", floor.pit_boss, "session"), ("chip_transfer", floor.croupier, "pin")]


def test_the_cage_sends_chips_only_to_a_table_with_an_open_shift(session: Session,
                                                                floor: Floor) -> None:
    cleo = make_user(session, "cleo", "cage_cashier").id
    other = make_table(session, name="RP 2")
    with pytest.raises(Conflict):
        issues.issue(session, kind="fill", table_id=other.id, amount=5_000, actor_id=cleo)
    for kind, amount in (("bonus", 5_000), ("fill", 0), ("fill", -1)):
        with pytest.raises(ValidationError):
            issues.issue(session, kind=kind, table_id=floor.table_id, amount=amount,
                         actor_id=cleo)
    assert issues.open_tables(session) == [(floor.table_id, "RP 1")]


def test_a_casino_that_wants_three_counters_gets_three_authenticated_signatures(
        session: Session, floor: Floor) -> None:
    """RULES.md, "People at the table": "how many members sign is a casino setting, at least
    two (Nevada and Mississippi require three)"."""
    _seeded_shift(session, floor)
    kira, kostya = _team(session)
    kim = make_user(session, "kim", "count_team").id
    session.commit()
    args = {"table_id": floor.table_id, "gaming_date": T0.date(), "actor_id": kira,
            "cash": {5000: 6, 1000: 1, 500: 1}, "credential_a": BY_PIN, "credential_b": BY_PIN,
            "counter_a": kira, "counter_b": kostya, "signers": 3}
    with pytest.raises(ValidationError) as short:
        drop.soft_count(session, **args)
    assert short.value.field == "counter_c"
    with pytest.raises(ValidationError) as twice:
        drop.soft_count(session, more=[(kira, BY_PIN)], **args)
    assert twice.value.field == "counter_c"
    with pytest.raises(ValidationError) as unsigned:  # a name from a list is no signature
        drop.soft_count(session, more=[(kim, None)], **args)
    assert unsigned.value.field == "counter_c_pin"
    with pytest.raises(ValidationError):  # the pit is no member of the count team
        drop.soft_count(session, more=[(floor.pit_boss, BY_PIN)], **args)
    session.rollback()
    counted = drop.soft_count(session, more=[(kim, BY_PIN)], **args)
    session.commit()
    assert counted.counters == ("Kira", "Kostya", "Kim")
    signed = session.execute(text("SELECT user_id FROM act_signature WHERE entity = "
                                  "'drop_count' ORDER BY id")).scalars().all()
    assert signed == [kira, kostya, kim]

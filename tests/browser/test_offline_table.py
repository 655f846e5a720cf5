"""The table keeps dealing when the network drops, in real Chromium on the tables'
bound devices (the device session deals: no login): rounds dealt while the server cannot be
reached are checked and drawn by the tablet's own engine (the server's dealer_assist.tablet in
Pyodide), queued durably (a reload offline loses nothing), and sent in order through the normal
record path once the server answers again. RULES.md, "People at the table": "Offline at the
table: only round steps may be recorded while the server cannot be reached; the server
re-checks every queued step on reconnect and its stored events are the record."

"Done when" of the network cut (``context.set_offline``), the server process killed
and started again mid-round, a round voided by a pit boss while its tablet is offline. The
assertions that need the server side (branch i34-floor: the tapped time, the
refusal kept, the floor page) run once it is merged (``offline_table.FLOOR``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist import create_app, db
from dealer_assist.services.shifts import shifts
from tests.browser import offline_table as off
from tests.browser.conftest import Server
from tests.browser.offline_table import Dealer
from tests.conftest import FAST_ARGON2
from tests.factories import make_table, make_user

pytestmark = pytest.mark.browser


# --- the rounds, tap by tap -------------------------------------------------------------------

def russian_full(t: Dealer) -> None:
    """An exchange, a sixth card, insurance, a bought game, two ANTEs taken, the dealer's
    draw, paid (tests/browser/test_one_tap.py's Russian round)."""
    t.start({"1": "100", "2": "100", "3": "50"}, bonus={"1": "50"})
    t.box_tap("2", "exchange", "1")
    t.box_tap("3", "sixth_card")
    t.box_tap("1", "bet")
    insure(t, "1", "100", "As Ad Ah 2c 3d")
    t.box_tap("2", "bet")
    t.box_tap("3", "bet")
    t.card_taps("Kh Qh 4s 5c 6d")
    t.box_tap("1", "buy_game")
    t.box_tap("2", "take_ante")
    t.box_tap("3", "take_ante")
    t.card_taps("6h")
    t.paid()


def insure(t: Dealer, box: str, amount: str, hand: str) -> None:
    t.opens(f'article.box[data-box="{box}"] [data-step="insure"]')
    t.type('.entry input[name="amount"]', amount)
    t.card_taps(hand, records=False)  # the limit's refinement needs the server: not offline
    t.records(".entry [data-record]")


def russian_fold(t: Dealer) -> None:
    """A fold, a BET, the dealer qualifies, the box shows its hand."""
    t.start({"1": "100", "2": "100"})
    t.box_tap("2", "fold")
    t.box_tap("1", "bet")
    t.card_taps("Kh Kd 4s 5c 6d")
    t.card_taps("As Ad Ah 2c 3d")
    t.paid()


def oasis_round(t: Dealer) -> None:
    """The dealer's up card, a replacement of two cards, a BET, a fold, the showdown."""
    t.start({"1": "50", "2": "20"})
    t.card_taps("8c")
    t.box_tap("1", "replace", "2")
    t.box_tap("1", "bet")
    t.box_tap("2", "fold")
    t.card_taps("Qs Qd 5h 6h")
    t.card_taps("As Ad Kc 3h 2s")
    t.paid()


def check_back(server: Server, page: Any, table: int, queued: list[dict[str, Any]],
               shown: list[dict[str, Any]], lang: str,
               known: dict[str, int] | None = None) -> list[int]:
    """Once the queue went out: the stored events are the queued steps, in order, once; the
    rounds numbered by the server in the order they were dealt; every screen drawn offline is
    the server's for the same events. Returns the rounds' ids in the order they were dealt."""
    refs = off.ids(page, table)
    for item in queued:
        ref = str(item["round_ref"])
        refs.setdefault(ref, int(ref) if ref.isdigit() else -1)
    assert -1 not in refs.values(), refs
    off.stored_once_in_order(server, queued, refs)
    order: list[int] = []
    for item in queued:
        rid = refs[str(item["round_ref"])]
        if rid not in order:
            order.append(rid)
    numbers = {rid: number for rid, number, _status in off.rounds_of(server, table)}
    dealt = [numbers[rid] for rid in order]
    assert dealt == sorted(dealt) and len(set(dealt)) == len(dealt), dealt
    assert off.compare_screens(server, shown, refs, lang, known) >= len(queued)
    return order


# --- 1. the network cut -------------------------------------------------------------------------

def test_three_russian_rounds_and_an_oasis_round_dealt_with_the_network_cut_are_stored_as_queued(
        chromium: Any, server: Server, request: pytest.FixtureRequest) -> None:
    """Three Russian rounds (an exchange, a sixth card, insurance, a bought game, a fold) on RP
    1's tablet and an Oasis round (a replacement) on OP 1's, all with the network cut, RP 1's
    page reloaded once while offline; back online, each tablet's queue is stored exactly as it
    was queued and every screen drawn offline is the server's own, in Russian."""
    lang, rp, op = "ru", server.tables["russian"], server.tables["oasis"]
    name = request.node.name
    off.deals(server, op, "dora")  # a dealer deals at one table at a time: Carla deals RP 1
    with off.device(chromium, server, rp) as rp_tablet, \
            off.device(chromium, server, op) as op_tablet:
        page, t = off.open_screen(rp_tablet, server, rp, lang, name)
        o_page, o = off.open_screen(op_tablet, server, op, lang, name + "-oasis")
        rp_tablet.set_offline(True)
        op_tablet.set_offline(True)
        russian_full(t)
        assert page.locator("[data-offline-banner]").is_visible()
        t.shots("offline-paid")
        russian_fold(t)
        t.start({"1": "100", "2": "50"})  # the third round: reloaded in its middle
        t.box_tap("2", "fold")
        t.shots("provisional")
        assert page.locator("[data-round-title]").inner_text().count("(") == 1  # provisional
        shown = off.trail(page)
        page.reload()
        page.wait_for_selector('article.box[data-box="1"]')
        t.shots("reloaded-offline")
        t.box_tap("1", "sixth_card")
        t.box_tap("1", "bet")
        t.card_taps("Kh Kd 4s 5c 6d")
        t.card_taps("As Ad Ah 2c 3d 7h")
        t.paid()
        shown += off.trail(page)
        queued = off.queue(page, rp)
        assert [i["type"] for i in queued].count("place") == 3, queued
        oasis_round(o)
        o_shown, o_queued = off.trail(o_page), off.queue(o_page, op)
        assert page.locator("[data-offline-banner]").inner_text().count(str(len(queued))) >= 1
        assert o_page.locator("[data-offline-banner]").is_visible()
        o.shots("oasis-offline-paid")

        rp_tablet.set_offline(False)
        op_tablet.set_offline(False)
        off.synced(page)
        t.shots("back-online")
        off.synced(o_page)
        o.shots("oasis-back-online")
        russian = check_back(server, page, rp, queued, shown, lang)
        oasis = check_back(server, o_page, op, o_queued, o_shown, lang)
    assert len(russian) == 3 and len(oasis) == 1
    assert [s for _id, _n, s in off.rounds_of(server, rp)] == ["settled"] * 3


# --- 2. the server process killed mid-round ------------------------------------------------------

@pytest.fixture
def process_server(tmp_path: Path) -> Iterator[tuple[Server, off.Process]]:
    """The app in a subprocess on a fixed free port (``kill -9`` it, start it again), on the
    same SQLite file as the test's own app object."""
    url = f"sqlite:///{tmp_path / 'process.sqlite3'}"
    app = create_app({"SECRET_KEY": "browser-test", "DATABASE_URL": url, **FAST_ARGON2})
    db.upgrade(db.get_engine(app))
    with db.session_scope(app) as dbs:
        carla = make_user(dbs, "carla", "croupier")
        t = make_table(dbs, name="RP 1", game="russian", boxes=5)
        shifts.open_shift(dbs, table_id=t.id, user_id=carla.id)
        ids = {"russian": t.id}
    process = off.Process(url, off.free_port())
    process.start()
    try:
        yield Server(f"http://127.0.0.1:{process.port}", app, ids), process
    finally:
        process.stop()
        db.dispose(app)


def test_a_round_dealt_while_the_server_process_is_killed_and_restarted_is_stored_as_queued(
        chromium: Any, process_server: tuple[Server, off.Process],
        request: pytest.FixtureRequest) -> None:
    """The round starts online; the server process is killed (``kill -9``) after the first
    BET: the tablet keeps dealing (insurance, a bought game) on its own engine; the server is
    started again on the same port mid-round and the tablet sends its queue by itself, in
    order, exactly once; then the next round goes online as ever."""
    server, process = process_server
    rp, lang = server.tables["russian"], "en"
    with off.device(chromium, server, rp) as tablet:
        page, t = off.open_screen(tablet, server, rp, lang, request.node.name)
        t.start({"1": "100", "2": "100", "3": "50"}, bonus={"1": "50"})
        t.box_tap("2", "exchange", "1")
        t.box_tap("3", "sixth_card")
        t.box_tap("1", "bet")
        (rid, number, _status), = off.rounds_of(server, rp)
        seen = off.events_of(server, rid)[-1].seq
        process.kill()
        insure(t, "1", "100", "As Ad Ah 2c 3d")
        assert page.locator("[data-offline-banner]").is_visible()
        t.shots("server-killed")
        t.box_tap("2", "bet")
        t.box_tap("3", "bet")
        t.card_taps("Kh Qh 4s 5c 6d")
        t.box_tap("1", "buy_game")
        queued, shown = off.queue(page, rp), off.trail(page)
        assert [i["type"] for i in queued] == ["insure", "bet", "bet", "reveal", "buy_game"]
        assert len(off.events_of(server, rid)) == seen  # nothing reached the server
        process.start()
        off.synced(page)
        t.shots("server-back")
        check_back(server, page, rp, queued, shown, lang, known={str(rid): seen})
        t.box_tap("2", "take_ante")  # online again: straight to the server
        t.box_tap("3", "take_ante")
        t.card_taps("6h")
        t.paid()
        assert off.trail(page) == shown, "a tap went to the tablet's engine while online"
    (_id, again, status), = off.rounds_of(server, rp)
    assert (again, status) == (number, "settled")


# --- 3. a round voided while its tablet is offline ------------------------------------------------

def void_round(server: Server, round_id: int) -> None:
    """A pit boss asks for the round's void and a shift manager approves it (the services,
    as tests/services/test_floor.py does)."""
    from dealer_assist.services.rounds import voids

    with db.session_scope(server.app) as dbs:
        pavel = off.user(dbs, "pavel", "pit_boss")
        mila = off.user(dbs, "mila", "shift_manager")
        asked = voids.request_change(dbs, round_id=round_id, kind="void",
                                     reason="cards seen by a player", actor_id=pavel)
        voids.decide_change(dbs, request_id=asked.id, approve=True, note="camera",
                            actor_id=mila)


#: the refused step said on the tablet: the round, the step's own label, why (the server's words)
REFUSED = {"en": ("Round 1", "voided"), "ru": ("Раунд 1", "аннулирован")}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_round_voided_while_its_tablet_is_offline_shows_the_refused_step_and_stores_nothing(
        chromium: Any, server: Server, lang: str, request: pytest.FixtureRequest) -> None:
    """The round starts online; the network drops; the croupier records two BETs on the
    tablet; meanwhile a pit boss voids the round. Back online, the first queued step is refused
    (the round was voided): the tablet says which step and why, the steps after it are not
    sent, nothing else of that round is stored (the server's stored events are the record),
    and the floor page shows the refusal. Then a new round starts offline (provisional) and is
    stored once back. Photographed at 768x1024 and 1024x768."""
    rp = server.tables["russian"]
    with off.device(chromium, server, rp) as tablet:
        page, t = off.open_screen(tablet, server, rp, lang, request.node.name)
        t.start({"1": "100", "2": "100"})
        t.box_tap("2", "exchange", "1")
        (rid, _number, _status), = off.rounds_of(server, rp)
        before = [(e.seq, e.type, e.idempotency_key) for e in off.events_of(server, rid)]
        tablet.set_offline(True)
        t.box_tap("1", "bet")
        t.box_tap("2", "bet")
        assert page.locator("[data-offline-banner]").is_visible()
        off.both_sizes(page, t, "offline-banner")
        queued = off.queue(page, rp)
        assert [i["type"] for i in queued] == ["bet", "bet"]
        void_round(server, rid)
        # the queue goes; its first step is refused: the banner says so, then the page reloads
        # (the server's round is the record): wait for that reload, not the banner before it
        with page.expect_navigation(timeout=60_000):
            tablet.set_offline(False)
        page.wait_for_load_state("load")
        refused = page.wait_for_selector("[data-offline-refused]")
        words = refused.inner_text()
        number, why = REFUSED[lang]
        assert number in words and why in words, words
        assert off.queue(page, rp) == []  # not sent: kept with the reason, not queued
        off.both_sizes(page, t, "refused-step")
        after = [(e.seq, e.type, e.idempotency_key) for e in off.events_of(server, rid)]
        assert after == before, "a step of a voided round was stored"
        assert [s for _id, _n, s in off.rounds_of(server, rp)] == ["voided"]
        if off.FLOOR:  # after the i34-floor merge: the refusal kept, the floor page shows it
            kept = off.refusals(server, rid)
            assert [(k.type, k.idempotency_key, k.status) for k in kept] == [
                ("bet", queued[0]["key"], 409)]
            floor_shows_refusal(chromium, server, lang, request.node.name)
        off.readable(page, "[data-offline-refused]")
        off.readable(page, "[data-offline-read]")
        page.click("[data-offline-read]")
        assert page.locator("[data-offline-refused]").count() == 0

        tablet.set_offline(True)  # a new round, started offline: provisional
        t.start({"1": "100"})
        title = page.locator("[data-round-title]").inner_text()
        assert ("provisional" if lang == "en" else "предвар") in title, title
        off.both_sizes(page, t, "provisional-round")
        new = off.queue(page, rp)
        shown = off.trail(page)
        tablet.set_offline(False)
        off.synced(page)
        check_back(server, page, rp, new, shown, lang)
        assert len(off.rounds_of(server, rp)) == 2


def floor_shows_refusal(chromium: Any, server: Server, lang: str, name: str) -> None:
    """The pit boss's floor page lists the refused offline step (after the i34-floor merge)."""
    from tests.browser.conftest import Shots
    from tests.factories import PASSWORD

    context = chromium.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.goto(f"{server.url}/login")
        page.fill('input[name="username"]', "pavel")
        page.fill('input[name="password"]', PASSWORD)
        page.click('button[type="submit"]')
        page.wait_for_load_state("load")
        page.goto(f"{server.url}/floor?pit=*")
        refusal = page.locator("[data-refusal]")
        assert refusal.count() == 1
        words = refusal.inner_text()  # Pavel reads English
        assert "Round 1" in words and "voided" in words, words
        Shots(page, name + "-floor")("floor-refusal")
    finally:
        context.close()


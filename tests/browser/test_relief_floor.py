"""The "Done when" in real Chromium: one table device at 768x1024 where dealer A deals two
Russian poker rounds, dealer B relieves him (taps counted: at most 3 plus the PIN's digits) and
deals two, A relieves B; the pit's floor page, open in a second browser at 1024x768, shows each
step (a bounded wait of 5 s, no timing assertion beyond it); the shift report names both dealers
with two rounds each; B cannot decide a dispute on his round. The same relief on a poker table.
The floor page is photographed at 1024x768 and 1920x1080 in both languages, the relief screens
at 768x1024 (``test-artifacts/browser/<test>/``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import create_app, db
from dealer_assist.models import Round, User
from dealer_assist.services.disputes import disputes
from dealer_assist.services.shifts import inventory, shifts
from dealer_assist.services.tables import poker as poker_tables
from dealer_assist.services.tables import tables
from tests.browser.conftest import LAYOUT, Server, Shots, served
from tests.browser.test_live_round import settle
from tests.conftest import FAST_ARGON2
from tests.factories import PASSWORD, PIN, SIGNED, make_table, make_user, start_round

pytestmark = pytest.mark.browser
#: the floor page must show a step within this bound (the page polls every second here)
WITHIN_MS = 5_000
TARGETS = ("[data-relief] a.button, [data-relief] button, [data-relief] input:not([type=hidden]),"
           " [data-dealer-bar] a.button")


@pytest.fixture
def floor_server(tmp_path: Path) -> Iterator[Server]:
    """Carla, Dimitri and Nina (croupiers), Pavel and Petra (pit bosses); in pit A a Russian
    poker table opened with Carla's count, a 32-card draw table with Nina's, and two more
    tables, closed."""
    url = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    app = create_app({"SECRET_KEY": "browser-test", "DATABASE_URL": url,
                      "FLOOR_POLL_SECONDS": 1, "HOUSE_EDGE_STORE": str(tmp_path / "edges.json"),
                      **FAST_ARGON2})
    db.upgrade(db.get_engine(app))
    ids: dict[str, int] = {}
    with db.session_scope(app) as dbs:
        people = {n: make_user(dbs, n, r).id for n, r in (
            ("carla", "croupier"), ("dimitri", "croupier"), ("nina", "croupier"),
            ("pavel", "pit_boss"), ("petra", "pit_boss"))}
        for name, game in (("RP 1", "russian"), ("OP 1", "oasis"), ("CS 1", "caribbean")):
            t = make_table(dbs, name=name, game=game)
            tables.update_table(dbs, t.id, tables.TableSpec(
                name, game, t.profile, 10, 500, 50_000, 6, pit="A"))
            ids[name] = t.id
        pk = poker_tables.open_table(dbs, name="PK 1", profile="draw32-limit",
                                     stakes={"small_blind": 10}, seat_count=4)
        tables.set_pit(dbs, pk.id, "A")
        ids["PK 1"] = pk.id
        for name, croupier in (("RP 1", "carla"), ("PK 1", "nina")):
            inventory.open_shift_with_count(
                dbs, table_id=ids[name], actor_id=people["pavel"],
                croupier_id=people[croupier], pit_boss_id=people["pavel"], chips={"100": 500},
                credential=SIGNED)
        for n, player in enumerate(("Ann", "Bob", "Cy")):
            poker_tables.seat_player(dbs, pk.id, seat=str(n + 1), player=player, buy_in=1000)
    with served(app, {**ids, **people}) as running:
        yield running


def _context(chromium: Any, width: int, height: int) -> Any:
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=True)
    context.set_default_timeout(15_000)
    return context


def _sign_in(page: Any, server: Server, who: str) -> None:
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', who)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{server.url}/**")


class Tablet:
    """The table's device: the dealer's taps, counted."""

    def __init__(self, page: Any, shots: Shots) -> None:
        self.page, self.shots, self.taps = page, shots, 0

    def tap(self, selector: str) -> None:
        self.taps += 1
        self.page.click(selector)
        self.page.wait_for_load_state("load")

    def records(self, selector: str) -> None:
        """A tap on the table screen: its request (if any) answered and drawn, no page load."""
        self.taps += 1
        settle(self.page, lambda: self.page.click(selector))
        assert not self.page.query_selector(".field-msg.error"), selector

    def digits(self, pin: str) -> None:
        self.taps += len(pin)
        self.page.keyboard.type(pin)

    def check(self, label: str) -> None:
        layout = self.page.evaluate(LAYOUT, [TARGETS, 44])
        assert layout["scroll"] <= layout["inner"], f"{label}: horizontal scroll {layout}"
        assert not layout["small"], f"{label}: small touch targets {layout}"
        self.shots(label)

    def relieve(self, name: str, label: str) -> int:
        """Relieve dealer: the button, the name, the PIN's digits, Take the table."""
        before = self.taps
        self.tap("[data-relieve]")
        self.check(f"{label}-1-names")
        self.tap(f'[data-person="{name}"]')
        # the pad is up: the name's page gives the PIN field the focus once it has loaded (a
        # wait, not a sleep: the focus must come, within the page's timeout)
        self.page.wait_for_function("document.activeElement && "
                                    "document.activeElement.name === 'pin'")
        assert self.page.evaluate("document.activeElement.name") == "pin"
        self.check(f"{label}-2-pin")
        self.digits(PIN)
        self.tap("[data-take]")
        self.check(f"{label}-3-taken")
        assert self.page.get_attribute("[data-dealer-bar] [data-dealer]", "data-dealer") == name
        return self.taps - before

    def russian_round(self, ante: str = "100") -> None:
        """Start (the deal of Russian poker has nothing to enter), box 1 folds, the dealer's
        hand is turned over (the last card records it), Paid."""
        self.page.fill('input[name="ante_1"]', ante)
        self.taps += 1 + len(ante)
        self.records('button[data-step="start"]')
        self.records('article.box[data-box="1"] [data-step="fold"]')
        for code in ["Kh", "Qh", "4s", "5c", "6d"]:  # the last card records the reveal
            self.records(f'.card-grid button[data-card="{code}"]')
        self.records('button[data-step="paid"]')
        assert "Round" in self.page.inner_text("[data-said]")


def _shows(floor: Any, table: str, test: str, what: str) -> None:
    """The floor page shows ``what`` of ``table`` within the bound (polling, no reload)."""
    floor.wait_for_function(
        f"""() => {{ const t = document.querySelector('[data-table="{table}"]');
                    return !!t && ({test}); }}""", timeout=WITHIN_MS)


def test_two_dealers_relieve_each_other_on_one_tablet_and_the_floor_shows_every_step(
        chromium: Any, floor_server: Server, request: pytest.FixtureRequest) -> None:
    server, ids = floor_server, floor_server.tables
    tablet_ctx, floor_ctx = _context(chromium, 768, 1024), _context(chromium, 1024, 768)
    try:
        page, floor = tablet_ctx.new_page(), floor_ctx.new_page()
        shots = Shots(page, request.node.name)
        tablet = Tablet(page, shots)
        _sign_in(page, server, "pavel")  # the pit boss binds the tablet in front of him
        page.goto(f"{server.url}/tables/{ids['RP 1']}")
        page.click("[data-bind-device]")
        page.wait_for_url(f"{server.url}/tables/{ids['RP 1']}/live")
        tablet.check("device-carla")
        _sign_in(floor, server, "pavel")
        floor.goto(f"{server.url}/floor?pit=A")
        _shows(floor, "RP 1", "t.querySelector('[data-dealer]').dataset.dealer === 'Carla'",
               "Carla deals")
        played = 0
        for dealer in ("Carla", "Dimitri", "Carla"):
            if played:
                taps = tablet.relieve(dealer, f"relief-{played}")
                assert taps <= 3 + len(PIN), taps
                _shows(floor, "RP 1",
                       f"t.querySelector('[data-dealer]').dataset.dealer === '{dealer}'",
                       f"{dealer} relieves")
            if played == 4:
                break
            for _ in range(2):
                played += 1
                tablet.russian_round()
                _shows(floor, "RP 1", f"t.dataset.stage === 'paid' && t.querySelector("
                       f"'[data-stage-text]').textContent.includes('{played}')",
                       f"round {played} paid")
        floor_shots = Shots(floor, request.node.name + "-floor")
        floor_shots("floor-1024x768-en")
        report = floor_ctx.new_page()
        shift = _shift(server, ids["RP 1"])
        report.goto(f"{server.url}/reports/shifts/{shift}")
        rows = {r.get_attribute("data-dealer"): r.get_attribute("data-rounds")
                for r in report.locator("section.dealers tr[data-dealer]").all()}
        assert rows == {"Carla": "2", "Dimitri": "2"}, rows  # two rounds each
        assert _dealt(server, ids["RP 1"]) == {"carla": [1, 2], "dimitri": [3, 4]}
        _b_cannot_decide(chromium, server, ids["RP 1"], Shots(floor, request.node.name + "-b"))
    finally:
        tablet_ctx.close()
        floor_ctx.close()


def _shift(server: Server, table_id: int) -> int:
    with db.session_scope(server.app) as dbs:
        return int(dbs.exec(select(Round.shift_id).where(Round.table_id == table_id)).first()
                   or 0)


def _dealt(server: Server, table_id: int) -> dict[str, list[int]]:
    with db.session_scope(server.app) as dbs:
        rows = dbs.exec(select(Round.number, User.username)
                        .join(User, User.id == Round.dealer_id)  # type: ignore[arg-type]
                        .where(Round.table_id == table_id).order_by(Round.number)).all()
    out: dict[str, list[int]] = {}
    for number, who in rows:
        out.setdefault(who, []).append(number)
    return out


def _b_cannot_decide(chromium: Any, server: Server, table_id: int, shots: Shots) -> None:
    """A dispute on one of Dimitri's rounds: he is shown no decision and his post is refused;
    Pavel, who did not deal it, may decide."""
    with db.session_scope(server.app) as dbs:
        rid = dbs.exec(select(Round.id).where(Round.table_id == table_id,
                                              Round.number == 3)).one()
        dispute = disputes.file_dispute(dbs, round_id=rid, box="1", claim="I never folded",
                                        claimed_amount=100, croupier_note="",
                                        actor_id=server.tables["pavel"])
    context = _context(chromium, 1024, 768)
    try:
        b = context.new_page()
        _sign_in(b, server, "dimitri")
        b.goto(f"{server.url}/disputes/{dispute.id}")
        assert b.locator('form[action$="/decisions"]').count() == 0
        # with the session's CSRF token, so the refusal is the duty's and not the form's
        status = b.evaluate("""async (url) => {
            const token = document.querySelector('input[name="csrf_token"]').value;
            const r = await fetch(url, {method: 'POST', body: new URLSearchParams(
              {outcome: 'upheld', adjustment: '100', note: 'mine', csrf_token: token})});
            return r.status; }""", f"{server.url}/disputes/{dispute.id}/decisions")
        assert status == 403, status
        shots("dispute-as-dimitri")
    finally:
        context.close()


def test_the_same_relief_on_a_poker_table(chromium: Any, floor_server: Server,
                                          request: pytest.FixtureRequest) -> None:
    server, ids = floor_server, floor_server.tables
    tablet_ctx, floor_ctx = _context(chromium, 768, 1024), _context(chromium, 1024, 768)
    try:
        page, floor = tablet_ctx.new_page(), floor_ctx.new_page()
        tablet = Tablet(page, Shots(page, request.node.name))
        _sign_in(page, server, "pavel")
        page.goto(f"{server.url}/tables/{ids['PK 1']}")
        page.click("[data-bind-device]")
        page.wait_for_url(f"{server.url}/poker/{ids['PK 1']}")
        _sign_in(floor, server, "petra")
        floor.goto(f"{server.url}/floor?pit=A")
        tablet.check("poker-nina")
        _shows(floor, "PK 1", "t.querySelector('[data-dealer]').dataset.dealer === 'Nina'",
               "Nina deals")
        taps = tablet.relieve("Dimitri", "poker-relief")  # between hands
        assert taps <= 3 + len(PIN), taps
        _shows(floor, "PK 1", "t.querySelector('[data-dealer]').dataset.dealer === 'Dimitri'",
               "Dimitri relieves")
        tablet.tap('form[action$="/deal"] button')
        tablet.check("poker-hand-dealt")
        _shows(floor, "PK 1", "t.dataset.stage === 'betting'", "hand 1 dealt")
        assert _dealt(server, ids["PK 1"]) == {"dimitri": [1]}
    finally:
        tablet_ctx.close()
        floor_ctx.close()


#: a floor figure cut short (its text wider than its box) at any size
CLIPPED = """() => [...document.querySelectorAll(
    '.figures dd, .ftable h2, .ftable .dealer, .alert')]
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())"""


def _busy_floor(server: Server) -> None:
    """Every kind of table on the floor: paid rounds with a large payout and an open dispute,
    a round being placed, a frozen table, a hand in play, a table with no round for half an
    hour whose dealer is past his interval, and a dealer on break."""
    from datetime import timedelta

    from dealer_assist.lab.version import fingerprint
    from dealer_assist.models import utcnow
    from dealer_assist.rules.profiles import get_profile
    from dealer_assist.services.figures import house_edge
    from dealer_assist.services.people import reliefs
    from dealer_assist.services.rounds import live, poker_hands, voids
    from tests.services.test_disputes import Floor, play

    with db.session_scope(server.app) as dbs:
        house_edge.save(dbs, {
            "profile": "russian-classic",
            "fingerprint": fingerprint(get_profile("russian-classic")),
            "default_strategy": "basic", "strategies": {"basic": {"house_edge": 0.0215}}})
    ids, now = server.tables, utcnow()
    with db.session_scope(server.app) as dbs:
        shift = shifts.open_shift_of(dbs, ids["RP 1"])
        assert shift is not None
    with db.session_scope(server.app) as dbs:
        extra = {n: make_user(dbs, n, "croupier").id for n in ("olga", "ivan", "sasha")}
        rp1 = Floor(ids["carla"], ids["dimitri"], ids["pavel"], ids["petra"], ids["pavel"],
                    ids["RP 1"], shift.id)
        reliefs.relieve(dbs, table_id=ids["RP 1"], relief=reliefs.Relief(ids["dimitri"], SIGNED))
        reliefs.relieve(dbs, table_id=ids["RP 1"], relief=reliefs.Relief(ids["carla"], SIGNED))
        dbs.commit()
        rounds = [play(dbs, rp1, dealer=ids["carla"]) for _ in range(3)]
        disputes.file_dispute(dbs, round_id=rounds[1], box="2", claim="short paid",
                              claimed_amount=50, croupier_note="", actor_id=ids["pavel"])
        for name, croupier, ago in (("OP 1", "olga", 5), ("CS 1", "ivan", 35)):
            inventory.open_shift_with_count(
                dbs, table_id=ids[name], actor_id=ids["pavel"], croupier_id=extra[croupier],
                pit_boss_id=ids["pavel"], chips={"100": 500}, credential=SIGNED,
                now=now - timedelta(minutes=ago))
        tables.set_rotation(dbs, ids["CS 1"], 30)  # Ivan has dealt 35 minutes there
        reliefs.relieve(dbs, table_id=ids["OP 1"], relief=reliefs.Relief(extra["sasha"], SIGNED))
        reliefs.relieve(dbs, table_id=ids["OP 1"], relief=reliefs.Relief(extra["olga"], SIGNED))
        dbs.commit()
        start_round(dbs, table_id=ids["OP 1"], actor_id=extra["olga"],
                         boxes=[live.BoxStake("1", 50), live.BoxStake("3", 100)],
                         idempotency_key="op-1")
        frozen = make_table(dbs, name="RP 2")
        tables.set_pit(dbs, frozen.id, "A")
        inventory.open_shift_with_count(
            dbs, table_id=frozen.id, actor_id=ids["pavel"], croupier_id=ids["dimitri"],
            pit_boss_id=ids["pavel"], chips={"100": 500}, credential=SIGNED)
        dbs.commit()
        stuck = start_round(dbs, table_id=frozen.id, actor_id=ids["dimitri"],
                                 boxes=[live.BoxStake("1", 100)], idempotency_key="rp2-1")
        voids.request_change(dbs, round_id=stuck.round.id, kind="void", reason="misdeal",
                             actor_id=ids["dimitri"])
        poker_hands.start_hand(dbs, table_id=ids["PK 1"], user_id=ids["nina"])


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_floor_page_reads_well_at_1024_and_1920_in_both_languages(
        chromium: Any, floor_server: Server, language: str,
        request: pytest.FixtureRequest) -> None:
    floor_server.app.config["FLOOR_PAYOUT_ALERT"] = 100
    _busy_floor(floor_server)
    with db.session_scope(floor_server.app) as dbs:
        make_user(dbs, "lena", "pit_boss", language=language)
    for width, height in ((1024, 768), (1920, 1080)):
        context = _context(chromium, width, height)
        try:
            page = context.new_page()
            _sign_in(page, floor_server, "lena")
            page.goto(f"{floor_server.url}/floor?pit=A")
            codes = page.eval_on_selector_all("[data-alert]",
                                              "els => els.map(e => e.dataset.alert)")
            assert {"payout", "dispute", "rotation", "frozen", "idle"} <= set(codes), codes
            stages = page.eval_on_selector_all("[data-stage]",
                                               "els => els.map(e => e.dataset.stage)")
            assert {"paid", "placing", "frozen", "betting"} <= set(stages), stages
            layout = page.evaluate(LAYOUT, ["#floor a, .pits a", 24])
            assert layout["scroll"] <= layout["inner"], layout
            Shots(page, f"{request.node.name}-{width}x{height}")(f"floor-{width}x{height}")
            assert page.evaluate(CLIPPED) == []
        finally:
            context.close()

"""Every route declares who may reach it, and the declaration holds: walking ``app.url_map``,
an anonymous request to each non-public route is refused or sent to the login page, and a
croupier is refused wherever croupiers are not declared (administration, pit boss pages).
JSON API views declare their own roles too (no blueprint-wide default): only the stateless
calculators are public."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from werkzeug.routing import Rule

from dealer_assist.edge import PUBLIC, declared_roles, undeclared_endpoints
from tests.factories import make_user
from tests.web.conftest import Browser, arrange

#: the routes anyone may reach, on purpose
EXPECTED_PUBLIC = {"static", "auth.login", "auth.logout", "auth.set_language", "api.settle",
                   "api.split_suggest",
                   "api.poker_hand", "api.parlour_hand", "api.parlour_end", "api.openapi",
                   # the tablet's offline runtime, public static assets
                   "tablet.pyodide", "tablet.engine_zip", "tablet.engine_meta", "tablet.worker",
                   "tablet.service_worker"}
STAFF = frozenset({"croupier", "pit_boss", "shift_manager"})
AUDITORS = frozenset({"auditor", "pit_boss", "shift_manager", "admin"})
#: who sees rated players' ratings and names: pit and management
PIT_AND_MANAGEMENT = frozenset({"pit_boss", "shift_manager", "admin"})
#: what the read-only auditor may open (GET only): rounds, disputes, voids and corrections,
#: the audit log, reports, the tables overview, and their own password
AUDITOR_PAGES = {"web.home", "tables.detail", "disputes.rounds_page", "disputes.round_page",
                 "disputes.queue", "disputes.review", "disputes.changes_page",
                 "disputes.audit_page", "reports.index", "reports.preview", "reports.download",
                 "auth.change_password",
                 # the pit's live floor and a dealer's figures, read-only
                 "floor.page", "floor.cards", "floor.data", "floor.dealer",
                 # the hold report and the slips, read-only
                 "cage.hold_page", "cage.hold_pdf", "cage.hold_csv", "cage.slip_page",
                 "cage.slip_pdf"}
#: every JSON API endpoint and the roles it declares (a new endpoint must be added here)
API_ROLES = {
    "api.settle": frozenset({PUBLIC}), "api.split_suggest": frozenset({PUBLIC}),
    "api.poker_hand": frozenset({PUBLIC}),
    "api.openapi": frozenset({PUBLIC}),
    "api.create_round": STAFF, "api.current_round": STAFF, "api.get_round": STAFF,
    "api.append": STAFF,
    "api.list_disputes": AUDITORS, "api.get_dispute": AUDITORS, "api.list_voids": AUDITORS,
    "api.get_void": AUDITORS, "api.list_correction_requests": AUDITORS,
    "api.list_corrections": AUDITORS, "api.audit_head": AUDITORS,
    "api.poker_open_table": STAFF, "api.poker_get_table": STAFF, "api.poker_seat_player": STAFF,
    "api.poker_change_seat": STAFF, "api.poker_start_hand": STAFF,
    "api.poker_current_hand": STAFF, "api.poker_get_hand": STAFF, "api.poker_act": STAFF,
    "api.poker_undo": STAFF,
    "api.parlour_hand": frozenset({PUBLIC}), "api.parlour_end": frozenset({PUBLIC}),
    "api.create_buy_in": STAFF, "api.get_slip": AUDITORS, "api.hold_report": AUDITORS,
    # the game-math lab's advisor: staff and the admin; the auditor never posts
    "api.lab_advise": STAFF | {"admin"},
    "api.player_ratings": PIT_AND_MANAGEMENT,
}
DUMMY = {"int": 1, "path": "app.css", "default": "russian"}
#: what the count team and the cage cashier reach beyond every account's own pages
#: (the tables overview, a table's page, their password and PIN, the device home that sends
#: them to the overview): the soft count; the cage's fills and credits and the slips it issued
OWN_PAGES = {"web.home", "tables.detail", "auth.change_password", "relief.set_pin",
             "devices.home"}
NEW_ROLES = {"count_team": OWN_PAGES | {"cage.drop_page", "cage.soft_count"},
             "cage_cashier": OWN_PAGES | {"cage.issues_page", "cage.issue", "cage.slip_page",
                                          "cage.slip_pdf"}}


def _url(app: Flask, rule: Rule) -> str:
    values = {name: DUMMY.get(type(conv).__name__.replace("Converter", "").lower()
                              .replace("integer", "int"), DUMMY["default"])
              for name, conv in rule._converters.items()}
    with app.test_request_context():
        from flask import url_for

        return url_for(rule.endpoint, **values)


def _routes(app: Flask) -> list[tuple[str, str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((rule.endpoint, method, _url(app, rule)))
    return sorted(out)


def _own_roles(app: Flask, endpoint: str) -> frozenset[str] | None:
    return getattr(app.view_functions.get(endpoint), "roles", None)


def _guarded(app: Flask, endpoint: str) -> bool:
    return PUBLIC not in (declared_roles(app, endpoint) or frozenset())


def _send(browser: Browser, method: str, url: str) -> Any:
    if method == "GET":
        return browser.get(url)
    if url.startswith("/api/"):
        return browser.client.open(url, method=method, json={},
                                   headers={"X-CSRF-Token": browser.csrf()})
    assert method == "POST", f"no test for {method} yet"
    return browser.post(url, {})


def test_every_route_declares_its_roles(app: Flask) -> None:
    assert undeclared_endpoints(app) == []
    public = {r.endpoint for r in app.url_map.iter_rules()
              if PUBLIC in (_own_roles(app, r.endpoint) or frozenset())}
    assert public <= EXPECTED_PUBLIC, f"unexpectedly public: {sorted(public - EXPECTED_PUBLIC)}"
    assert len(list(app.url_map.iter_rules())) > 30


def test_an_anonymous_request_to_every_guarded_route_is_refused_or_sent_to_login(
        app: Flask, browser: Browser) -> None:
    problems = []
    for endpoint, method, url in _routes(app):
        if not _guarded(app, endpoint):
            continue
        resp = _send(browser, method, url)
        to_login = resp.status_code in (302, 303) and "/login" in resp.headers.get("Location", "")
        if not (to_login or resp.status_code in (401, 403)):
            problems.append(f"{method} {url} ({endpoint}): {resp.status_code}")
    assert not problems, problems


def test_a_croupier_is_refused_where_croupiers_are_not_declared(app: Flask, browser: Browser,
                                                                croupier: Any) -> None:
    assert browser.login("carla").status_code == 302
    checked, problems = 0, []
    for endpoint, method, url in _routes(app):
        roles = _own_roles(app, endpoint)
        if roles is None or PUBLIC in roles or "croupier" in roles:
            continue
        checked += 1
        resp = _send(browser, method, url)
        if resp.status_code != 403:
            problems.append(f"{method} {url} ({endpoint}): {resp.status_code}")
    assert not problems, problems
    assert checked >= 15  # admin pages, the dispute queue and decisions, audit, auditor API


def test_the_dispute_decision_and_the_audit_page_are_not_for_croupiers(app: Flask) -> None:
    assert "croupier" not in (declared_roles(app, "disputes.decide") or {"croupier"})
    assert "croupier" not in (declared_roles(app, "disputes.decide_change") or {"croupier"})
    assert declared_roles(app, "disputes.audit_page") == frozenset({"admin", "auditor"})
    assert "croupier" in (declared_roles(app, "disputes.file_dispute") or set())


def _api_routes(app: Flask) -> list[tuple[str, str, str]]:
    return [r for r in _routes(app) if r[0].startswith("api.")]


def test_every_api_endpoint_declares_its_own_roles(app: Flask) -> None:
    declared = {endpoint: _own_roles(app, endpoint) for endpoint, _, _ in _api_routes(app)}
    assert declared == API_ROLES


def test_a_croupier_is_refused_by_the_auditor_api_and_a_pit_boss_is_let_in(
        app: Flask, browser: Browser, other_browser: Browser, croupier: Any) -> None:
    auditor_only = [(e, m, u) for e, m, u in _api_routes(app) if API_ROLES[e] == AUDITORS]
    # (7) and (a slip, the hold report)
    assert len(auditor_only) == 9 and all(m == "GET" for _, m, _ in auditor_only)
    arrange(app, make_user, "pavel", "pit_boss")
    assert browser.login("carla").status_code == 302
    assert other_browser.login("pavel").status_code == 302
    for endpoint, _, url in auditor_only:
        refused = browser.get(url)
        assert refused.status_code == 403, f"croupier: {url} ({endpoint})"
        assert refused.is_json and refused.get_json()["title"] == "Not allowed"
        answered = other_browser.get(url)  # 200, or 404 for the dummy id of a detail
        assert answered.status_code in (200, 404), f"pit boss: {url} {answered.status_code}"
        assert answered.is_json and answered.get_json().get("title") != "Not allowed"


def test_the_rounds_api_lets_table_staff_in_but_not_an_administrator(
        app: Flask, browser: Browser, admin: Any) -> None:
    assert browser.login("root").status_code == 302
    for endpoint, method, url in _api_routes(app):
        if API_ROLES[endpoint] == STAFF:
            resp = _send(browser, method, url)
            assert resp.status_code == 403, f"admin: {method} {url} ({endpoint})"


def test_the_auditor_reads_every_audit_page_and_is_refused_every_write(
        app: Flask, browser: Browser) -> None:
    """"No read-only auditor role: every account that can read the audit API can also
    write." The auditor reaches exactly :data:`AUDITOR_PAGES` and the auditor API, all by GET;
    every other route and every write is a 403 (``/password``, the auditor's own password, and
    logout, which is public, aside)."""
    arrange(app, make_user, "audrey", "auditor")
    assert browser.login("audrey").status_code == 302
    reachable, problems = set(), []
    for endpoint, method, url in _routes(app):
        roles = declared_roles(app, endpoint) or frozenset()
        if PUBLIC in roles:
            continue
        if "auditor" in roles:
            reachable.add(endpoint)
            if method != "GET" and endpoint != "auth.change_password":
                problems.append(f"auditor may write: {method} {url} ({endpoint})")
            continue
        resp = _send(browser, method, url)
        if resp.status_code != 403:
            problems.append(f"{method} {url} ({endpoint}): {resp.status_code}")
    assert not problems, problems
    api = {e for e, roles in API_ROLES.items() if "auditor" in roles}
    assert reachable == AUDITOR_PAGES | api
    for endpoint, method, url in _routes(app):
        if endpoint in AUDITOR_PAGES | api and method == "GET":
            resp = browser.get(url)
            assert resp.status_code in (200, 404), f"auditor: {url} {resp.status_code}"


def test_a_pin_session_on_a_table_device_reaches_no_page_outside_the_device(
        app: Flask, browser: Browser) -> None:
    """A PIN authenticates one person for one act and opens no session beyond the
    table device. A pit boss binds the tablet, a pit boss (Petra: the role with the most pages)
    takes the table with her PIN; walking every route, the tablet reaches only its own table's
    screen and steps and the relief (``edge.device``): every other page sends it to its home,
    every other write is a 403, the API a 401."""
    from dealer_assist.edge.device import ANY_TIME, WHILE_DEALING
    from dealer_assist.services.shifts import shifts
    from tests.factories import PIN, make_table

    def floor(session: Any) -> int:
        carla = make_user(session, "carla", "croupier")
        make_user(session, "pavel", "pit_boss")
        make_user(session, "petra", "pit_boss")
        table = make_table(session, name="RP 1")
        shifts.open_shift(session, table_id=table.id, user_id=carla.id)
        return table.id

    table_id = arrange(app, floor)
    assert table_id == 1  # the walk's dummy id is this table's
    assert browser.login("pavel").status_code == 302
    assert browser.post(f"/tables/{table_id}/device", {}).status_code == 303
    relief = browser.post(f"/tables/{table_id}/relief", {"dealer": "petra", "pin": PIN})
    assert relief.status_code == 303
    assert "data-dealer=\"Petra\"" in browser.get(f"/tables/{table_id}/live").get_data(
        as_text=True)
    allowed = ANY_TIME | WHILE_DEALING
    problems, refused = [], set()
    for endpoint, method, url in _routes(app):
        resp = _send(browser, method, url)
        home = resp.status_code == 302 and resp.headers.get("Location", "").endswith("/device")
        if endpoint in allowed or (PUBLIC in (declared_roles(app, endpoint) or ())
                                   and endpoint.startswith("api.")):
            continue
        if url.startswith("/api/"):
            if resp.status_code != 401:
                problems.append(f"{method} {url} ({endpoint}): {resp.status_code}")
        elif not (home or resp.status_code == 403):
            problems.append(f"{method} {url} ({endpoint}): {resp.status_code}")
        else:
            refused.add(endpoint)
    assert not problems, problems
    for endpoint in ("admin.users_page", "floor.page", "reports.index", "reports.preview",
                     "disputes.queue", "disputes.decide", "reports.inventory_page",
                     "relief.set_pin", "auth.change_password", "devices.revoke"):
        assert endpoint in refused, endpoint


@pytest.mark.parametrize("role", sorted(NEW_ROLES))
def test_the_count_team_and_the_cage_reach_their_own_pages_and_nothing_else(
        app: Flask, browser: Browser, role: str) -> None:
    """The count team counts the drop and the cage issues fills and credits;
    neither reaches the pit's pages, the floor, the reports, the administration or the API, and
    the pit reaches neither of theirs. Walking every route as that role sends it."""
    arrange(app, make_user, "nina", role)
    assert browser.login("nina").status_code == 302
    reachable, problems = set(), []
    for endpoint, method, url in _routes(app):
        roles = declared_roles(app, endpoint) or frozenset()
        if PUBLIC in roles:
            continue
        if role in roles:
            reachable.add(endpoint)
            continue
        resp = _send(browser, method, url)
        if resp.status_code != 403:
            problems.append(f"{method} {url} ({endpoint}): {resp.status_code}")
    assert not problems, problems
    assert reachable == NEW_ROLES[role]
    for endpoint, method, url in _routes(app):
        if endpoint in reachable and method == "GET":
            resp = browser.get(url)  # 200; 404 for the dummy id of a detail; device: home
            assert resp.status_code in (200, 302, 404), f"{role}: {url} {resp.status_code}"
    for endpoint in ("cage.drop_page", "cage.soft_count", "cage.issues_page", "cage.issue"):
        for pit in ("pit_boss", "shift_manager", "admin", "croupier", "auditor"):
            assert pit not in (declared_roles(app, endpoint) or ()), (endpoint, pit)

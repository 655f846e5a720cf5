"""The croupier's language: catalogs complete, the locale per user and from the
browser, hand names and reasons said at the edge, and a Russian croupier's round, dispute and a
Russian manager's shift report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask import Flask

from dealer_assist import db, i18n
from dealer_assist.i18n.wording import hand_name, say
from dealer_assist.models import User
from dealer_assist.rules.evaluator import evaluate, evaluate_small
from dealer_assist.rules.games import GAMES
from dealer_assist.rules.profiles import get_profile
from dealer_assist.services import reports
from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange, opening_form, text
from tests.web.taps import screen_words
from tests.web.test_live_pages import BOX_1, DEALER, round_of, start, step

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "dealer_assist" / "translations"
KEYWORDS = ["_", "gettext", "ngettext:1,2", "lazy_gettext", "N_", "Phrase", "counted:1,2",
            "RulesError", "IllegalActionError", "StakeError", "HouseRulesError", "RequestError",
            "ServiceError",
            "ValidationError", "NotFound", "Conflict", "PermissionDenied",
            "AuthenticationFailed", "Throttled", "_fail", "problem:3", "whole_number:2",
            "optional_date:2", "_signed:2"]


def _extract(tmp_path: Path) -> set[str]:
    pot = tmp_path / "messages.pot"
    args = [sys.executable, "-m", "babel.messages.frontend", "extract", "-F",
            str(ROOT / "babel.cfg"), "--no-location", "-o", str(pot)]
    for k in KEYWORDS:
        args += ["-k", k]
    done = subprocess.run([*args, "."], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    with pot.open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}


def test_every_message_in_the_code_and_templates_has_a_russian_translation(
        tmp_path: Path) -> None:
    found = _extract(tmp_path)
    with (CATALOGS / "ru" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        ru = read_po(f, locale="ru")
    missing = sorted(m for m in found if not ru.get(m) and not ru.get(_plural_key(ru, m)))
    assert not missing, f"not in the ru catalog (run `make translations`): {missing[:20]}"
    empty = sorted(m.id if isinstance(m.id, str) else m.id[0] for m in ru
                   if m.id and (not m.string or (isinstance(m.string, tuple)
                                                 and not all(m.string))))
    assert not empty, f"untranslated in the ru catalog: {empty[:20]}"
    assert len(found) > 800  # the extraction really read the templates and the engine


def _plural_key(cat: Any, singular: str) -> Any:
    return next((m.id for m in cat if isinstance(m.id, tuple) and m.id[0] == singular), None)


def test_the_committed_mo_files_match_their_po_sources() -> None:
    for lang in i18n.LANGUAGES:
        folder = CATALOGS / lang / "LC_MESSAGES"
        with (folder / "messages.po").open("rb") as f:
            po = {_key(m.id): _key(m.string) for m in read_po(f, locale=lang)
                  if m.id and m.string and all(_key(m.string)) and m.string != m.id}
        with (folder / "messages.mo").open("rb") as f:
            mo = {_key(m.id): _key(m.string) for m in read_mo(f)
                  if m.id and m.string and _key(m.string) != _key(m.id)}
        assert mo == po, f"{lang}: compile the catalog again (make translations)"


def _key(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


def test_russian_plurals_take_three_forms(app: Flask) -> None:
    from dealer_assist.rules.phrase import Phrase

    with app.test_request_context(headers={"Accept-Language": "ru"}):
        said = [say(Phrase.counted("exchanged %(num)d card", "exchanged %(num)d cards", n))
                for n in (1, 3, 5, 21)]
    assert said == ["обменял 1 карту", "обменял 3 карты", "обменял 5 карт", "обменял 21 карту"]


@pytest.mark.parametrize("cards", ["Kh Kd 7s 7c 5d", "As Ks Qs Js Ts", "9h 9d 9s 4c 4d",
                                   "2c 3d 4h 5s Ad", "Ah Kd 9c 5s 3h", "Qh 8h 6h 4h 2h",
                                   "Jc Jd Js Jh 3c", "8c 8d 5s 4c 2d", "Kc Jd 9s 5c 3d",
                                   "9c Td Js Qh Kd", "5h 6h 7h 8h 9h"])
def test_the_english_hand_name_at_the_edge_is_the_engine_s_label(app: Flask,
                                                                 cards: str) -> None:
    hand = evaluate(cards, get_profile(GAMES["russian"].default_profile).ranking)
    with app.test_request_context():
        assert hand_name(hand) == hand.label
        assert hand_name({"category": hand.category.value,
                          "cards": [c.code for c in hand.cards]}) == hand.label


def test_hand_names_in_russian_use_the_table_s_words(app: Flask) -> None:
    ranking = get_profile(GAMES["russian"].default_profile).ranking
    with app.test_request_context(headers={"Accept-Language": "ru-RU,ru;q=0.9"}):
        assert hand_name(evaluate("Kh Kd 7s 7c 5d", ranking)) == \
            "Две пары, короли и семёрки, кикер пятёрка"
        assert hand_name(evaluate("As Ks Qs Js Ts", ranking)) == "Роял-флеш"
        assert hand_name(evaluate("9h 9d 9s 4c 4d", ranking)) == "Фулл-хаус, девятки и четвёрки"
        assert hand_name(evaluate("Jc Jd Js Jh 3c", ranking)) == "Каре валетов, кикер тройка"
        assert hand_name(evaluate("9c Td Js Qh Kd", ranking)) == "Стрит до короля"
        assert hand_name(evaluate("Ah Kd 9c 5s 3h", ranking)) == "Туз-король, кикер девятка"
        assert hand_name(evaluate_small("Qd Qs")) == "Пара дам"


def test_money_is_formatted_by_locale(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert i18n.money(1234, "RUB") == "1\u00a0234\u00a0₽"
        assert i18n.money(-1234) == "\u22121\u00a0234"
    with app.test_request_context():
        assert i18n.money(1234) == "1,234" and i18n.money(1234, "RUB") == "1,234\u00a0RUB"
        assert i18n.money(-1234, "USD") == "\u2212$1,234"


def test_the_browser_picks_the_language_until_the_header_switch_or_profile_does(
        browser: Browser, app: Flask, croupier: Any) -> None:
    assert "Войти" in text(browser.get("/login", headers={"Accept-Language": "ru"}))
    assert 'lang="en"' in text(browser.get("/login"))
    browser.login("carla")
    resp = browser.post("/language", {"language": "ru", "next": "/"})
    assert resp.status_code == 302
    page = text(browser.get("/", headers={"Accept-Language": "en"}))
    assert 'lang="ru"' in page and "Столы" in page and "Выйти" in page
    with db.session_scope(app, write=False) as dbs:
        assert dbs.get(User, croupier.id).language == "ru"  # type: ignore[union-attr]
    assert browser.post("/language", {"language": "xx"}).status_code == 400


def _visible(page: str) -> str:
    """What a person reads: the page without its tags and attributes (codes stay in those)."""
    import re

    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


def test_a_russian_croupier_plays_a_round_and_files_a_dispute_in_russian(
        browser: Browser, app: Flask, table: Any) -> None:
    arrange(app, make_user, "carla", "croupier", language="ru")
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    screen = f"/tables/{table.id}/live"
    start(browser, table)
    for type, fields in (("exchange", {"box": "2", "count": 1}), ("bet", {"box": "1"}),
                         ("insure", {"box": "1", "amount": 100, "cards": BOX_1}),
                         ("bet", {"box": "2"}), ("reveal", {"cards": DEALER}),
                         ("buy_game", {"box": "1"}), ("take_ante", {"box": "2"}),
                         ("dealer_draw", {"cards": ["Js"]})):
        assert step(browser, app, table, type, **fields).status_code == 201
    page = _visible(screen_words(text(browser.get(screen))))  # with what round.js draws
    assert "ВЫПЛАТИТЬ" in page and "страховка 100 оплачена" in page
    for word in ("PAY", "TAKE", "RETURN", "insurance", "Box", "Round", "Pay out", "Players"):
        assert word not in page, word
    # too late: the dealer has opened (a screen left behind sends the step with its words)
    refused = step(browser, app, table, "bet", label="Бет", box="1")
    assert refused.status_code == 422
    assert refused.get_json()["detail"].startswith("Бокс 1 · Бет: дилер уже открыл карты")
    rid = round_of(app, table).round.id
    assert step(browser, app, table, "paid").status_code == 201
    resp = browser.post(f"/rounds/{rid}/disputes", {"box": "1", "claim": "Недоплата",
                                                    "claimed_amount": "100"})
    assert resp.status_code == 303
    page = _visible(text(browser.get(resp.headers["Location"])))
    assert "Спор 1 по боксу 1" in page and "Тройка тузов" in page
    for word in ("Dispute", "Box", "PAY", "Three of a kind", "Sign out"):
        assert word not in page, word
    bad = browser.post(f"/rounds/{rid}/disputes", {"box": "1", "claim": "x",
                                                   "claimed_amount": "abc"})
    assert bad.status_code == 422 and "целое число" in text(bad)


def test_a_russian_managers_shift_report_pdf_is_in_russian(browser: Browser, app: Flask,
                                                           tmp_path: Path) -> None:
    from pypdf import PdfReader

    from dealer_assist.services.shifts import shifts

    def build(session: Any) -> int:
        make_user(session, "maria", "shift_manager", language="ru")
        carla = make_user(session, "carla", "croupier")
        table = make_table(session, name="RP 1")
        return shifts.open_shift(session, table_id=table.id, user_id=carla.id).id

    shift_id = arrange(app, build)
    browser.login("maria")
    resp = browser.get(f"/reports/shifts/{shift_id}.pdf")
    assert resp.status_code == 200
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(resp.data)
    words = " ".join(page.extract_text() for page in PdfReader(str(pdf)).pages)
    assert "Отчёт смены" in words and "Выигрыш заведения" in words
    assert "Shift report" not in words and "House win" not in words
    out = ROOT / "test-artifacts" / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf),
                    str(out / "shift-report-ru")], check=True)
    assert list(out.glob("shift-report-ru*.png"))
    assert reports is not None


def test_the_command_line_speaks_the_configured_language(app: Flask) -> None:
    app.config["BABEL_DEFAULT_LOCALE"] = "ru"
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0 and "База данных актуальна" in result.output
    app.config["BABEL_DEFAULT_LOCALE"] = "en"
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert "Database is up to date" in result.output


def test_a_rule_break_keeps_its_code_and_field_and_says_the_detail_in_russian(
        app: Flask) -> None:
    from tests.api.test_russian_api import _round

    body = _round(cards=["Ah", "Jd", "Jc", "4h", "4s"])
    client = app.test_client()
    en = client.post("/api/v1/russian/settle", json=body)
    ru = client.post("/api/v1/russian/settle", json=body, headers={"Accept-Language": "ru"})
    assert en.status_code == ru.status_code == 422
    assert {k: v for k, v in en.json.items() if k != "detail"} == \
        {k: v for k, v in ru.json.items() if k != "detail"}
    assert en.json["code"] == "duplicate_card" and "already on the table" in en.json["detail"]
    assert "уже на столе" in ru.json["detail"]


def test_a_table_s_currency_is_its_own_field_or_the_configured_default(
        browser: Browser, app: Flask, admin: Any) -> None:
    from tests.web.test_admin import _table_form

    browser.login("root")
    assert browser.post("/admin/tables", _table_form(currency="eur")).status_code == 302
    assert browser.post("/admin/tables", _table_form(name="RP 2")).status_code == 302
    refused = browser.post("/admin/tables", _table_form(name="RP 3", currency="€"))
    assert refused.status_code == 422 and "ISO 4217" in text(refused)
    page = text(browser.get("/admin/tables"))
    assert "€50,000" in page and "50,000\u00a0RUB" in page  # RP 2: the configured RUB
    page = text(browser.get("/admin/tables", headers={"Accept-Language": "ru"}))
    assert "50\u00a0000\u00a0€" in page and "50\u00a0000\u00a0₽" in page


def test_the_language_picked_before_signing_in_becomes_the_profile_s(
        browser: Browser, app: Flask, croupier: Any) -> None:
    assert browser.post("/language", {"language": "ru", "next": "/login"}).status_code == 302
    assert "Войти" in text(browser.get("/login"))
    browser.login("carla")
    assert "Столы" in text(browser.get("/"))
    with db.session_scope(app, write=False) as dbs:
        assert dbs.get(User, croupier.id).language == "ru"  # type: ignore[union-attr]

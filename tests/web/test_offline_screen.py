"""The tablet's engine computes the screen exactly as the server would (issue "the table keeps
dealing when the network drops", item 2): "the engine in the tablet checks each step and computes
the screen exactly as the server would (the same ``next_steps``, the same PAY/TAKE/RETURN with
reasons)". RULES.md, "People at the table": "Offline at the table: only round steps may be
recorded while the server cannot be reached; the server re-checks every queued step on reconnect
and its stored events are the record."

Here in CPython, the very package the tablet loads in Pyodide (``dealer_assist.tablet``, served
as the engine bundle) is fed each tap the screen sends the server; after every tap its screen
equals the server's answer, figure by figure and word by word, in English and in Russian, and
the events it would queue are the events the server stored.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask

from dealer_assist.tablet import offline
from tests.factories import make_table, make_user
from tests.web import taps
from tests.web.conftest import Browser, arrange, opening_form, text

#: the server alone knows a pit boss's void request; the provisional id and number are the
#: tablet's until the server accepts the round
SERVER_ONLY = {"void", "id", "number"}

RUSSIAN = ("russian", {"ante_1": "100", "bonus_1": "50", "ante_2": "100", "ante_3": "50",
                       "ante_4": "40"}, [
    ("exchange", {"box": "2", "count": 1}), ("sixth_card", {"box": "3"}),
    ("fold", {"box": "4"}), ("bet", {"box": "1"}),
    ("insure", {"box": "1", "amount": 100, "cards": ["As", "Ad", "Ah", "2c", "3d"]}),
    ("bet", {"box": "2"}), ("bet", {"box": "3"}),
    ("reveal", {"cards": ["Kh", "Qh", "4s", "5c", "6d"]}),
    ("buy_game", {"box": "1"}), ("take_ante", {"box": "2"}), ("take_ante", {"box": "3"}),
    ("dealer_draw", {"cards": ["6h"]}), ("paid", {})])
RUSSIAN_UNDO = ("russian", {"ante_1": "100"}, [
    ("exchange", {"box": "1", "count": 2}), ("undo", {}), ("bet", {"box": "1"}),
    ("reveal", {"cards": ["Kh", "Kd", "4s", "5c", "6d"]}),
    ("show", {"box": "1", "cards": ["As", "Ad", "Ah", "2c", "3d"]}), ("paid", {})])
OASIS = ("oasis", {"ante_1": "50", "ante_2": "20"}, [
    ("deal_dealer", {"up": ["8c"]}), ("replace", {"box": "1", "count": 2}),
    ("bet", {"box": "1"}), ("fold", {"box": "2"}),
    ("reveal", {"cards": ["Qs", "Qd", "5h", "6h"]}),
    ("show", {"box": "1", "cards": ["As", "Ad", "Kc", "3h", "2s"]}), ("paid", {})])
SPLIT = ("split", {"ante_1": "50", "ante_2": "20"}, [
    ("deal_dealer", {"up": ["9c"]}), ("extra", {"box": "1", "mode": "bought"}),
    ("split", {"box": "1", "big": ["As", "Kd", "7h", "4c", "2s"], "small": ["Ad", "7d"]}),
    ("bet", {"box": "1"}), ("fold", {"box": "2"}),
    ("reveal", {"cards": ["Qs", "Qd", "5h", "6h"]}), ("dealer_small", {"cards": ["3c", "3d"]}),
    ("paid", {})])
CARIBBEAN = ("caribbean", {"ante_1": "50", "ante_2": "20"}, [
    ("deal_dealer", {"up": ["8c"]}), ("bet", {"box": "1"}), ("fold", {"box": "2"}),
    ("reveal", {"cards": ["Qs", "Qd", "5h", "6h"]}),
    ("show", {"box": "1", "cards": ["As", "Ad", "Kc", "3h", "2s"]}), ("paid", {})])
#: taps the engine refuses: the same problem, naming the same box and input
REFUSED = ("russian", {"ante_1": "100", "ante_2": "100"}, [
    ("exchange", {"box": "2", "count": 9}), ("bet", {"box": "7"}),
    ("reveal", {"cards": ["Kh", "Kh", "4s", "5c", "6d"]}), ("bet", {"box": "1"})])
ROUNDS = {"russian": RUSSIAN, "russian-undo": RUSSIAN_UNDO, "oasis": OASIS, "split": SPLIT,
          "caribbean": CARIBBEAN, "refused": REFUSED}


def comparable(screen: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in screen.items() if k not in SERVER_ONLY}


def call(op: str, **args: Any) -> dict[str, Any]:
    """The tablet's engine, called as its worker calls it (JSON in, JSON out)."""
    answer: dict[str, Any] = json.loads(offline.handle(op, json.dumps(args)))
    return answer


def engine_data(browser: Browser, table_id: int) -> dict[str, Any]:
    page = text(browser.get(f"/tables/{table_id}/live"))
    data: dict[str, Any] = taps._attribute(page, "engine")
    return data


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_each_screen_the_tablet_computes_equals_the_servers_and_so_do_the_events(
        app: Flask, browser: Browser, name: str, lang: str) -> None:
    game, form, script = ROUNDS[name]

    def build(session: Any) -> Any:
        make_user(session, "rita", "croupier", language=lang)
        return make_table(session, name="T 1", game=game)

    table = arrange(app, build)
    browser.login("rita")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    engine = engine_data(browser, table.id)
    assert engine["lang"] == lang

    key = taps.new_key()
    started = taps.start(browser, table.id, key, **form)
    assert started.status_code == 201, text(started)
    server = started.get_json()
    tablet = call("start", ref="p-1", rules=engine["rules"], number=None, key=key,
                  form=sorted(form.items()), lang=lang)
    assert comparable(tablet["round"]) == comparable(server["round"])
    assert tablet["events"] == server["events"]
    rid, seq = server["round"]["id"], server["round"]["last_seq"]
    # the page's mirror, as a reload would open it: the same screen again
    reopened = call("open", ref="r", round=engine_data(browser, table.id)["round"], lang=lang)
    assert comparable(reopened["round"]) == comparable(server["round"])

    for type, payload in script:
        key = taps.new_key()
        resp = taps.tap(browser, rid, type, payload, key=key, seq=seq, label="Step")
        mine = call("step", ref="p-1", type=type, payload=payload, idempotency_key=key,
                    expected_seq=seq, label="Step", lang=lang)
        if resp.status_code >= 400:
            problem = resp.get_json()
            assert "problem" in mine, (type, problem)
            assert {k: mine["problem"].get(k) for k in problem} == problem
            continue
        assert resp.status_code == 201, text(resp)
        server = resp.get_json()
        assert "problem" not in mine, mine
        assert comparable(mine["round"]) == comparable(server["round"]), type
        assert mine["events"] == server["events"], type
        if "paid" in server:  # the tablet's round is provisional: the server numbers it
            assert mine["paid"] == offline.words(lang).gettext(
                "The round is paid; the server gives it its number. Next round.")
        seq = server["round"]["last_seq"]

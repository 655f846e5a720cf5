"""Every operation with a body answers every bad body exactly as it did before the request
shapes became the one reader of a body: same status, same problem body, same order of
refusals (malformed JSON 400 first; then the engine's field readers' 422 with their field
path, code and value, in the order the view read them; then the shape's 400 "does not fit the
documented request shape"), and the same 201/200 answer for a good body.

The expected table, ``tests/data/request_shapes_answers.json``, was RECORDED BY THE OLD CODE
(the views that read the body with ``rules.fields`` and then called ``operations.checked``)
with ``REQUEST_SHAPES_RECORD=1``; it is data, not written by hand. The requests go in one fixed
order against one database, so the answers that change the state (a round started, a seat
taken) happen at the same point of the sequence each time. Four bodies of the lab's advisor
(``no_game`` with ``cards`` or ``dealer`` an empty list or one card) raised a ValueError in the
lab's batch evaluator (a 500) in the old code too: recorded, but not held as a contract.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dealer_assist.api.lab import EXAMPLE as LAB_EXAMPLE
from dealer_assist.api.parlour import END_EXAMPLE, HAND_EXAMPLE
from dealer_assist.api.poker import EXAMPLE as POKER_EXAMPLE
from tests.api.test_api_never_500 import VALID
from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange, opening_form

TABLE_FILE = Path(__file__).parents[1] / "data" / "request_shapes_answers.json"
RECORD = os.environ.get("REQUEST_SHAPES_RECORD") == "1"
#: what each field is replaced by, one at a time (None: null; "<drop>": the field left out)
BAD: list[Any] = ["<drop>", None, "x", 1.5, True, -5, 7, [], {}, "7s"]
#: bodies that are not an object of the shape at all (raw text)
WHOLE = ["{", "[]", "null", '"x"', "7", "{}", '{"zzz": 1}', "[1, 2]", "true"]
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?")


def variants(good: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """``(name, body)``: the good body; each field (and each field of a nested object or of a
    list's first object) replaced by each of :data:`BAD`; an extra key; raw bodies."""
    yield "good", good
    for path in _paths(good):
        for bad in BAD:
            body = copy.deepcopy(good)
            *parents, last = path
            holder = body
            for step in parents:
                holder = holder[step]
            if bad == "<drop>":
                del holder[last]
            else:
                holder[last] = bad
            yield f"{'.'.join(map(str, path))}={json.dumps(bad)}", body
    yield "extra key", {**good, "zzz": 1}
    for raw in WHOLE:
        yield f"raw {raw}", raw


def _paths(body: dict[str, Any], prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    for key, value in body.items():
        yield (*prefix, key)
        if len(prefix) < 2 and isinstance(value, dict) and value:
            yield from _paths(value, (*prefix, key))
        if len(prefix) < 2 and isinstance(value, list) and value and isinstance(value[0], dict):
            yield from _paths(value[0], (*prefix, key, 0))


def _plain(value: Any, status: int) -> Any:
    """An answer without its clock (every ISO time is ``<time>``, the lab's ``seconds`` gone);
    an answer that is not a refusal as the SHA-256 of that (the table stays readable)."""
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k != "seconds"}
    text = TIME.sub("<time>", json.dumps(value, sort_keys=True))
    if status < 300:
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    return json.loads(text)


class Sender:
    def __init__(self, browser: Browser) -> None:
        self.b = browser
        self.n = 0
        self.seen: list[dict[str, Any]] = []

    def send(self, url: str, name: str, body: Any, *, key: bool = True) -> Any:
        self.n += 1
        headers = {"X-CSRF-Token": self.b.csrf(), "Content-Type": "application/json"}
        if key:
            headers["Idempotency-Key"] = f"k{self.n}"
        data = body if isinstance(body, str) else json.dumps(body)
        where = {"url": re.sub(r"/\d+", "/N", url), "case": name, "key": key}
        try:
            resp = self.b.client.post(url, data=data, headers=headers)
        except Exception as err:  # a bug found (a 500): recorded as it is, left to its owner
            self.seen.append({**where, "status": 500, "body": f"raised {type(err).__name__}"})
            return None
        self.seen.append({**where, "status": resp.status_code,
                          "body": _plain(resp.get_json(silent=True), resp.status_code)})
        return resp

    def all(self, url: str, good: dict[str, Any]) -> Any:
        """Every variant of ``good``; the answer to ``good`` itself."""
        first = None
        for name, body in variants(good):
            resp = self.send(url, name, body)
            first = first or resp
        # the key from the body, or from nowhere
        self.send(url, "key in the body", {**good, "idempotency_key": "body-key"}, key=False)
        self.send(url, "key as a number", {**good, "idempotency_key": 7}, key=False)
        self.send(url, "no key", good, key=False)
        return first


def run_all(app: Flask, browser: Browser, other: Browser) -> list[dict[str, Any]]:
    table = arrange(app, make_table, name="RP 1")
    browser.login("carla")
    opening = opening_form(app)
    assert browser.post(f"/tables/{table.id}/shifts", opening).status_code == 302
    s = Sender(browser)
    # the house table: a round in progress, then every start and every step
    start = {"boxes": [{"box": "1", "ante": 100, "bonus": 0, "seat": "A",
                        "player": {"seat": "A"}}], "offline": False,
             "tapped_at": "2026-01-02T03:04:05+00:00"}
    rid = s.send(f"/api/v1/tables/{table.id}/rounds", "setup", start).get_json()["id"]
    s.all(f"/api/v1/rounds/{rid}/events",
          {"type": "deal_box", "payload": {"box": "1", "cards": ["As", "Ad", "Ah", "2c", "3d"]},
           "expected_seq": 1, "offline": False, "tapped_at": "2026-01-02T03:04:05+00:00"})
    s.all(f"/api/v1/rounds/{rid}/events", {"type": "bet", "payload": {"box": "1"},
                                           "offline": True})
    s.all(f"/api/v1/tables/{table.id}/rounds", start)
    s.all(f"/api/v1/tables/{table.id}/rounds", {**start, "offline": True})
    s.all(f"/api/v1/tables/{table.id}/buy-ins", {"amount": 5000, "seat": "2", "player": "C-1"})
    # a poker table, seated, a hand in progress; Dora deals there (Carla deals at RP 1)
    dora = arrange(app, make_user, "dora", "croupier")
    other.login("dora")
    s.b = other
    tid = s.all("/api/v1/poker/tables", {"name": "PK 1", "profile": "draw32-limit",
                                         "stakes": {"small_blind": 10},
                                         "seat_count": 5}).get_json()["id"]
    assert other.post(f"/tables/{tid}/shifts",
                      {**opening, "croupier_id": dora.id}).status_code == 302
    for seat in "1234":
        s.send(f"/api/v1/poker/tables/{tid}/seats", "setup",
               {"seat": seat, "player": f"P{seat}", "buy_in": 1000})
    s.all(f"/api/v1/poker/tables/{tid}/seats", {"seat": "5", "player": "P5", "buy_in": 1000})
    s.all(f"/api/v1/poker/tables/{tid}/seats/1", {"change": "rebuy", "amount": 500})
    s.all(f"/api/v1/poker/tables/{tid}/seats/5", {"change": "sitting_out"})
    good_hand = s.all(f"/api/v1/poker/tables/{tid}/hands", {"idempotency_key": "deal"})
    hid = good_hand.get_json()["id"]
    s.all(f"/api/v1/poker/hands/{hid}/actions",
          {"action": {"type": "call", "seat": "1"}, "expected_seq": 0})
    s.all(f"/api/v1/poker/hands/{hid}/undo", {"expected_seq": 1})
    s.all(f"/api/v1/poker/hands/{hid + 1}/actions",
          {"action": {"type": "call", "seat": "1"}, "expected_seq": 0})
    s.all(f"/api/v1/poker/hands/{hid + 1}/undo", {"expected_seq": 1})
    # the calculators
    for game in ("russian", "caribbean", "oasis", "split"):
        s.all(f"/api/v1/{game}/settle", VALID[game])
    s.all("/api/v1/nogame/settle", VALID["russian"])
    s.all("/api/v1/poker/hand", POKER_EXAMPLE)
    s.all("/api/v1/parlour/hand", HAND_EXAMPLE)
    s.all("/api/v1/parlour/end", END_EXAMPLE)
    s.all("/api/v1/split/suggest", {"cards": ["As", "Ks", "Qd", "7c", "4h", "2s", "9d"],
                                    "dealer_up": "Jh", "seed": 1, "samples": 100, "top": 3,
                                    "known": ["3c"], "profile": "split-classic"})
    s.all("/api/v1/lab/advise", {**LAB_EXAMPLE, "bonus": 0, "precise": 0, "up": ["Qs"],
                                 "dealer": None})
    s.all("/api/v1/lab/advise", {"profile": "russian-classic", "stage": "no_game",
                                 "cards": ["As", "Kd", "7h", "4c", "2s"],
                                 "dealer": ["Qh", "Jd", "9c", "5s", "3h"], "seen": ["2c"]})
    return s.seen


@pytest.mark.off_the_document  # the unknown game's and the refused bodies' answers
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_every_body_of_every_operation_is_answered_as_the_old_reader_answered_it(
        app: Flask, browser: Browser, other_browser: Browser, croupier: Any) -> None:
    seen = run_all(app, browser, other_browser)
    if RECORD:
        lines = (json.dumps(e, sort_keys=True, ensure_ascii=False) for e in seen)
        TABLE_FILE.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")
    expected = json.loads(TABLE_FILE.read_text(encoding="utf-8"))
    assert len(seen) == len(expected)
    # a 500 the old code raised is a bug (recorded, not a contract: a fix may change it)
    changed = [(e["url"], e["case"], e["status"], s["status"], e["body"], s["body"])
               for e, s in zip(expected, seen, strict=True) if e != s and e["status"] != 500]
    assert changed == []

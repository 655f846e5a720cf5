"""The table screen's requests as ``static/round.js`` sends them (one tap, one request).

"Start round" posts the bets form (``ante_N``, ``bonus_N``, ``player_N``, the form's key) and a tap
posts JSON ``{"type", "payload", "idempotency_key", "expected_seq", "label"}`` with the
``X-CSRF-Token`` header; both answer JSON (the round as the screen draws it next, or a problem).
The page embeds the round as JSON (``#round``'s ``data-round``): :func:`round_data` reads it
back.
"""

from __future__ import annotations

import html
import itertools
import json
import re
from typing import Any

from werkzeug.test import TestResponse

from tests.web.conftest import Browser

_keys = itertools.count(1)


def new_key() -> str:
    """A fresh idempotency key, as the screen makes one per tap."""
    return f"tap-{next(_keys)}"


def start(browser: Browser, table_id: int, key: str | None = None,
          **form: str) -> TestResponse:
    """"Start round" with the bets typed: JSON ``{"round", "created"}`` or a problem."""
    return browser.post(f"/tables/{table_id}/live/rounds", {"key": key or new_key(), **form},
                        headers={"Accept": "application/json"})


def tap(browser: Browser, round_id: int, type: str, payload: dict[str, Any] | None = None, *,
        key: str | None = None, seq: int | None = None, label: str | None = None,
        csrf: bool = True) -> TestResponse:
    """One tap of the table screen: the step's JSON with the session's CSRF header."""
    body: dict[str, Any] = {"type": type, "payload": payload or {},
                            "idempotency_key": key or new_key()}
    if seq is not None:
        body["expected_seq"] = seq
    if label is not None:
        body["label"] = label
    headers = {"Accept": "application/json"}
    if csrf:
        headers["X-CSRF-Token"] = browser.csrf()
    return browser.client.post(f"/live/rounds/{round_id}/steps", json=body, headers=headers)


def suggest(browser: Browser, round_id: int, type: str,
            payload: dict[str, Any] | None = None) -> TestResponse:
    """The screen's "Suggest": the engine's proposed entry, nothing recorded."""
    return browser.client.post(f"/live/rounds/{round_id}/suggest",
                               json={"type": type, "payload": payload or {}},
                               headers={"X-CSRF-Token": browser.csrf(),
                                        "Accept": "application/json"})


def page_and_round(browser: Browser, table_id: int) -> tuple[str, dict[str, Any] | None]:
    """The table screen's HTML and the round it embeds (``None`` when no round is open)."""
    page = browser.get(f"/tables/{table_id}/live").get_data(as_text=True)
    return page, _attribute(page, "round")


def _attribute(page: str, name: str) -> Any:
    """The JSON of ``#round``'s ``data-<name>`` attribute (None: not on the page, or null)."""
    found = re.search(rf'id="round"[^>]*?\sdata-{name}="([^"]*)"', page, re.S)
    return json.loads(html.unescape(found.group(1))) if found else None


def round_data(browser: Browser, table_id: int) -> dict[str, Any] | None:
    """The round as the page embeds it for ``static/round.js`` (``None``: no round open)."""
    return page_and_round(browser, table_id)[1]


def step_of(rnd: dict[str, Any], type: str, box: str | None = None) -> dict[str, Any] | None:
    """The step the screen offers (``type``, for ``box`` if given), as described and said."""
    return next((s for s in rnd["steps"] if s["type"] == type
                 and (box is None or s.get("box") == box)), None)


def box_of(rnd: dict[str, Any], box: str) -> dict[str, Any]:
    return next(b for b in rnd["boxes"] if b["box"] == box)


def offered(rnd: dict[str, Any]) -> list[tuple[str, str | None]]:
    """The steps offered, as (type, box) pairs."""
    return [(s["type"], s.get("box")) for s in rnd["steps"]]


def due_entry(rnd: dict[str, Any]) -> dict[str, Any] | None:
    """The entry ``static/round-state.js`` opens by itself (``entry()``): the next cards to tap in
    dealing order, the dealer's first (a step whose inputs are all cards recorded at the last)."""
    due = [s for s in rnd["steps"] if s["inputs"]
           and all(i["kind"] == "cards" and i.get("auto") for i in s["inputs"])]
    return next((s for s in due if not s.get("box")), due[0] if due else None)


#: the keys of the table screen's JSON whose text a person reads (static/round.js draws them);
#: the others are codes (card codes, step types, wager codes, catalog message ids)
SAID = {"said", "phase", "undo", "empty", "stakes", "hand", "small_hand", "amount_said",
        "net_said", "why", "title", "player", "collected", "dark", "reason", "game", "labels",
        "notes"}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) \
        else []
    return [s for v in items for s in _strings(v)]


def _said(value: Any) -> list[str]:
    if isinstance(value, list):
        return [s for v in value for s in _said(v)]
    if not isinstance(value, dict):
        return []
    return [s for k, v in value.items()
            for s in (_strings(v) if k in SAID or (k == "status" and "box" in value)
                      else _said(v))]


def screen_words(page: str) -> str:
    """What a person reads on the table screen: its HTML, and the round and the renderer's
    words that ``static/round.js`` draws from the page's JSON."""
    drawn = _said(_attribute(page, "round")) + _strings(_attribute(page, "words"))
    drawn = [re.sub(r"%\(\w+\)s", "", said) for said in drawn]  # round.js fills them in
    return page + " <p>" + " </p><p> ".join(drawn) + "</p>"

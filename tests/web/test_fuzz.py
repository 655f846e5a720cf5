"""5,000 fuzzed requests, none answered >= 500.

Hypothesis draws batches of requests over every route of ``app.url_map``, every method it
allows, as every role (and anonymous): path parameters from small real ids to ids beyond 64
bits and junk text, query strings and forms with random keys and text (NUL, control and
non-BMP characters), JSON bodies nested and with lone surrogates, raw bytes, with or without the
CSRF token. The floor has real rows (a table, a shift, settled rounds, a dispute, a void
request) so small ids reach real views. ``FUZZ_REQUESTS`` changes the total (default 5,000).

Left out on purpose, because they end the fuzzing browsers' sessions rather than test input
handling: ``auth.logout``, ``admin.disable_user``, ``admin.reset_password`` and ``POST
/password`` (each has its own tests).
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import quote, urlencode

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.services.disputes import disputes
from dealer_assist.services.rounds import live, voids
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user, pay_round, record_step, start_round
from tests.services.test_disputes import STEPS
from tests.web.conftest import Browser, arrange

TOTAL = int(os.environ.get("FUZZ_REQUESTS", "5000"))
BATCH = 10
ROLES = ("croupier", "pit_boss", "shift_manager", "admin", "auditor", None)
SKIPPED = {("auth.logout", "POST"), ("admin.disable_user", "POST"),
           ("admin.reset_password", "POST"), ("auth.change_password", "POST")}
KEYS = ("status", "table_id", "round_id", "shift_id", "next", "box", "kind", "amount", "note",
        "reason", "outcome", "adjustment", "username", "password", "claim", "claimed_amount",
        "type", "seq", "cards", "ante", "bonus", "game", "profile", "name", "role", "approve",
        "closing_amount", "croupier_id", "pit_boss_id", "samples", "page_size", "boxes")
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
NUMBERS = st.one_of(st.integers(-3, 8), st.integers(2**31, 2**70), st.just(2**63),
                    st.integers(-(2**70), -(2**31)))
SCALAR = st.one_of(NUMBERS.map(str), TEXT, st.sampled_from(["", "1", "0", "-1", "1e9", "NaN",
                                                             "\x00", "9" * 40, "x" * 2000]))
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, st.floats(allow_nan=False), TEXT,
              st.sampled_from(["\ud800", "a\x00b", "\udfff"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(KEYS) | TEXT, inner, max_size=5)),
    max_leaves=20)


def _floor(app: Flask) -> dict[str | None, Browser]:
    """Users of every role, signed in, and a table with real rows behind small ids."""
    ids = {role: arrange(app, make_user, f"fz_{role}", role).id for role in ROLES if role}
    table = arrange(app, make_table, name="FZ 1")
    arrange(app, lambda s: shifts.open_shift(s, table_id=table.id, user_id=ids["croupier"]))

    def play(s: Any, n: int) -> int:
        rnd = start_round(s, table_id=table.id, actor_id=ids["croupier"],
                               boxes=[live.BoxStake("1", 100, 50), live.BoxStake("2", 100)],
                               idempotency_key=f"fz{n}")
        for i, (type, payload) in enumerate(STEPS):
            record_step(s, round_id=rnd.round.id, actor_id=ids["croupier"], type=type,
                             payload=payload, idempotency_key=f"fz{n}-{i}")
        pay_round(s, round_id=rnd.round.id, actor_id=ids["croupier"], idempotency_key=f"p{n}")
        return rnd.round.id

    first, second = arrange(app, play, 1), arrange(app, play, 2)
    arrange(app, lambda s: disputes.file_dispute(
        s, round_id=first, box="1", claim="more", claimed_amount=10, croupier_note="",
        actor_id=ids["croupier"]))
    arrange(app, lambda s: voids.request_change(s, round_id=second, kind="void",
                                                reason="misdeal", actor_id=ids["croupier"]))
    browsers: dict[str | None, Browser] = {}
    for role in ROLES:
        browser = Browser(app.test_client())
        if role:
            assert browser.login(f"fz_{role}").status_code == 302
        browsers[role] = browser
    return browsers


def _routes(app: Flask) -> list[tuple[Any, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if (rule.endpoint, method) not in SKIPPED:
                out.append((rule, method))
    return sorted(out, key=lambda r: (r[0].rule, r[1]))


@st.composite
def _request(draw: Any, routes: list[tuple[Any, str]]) -> dict[str, Any]:
    rule, method = draw(st.sampled_from(routes))
    path = rule.rule
    for name, conv in rule._converters.items():
        kind = type(conv).__name__
        value = draw(NUMBERS.map(str) if "Integer" in kind else
                     st.one_of(TEXT, st.sampled_from(["russian", "app.css", "..%2f"])))
        path = path.replace(f"<{'int:' if 'Integer' in kind else ''}{name}>", quote(value, ""))
        path = path.replace(f"<path:{name}>", quote(value, "")).replace(f"<{name}>",
                                                                        quote(value, ""))
    query = draw(st.dictionaries(st.sampled_from(KEYS), SCALAR, max_size=3))
    body = draw(st.one_of(st.none(), JSON, st.binary(max_size=200),
                          st.dictionaries(st.sampled_from(KEYS), SCALAR, max_size=6)))
    return {"role": draw(st.sampled_from(ROLES)), "method": method,
            "url": path + ("?" + urlencode(query) if query else ""), "body": body,
            "form": draw(st.booleans()), "csrf": draw(st.booleans() | st.just(True))}


def _send(browsers: dict[str | None, Browser], req: dict[str, Any]) -> int:
    browser = browsers[req["role"]]
    headers = {"X-CSRF-Token": browser.csrf()} if req["csrf"] else {}
    headers["Idempotency-Key"] = "fuzz"
    body, kwargs = req["body"], {}
    if isinstance(body, dict) and req["form"] and all(isinstance(v, str) for v in body.values()):
        # encoded by hand: a lone surrogate (possible in a drawn JSON dict sent as a form) goes
        # out as the invalid UTF-8 a broken client would send, instead of failing in urlencode
        fields = {**body, **({"csrf_token": browser.csrf()} if req["csrf"] else {})}
        raw = {k.encode("utf-8", "surrogatepass"): v.encode("utf-8", "surrogatepass")
               for k, v in fields.items()}
        kwargs["data"] = "&".join(f"{quote(k)}={quote(v)}" for k, v in raw.items())
        kwargs["content_type"] = "application/x-www-form-urlencoded"
    elif isinstance(body, bytes):
        kwargs["data"], kwargs["content_type"] = body, "application/json"
    elif body is not None:
        import json

        kwargs["data"] = json.dumps(body)
        kwargs["content_type"] = "application/json"
    resp = browser.client.open(req["url"], method=req["method"], headers=headers, **kwargs)
    return resp.status_code


def test_five_thousand_fuzzed_requests_get_no_answer_of_500_or_more(app: Flask) -> None:
    browsers, routes = _floor(app), _routes(app)
    sent: list[int] = []
    failures: list[str] = []

    # derandomized: the same 5,000 requests on every run, so CI is reproducible; set
    # FUZZ_RANDOM=1 to explore new ones (how the 2^31 id on PostgreSQL was found)
    @settings(max_examples=max(1, TOTAL // BATCH), deadline=None, database=None,
              derandomize=not os.environ.get("FUZZ_RANDOM"),
              suppress_health_check=list(HealthCheck))
    @given(batch=st.lists(_request(routes), min_size=BATCH, max_size=BATCH))
    def fuzz(batch: list[dict[str, Any]]) -> None:
        for req in batch:
            status = _send(browsers, req)
            sent.append(status)
            if status >= 500:
                failures.append(f"{status} {req['method']} {req['url']} as {req['role']}: "
                                f"{req['body']!r:.200}")

    fuzz()
    assert len(sent) >= TOTAL
    assert failures == [], failures[:10]
    assert len({s for s in sent if s < 300}) >= 1  # some requests reached a view

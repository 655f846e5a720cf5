"""A simulated tablet for ``benchmarks/load.py``: an HTTP client over loopback and a croupier.

The croupier plays complete rounds through the rounds API: start (the bets), then each step the
engine offers, in a fixed order of preference (deal, extra cards and split, bet, reveal, take
ANTE, dealer's cards), until the engine can settle, then "Paid". The client keeps its own fold
of the round with the pure rules engine, only to choose the next step and its cards (a Big/Small
split the engine accepts); the server decides. 5 % of requests are double taps (the same request
and key from a second connection at the same moment), 2 % are time-outs (the request is sent and
the connection dropped before the answer) followed by a resend with the same key. A connection
refused (the server was killed) is resent with the same key until the server answers.

The requests are those of one of two paths (``benchmarks/routes.py``): the rounds API, or the
table screen's own.
"""

from __future__ import annotations

import base64
import http.client
import itertools
import json
import random
import sys
import threading
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealer_assist.rules.cards import ALL_CARDS
from dealer_assist.rules.errors import RulesError
from dealer_assist.rules.games.registry import start


def _sibling(name: str) -> Any:
    """``benchmarks/<name>.py`` by file name, once (this directory is off ``sys.path``: its
    ``http.py`` would shadow the standard library's)."""
    import importlib.util

    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


routes = _sibling("routes")
Call, ROUTES, new_key = routes.Call, routes.ROUTES, routes.new_key

PREFERENCE = ("deal_box", "deal_dealer", "extra", "split", "bet", "reveal", "dealer_small",
              "take_ante", "dealer_draw", "show")
DOUBLE_TAP = 0.05
TIME_OUT = 0.02
#: resend a refused request (a dead server) until this many seconds after the run's end
GIVE_UP_S = 60.0


@dataclass
class Stats:
    """What one tablet saw; merged by load.py."""

    step_ms: list[float] = field(default_factory=list)
    settle_ms: list[float] = field(default_factory=list)
    start_ms: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    #: (round_id, key, type) of every step answered 2xx, and keys answered 201 (twice = a bug)
    acked: set[tuple[int, str, str]] = field(default_factory=set)
    created: dict[str, int] = field(default_factory=dict)
    rounds: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)


class Http:
    """One keep-alive connection to 127.0.0.1 with the session cookie and CSRF header."""

    def __init__(self, port: int, cookie: str = "", csrf: str = "") -> None:
        self.port, self.cookie, self.csrf = port, cookie, csrf
        self.conn: http.client.HTTPConnection | None = None
        #: bytes of the 2xx answers read, and how many (the bare app answers as much)
        self.received = self.answers = 0

    def _connection(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        return self.conn

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def headers(self, key: str | None = None, form: bool = False) -> dict[str, str]:
        out = {"Cookie": f"session={self.cookie}"} if self.cookie else {}
        out["Content-Type"] = ("application/x-www-form-urlencoded" if form
                               else "application/json")
        if self.csrf:
            out["X-CSRF-Token"] = self.csrf
        if key:
            out["Idempotency-Key"] = key
        return out

    def call_headers(self, call: Call) -> dict[str, str]:
        return self.headers(call.key if call.header_key else None, call.form)

    def send(self, method: str, path: str, body: bytes | None, headers: dict[str, str],
             read: bool = True) -> tuple[int, Any, http.client.HTTPResponse | None]:
        conn = self._connection()
        try:
            conn.request(method, path, body=body, headers=headers)
            if not read:
                self.close()  # the client's time-out: the answer is never read
                return 0, None, None
            resp = conn.getresponse()
            data = resp.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        if 200 <= resp.status < 300:
            self.received += len(data)
            self.answers += 1
        cookie = _session_cookie(resp.getheader("Set-Cookie"))
        if cookie:
            self.cookie = cookie
        try:
            return resp.status, json.loads(data) if data else None, resp
        except ValueError:
            return resp.status, data.decode(errors="replace"), resp


def _session_cookie(header: str | None) -> str:
    if not header or not header.startswith("session="):
        return ""
    return header.split(";", 1)[0][len("session="):]


def csrf_of(cookie: str) -> str:
    """The CSRF token in Flask's signed (not encrypted) session cookie."""
    payload = cookie.split(".")
    compressed = cookie.startswith(".")
    data = payload[1] if compressed else payload[0]
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    if compressed:
        raw = zlib.decompress(raw)
    return str(json.loads(raw)["csrf_token"])


def login(port: int, username: str, password: str) -> Http:
    """Sign in through the login form; return a client carrying the cookie and CSRF token."""
    client = Http(port)
    status, _page, _ = client.send("GET", "/login", None, client.headers())
    assert status == 200, status
    token = csrf_of(client.cookie)
    from urllib.parse import urlencode

    body = urlencode({"username": username, "password": password, "csrf_token": token})
    status, _page, _ = client.send("POST", "/login", body.encode(), client.headers(form=True))
    assert status in (302, 303), f"login {username}: {status}"
    client.csrf = csrf_of(client.cookie)
    return client


class Tablet(threading.Thread):
    """One croupier at one table, playing rounds back to back until ``deadline``."""

    def __init__(self, n: int, port: int, table: dict[str, Any], password: str,
                 deadline: float, seed: int, path: str = "api") -> None:
        super().__init__(name=f"tablet-{n}", daemon=True)
        self.port, self.table, self.password, self.deadline = port, table, password, deadline
        self.rng = random.Random(seed)
        self.route = ROUTES[path]
        self.stats = Stats()
        self.http: Http | None = None

    def run(self) -> None:
        try:
            self.http = self.http or self._retry_login()
            while time.monotonic() < self.deadline:
                self.play_round()
        except Exception as err:  # noqa: BLE001 - reported by load.py, never silent
            self.stats.errors.append(f"{type(err).__name__}: {err}")

    def _retry_login(self) -> Http:
        until = self.deadline + GIVE_UP_S
        while True:
            try:
                return login(self.port, self.table["user"], self.password)
            except OSError:
                if time.monotonic() > until:
                    raise
                time.sleep(0.2)

    # --- one round ----------------------------------------------------------------------
    def play_round(self) -> None:
        t, route = self.table, self.route
        engine, state = start(t["game"], t["profile"], t["min_ante"], t["max_ante"],
                            t["max_payout"])
        deck = list(ALL_CARDS)
        self.rng.shuffle(deck)
        boxes = [{"box": str(b), "ante": 10 * self.rng.randint(1, 20)}
                 for b in range(1, self.rng.randint(1, 3) + 1)]
        follows, state = route.follow(engine, engine.step(state, "place", {"boxes": boxes}))
        csrf = self.http.csrf if self.http else ""
        body = self.post(route.start(t["id"], boxes, new_key(), csrf), "place",
                         self.stats.start_ms, None, follows)
        if body is None:
            return
        rid, seq = route.round_of(body)
        self.same_seq(rid, seq, 1 + len(follows))
        while not engine.can_settle(state):
            choice = self.choose(engine, state, deck)
            if choice is None:
                raise RuntimeError(f"{t['game']}: no step the engine accepts; "
                                   f"offered {[s.type for s in engine.next_steps(state)]}")
            type, payload, state = choice
            follows, state = route.follow(engine, state)
            body = self.post(route.step(rid, type, payload, new_key(), seq), type,
                             self.stats.step_ms, rid, follows)
            if body is None:
                return
            seq = self.same_seq(rid, route.round_of(body)[1], (seq or 0) + 1 + len(follows))
        if self.post(route.step(rid, "paid", None, new_key(), seq), "paid",
                     self.stats.settle_ms, rid) is not None:
            self.stats.rounds += 1

    def same_seq(self, rid: int, answered: int | None, folded: int) -> int | None:
        """The answer's last sequence number is the client's fold's (the screen path): the
        server recorded the steps the engine records by itself, no more, no fewer."""
        if answered is not None and answered != folded:
            raise RuntimeError(f"round {rid}: the server's last_seq {answered}, the client's "
                               f"fold {folded}")
        return answered

    def choose(self, engine: Any, state: Any, deck: list[Any]) -> tuple[str, dict[str, Any],
                                                                        Any] | None:
        """The first offered step, in :data:`PREFERENCE` order, that the engine accepts."""
        offered = engine.next_steps(state)
        for type in PREFERENCE:
            for step in (s for s in offered if s.type == type):
                for payload in self.payloads(step, deck):
                    try:
                        after = engine.step(state, type, payload)
                    except RulesError:
                        continue
                    used = {c for v in payload.values() if isinstance(v, list) for c in v}
                    deck[:] = [c for c in deck if c.code not in used]
                    return type, payload, after
        return None

    def payloads(self, step: Any, deck: list[Any]) -> Any:
        box = {"box": step.box} if step.box is not None else {}
        if step.type == "split":
            seven = list(step.discard)
            for small in itertools.combinations(seven, 2):
                yield {**box, "big": [c for c in seven if c not in small], "small": list(small)}
            return
        n = step.cards or (1 if step.type == "dealer_draw" else 0)
        # dealing order: the dealer's face-up card(s) are "up"; a Big/Small box with
        # free extra cards shows its Small Hand beside the Big Hand
        key = "up" if step.type == "deal_dealer" else "cards"
        cards: dict[str, Any] = {key: [c.code for c in deck[:n]]} if n else {}
        if step.type == "show" and step.small:
            cards["small"] = [c.code for c in deck[n:n + step.small]]
        if step.type == "extra":
            yield {**box, "mode": step.modes[0], **cards}
            return
        yield {**box, **cards}

    # --- one request, with double taps, time-outs and resends ----------------------------
    def post(self, call: Call, type: str, timings: list[float], rid: int | None = None,
             follows: Sequence[str] = ()) -> Any:
        """One request until answered: its answer if 2xx (counted: what the database must
        then hold), else None."""
        assert self.http is not None
        twin = None
        roll = self.rng.random()
        if roll < DOUBLE_TAP:
            twin = threading.Thread(target=self._twin, args=(call, type, rid, follows))
            twin.start()
        elif roll < DOUBLE_TAP + TIME_OUT:
            self._send_once(call, read=False)
        status, answer = self._until_answered(call, timings)
        if twin is not None:
            twin.join()
        return self._account(status, answer, call.key, type, rid, follows)

    def _twin(self, call: Call, type: str, rid: int | None, follows: Sequence[str]) -> None:
        other = Http(self.port, self.http.cookie if self.http else "",
                     self.http.csrf if self.http else "")
        try:
            status, answer, _ = other.send("POST", call.path, call.body, other.call_headers(call))
            self._account(status, answer, call.key, type, rid, follows)
        except (OSError, http.client.HTTPException):
            pass  # the server died under the twin: the main request resends
        finally:
            other.close()

    def _send_once(self, call: Call, read: bool) -> None:
        assert self.http is not None
        try:
            self.http.send("POST", call.path, call.body, self.http.call_headers(call), read=read)
        except (OSError, http.client.HTTPException):
            pass

    def _until_answered(self, call: Call, timings: list[float]) -> tuple[int, Any]:
        assert self.http is not None
        until = self.deadline + GIVE_UP_S
        while True:
            t0 = time.perf_counter()
            try:
                status, answer, _ = self.http.send("POST", call.path, call.body,
                                                   self.http.call_headers(call))
            except (OSError, http.client.HTTPException):
                if time.monotonic() > until:
                    raise
                time.sleep(0.05)
                continue
            if status == 503:  # busy: the same key again after Retry-After (counted as 5xx)
                self._count(status)
                time.sleep(0.05)
                continue
            timings.append((time.perf_counter() - t0) * 1000)
            return status, answer

    def _count(self, status: int) -> None:
        with _LOCK:
            self.stats.statuses[status] = self.stats.statuses.get(status, 0) + 1

    def _account(self, status: int, answer: Any, key: str, type: str, rid: int | None,
                 follows: Sequence[str] = ()) -> Any:
        self._count(status)
        if status not in (200, 201):
            with _LOCK:
                self.stats.refused += 1
                if len(self.stats.errors) < 20:
                    self.stats.errors.append(f"{type} -> {status}: {str(answer)[:300]}")
            return None
        round_id = rid if rid is not None else self.route.round_of(answer)[0]
        with _LOCK:
            self.stats.acked.update(routes.acknowledged(round_id, key, type, follows))
            if status == 201:
                self.stats.created[key] = self.stats.created.get(key, 0) + 1
        return answer


_LOCK = threading.Lock()

"""The simulated tables of ``benchmarks/floor.py``: one croupier each, one request at a time.

A table is a small state machine: :meth:`FloorTable.next_request` says what its croupier sends
now, :meth:`FloorTable.answered` takes the server's answer. A house table (any of the four house
games) plays complete rounds as ``load_tablet.Tablet`` does -- the bets, then each step the
engine offers, chosen with the pure rules engine on the table's own fold, then "Paid"; a poker
table deals 32-card draw hands (four seated players) and plays each with a simple policy read
from the server's answer (``to_act`` and ``legal``): the first betting round checked or called,
no cards drawn, the Parole declined, then everyone folds to the last player. A request answered
503 is sent again with the same idempotency key; anything else but 2xx stops the table (an
error the run reports).

A house table sends the requests of the floor's path (``benchmarks/routes.py``: the rounds API,
or the table screen's own, whose answers' ``last_seq`` must be the table's fold's); a poker
table always the poker API (the poker room's screen is not on that path). A bare table
(:class:`BareTable`) sends a step of the same size to the bare Flask app
(``benchmarks/bare_app.py``): the same floor, for the figure beside ours.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.rules.cards import ALL_CARDS
from dealer_assist.rules.games.registry import start


@dataclass
class Request:
    method: str
    path: str
    body: bytes
    key: str
    #: what the check looks for: ("event", type) stored under the key, ("hand", "start"), or
    #: nothing (("bare", "step"))
    kind: tuple[str, str]
    #: form-encoded (else JSON); the key in the ``Idempotency-Key`` header (else in the body)
    form: bool = False
    header_key: bool = True
    #: the steps the server records by itself after this one (the screen path)
    follows: Sequence[str] = ()


def json_request(path: str, body: dict[str, Any], key: str, kind: tuple[str, str]) -> Request:
    return Request("POST", path, json.dumps(body).encode(), key, kind)


def of_call(call: Any, kind: tuple[str, str], follows: Sequence[str] = ()) -> Request:
    """A path's request (``routes.Call``) as the floor sends it."""
    return Request("POST", call.path, call.body, call.key, kind, call.form, call.header_key,
                   follows)


class FloorTable:
    """What every simulated table shares: its croupier's login and its request in hand."""

    def __init__(self, plan: dict[str, Any], seed: int) -> None:
        self.plan = plan
        self.rng = random.Random(seed)
        self.cookie = ""
        self.csrf = ""
        self.pending: Request | None = None
        self.stopped: str | None = None
        self.stream: int | None = None

    def next_request(self) -> Request:
        """The request in hand (a resend after a 503) or the next one."""
        if self.pending is None:
            self.pending = self.make_request()
        return self.pending

    def make_request(self) -> Request:
        raise NotImplementedError

    def answered(self, status: int, body: Any) -> None:
        request = self.pending
        assert request is not None
        if status == 503:
            return  # the same request and key again at the next arrival
        self.pending = None
        if status not in (200, 201):
            self.stopped = f"{request.kind} -> {status}: {str(body)[:300]}"
            return
        self.take(request, body)

    def take(self, request: Request, body: Any) -> None:
        raise NotImplementedError

    def round_id(self, body: Any) -> int:
        """The round (or hand) a 2xx answer is about."""
        return self.stream if self.stream is not None else int(body["id"])


class HouseTable(FloorTable):
    """Russian poker, Caribbean stud, Oasis or Big/Small: rounds back to back."""

    def __init__(self, plan: dict[str, Any], seed: int, chooser: Any) -> None:
        super().__init__(plan, seed)
        self.chooser = chooser  # load_tablet.Tablet: its engine-driven choice of a step
        self.route = chooser.route  # the floor's path (routes.py)
        self.engine: Any = None
        self.state: Any = None
        self.deck: list[Any] = []
        self.chosen: Any = None
        self.seq = 0

    def make_request(self) -> Request:
        key, route = uuid.uuid4().hex, self.route
        if self.stream is None:
            p = self.plan
            self.engine, self.state = start(p["game"], p["profile"], p["min_ante"], p["max_ante"],
                                          p["max_payout"])
            self.deck = list(ALL_CARDS)
            self.rng.shuffle(self.deck)
            boxes = [{"box": str(b), "ante": 10 * self.rng.randint(1, 20)}
                     for b in range(1, self.rng.randint(1, 3) + 1)]
            follows, self.chosen = route.follow(self.engine, self.engine.step(
                self.state, "place", {"boxes": boxes}))
            self.seq = 0
            return of_call(route.start(p["id"], boxes, key, self.csrf), ("event", "place"),
                           follows)
        if self.engine.can_settle(self.state):
            self.chosen = None
            return of_call(route.step(self.stream, "paid", None, key, self.seq),
                           ("event", "paid"))
        choice = self.chooser.choose(self.engine, self.state, self.deck)
        if choice is None:
            raise RuntimeError(f"{self.plan['game']}: no step the engine accepts")
        type, payload, chosen = choice
        follows, self.chosen = route.follow(self.engine, chosen)
        return of_call(route.step(self.stream, type, payload, key, self.seq), ("event", type),
                       follows)

    def round_id(self, body: Any) -> int:
        return self.stream if self.stream is not None else int(self.route.round_of(body)[0])

    def take(self, request: Request, body: Any) -> None:
        rid, seq = self.route.round_of(body)
        folded = self.seq + 1 + len(request.follows)
        if seq is not None and seq != folded:  # the screen: the server's steps are the fold's
            self.stopped = f"round {rid}: the server's last_seq {seq}, the table's fold {folded}"
        self.seq = folded
        if request.kind == ("event", "place"):
            self.stream = rid
        if request.kind == ("event", "paid"):
            self.stream = None
        else:
            self.state = self.chosen


class BareTable(FloorTable):
    """A croupier of the bare Flask app: a step of a step's size, answered with ``answer``
    bytes (ours, on average), stored, never checked."""

    def __init__(self, plan: dict[str, Any], seed: int, body: bytes) -> None:
        super().__init__(plan, seed)
        self.body = body

    def make_request(self) -> Request:
        return Request("POST", "/step", self.body, uuid.uuid4().hex, ("bare", "step"))

    def take(self, request: Request, body: Any) -> None:
        pass


class PokerTable(FloorTable):
    """32-card draw, four players: hands back to back, short and complete."""

    def __init__(self, plan: dict[str, Any], seed: int) -> None:
        super().__init__(plan, seed)
        self.hand: dict[str, Any] = {}
        self.last_seq = 0

    def make_request(self) -> Request:
        key = uuid.uuid4().hex
        if self.stream is None:
            return json_request(f"/api/v1/poker/tables/{self.plan['id']}/hands", {}, key,
                                ("hand", "start"))
        return json_request(f"/api/v1/poker/hands/{self.stream}/actions",
                            {"action": self.policy(), "expected_seq": self.last_seq}, key,
                            ("event", "action"))

    def policy(self) -> dict[str, Any]:
        hand = self.hand
        seat, legal = hand.get("to_act"), hand.get("legal") or {}
        if legal.get("parole"):
            return {"type": "parole", "agreed": False}
        if hand.get("status") == "draw":
            return {"type": "draw", "seat": seat, "discard": 0}
        if hand.get("round", 1) > 1 and legal.get("fold"):
            return {"type": "fold", "seat": seat}
        if legal.get("check"):
            return {"type": "check", "seat": seat}
        if legal.get("call") is not None:
            return {"type": "call", "seat": seat}
        return {"type": "fold", "seat": seat}

    def take(self, request: Request, body: Any) -> None:
        if request.kind == ("hand", "start"):
            self.stream = int(body["id"])
        self.hand, self.last_seq = body["hand"], int(body["last_seq"])
        if body["status"] != "open":
            self.stream = None

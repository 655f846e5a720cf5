"""The two paths of the load benchmarks' tablets (``--path``), as requests.

``api``: the rounds API (``/api/v1``); the tablet sends every step the engine offers, the
forced ones too. ``screen``: the table screen's own requests (``web/live.py``):
"Start round" is the bets form (``ante_N`` and its key, form-encoded, the CSRF token in the form
and the header) and each tap one JSON ``POST /live/rounds/<id>/steps`` with its key and the last
sequence number the screen showed. What the engine records by itself (``Step.auto``: a deal
with nothing face up, a forced BET) the server records in the same request; the client's fold
applies the same steps (:meth:`ScreenRoute.follow`) and checks the answer's ``last_seq``
against it, and the database check looks for them under their keys (:func:`acknowledged`).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from dealer_assist.rules.engine import Folded
from dealer_assist.rules.stream import follow_ups
from dealer_assist.services.rounds.record import follow_key


@dataclass(frozen=True)
class Call:
    """One request of a path: where, its body, and where its idempotency key travels."""

    path: str
    body: bytes
    key: str
    #: ``application/x-www-form-urlencoded`` (the bets form), else JSON
    form: bool = False
    #: the key in the ``Idempotency-Key`` header (the API), else in the body (the screen)
    header_key: bool = True


class ApiRoute:
    """The rounds API: the tablet sends every step, the engine's forced ones too."""

    name = "api"

    def start(self, table_id: int, boxes: list[dict[str, Any]], key: str, csrf: str) -> Call:
        return Call(f"/api/v1/tables/{table_id}/rounds", json.dumps({"boxes": boxes}).encode(),
                    key)

    def step(self, rid: int, type: str, payload: dict[str, Any] | None, key: str,
             seq: int | None) -> Call:
        body = {"type": type} if payload is None else {"type": type, "payload": payload}
        return Call(f"/api/v1/rounds/{rid}/events", json.dumps(body).encode(), key)

    def round_of(self, answer: Any) -> tuple[int, int | None]:
        """The round's id and last sequence number in an answer (the API's: no check)."""
        return int(answer["id"]), None

    def follow(self, engine: Any, state: Any) -> tuple[list[str], Any]:
        return [], state


class ScreenRoute(ApiRoute):
    """The table screen (``web/live.py``): the bets form, then one JSON request per tap; the
    server records the engine's own steps (``Step.auto``) in the same request."""

    name = "screen"

    def start(self, table_id: int, boxes: list[dict[str, Any]], key: str, csrf: str) -> Call:
        form = {"csrf_token": csrf, "key": key,
                **{f"ante_{b['box']}": str(b["ante"]) for b in boxes}}
        return Call(f"/tables/{table_id}/live/rounds", urlencode(form).encode(), key,
                    form=True, header_key=False)

    def step(self, rid: int, type: str, payload: dict[str, Any] | None, key: str,
             seq: int | None) -> Call:
        body = {"type": type, "payload": payload or {}, "idempotency_key": key,
                "expected_seq": seq}
        return Call(f"/live/rounds/{rid}/steps", json.dumps(body).encode(), key,
                    header_key=False)

    def round_of(self, answer: Any) -> tuple[int, int | None]:
        return int(answer["round"]["id"]), int(answer["round"]["last_seq"])

    def follow(self, engine: Any, state: Any) -> tuple[list[str], Any]:
        """The steps the engine records by itself after ``state`` (the record path's
        ``rules.stream.follow_ups``), applied to the client's fold: their types and the state."""
        more, folded = follow_ups(engine, Folded(state, ()))
        return [kind for kind, _ in more], folded.state


ROUTES: dict[str, ApiRoute] = {"api": ApiRoute(), "screen": ScreenRoute()}


def new_key() -> str:
    return uuid.uuid4().hex


def acknowledged(rid: int, key: str, type: str,
                 follows: Sequence[str]) -> list[tuple[int, str, str]]:
    """What the database must hold for a request answered 2xx: its step under its key, and the
    engine's follow-ups under theirs (``record.follow_key``)."""
    return [(rid, key, type)] + [(rid, follow_key(key, n), f)
                                 for n, f in enumerate(follows, 1)]

"""The round in the table's tablet while the server cannot be reached: the same engine, the same
record path's rules (:mod:`dealer_assist.rules.stream`), the same screen (:mod:`.screen`).

The tablet keeps a mirror of the round: its own rules (as the server froze them at the start)
and its events. Online, the page opens the mirror from the round the server drew; offline, each
tap is checked and applied here exactly as the server would (the engine verifies it, the steps
the engine records by itself follow it, the screen is built from the result) and the page queues
the step to send when the server answers again -- the server re-checks every queued step and
its stored events are the record (RULES.md, "Offline at the table").

``handle(op, args_json) -> answer_json`` is the one entry the page's worker calls:

* ``open``: ``{ref, round: {id, number, status, rules, events: [{seq, type, payload, key}]},
  lang}`` -> ``{round: screen}``;
* ``start``: ``{ref, rules, number, form: [[name, value]...], key, lang}`` -> a provisional
  round from the bets form (its number is the server's once it accepts it);
* ``step``: ``{ref, type, payload, idempotency_key, expected_seq, label, lang}`` -> ``{round,
  created, events}`` (``events``: what the server will store for it) or ``{problem}``;
* ``refine``/``suggest``: ``{ref, type, payload, lang}`` -> the step as the engine offers it
  knowing what was entered so far / its suggested entry (as the server's answers);
* ``warm``: ``{rules, lang}`` -> what a first offline tap would load, loaded;
* ``ping`` -> the engine's Python version.

Nothing here reads a clock, a file but the catalogs, or the network.
"""

from __future__ import annotations

import gettext
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.engine import PAID, UNDO, VOID, Event, Folded, Game
from ..rules.errors import RulesError
from ..rules.fields import RequestError
from ..rules.games.registry import rules_engine
from ..rules.games.stud import phase
from ..rules.phrase import Phrase
from ..rules.stream import META, follow_key, follow_ups, play
from . import bets, refusal
from .screen import Shown, closed_phase, last_effective, screen, step_view
from .words import Words, catalog_words

#: the longest idempotency key the server stores (``services.rounds.store.KEY_MAX``)
KEY_MAX = 64
CATALOGS = Path(__file__).resolve().parent.parent / "translations"
OPEN, SETTLED = "open", "settled"


@dataclass(frozen=True, slots=True)
class Stored:
    """An event as the tablet keeps it: what the server stores for it."""

    seq: int
    type: str
    payload: dict[str, Any]
    key: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.type, "payload": self.payload, "key": self.key}


@dataclass(slots=True)
class Mirror:
    """A round as the tablet knows it."""

    id: Any
    number: int | None
    status: str
    rules: dict[str, Any]
    engine: Game[Any]
    events: list[Stored] = field(default_factory=list)
    folded: Folded[Any] | None = None

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    def replay(self, events: list[Stored]) -> Folded[Any]:
        return self.engine.replay(self.engine.start(self.rules),
                                [Event(e.seq, e.type, e.payload) for e in events])


_rounds: dict[str, Mirror] = {}
_words: dict[str, Words] = {}


def words(lang: str) -> Words:
    """The words of ``lang`` from the server's own compiled catalogs (English by default)."""
    lang = lang if lang in ("en", "ru") else "en"
    if lang not in _words:
        path = CATALOGS / lang / "LC_MESSAGES" / "messages.mo"
        with path.open("rb") as fh:
            _words[lang] = catalog_words(gettext.GNUTranslations(fh), lang)
    return _words[lang]


def _shown(m: Mirror) -> Shown:
    assert m.folded is not None
    engine, state, is_open = m.engine, m.folded.state, m.status == OPEN
    settlement = engine.settle(state) if engine.can_settle(state) else None
    steps = tuple(s for s in engine.next_steps(state) if s.type != VOID) if is_open else ()
    ready = settlement if settlement is not None else (
        engine.settle_ready(state) if is_open else None)
    return Shown(id=m.id, number=m.number, status=m.status, open=is_open, last_seq=m.last_seq,
                 frozen=False,
                 phase=phase(steps, settlement is not None) if is_open else closed_phase(m.status),
                 engine=engine, state=state, steps=steps, settlement=settlement, ready=ready,
                 undo=last_effective(m.events, m.folded.last_step)
                 if is_open and m.folded.steps else None)


def _open(args: dict[str, Any]) -> dict[str, Any]:
    r = args["round"]
    rules = dict(r["rules"])
    m = Mirror(r.get("id"), r.get("number"), r.get("status", OPEN), rules, rules_engine(rules),
               [Stored(int(e["seq"]), e["type"], dict(e.get("payload") or {}), e.get("key"))
                for e in r.get("events", [])])
    m.folded = m.replay(m.events)
    _rounds[str(args["ref"])] = m
    return {"round": screen(_shown(m), words(args.get("lang", "en")))}


def _start(args: dict[str, Any]) -> dict[str, Any]:
    """A round started offline from the bets form: ``place`` as the server's start records it
    (the engine checks the bets; what it then records by itself follows)."""
    w = words(args.get("lang", "en"))
    rules = dict(args["rules"])
    m = Mirror(args["ref"], args.get("number"), OPEN, rules, rules_engine(rules))
    empty = m.replay([])
    try:
        boxes = bets.boxes(args.get("form") or [])
        actions = m.engine.decode(empty.state, "place", {"boxes": boxes})
        state = m.engine.play(empty.state, actions, new=True, type="place")
    except bets.BetsError as err:
        return {"problem": err.problem(w)}
    except (RulesError, RequestError) as err:
        form = [(str(k), str(v)) for k, v in args.get("form") or []]
        target = refusal.input_for(err.field, err.value, form) or err.field
        box = refusal.box_of(target)
        what = w.gettext("Box %(box)s", box=box) if box else ""
        body = refusal.rule_problem(err, {}, "", w)
        body.update(field=target, box=box, detail=refusal.detail(what, err.message, w))
        return {"problem": {k: v for k, v in body.items() if v is not None}}
    key = str(args["key"])
    appended = [("place", m.engine.encode_event("place", actions))]
    more, folded = follow_ups(m.engine, Folded(state, (1,)))
    m.events = _stored(appended + more, 0, key)
    m.folded = folded
    _rounds[str(args["ref"])] = m
    return {"round": screen(_shown(m), w), "created": True,
            "events": [e.to_dict() for e in m.events], "boxes": boxes}


def _stored(appended: list[tuple[str, dict[str, Any]]], last_seq: int,
            key: str) -> list[Stored]:
    # the server stores a payload as canonical JSON and reads it back: the same dict
    return [Stored(last_seq + 1 + n, kind, json.loads(json.dumps(body)),
                   follow_key(key, n, KEY_MAX)) for n, (kind, body) in enumerate(appended)]


def _step(args: dict[str, Any]) -> dict[str, Any]:
    m = _rounds[str(args["ref"])]
    w = words(args.get("lang", "en"))
    type, key = str(args["type"]), str(args["idempotency_key"])
    payload = dict(args.get("payload") or {})
    label = str(args.get("label") or "")
    if any(e.key == key for e in m.events):  # a resend: the round as it is
        return {"round": screen(_shown(m), w), "created": False, "events": []}
    conflict = _conflict(m, args.get("expected_seq"), type)
    if conflict is not None:
        what, box = refusal.step_what(payload, label, w)
        return {"problem": {"type": "about:blank", "title": "Conflict", "status": 409,
                            "detail": refusal.detail(what, w.say(conflict), w), "box": box}}
    assert m.folded is not None
    before = m.folded.state
    try:
        played = play(m.engine, m.folded, type, payload, m.last_seq,
                      undone=lambda seq: m.replay([e for e in m.events if e.seq < seq]))
    except (RulesError, RequestError) as err:
        return {"problem": refusal.rule_problem(err, payload, label, w)}
    if played is None:  # the round already holds what the step asks: nothing stored
        return {"round": screen(_shown(m), w), "created": False, "events": []}
    appended, folded = [(type, played.stored)], played.folded
    if type not in META:
        more, folded = follow_ups(m.engine, folded)
        appended += more
    new = _stored(appended, m.last_seq, key)
    m.events += new
    m.folded = folded
    if type == PAID:
        m.status = SETTLED
    out = {"round": screen(_shown(m), w, before=before), "created": True,
           "events": [e.to_dict() for e in new]}
    if type == PAID:
        out["paid"] = (w.gettext("Round %(number)s paid. Next round.", number=m.number)
                       if m.number is not None else
                       w.gettext("The round is paid; the server gives it its number. "
                                 "Next round."))
    return out


def _conflict(m: Mirror, expected: Any, type: str) -> Any:
    """What the record path refuses before the engine: a closed round, a stale screen, an
    undo with nothing to undo (its words, ``tablet.refusal``)."""
    if m.status != OPEN:
        return Phrase(refusal.CLOSED, number=m.number, status=Phrase(m.status))
    if expected is not None and int(expected) != m.last_seq:
        return Phrase(refusal.STALE, number=m.number, last_seq=m.last_seq,
                      expected_seq=expected)
    if type == UNDO and m.folded is not None and not m.folded.steps:
        return Phrase(refusal.NOTHING, number=m.number)
    return None


def _ask(args: dict[str, Any], hook: str) -> tuple[Any, Words] | dict[str, Any]:
    m = _rounds[str(args["ref"])]
    w = words(args.get("lang", "en"))
    assert m.folded is not None
    try:
        return getattr(m.engine, hook)(m.folded.state, str(args["type"]),
                                     dict(args.get("payload") or {})), w
    except (RulesError, RequestError) as err:
        return {"problem": refusal.rule_problem(err, {}, "", w)}


def _refine(args: dict[str, Any]) -> dict[str, Any]:
    """A step as the engine offers it knowing what was entered so far (the insurance's limit
    once the hand is tapped), as the server's ``/refine`` answers."""
    found = _ask(args, "refine_step")
    if isinstance(found, dict):
        return found
    step, w = found
    return {"step": step_view(step, w)} if step is not None else {"problem": _no_suggestion(w)}


def _suggest(args: dict[str, Any]) -> dict[str, Any]:
    """The engine's suggested entry for a step (a Big/Small split), as ``/suggest`` answers."""
    found = _ask(args, "suggest_step")
    if isinstance(found, dict):
        return found
    suggestion, w = found
    if suggestion is None:
        return {"problem": _no_suggestion(w)}
    return {"payload": suggestion[0], "said": w.say(suggestion[1])}


def _no_suggestion(w: Words) -> dict[str, Any]:
    return {"type": "about:blank", "title": "No suggestion", "status": 422,
            "detail": w.gettext("The engine has no suggestion here.")}


def _warm(args: dict[str, Any]) -> dict[str, Any]:
    """Everything a first offline tap would load, loaded now (while the server still answers):
    the table's game, its catalog, a round started and drawn, then forgotten."""
    limits = dict(args["rules"].get("limits") or {})
    ante = str(limits.get("min_ante") or 10)
    started = _start({"ref": "~warm", "rules": args["rules"], "key": "~warm",
                      "form": [["ante_1", ante]], "lang": args.get("lang", "en")})
    _rounds.pop("~warm", None)
    return {"warm": "round" in started}


def _ping(args: dict[str, Any]) -> dict[str, Any]:
    return {"pong": True, "python": sys.version.split()[0]}


OPS = {"open": _open, "start": _start, "step": _step, "refine": _refine, "suggest": _suggest,
       "warm": _warm, "ping": _ping}


def handle(op: str, args_json: str) -> str:
    """The worker's one entry: an operation and its JSON arguments -> the JSON answer."""
    if op not in OPS:
        return json.dumps({"problem": {"status": 400, "title": "Unknown operation",
                                       "detail": op}})
    return json.dumps(OPS[op](json.loads(args_json or "{}")), ensure_ascii=False)

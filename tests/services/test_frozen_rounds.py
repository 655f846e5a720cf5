"""Rounds stored by the old code replay to exactly what the old code said.

``tests/data/frozen_rounds.sqlite3`` holds rounds of every game recorded through the services
by the code at 0245402, before rebuilt the engine and the record path;
``frozen_rounds.json.gz`` holds what that code said about each of them (see
``tests/data/make_frozen_rounds.py``). The database is copied, migrated to the head revision,
and every stored round is replayed by the code of now: the stored events, the encoding of every
step, the state summary, the next steps and the settlement after every event, the stored
settlement, the round as the API shows it and the dispute review's recomputation must all be
the same, byte for byte (canonical JSON), except for the fields a later issue added, each named in
``ADDED`` (contracts are extended, never renamed: an old reader sees what it saw).
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session

from dealer_assist import db
from dealer_assist.rules.engine import META_EVENTS, Event
from dealer_assist.rules.errors import RulesError
from dealer_assist.rules.games.poker import hand_to_dict, parse_hand
from dealer_assist.rules.games.registry import start_rules
from dealer_assist.rules.games.stud import phase
from dealer_assist.services.rounds import live, parlour, poker_hands
from dealer_assist.services.rounds import review as round_review
from dealer_assist.services.rounds import store as rounds

DATA = Path(__file__).resolve().parents[1] / "data"


#: Fields added since the frozen code, by issue: a box's fees collected at the tap and the
#: dealer's bought game as soon as it is drawn (the state summary); the pots
#: from the showdown on (a poker hand's body). Nothing else may differ.
#: fields added since the rounds were frozen (each step's inputs, the steps the engine
#: records by itself, the steps it can suggest)
ADDED = frozenset({"collected", "bought", "pots", "inputs", "auto", "suggests"})


def without_added(new: Any, old: Any) -> Any:
    """``new`` without the ``ADDED`` keys that ``old`` lacks at the same place (walked together):
    an old reader's view of the new answer; a field the old code also gave is compared."""
    if isinstance(new, dict) and isinstance(old, dict):
        return {k: without_added(v, old.get(k)) for k, v in new.items()
                if k in old or k not in ADDED}
    if isinstance(new, list) and isinstance(old, list):
        return [without_added(n, old[i] if i < len(old) else None) for i, n in enumerate(new)]
    return new


def test_without_added_leaves_out_only_the_added_fields() -> None:
    new = {"boxes": [{"collected": 20, "ante": 10}], "dealer": {"bought": None, "up": []}}
    old = {"boxes": [{"ante": 10}], "dealer": {"up": []}}
    assert without_added(new, old) == old
    assert without_added([{"pot": 5, "pots": [1]}], [{"pot": 5, "pots": [2]}]) == [
        {"pot": 5, "pots": [1]}]  # a field the old code gave is kept and compared
    assert without_added({"pot": 5, "side": 1}, {"pot": 5}) == {"pot": 5, "side": 1}


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=str)


@pytest.fixture(scope="module")
def oracle() -> dict[str, Any]:
    with gzip.open(DATA / "frozen_rounds.json.gz", "rt", encoding="utf-8") as f:
        found: dict[str, Any] = json.load(f)
    return found


@pytest.fixture(scope="module")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    """A copy of the old code's database, migrated to the head revision."""
    path = tmp_path_factory.mktemp("frozen") / "frozen.sqlite3"
    shutil.copyfile(DATA / "frozen_rounds.sqlite3", path)
    engine = db.make_engine(f"sqlite:///{path}")
    db.upgrade(engine)
    with Session(engine, expire_on_commit=False) as session:
        yield session
    engine.dispose()


def test_the_frozen_database_has_rounds_of_every_game(oracle: dict[str, Any]) -> None:
    games = {r["game"] for r in oracle["house"]}
    assert games == {"russian", "caribbean", "oasis", "split"}
    poker = {r["hand"]["rules"]["profile"].split("-")[0] for r in oracle["poker"]}
    assert poker == {"americana", "draw32"} and len(oracle["parlour"]) == 2


def _review(session: Session, rid: int) -> dict[str, Any]:
    review = round_review.replay_round(session, rid)
    return {"recomputed": review.recomputed, "error": review.error,
            "differences": [str(d) for d in review.differences]}


def _prefix(rules: dict[str, Any], events: list[rounds.EventView]) -> dict[str, Any]:
    engine, empty = start_rules(rules)
    try:
        folded = engine.replay(empty, [Event(e.seq, e.type, e.payload) for e in events])
    except RulesError as err:
        return {"error": str(err)}
    state = folded.state
    steps = engine.next_steps(state)
    settled = engine.settle(state).to_dict() if engine.can_settle(state) else None
    ready = engine.settle_ready(state)
    return {"summary": engine.summary(state), "steps": [s.to_dict() for s in steps],
            "phase": str(phase(steps, settled is not None)), "effective": list(folded.steps),
            "closed": folded.closed, "settlement": settled,
            "ready": ready.to_dict() if ready is not None else None,
            "voided": engine.voided(state)}


def _encodings(rules: dict[str, Any], events: list[rounds.EventView]) -> list[str]:
    """Every stored step decoded into actions and encoded again (what a step stores)."""
    engine, empty = start_rules(rules)
    out = []
    for k, e in enumerate(events):
        if e.type in META_EVENTS:
            out.append(rounds.encode_payload(e.payload))
            continue
        state = engine.replay(empty, [Event(x.seq, x.type, x.payload) for x in events[:k]]).state
        out.append(rounds.encode_payload(engine.normalize(state, e.type, e.payload)))
    return out


def test_every_stored_house_round_replays_to_what_the_old_code_said(
        frozen: Session, oracle: dict[str, Any]) -> None:
    for old in oracle["house"]:
        rid = old["round"]
        rnd = live.load(frozen, rid)
        events = [[e.seq, e.type, rounds.encode_payload(e.payload)] for e in rnd.events]
        assert events == old["events"], rid
        stored = [payload for _, _, payload in old["events"]]
        assert _encodings(rnd.rules, rnd.events) == stored, rid
        for k, want in enumerate(old["prefixes"], start=1):
            got = without_added(_prefix(rnd.rules, rnd.events[:k]), want)
            assert canonical(got) == canonical(want), (rid, k)
        assert canonical(without_added(rnd.summary(), old["api"])) == canonical(old["api"]), rid
        assert canonical(rnd.stored_settlement) == canonical(old["stored"]), rid
        assert canonical(_review(frozen, rid)) == canonical(old["review"]), rid


def test_every_stored_poker_hand_replays_to_what_the_old_code_said(
        frozen: Session, oracle: dict[str, Any]) -> None:
    for old in oracle["poker"]:
        rid = old["round"]
        hand = poker_hands.load(frozen, rid)
        now = hand.to_dict()
        # extended the hand with its dealer of record (the migration's: the shift's
        # croupier); everything the old code said is unchanged
        assert now.pop("dealer_id") is not None, rid
        assert canonical(now) == canonical(old["hand"]), rid
        bodies = [hand_to_dict(parse_hand({**hand.rules, "actions": hand.actions[:k]}))
                  for k in range(len(hand.actions) + 1)]
        bodies = without_added(bodies, old["bodies"])
        assert canonical(bodies) == canonical(old["bodies"]), rid
        assert canonical(_review(frozen, rid)) == canonical(old["review"]), rid


def test_every_stored_parlour_game_replays_to_what_the_old_code_said(
        frozen: Session, oracle: dict[str, Any]) -> None:
    for old in oracle["parlour"]:
        view = parlour.load(frozen, old["game"])
        got = {"game": view.id, "board": view.board, "seating": list(view.seating),
               "totals": view.totals, "ended": view.ended, "last_seq": view.last_seq,
               "hands": [{"seq": h.seq, "number": h.number, "request": h.request,
                          "result": h.result} for h in view.hands]}
        assert canonical(got) == canonical(old), old["game"]

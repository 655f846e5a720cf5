"""A stored round replayed for review: its event timeline, the settlement as recorded, the
engine's recomputation and the differences in plain words.

The recomputation uses the live engine's own codec and replay (``rules.engine``: the same
code that recorded the round), under the round's own rules only: the game, house-rules profile
and table limits it stored when it started (``game_round.rules``), never the table's current
settings or the code's current profile.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from ...models import Round, RoundSettlement, User
from ...rules.engine import UNDO, Event
from ...rules.errors import RulesError
from ...rules.games.registry import start_rules
from ...rules.phrase import Amount, Phrase
from ..errors import NotFound
from ..people import stints
from ..tables import tables
from . import poker_hands, store


@dataclass(frozen=True, slots=True)
class TimelineEvent:
    seq: int
    type: str
    at: datetime
    actor_id: int
    actor_name: str
    payload: dict[str, Any]
    undone_by: int | None = None

    @property
    def label(self) -> str:
        return self.type.replace("_", " ").capitalize()


@dataclass(frozen=True, slots=True)
class Replayed:
    round_id: int
    number: int
    status: str
    table: tables.TableView
    profile: str
    events: tuple[TimelineEvent, ...]
    stored: dict[str, Any] | None
    stored_by: str | None
    recomputed: dict[str, Any] | None
    error: str | None
    differences: tuple[str, ...]
    #: the dealer of record, and each mid-round handover (who took over, when, and
    #: the pit boss who allowed it)
    dealer: str | None = None
    handovers: tuple[tuple[str, datetime, str | None], ...] = ()

    @property
    def matches(self) -> bool:
        return self.stored is not None and self.recomputed is not None and not self.differences

    def box(self, which: str, source: str = "stored") -> dict[str, Any] | None:
        found = self.stored if source == "stored" else self.recomputed
        for b in (found or {}).get("boxes", []):
            if b["box"] == which:
                return dict(b)
        return None


def _stored_row(session: Session, round_id: int) -> RoundSettlement | None:
    return session.exec(select(RoundSettlement).where(RoundSettlement.round_id == round_id)
                        .order_by(col(RoundSettlement.through_seq).desc())).first()


def settled_boxes(session: Session, round_id: int) -> set[str]:
    row = _stored_row(session, round_id)
    return {b["box"] for b in json.loads(row.settlement)["boxes"]} if row else set()


def replay_round(session: Session, round_id: int) -> Replayed:
    rnd = session.get(Round, round_id)
    if rnd is None:
        raise NotFound("No round with id %(round_id)s.", round_id=round_id)
    table = tables.get_table(session, rnd.table_id)
    events = store.events(session, round_id)
    names = dict(session.exec(select(User.id, User.display_name).where(
        col(User.id).in_({e.actor_id for e in events} or {0}))).all())
    undone = {int(e.payload.get("cancels", e.payload.get("seq", 0))): e.seq  # poker: "seq"
              for e in events if e.type == UNDO}
    timeline = tuple(TimelineEvent(e.seq, e.type, e.created_at, e.actor_id,
                                   names.get(e.actor_id, "?"), e.payload, undone.get(e.seq))
                     for e in events)
    row = _stored_row(session, round_id)
    stored = json.loads(row.settlement) if row else None
    rules = store.rules_of(session, rnd)
    if poker_hands.is_poker(rules):  # a poker hand: the poker engine recomputes it
        profile = str(rules["profile"])
        recomputed, error = poker_hands.recompute(session, round_id)
    else:
        profile = str(rules["profile"]["name"])
        recomputed, error = _recompute(rules, events)
        _adopt_reasons(stored, recomputed)
    stored_by = (Phrase("%(engine)s, profile %(profile)s (%(version)s)",
                        engine=row.engine_version, profile=row.profile,
                        version=row.profile_version)
                 if row else None)
    dealer = session.get(User, rnd.dealer_id) if rnd.dealer_id is not None else None
    handovers = tuple((s.dealer, s.started_at, s.authorized_by_name)
                      for s in stints.of_shift(session, rnd.shift_id) if s.round_id == round_id)
    return Replayed(round_id, rnd.number, rnd.status, table, profile, timeline, stored,
                    stored_by, recomputed, error, tuple(differences(stored, recomputed, error)),
                    dealer.display_name if dealer else None, handovers)


def _recompute(rules: dict[str, Any],
               events: list[store.EventView]) -> tuple[dict[str, Any] | None, str | None]:
    recomputed: dict[str, Any] | None = None
    error: str | None = None
    try:
        engine, empty = start_rules(rules)
        folded = engine.replay(empty, [Event(e.seq, e.type, e.payload) for e in events])
        if engine.can_settle(folded.state):
            recomputed = engine.settle(folded.state).to_dict()
        else:
            error = "the events do not make a complete round"
    except RulesError as err:
        error = err.message  # a Phrase: the review page says it in the reader's language
    return recomputed, error


def _adopt_reasons(stored: dict[str, Any] | None, recomputed: dict[str, Any] | None) -> None:
    """Where the recorded wager reads exactly like the engine's (same stake, net and English
    reason), show the engine's reason object: the same text, but one the page can say in the
    reader's language. Display only: nothing is written back."""
    if not stored or not recomputed:
        return
    theirs = {b["box"]: b for b in recomputed.get("boxes", [])}
    for box in stored.get("boxes", []):
        for name, wager in box.get("wagers", {}).items():
            other = theirs.get(box["box"], {}).get("wagers", {}).get(name)
            if other and (other["stake"], other["net"], str(other["explanation"])) == \
                    (wager["stake"], wager["net"], wager["explanation"]):
                wager["explanation"] = other["explanation"]


def money(net: int) -> Phrase:
    """A box's or wager's net in the croupier's words: PAY 1,600, TAKE 50, RETURN (the table
    screen's words: nothing changes hands, the stakes go back to the player); the amount is
    formatted by the reader's locale at the edge."""
    if net > 0:
        return Phrase("PAY %(amount)s", amount=Amount(net))
    return Phrase("TAKE %(amount)s", amount=Amount(-net)) if net < 0 else Phrase("RETURN")


def differences(stored: dict[str, Any] | None, recomputed: dict[str, Any] | None,
                error: str | None = None) -> list[str]:
    """What differs between the recorded settlement and the engine's, box by box, wager by
    wager; empty when they agree."""
    if stored is None:
        return [Phrase("No settlement was recorded for this round.")]
    if recomputed is None:
        return [Phrase("The engine could not recompute the round: %(error)s.",
                       error=error or Phrase("unknown reason"))]
    mine = {b["box"]: b for b in stored.get("boxes", [])}
    theirs = {b["box"]: b for b in recomputed.get("boxes", [])}
    out: list[str] = []
    for box in sorted(mine.keys() | theirs.keys(), key=lambda b: (len(b), b)):
        a, b = mine.get(box), theirs.get(box)
        if a is None or b is None:
            out.append(Phrase("Box %(box)s appears only in the engine's settlement.", box=box)
                       if a is None else
                       Phrase("Box %(box)s appears only in the recorded settlement.", box=box))
            continue
        if a["net"] != b["net"]:
            gap = b["net"] - a["net"]
            owed = (Phrase("the player is owed %(amount)s", amount=Amount(abs(gap))) if gap > 0
                    else Phrase("the house is owed %(amount)s", amount=Amount(abs(gap))))
            out.append(Phrase("Box %(box)s: recorded %(recorded)s, the engine says %(engine)s; "
                              "%(owed)s.", box=box, recorded=money(a["net"]),
                              engine=money(b["net"]), owed=owed))
        for name in sorted(a["wagers"].keys() | b["wagers"].keys()):
            wa, wb = a["wagers"].get(name), b["wagers"].get(name)
            if wa is None or wb is None or wa["net"] != wb["net"] \
                    or wa["stake"] != wb["stake"]:
                out.append(Phrase("Box %(box)s %(wager)s: recorded %(recorded)s, the engine "
                                  "says %(engine)s.", box=box, wager=name.replace("_", " "),
                                  recorded=_wager(wa), engine=_wager(wb)))
    return out


def _wager(w: dict[str, Any] | None) -> Phrase:
    if w is None:
        return Phrase("no such wager")
    return Phrase("stake %(stake)s, %(net)s", stake=Amount(w["stake"]), net=money(w["net"]))

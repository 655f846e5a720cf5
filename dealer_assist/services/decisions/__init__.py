"""Recorded decisions judged against the best strategy: per round, per player, per
shift.

* :func:`round_decisions` -- every judgeable decision of one stored round (the round's page,
  the dispute review);
* :func:`alerts.player_figures` -- one player's decisions that differ, EV given up, and the
  advantage-play test (the ratings and the floor page call it with the judged
  decisions of that player's boxes);
* :func:`shift_section` -- the shift report's win split (expected win under the players' actual
  decisions, luck, the gap to the best strategy) and its advantage-play alerts.

A round is replayed from its own stored rules and events (``rules.games.registry.start_rules``),
never from a table's current settings; a game the lab does not cover (the poker room) has no
judgements.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from sqlmodel import Session, col, select

from ...models import Round, RoundSettlement
from ...rules.engine import Event
from ...rules.errors import RulesError
from ...rules.games.registry import start_rules
from ..rounds import poker_hands, store
from .alerts import PlayerFigures, by_player, player_figures
from .judge import judge_state
from .judged import Judged

__all__ = ["Judged", "PlayerFigures", "box_decisions", "by_player", "differing_decisions",
           "judge_round", "judge_stored", "player_figures", "player_judge", "round_decisions",
           "shift_section"]


def judge_stored(rules: dict[str, Any], events: list[Any],
                 settlement: dict[str, Any] | None) -> list[Judged]:
    """The judgements of a round given its stored rules, events and settlement."""
    if poker_hands.is_poker(rules):
        return []
    try:
        engine, empty = start_rules(rules)
        state = engine.replay(empty, [Event(e.seq, e.type, e.payload) for e in events]).state
        return judge_state(state.profile, state, settlement)
    except (RulesError, NotImplementedError):
        return []


#: judgements of stored rounds, per process. A judgement depends only on the round's own stored
#: rules, events and settlement, so the key is their digest: the same stored round always finds
#: its judgement, a corrected one (a new settlement) or another database's round never finds a
#: stale one. Without the memo every shift report and round page ran the advisor again on every
#: round. Bounded (oldest dropped first); correct without it (no state lives only in
#: one process except such caches).
_MEMO: OrderedDict[str, list[Judged]] = OrderedDict()
#: the server's threads share the memo (as ``services.rounds.memo``'s lock, for the same reason)
_MEMO_LOCK = threading.Lock()
MEMO_ROUNDS = 20_000


def judge_round(rules: dict[str, Any], events: list[Any],
                settlement: dict[str, Any] | None) -> list[Judged]:
    """:func:`judge_stored`, remembered per process."""
    text = json.dumps([rules, [(e.seq, e.type, e.payload) for e in events], settlement],
                      sort_keys=True, separators=(",", ":"), default=str)
    key = hashlib.sha256(text.encode()).hexdigest()
    with _MEMO_LOCK:
        found = _MEMO.get(key)
        if found is not None:
            _MEMO.move_to_end(key)
    if found is None:  # judged outside the lock (seconds): a twin may judge it too, harmlessly
        found = judge_stored(rules, events, settlement)
        with _MEMO_LOCK:
            _MEMO[key] = found
            while len(_MEMO) > MEMO_ROUNDS:
                _MEMO.popitem(last=False)
    return list(found)


def _settlement(session: Session, round_id: int) -> dict[str, Any] | None:
    row = session.exec(select(RoundSettlement).where(RoundSettlement.round_id == round_id)
                       .order_by(col(RoundSettlement.through_seq).desc())).first()
    return json.loads(row.settlement) if row else None


def round_decisions(session: Session, round_id: int) -> list[Judged]:
    """Every judgeable decision of the stored round ``round_id`` (none for an unknown one)."""
    rnd = session.get(Round, round_id)
    if rnd is None:
        return []
    return judge_round(store.rules_of(session, rnd), store.events(session, round_id),
                       _settlement(session, round_id))


def box_decisions(session: Session, round_id: int, boxes: Iterable[str]) -> list[Judged]:
    """The judged decisions of the boxes ``boxes`` (their labels) of the stored round."""
    wanted = {str(b) for b in boxes}
    return [j for j in round_decisions(session, round_id) if j.box in wanted]


def differing_decisions(session: Session, round_id: int, boxes: Iterable[str]) -> int:
    """How many recorded decisions of the boxes ``boxes`` of the stored round ``round_id``
    differ from the best strategy's option (the "decisions that differ")."""
    return sum(j.differs for j in box_decisions(session, round_id, boxes))


def player_judge(session: Session) -> Callable[[Any], int]:
    """The ``Judge``: ``judge(played)`` -> the number of decisions of a player's boxes
    in one round that differ from the best strategy. ``played`` is anything with
    ``round_id`` and ``boxes`` (the player's boxes of the stored settlement: mappings with a
    ``box`` label), as ``services.players.ratings.PlayedRound``. Each round is judged once
    per judge."""
    cache: dict[int, list[Judged]] = {}

    def judge(played: Any) -> int:
        round_id = int(played.round_id)
        if round_id not in cache:
            cache[round_id] = round_decisions(session, round_id)
        mine = {str(b["box"]) for b in played.boxes}
        return sum(j.differs for j in cache[round_id] if j.box in mine)

    return judge


def shift_section(session: Session, rows: list[tuple[Round, dict[str, Any], int]],
                  best_edge: float | None) -> dict[str, Any]:
    """The shift report's decisions section for the settled rounds ``rows``.

    Win split (chips, the house's view, main game: ANTE, BET and fees, as the theoretical
    section): theoretical win under the best strategy = ``best_edge`` x ANTEs wagered; the
    gap to the best strategy = the EV the players gave up in their judged decisions (a
    decision the record does not show counts as the best strategy's); expected win under the
    players' actual decisions = the two together; luck = actual win - expected win."""
    judged: list[Judged] = []
    for rnd, settlement, _v in rows:
        if rnd.id is None:
            continue
        judged += judge_round(store.rules_of(session, rnd), store.events(session, rnd.id),
                              settlement)
    main = [j for j in judged if j.stage != "insurance"]
    antes = sum(int(b["wagers"].get("ante", {}).get("stake", 0))
                for _r, s, _v in rows for b in s["boxes"])
    actual = -sum(sum(int(w["net"]) for name, w in b["wagers"].items()
                      if name not in ("insurance", "bonus"))
                  for _r, s, _v in rows for b in s["boxes"])
    gap = round(sum(j.ev_lost_chips for j in main))
    players = by_player(judged)
    out: dict[str, Any] = {
        "judged": len(judged), "differing": sum(j.differs for j in judged),
        "gap_to_best": gap,
        "actual_win": actual, "antes_wagered": antes, "strategy": "best",
        "players": [p.to_dict() for p in players],
        "alerts": [p.to_dict() for p in players if p.alert]}
    if best_edge is not None:
        theoretical = round(best_edge * antes)
        out.update(house_edge_percent=f"{best_edge * 100:.3f}", theoretical_best=theoretical,
                   expected_win=theoretical + gap, luck=actual - theoretical - gap)
    return out

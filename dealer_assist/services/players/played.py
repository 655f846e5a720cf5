"""What a rating reads from the database: each settled round a rated player played a
box in, with his boxes of its stored settlement, and his visits (:mod:`.ratings` computes).

A round's boxes name their player in ``place`` and the stored settlement carries it on each box
(``"player": {"card": ...}``); the newest stored settlement of a settled round is the one read,
as the shift report reads it. A round's start is its ``opened_at``, its end its last event (the
``paid`` step: ``store.round_ends``). Its house edge is the lab's figure stored for its own
profile (:class:`EdgeBook`). The settlements are canonical JSON, so one player's rounds are
found by the text of his card.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlmodel import Session, col, select

from ...lab.version import fingerprint
from ...models import BuyIn as BuyInRow
from ...models import (
    GameTable,
    PlayerCard,
    PlayerVisit,
    Round,
    RoundSettlement,
    RoundStatus,
    Shift,
)
from ...rules.errors import RulesError
from ...rules.profiles import load_profile
from ..figures import house_edge
from ..figures.theoretical import strategy_named
from ..rounds import store
from .ratings import BuyIn, Edge, PlayedRound, Visit


class EdgeBook:
    """The lab's house edge per ANTE for a round's own profile: the figure stored under the
    profile's name (the database's, or kept with the code) when it was computed for the same
    rules (the lab's fingerprint of the round's stored profile), under the players' strategy
    its table assumes (``basic`` or ``best``, None: the figures' default); None
    otherwise."""

    def __init__(self, session: Session) -> None:
        # the database's figures, and every profile's current ones with the figures kept with
        # the code merged in (a database nobody ran the lab on gave no rating a
        # theoretical win, though every shipped profile comes with its figures)
        self.entries = {**house_edge.load_all(session), **house_edge.stored_edges(session)}
        self.found: dict[tuple[str, str | None], Edge | None] = {}

    def edge(self, rules: Mapping[str, Any], strategy: str | None = None) -> Edge | None:
        key = (str(rules.get("profile_hash")), strategy)
        if key not in self.found:
            self.found[key] = self._look_up(rules, strategy)
        return self.found[key]

    def _look_up(self, rules: Mapping[str, Any], strategy: str | None) -> Edge | None:
        data = rules.get("profile") or {}
        entry = self.entries.get(str(data.get("name")))
        if not isinstance(entry, dict):
            return None
        try:
            same = entry.get("fingerprint") == fingerprint(load_profile(data))
        except RulesError:
            return None
        name = strategy_named(entry, strategy) if same and "strategies" in entry else None
        figures = (entry.get("strategies") or {}).get(name) or {}
        if "house_edge" not in figures:
            return None
        return Edge(Fraction(Decimal(str(figures["house_edge"]))), strategy or str(name))


def card_of(box: Mapping[str, Any]) -> str | None:
    player = box.get("player")
    return player.get("card") if isinstance(player, Mapping) else None


def played_rounds(session: Session, edges: EdgeBook, *, card: str | None = None,
                  day: date | None = None,
                  shift_id: int | None = None) -> dict[str, list[PlayedRound]]:
    """Each rated player's settled rounds (by card; only ``card``'s when given), of a gaming
    ``day`` or a shift when given, in the order played."""
    query = (select(Round, RoundSettlement, col(Shift.gaming_date), GameTable)
             .join(RoundSettlement, col(RoundSettlement.round_id) == Round.id)
             .join(Shift, col(Shift.id) == Round.shift_id)
             .join(GameTable, col(GameTable.id) == Round.table_id)
             .where(Round.status == RoundStatus.SETTLED.value)
             .order_by(col(Round.id), col(RoundSettlement.through_seq)))
    if card is not None:  # canonical JSON: the card is written exactly so
        text = json.dumps({"card": card}, separators=(",", ":"), ensure_ascii=False)
        query = query.where(col(RoundSettlement.settlement).contains(f'"player":{text}'))
    if day is not None:
        query = query.where(Shift.gaming_date == day)
    if shift_id is not None:
        query = query.where(Round.shift_id == shift_id)
    newest: dict[int, tuple[Round, RoundSettlement, date, GameTable]] = {}
    for row in session.exec(query).all():
        newest[row[0].id or 0] = row
    ends = store.round_ends(session, list(newest))
    out: dict[str, list[PlayedRound]] = defaultdict(list)
    for rid, (rnd, settled, gaming_date, table) in newest.items():
        rules = store.rules_of(session, rnd)
        settlement = json.loads(settled.settlement)
        mine: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for box in settlement["boxes"]:
            found = card_of(box)
            if found is not None and (card is None or found == card):
                mine[found].append(box)
        for number, boxes in mine.items():
            out[number].append(PlayedRound(
                rid, rnd.number, rnd.table_id, table.name, table.game, settled.profile,
                rnd.shift_id,
                gaming_date, rnd.opened_at, ends.get(rid, rnd.opened_at), tuple(boxes),
                edges.edge(rules, table.strategy)))
    return dict(out)


def visits(session: Session, cards: Iterable[str]) -> dict[str, list[Visit]]:
    """Each card's visits (sit-down, leave when tapped)."""
    wanted = sorted(set(cards))
    if not wanted:
        return {}
    query = (select(PlayerCard.card, PlayerVisit)
             .join(PlayerVisit, col(PlayerVisit.player_id) == PlayerCard.id)
             .where(col(PlayerCard.card).in_(wanted)).order_by(col(PlayerVisit.id)))
    out: dict[str, list[Visit]] = defaultdict(list)
    for number, v in session.exec(query).all():
        out[number].append(Visit(v.id or 0, v.table_id, v.sat_at, v.left_at))
    return dict(out)


def buy_ins(session: Session, cards: Iterable[str]) -> dict[str, list[BuyIn]]:
    """Each card's buy-ins at the tables (the croupier records the card when the player
    shows one), in time order; a card without any has an empty list."""
    wanted = sorted(set(cards))
    out: dict[str, list[BuyIn]] = {c: [] for c in wanted}
    if not wanted:
        return out
    query = (select(BuyInRow).where(col(BuyInRow.player).in_(wanted))
             .order_by(col(BuyInRow.at), col(BuyInRow.id)))
    for row in session.exec(query).all():
        out[str(row.player)].append(BuyIn(row.table_id, row.at, row.amount))
    return out

"""Make ``frozen_rounds.sqlite3``: stored rounds of every game, recorded by the code of the day.

Rebuilds the engine and the record path; the public contracts must not move. This
script was run ONCE, with the code at main's 0245402 (before changed anything), and its
two outputs are committed beside it:

* ``frozen_rounds.sqlite3`` -- a migrated database with stored rounds of every game, recorded
  through the services exactly as the tablets record them (so the events, their payload bytes
  and the stored settlements are the old code's): Russian poker (exchange, sixth card,
  insurance, buy game with the free second card, bonus, capped payouts, redeal and void, undo,
  a dispute and a correction), Caribbean stud, Oasis (every replacement size of three fee
  schedules), Big/Small (free and bought extra cards, the split, a bought game), Americana stud
  and 32-card draw hands (all-in side pots, Parole, missed blinds, undo) and parlour games.
  Rounds follow both entry shapes: dealing order, and all cards first (older rounds).
* ``frozen_rounds.json.gz`` -- what the old code said about every one of them: for every prefix
  of every round's events, the engine's state summary, next steps, phase and settlement; for
  every round, its stored settlement and the round as the API showed it; for the poker hands the
  calculator's body after each action; for the parlour games every hand's figures.

``tests/services/test_frozen_rounds.py`` replays every stored round of that database with the
code of now and compares all of it byte for byte. Rerunning this script with a later code
base makes a new database (the draws are seeded, but time stamps and ids differ) and would
freeze the later code's behaviour instead: don't, unless a contract deliberately changes.

    .venv/bin/python tests/data/make_frozen_rounds.py
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from sqlmodel import Session  # noqa: E402

from dealer_assist import db  # noqa: E402
from dealer_assist.rules import STANDARD_52, Card, evaluate  # noqa: E402
from dealer_assist.rules.errors import RulesError  # noqa: E402
from dealer_assist.services import (  # noqa: E402
    disputes,
    live,
    parlour,
    passwords,
    poker_hands,
    poker_tables,
    shifts,
    voids,
)
from dealer_assist.services.errors import ServiceError  # noqa: E402
from tests.factories import make_table, make_user, pay_round, record_step, start_round, undo_step  # noqa: E402

DB = HERE / "frozen_rounds.sqlite3"
ORACLE = HERE / "frozen_rounds.json.gz"
SEED = 22


class Truth:
    """The cards really on the table (the croupier sees them only as the round shows them)."""

    def __init__(self, rng: random.Random, deck: tuple[Card, ...]) -> None:
        self.rng = rng
        self.deck = list(deck)
        rng.shuffle(self.deck)
        self.hands: dict[str, list[Card]] = {}
        self.extra: dict[str, list[Card]] = {}
        self.dealer: list[Card] = []

    def take(self, n: int) -> list[Card]:
        out, self.deck = self.deck[:n], self.deck[n:]
        return out

    def take_rank(self, rank: int) -> Card | None:
        for c in self.deck:
            if c.rank == rank:
                self.deck.remove(c)
                return c
        return None

    def trips(self) -> list[Card]:
        """Three of a kind plus two (insurance needs trips or better)."""
        by_rank: dict[int, list[Card]] = {}
        for c in self.deck:
            by_rank.setdefault(c.rank, []).append(c)
        ranks = [r for r, cs in by_rank.items() if len(cs) >= 3]
        if not ranks:
            return self.take(5)
        three = by_rank[self.rng.choice(ranks)][:3]
        for c in three:
            self.deck.remove(c)
        rest = [c for c in self.deck if c.rank != three[0].rank][:2]
        for c in rest:
            self.deck.remove(c)
        return [*three, *rest]

    def snapshot(self) -> Truth:
        rng, self.rng = self.rng, None  # type: ignore[assignment]
        twin = copy.deepcopy(self)
        self.rng = twin.rng = rng
        return twin


def codes(cards: list[Card]) -> list[str]:
    return [c.code for c in cards]


class HouseDriver:
    """Plays a house-game round through the live service, choosing among the engine's steps."""

    def __init__(self, session: Session, rng: random.Random, table_id: int, actor: int,
                 boss: int, game: str, dealing_order: bool) -> None:
        self.s, self.rng, self.table_id, self.actor, self.boss = session, rng, table_id, actor, boss
        self.game, self.order = game, dealing_order
        self.n = 0
        self.history: list[tuple[int, Truth]] = []

    def key(self) -> str:
        self.n += 1
        return f"t{self.table_id}-{self.rng.random():.12f}-{self.n}"

    def record(self, type: str, payload: dict[str, Any]) -> live.LiveRound:
        rnd = record_step(self.s, round_id=self.rid, actor_id=self.actor, type=type,
                               payload=payload, idempotency_key=self.key())
        self.s.commit()
        return rnd

    def play(self, boxes: list[live.BoxStake], deck: tuple[Card, ...]) -> int:
        self.truth = Truth(self.rng, deck)
        rnd = start_round(self.s, table_id=self.table_id, actor_id=self.actor, boxes=boxes,
                               idempotency_key=self.key())
        self.s.commit()
        self.rid = rnd.round.id
        self.history = [(rnd.last_seq, self.truth.snapshot())]
        rnd = self.deal(rnd, boxes)
        dealt = len(self.history)
        for _ in range(80):
            if not rnd.is_open:
                break
            if rnd.void_pending:
                approve = self.rng.random() < 0.6
                voids.decide_change(self.s, request_id=rnd.void_request.id, approve=approve,
                                    note="" if approve else "The box had five cards",
                                    actor_id=self.boss)
                self.s.commit()
                rnd = live.load(self.s, self.rid)
                continue
            if rnd.settlement is not None and (not rnd.steps or self.rng.random() < 0.7):
                rnd = pay_round(self.s, round_id=self.rid, actor_id=self.actor,
                               idempotency_key=self.key())
                self.s.commit()
                break
            if rnd.can_undo and len(self.history) > dealt and self.rng.random() < 0.06:
                rnd = undo_step(self.s, round_id=self.rid, actor_id=self.actor,
                                idempotency_key=self.key(), expected_seq=rnd.last_seq)
                self.s.commit()
                self.history.pop()
                self.truth = self.history[-1][1].snapshot()
                continue
            rnd = self.one_step(rnd)
        if rnd.is_open and not rnd.void_pending:
            raise RuntimeError(f"round {self.rid} stuck: {[s.to_dict() for s in rnd.steps]} "
                               f"{rnd.summary()}")
        return self.rid

    def deal(self, rnd: live.LiveRound, boxes: list[live.BoxStake]) -> live.LiveRound:
        t = self.truth
        for b in boxes:
            t.hands[b.box] = t.trips() if self.rng.random() < 0.2 else t.take(5)
        t.dealer = t.take(5)
        if self.order:
            up = rnd.state.profile.dealer_up_cards
            return self.stepped("deal_dealer", {"up": codes(t.dealer[5 - up:])})
        for b in boxes:
            rnd = self.stepped("deal_box", {"box": b.box, "cards": codes(t.hands[b.box])})
        if self.game == "russian" and self.rng.random() < 0.15:
            victim = boxes[0].box
            return self.stepped("redeal", {"box": victim, "cards_received": 6})
        return self.stepped("deal_dealer", {"cards": codes(t.dealer)})

    def stepped(self, type: str, payload: dict[str, Any]) -> live.LiveRound:
        rnd = self.record(type, payload)
        if type != "redeal":
            self.history.append((rnd.last_seq, self.truth.snapshot()))
        return rnd

    def one_step(self, rnd: live.LiveRound) -> live.LiveRound:
        steps = list(rnd.steps)
        self.rng.shuffle(steps)
        steps.sort(key=lambda s: PRIORITY.get(s.type, 5))
        for step in steps:
            before = self.truth.snapshot()
            builder = getattr(self, f"p_{step.type}", None)
            payload = builder(step, rnd) if builder is not None else None
            if payload is None:
                self.truth = before
                continue
            try:
                return self.stepped(step.type, payload)
            except (RulesError, ServiceError):
                self.s.rollback()
                self.truth = before
        return live.load(self.s, self.rid)

    # --- payloads, from the truth ---------------------------------------------------------
    def p_place(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        return None  # boxes are placed with the start

    def p_redeal(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        if self.rng.random() < 0.9:
            return None
        return {"box": step.box, "cards_received": self.rng.choice([4, 6])}

    def _swap(self, step: Any, kind: str) -> dict[str, Any]:
        t = self.truth
        counts = list(step.discard_counts) or [1]
        n = self.rng.choice(counts[:3] if self.rng.random() < 0.7 else counts)
        hand = t.hands[step.box]
        gone = self.rng.sample(hand, n)
        new = t.take(n)
        t.hands[step.box] = [c for c in hand if c not in gone] + new
        if self.order:
            out: dict[str, Any] = {"box": step.box, "count": n}
            if self.rng.random() < 0.4:
                out["cards"] = codes(new)
            return out
        return {"box": step.box, "discard": codes(gone), "draw": codes(new)}

    def p_exchange(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        return self._swap(step, "exchange") if self.rng.random() < 0.35 else None

    def p_replace(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        return self._swap(step, "replace") if self.rng.random() < 0.5 else None

    def p_sixth_card(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        if self.rng.random() > 0.25:
            return None
        (card,) = self.truth.take(1)
        self.truth.hands[step.box] = [*self.truth.hands[step.box], card]
        if not self.order:
            return {"box": step.box, "card": card.code}
        return {"box": step.box, "cards": [card.code]} if self.rng.random() < 0.4 else \
            {"box": step.box}

    def p_extra(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        if self.rng.random() > 0.85:
            return None
        mode = self.rng.choice(list(step.modes))
        two = self.truth.take(2)
        self.truth.extra[step.box] = two
        out: dict[str, Any] = {"box": step.box, "mode": mode}
        if not self.order:
            out["cards"] = codes(two)
        elif mode == "bought" and self.rng.random() < 0.5:
            out["cards"] = codes([*self.truth.hands[step.box], *two])
        return out

    def p_split(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        seven = [*self.truth.hands[step.box], *self.truth.extra[step.box]]
        small = self.rng.sample(seven, 2)
        big = [c for c in seven if c not in small]
        self.truth.hands[step.box], self.truth.extra[step.box] = big, small
        return {"box": step.box, "big": codes(big), "small": codes(small)}

    def p_bet(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        out: dict[str, Any] = {"box": step.box}
        if self.rng.random() < 0.3:
            out["amount"] = step.amount
        return out

    def p_fold(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        return {"box": step.box} if self.rng.random() < 0.25 else None

    def p_insure(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        hand = self.truth.hands[step.box]
        value = evaluate(hand, rnd.state.profile.ranking)
        if value.category.value not in STRONG or self.rng.random() < 0.2:
            return None
        amount = step.min_amount or 10
        if step.max_amount and self.rng.random() < 0.5:
            amount = self.rng.randint(amount, step.max_amount)
        out: dict[str, Any] = {"box": step.box, "amount": amount}
        if step.cards:
            out["cards"] = codes(hand)
        return out

    def p_reveal(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        if not step.cards:
            return {}
        return {"cards": codes(self.truth.dealer[:step.cards])}

    def p_take_ante(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        return {"box": step.box}

    def p_buy_game(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        return {"box": step.box} if self.rng.random() < 0.8 else None

    def p_dealer_draw(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        t = self.truth
        high = max(t.dealer, key=lambda c: c.rank)
        first = t.take_rank(high.rank) if self.rng.random() < 0.5 else None
        drawn = [first] if first is not None else t.take(1)
        try:
            live.draw_needed(rnd, drawn)
        except RulesError:
            return None
        if live.draw_needed(rnd, drawn) > 1:
            drawn += t.take(1)
        return {"cards": codes(drawn)}

    def p_dealer_small(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        return {"cards": codes(self.truth.take(2))}

    def p_show(self, step: Any, rnd: live.LiveRound) -> dict[str, Any] | None:
        hand = self.truth.hands[step.box]
        out: dict[str, Any] = {"box": step.box, "cards": codes(hand)}
        if step.small:
            out["small"] = codes(self.truth.extra[step.box])
        return out


STRONG = {"three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
          "straight_flush", "royal_flush"}
PRIORITY = {"reveal": 9, "dealer_draw": 0, "dealer_small": 0, "show": 0, "take_ante": 1,
            "buy_game": 1, "split": 1, "extra": 2, "exchange": 3, "replace": 3,
            "sixth_card": 3}


# --- the house games -------------------------------------------------------------------------

def house_tables(session: Session) -> list[tuple[str, int, int]]:
    """(game, table id, croupier id) for every house table the rounds are dealt at."""
    specs = [
        ("russian", dict(name="RP classic", profile="russian-classic", max_payout=50000)),
        ("russian", dict(name="RP capped", profile="russian-classic", max_payout=300)),
        ("russian", dict(name="RP pair", profile="russian-pair-game", max_payout=2000)),
        ("caribbean", dict(name="CS", profile="caribbean-classic", max_payout=400)),
        ("oasis", dict(name="OA classic", profile="oasis-classic", max_payout=5000)),
        ("oasis", dict(name="OA per card", profile="oasis-per-card", max_payout=5000)),
        ("oasis", dict(name="OA one card", profile="oasis-one-card", max_payout=5000)),
        ("split", dict(name="BS", profile="split-classic", max_payout=600)),
    ]
    out = []
    for n, (game, spec) in enumerate(specs):
        table = make_table(session, game=game, min_ante=10, max_ante=500, **spec)
        croupier = make_user(session, f"croupier{n}", "croupier")
        shifts.open_shift(session, table_id=table.id, user_id=croupier.id)
        out.append((game, table.id, croupier.id))
    session.commit()
    return out


def stakes(rng: random.Random, game: str) -> list[live.BoxStake]:
    count = rng.randint(1, 4)
    ante = rng.choice([10, 20, 50, 100, 200])
    offset = rng.randint(0, 6 - count)
    out = []
    for i in range(count):
        box = str(i + 1 + offset)
        seat = "A" if game == "russian" and i < 2 and rng.random() < 0.4 else box
        bonus = 0
        if game == "russian" and ante >= 100 and rng.random() < 0.5:
            bonus = rng.choice([b for b in (50, 100) if b * 2 <= ante])
        out.append(live.BoxStake(box, ante, bonus, seat))
    return out


def play_house(session: Session, rng: random.Random, boss: int) -> list[int]:
    from dealer_assist.rules.games.flow import get_flow  # noqa: F401  (registers the flows)

    rounds = []
    for game, table_id, croupier in house_tables(session):
        per_table = {"russian": 10, "split": 16}.get(game, 7)
        for n in range(per_table):
            driver = HouseDriver(session, rng, table_id, croupier, boss, game,
                                 dealing_order=n % 3 != 2)
            rounds.append(driver.play(stakes(rng, game), STANDARD_52.cards))
    return rounds


def dispute_and_correct(session: Session, round_ids: list[int], boss: int,
                        manager: int) -> None:
    """A dispute upheld with an adjustment, one denied, and a correction approved."""
    from dealer_assist.models import Round

    settled = [r for r in round_ids if session.get(Round, r).status == "settled"]
    for n, rid in enumerate(settled[:3]):
        rnd = live.load(session, rid)
        box = rnd.stored_settlement["boxes"][0]["box"]
        croupier = rnd.events[0].actor_id
        filed = disputes.file_dispute(session, round_id=rid, box=box, claim="Paid short",
                                      claimed_amount=100, croupier_note="Checked the tray",
                                      actor_id=croupier)
        outcome = "upheld" if n == 0 else "denied"
        disputes.decide(session, dispute_id=filed.id, outcome=outcome, note="Camera 3",
                        actor_id=boss, adjustment=100 if outcome == "upheld" else 0)
        if n == 2:
            asked = voids.request_change(session, round_id=rid, kind="correction",
                                         reason="Chip miscount", actor_id=croupier, box=box,
                                         amount=-50)
            voids.decide_change(session, request_id=asked.id, approve=True, note="",
                                actor_id=manager)
        session.commit()


# --- the poker room --------------------------------------------------------------------------

def poker_payload(action: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": action.type}
    if action.seat is not None:
        out["seat"] = action.seat
    if action.to is not None:
        out["to"] = action.to
    if action.up is not None:
        out["up"] = {s: c.code for s, c in action.up.items()}
    if action.discard is not None:
        out["discard"] = action.discard
    if action.agreed is not None:
        out["agreed"] = action.agreed
    if action.cards is not None:
        out["cards"] = [c.code for c in action.cards]
    return out


def play_poker(session: Session, rng: random.Random) -> list[int]:
    from tests.rules.poker_hands import choose

    out = []
    specs = [("americana-limit", 4, {"ante": 5}), ("americana-no-limit", 5, {"ante": 5}),
             ("americana-pot-limit", 3, {"ante": 2}), ("draw32-limit", 5, {"small_blind": 5}),
             ("draw32-no-limit", 4, {"small_blind": 5}),
             ("draw32-pot-limit", 5, {"small_blind": 2})]
    for n, (profile, players, stake) in enumerate(specs):
        table = poker_tables.open_table(session, name=f"PK {n}", profile=profile, stakes=stake,
                                        seat_count=players)
        dealer = make_user(session, f"dealer{n}", "croupier")
        shifts.open_shift(session, table_id=table.id, user_id=dealer.id)
        for i in range(1, players + 1):
            poker_tables.seat_player(session, table.id, seat=str(i), player=f"P{i}",
                                     buy_in=rng.choice([30, 60, 200, 1000]))
        session.commit()
        for h in range(4):
            if profile.startswith("draw") and h in (1, 2):
                seat = str(rng.randint(1, players))
                status = "sitting_out" if h == 1 else "playing"
                for s in poker_tables.get(session, table.id).seated():
                    if s.status == "sitting_out" and h == 2:
                        poker_tables.set_status(session, table.id, s.seat, "playing")
                if h == 1:
                    poker_tables.set_status(session, table.id, seat, status)
                session.commit()
            for s in poker_tables.get(session, table.id).seated():
                if s.stack == 0:
                    poker_tables.rebuy(session, table.id, s.seat, 100)
            session.commit()
            hand = poker_hands.start_hand(session, table_id=table.id, user_id=dealer.id,
                                          idempotency_key=f"deal-{n}-{h}")
            session.commit()
            k = 0
            while hand.state.status != "complete" and k < 200:
                k += 1
                if hand.undoable is not None and rng.random() < 0.07:
                    hand = poker_hands.undo(session, round_id=hand.round.id, user_id=dealer.id,
                                            idempotency_key=f"u{n}-{h}-{k}",
                                            expected_seq=hand.last_seq)
                    session.commit()
                    continue
                action = choose(hand.state, rng)
                if action.type == "parole":  # Parole agreed splits the pots: half the time
                    action = type(action)("parole", agreed=rng.random() < 0.5)
                hand = poker_hands.record(session, round_id=hand.round.id,
                                          action=poker_payload(action), user_id=dealer.id,
                                          idempotency_key=f"a{n}-{h}-{k}",
                                          expected_seq=hand.last_seq)
                session.commit()
            out.append(hand.round.id)
    return out


# --- the parlour board -----------------------------------------------------------------------

def parlour_deal(rng: random.Random, players: list[str]) -> dict[str, Any]:
    from dealer_assist.rules import STANDARD_52

    pack = list(STANDARD_52.cards)
    rng.shuffle(pack)
    piles: list[list[str]] = [[] for _ in range(len(players) + 1)]
    for i, card in enumerate(pack):
        piles[i % len(piles)].append(card.code)
    hands = {p: piles[i] for i, p in enumerate(players)}
    return {"hands": hands, "extra": piles[-1]}


def play_parlour(session: Session, rng: random.Random, host: int) -> list[int]:
    out = []
    for n, (players, variant) in enumerate(((["Ann", "Bob", "Cy"], "basic"),
                                            (["Ann", "Bob", "Cy", "Dee", "Eve"], "clockwise"))):
        gid = parlour.create_game(session, name=f"Evening {n}", players=players,
                                  actor_id=host, variant=variant)
        session.commit()
        view = parlour.load(session, gid)
        for h in range(4):
            seating = list(view.seating)
            hand = parlour_deal(rng, seating)
            choice = rng.choice(["keep", "exchange", "sell"])
            hand["extra_hand"] = {"action": choice}
            if choice == "sell":
                hand["extra_hand"].update(buyer=seating[1], price=rng.randint(1, 3))
            order = [*seating[1:], seating[0]]
            hand["betting"] = _parlour_betting(rng, order)
            try:
                view = parlour.record_hand(session, game_id=gid, actor_id=host, hand=hand,
                                           idempotency_key=f"p{n}-{h}",
                                           expected_seq=view.last_seq)
            except RulesError:
                session.rollback()
                hand["betting"] = [{"player": p, "type": "pass"} for p in order]
                view = parlour.record_hand(session, game_id=gid, actor_id=host, hand=hand,
                                           idempotency_key=f"p{n}-{h}b",
                                           expected_seq=view.last_seq)
            session.commit()
        if n == 0:
            pack = parlour_deal(rng, list(view.seating))["hands"]
            five = {p: cards[:5] for p, cards in pack.items()}
            view = parlour.end_game(session, game_id=gid, actor_id=host, hands=five,
                                    idempotency_key=f"end{n}", expected_seq=view.last_seq)
            session.commit()
        out.append(gid)
    return out


def _parlour_betting(rng: random.Random, order: list[str]) -> list[dict[str, Any]]:
    kind = rng.choice(["pass", "bet", "raise"])
    if kind == "pass":
        return [{"player": p, "type": "pass"} for p in order]
    out = [{"player": order[0], "type": "bet", "amount": 2}]
    for p in order[1:]:
        out.append({"player": p, "type": "call" if rng.random() < 0.6 else "pass"})
    if kind == "raise":
        out.append({"player": order[0], "type": "pass"})
    return out


# --- what the old code says about them --------------------------------------------------------

def house_oracle(session: Session, rid: int) -> dict[str, Any]:
    from dealer_assist.rules.games.flow import Event, phase, start_rules

    from dealer_assist.services import round_review, rounds

    rnd = live.load(session, rid)
    flow, empty = start_rules(rnd.rules)
    prefixes = []
    for k in range(1, len(rnd.events) + 1):
        events = [Event(e.seq, e.type, e.payload) for e in rnd.events[:k]]
        try:
            folded = flow.replay(empty, events)
        except RulesError as err:
            prefixes.append({"error": str(err)})
            continue
        state = folded.state
        steps = flow.next_steps(state)
        settled = flow.settle(state).to_dict() if flow.can_settle(state) else None
        ready = flow.settle_ready(state)
        prefixes.append({
            "summary": flow.summary(state), "steps": [s.to_dict() for s in steps],
            "phase": str(phase(steps, settled is not None)), "effective": list(folded.steps),
            "closed": folded.closed, "settlement": settled,
            "ready": ready.to_dict() if ready is not None else None,
            "voided": flow.voided(state),
        })
    review = round_review.replay_round(session, rid)
    return {"round": rid, "game": rnd.rules["game"], "prefixes": prefixes,
            "api": _plain(rnd.summary()), "stored": rnd.stored_settlement,
            "events": [[e.seq, e.type, rounds.encode_payload(e.payload)] for e in rnd.events],
            "review": {"recomputed": review.recomputed, "error": review.error,
                       "differences": [str(d) for d in review.differences]}}


def poker_oracle(session: Session, rid: int) -> dict[str, Any]:
    from dealer_assist.rules.poker import hand_to_dict, parse_hand

    from dealer_assist.services import round_review

    hand = poker_hands.load(session, rid)
    bodies = []
    for k in range(len(hand.actions) + 1):
        bodies.append(hand_to_dict(parse_hand({**hand.rules, "actions": hand.actions[:k]})))
    review = round_review.replay_round(session, rid)
    return {"round": rid, "hand": _plain(hand.to_dict()), "bodies": _plain(bodies),
            "review": {"recomputed": review.recomputed, "error": review.error,
                       "differences": [str(d) for d in review.differences]}}


def parlour_oracle(session: Session, gid: int) -> dict[str, Any]:
    view = parlour.load(session, gid)
    return {"game": gid, "board": view.board, "seating": list(view.seating),
            "totals": view.totals, "ended": view.ended, "last_seq": view.last_seq,
            "hands": [{"seq": h.seq, "number": h.number, "request": h.request,
                       "result": h.result} for h in view.hands]}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def main(build: Callable[[], None] | None = None) -> None:
    for path in (DB, DB.with_name(DB.name + "-wal"), DB.with_name(DB.name + "-shm")):
        path.unlink(missing_ok=True)
    passwords.configure(time_cost=1, memory_kib=64)
    engine = db.make_engine(f"sqlite:///{DB}")
    db.upgrade(engine)
    rng = random.Random(SEED)
    with Session(engine, expire_on_commit=False) as session:
        boss = make_user(session, "pia", "pit_boss").id
        manager = make_user(session, "sam", "shift_manager").id
        host = make_user(session, "hal", "croupier").id
        session.commit()
        house = play_house(session, rng, boss)
        dispute_and_correct(session, house, boss, manager)
        poker = play_poker(session, rng)
        games = play_parlour(session, rng, host)
        oracle = {"house": [house_oracle(session, r) for r in house],
                  "poker": [poker_oracle(session, r) for r in poker],
                  "parlour": [parlour_oracle(session, g) for g in games]}
    engine.dispose()
    import sqlite3

    with sqlite3.connect(DB) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("VACUUM")
    with gzip.open(ORACLE, "wt", encoding="utf-8") as out:
        json.dump(oracle, out, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    print(f"{len(house)} house rounds, {len(poker)} poker hands, {len(games)} parlour games")


if __name__ == "__main__":
    main()

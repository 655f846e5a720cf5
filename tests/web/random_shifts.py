"""Seeded random shifts played through the rounds API (the rating test).

Each shift is a new table of one of the four house games with its own shift (on one of three
gaming days); one to three players sit at it, each with one to four boxes (a rated player by his
card, from a small pool, or an anonymous one by a seat letter); they play one or two rounds in
dealing order. The driver only ever sends a step the round offers (``state.next_steps``), picking
among the boxes that may decide now at random, so a player's dark boxes decide after his first
course; now and then it tries a dark box too early and expects the engine's 422. Rated players
sometimes have their sit-down and their leave tapped.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from flask import Flask

from dealer_assist.models import utcnow
from dealer_assist.rules.cards import ALL_CARDS
from dealer_assist.services.players import cards as player_cards
from dealer_assist.services.shifts import shifts
from tests.factories import make_table
from tests.web.conftest import Browser, arrange

GAMES = ("russian", "caribbean", "oasis", "split")
CARDS = tuple(f"C{n:04d}" for n in range(1, 9))
ANTES = (10, 20, 50, 100, 200)
TABLE_BOXES = 9
#: boxes in play at most: their cards, the dealer's and the exchanges come from one deck
MOST_BOXES = 7


class Api:
    """The rounds API with the session cookie, the CSRF header and an idempotency key."""

    def __init__(self, browser: Browser) -> None:
        self.b = browser
        self.token = browser.csrf()
        self.n = 0

    def post(self, url: str, body: Any) -> Any:
        self.n += 1
        return self.b.client.post(url, json=body, headers={
            "X-CSRF-Token": self.token, "Idempotency-Key": f"k{self.n}"})

    def step(self, rid: int, type: str, payload: dict[str, Any]) -> dict[str, Any]:
        resp = self.post(f"/api/v1/rounds/{rid}/events", {"type": type, "payload": payload})
        assert resp.status_code == 201, (type, payload, resp.get_json())
        answer: dict[str, Any] = resp.get_json()
        return answer


@dataclass
class Seat:
    """One player at the table: his ``player`` object and his boxes."""

    player: dict[str, str]
    boxes: list[str]
    ante: int


@dataclass
class Played:
    """What the driver did (the test recomputes from the database, never from this)."""

    shifts: int = 0
    rounds: int = 0
    dark_refusals: int = 0
    cards: set[str] = field(default_factory=set)
    shift_ids: list[int] = field(default_factory=list)


def _seats(rng: random.Random, game: str) -> list[Seat]:
    free = [str(n) for n in range(1, TABLE_BOXES + 1)]
    rng.shuffle(free)
    letters = iter("ABCDEFGHI")
    cards = list(CARDS)
    rng.shuffle(cards)
    out = []
    for _ in range(rng.randint(1, 3)):
        count = min(rng.randint(1, 4), len(free) - (TABLE_BOXES - MOST_BOXES))
        if count <= 0:
            break
        boxes, free = free[:count], free[count:]
        who = {"card": cards.pop()} if rng.random() < 0.7 else {"seat": next(letters)}
        out.append(Seat(who, sorted(boxes, key=int), rng.choice(ANTES)))
    return out


def _place(rng: random.Random, game: str, seats: list[Seat]) -> list[dict[str, Any]]:
    boxes = []
    for seat in seats:
        for box in seat.boxes:
            ante = seat.ante if game == "russian" else rng.choice(ANTES)  # stud: any antes
            entry: dict[str, Any] = {"box": box, "ante": ante, "player": seat.player}
            if game == "russian" and ante >= 100 and rng.random() < 0.4:
                entry["bonus"] = 50
            boxes.append(entry)
    return boxes


def _offered(state: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for s in state["next_steps"]:
        out.setdefault(s["type"], []).append(s)
    return out


class Round:
    """One round in dealing order, every card drawn from one shuffled deck."""

    def __init__(self, api: Api, rng: random.Random, game: str, seats: list[Seat]) -> None:
        self.api, self.rng, self.game, self.seats = api, rng, game, seats
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        self.deck = [c.code for c in deck]
        self.dealer = self.draw(5)
        self.hands = {box: self.draw(5) for s in seats for box in s.boxes}

    def draw(self, n: int) -> list[str]:
        out, self.deck = self.deck[:n], self.deck[n:]
        return out

    def play(self, table_id: int, played: Played) -> None:
        resp = self.api.post(f"/api/v1/tables/{table_id}/rounds",
                             {"boxes": _place(self.rng, self.game, self.seats)})
        assert resp.status_code == 201, resp.get_json()
        body = resp.get_json()
        rid, state, up = body["id"], body["state"], 0
        while True:
            offered = _offered(state)
            if "deal_dealer" in offered:
                up = offered["deal_dealer"][0].get("cards", 0)
                state = self.api.step(rid, "deal_dealer", {"up": self.dealer[:up]})["state"]
            elif "bet" in offered or "fold" in offered:
                state = self.decide(rid, state, offered, played)
            elif "reveal" in offered:
                state = self.api.step(rid, "reveal", {"cards": self.dealer[up:]})["state"]
            elif "dealer_small" in offered:
                state = self.api.step(rid, "dealer_small", {"cards": self.draw(2)})["state"]
            elif "take_ante" in offered:
                box = offered["take_ante"][0]["box"]
                state = self.api.step(rid, "take_ante", {"box": box})["state"]
            elif "show" in offered:
                box = offered["show"][0]["box"]
                state = self.api.step(rid, "show", {"box": box, "cards": self.hands[box]})["state"]
            else:
                answer = self.api.step(rid, "paid", {})
                assert answer["status"] == "settled", answer
                played.rounds += 1
                return

    def decide(self, rid: int, state: dict[str, Any], offered: dict[str, list[Any]],
               played: Played) -> dict[str, Any]:
        may = sorted({s["box"] for t in ("bet", "fold") for s in offered.get(t, [])}, key=int)
        waiting = [b["box"] for b in state["boxes"]
                   if b.get("waits_for") and b["decision"] is None]
        if waiting and self.rng.random() < 0.3:  # a dark box too early: refused, nothing stored
            box = self.rng.choice(waiting)
            resp = self.api.post(f"/api/v1/rounds/{rid}/events",
                                 {"type": "bet", "payload": {"box": box}})
            problem = resp.get_json()
            assert resp.status_code == 422 and problem["field"] == "decision", problem
            assert f"box {box} plays in the dark" in problem["detail"], problem
            played.dark_refusals += 1
        box = self.rng.choice(may)
        can_exchange = any(s["box"] == box for s in offered.get("exchange", []))
        if can_exchange and self.rng.random() < 0.15:
            k = self.rng.randint(1, 3)
            self.hands[box] = self.hands[box][k:] + self.draw(k)
            return self.api.step(rid, "exchange", {"box": box, "count": k})["state"]
        action = "fold" if self.rng.random() < 0.25 else "bet"
        if not any(s["box"] == box for s in offered.get(action, [])):
            action = "bet" if action == "fold" else "fold"
        return self.api.step(rid, action, {"box": box})["state"]


def play_shifts(app: Flask, browser: Browser, user_id: int, *, seed: int,
                count: int) -> Played:
    """``count`` random shifts through the rounds API, signed in as ``browser``."""
    rng = random.Random(seed)
    api = Api(browser)
    # the gaming date the service itself takes for now (gaming days start at 06:00: between
    # midnight and six it is still yesterday's; date.today() made the test fail then)
    today = shifts.gaming_date_at(utcnow(), None, 6)
    played = Played()
    for n in range(count):
        game = GAMES[n % len(GAMES)] if n < len(GAMES) else rng.choice(GAMES)
        day = today + timedelta(days=rng.randint(-1, 1))
        table = arrange(app, make_table, name=f"T{n:03d}", game=game, boxes=TABLE_BOXES)
        shift = arrange(app, shifts.open_shift, table_id=table.id, user_id=user_id,
                        gaming_date=day)
        played.shifts += 1
        played.shift_ids.append(shift.id)
        seats = _seats(rng, game)
        rated = [s.player["card"] for s in seats if "card" in s.player]
        played.cards.update(rated)
        for card in rated:
            if rng.random() < 0.5:
                arrange(app, player_cards.sit_down, table_id=table.id, card=card,
                        actor_id=user_id)
            elif player_cards_missing(app, card):
                arrange(app, _register, card=card, user_id=user_id, table_id=table.id)
        for _ in range(rng.randint(1, 2)):
            Round(api, rng, game, seats).play(table.id, played)
        for card in rated:
            if rng.random() < 0.4 and _seated(app, table.id, card):
                arrange(app, player_cards.leave, table_id=table.id, card=card,
                        actor_id=user_id)
    return played


def player_cards_missing(app: Flask, card: str) -> bool:
    return bool(arrange(app, lambda s: player_cards.find(s, card) is None))


def _register(session: Any, *, card: str, user_id: int, table_id: int) -> None:
    """A card registered at another moment (its sit-down at a table long left): the rounds of
    this shift then have no visit of their own."""
    from dealer_assist.models import PlayerCard

    session.add(PlayerCard(card=card, created_by=user_id))
    session.flush()


def _seated(app: Flask, table_id: int, card: str) -> bool:
    return bool(arrange(app, lambda s: any(p.card == card
                                           for p in player_cards.seated(s, table_id))))

"""Seeded random rounds of the four house games, as a calculator request and as the croupier's
steps in both orders: all cards first (a card-reading shoe, the old shapes) and dealing order.

``case(seed)`` deals one round from one shuffled deck; ``play(case, order, post, steps_of)``
drives any stateful surface (the pure engine, the HTTP API) through it: ``post(type, payload)``
records one step and returns the offered next steps (dicts as in ``next_steps``). Before the
reveal it checks that no offered step asks for a card nobody at the table has seen.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.rules import ALL_CARDS, IllegalActionError, evaluate, get_ranking
from dealer_assist.rules.cards import parse_cards
from dealer_assist.rules.games import GAMES
from dealer_assist.rules.games.stud.dealer import draw_needed
from dealer_assist.rules.profiles import get_profile

STANDARD = get_ranking("standard")
GAME_PROFILES = {"russian": ["russian-classic", "russian-pair-game"],
                 "caribbean": ["caribbean-classic"],
                 "oasis": ["oasis-classic", "oasis-per-card", "oasis-one-card"],
                 "split": ["split-classic"]}
REPLACE_COUNTS = {"oasis-classic": [1, 2, 3, 4, 5], "oasis-per-card": [1, 2, 3, 4, 5],
                  "oasis-one-card": [1]}
TRIPS_OR_BETTER = {"three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
                   "straight_flush", "royal_flush"}
#: steps before the reveal that may carry cards: the dealer's face-up card, a hand the player
#: shows (insurance, a Big/Small split of seven cards he sets himself), the reveal itself
SEEN_BEFORE_REVEAL = {"deal_dealer", "insure", "split", "reveal"}


def codes(cards: list[Any]) -> list[str]:
    return [c.code for c in cards]


@dataclass
class Case:
    game: str
    profile: str
    body: dict[str, Any]
    #: per box: its final hand (and Small Hand) as the showdown would turn it over
    final: dict[str, list[str]] = field(default_factory=dict)
    small: dict[str, list[str]] = field(default_factory=dict)


def case(seed: int, game: str) -> Case:
    rnd = random.Random(seed)
    profile = rnd.choice(GAME_PROFILES[game])
    deck = list(ALL_CARDS)
    rnd.shuffle(deck)
    n = rnd.randint(1, 5)
    hands = [deck[5 * i:5 * i + 5] for i in range(n)]
    dealer, spare = deck[5 * n:5 * n + 5], deck[5 * n + 5:]
    cap = rnd.choice([300, 5000, 50000])
    out = Case(game, profile, {"profile": profile,
                               "table": {"min_ante": 10, "max_ante": 1000, "max_payout": cap},
                               "dealer": {"cards": codes(dealer)}, "boxes": []})
    house = get_profile(profile)
    qualified = house.qualifies(evaluate(dealer, house.ranking).category)
    for i, hand in enumerate(hands):
        box = {"box": str(i + 1), "seat": str(i + 1), "ante": rnd.choice([10, 50, 100, 200]),
               "cards": codes(hand), "decision": rnd.choice(["bet", "bet", "fold"])}
        final = _improve(rnd, out, box, hand, spare)
        if game != "russian" and (box["decision"] == "fold" or qualified):
            del box["on_no_game"]  # the stud calculators refuse a choice nobody makes
        out.final[box["box"]] = codes(final)
        out.body["boxes"].append(box)
    out.body["dealer"]["draw"] = codes([spare.pop(), spare.pop()])
    if game == "split":
        out.body["dealer"]["small"] = codes([spare.pop(), spare.pop()])
    return out


def _improve(rnd: random.Random, c: Case, box: dict[str, Any], hand: list[Any],
             spare: list[Any]) -> list[Any]:
    """The box's improvement, no-game choice, bonus and insurance; returns its final hand."""
    final = list(hand)
    buy = c.game in ("russian", "split")  # the profiles that sell the dealer a game
    box["on_no_game"] = rnd.choice(["take_ante", "buy_game"]) if buy else "take_ante"
    if c.game == "russian":
        if box["ante"] >= 100 and rnd.random() < 0.3:
            box["bonus"] = 50
        kind = rnd.choice(["none", "none", "exchange", "sixth"])
        if kind == "sixth":
            card = spare.pop()
            box["improvement"] = {"sixth_card": card.code}
            final.append(card)
        elif kind == "exchange":
            k = rnd.randint(1, 5)
            discard = rnd.sample(hand, k)
            new = [spare.pop() for _ in range(k)]
            box["improvement"] = {"exchange": {"discard": codes(discard), "draw": codes(new)}}
            final = [x for x in hand if x not in discard] + new
        category = evaluate(final, STANDARD).category.value
        if box["decision"] == "bet" and category in TRIPS_OR_BETTER and rnd.random() < 0.6:
            box["insurance"] = rnd.randint(10, min(6 * box["ante"], c.body["table"]["max_payout"]))
    elif c.game == "oasis" and rnd.random() < 0.5:
        k = rnd.choice(REPLACE_COUNTS[c.profile])
        discard = rnd.sample(hand, k)
        new = [spare.pop() for _ in range(k)]
        box["improvement"] = {"replace": {"discard": codes(discard), "draw": codes(new)}}
        final = [x for x in hand if x not in discard] + new
        if k == 5:
            box["decision"] = "bet"
    elif c.game == "split":
        mode = rnd.choice(["none", "free", "bought"])
        if mode != "none":
            extra = [spare.pop(), spare.pop()]
            box["extra"] = {"mode": mode, "cards": codes(extra)}
            if mode == "free":
                box["decision"] = "bet"
                c.small[box["box"]] = codes(extra)
            else:
                seven = hand + extra
                rnd.shuffle(seven)
                box["split"] = {"big": codes(seven[:5]), "small": codes(seven[5:])}
                final = seven[:5]
                c.small[box["box"]] = codes(seven[5:])
    return final


def calculator(c: Case) -> dict[str, Any]:
    """The stateless calculator's settlement of the whole round (the reference)."""
    try:
        return GAMES[c.game].settle_request(c.body).to_dict()
    except IllegalActionError as err:
        if err.field != "dealer.small":  # the dealer draws his Small Hand only with a game
            raise
        body = copy.deepcopy(c.body)
        del body["dealer"]["small"]
        return GAMES[c.game].settle_request(body).to_dict()


def money(settlement: dict[str, Any]) -> dict[str, Any]:
    """What is paid: per box, its net and every wager's stake and net."""
    return {b["box"]: (b["net"], {n: (w["stake"], w["net"]) for n, w in b["wagers"].items()})
            for b in settlement["boxes"]}


Post = Callable[[str, dict[str, Any]], list[dict[str, Any]]]


def check_hidden(steps: list[dict[str, Any]], c: Case, folded: set[str],
                 revealed: bool) -> None:
    """No offered step asks for a hidden card: before the reveal, cards only for the dealer's
    face-up card and hands the player shows; never the old all-cards ``deal_box``; never a
    folded box's cards."""
    for s in steps:
        assert s["type"] != "deal_box", s
        if s.get("box") in folded:
            assert not s.get("cards"), s
        if not revealed and s.get("cards"):
            assert s["type"] in SEEN_BEFORE_REVEAL, s
        if s["type"] == "deal_dealer":
            up = 0 if c.game == "russian" else 1
            assert s.get("cards", 0) == up, s


def play(c: Case, order: str, post: Post, first: list[dict[str, Any]]) -> None:
    """Drive the round through ``post`` after ``place``; ``first`` are the steps then offered."""
    body, boxes = c.body, c.body["boxes"]
    dealer = body["dealer"]["cards"]
    up = [] if c.game == "russian" else dealer[-1:]
    old = order == "cards_first"
    steps, folded = first, set()
    if not old:
        check_hidden(steps, c, folded, False)
    if old:
        for b in boxes:
            steps = post("deal_box", {"box": b["box"], "cards": b["cards"]})
        steps = post("deal_dealer", {"cards": dealer})
    else:
        steps = post("deal_dealer", {"up": up})
    for b in boxes:
        if not old:
            check_hidden(steps, c, folded, False)
        steps = _decide(c, b, old, post) or steps
        if b["decision"] == "fold":
            folded.add(b["box"])
        if not old:
            check_hidden(steps, c, folded, False)
    steps = post("reveal", {} if old else {"cards": [x for x in dealer if x not in up]})
    _finish(c, steps, post, folded, old)


def _decide(c: Case, b: dict[str, Any], old: bool, post: Post) -> list[dict[str, Any]]:
    box, steps = b["box"], []
    imp = b.get("improvement") or {}
    if "exchange" in imp:
        ex = imp["exchange"]
        steps = post("exchange", {"box": box, **ex} if old
                     else {"box": box, "count": len(ex["discard"])})
    elif "sixth_card" in imp:
        steps = post("sixth_card", {"box": box, "card": imp["sixth_card"]} if old
                     else {"box": box})
    elif "replace" in imp:
        rep = imp["replace"]
        steps = post("replace", {"box": box, **rep} if old
                     else {"box": box, "count": len(rep["discard"])})
    extra = b.get("extra")
    if extra:
        bought = extra["mode"] == "bought"
        cards = extra["cards"] if old else (b["cards"] + extra["cards"] if bought else [])
        steps = post("extra", {"box": box, "mode": extra["mode"], "cards": cards})
        if bought:
            steps = post("split", {"box": box, **b["split"]})
    steps = post(b["decision"], {"box": box})
    if b.get("insurance"):
        payload: dict[str, Any] = {"box": box, "amount": b["insurance"]}
        if not old:
            payload["cards"] = c.final[box]
        steps = post("insure", payload)
    return steps


def _finish(c: Case, steps: list[dict[str, Any]], post: Post, folded: set[str],
            old: bool) -> None:
    """After the reveal: no-game choices, the dealer's draw and Small Hand, the showdown."""
    boxes = {b["box"]: b for b in c.body["boxes"]}
    dealer = c.body["dealer"]
    for _ in range(40):
        check_hidden(steps, c, folded, True)
        choice = next((s for s in steps if s["type"] in ("take_ante", "buy_game")
                       and s["type"] == boxes[s["box"]]["on_no_game"]), None)
        choice = choice or next((s for s in steps if s["type"] == "take_ante"), None)
        show = next((s for s in steps if s["type"] == "show"), None)
        if choice is not None:
            steps = post(choice["type"], {"box": choice["box"]})
        elif any(s["type"] == "dealer_draw" for s in steps):
            steps = post("dealer_draw", {"cards": draw_used(c)})
        elif any(s["type"] == "dealer_small" for s in steps):
            steps = post("dealer_small", {"cards": dealer["small"]})
        elif show is not None:
            assert not old, "all cards first needs no show"
            payload = {"box": show["box"], "cards": c.final[show["box"]]}
            if show.get("small"):
                payload["small"] = c.small[show["box"]]
            steps = post("show", payload)
        else:
            return
    raise AssertionError("the round did not finish")


def draw_used(c: Case) -> list[str]:
    """The dealer's draw as the table enters it: only the cards the bought game uses (the
    calculator's ``dealer.draw`` holds a spare; the stateful API refuses a surplus)."""
    house = get_profile(c.profile)
    dealer = c.body["dealer"]
    need = draw_needed(parse_cards(dealer["cards"]), parse_cards(dealer["draw"]), house.ranking,
                       house.qualifier, free_second_replacement=house.free_second_replacement)
    return list(dealer["draw"][:need])

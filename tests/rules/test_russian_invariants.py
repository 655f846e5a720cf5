"""Russian poker invariants over random legal rounds (hypothesis).

Money is conserved and signed consistently, no payout exceeds the table maximum, a folded box
never wins, the same input always settles the same way, and recording the round action by
action gives exactly the settlement of the calculator request.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.rules import ALL_CARDS, Card, evaluate, get_ranking
from dealer_assist.rules.combinations import paid_combinations
from dealer_assist.rules.games import russian as R
from dealer_assist.rules.games.stud.table import Table

STANDARD = get_ranking("standard")
ANTES = [10, 50, 100, 200, 1000]
TRIPS_OR_BETTER = {"three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
                   "straight_flush", "royal_flush"}


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A legal calculator request: cards dealt in order from one shuffled deck."""
    deck: list[Card] = list(draw(st.permutations(ALL_CARDS)))
    n = draw(st.integers(1, 7))
    seat_ante = {s: draw(st.sampled_from(ANTES)) for s in "ABC"}
    hands = [deck[5 * i:5 * i + 5] for i in range(n)]
    dealer, rest = deck[5 * n:5 * n + 5], deck[5 * n + 5:]
    dealer_draw, spare = rest[:2], rest[2:]
    cap = draw(st.sampled_from([500, 5000, 50000]))
    boxes = []
    for i, hand in enumerate(hands):
        seat = "ABC"[i % 3]
        ante = seat_ante[seat]
        boxes.append(_box(draw, i, seat, ante, hand, spare, cap))
    return {"profile": "russian-classic",
            "table": {"min_ante": 10, "max_ante": 1000, "max_payout": cap},
            "dealer": {"cards": [c.code for c in dealer],
                       "draw": [c.code for c in dealer_draw]},
            "boxes": boxes}


def _box(draw: st.DrawFn, i: int, seat: str, ante: int, hand: list[Card],
         spare: list[Card], cap: int) -> dict[str, Any]:
    out: dict[str, Any] = {"box": str(i + 1), "seat": seat, "ante": ante,
                           "cards": [c.code for c in hand],
                           "decision": draw(st.sampled_from(["bet", "bet", "fold"])),
                           "on_no_game": draw(st.sampled_from(["take_ante", "buy_game"]))}
    bonus_units = ante // 2 // 50
    if bonus_units and draw(st.booleans()):
        out["bonus"] = 50 * draw(st.integers(1, bonus_units))
    final = list(hand)
    kind = draw(st.sampled_from(["none", "exchange", "sixth"]))
    if kind == "sixth" and spare:
        card = spare.pop()
        out["improvement"] = {"sixth_card": card.code}
        final.append(card)
    elif kind == "exchange":
        k = draw(st.integers(1, 5))
        if len(spare) >= k:
            discard = draw(st.permutations(hand))[:k]
            new = [spare.pop() for _ in range(k)]
            out["improvement"] = {"exchange": {"discard": [c.code for c in discard],
                                               "draw": [c.code for c in new]}}
            final = [c for c in hand if c not in discard] + new
    category = evaluate(final, STANDARD).category.value
    if out["decision"] == "bet" and category in TRIPS_OR_BETTER and draw(st.booleans()):
        # trips pay 3 x BET = 6 x ANTE at least: every amount up to that (and up to the
        # maximum payout) is a legal insurance
        out["insurance"] = draw(st.integers(10, min(6 * ante, cap)))
    return out


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.of(c) for c in codes)


def _record_by_hand(request: dict[str, Any]) -> R.RoundState:
    """The croupier's way: one action per step, in table order, built from the request data."""
    table = Table(**request["table"])
    boxes = request["boxes"]
    actions: list[Any] = [R.PlaceBox(b["box"], b["seat"], b["ante"], b.get("bonus", 0))
                          for b in boxes]
    actions += [R.DealBox(b["box"], _cards(b["cards"])) for b in boxes]
    actions.append(R.DealDealer(_cards(request["dealer"]["cards"])))
    for b in boxes:
        imp = b.get("improvement")
        if imp and "sixth_card" in imp:
            actions.append(R.SixthCard(b["box"], Card.of(imp["sixth_card"])))
        elif imp:
            ex = imp["exchange"]
            actions.append(R.Exchange(b["box"], _cards(ex["discard"]), _cards(ex["draw"])))
        actions.append(R.Bet(b["box"], 2 * b["ante"]) if b["decision"] == "bet"
                       else R.Fold(b["box"]))
        if b.get("insurance"):
            actions.append(R.Insure(b["box"], b["insurance"]))
    actions.append(R.RevealDealer())
    state = R.replay(R.RUSSIAN_CLASSIC, table, actions)
    if R.dealer_has_game(state):
        return state
    for b in boxes:
        if b["decision"] == "bet":
            choice = R.BuyGame if b["on_no_game"] == "buy_game" else R.TakeAnte
            state = R.apply(state, choice(b["box"]))
    if R.can_dealer_draw(state):
        state = R.apply(state, R.DealerDraw(_cards(request["dealer"]["draw"])))
    return state


@settings(max_examples=120, deadline=None)
@given(rounds())
def test_money_is_conserved_and_signed_by_outcome(request: dict[str, Any]) -> None:
    result = R.settle_request(request).to_dict()
    for box in result["boxes"]:
        wagers = box["wagers"].values()
        assert box["net"] == sum(w["net"] for w in wagers)
        for w in wagers:
            assert isinstance(w["net"], int) and isinstance(w["stake"], int)
            assert w["net"] >= -w["stake"]          # nobody loses more than he staked
            if w["outcome"] == "win":
                assert w["net"] > 0
            elif w["outcome"] == "lose":
                assert w["net"] == -w["stake"]
            else:
                assert w["net"] == 0
        for fee in ("improvement_fee", "buy_game_fee"):
            assert box["wagers"][fee]["net"] == -box["wagers"][fee]["stake"]
    assert result["house_net"] == -sum(b["net"] for b in result["boxes"])


@settings(max_examples=120, deadline=None)
@given(rounds())
def test_no_payout_exceeds_the_maximum_table_payout(request: dict[str, Any]) -> None:
    cap = request["table"]["max_payout"]
    for box in R.settle_request(request).to_dict()["boxes"]:
        w = box["wagers"]
        assert max(w["bet"]["net"], 0) + max(w["insurance"]["net"], 0) <= cap
        assert w["bonus"]["net"] <= cap


@settings(max_examples=120, deadline=None)
@given(rounds())
def test_a_folded_box_never_wins(request: dict[str, Any]) -> None:
    result = R.settle_request(request).to_dict()
    for asked, box in zip(request["boxes"], result["boxes"], strict=True):
        if asked["decision"] == "fold":
            assert box["folded"] and all(w["net"] <= 0 for w in box["wagers"].values())
            assert box["wagers"]["ante"]["net"] == -asked["ante"]


@settings(max_examples=80, deadline=None)
@given(rounds())
def test_replaying_the_same_round_gives_the_same_settlement(request: dict[str, Any]) -> None:
    first = R.settle_request(request).to_dict()
    again = R.settle_request(copy.deepcopy(request)).to_dict()
    assert first == again


@settings(max_examples=80, deadline=None)
@given(rounds())
def test_recording_actions_one_by_one_equals_the_calculator(request: dict[str, Any]) -> None:
    by_hand = R.settle(_record_by_hand(request))
    assert by_hand.to_dict() == R.settle_request(request).to_dict()


@settings(max_examples=200, deadline=None)
@given(st.permutations(ALL_CARDS), st.sampled_from([5, 6]))
def test_the_paid_combinations_follow_the_two_combination_rule(deck: list[Card],
                                                                size: int) -> None:
    cards = deck[:size]
    multiplier = R.RUSSIAN_CLASSIC.multiplier
    paid = paid_combinations(cards, multiplier, STANDARD)
    best = evaluate(cards, STANDARD).category
    total = sum(multiplier(c.category) for c in paid)
    # never less than the best hand alone, at most two combinations, each of the hand
    assert total >= multiplier(best) and len(paid) <= 2
    assert all(set(c.cards) <= set(cards) for c in paid)
    if len(paid) == 2:
        high, low = paid
        assert multiplier(high.category) >= multiplier(low.category)
        assert set(low.cards) - set(high.cards) or set(high.cards) - set(low.cards)

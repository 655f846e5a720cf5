"""Russian poker on the live table: events <-> actions, and the steps the UI may offer.

Event types and payloads in dealing order (cards as codes)::

    place        {"boxes": [{"box": "1", "seat": "1", "ante": 100, "bonus": 0}, ...]}
    deal_dealer  {"up": []}                           (the face-up cards; none by default)
    exchange     {"box": "1", "count": 2}             (optional "cards": the new cards seen)
    sixth_card   {"box": "1"}                         (optional "cards": ["7h"])
    bet          {"box": "1", "amount": 200}          (amount defaults to 2 x ANTE)
    fold         {"box": "1"}
    insure       {"box": "1", "amount": 100, "cards": [the shown hand]}
    reveal       {"cards": [the dealer's hole cards]}
    show         {"box": "1", "cards": [the final hand]}  (5, or 6 after a sixth card)

All cards first (a card-reading shoe; rounds stored before dealing order) still replays:
``deal_box {"box", "cards": [5]}``, ``deal_dealer {"cards": [5]}``, ``exchange {"box",
"discard", "draw"}``, ``sixth_card {"box", "card"}``, ``insure`` and ``reveal`` without cards;
then no ``show`` is needed. After the reveal, as before::

    take_ante    {"box": "1"}
    buy_game     {"box": "1"}
    dealer_draw  {"cards": ["8c"]}                    (a second card for the free replacement)
    redeal       {"box": "1", "cards_received": 6}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Card
from ..errors import RulesError
from ..evaluator import evaluate
from ..profiles import HouseProfile
from ..request import RequestError, get_cards, get_int
from ..settlement import Settlement
from . import russian as r
from .actions import Action, RussianStep
from .common import Table, buy_game, passes
from .flow import (
    Decoder,
    GameFlow,
    Step,
    bought_summary,
    box_of,
    codes,
    decode_bet,
    decode_deal_dealer,
    decode_place,
    decode_reveal,
    decode_show,
    encode_box_only,
    not_a_step,
    register_flow,
    value_of,
)
from .state import evolve


def _exchange(s: r.RoundState, p: Mapping[str, Any]) -> tuple[Action, ...]:
    """Dealing order ``{"box", "count", "cards"?}``; all cards first ``{"box", "discard",
    "draw"}``."""
    if p.get("discard") is not None:
        return (r.Exchange(box_of(p), get_cards(p, "discard"), get_cards(p, "draw")),)
    return (r.Exchange(box_of(p), (), get_cards(p, "cards", default=[]),
                       get_int(p, "count", minimum=1)),)


def _sixth(s: r.RoundState, p: Mapping[str, Any]) -> tuple[Action, ...]:
    if p.get("card") is not None:
        return (r.SixthCard(box_of(p), get_cards(p, "card", count=1)[0]),)
    cards = get_cards(p, "cards", default=[])
    if len(cards) > 1:
        raise RequestError("a sixth card is one card", field="cards", value=len(cards))
    return (r.SixthCard(box_of(p), cards[0] if cards else None),)


DECODERS: dict[str, Decoder] = {
    "place": decode_place,
    "deal_box": lambda s, p: (r.DealBox(box_of(p), get_cards(p, "cards")),),
    "deal_dealer": decode_deal_dealer,
    "exchange": _exchange,
    "sixth_card": _sixth,
    "bet": decode_bet,
    "fold": lambda s, p: (r.Fold(box_of(p)),),
    "insure": lambda s, p: (r.Insure(box_of(p), get_int(p, "amount"),
                                     get_cards(p, "cards", default=[])),),
    "reveal": decode_reveal,
    "take_ante": lambda s, p: (r.TakeAnte(box_of(p)),),
    "buy_game": lambda s, p: (r.BuyGame(box_of(p)),),
    "dealer_draw": lambda s, p: (r.DealerDraw(get_cards(p, "cards")),),
    "show": decode_show,
    "redeal": lambda s, p: (r.Redeal(box_of(p), get_int(p, "cards_received")),),
}


def encode(a: Action) -> dict[str, Any]:
    """The canonical payload of one Russian poker action."""
    if isinstance(a, r.PlaceBox):
        return {"box": a.box, "seat": a.seat, "ante": a.ante, "bonus": a.bonus}
    if isinstance(a, r.DealBox):
        return {"box": a.box, "cards": codes(a.cards)}
    if isinstance(a, r.DealDealer | r.DealerDraw):
        return {"cards": codes(a.cards)}
    if isinstance(a, r.Exchange):
        if a.discard:
            return {"box": a.box, "discard": codes(a.discard), "draw": codes(a.draw)}
        return _with_cards({"box": a.box, "count": a.count}, a.draw)
    if isinstance(a, r.SixthCard):
        return {"box": a.box, "card": a.card.code} if a.card else {"box": a.box}
    if isinstance(a, r.Bet):
        return {"box": a.box, "amount": a.amount}
    if isinstance(a, r.Insure):
        return _with_cards({"box": a.box, "amount": a.amount}, a.cards)
    if isinstance(a, r.Redeal):
        return {"box": a.box, "cards_received": a.cards_received}
    return encode_box_only(a, "Russian poker")


def _with_cards(out: dict[str, Any], cards: tuple[Card, ...]) -> dict[str, Any]:
    if cards:
        out["cards"] = codes(cards)
    return out


def box_steps(state: r.RoundState, b: r.BoxState) -> list[Step]:
    """The steps one box may take now, from the engine's ``can_*``; none asks for a card the
    croupier cannot see (insurance: the hand the player shows; show: at the showdown)."""
    p, name = state.profile, b.box
    out: list[Step] = []
    if r.can_exchange(state, name):
        out.append(Step("exchange", name, "Exchange",
                        discard=tuple(codes(b.cards)) if b.cards else (),
                        discard_counts=tuple(range(1, p.max_exchange + 1))))
    if r.can_sixth_card(state, name):
        out.append(Step("sixth_card", name, "6th card"))
    if r.can_bet(state, name):
        out.append(Step("bet", name, "Bet", amount=p.bet_multiple * b.ante))
    if r.can_fold(state, name):
        out.append(Step("fold", name, "Fold"))
    if r.can_insure(state, name):
        known = b.hand_known
        out.append(Step("insure", name, "Insure", cards=0 if known else b.hand_size,
                        min_amount=state.table.min_ante,
                        max_amount=r.presumptive_payout(state, b) if known else None))
    if r.can_take_ante(state, name):
        out.append(Step("take_ante", name, "Take ANTE"))
    if r.can_buy_game(state, name):
        out.append(Step("buy_game", name, "Buy game"))
    if r.missing_hand(state, b) and r.can_show(state, name):
        out.append(Step("show", name, "Show the hand", cards=b.hand_size))
    return out


class RussianFlow(GameFlow):
    game = "russian"
    decoders = DECODERS

    def new_round(self, profile: HouseProfile, table: Table) -> r.RoundState:
        assert isinstance(profile, r.RussianProfile)
        return r.new_round(profile, table)

    def apply(self, state: r.RoundState, action: Action) -> r.RoundState:
        if not isinstance(action, RussianStep):
            raise not_a_step(action, "Russian poker")
        return r.apply(state, action)

    def encode(self, action: Action) -> dict[str, Any]:
        return encode(action)

    def voided(self, state: r.RoundState) -> str | None:
        return state.voided

    def next_steps(self, state: r.RoundState) -> tuple[Step, ...]:
        s = state
        if s.voided:
            return (Step("void", None, "Close the voided round"),)
        out: list[Step] = []
        if r.can_place_box(s):
            out.append(Step("place", None, "Place the bets"))
        for b in s.boxes:
            out += box_steps(s, b)
        if r.can_deal_dealer(s) and not any(b.cards for b in s.boxes):
            up = s.profile.dealer_up_cards
            out.append(Step("deal_dealer", None, "Dealer's face-up card" if up else "Deal",
                            cards=up))
        if r.can_reveal_dealer(s):
            out.append(Step("reveal", None, "Reveal the dealer",
                            cards=0 if s.dealer else 5 - len(s.up)))
        if r.can_dealer_draw(s):
            two = s.profile.free_second_replacement
            out.append(Step("dealer_draw", None, "Dealer's new card", cards=1,
                            max_cards=2 if two else 1))
        if s.dealt and not s.revealed:
            out += [Step("redeal", b.box, "Redeal") for b in s.boxes if _may_redeal(s, b.box)]
        return tuple(out)

    def can_settle(self, state: r.RoundState) -> bool:
        return r.can_settle(state)

    def settle(self, state: r.RoundState) -> Settlement:
        return r.settle(state)

    def settle_ready(self, state: r.RoundState) -> Settlement | None:
        s = state
        if not s.revealed or s.voided:
            return None
        ready = tuple(b for b in s.boxes if not r.missing_hand(s, b))
        try:
            return r.settle(evolve(s, boxes=ready)) if ready else None
        except RulesError:
            return None

    def summary(self, state: r.RoundState) -> dict[str, Any]:
        s = state
        dealer: dict[str, Any] = {"cards": codes(s.dealer), "up": codes(s.up),
                                  "revealed": s.revealed, "draw": codes(s.draw)}
        if s.revealed:
            hand = r.dealer_hand(s)
            dealer.update(hand=hand.label, hand_value=value_of(hand),
                          qualified=r.dealer_has_game(s), bought=_bought(s))
        return {"game": self.game, "profile": s.profile.name, "table": s.table.to_dict(),
                "voided": s.voided, "dealer": dealer, "dealt": s.dealt,
                "boxes": [_box_summary(b, s) for b in s.boxes],
                "used": sorted(c.code for c in s.used)}


def _bought(s: r.RoundState) -> dict[str, Any] | None:
    """The dealer's new hand once he has drawn for a bought game (issue 26 item 2)."""
    if not s.draw or r.dealer_has_game(s):
        return None
    p = s.profile
    try:
        return bought_summary(buy_game(s.dealer, s.draw, p.ranking, p.qualifier,
                                       free_second_replacement=p.free_second_replacement))
    except RulesError:  # the free second card not drawn yet
        return None


def _may_redeal(s: r.RoundState, box: str) -> bool:
    return passes(lambda: r.verify_redeal(s, r.Redeal(box, 0)))


def _box_summary(b: r.BoxState, s: r.RoundState) -> dict[str, Any]:
    hand = b.hand_cards
    value = evaluate(hand, s.profile.ranking) if b.hand_known else None
    return {
        "box": b.box, "seat": b.seat, "ante": b.ante, "bonus": b.bonus,
        "cards": codes(b.cards), "discarded": codes(b.discarded), "drawn": codes(b.drawn),
        "sixth": b.sixth.code if b.sixth else None, "improvement": b.improvement_kind,
        "exchanged": b.exchange_count, "shown": codes(b.shown),
        "hand_cards": codes(hand) if b.hand_known else [],
        "hand": value.label if value else None, "hand_value": value_of(value),
        "decision": b.decision, "bet": b.bet, "insurance": b.insurance, "no_game": b.no_game,
        "collected": b.improvement_fee + (s.profile.buy_game_fee * b.ante
                                          if b.no_game == r.BUY_GAME else 0),
    }


FLOW = register_flow(RussianFlow())

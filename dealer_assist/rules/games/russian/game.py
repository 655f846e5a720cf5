"""Russian poker as a :class:`~dealer_assist.rules.engine.Game`: its own events <-> step
records, its table of steps, the steps the UI may offer and its summary.

Event types and payloads in dealing order (cards as codes)::

    place        {"boxes": [{"box": "1", "seat": "1", "ante": 100, "bonus": 0,
                             "player": {"seat": "A"}}, ...]}    (``player`` optional)
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

from ... import inputs as ask
from ...cards import Card
from ...engine import Decoder, Step, StepRule, passes
from ...errors import RulesError
from ...fields import RequestError, get_cards, get_int
from ...settlement import Settlement
from ..stud.actions import PlaceBox
from ..stud.codec import SHARED_DECODERS, box_of, codes
from ..stud.deal import place_box
from ..stud.dealer import bought_summary, buy_game
from ..stud.game import HouseGame, box_summary, dealer_summary, exchange_inputs, round_summary
from ..stud.state import BoxState, evolve
from ..stud.steps import SHARED
from .actions import Exchange, Insure, Redeal, SixthCard
from .settle import missing_hand, settle
from .steps import (
    RoundState,
    can_exchange,
    can_insure,
    can_sixth_card,
    dealer_has_game,
    exchange,
    insure,
    presumptive_payout,
    redeal,
    sixth_card,
    verify_exchange,
    verify_insure,
    verify_place_box_with_bonus,
    verify_redeal,
    verify_sixth_card,
)


def _exchange(s: RoundState, p: Mapping[str, Any]) -> tuple[Exchange]:
    """Dealing order ``{"box", "count", "cards"?}``; all cards first ``{"box", "discard",
    "draw"}``."""
    if p.get("discard") is not None:
        return (Exchange(box_of(p), get_cards(p, "discard"), get_cards(p, "draw")),)
    return (Exchange(box_of(p), (), get_cards(p, "cards", default=[]),
                     get_int(p, "count", minimum=1)),)


def _sixth(s: RoundState, p: Mapping[str, Any]) -> tuple[SixthCard]:
    if p.get("card") is not None:
        return (SixthCard(box_of(p), get_cards(p, "card", count=1)[0]),)
    cards = get_cards(p, "cards", default=[])
    if len(cards) > 1:
        raise RequestError("a sixth card is one card", field="cards", value=len(cards))
    return (SixthCard(box_of(p), cards[0] if cards else None),)


DECODERS: dict[str, Decoder] = {
    **SHARED_DECODERS,
    "exchange": _exchange,
    "sixth_card": _sixth,
    "insure": lambda s, p: (Insure(box_of(p), get_int(p, "amount"),
                                   get_cards(p, "cards", default=[])),),
    "redeal": lambda s, p: (Redeal(box_of(p), get_int(p, "cards_received")),),
}
TABLE: dict[type[Any], StepRule[Any, Any]] = {
    **SHARED,
    PlaceBox: StepRule(verify_place_box_with_bonus, place_box),
    Exchange: StepRule(verify_exchange, exchange),
    SixthCard: StepRule(verify_sixth_card, sixth_card),
    Insure: StepRule(verify_insure, insure),
    Redeal: StepRule(verify_redeal, redeal),
}


def _with_cards(out: dict[str, Any], cards: tuple[Card, ...]) -> dict[str, Any]:
    if cards:
        out["cards"] = codes(cards)
    return out


class RussianGame(HouseGame):
    name = "russian"
    decoders = DECODERS
    table = TABLE
    bonus_field = True

    def encode_own(self, a: Any) -> dict[str, Any]:
        """The canonical payload of one of Russian poker's own records."""
        if isinstance(a, Exchange):
            if a.discard:
                return {"box": a.box, "discard": codes(a.discard), "draw": codes(a.draw)}
            return _with_cards({"box": a.box, "count": a.count}, a.draw)
        if isinstance(a, SixthCard):
            return {"box": a.box, "card": a.card.code} if a.card else {"box": a.box}
        if isinstance(a, Insure):
            return _with_cards({"box": a.box, "amount": a.amount}, a.cards)
        if isinstance(a, Redeal):
            return {"box": a.box, "cards_received": a.cards_received}
        return super().encode_own(a)

    def settle(self, state: RoundState) -> Settlement:
        return settle(state)

    def missing_hand(self, state: RoundState, box: BoxState) -> bool:
        return missing_hand(state, box)

    def voided(self, state: RoundState) -> str | None:
        return state.voided

    def improvement_steps(self, state: RoundState, b: BoxState) -> list[Step]:
        p, name = state.profile, b.box
        out: list[Step] = []
        if can_exchange(state, name):
            counts = tuple(range(1, p.max_exchange + 1))
            out.append(Step("exchange", name, "Exchange",
                            discard=tuple(codes(b.cards)) if b.cards else (),
                            discard_counts=counts, inputs=exchange_inputs(b.cards, counts)))
        if can_sixth_card(state, name):
            out.append(Step("sixth_card", name, "6th card"))
        return out

    def side_steps(self, state: RoundState, b: BoxState) -> list[Step]:
        """Insurance: the hand the player shows (none asked when the round knows it)."""
        if not can_insure(state, b.box):
            return []
        return [_insure(state, b, b if b.hand_known else None)]

    def insure_step(self, state: RoundState, box: str, cards: Any) -> Step:
        """The insurance step for the hand the player shows (``cards``), its limit known: the
        box's presumptive payout for that hand (capped by the maximum payout), so the form says
        it before the croupier types the amount. A hand that cannot be
        insured raises the refusal recording it would."""
        shown = get_cards({"cards": cards}, "cards")
        verify_insure(state, Insure(box, state.table.min_ante, shown))
        _, b = state.find(box)
        return _insure(state, b, b if b.hand_known else evolve(b, shown=shown))

    def refine_step(self, state: RoundState, type: str,
                    payload: Mapping[str, Any]) -> Step | None:
        """The insurance step once the hand is tapped: with its limit (:meth:`insure_step`)."""
        if type != "insure":
            return None
        return self.insure_step(state, box_of(payload), payload.get("cards"))

    def game_steps(self, state: RoundState) -> list[Step]:
        if not state.dealt or state.revealed:
            return []
        received = (ask.number("cards_received", "Cards the box received", 0, None,
                               quick=(4, 6)),)
        return [Step("redeal", b.box, "Redeal", inputs=received) for b in state.boxes
                if passes(verify_redeal, state, Redeal(b.box, 0))]

    def summary(self, state: RoundState) -> dict[str, Any]:
        s = state
        dealer = dealer_summary(s, lambda: dealer_has_game(s), lambda: _bought(s))
        return round_summary(self.name, s, dealer, [_box_summary(b, s) for b in s.boxes],
                             s.voided)


def _bought(s: RoundState) -> dict[str, Any] | None:
    """The dealer's new hand once he has drawn for a bought game."""
    if not s.draw or dealer_has_game(s):
        return None
    p = s.profile
    try:
        return bought_summary(buy_game(s.dealer, s.draw, p.ranking, p.qualifier,
                                       free_second_replacement=p.free_second_replacement))
    except RulesError:  # the free second card not drawn yet
        return None


def _box_summary(b: BoxState, s: RoundState) -> dict[str, Any]:
    """The stud games' box (``stud.game.box_summary``) with Russian poker's own fields."""
    return box_summary(b, s, s.profile.open_boxes, bonus=b.bonus,
                       discarded=codes(b.discarded), drawn=codes(b.drawn),
                       sixth=b.sixth.code if b.sixth else None,
                       improvement=b.improvement_kind, exchanged=b.exchange_count,
                       insurance=b.insurance)


RUSSIAN = RussianGame()


def _insure(state: RoundState, b: BoxState, hand: BoxState | None) -> Step:
    """The insurance step of box ``b``: the hand to tap unless the round knows it, and the
    amount from the table minimum up to the presumptive payout of ``hand`` (None: not known
    until the hand is tapped; the screen then asks the engine, ``refine_step``)."""
    low = state.table.min_ante
    high = presumptive_payout(state, hand) if hand is not None else None
    shown = () if b.hand_known else (
        ask.cards("cards", "The player shows his hand: tap its cards.", state.hand_size(b),
                  auto=False, refines=True),)
    return Step("insure", b.box, "Insure", cards=0 if b.hand_known else state.hand_size(b),
                min_amount=low, max_amount=high,
                inputs=(*shown, ask.number("amount", "Amount", low, high, quick=(low, high))))

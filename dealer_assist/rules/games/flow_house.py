"""Caribbean stud, Oasis poker and Big/Small on the live table: events <-> actions, next steps.

Event types shared with Russian poker (``flow_russian``), in dealing order: ``place`` (no bonus
in these games), ``deal_dealer`` ``{"up": [the face-up card]}``, ``bet``, ``fold``, ``reveal``
``{"cards": [the four hole cards]}``, ``take_ante``, ``buy_game``, ``dealer_draw``, ``show``
``{"box", "cards": [5]}``. Oasis adds ``replace`` ``{"box", "count"}``; Big/Small adds ``extra``
``{"box", "mode": "free"|"bought"}`` (optional ``cards``: the two extra cards, or all seven
when the player shows them for the split suggestion), ``split`` ``{"box", "big": [5], "small":
[2]}``, ``dealer_small`` ``{"cards": [2]}``, and ``show`` with ``"small"`` for free extra cards.
All cards first (old shapes): ``deal_box``, ``deal_dealer {"cards": [5]}``, ``replace {"box",
"discard", "draw"}``, ``extra`` with its two cards, ``reveal {}``; then no ``show`` is needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..errors import IllegalActionError, RulesError
from ..evaluator import evaluate, evaluate_small
from ..profiles import HouseProfile
from ..request import get_cards, get_int, get_str
from ..settlement import Settlement
from . import caribbean, oasis, split
from . import house_round as h
from .actions import Action, OasisStep, SharedStep, SplitStep
from .common import Table, add_cards, passes
from .flow import (
    Decoder,
    GameFlow,
    Step,
    bought_summary,
    box_of,
    codes,
    codes_with,
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
from .house_settle import missing_hand, resolve_dealer

if TYPE_CHECKING:  # imported late at run time: its lookup tables are built on import
    from .split_suggest import SplitSuggestion

_ANY5 = tuple(Card.of(c) for c in ("2c", "3c", "4c", "5c", "6c"))


def _replace(state: h.RoundState, p: Mapping[str, Any]) -> tuple[Action, ...]:
    """Dealing order ``{"box", "count", "cards"?}``; all cards first ``{"box", "discard",
    "draw"}``."""
    if p.get("discard") is not None:
        return (oasis.Replace(box_of(p), get_cards(p, "discard"), get_cards(p, "draw")),)
    return (oasis.Replace(box_of(p), (), get_cards(p, "cards", default=[]),
                          get_int(p, "count", minimum=1)),)


GENERIC: dict[str, Decoder] = {
    "place": decode_place,
    "deal_box": lambda s, p: (h.DealBox(box_of(p), get_cards(p, "cards")),),
    "deal_dealer": decode_deal_dealer,
    "bet": decode_bet,
    "fold": lambda s, p: (h.Fold(box_of(p)),),
    "reveal": decode_reveal,
    "take_ante": lambda s, p: (h.TakeAnte(box_of(p)),),
    "buy_game": lambda s, p: (h.BuyGame(box_of(p)),),
    "dealer_draw": lambda s, p: (h.DealerDraw(get_cards(p, "cards")),),
    "show": decode_show,
}
OASIS = {**GENERIC, "replace": _replace}
SPLIT = {
    **GENERIC,
    "extra": lambda s, p: (split.DealExtra(box_of(p), get_str(p, "mode", choices=(
        split.FREE, split.BOUGHT)), get_cards(p, "cards", default=[])),),
    "split": lambda s, p: (split.ChooseSplit(box_of(p), get_cards(p, "big"),
                                             get_cards(p, "small")),),
    "dealer_small": lambda s, p: (split.DealerSmall(get_cards(p, "cards")),),
}


def encode(a: Action) -> dict[str, Any]:
    """The canonical payload of one action of the house games."""
    if isinstance(a, h.PlaceBox):
        return {"box": a.box, "seat": a.seat, "ante": a.ante}
    if isinstance(a, h.DealBox):
        return {"box": a.box, "cards": codes(a.cards)}
    if isinstance(a, h.DealDealer | h.DealerDraw | split.DealerSmall):
        return {"cards": codes(a.cards)}
    if isinstance(a, h.Bet):
        return {"box": a.box, "amount": a.amount}
    if isinstance(a, oasis.Replace):
        if a.discard:
            return {"box": a.box, "discard": codes(a.discard), "draw": codes(a.draw)}
        return codes_with({"box": a.box, "count": a.count}, "cards", a.draw)
    if isinstance(a, split.DealExtra):
        return codes_with({"box": a.box, "mode": a.mode}, "cards", a.cards)
    if isinstance(a, split.ChooseSplit):
        return {"box": a.box, "big": codes(a.big), "small": codes(a.small)}
    return encode_box_only(a, "the house games")


class HouseFlow(GameFlow):
    """Caribbean stud; Oasis and Big/Small extend it with their improvement steps."""

    game = "caribbean"
    decoders: Mapping[str, Decoder] = GENERIC

    def new_round(self, profile: HouseProfile, table: Table) -> h.RoundState:
        assert isinstance(profile, h.StudProfile)
        return h.new_round(profile, table)

    def apply(self, state: h.RoundState, action: Action) -> h.RoundState:
        if not isinstance(action, SharedStep):
            raise not_a_step(action, self.game)
        return caribbean.apply(state, action)

    def encode(self, action: Action) -> dict[str, Any]:
        return encode(action)

    def settle(self, state: h.RoundState) -> Settlement:
        return caribbean.settle(state)

    def can_settle(self, state: h.RoundState) -> bool:
        s = state
        return s.revealed and passes(lambda: self.settle(s))

    def settle_ready(self, state: h.RoundState) -> Settlement | None:
        s = state
        if not s.revealed:
            return None
        ready = tuple(b for b in s.boxes if not self.missing_hand(s, b))
        try:
            return self.settle(replace(s, boxes=ready)) if ready else None
        except RulesError:
            return None

    def missing_hand(self, s: h.RoundState, b: h.BoxState) -> bool:
        """Whether the showdown still needs this box's hand (it decides a payout)."""
        if not s.revealed or b.folded or b.hand_known:
            return False
        try:
            return missing_hand(s, b, resolve_dealer(s))
        except RulesError:
            return False

    def improvement_steps(self, s: h.RoundState, b: h.BoxState) -> list[Step]:
        return []

    def dealer_steps(self, s: h.RoundState) -> list[Step]:
        return []

    def next_steps(self, state: h.RoundState) -> tuple[Step, ...]:
        s = state
        out: list[Step] = []
        if not s.dealt:
            out.append(Step("place", None, "Place the bets"))
        if s.boxes and not s.dealt:
            up = s.profile.dealer_up_cards
            out.append(Step("deal_dealer", None, "Dealer's face-up card" if up else "Deal",
                            cards=up))
        for b in s.boxes:
            out += self.box_steps(s, b)
        if passes(lambda: h.verify_reveal_dealer(s, h.RevealDealer())):
            out.append(Step("reveal", None, "Reveal the dealer",
                            cards=0 if s.dealer else 5 - len(s.up)))
        if passes(lambda: h.verify_dealer_draw(s, h.DealerDraw(_ANY5[:1]))):
            two = s.profile.free_second_replacement
            out.append(Step("dealer_draw", None, "Dealer's new card", cards=1,
                            max_cards=2 if two else 1))
        out += self.dealer_steps(s)
        return tuple(out)

    def box_steps(self, s: h.RoundState, b: h.BoxState) -> list[Step]:
        """One box's steps; none asks for a card nobody at the table has seen."""
        out: list[Step] = []
        if s.deal_done(b) and not s.revealed:
            out += self.improvement_steps(s, b)
        if h.can_bet(s, b.box):
            out.append(Step("bet", b.box, "Bet",
                            amount=s.profile.bet_multiple * b.ante))
        if h.can_fold(s, b.box):
            out.append(Step("fold", b.box, "Fold"))
        if h.can_take_ante(s, b.box):
            out.append(Step("take_ante", b.box, "Take ANTE"))
        if h.can_buy_game(s, b.box):
            out.append(Step("buy_game", b.box, "Buy game"))
        if self.missing_hand(s, b) and h.can_show(s, b.box):
            imp = b.improvement
            free = imp is not None and imp.kind == split.FREE
            out.append(Step("show", b.box, "Show the hand", cards=5, small=2 if free else 0))
        return out

    def summary(self, state: h.RoundState) -> dict[str, Any]:
        s = state
        dealer: dict[str, Any] = {"cards": codes(s.dealer), "up": codes(s.up),
                                  "revealed": s.revealed,
                                  "draw": codes(s.draw), "small": codes(s.dealer_small)}
        if s.revealed:
            dealer.update(hand=s.dealer_hand.label, hand_value=value_of(s.dealer_hand),
                          qualified=s.dealer_qualified, bought=_bought(s))
        return {"game": self.game, "profile": s.profile.name, "table": s.table.to_dict(),
                "voided": None, "dealer": dealer, "dealt": s.dealt,
                "boxes": [_box_summary(b, s) for b in s.boxes],
                "used": sorted(c.code for c in s.used)}


def _bought(s: h.RoundState) -> dict[str, Any] | None:
    """The dealer's new hand once he has drawn for a bought game (issue 26 item 2)."""
    if not s.draw:
        return None
    try:
        return bought_summary(resolve_dealer(s).bought)
    except RulesError:  # a buyer's choice still missing: the draw is not complete yet
        return None


def _box_summary(b: h.BoxState, s: h.RoundState) -> dict[str, Any]:
    imp = b.improvement
    hand = b.hand_cards
    value = evaluate(hand, s.profile.ranking) if b.hand_known else None
    small = evaluate_small(b.small) if b.small else None
    return {
        "box": b.box, "seat": b.seat, "ante": b.ante, "cards": codes(b.cards),
        "improvement": None if imp is None else {
            "kind": imp.kind, "fee": imp.fee, "discard": codes(imp.discard),
            "cards": codes(imp.cards), "forces_bet": imp.forces_bet,
            "count": imp.replaced},
        "big": codes(b.big), "small": codes(b.small), "shown": codes(b.shown),
        "hand_cards": codes(hand) if b.hand_known else [],
        "hand": value.label if value else None, "hand_value": value_of(value),
        "small_hand": small.label if small else None, "small_hand_value": value_of(small),
        "decision": b.decision, "bet": b.bet, "no_game": b.no_game, "buy_fee": b.buy_fee,
        "collected": b.improvement_fee + b.buy_fee,
    }


class OasisFlow(HouseFlow):
    game = "oasis"
    decoders = OASIS

    def apply(self, state: h.RoundState, action: Action) -> h.RoundState:
        if not isinstance(action, OasisStep):
            raise not_a_step(action, self.game)
        return oasis.apply(state, action)

    def improvement_steps(self, s: h.RoundState, b: h.BoxState) -> list[Step]:
        profile = s.profile
        assert isinstance(profile, caribbean.CaribbeanProfile)
        counts = tuple(n for n in range(1, 6) if oasis.can_replace(s, b.box, n))
        if not counts:
            return []
        fees = {n: oasis.replacement_fee(profile, b.ante, n) for n in counts}
        return [Step("replace", b.box, "Replace cards", discard=tuple(codes(b.cards)),
                     discard_counts=counts, fees=fees)]


class SplitFlow(HouseFlow):
    game = "split"
    decoders = SPLIT

    def apply(self, state: h.RoundState, action: Action) -> h.RoundState:
        if not isinstance(action, SplitStep):
            raise not_a_step(action, self.game)
        return split.apply(state, action)

    def settle(self, state: h.RoundState) -> Settlement:
        return split.settle(state)

    def improvement_steps(self, s: h.RoundState, b: h.BoxState) -> list[Step]:
        modes = tuple(m for m in (split.FREE, split.BOUGHT) if split.can_deal_extra(s, b.box, m))
        out = []
        if modes:
            out.append(Step("extra", b.box, "Extra cards", modes=modes))
        if split.can_split(s, b.box):
            imp = b.improvement
            seven = (*b.cards, *imp.cards) if imp else ()
            out.append(Step("split", b.box, "Split", cards=7, suggest=len(seven) == 7,
                            discard=tuple(codes(seven)) if len(seven) == 7 else ()))
        return out

    def dealer_steps(self, s: h.RoundState) -> list[Step]:
        if split.can_dealer_small(s):
            return [Step("dealer_small", None, "Dealer's Small Hand", cards=2)]
        return []


def suggest(state: h.RoundState, box: str, samples: int = 4000,
            shown: tuple[Card, ...] = ()) -> SplitSuggestion:
    """The engine's suggested split for ``box`` (seeded by the cards: same table, same answer).

    The dealer's face-up card is his last card (seed 004); the other boxes' cards are known.
    ``shown``: the seven cards as the player shows them to split (dealing order, where the
    box's cards were never entered); else the box's dealt and extra cards.
    """
    from .split_suggest import suggest_split

    _, b = state.find(box)
    if b.improvement is None:
        raise IllegalActionError("box %(box)s has no extra cards to split", box=box, field="split")
    seven = shown or (*b.cards, *b.improvement.cards)
    if len(seven) != 7:
        raise IllegalActionError("the suggestion needs box %(box)s's seven cards: tap them "
                                 "first", box=box, field="cards")
    if shown:
        add_cards(state.used, shown, "cards", state.profile.ranking.deck, f"box {box}")
    known = tuple(c for o in state.boxes if o.box != box
                  for c in (*o.cards, *(o.improvement.cards if o.improvement else ())))
    seed = sum(c.index * 53 ** i for i, c in enumerate(seven))
    profile = state.profile
    assert isinstance(profile, split.SplitProfile)
    up = state.up[-1] if state.up else state.dealer[-1]
    return suggest_split(seven, up, seed=seed, profile=profile, known=known,
                         samples=samples)


CARIBBEAN_FLOW = register_flow(HouseFlow())
OASIS_FLOW = register_flow(OasisFlow())
SPLIT_FLOW = register_flow(SplitFlow())

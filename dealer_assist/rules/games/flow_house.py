"""Caribbean stud, Oasis poker and Big/Small on the live table: events <-> actions, next steps.

Event types shared with Russian poker (``flow_russian``): ``place`` (no bonus in these games),
``deal_box``, ``deal_dealer``, ``bet``, ``fold``, ``reveal``, ``take_ante``, ``buy_game``,
``dealer_draw``. Oasis adds ``replace`` ``{"box", "discard", "draw"}``; Big/Small adds
``extra`` ``{"box", "mode": "free"|"bought", "cards": [2]}``, ``split`` ``{"box", "big": [5],
"small": [2]}`` and ``dealer_small`` ``{"cards": [2]}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Card
from ..errors import IllegalActionError
from ..evaluator import evaluate, evaluate_small
from ..profiles import HouseProfile
from ..request import get_cards, get_int, get_str
from ..settlement import Settlement
from . import caribbean, oasis, split
from . import house_round as h
from .common import Table, passes
from .flow import Decoder, GameFlow, Step, decode_place, register_flow

_ANY5 = tuple(Card.of(c) for c in ("2c", "3c", "4c", "5c", "6c"))


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def _box(p: Mapping[str, Any]) -> str:
    return get_str(p, "box")


def _bet(state: h.RoundState, p: Mapping[str, Any]) -> tuple[Any, ...]:
    box = _box(p)
    ante = next((b.ante for b in state.boxes if b.box == box), 0)
    return (h.Bet(box, get_int(p, "amount", default=state.profile.bet_multiple * ante)),)


GENERIC: dict[str, Decoder] = {
    "place": decode_place,
    "deal_box": lambda s, p: (h.DealBox(_box(p), get_cards(p, "cards")),),
    "deal_dealer": lambda s, p: (h.DealDealer(get_cards(p, "cards")),),
    "bet": _bet,
    "fold": lambda s, p: (h.Fold(_box(p)),),
    "reveal": lambda s, p: (h.RevealDealer(),),
    "take_ante": lambda s, p: (h.TakeAnte(_box(p)),),
    "buy_game": lambda s, p: (h.BuyGame(_box(p)),),
    "dealer_draw": lambda s, p: (h.DealerDraw(get_cards(p, "cards")),),
}
OASIS = {**GENERIC, "replace": lambda s, p: (oasis.Replace(_box(p), get_cards(p, "discard"),
                                                           get_cards(p, "draw")),)}
SPLIT = {
    **GENERIC,
    "extra": lambda s, p: (split.DealExtra(_box(p), get_str(p, "mode", choices=(
        split.FREE, split.BOUGHT)), get_cards(p, "cards")),),
    "split": lambda s, p: (split.ChooseSplit(_box(p), get_cards(p, "big"),
                                             get_cards(p, "small")),),
    "dealer_small": lambda s, p: (split.DealerSmall(get_cards(p, "cards")),),
}


def encode(a: Any) -> dict[str, Any]:
    """The canonical payload of one action of the house games."""
    if isinstance(a, h.PlaceBox):
        return {"box": a.box, "seat": a.seat, "ante": a.ante}
    if isinstance(a, h.DealBox):
        return {"box": a.box, "cards": _codes(a.cards)}
    if isinstance(a, h.DealDealer | h.DealerDraw | split.DealerSmall):
        return {"cards": _codes(a.cards)}
    if isinstance(a, h.Bet):
        return {"box": a.box, "amount": a.amount}
    if isinstance(a, oasis.Replace):
        return {"box": a.box, "discard": _codes(a.discard), "draw": _codes(a.draw)}
    if isinstance(a, split.DealExtra):
        return {"box": a.box, "mode": a.mode, "cards": _codes(a.cards)}
    if isinstance(a, split.ChooseSplit):
        return {"box": a.box, "big": _codes(a.big), "small": _codes(a.small)}
    if isinstance(a, h.RevealDealer):
        return {}
    return {"box": a.box}  # Fold, TakeAnte, BuyGame


class HouseFlow(GameFlow):
    """Caribbean stud; Oasis and Big/Small extend it with their improvement steps."""

    game = "caribbean"
    decoders: Mapping[str, Decoder] = GENERIC

    def new_round(self, profile: HouseProfile, table: Table) -> Any:
        assert isinstance(profile, h.StudProfile)
        return h.new_round(profile, table)

    def apply(self, state: Any, action: Any) -> Any:
        return caribbean.apply(state, action)

    def encode(self, action: Any) -> dict[str, Any]:
        return encode(action)

    def settle(self, state: Any) -> Settlement:
        return caribbean.settle(state)

    def can_settle(self, state: Any) -> bool:
        s: h.RoundState = state
        return s.revealed and passes(lambda: self.settle(s))

    def improvement_steps(self, s: h.RoundState, b: h.BoxState) -> list[Step]:
        return []

    def dealer_steps(self, s: h.RoundState) -> list[Step]:
        return []

    def next_steps(self, state: Any) -> tuple[Step, ...]:
        s: h.RoundState = state
        out: list[Step] = []
        if not s.dealt:
            out.append(Step("place", None, "Place the bets"))
        for b in s.boxes:
            if s.boxes and not b.cards:
                out.append(Step("deal_box", b.box, "Enter cards", cards=5))
            if b.cards and s.dealer:
                out += self.improvement_steps(s, b)
            if h.can_bet(s, b.box):
                out.append(Step("bet", b.box, "Raise" if self.game != "split" else "Bet",
                                amount=s.profile.bet_multiple * b.ante))
            if h.can_fold(s, b.box):
                out.append(Step("fold", b.box, "Fold"))
            if h.can_take_ante(s, b.box):
                out.append(Step("take_ante", b.box, "Take ANTE"))
            if h.can_buy_game(s, b.box):
                out.append(Step("buy_game", b.box, "Buy game"))
        if s.boxes and not s.dealer:
            out.append(Step("deal_dealer", None, "Dealer's cards", cards=5))
        if s.dealer and passes(lambda: h.verify_reveal(s)):
            out.append(Step("reveal", None, "Reveal the dealer"))
        if passes(lambda: h.verify_dealer_draw(s, h.DealerDraw(_ANY5[:1]))):
            two = s.profile.free_second_replacement
            out.append(Step("dealer_draw", None, "Dealer's new card", cards=1,
                            max_cards=2 if two else 1))
        out += self.dealer_steps(s)
        return tuple(out)

    def summary(self, state: Any) -> dict[str, Any]:
        s: h.RoundState = state
        dealer: dict[str, Any] = {"cards": _codes(s.dealer), "revealed": s.revealed,
                                  "draw": _codes(s.draw), "small": _codes(s.dealer_small)}
        if s.revealed:
            dealer.update(hand=s.dealer_hand.label, qualified=s.dealer_qualified)
        return {"game": self.game, "profile": s.profile.name, "table": s.table.to_dict(),
                "voided": None, "dealer": dealer,
                "boxes": [_box_summary(b, s) for b in s.boxes],
                "used": sorted(c.code for c in s.used)}


def _box_summary(b: h.BoxState, s: h.RoundState) -> dict[str, Any]:
    imp = b.improvement
    hand = b.hand_cards
    return {
        "box": b.box, "seat": b.seat, "ante": b.ante, "cards": _codes(b.cards),
        "improvement": None if imp is None else {
            "kind": imp.kind, "fee": imp.fee, "discard": _codes(imp.discard),
            "cards": _codes(imp.cards), "forces_bet": imp.forces_bet},
        "big": _codes(b.big), "small": _codes(b.small), "hand_cards": _codes(hand),
        "hand": evaluate(hand, s.profile.ranking).label if len(hand) >= 5 else None,
        "small_hand": evaluate_small(b.small).label if b.small else None,
        "decision": b.decision, "bet": b.bet, "no_game": b.no_game, "buy_fee": b.buy_fee,
    }


class OasisFlow(HouseFlow):
    game = "oasis"
    decoders = OASIS

    def apply(self, state: Any, action: Any) -> Any:
        return oasis.apply(state, action)

    def improvement_steps(self, s: h.RoundState, b: h.BoxState) -> list[Step]:
        profile = s.profile
        assert isinstance(profile, caribbean.CaribbeanProfile)
        counts = tuple(n for n in range(1, 6) if oasis.can_replace(s, b.box, n))
        if not counts:
            return []
        fees = {n: oasis.replacement_fee(profile, b.ante, n) for n in counts}
        return [Step("replace", b.box, "Replace cards", discard=tuple(_codes(b.cards)),
                     discard_counts=counts, fees=fees)]


class SplitFlow(HouseFlow):
    game = "split"
    decoders = SPLIT

    def apply(self, state: Any, action: Any) -> Any:
        return split.apply(state, action)

    def settle(self, state: Any) -> Settlement:
        return split.settle(state)

    def improvement_steps(self, s: h.RoundState, b: h.BoxState) -> list[Step]:
        modes = tuple(m for m in (split.FREE, split.BOUGHT) if split.can_deal_extra(s, b.box, m))
        out = []
        if modes:
            out.append(Step("extra", b.box, "Extra cards", cards=2, modes=modes))
        if split.can_split(s, b.box):
            out.append(Step("split", b.box, "Split", suggest=True,
                            discard=tuple(_codes((*b.cards, *b.improvement.cards)))
                            if b.improvement else ()))
        return out

    def dealer_steps(self, s: h.RoundState) -> list[Step]:
        if split.can_dealer_small(s):
            return [Step("dealer_small", None, "Dealer's Small Hand", cards=2)]
        return []


def suggest(state: h.RoundState, box: str, samples: int = 4000) -> Any:
    """The engine's suggested split for ``box`` (seeded by the cards: same table, same answer).

    The dealer's face-up card is his last card (seed 004); the other boxes' cards are known.
    """
    from .split_suggest import suggest_split

    _, b = state.find(box)
    if b.improvement is None:
        raise IllegalActionError(f"box {box} has no extra cards to split", field="split")
    seven = (*b.cards, *b.improvement.cards)
    known = tuple(c for o in state.boxes if o.box != box
                  for c in (*o.cards, *(o.improvement.cards if o.improvement else ())))
    seed = sum(c.index * 53 ** i for i, c in enumerate(seven))
    profile = state.profile
    assert isinstance(profile, split.SplitProfile)
    return suggest_split(seven, state.dealer[-1], seed=seed, profile=profile, known=known,
                         samples=samples)


CARIBBEAN_FLOW = register_flow(HouseFlow())
OASIS_FLOW = register_flow(OasisFlow())
SPLIT_FLOW = register_flow(SplitFlow())

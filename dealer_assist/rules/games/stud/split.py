"""Big/Small hand poker ("split", seed 004), profile ``split-classic``.

Seed 004 in short (docs/rules/big-small-split.md quotes it line by line): ANTE, BET = 2 x ANTE
or fold. A box may take two extra cards, either "for free without looking at them. You must give
an answer "BET"" (they become the Small Hand as dealt) or bought "for ANTE bet", after which the
player sees all seven and chooses a 5-card Big Hand and a 2-card Small Hand, or folds. The dealer
qualifies with any pair ("Minimum game – ducks"); with a game he draws two more cards, his Small
Hand. Big Hand lower: ANTE and BET lose; equal: returned; higher: the Small Hands decide whether
the BET ("Small Hand" higher; a stand-off "is in favour of a player") or the ANTE is paid at the
Big Hand's coefficient. No game: ANTE 1:1, or buy a game (1 ANTE, highest card replaced, no free
second replacement); a bought game still without a game returns ANTE and BET.

Its own steps are :class:`DealExtra`, :class:`ChooseSplit` and :class:`DealerSmall` (each with
``verify_*``/``can_*``); the rest are the steps every house game shares. Its game is
:data:`SPLIT`; its settlement is ``split_settle.settle``; :func:`suggest` proposes a split for a
box that bought its extra cards (``split_suggest``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import inputs as ask
from ...cards import Card
from ...engine import Step, StepRule
from ...errors import CardCountError, IllegalActionError, RulesError
from ...fields import get_cards, get_str, need_mapping
from ...phrase import Phrase
from ...settlement import Settlement
from .actions import ChooseSplit as ChooseSplit
from .actions import DealerSmall as DealerSmall
from .actions import DealExtra as DealExtra
from .calculator import round_from_request
from .codec import SHARED_DECODERS, box_of, codes, codes_with
from .deal import State, deciding, improving
from .game import StudGame
from .seen import add_cards, check_shown
from .settle import resolve_dealer
from .split_profile import BOUGHT, FREE, SPLIT_CLASSIC, SplitProfile
from .split_profile import CLASSIC_COEFFICIENTS as CLASSIC_COEFFICIENTS
from .split_settle import settle
from .split_suggest import SplitSuggestion, suggest_split
from .state import BoxState, Improvement, evolve
from .steps import SHARED

#: the extra cards' modes as the screen says them (catalog message ids)
MODES = {FREE: "Free extra + BET", BOUGHT: "Bought extra (1 ANTE)"}

# --- actions -------------------------------------------------------------------------------

def _profile(state: State) -> SplitProfile:
    assert isinstance(state.profile, SplitProfile)
    return state.profile


def verify_deal_extra(state: State, a: DealExtra) -> None:
    """Two extra cards, free (blind) or bought, as the profile offers them; ``cards``: the two,
    the box's seven as the player shows them, or none (dealt face down)."""
    _, box = improving(state, a.box, "extra")
    profile = _profile(state)
    allowed = {FREE: profile.free_extra_allowed, BOUGHT: profile.bought_extra_allowed}
    if not allowed.get(a.mode, False):
        raise IllegalActionError("extra cards '%(mode)s' are not offered under %(name)s",
                                 mode=a.mode, name=profile.name, field="extra.mode", value=a.mode)
    if len(a.cards) not in (0, 2, 7):
        raise CardCountError(len(a.cards), "2 (or the box's seven)",
                             "extra cards").at("extra.cards")
    if a.five and box.cards and set(a.five) != set(box.cards):
        raise IllegalActionError("the first five cards are not box %(box)s's", box=box.box,
                                 field="extra.cards", value=[c.code for c in a.five])
    five = () if box.cards else a.five
    add_cards(state.used, (*five, *a.extra), "extra.cards", profile.ranking.deck,
              f"box {box.box} extra")


def can_deal_extra(state: State, box: str, mode: str) -> bool:
    try:
        improving(state, box, "extra")
    except RulesError:
        return False
    p = _profile(state)
    return p.free_extra_allowed if mode == FREE else mode == BOUGHT and p.bought_extra_allowed


def verify_split(state: State, a: ChooseSplit) -> None:
    """The split uses exactly the box's seven cards: five in the Big Hand, two in the Small."""
    _used_after_split(state, a)


def _used_after_split(state: State, a: ChooseSplit) -> dict[Card, str]:
    """``verify_split``'s checks, returning the round's used cards with those of the seven not
    yet recorded (dealing order: the player shows his seven cards as he sets them)."""
    _, box = deciding(state, a.box, "split")
    imp = box.improvement
    if imp is None:
        raise IllegalActionError("box %(box)s has no extra cards, so no Small Hand",
                                 box=box.box,
                                 field="split", value=None)
    if imp.kind == FREE and not (box.cards and imp.cards):
        raise IllegalActionError("free extra cards are blind: the Big and Small Hand are shown "
                                 "at the showdown", field="split", value=None)
    if imp.kind == FREE and (set(a.big) != set(box.cards) or set(a.small) != set(imp.cards)):
        raise IllegalActionError("free extra cards are blind: the Small Hand is the two extra "
                                 "cards as dealt and may not be rearranged", field="split.small",
                                 value=[c.code for c in a.small])
    if imp.kind == BOUGHT and box.big:
        raise IllegalActionError("box %(box)s has already split its cards", box=box.box,
                                 field="split")
    if len(a.small) != 2:
        raise CardCountError(len(a.small), "2", "Small Hand").at("split.small")
    if len(a.big) != 5:
        raise CardCountError(len(a.big), "5", "Big Hand").at("split.big")
    known = (*box.cards, *imp.cards)
    if len(known) < 7:
        return check_shown(state.used, state.profile.ranking.deck, (*a.big, *a.small), count=7,
                           label=f"box {box.box} seven cards", field="split", own=known,
                           must_have=known)
    seven = set(known)
    for name, cards in (("big", a.big), ("small", a.small)):
        for card in cards:
            if card not in seven:
                raise IllegalActionError("%(card)s is not one of box %(box)s's seven cards",
                                         card=card.code, box=box.box, field=f"split.{name}",
                                         value=card.code)
    if set(a.big) | set(a.small) != seven:
        missing = sorted(c.code for c in seven - set(a.big) - set(a.small))
        raise IllegalActionError("the split must use exactly the seven cards; missing %(v)s",
                                 v=', '.join(missing), field="split", value=missing)
    return dict(state.used)


def can_split(state: State, box: str) -> bool:
    """Whether box ``box`` has seven cards to split now (bought extra cards, not yet split)."""
    try:
        _, b = deciding(state, box, "split")
    except RulesError:
        return False
    return b.needs_split


def dealer_has_small(state: State) -> bool:
    """The dealer draws his Small Hand once he has a game (first hand, or the bought one)."""
    if not state.revealed:
        return False
    if state.dealer_qualified:
        return True
    if not state.buyers or not state.draw:
        return False
    try:
        bought = resolve_dealer(state).bought
    except RulesError:
        return False
    return bought is not None and bought.qualified


def verify_dealer_small(state: State, a: DealerSmall) -> None:
    if state.dealer_small:
        raise IllegalActionError("the dealer already has his Small Hand", field="small")
    if not dealer_has_small(state):
        raise IllegalActionError("the dealer draws a Small Hand only when he has a game",
                                 field="small", value=[c.code for c in a.cards])
    if len(a.cards) != 2:
        raise CardCountError(len(a.cards), "2", "dealer's Small Hand").at("small")
    add_cards(state.used, a.cards, "small", state.profile.ranking.deck, "the dealer's Small Hand")


def can_dealer_small(state: State) -> bool:
    return not state.dealer_small and dealer_has_small(state)


def deal_extra(state: State, a: DealExtra) -> State:
    i, box = state.find(a.box)
    five = () if box.cards else a.five
    used = add_cards(state.used, (*five, *a.extra), "extra.cards", state.profile.ranking.deck,
                     f"box {box.box} extra")
    profile = _profile(state)
    free = a.mode == FREE
    cards = box.cards or five
    imp = Improvement(a.mode, 0 if free else profile.extra_fee * box.ante, cards=a.extra,
                      forces_bet=free and profile.free_extra_forces_bet)
    known = free and bool(cards) and bool(a.extra)
    new = evolve(box, cards=cards, improvement=imp, big=cards if known else (),
                 small=a.extra if known else ())
    return state.with_box(i, new, used)


def choose_split(state: State, a: ChooseSplit) -> State:
    used = _used_after_split(state, a)
    i, box = state.find(a.box)
    return state.with_box(i, evolve(box, big=tuple(a.big), small=tuple(a.small)), used)


def dealer_small(state: State, a: DealerSmall) -> State:
    used = add_cards(state.used, a.cards, "small", state.profile.ranking.deck,
                     "the dealer's Small Hand")
    return evolve(state, dealer_small=tuple(a.cards), used=used)


class SplitGame(StudGame):
    """Caribbean-like steps plus ``extra {"box", "mode": "free"|"bought"}`` (optional ``cards``:
    the two extra cards, or all seven when the player shows them for the split suggestion),
    ``split {"box", "big": [5], "small": [2]}``, ``dealer_small {"cards": [2]}``, and ``show``
    with ``"small"`` for free extra cards."""

    name = "split"
    decoders = {
        **SHARED_DECODERS,
        "extra": lambda s, p: (DealExtra(box_of(p), get_str(p, "mode", choices=(FREE, BOUGHT)),
                                         get_cards(p, "cards", default=[])),),
        "split": lambda s, p: (ChooseSplit(box_of(p), get_cards(p, "big"),
                                           get_cards(p, "small")),),
        "dealer_small": lambda s, p: (DealerSmall(get_cards(p, "cards")),),
    }
    table = {**SHARED, DealExtra: StepRule(verify_deal_extra, deal_extra),
             ChooseSplit: StepRule(verify_split, choose_split),
             DealerSmall: StepRule(verify_dealer_small, dealer_small)}

    def settle(self, state: State) -> Settlement:
        return settle(state)

    def encode_own(self, a: Any) -> dict[str, Any]:
        if isinstance(a, DealerSmall):
            return {"cards": codes(a.cards)}
        if isinstance(a, DealExtra):
            return codes_with({"box": a.box, "mode": a.mode}, "cards", a.cards)
        if isinstance(a, ChooseSplit):
            return {"box": a.box, "big": codes(a.big), "small": codes(a.small)}
        return super().encode_own(a)

    def improvement_steps(self, s: State, b: BoxState) -> list[Step]:
        modes = tuple(m for m in (FREE, BOUGHT) if can_deal_extra(s, b.box, m))
        out = []
        if modes:
            out.append(Step("extra", b.box, "Extra cards", modes=modes,
                            inputs=(ask.choice("mode", "Extra cards", modes, labels=MODES),)))
        if can_split(s, b.box):
            imp = b.improvement
            seven = tuple(codes((*b.cards, *imp.cards))) if imp else ()
            split: tuple[ask.Input, ...]
            if len(seven) == 7:  # the box's seven cards are known: the Small Hand is picked
                split = (ask.pick("small", "Tap the two cards of the Small Hand.", seven, (2,),
                                  rest="big"),)
            else:  # dealing order: the player shows his seven cards as he sets them
                split = (ask.cards("big", "The 5 cards of the Big Hand", 5, auto=False),
                         ask.cards("small", "The 2 cards of the Small Hand", 2, auto=False))
            out.append(Step("split", b.box, "Split", cards=7, suggest=len(seven) == 7,
                            suggests=True, discard=seven, inputs=split))
        return out

    def suggest_step(self, state: State, type: str,
                     payload: Mapping[str, Any]) -> tuple[dict[str, Any], Phrase] | None:
        """The engine's split of the seven cards (those shown, Big first, or the box's own):
        the payload to accept, and what it says about it."""
        if type != "split":
            return None
        box = box_of(payload)
        shown = tuple(get_cards(payload, "big", default=[])) + \
            tuple(get_cards(payload, "small", default=[]))
        found = suggest(state, box, shown=shown if len(shown) == 7 else ())
        best = found.best
        said = Phrase("Suggested: Big %(big)s, Small %(small)s", big=best.big_hand,
                      small=best.small_hand)
        if found.fold_is_better:
            said = Phrase("%(said)s (folding is better)", said=said)
        return {"box": box, "big": codes(best.big), "small": codes(best.small)}, said

    def game_steps(self, s: State) -> list[Step]:
        if can_dealer_small(s):
            return [Step("dealer_small", None, "Dealer's Small Hand", cards=2,
                         inputs=(ask.cards("cards", "Tap the 2 cards of the dealer's Small "
                                           "Hand.", 2),))]
        return []


SPLIT = SplitGame()
apply = SPLIT.apply


def suggest(state: State, box: str, samples: int = 4000,
            shown: tuple[Card, ...] = ()) -> SplitSuggestion:
    """The engine's suggested split for ``box`` (seeded by the cards: same table, same answer).

    The dealer's face-up card is his last card (seed 004); the other boxes' cards are known.
    ``shown``: the seven cards as the player shows them to split (dealing order, where the
    box's cards were never entered); else the box's dealt and extra cards.
    """
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
    profile = _profile(state)
    up = state.up[-1] if state.up else state.dealer[-1]
    return suggest_split(seven, up, seed=seed, profile=profile, known=known,
                         samples=samples)


def _extra_and_split(state: State, index: int, body: Mapping[str, Any]) -> State:
    """A request box's ``extra: {"mode", "cards"}`` and ``split: {"big", "small"}``."""
    name = state.boxes[index].box
    if body.get("extra") is not None:
        extra = need_mapping(body["extra"], "extra")
        mode = get_str(extra, "mode", "extra", choices=(FREE, BOUGHT))
        cards = get_cards(extra, "cards", "extra")
        state = SPLIT.apply(state, DealExtra(name, mode, cards))
    if body.get("split") is not None:
        split = need_mapping(body["split"], "split")
        big = get_cards(split, "big", "split")
        small = get_cards(split, "small", "split")
        box = state.boxes[index]
        is_free = box.improvement is not None and box.improvement.kind == FREE
        if not (is_free and set(big) == set(box.big) and set(small) == set(box.small)):
            state = SPLIT.apply(state, ChooseSplit(name, big, small))
    return state


def _dealer_small(state: State, dealer: Mapping[str, Any]) -> State:
    if dealer.get("small") is None:
        return state
    return SPLIT.apply(state, DealerSmall(get_cards(dealer, "small", "")))


def settle_request(body: Mapping[str, Any]) -> Settlement:
    """``POST /api/v1/split/settle``: one complete round in, its settlement out."""
    return settle(round_from_request(body, SPLIT, SPLIT_CLASSIC.name,
                                     improve=_extra_and_split, finish=_dealer_small))

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

Live table: ``new_round(profile, table)``, then ``apply(state, action)`` with the generic actions
of ``house_round`` plus :class:`DealExtra`, :class:`ChooseSplit` and :class:`DealerSmall` (each
with ``verify_*``/``can_*``), and ``settle(state)``. ``split_suggest.suggest_split`` proposes a
split for a box that bought its extra cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import Card
from ..errors import CardCountError, HouseRulesError, IllegalActionError, RulesError
from ..evaluator import HandValue, SmallHandValue, evaluate_small
from ..phrase import Phrase
from ..profiles import PayTable, check_bool, check_int, register_profile
from ..ranking import Category
from ..request import get_cards, get_str, need_mapping
from ..settlement import BoxSettlement, PaidCombination, Settlement, WagerResult
from .actions import ChooseSplit as ChooseSplit
from .actions import DealerSmall as DealerSmall
from .actions import DealExtra as DealExtra
from .actions import SplitStep
from .common import add_cards, apply_cap, check_shown
from .house_request import round_from_request
from .house_round import (
    BoxState,
    Improvement,
    RoundState,
    StudProfile,
    apply_generic,
    verify_deciding,
)
from .house_settle import (
    DealerOutcome,
    all_wagers,
    check_hands,
    dealer_result,
    fee_wagers,
    folded_wagers,
    known_hand,
    no_game_wagers,
    opponent,
    resolve_dealer,
)
from .registry import GameSpec, register

C = Category
FREE, BOUGHT = "free", "bought"

#: seed 004 "Payment coefficients" (pair 1:1 ... full house 7:1); quads, straight flush and
#: royal from the common casino table (RULES.md)
CLASSIC_COEFFICIENTS: dict[Category, int] = {
    C.royal_flush: 100, C.straight_flush: 50, C.four_of_a_kind: 20, C.full_house: 7,
    C.flush: 5, C.straight: 4, C.three_of_a_kind: 3, C.two_pairs: 1, C.one_pair: 1,
}


@dataclass(frozen=True, kw_only=True)
class SplitProfile(StudProfile):
    """Big/Small house rules; ``pay_table`` holds the coefficients. Fees in ANTEs."""

    game: str = "split"
    qualifier: Category = C.one_pair
    pay_table: PayTable = field(default_factory=lambda: dict(CLASSIC_COEFFICIENTS))
    buy_game_allowed: bool = True
    free_extra_allowed: bool = True
    #: free extra cards are dealt blind and oblige the box to BET
    free_extra_forces_bet: bool = True
    bought_extra_allowed: bool = True
    extra_fee: int = 1
    #: "Stand off" on "Small Hand" is in favour of a player
    small_tie_to_player: bool = True

    @property
    def coefficients(self) -> PayTable:
        return self.pay_table

    def validate(self) -> None:
        super().validate()
        if self.game != "split":
            raise HouseRulesError("a Big/Small profile must have game 'split', got "
                                  "'%(game)s'",
                                  game=self.game, field="game", value=self.game)
        for name in ("free_extra_allowed", "free_extra_forces_bet", "bought_extra_allowed",
                     "small_tie_to_player"):
            check_bool(getattr(self, name), name)
        check_int(self.extra_fee, "extra_fee")


SPLIT_CLASSIC = SplitProfile(name="split-classic")
register_profile(SPLIT_CLASSIC)


# --- actions -------------------------------------------------------------------------------

Action = SplitStep


def _profile(state: RoundState) -> SplitProfile:
    assert isinstance(state.profile, SplitProfile)
    return state.profile


def verify_deal_extra(state: RoundState, a: DealExtra) -> None:
    _, box = state.find(a.box)
    verify_deciding(state, box)
    profile = _profile(state)
    if box.improvement is not None:
        raise IllegalActionError("box %(box)s already has its extra cards", box=box.box,
                                 field="extra", value=box.improvement.kind)
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


def can_deal_extra(state: RoundState, box: str, mode: str) -> bool:
    try:
        b = state.find(box)[1]
        verify_deciding(state, b)
        p = _profile(state)
        return b.improvement is None and (
            p.free_extra_allowed if mode == FREE else mode == BOUGHT and p.bought_extra_allowed)
    except RulesError:
        return False


def verify_split(state: RoundState, a: ChooseSplit) -> None:
    """The split uses exactly the box's seven cards: five in the Big Hand, two in the Small."""
    _used_after_split(state, a)


def _used_after_split(state: RoundState, a: ChooseSplit) -> dict[Card, str]:
    """``verify_split``'s checks, returning the round's used cards with those of the seven not
    yet recorded (dealing order: the player shows his seven cards as he sets them)."""
    _, box = state.find(a.box)
    verify_deciding(state, box)
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


def can_split(state: RoundState, box: str) -> bool:
    """Whether box ``box`` has seven cards to split now (bought extra cards, not yet split)."""
    try:
        b = state.find(box)[1]
        verify_deciding(state, b)
    except RulesError:
        return False
    return b.needs_split


def dealer_has_small(state: RoundState) -> bool:
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


def verify_dealer_small(state: RoundState, a: DealerSmall) -> None:
    if state.dealer_small:
        raise IllegalActionError("the dealer already has his Small Hand", field="small")
    if not dealer_has_small(state):
        raise IllegalActionError("the dealer draws a Small Hand only when he has a game",
                                 field="small", value=[c.code for c in a.cards])
    if len(a.cards) != 2:
        raise CardCountError(len(a.cards), "2", "dealer's Small Hand").at("small")


def can_dealer_small(state: RoundState) -> bool:
    return not state.dealer_small and dealer_has_small(state)


def apply(state: RoundState, action: Action) -> RoundState:
    """Check ``action`` and return the new state (generic actions go to ``house_round``)."""
    deck = state.profile.ranking.deck
    if isinstance(action, DealExtra):
        verify_deal_extra(state, action)
        i, box = state.find(action.box)
        five = () if box.cards else action.five
        used = add_cards(state.used, (*five, *action.extra), "extra.cards", deck,
                         f"box {box.box} extra")
        profile = _profile(state)
        free = action.mode == FREE
        cards = box.cards or five
        imp = Improvement(action.mode, 0 if free else profile.extra_fee * box.ante,
                          cards=action.extra, forces_bet=free and profile.free_extra_forces_bet)
        known = free and bool(cards) and bool(action.extra)
        new = replace(box, cards=cards, improvement=imp, big=cards if known else (),
                      small=action.extra if known else ())
        return state.with_box(i, new, used)
    if isinstance(action, ChooseSplit):
        used = _used_after_split(state, action)
        i, box = state.find(action.box)
        return state.with_box(i, replace(box, big=action.big, small=action.small), used)
    if isinstance(action, DealerSmall):
        verify_dealer_small(state, action)
        used = add_cards(state.used, action.cards, "small", deck, "the dealer's Small Hand")
        return replace(state, dealer_small=action.cards, used=used)
    return apply_generic(state, action)


# --- settlement ----------------------------------------------------------------------------

def settle(state: RoundState) -> Settlement:
    """Settle a revealed Big/Small round (pure: same state, same result)."""
    outcome = resolve_dealer(state)
    check_hands(state, outcome)
    dealer_small = evaluate_small(state.dealer_small) if state.dealer_small else None
    boxes = tuple(settle_box(state, box, outcome, dealer_small) for box in state.boxes)
    return Settlement("split", state.profile.name, dealer_result(state, outcome), boxes)


def settle_box(state: RoundState, box: BoxState, outcome: DealerOutcome,
               dealer_small: SmallHandValue | None) -> BoxSettlement:
    hand = known_hand(state, box)
    small = evaluate_small(box.small) if box.small else None
    kind = box.improvement.kind if box.improvement else ""
    fees = fee_wagers(box, "fee for two bought extra cards: kept by the house whatever happens")
    combos: tuple[PaidCombination, ...] = ()
    capped = False
    if box.folded:
        wagers = folded_wagers(box)
    else:
        no_game = no_game_wagers(state, box, outcome)
        if no_game is not None:
            wagers, capped = no_game
        else:
            if dealer_small is None:
                raise CardCountError(0, "2", "dealer's Small Hand").at("dealer.small")
            assert hand is not None  # check_hands
            wagers, combos, capped = _compare(state, box, hand, small, opponent(outcome),
                                              dealer_small)
    notes = (f"extra cards: {kind}",) if kind else ()
    return BoxSettlement(box.box, box.seat, all_wagers({**wagers, **fees}), combos, capped,
                         hand, small, box.folded, notes)


def _compare(state: RoundState, box: BoxState, big: HandValue, small: SmallHandValue | None,
             dealer: HandValue, dealer_small: SmallHandValue,
             ) -> tuple[dict[str, WagerResult], tuple[PaidCombination, ...], bool]:
    """A betting box against a dealer with a game: Big Hands first, then Small Hands."""
    profile = _profile(state)
    if big < dealer:
        why = Phrase("dealer's %(dealer)s beats the Big Hand %(big)s", dealer=dealer,
                     big=big)
        return ({"ante": WagerResult.lost("ante", box.ante, why),
                 "bet": WagerResult.lost("bet", box.bet, why)}, (), False)
    if big == dealer:
        why = Phrase("Big Hand %(big)s equals the dealer's: everything returned", big=big)
        return ({"ante": WagerResult.pushed("ante", box.ante, why),
                 "bet": WagerResult.pushed("bet", box.bet, why)}, (), False)
    coef = profile.multiplier(big.category)
    head = Phrase("Big Hand %(big)s beats %(dealer)s", big=big, dealer=dealer)
    if small is None:
        small_wins, reason = False, "no Small Hand"
    elif small == dealer_small:
        small_wins = profile.small_tie_to_player
        favour = ", in favour of the player" if small_wins else ""
        reason = Phrase("Small Hands equal (%(small)s)%(favour)s", small=small,
                        favour=favour)
    else:
        small_wins = small > dealer_small
        reason = (Phrase("Small Hand %(small)s %(v)s the dealer's %(dealer_small)s",
                         small=small, v='beats' if small_wins else 'loses to',
                         dealer_small=dealer_small))
    if small_wins:
        (bet_win,), capped = apply_cap([box.bet * coef], state.table.max_payout)
        cap = f", capped at the maximum payout {state.table.max_payout}" if capped else ""
        wagers = {"ante": WagerResult.pushed("ante", box.ante, Phrase("%(head)s; %(reason)s: ANTE "
                                                                      "returned",
                                                                      head=head,
                                                                      reason=reason)),
                  "bet": WagerResult.won("bet", box.bet, bet_win,
                                         Phrase("%(head)s; %(reason)s: BET paid "
                                                "%(coef)s:1%(cap)s",
                                                head=head, reason=reason, coef=coef, cap=cap))}
    else:
        (ante_win,), capped = apply_cap([box.ante * coef], state.table.max_payout)
        cap = f", capped at the maximum payout {state.table.max_payout}" if capped else ""
        wagers = {"ante": WagerResult.won("ante", box.ante, ante_win,
                                          Phrase("%(head)s; %(reason)s: ANTE paid "
                                                 "%(coef)s:1%(cap)s",
                                                 head=head, reason=reason, coef=coef,
                                                 cap=cap)),
                  "bet": WagerResult.pushed("bet", box.bet, Phrase("%(head)s; %(reason)s: BET "
                                                                   "returned",
                                                                   head=head, reason=reason))}
    return wagers, (PaidCombination(big.category, big.significant, coef),), capped


# --- calculator request --------------------------------------------------------------------

def _improve(state: RoundState, index: int, body: Mapping[str, Any]) -> RoundState:
    """A request box's ``extra: {"mode", "cards"}`` and ``split: {"big", "small"}``."""
    name = state.boxes[index].box
    if body.get("extra") is not None:
        extra = need_mapping(body["extra"], "extra")
        mode = get_str(extra, "mode", "extra", choices=(FREE, BOUGHT))
        cards = get_cards(extra, "cards", "extra")
        state = apply(state, DealExtra(name, mode, cards))
    if body.get("split") is not None:
        split = need_mapping(body["split"], "split")
        big = get_cards(split, "big", "split")
        small = get_cards(split, "small", "split")
        box = state.boxes[index]
        is_free = box.improvement is not None and box.improvement.kind == FREE
        if not (is_free and set(big) == set(box.big) and set(small) == set(box.small)):
            state = apply(state, ChooseSplit(name, big, small))
    return state


def _finish(state: RoundState, dealer: Mapping[str, Any]) -> RoundState:
    if dealer.get("small") is None:
        return state
    return apply(state, DealerSmall(get_cards(dealer, "small", "")))


def settle_request(body: Mapping[str, Any]) -> Settlement:
    """``POST /api/v1/split/settle``: one complete round in, its settlement out."""
    return settle(round_from_request(body, "split", SPLIT_CLASSIC.name, improve=_improve,
                                     finish=_finish))


register(GameSpec("split", "Big/Small hand poker", SPLIT_CLASSIC.name, settle_request))

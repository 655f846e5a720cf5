"""The generic steps of the one-ANTE stud games (Caribbean, Oasis, Big/Small) on the one state.

A round is folded from small frozen action records (the live-table app stores each as an event);
every action has ``verify_*`` (the one place that checks it and raises a named error), ``can_*``
(for the UI: which buttons to show) and an apply step that returns a new state. Field names in
errors are relative to a box (``ante``, ``cards``, ``improvement.replace.draw``) or the dealer
(``cards``, ``draw``, ``small``), as in the calculator request, so one ``err.at("boxes[0]")``
gives the full path.

The games differ only in their improvement (Oasis: a paid replacement; Big/Small: two extra
cards and a split) and in how a betting box is compared with a qualified dealer; those live in
``oasis.py`` and ``split.py``, which handle their own actions and pass every other action here.
Whether an improvement forces the BET (Oasis replacing five cards, Big/Small free extra cards)
is recorded on the improvement itself, from the profile, so the generic fold check reads data.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeAlias

from ..cards import Card
from ..errors import CardCountError, IllegalActionError
from ..profiles import HouseProfile, check_bool, check_int

# the step records and the round state, re-exported for callers
from .actions import Bet as Bet
from .actions import BuyGame as BuyGame
from .actions import DealBox as DealBox
from .actions import DealDealer as DealDealer
from .actions import DealerDraw as DealerDraw
from .actions import DealUp as DealUp
from .actions import Fold as Fold
from .actions import PlaceBox as PlaceBox
from .actions import RevealDealer as RevealDealer
from .actions import SharedStep
from .actions import Show as Show
from .actions import TakeAnte as TakeAnte
from .common import (
    Table,
    add_cards,
    check_ante,
    check_bet,
    check_shown,
    dealer_qualifies,
    passes,
    reveal_cards,
)
from .state import BET as BET  # the one round state of every house game
from .state import BUY_GAME as BUY_GAME
from .state import FOLD as FOLD
from .state import TAKE_ANTE as TAKE_ANTE
from .state import BoxState as BoxState
from .state import Improvement as Improvement
from .state import RoundState as _RoundState
from .state import Used as Used


@dataclass(frozen=True, kw_only=True)
class StudProfile(HouseProfile):
    """House rules shared by Caribbean stud, Oasis and Big/Small: the dealer's "no game".

    Fees are in units of the box's ANTE.
    """

    #: the ANTE's multiplier when the dealer has no game and the box takes the ANTE ("1:1")
    no_game_ante_multiplier: int = 1
    #: buying a game for the dealer: allowed?, fee, free second replacement on the same rank
    buy_game_allowed: bool = False
    buy_game_fee: int = 1
    free_second_replacement: bool = False
    #: the dealer's cards dealt face up, entered at the deal (his last card: RULES.md)
    dealer_up_cards: int = 1

    def validate(self) -> None:
        super().validate()
        check_int(self.dealer_up_cards, "dealer_up_cards", maximum=4)
        check_int(self.no_game_ante_multiplier, "no_game_ante_multiplier")
        check_bool(self.buy_game_allowed, "buy_game_allowed")
        check_int(self.buy_game_fee, "buy_game_fee")
        check_bool(self.free_second_replacement, "free_second_replacement")


RoundState = _RoundState[StudProfile]
"""A Caribbean/Oasis/Big-Small round: the one round state with the stud games' house rules."""


def new_round(profile: StudProfile, table: Table) -> RoundState:
    return _RoundState(profile, table)


GenericAction: TypeAlias = SharedStep


def _fail(message: str, field: str | None = None, value: object = None) -> IllegalActionError:
    return IllegalActionError(message, field=field, value=value)


# --- verify / can ----------------------------------------------------------------------------

def verify_place_box(state: RoundState, action: PlaceBox) -> None:
    if state.dealt:
        raise _fail("boxes are placed before the deal", "box", action.box)
    if any(b.box == action.box for b in state.boxes):
        raise _fail(f"box {action.box} is already placed", "box", action.box)
    if action.bonus:
        raise _fail("this game has no bonus bet", "bonus", action.bonus)
    check_ante(action.ante, state.table)


def verify_deal_box(state: RoundState, action: DealBox) -> None:
    _, box = state.find(action.box)
    if box.cards:
        raise _fail(f"box {action.box} already has its cards", "cards")
    if state.dealt_up:
        raise _fail(f"the deal is recorded in dealing order: box {action.box}'s cards are "
                    "entered when they are shown", "cards")
    if len(action.cards) != 5:
        raise CardCountError(len(action.cards), "5", f"box {action.box}").at("cards")


def verify_deal_dealer(state: RoundState, action: DealDealer) -> None:
    if state.dealer or state.dealt_up:
        raise _fail("the dealer already has his cards", "cards")
    if len(action.cards) != 5:
        raise CardCountError(len(action.cards), "5", "dealer's hand").at("cards")


def verify_deal_up(state: RoundState, action: DealUp) -> None:
    """Dealing order: the deal records only the dealer's face-up card(s)."""
    if state.dealer or state.dealt_up:
        raise _fail("the dealer already has his cards", "up")
    if not state.boxes:
        raise _fail("no box is in play", "up")
    if any(b.cards for b in state.boxes):
        raise _fail("the boxes' cards were entered: enter the dealer's five cards", "up")
    want = state.profile.dealer_up_cards
    if len(action.cards) != want:
        raise CardCountError(len(action.cards), str(want), "dealer's face-up cards").at("up")


def verify_deciding(state: RoundState, box: BoxState) -> None:
    """A box can act before the dealer reveals, once dealt, until it has bet or folded."""
    if not state.deal_done(box):
        raise _fail(f"box {box.box} acts after the deal", "decision")
    if state.revealed:
        raise _fail("the dealer has already revealed his hand", "decision")
    if box.decision is not None:
        raise _fail(f"box {box.box} has already decided ({box.decision})", "decision",
                    box.decision)


def verify_bet(state: RoundState, action: Bet) -> None:
    _, box = state.find(action.box)
    verify_deciding(state, box)
    if box.needs_split:
        raise _fail("bought extra cards must be split into a Big Hand and a Small Hand before "
                    "the BET", "split")
    check_bet(action.amount, box.ante, state.profile.bet_multiple)


def verify_fold(state: RoundState, action: Fold) -> None:
    _, box = state.find(action.box)
    verify_deciding(state, box)
    imp = box.improvement
    if imp is not None and imp.forces_bet:
        why = ("free extra cards oblige the box to BET" if imp.kind == "free"
               else "replacing all five cards obliges the box to raise")
        raise _fail(f"box {box.box} may not fold: {why}", "decision", FOLD)


def verify_reveal_dealer(state: RoundState, action: RevealDealer) -> None:
    """The reveal, once every box has bet or folded (its hole cards are checked as they are
    named, in ``reveal_cards``)."""
    if state.revealed:
        raise _fail("the dealer has already revealed his hand", "dealer")
    if not state.dealer and not state.dealt_up:
        raise _fail("the dealer has no cards yet", "dealer.cards")
    for i, b in enumerate(state.boxes):
        if b.decision is None:
            raise _fail(f"box {b.box} has not bet or folded", f"boxes[{i}].decision")


def verify_take_ante(state: RoundState, action: TakeAnte) -> None:
    _no_game_choice(state, action.box, TAKE_ANTE)


def verify_buy_game(state: RoundState, action: BuyGame) -> None:
    _no_game_choice(state, action.box, BUY_GAME)


def _no_game_choice(state: RoundState, box_name: str, choice: str) -> None:
    """TakeAnte / BuyGame: only after a reveal without a game, once, for a betting box."""
    _, box = state.find(box_name)
    if not state.revealed:
        raise _fail("the dealer has not revealed his hand yet", "on_no_game", choice)
    if state.dealer_qualified:
        raise _fail(f"the dealer has a game ({state.dealer_hand.label}); there is no game to "
                    f"{'buy' if choice == BUY_GAME else 'decline'}", "on_no_game", choice)
    if not box.betting:
        raise _fail(f"box {box.box} folded; it has no BET in play", "on_no_game", choice)
    if box.no_game is not None:
        raise _fail(f"box {box.box} already chose {box.no_game}", "on_no_game", choice)
    if state.draw:
        raise _fail("the dealer has already drawn for the bought game", "on_no_game", choice)
    if choice == BUY_GAME and not state.profile.buy_game_allowed:
        raise _fail(f"profile {state.profile.name} does not allow buying a game",
                    "on_no_game", choice)


def verify_dealer_draw(state: RoundState, action: DealerDraw) -> None:
    if state.draw:
        raise _fail("the dealer has already drawn for the bought game", "draw")
    if not state.revealed or not state.buyers:
        raise _fail("the dealer draws only when a box bought a game", "draw",
                    [c.code for c in action.cards])
    undecided = [b.box for b in state.boxes
                 if b.betting and b.no_game is None]
    if undecided:
        raise _fail(f"box {undecided[0]} has not chosen between the ANTE and buying a game",
                    "draw")
    if not action.cards:
        raise CardCountError(0, "at least 1", "dealer draw").at("draw")


def can_bet(state: RoundState, box: str) -> bool:
    return passes(lambda: verify_bet(state, Bet(box, state.find(box)[1].ante
                                             * state.profile.bet_multiple)))


def can_fold(state: RoundState, box: str) -> bool:
    return passes(lambda: verify_fold(state, Fold(box)))


def can_take_ante(state: RoundState, box: str) -> bool:
    return passes(lambda: verify_take_ante(state, TakeAnte(box)))


def can_buy_game(state: RoundState, box: str) -> bool:
    return passes(lambda: verify_buy_game(state, BuyGame(box)))


# --- apply -----------------------------------------------------------------------------------

def apply_generic(state: RoundState, action: GenericAction) -> RoundState:
    """Check ``action`` with its ``verify_*`` and return the new state."""
    deck = state.profile.ranking.deck
    if isinstance(action, PlaceBox):
        verify_place_box(state, action)
        return replace(state, boxes=(*state.boxes, BoxState(action.box, action.seat,
                                                            action.ante)))
    if isinstance(action, DealBox):
        verify_deal_box(state, action)
        i, box = state.find(action.box)
        used = add_cards(state.used, action.cards, "cards", deck, f"box {box.box}")
        return state.with_box(i, replace(box, cards=action.cards), used)
    if isinstance(action, DealUp):
        verify_deal_up(state, action)
        used = add_cards(state.used, action.cards, "up", deck, "the dealer's face-up card")
        return replace(state, dealt_up=True, up=action.cards, used=used)
    if isinstance(action, Show):
        return show(state, action)
    if isinstance(action, DealDealer):
        verify_deal_dealer(state, action)
        used = add_cards(state.used, action.cards, "cards", deck, "the dealer's hand")
        return replace(state, dealer=action.cards, used=used)
    if isinstance(action, Bet):
        verify_bet(state, action)
        i, box = state.find(action.box)
        return state.with_box(i, replace(box, decision=BET, bet=action.amount))
    if isinstance(action, Fold):
        verify_fold(state, action)
        i, box = state.find(action.box)
        return state.with_box(i, replace(box, decision=FOLD))
    if isinstance(action, RevealDealer):
        verify_reveal_dealer(state, action)
        used = reveal_cards(state.used, deck, state.dealer, state.up, action.cards)
        return _only_outcome(replace(state, revealed=True, used=used,
                                     dealer=state.dealer or (*action.cards, *state.up)))
    if isinstance(action, TakeAnte | BuyGame):
        choice = TAKE_ANTE if isinstance(action, TakeAnte) else BUY_GAME
        if choice == TAKE_ANTE and _implied_take_ante(state, action.box):
            return state  # recorded before the ANTE was taken by itself (issue 10): same round
        _no_game_choice(state, action.box, choice)
        i, box = state.find(action.box)
        fee = box.ante * state.profile.buy_game_fee if choice == BUY_GAME else 0
        return state.with_box(i, replace(box, no_game=choice, buy_fee=fee))
    verify_dealer_draw(state, action)
    used = add_cards(state.used, action.cards, "draw", deck, "the dealer's draw")
    return replace(state, draw=action.cards, used=used)


def _only_outcome(state: RoundState) -> RoundState:
    """After the reveal: when the dealer has no game and buying one is not allowed, every
    betting box takes the ANTE; it is the only possible outcome, so nobody taps it (issue 10)."""
    profile = state.profile
    if profile.buy_game_allowed or dealer_qualifies(state.dealer_hand, profile.qualifier,
                                                    profile.ranking):
        return state
    boxes = tuple(replace(b, no_game=TAKE_ANTE) if b.betting and b.no_game is None else b
                  for b in state.boxes)
    return replace(state, boxes=boxes)


def _implied_take_ante(state: RoundState, box_name: str) -> bool:
    """A ``take_ante`` stored when it was still tapped: the ANTE is already taken."""
    _, box = state.find(box_name)
    return (state.revealed and not state.profile.buy_game_allowed
            and box.no_game == TAKE_ANTE)


# --- the showdown ----------------------------------------------------------------------------

def _showing(state: RoundState, name: str) -> BoxState:
    _, box = state.find(name)
    if not state.revealed:
        raise _fail("hands are shown after the dealer reveals", "cards")
    if box.folded:
        raise _fail(f"box {box.box} folded: its cards are never shown", "cards")
    if box.hand_known:
        raise _fail(f"box {box.box}'s hand is already known", "cards")
    return box


def verify_show(state: RoundState, action: Show) -> None:
    """A box turns its hand over after the reveal: checked against what the round knows of it
    (the replaced count and cards, free extra cards as its Small Hand)."""
    _used_after_show(state, action)


def _used_after_show(state: RoundState, action: Show) -> dict[Card, str]:
    """``verify_show``'s checks, returning the round's used cards with the shown ones."""
    box = _showing(state, action.box)
    deck, imp, label = state.profile.ranking.deck, box.improvement, f"box {box.box} hand"
    if imp is not None and imp.kind == "free":
        used = check_shown(state.used, deck, action.cards, count=5, label=label,
                           own=box.cards, must_have=box.cards)
        return check_shown(used, deck, action.small, count=2, label=f"box {box.box} Small Hand",
                           field="small", own=imp.cards, must_have=imp.cards)
    if action.small:
        raise _fail(f"box {box.box} has no Small Hand to show", "small")
    if imp is None:
        return check_shown(state.used, deck, action.cards, count=5, label=label,
                           own=box.cards, must_have=box.cards)
    return check_shown(state.used, deck, action.cards, count=5, label=label,
                       own=(*box.cards, *imp.cards), must_have=imp.cards, dealt=box.cards,
                       keep=5 - imp.replaced)


def can_show(state: RoundState, box: str) -> bool:
    return passes(_showing, state, box)


def show(state: RoundState, action: Show) -> RoundState:
    used = _used_after_show(state, action)
    i, box = state.find(action.box)
    imp = box.improvement
    if imp is not None and imp.kind == "free":
        return state.with_box(i, replace(box, big=action.cards, small=action.small), used)
    return state.with_box(i, replace(box, shown=action.cards), used)

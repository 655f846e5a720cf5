"""The steps every house game shares, written once (1): placing, the deal and the boxes'
decisions: Russian poker, Caribbean, Oasis, Big/Small.

What differs between the games is read from the profile's
:class:`~dealer_assist.rules.profiles.RoundTerms` (a bonus bet, a player's boxes, the dealer's
face-up cards), never from the game's name; each game adds only its own steps (Russian
``russian/steps.py``, Oasis ``oasis.py``, Big/Small ``split.py``) built on :func:`deciding` and
:func:`improving`. The dealer's steps and the showdown are in ``showdown.py``; the table of all
of them is ``steps.SHARED``.

Every step has ``verify_<step>(state, record)`` (the one place that checks it and raises a named
``RulesError``; its ``field`` is relative to the box or the dealer, as in the calculator
request, so one ``err.at("boxes[0]")`` gives the full path), ``can_<step>(state[, box])`` for
the UI, and ``<step>(state, record)`` which returns the new state once verified.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from ...cards import Card
from ...engine import passes
from ...errors import CardCountError, IllegalActionError
from ...evaluator import evaluate
from ...phrase import Phrase
from .actions import Bet, DealBox, DealDealer, DealUp, Fold, PlaceBox
from .players import check_course, check_player_boxes
from .seen import add_cards
from .state import BET, FOLD, BoxState, RoundState, evolve
from .table import check_ante, check_bet

State: TypeAlias = RoundState[Any]
"""The one round state, of any house game's profile."""
#: said after the expected count when a wrong number of cards is a redeal
REDEAL_NOTE = " (a wrong number of cards means a redeal)"
FREE = "free"
#: what a box already did when a second improvement is refused (one improvement per box)
IMPROVED = {"exchange": Phrase("exchanged cards"), "sixth_card": Phrase("bought a sixth card"),
            "replace": Phrase("replaced cards"), "free": Phrase("took its extra cards"),
            "bought": Phrase("took its extra cards")}


def check_live(state: State, field: str | None = None) -> None:
    """A redealt round takes no more steps."""
    if state.voided:
        raise IllegalActionError("the round was redealt (%(voided)s); start a new round",
                                 voided=state.voided, field=field)


# --- before the deal ----------------------------------------------------------------------------

def _place_phase(state: State) -> None:
    check_live(state, "box")
    if state.dealt:
        raise IllegalActionError("boxes are placed before the deal", field="box")


def verify_place_box(state: State, a: PlaceBox) -> None:
    """A box's ANTE within the table limits; a player's boxes as the profile says."""
    _place_phase(state)
    if any(b.box == a.box for b in state.boxes):
        raise IllegalActionError("box %(box)s is already in play", box=a.box, field="box",
                                 value=a.box)
    terms = state.profile.terms()
    if a.bonus and not terms.bonus:
        raise IllegalActionError("this game has no bonus bet", field="bonus", value=a.bonus)
    check_ante(a.ante, state.table)
    check_player_boxes([*state.boxes, a], terms.boxes_per_seat, terms.equal_antes)


def can_place_box(state: State) -> bool:
    return passes(_place_phase, state)


def place_box(state: State, a: PlaceBox) -> State:
    return evolve(state, boxes=(*state.boxes, BoxState(a.box, a.seat, a.ante, a.bonus,
                                                       player=a.player)))


# --- the deal -------------------------------------------------------------------------------

def _five(state: State, cards: tuple[Card, ...], what: str) -> None:
    """A dealt hand has the profile's hand size (``RoundTerms.hand_size``: five so far)."""
    terms = state.profile.terms()
    if len(cards) != terms.hand_size:
        expected = f"{terms.hand_size}{REDEAL_NOTE if terms.redeal else ''}"
        raise CardCountError(len(cards), expected, what).at("cards")


def _deal_box_phase(state: State, box: str) -> tuple[int, BoxState]:
    check_live(state, "cards")
    i, b = state.find(box)
    if b.cards:
        raise IllegalActionError("box %(box)s already has its cards", box=box, field="cards")
    if state.dealt_up:
        raise IllegalActionError("the deal is recorded in dealing order: box %(box)s's "
                                 "cards are entered when they are shown", box=box,
                                 field="cards")
    return i, b


def verify_deal_box(state: State, a: DealBox) -> None:
    """All cards first (a card-reading shoe, older rounds): a box's five cards."""
    _deal_box_phase(state, a.box)
    _five(state, a.cards, f"box {a.box} hand")
    add_cards(state.used, a.cards, "cards", state.profile.ranking.deck, f"box {a.box} cards")


def can_deal_box(state: State, box: str) -> bool:
    return passes(_deal_box_phase, state, box)


def deal_box(state: State, a: DealBox) -> State:
    i, b = state.find(a.box)
    used = add_cards(state.used, a.cards, "cards", state.profile.ranking.deck,
                     f"box {a.box} cards")
    return state.with_box(i, evolve(b, cards=tuple(a.cards)), used=used)


def _deal_dealer_phase(state: State, field: str = "cards") -> None:
    check_live(state, field)
    if not state.boxes:
        raise IllegalActionError("no box is in play", field=field)
    if state.dealer or state.dealt_up:
        raise IllegalActionError("the dealer already has his cards", field=field)


def verify_deal_dealer(state: State, a: DealDealer) -> None:
    """All cards first: the dealer's five cards."""
    _deal_dealer_phase(state)
    _five(state, a.cards, "dealer's hand")
    add_cards(state.used, a.cards, "cards", state.profile.ranking.deck, "dealer cards")


def can_deal_dealer(state: State) -> bool:
    return passes(_deal_dealer_phase, state)


def deal_dealer(state: State, a: DealDealer) -> State:
    used = add_cards(state.used, a.cards, "cards", state.profile.ranking.deck, "dealer cards")
    return evolve(state, dealer=tuple(a.cards), used=used,
                  dealer_value=evaluate(a.cards, state.profile.ranking))


def verify_deal_up(state: State, a: DealUp) -> None:
    """Dealing order: the deal records only the dealer's face-up card(s), as many as the
    profile deals up (none in Russian poker by default)."""
    _deal_dealer_phase(state, "up")
    if any(b.cards for b in state.boxes):
        raise IllegalActionError("the boxes' cards were entered: enter the dealer's five cards",
                                 field="up")
    want = state.profile.terms().dealer_up_cards
    if len(a.cards) != want:
        raise CardCountError(len(a.cards), str(want), "dealer's face-up cards").at("up")
    add_cards(state.used, a.cards, "up", state.profile.ranking.deck, "dealer up card")


def deal_up(state: State, a: DealUp) -> State:
    used = add_cards(state.used, a.cards, "up", state.profile.ranking.deck, "dealer up card")
    return evolve(state, dealt_up=True, up=tuple(a.cards), used=used)


# --- the boxes decide: improvements (each game's own), BET or fold ----------------------------

def deciding(state: State, box: str, field: str) -> tuple[int, BoxState]:
    """The box may still improve, fold or bet: dealt, dealer closed, box undecided, and a dark
    box only after its player's first course (``players.check_course``)."""
    check_live(state, field)
    i, b = state.find(box)
    whole = state.profile.terms().whole_deal_first
    if not (state.deal_complete if whole else state.deal_done(b)):
        raise IllegalActionError("the deal is not complete yet", field=field)
    if state.revealed:
        raise IllegalActionError("the dealer has already opened his cards", field=field)
    if b.decision is not None:
        raise IllegalActionError("box %(box)s has already decided (%(decision)s)", box=box,
                                 decision=b.decision, field=field, value=b.decision)
    check_course(state.boxes, b, state.profile.terms().open_boxes, field)
    return i, b


def improving(state: State, box: str, field: str) -> tuple[int, BoxState]:
    """One improvement per box, before its decision (an exchange, a sixth card, a replacement,
    extra cards): never two, never twice."""
    i, b = deciding(state, box, field)
    if b.improvement is not None:
        kind = b.improvement.kind
        raise IllegalActionError("one improvement per box: box %(box)s already %(done)s",
                                 box=box, done=IMPROVED.get(kind, kind), field=field,
                                 value=kind)
    return i, b


def verify_bet(state: State, a: Bet) -> None:
    _, b = deciding(state, a.box, "decision")
    if b.needs_split:
        raise IllegalActionError("bought extra cards must be split into a Big Hand and a Small "
                                 "Hand before the BET", field="split")
    check_bet(a.amount, b.ante, state.profile.bet_multiple)


def can_bet(state: State, box: str) -> bool:
    return passes(lambda: verify_bet(state, Bet(box, state.find(box)[1].ante
                                                 * state.profile.bet_multiple)))


def bet(state: State, a: Bet) -> State:
    i, b = state.find(a.box)
    return state.with_box(i, evolve(b, decision=BET, bet=a.amount))


def verify_fold(state: State, a: Fold) -> None:
    _, b = deciding(state, a.box, "decision")
    imp = b.improvement
    if imp is not None and imp.forces_bet:
        why = (Phrase("free extra cards oblige the box to BET") if imp.kind == FREE
               else Phrase("replacing all five cards obliges the box to raise"))
        raise IllegalActionError("box %(box)s may not fold: %(why)s", box=b.box, why=why,
                                 field="decision", value=FOLD)


def can_fold(state: State, box: str) -> bool:
    return passes(lambda: verify_fold(state, Fold(box)))


def fold(state: State, a: Fold) -> State:
    i, b = state.find(a.box)
    return state.with_box(i, evolve(b, decision=FOLD))

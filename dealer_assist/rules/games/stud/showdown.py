"""The steps every house game shares, written once (2): the dealer opens his hand, the boxes
take the ANTE or buy him a game, he draws for it, and the hands are shown.

Same contract as ``deal.py``: ``verify_<step>``, ``can_<step>`` and ``<step>`` per step, what
differs read from the profile's terms (whether a game may be bought, its fee, the free second
replacement).
"""

from __future__ import annotations

from ...cards import Card
from ...engine import passes
from ...errors import CardCountError, IllegalActionError
from ...evaluator import evaluate
from .actions import BuyGame, DealerDraw, RevealDealer, Show, TakeAnte
from .deal import FREE, State, check_live
from .dealer import buy_game as bought_game
from .dealer import draw_needed as cards_needed
from .seen import add_cards, check_shown, reveal_cards
from .state import BUY_GAME, SWAPS, TAKE_ANTE, BoxState, evolve

# --- the dealer opens: reveal, take the ANTE or buy a game, the dealer's draw ----------------

def _reveal_phase(state: State) -> None:
    check_live(state)
    if state.revealed:
        raise IllegalActionError("the dealer has already opened his cards")
    if not state.deal_complete:
        raise IllegalActionError("the deal is not complete yet", field="cards")
    for b in state.boxes:
        if b.decision is None:
            raise IllegalActionError("box %(box)s has not bet or folded yet", box=b.box,
                                     field="decision", value=b.box)


def _used_after_reveal(state: State, a: RevealDealer) -> dict[Card, str]:
    _reveal_phase(state)
    return reveal_cards(state.used, state.profile.ranking.deck, state.dealer, state.up, a.cards,
                        state.profile.terms().hand_size)


def verify_reveal_dealer(state: State, a: RevealDealer) -> None:
    """Once every box has bet or folded; the hole cards complete the dealer's five (none when
    all five were dealt known)."""
    _used_after_reveal(state, a)


def can_reveal_dealer(state: State) -> bool:
    return passes(_reveal_phase, state)


def reveal_dealer(state: State, a: RevealDealer) -> State:
    used = _used_after_reveal(state, a)
    if state.dealer:
        return _only_outcome(evolve(state, revealed=True))
    dealer = (*a.cards, *state.up)
    return _only_outcome(evolve(state, revealed=True, dealer=dealer, used=used,
                                dealer_value=evaluate(dealer, state.profile.ranking)))


def _only_outcome(state: State) -> State:
    """After the reveal: when the dealer has no game and buying one is not allowed, every
    betting box takes the ANTE; it is the only possible outcome, so nobody taps it."""
    if state.profile.terms().buy_game or state.dealer_qualified:
        return state
    boxes = tuple(evolve(b, no_game=TAKE_ANTE) if b.betting and b.no_game is None else b
                  for b in state.boxes)
    return evolve(state, boxes=boxes)


def _no_game_phase(state: State, field: str) -> None:
    """The dealer opened, has no game, and has not drawn yet."""
    check_live(state, field)
    if not state.revealed:
        raise IllegalActionError("the dealer has not opened his cards yet", field=field)
    if state.dealer_qualified:
        hand = state.dealer_hand
        raise IllegalActionError("the dealer has a game (%(hand)s): there is no game to buy "
                                 "and no ANTE to take", hand=hand, field=field,
                                 value=hand.category.value)
    if state.draw:
        raise IllegalActionError("the dealer has already drawn for the bought game", field=field)


def _choosing(state: State, box: str, choice: str) -> tuple[int, BoxState]:
    _no_game_phase(state, "on_no_game")
    i, b = state.find(box)
    if not b.betting:
        raise IllegalActionError("box %(box)s folded: it neither takes the ANTE nor buys a "
                                 "game", box=box, field="on_no_game", value=b.decision)
    if b.no_game is not None:
        raise IllegalActionError("box %(box)s has already chosen (%(no_game)s)", box=box,
                                 no_game=b.no_game, field="on_no_game", value=b.no_game)
    if choice == BUY_GAME and not state.profile.terms().buy_game:
        raise IllegalActionError("profile %(name)s does not allow buying a game",
                                 name=state.profile.name, field="on_no_game", value=choice)
    return i, b


def ante_taken(state: State, box: str) -> bool:
    """The ANTE was taken by itself at the reveal (no game could be bought): a ``take_ante``
    stored when it was still tapped changes nothing, and one sent now is answered without
    being stored (``HouseGame.needless``)."""
    _, b = state.find(box)
    return state.revealed and not state.profile.terms().buy_game and b.no_game == TAKE_ANTE


def verify_take_ante(state: State, a: TakeAnte) -> None:
    if not ante_taken(state, a.box):
        _choosing(state, a.box, TAKE_ANTE)


def verify_new_take_ante(state: State, a: TakeAnte) -> None:
    """A new step takes the ANTE only where it is still to be taken."""
    _choosing(state, a.box, TAKE_ANTE)


def can_take_ante(state: State, box: str) -> bool:
    return passes(_choosing, state, box, TAKE_ANTE)


def take_ante(state: State, a: TakeAnte) -> State:
    if ante_taken(state, a.box):
        return state
    i, b = state.find(a.box)
    return state.with_box(i, evolve(b, no_game=TAKE_ANTE))


def verify_buy_game(state: State, a: BuyGame) -> None:
    _choosing(state, a.box, BUY_GAME)


def can_buy_game(state: State, box: str) -> bool:
    return passes(_choosing, state, box, BUY_GAME)


def buy_game(state: State, a: BuyGame) -> State:
    i, b = state.find(a.box)
    fee = b.ante * state.profile.terms().buy_game_fee
    return state.with_box(i, evolve(b, no_game=BUY_GAME, buy_fee=fee))


def _draw_phase(state: State) -> None:
    """Every betting box has chosen and at least one bought a game."""
    _no_game_phase(state, "draw")
    for b in state.boxes:
        if b.betting and b.no_game is None:
            raise IllegalActionError("box %(box)s has not chosen between the ANTE and "
                                     "buying a game", box=b.box, field="draw", value=b.box)
    if not any(b.no_game == BUY_GAME for b in state.boxes):
        raise IllegalActionError("no box bought a game: the dealer does not draw", field="draw")


def draw_needed(state: State, draw: tuple[Card, ...]) -> int:
    """How many cards the dealer's draw for a bought game takes, given the ``draw`` so far: 1,
    or 2 when the first card has the rank of the card it replaced and the dealer still has no
    game (the free second replacement). The screen asks for the second card only then."""
    p = state.profile
    return cards_needed(state.dealer, draw, p.ranking, p.qualifier,
                        free_second_replacement=p.terms().free_second_replacement)


def verify_dealer_draw(state: State, a: DealerDraw) -> None:
    """The next cards of the deck, as many as the bought game uses (a stored draw may hold a
    surplus card, which is ignored)."""
    _draw_phase(state)
    p = state.profile
    add_cards(state.used, a.cards, "draw", p.ranking.deck, "dealer draw")
    bought_game(state.dealer, a.cards, p.ranking, p.qualifier,
                free_second_replacement=p.terms().free_second_replacement)


def verify_new_dealer_draw(state: State, a: DealerDraw) -> None:
    """A draw recorded now takes exactly the cards the bought game uses: a surplus
    card goes back to the deck."""
    need = draw_needed(state, a.cards)
    if len(a.cards) > need:
        raise CardCountError(len(a.cards), f"{need} (the bought game uses {need}; take the "
                             "surplus card back)", "dealer's draw").at("cards")


def can_dealer_draw(state: State) -> bool:
    return passes(_draw_phase, state)


def dealer_draw(state: State, a: DealerDraw) -> State:
    used = add_cards(state.used, a.cards, "draw", state.profile.ranking.deck, "dealer draw")
    return evolve(state, draw=tuple(a.cards), used=used)


# --- the showdown ----------------------------------------------------------------------------

def _showing(state: State, box: str) -> tuple[int, BoxState]:
    """Showdown: after the reveal, a box still in whose hand is not known yet."""
    check_live(state, "cards")
    if not state.revealed:
        raise IllegalActionError("hands are shown after the dealer reveals", field="cards")
    i, b = state.find(box)
    if b.folded:
        raise IllegalActionError("box %(box)s folded: its cards are never shown", box=box,
                                 field="cards")
    if b.hand_known:
        raise IllegalActionError("box %(box)s's hand is already known", box=box, field="cards")
    return i, b


def shown_hand(state: State, b: BoxState, cards: tuple[Card, ...],
               field: str = "cards") -> dict[Card, str]:
    """The used cards once box ``b`` shows ``cards`` as its final hand, checked against what
    the round knows of it: its size (6 after a sixth card), the cards it must hold (dealt and
    kept, drawn, the sixth), the cards it discarded and how many dealt cards a face-down
    exchange or replacement kept."""
    if b.hand_known:
        raise IllegalActionError("box %(box)s's hand is already known", box=b.box, field=field)
    imp = b.improvement
    new = imp.cards if imp is not None else ()
    swap = imp is not None and imp.kind in SWAPS
    must = [*new, *(b.cards if b.cards and not swap else ())]
    keep = (state.profile.terms().hand_size - imp.replaced
            if imp is not None and swap and not imp.discard else None)
    return check_shown(state.used, state.profile.ranking.deck, cards, count=state.hand_size(b),
                       label=f"box {b.box} hand", field=field, own={*b.cards, *new},
                       must_have=must, must_not=b.discarded, dealt=b.cards, keep=keep)


def _used_after_show(state: State, a: Show) -> dict[Card, str]:
    _, b = _showing(state, a.box)
    imp, deck = b.improvement, state.profile.ranking.deck
    if imp is not None and imp.kind == FREE:  # Big/Small: the five dealt, the two free cards
        used = check_shown(state.used, deck, a.cards, count=state.profile.terms().hand_size,
                           label=f"box {b.box} hand",
                           own=b.cards, must_have=b.cards)
        return check_shown(used, deck, a.small, count=state.profile.terms().small_hand,
                           label=f"box {b.box} Small Hand",
                           field="small", own=imp.cards, must_have=imp.cards)
    if a.small:
        raise IllegalActionError("box %(box)s has no Small Hand to show", box=b.box,
                                 field="small")
    return shown_hand(state, b, a.cards)


def verify_show(state: State, a: Show) -> None:
    """A box turns its hand over after the reveal (Big/Small free extra cards: with them as its
    Small Hand)."""
    _used_after_show(state, a)


def can_show(state: State, box: str) -> bool:
    return passes(_showing, state, box)


def show(state: State, a: Show) -> State:
    used = _used_after_show(state, a)
    i, b = state.find(a.box)
    imp = b.improvement
    if imp is not None and imp.kind == FREE:
        return state.with_box(i, evolve(b, big=tuple(a.cards), small=tuple(a.small)), used)
    return state.with_box(i, evolve(b, shown=tuple(a.cards)), used)

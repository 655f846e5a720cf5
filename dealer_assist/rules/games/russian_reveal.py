"""Russian poker actions once the dealer opens: take the ANTE or buy a game, the dealer's draw."""

from __future__ import annotations

from ..cards import Card
from ..errors import IllegalActionError
from ..evaluator import evaluate
from . import common
from .common import passes
from .hidden import reveal_cards
from .russian_round import check_live, dealer_hand, dealer_has_game, with_box
from .russian_state import (
    BUY_GAME,
    TAKE_ANTE,
    BoxState,
    BuyGame,
    DealerDraw,
    RevealDealer,
    RoundState,
    TakeAnte,
    evolve,
)


def _reveal_phase(state: RoundState) -> None:
    check_live(state)
    if state.revealed:
        raise IllegalActionError("the dealer has already opened his cards")
    if not state.deal_complete:
        raise IllegalActionError("the deal is not complete yet", field="cards")
    for b in state.boxes:
        if b.decision is None:
            raise IllegalActionError(f"box {b.box} has not bet or folded yet", field="decision",
                                     value=b.box)


def verify_reveal_dealer(state: RoundState, a: RevealDealer) -> dict[Card, str]:
    """The dealer's hole cards complete his five (none when all five were dealt known)."""
    _reveal_phase(state)
    return reveal_cards(state.used, state.profile.ranking.deck, state.dealer, state.up, a.cards)


def can_reveal_dealer(state: RoundState) -> bool:
    return passes(_reveal_phase, state)


def reveal_dealer(state: RoundState, a: RevealDealer) -> RoundState:
    used = verify_reveal_dealer(state, a)
    if state.dealer:
        return evolve(state, revealed=True)
    dealer = (*a.cards, *state.up)
    return evolve(state, revealed=True, dealer=dealer, used=used,
                  dealer_value=evaluate(dealer, state.profile.ranking))


def _no_game_phase(state: RoundState, field: str) -> None:
    """The dealer opened, has no game, and has not drawn yet."""
    check_live(state, field)
    if not state.revealed:
        raise IllegalActionError("the dealer has not opened his cards yet", field=field)
    if dealer_has_game(state):
        hand = dealer_hand(state)
        raise IllegalActionError(f"the dealer has a game ({hand.label}): there is no game to "
                                 "buy and no ANTE to take", field=field,
                                 value=hand.category.value)
    if state.draw:
        raise IllegalActionError("the dealer has already drawn for the bought game", field=field)


def _choosing(state: RoundState, box: str) -> tuple[int, BoxState]:
    _no_game_phase(state, "on_no_game")
    i, b = state.find(box)
    if not b.betting:
        raise IllegalActionError(f"box {box} folded: it neither takes the ANTE nor buys a game",
                                 field="on_no_game", value=b.decision)
    if b.no_game is not None:
        raise IllegalActionError(f"box {box} has already chosen ({b.no_game})",
                                 field="on_no_game", value=b.no_game)
    return i, b


def verify_take_ante(state: RoundState, a: TakeAnte) -> None:
    _choosing(state, a.box)


def can_take_ante(state: RoundState, box: str) -> bool:
    return passes(_choosing, state, box)


def take_ante(state: RoundState, a: TakeAnte) -> RoundState:
    i, b = _choosing(state, a.box)
    return with_box(state, i, evolve(b, no_game=TAKE_ANTE))


def verify_buy_game(state: RoundState, a: BuyGame) -> None:
    _choosing(state, a.box)


def can_buy_game(state: RoundState, box: str) -> bool:
    return passes(_choosing, state, box)


def buy_game(state: RoundState, a: BuyGame) -> RoundState:
    i, b = _choosing(state, a.box)
    return with_box(state, i, evolve(b, no_game=BUY_GAME))


def _draw_phase(state: RoundState) -> None:
    """Every betting box has chosen and at least one bought a game."""
    _no_game_phase(state, "draw")
    for b in state.boxes:
        if b.betting and b.no_game is None:
            raise IllegalActionError(f"box {b.box} has not chosen between the ANTE and buying "
                                     "a game", field="draw", value=b.box)
    if not any(b.no_game == BUY_GAME for b in state.boxes):
        raise IllegalActionError("no box bought a game: the dealer does not draw", field="draw")


def verify_dealer_draw(state: RoundState, a: DealerDraw) -> None:
    _draw_phase(state)
    profile = state.profile
    common.add_cards(state.used, a.cards, "draw", profile.ranking.deck, "dealer draw")
    common.buy_game(state.dealer, a.cards, profile.ranking, profile.qualifier,
                    free_second_replacement=profile.free_second_replacement)


def can_dealer_draw(state: RoundState) -> bool:
    return passes(_draw_phase, state)


def dealer_draw(state: RoundState, a: DealerDraw) -> RoundState:
    verify_dealer_draw(state, a)
    used = common.add_cards(state.used, a.cards, "draw", state.profile.ranking.deck,
                            "dealer draw")
    return evolve(state, draw=tuple(a.cards), used=used)

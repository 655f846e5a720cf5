"""A calculator request (one complete round as JSON) folded into a round through the actions.

Caribbean stud, Oasis and Big/Small share the request shape of the Russian poker API::

    {"profile": "...", "table": {...}, "dealer": {"cards": [...], "draw": [...]},
     "boxes": [{"box": "1", "seat": "A", "ante": 100, "cards": [...],
                "decision": "bet", "on_no_game": "take_ante", "player": {"seat": "A"}}]}

The request is replayed as the croupier's actions (place, deal, improve, bet/fold, reveal,
no-game choices, dealer draw), so the calculator and the live table run the same checks; the
boxes decide in the order they are listed. A game
adds its own per-box improvement (``improve``) and dealer step after the draw (``finish``).
Errors name the full field path (``boxes[1].improvement.replace.discard``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...engine import Game
from ...errors import HouseRulesError, RulesError
from ...fields import RequestError, get_cards, get_field, get_int, get_list, get_str, need_mapping
from ...profiles import get_profile
from .actions import (
    Bet,
    BuyGame,
    DealBox,
    DealDealer,
    DealerDraw,
    Fold,
    PlaceBox,
    RevealDealer,
    TakeAnte,
)
from .deal import State
from .players import decode_player
from .profile import StudProfile
from .seen import add_cards
from .state import BET, BUY_GAME, FOLD, TAKE_ANTE, RoundState
from .table import parse_table

#: a game's per-box step between the deal and the decision: (state, box index, box body) -> state
Improve = Callable[[State, int, Mapping[str, Any]], State]
#: a game's dealer step after the draw: (state, dealer body) -> state
Finish = Callable[[State, Mapping[str, Any]], State]


def _at(prefix: str, step: Callable[..., State], *args: Any) -> State:
    """``step(*args)``, with the field path of any error prefixed by ``prefix``."""
    try:
        return step(*args)
    except RulesError as err:
        raise err.at(prefix) from None


def load_profile(body: Mapping[str, Any], game: str, default: str) -> StudProfile:
    """The request's profile (by name), of the game ``game``."""
    name = get_str(body, "profile", default=default)
    profile = get_profile(name, game)
    if not isinstance(profile, StudProfile):  # pragma: no cover - registry holds our types
        raise HouseRulesError("profile '%(name)s' is not a %(game)s profile", name=name,
                              game=game, field="profile",
                              value=name)
    return profile


def round_from_request(body: Mapping[str, Any], game: Game[State], default_profile: str,
                       improve: Improve | None = None,
                       finish: Finish | None = None) -> State:
    """Replay a complete round described by ``body``; raises ``RulesError`` naming the field."""
    profile = load_profile(body, game.name, default_profile)
    state: State = RoundState(profile, parse_table(body.get("table"), profile))
    play = game.apply
    dealer = need_mapping(get_field(body, "dealer", ""), "dealer")
    boxes = [need_mapping(b, f"boxes[{i}]") for i, b in enumerate(get_list(body, "boxes"))]
    if not boxes:
        raise RequestError("a round needs at least one box", field="boxes", value=0)
    names: list[str] = []
    for i, b in enumerate(boxes):
        path = f"boxes[{i}]"
        name = get_str(b, "box", path, default=str(i + 1))
        seat = get_str(b, "seat", path, default=name)
        ante = get_int(b, "ante", path)
        names.append(name)
        state = _at(path, play, state, PlaceBox(name, seat, ante,
                                                player=decode_player(b, path)))
    for i, b in enumerate(boxes):
        path = f"boxes[{i}]"
        cards = get_cards(b, "cards", path)
        state = _at(path, play, state, DealBox(names[i], cards))
    dealer_cards = get_cards(dealer, "cards", "dealer")
    state = _at("dealer", play, state, DealDealer(dealer_cards))
    for i, b in enumerate(boxes):
        path = f"boxes[{i}]"
        if improve is not None:
            state = _at(path, improve, state, i, b)
        decision = get_str(b, "decision", path, choices=(BET, FOLD))
        if decision == BET:
            amount = get_int(b, "bet", path, default=state.boxes[i].ante * profile.bet_multiple)
            state = _at(path, play, state, Bet(names[i], amount))
        else:
            state = _at(path, play, state, Fold(names[i]))
    state = play(state, RevealDealer())
    for i, b in enumerate(boxes):
        choice = get_str(b, "on_no_game", f"boxes[{i}]", default=TAKE_ANTE,
                         choices=(TAKE_ANTE, BUY_GAME))
        if choice == BUY_GAME:
            state = _at(f"boxes[{i}]", play, state, BuyGame(names[i]))
        elif state.boxes[i].betting and not state.dealer_qualified:
            state = _at(f"boxes[{i}]", play, state, TakeAnte(names[i]))
    draw = get_cards(dealer, "draw", "dealer", default=[])
    if state.buyers:
        state = _at("dealer", play, state, DealerDraw(draw))
    else:  # as in the Russian poker API: a draw nobody bought is unused, but its cards are
        add_cards(state.used, draw, "dealer.draw", profile.ranking.deck)  # still unique
    if finish is not None:
        state = _at("dealer", finish, state, dealer)
    return state

"""Reading a parlour hand from plain JSON (the calculator API and stored events).

Every wrong type or value is a ``RulesError`` naming the field (``betting[1].amount``), never a
``KeyError``; the rules themselves (a card twice, an illegal bet) are checked by :func:`play_hand`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...fields import RequestError, get_cards, get_field, get_int, get_list, get_str, need_mapping
from .betting import ACTION_TYPES, Action
from .board import Board
from .hand import EndOfGame, ExtraHand, HandInput, HandResult, end_of_game, play_hand
from .profile import VARIANTS, get_parlour_profile


def _players(body: Mapping[str, Any]) -> tuple[str, ...]:
    raw = get_list(body, "players")
    out = []
    for i, p in enumerate(raw):
        if not isinstance(p, str):
            raise RequestError("players[%(i)s] must be a name", i=i, field=f"players[{i}]",
                               value=repr(p)[:40])
        out.append(p)
    return tuple(out)


def parse_board(body: Mapping[str, Any], name: str = "board") -> Board:
    data = need_mapping(get_field(body, name, "", {"pool": 0, "sections": {}}), name)
    pool = get_int(data, "pool", name, default=0, minimum=None)
    raw = need_mapping(get_field(data, "sections", name, {}), f"{name}.sections")
    sections = {str(k): get_int(raw, str(k), f"{name}.sections", minimum=None) for k in raw}
    return Board(pool, sections)


def _hands(body: Mapping[str, Any]) -> dict[str, tuple[Card, ...]]:
    raw = need_mapping(get_field(body, "hands", ""), "hands")
    return {str(k): get_cards(raw, str(k), "hands") for k in raw}


def _extra_hand(body: Mapping[str, Any]) -> ExtraHand:
    data = need_mapping(get_field(body, "extra_hand", "", {"action": "keep"}), "extra_hand")
    action = get_str(data, "action", "extra_hand", choices=("keep", "exchange", "sell"))
    if action != "sell":
        return ExtraHand(action)
    return ExtraHand(action, get_str(data, "buyer", "extra_hand"),
                     get_int(data, "price", "extra_hand", minimum=None))


def _betting(body: Mapping[str, Any]) -> tuple[Action, ...]:
    out = []
    for i, item in enumerate(get_list(body, "betting", default=[])):
        path = f"betting[{i}]"
        data = need_mapping(item, path)
        kind = get_str(data, "type", path, choices=ACTION_TYPES)
        amount = get_int(data, "amount", path, default=None, minimum=None) \
            if data.get("amount") is not None else None
        out.append(Action(get_str(data, "player", path), kind, amount))
    return tuple(out)


def parse_hand(body: Mapping[str, Any]) -> HandInput:
    profile = get_parlour_profile(get_str(body, "profile", default="parlour-americana"))
    players = _players(body)
    return HandInput(
        profile=profile,
        variant=get_str(body, "variant", default=profile.default_variant, choices=VARIANTS),
        players=players,
        board=parse_board(body),
        hands=_hands(body),
        extra=get_cards(body, "extra"),
        extra_hand=_extra_hand(body),
        betting=_betting(body),
    )


def settle_hand_request(body: Mapping[str, Any]) -> HandResult:
    """``POST /api/v1/parlour/hand``: the whole hand from its JSON request."""
    return play_hand(parse_hand(body))


def end_of_game_request(body: Mapping[str, Any]) -> EndOfGame:
    """``POST /api/v1/parlour/end``: the five-card deal that ends the game."""
    profile = get_parlour_profile(get_str(body, "profile", default="parlour-americana"))
    players = _players(body)
    return end_of_game(parse_board(body), players, _hands(body), profile)

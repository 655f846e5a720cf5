"""The calculator's JSON: a hand so far in (``parse_hand``), its state out (``hand_to_dict``).

Field names are the contract (``docs/api.md``). Every malformed field is a
``RulesError`` naming its path (``actions[3].to``); an action the rules refuse names
``actions[3]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...errors import RulesError
from ...fields import RequestError, get_cards, get_int, get_list, get_str, need_mapping
from .betting import legal
from .draw import deck_view
from .hand import replay
from .profile import PokerProfile, Stakes, get_poker_profile, make_stakes
from .setup import SeatEntry
from .showdown import pots_to_award
from .state import ACTION_TYPES, SHOWDOWN, Action, HandState


def parse_hand(data: Any) -> HandState:
    """Replay the request's hand; raises ``RulesError`` with the offending field."""
    body = need_mapping(data, "")
    profile, stakes, button, seats = parse_start(body)
    actions = [parse_action(need_mapping(a, f"actions[{i}]"), f"actions[{i}]")
               for i, a in enumerate(get_list(body, "actions", default=[]))]
    return replay(profile, stakes, button, seats, actions)


def parse_start(body: Mapping[str, Any]) -> tuple[PokerProfile, Stakes, str, list[SeatEntry]]:
    """A hand's start: its profile, stakes, button and the seats dealt in (with stacks)."""
    profile = get_poker_profile(get_str(body, "profile"))
    stakes = make_stakes(profile, need_mapping(body.get("stakes"), "stakes"))
    button = get_str(body, "button")
    seats = [_seat(need_mapping(s, f"seats[{i}]"), f"seats[{i}]")
             for i, s in enumerate(get_list(body, "seats"))]
    return profile, stakes, button, seats


def _seat(body: Mapping[str, Any], path: str) -> SeatEntry:
    missed = body.get("missed")
    return SeatEntry(get_str(body, "seat", path), get_int(body, "stack", path, minimum=1),
                     None if missed is None else get_str(body, "missed", path))


def parse_action(body: Mapping[str, Any], path: str) -> Action:
    """One action of the calculator's JSON (``actions[3]``), every field checked."""
    kind = get_str(body, "type", path, choices=ACTION_TYPES)
    seat = get_str(body, "seat", path) if body.get("seat") is not None else None
    to = get_int(body, "to", path, minimum=1) if body.get("to") is not None else None
    discard = get_int(body, "discard", path) if kind == "draw" else None
    agreed = body.get("agreed")
    if kind == "parole" and not isinstance(agreed, bool):
        raise RequestError("%(path)s.agreed must be true or false", path=path,
                           field=f"{path}.agreed", value=repr(agreed))
    cards = get_cards(body, "cards", path) if kind == "show" else None
    up = _up(body, path) if kind == "street" else None
    return Action(kind, seat, to, up, discard, agreed if kind == "parole" else None, cards)


def _up(body: Mapping[str, Any], path: str) -> dict[str, Card]:
    raw = need_mapping(body.get("up"), f"{path}.up")
    up: dict[str, Card] = {}
    for seat, code in raw.items():
        try:
            (card,) = get_cards({"c": [code] if isinstance(code, str) else code}, "c",
                                count=1)
        except RulesError as err:
            err.field = f"{path}.up.{seat}"
            raise
        up[str(seat)] = card
    return up


def hand_to_dict(state: HandState) -> dict[str, Any]:
    """The response body: the contract of plus nothing a client must parse."""
    out: dict[str, Any] = {
        "status": state.status, "round": state.round, "pot": state.pot,
        "posted": [p.to_dict() for p in state.posted],
        "committed": dict(state.committed), "stacks": dict(state.stacks),
    }
    if state.profile.is_stud:
        out["bring_in"] = state.bring_in_seat
    out["to_act"] = state.to_act
    out["legal"] = _legal(state)
    if not state.profile.is_stud:
        out["deck"] = deck_view(state)
    if state.show_order:
        out["show_order"] = list(state.show_order)
    if state.status == SHOWDOWN:  # the pots are known: stacked before the hands are shown
        out["pots"] = [{"amount": p.amount, "eligible": list(p.eligible)}
                       for p in pots_to_award(state)]
    if state.status == "complete":
        out["pots"] = [p.to_dict() for p in state.pots]
        out["rake"] = state.rake
        out["net"] = {s: state.won.get(s, 0) - state.committed[s] for s in state.seats}
    return out


def _legal(state: HandState) -> dict[str, Any]:
    options = legal(state).to_dict()
    options["parole"] = state.status == "parole"
    return options


def encode_action(action: Action) -> dict[str, Any]:
    """The canonical JSON of one action (what a hand's ``action`` event stores): the fields
    its type carries, cards as codes."""
    out: dict[str, Any] = {"type": action.type}
    if action.seat is not None:
        out["seat"] = action.seat
    if action.to is not None:
        out["to"] = action.to
    if action.up is not None:
        out["up"] = {seat: card.code for seat, card in action.up.items()}
    if action.discard is not None:
        out["discard"] = action.discard
    if action.agreed is not None:
        out["agreed"] = action.agreed
    if action.cards is not None:
        out["cards"] = [c.code for c in action.cards]
    return out

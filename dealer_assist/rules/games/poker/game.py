"""Americana stud and 32-card draw as a :class:`~dealer_assist.rules.engine.Game`.

A hand's own rules are its start (profile by name, stakes, button, the seats dealt in with their
stacks and missed blinds); each dealer action is one ``action`` event whose payload is the
action in the calculator's JSON (``docs/api.md``, POST /api/v1/poker/hand), and an ``undo``
names the action it takes back (``{"seq": n}``). The table of steps has one rule, the poker
engine's own (:func:`~.hand.verify_action`: every action of the hand, its phase and its turn);
a refused action names its place in the hand (``actions[3]``), as the calculator does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...engine import Game, StepRule
from ...errors import HouseRulesError
from ...evaluator import evaluate
from ...fields import need_mapping
from .calculator import encode_action, hand_to_dict, parse_action, parse_start
from .hand import start_hand, verify_action
from .profile import DRAW, STUD
from .state import Action, HandState


def _verify(state: HandState, action: Action) -> None:
    verify_action(state, action)


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a finished hand stores (its settlement): the calculator's answer, plus each seat's
    net as a "box" line so the floor's round list shows a poker hand as it shows a house
    round."""

    state: HandState

    def to_dict(self) -> dict[str, Any]:
        state = self.state
        out = hand_to_dict(state)
        shown = shown_hands(state)
        out["boxes"] = [{"box": seat, "net": net, "wagers": {}, "hand": shown.get(seat),
                         "folded": seat in state.folded, "capped": False}
                        for seat, net in out["net"].items()]
        return out


def shown_hands(state: HandState) -> dict[str, dict[str, Any]]:
    """Each shown hand's five cards and name (stud: the up cards with the hole card)."""
    out = {}
    for seat, cards in state.shown.items():
        full = cards if len(cards) == 5 else (*state.up.get(seat, ()), *cards)
        if len(full) == 5:
            value = evaluate(full, state.profile.ranking)
            # ``value``: category and cards in the engine's order, for the edge to name it
            out[seat] = {"label": value.label, "cards": [c.code for c in full],
                         "value": {"category": value.category.value,
                                   "cards": [c.code for c in value.cards]}}
    return out


class PokerGame(Game[HandState]):
    """One player-versus-player game (``americana`` or ``draw32``)."""

    undo_field = "seq"
    table = {Action: StepRule(_verify, verify_action)}

    def __init__(self, name: str) -> None:
        self.name = name
        self.decoders = {"action": self._decode}

    def start(self, rules: Mapping[str, Any]) -> HandState:
        """The hand after the antes or blinds, from its stored start."""
        profile, stakes, button, seats = parse_start(need_mapping(rules, "rules"))
        if profile.game != self.name:
            raise HouseRulesError("the hand's profile is for %(game)s, not %(game2)s",
                                  game=profile.game, game2=self.name, field="profile",
                                  value=profile.name)
        return start_hand(profile, stakes, button, seats)

    def _decode(self, state: HandState, payload: Mapping[str, Any]) -> tuple[Action]:
        return (parse_action(payload, f"actions[{state.actions}]"),)

    def apply(self, state: HandState, action: Any, *, new: bool = False) -> HandState:
        """The poker engine checks and plays an action in one pass."""
        self.rule(action)
        return verify_action(state, action)

    def where(self, state: HandState) -> str:
        return f"actions[{state.actions}]"

    def encode(self, action: Any) -> dict[str, Any]:
        return encode_action(action)

    def can_settle(self, state: HandState) -> bool:
        return state.status == "complete"

    def settle(self, state: HandState) -> HandResult:
        return HandResult(state)

    def summary(self, state: HandState) -> dict[str, Any]:
        return hand_to_dict(state)


AMERICANA = PokerGame(STUD)
DRAW32 = PokerGame(DRAW)

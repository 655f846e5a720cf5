"""The parlour board game's evening as a :class:`~dealer_assist.rules.engine.Game`.

An evening's own rules are its start: the profile (by name), the variant, the players in their
first seating (the first dealer first) and the board it starts with. Each ``hand`` event is one
whole hand; what is stored is the whole hand as the engine plays it -- the entered fields
(``hands``, ``extra``, ``extra_hand``, ``betting``) with the seating, the board and the rules
taken from the replay -- so the replay recomputes every figure. The deal passes to the left after
each hand. An ``end`` event (five cards each; the best hand takes the board) closes the evening.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...engine import Game, StepRule
from ...errors import IllegalActionError, RulesError
from ...fields import RequestError, get_cards, need_mapping
from .board import Board, check_board
from .calculator import parse_board, parse_hand
from .hand import EndOfGame, HandInput, HandResult, end_of_game, play_hand
from .profile import VARIANTS, ParlourProfile, get_parlour_profile

HAND, END = "hand", "end"
#: what a hand event carries besides what the replay gives (players, board, rules)
HAND_FIELDS = ("hands", "extra", "extra_hand", "betting")
CONTEXT = ("profile", "variant", "players", "board")


@dataclass(frozen=True, slots=True)
class EndDeal:
    """The end of the evening: five cards face up to each player of the seating."""

    profile: ParlourProfile
    players: tuple[str, ...]
    board: Board
    hands: Mapping[str, tuple[Any, ...]]


@dataclass(frozen=True, slots=True)
class Evening:
    """An evening so far: the board and seating the next hand starts with, every hand played
    (its whole request and its figures), each player's total and, once over, the end."""

    profile: ParlourProfile
    variant: str
    players: tuple[str, ...]
    board: Board
    seating: tuple[str, ...]
    hands: tuple[tuple[HandInput, HandResult], ...] = ()
    totals: Mapping[str, int] = field(default_factory=dict)
    ended: EndOfGame | None = None


def _check_context(state: Evening, p: Mapping[str, Any]) -> None:
    """A stored hand carries the rules, seating and board it was played with: the replay's."""
    unknown = sorted(set(p) - set(HAND_FIELDS) - set(CONTEXT))
    if unknown:
        raise RequestError("a hand does not carry '%(v)s'", v=unknown[0], field=unknown[0])
    expected = {"profile": state.profile.name, "variant": state.variant,
                "players": list(state.seating), "board": state.board.to_dict()}
    for name, want in expected.items():
        if name in p and p[name] != want:
            raise IllegalActionError("the hand's %(name)s is not the evening's", name=name,
                                     field=name)


def decode_hand(state: Evening, p: Mapping[str, Any]) -> tuple[HandInput]:
    _check_context(state, p)
    body = {"profile": state.profile.name, "variant": state.variant,
            "players": list(state.seating), "board": state.board.to_dict(),
            **{k: p[k] for k in HAND_FIELDS if k in p}}
    return (parse_hand(body),)


def decode_end(state: Evening, p: Mapping[str, Any]) -> tuple[EndDeal]:
    raw = need_mapping(p.get("hands"), "hands")
    return (EndDeal(state.profile, state.seating, state.board,
                    {str(k): get_cards(raw, str(k), "hands") for k in raw}),)


def _open(state: Evening) -> None:
    if state.ended is not None:
        raise IllegalActionError("this game has ended; start a new one", field="type")


def play(state: Evening, hand: HandInput) -> Evening:
    """One whole hand: the engine's figures, the board carried, the deal passed left."""
    _open(state)
    result = play_hand(hand)
    totals = {p: state.totals.get(p, 0) + result.net.get(p, 0) for p in state.players}
    seating = hand.players
    return Evening(state.profile, state.variant, state.players, result.board_after,
                   (*seating[1:], seating[0]), (*state.hands, (hand, result)), totals)


def end(state: Evening, deal: EndDeal) -> Evening:
    """The five-card deal for the chips left on the board; the evening is over."""
    _open(state)
    ended = end_of_game(deal.board, deal.players, deal.hands, deal.profile)
    totals = {p: state.totals.get(p, 0) + ended.awards.get(p, 0) for p in state.players}
    return Evening(state.profile, state.variant, state.players, state.board, state.seating,
                   state.hands, totals, ended)


def _discard(_state: Evening) -> None:
    """A rule's check is its play (the engine checks a whole hand as it plays it)."""


class ParlourGame(Game[Evening]):
    name = "parlour"
    decoders = {HAND: decode_hand, END: decode_end}
    table = {HandInput: StepRule(lambda s, a: _discard(play(s, a)), play),
             EndDeal: StepRule(lambda s, a: _discard(end(s, a)), end)}

    def start(self, rules: Mapping[str, Any]) -> Evening:
        rules = need_mapping(rules, "rules")
        profile = get_parlour_profile(str(rules.get("profile")))
        variant = str(rules.get("variant"))
        if variant not in VARIANTS:
            raise RulesError("the variant is basic or clockwise", field="variant",
                             value=variant)
        players = tuple(str(p) for p in rules.get("players") or ())
        board = check_board(parse_board({"board": rules.get("board") or {}}), profile)
        return Evening(profile, variant, players, board, players,
                       totals={p: 0 for p in players})

    def apply(self, state: Evening, action: Any, *, new: bool = False) -> Evening:
        """The engine plays a whole hand (or the end) and checks it in the same pass."""
        return self.rule(action).apply(state, action)

    def encode(self, action: Any) -> dict[str, Any]:
        if isinstance(action, EndDeal):
            return {"profile": action.profile.name, "players": list(action.players),
                    "board": action.board.to_dict(),
                    "hands": {p: [c.code for c in cards] for p, cards in action.hands.items()}}
        return encode_hand(action)

    def can_settle(self, state: Evening) -> bool:
        return False

    def settle(self, state: Evening) -> None:
        return None

    def summary(self, state: Evening) -> dict[str, Any]:
        return {"profile": state.profile.name, "variant": state.variant,
                "players": list(state.players), "board": state.board.to_dict(),
                "seating": list(state.seating), "totals": dict(state.totals),
                "ended": state.ended.to_dict() if state.ended is not None else None,
                "hands": [{"request": encode_hand(h), "result": r.to_dict()}
                          for h, r in state.hands]}


def encode_hand(hand: HandInput) -> dict[str, Any]:
    """The whole hand as stored: rules, seating and board with the entered fields."""
    extra: dict[str, Any] = {"action": hand.extra_hand.action}
    if hand.extra_hand.action == "sell":
        extra.update(buyer=hand.extra_hand.buyer, price=hand.extra_hand.price)
    betting = []
    for bet in hand.betting:
        entry: dict[str, Any] = {"player": bet.player, "type": bet.type}
        if bet.amount is not None:
            entry["amount"] = bet.amount
        betting.append(entry)
    return {"profile": hand.profile.name, "variant": hand.variant,
            "players": list(hand.players), "board": hand.board.to_dict(),
            "hands": {p: [c.code for c in cards] for p, cards in hand.hands.items()},
            "extra": [c.code for c in hand.extra], "extra_hand": extra, "betting": betting}


PARLOUR = ParlourGame()

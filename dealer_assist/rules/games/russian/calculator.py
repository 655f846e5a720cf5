"""The Russian poker calculator request, parsed into the same actions the live table records.

``parse_request`` turns the JSON body of ``POST /api/v1/russian/settle`` into a
:class:`ParsedRound`: the profile, the table limits and the ordered steps (each an action with
the request path its errors are reported under). ``round_from_request`` folds the steps with the
very ``verify_*`` functions the live table uses, so both paths share every check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...cards import Card
from ...errors import RulesError
from ...fields import RequestError, get_cards, get_int, get_list, get_str, need_mapping
from ...profiles import get_profile
from ...settlement import Settlement
from ..stud.actions import (
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
from ..stud.players import decode_player
from ..stud.seen import check_unique_cards
from ..stud.state import BET, BUY_GAME, FOLD, TAKE_ANTE
from ..stud.table import Table, parse_table
from .actions import Exchange, Insure, RussianStep, SixthCard
from .game import RUSSIAN
from .profile import RussianProfile
from .settle import settle
from .steps import RoundState, dealer_has_game

DEFAULT_PROFILE = "russian-classic"
_JSON_TYPES = {"list": "array", "str": "string", "int": "number", "float": "number",
               "bool": "boolean", "NoneType": "null"}


@dataclass(frozen=True, slots=True)
class Step:
    """One action and the request path (``boxes[2]``, ``dealer``) its errors are reported under."""

    path: str
    action: RussianStep


@dataclass(frozen=True, slots=True)
class ParsedRound:
    profile: RussianProfile
    table: Table
    #: placing, dealing, improvements, decisions, insurance, the dealer's reveal
    steps: tuple[Step, ...]
    #: each betting box's choice, applied only when the dealer has no game
    no_game: tuple[Step, ...]
    #: the dealer's draw, applied only when a box bought a game
    draw: Step


@dataclass(frozen=True, slots=True)
class _Box:
    path: str
    place: PlaceBox
    deal: DealBox
    improvement: Exchange | SixthCard | None
    decision: Bet | Fold
    insurance: Insure | None
    no_game: TakeAnte | BuyGame

    @property
    def new_cards(self) -> tuple[tuple[str, tuple[Card, ...]], ...]:
        imp = self.improvement
        if isinstance(imp, Exchange):
            return ((f"{self.path}.improvement.exchange.draw", imp.draw),)
        if isinstance(imp, SixthCard) and imp.card is not None:
            return ((f"{self.path}.improvement.sixth_card", (imp.card,)),)
        return ()


def _improvement(d: Mapping[str, Any], box: str, path: str) -> Exchange | SixthCard | None:
    raw = d.get("improvement")
    if raw is None:
        return None
    path = f"{path}.improvement"
    imp = need_mapping(raw, path)
    keys = sorted(k for k in imp if imp[k] is not None)
    if keys not in (["exchange"], ["sixth_card"]):
        raise RequestError("%(path)s must hold exactly one of 'exchange' or 'sixth_card'",
                           path=path, field=path, value=", ".join(map(str, keys)) or "none")
    if keys == ["sixth_card"]:
        return SixthCard(box, get_cards(imp, "sixth_card", path, count=1)[0])
    ex = need_mapping(imp["exchange"], f"{path}.exchange")
    return Exchange(box, get_cards(ex, "discard", f"{path}.exchange"),
                    get_cards(ex, "draw", f"{path}.exchange"))


def _box(raw: Any, i: int, profile: RussianProfile) -> _Box:
    path = f"boxes[{i}]"
    d = need_mapping(raw, path)
    box = get_str(d, "box", path, default=str(i + 1))
    ante = get_int(d, "ante", path)
    place = PlaceBox(box, get_str(d, "seat", path, default=box), ante,
                     get_int(d, "bonus", path, default=0), decode_player(d, path))
    deal = DealBox(box, get_cards(d, "cards", path))
    improvement = _improvement(d, box, path)
    decision: Bet | Fold = Fold(box)
    if get_str(d, "decision", path, choices=(BET, FOLD)) == BET:
        decision = Bet(box, get_int(d, "bet", path, default=profile.bet_multiple * ante))
    insurance = get_int(d, "insurance", path, default=0)
    choice = get_str(d, "on_no_game", path, default=TAKE_ANTE, choices=(TAKE_ANTE, BUY_GAME))
    return _Box(path, place, deal, improvement, decision,
                Insure(box, insurance) if insurance else None,
                TakeAnte(box) if choice == TAKE_ANTE else BuyGame(box))


def _profile(body: Mapping[str, Any]) -> RussianProfile:
    profile = get_profile(get_str(body, "profile", default=DEFAULT_PROFILE), "russian")
    assert isinstance(profile, RussianProfile)
    return profile


def parse_request(body: Any) -> ParsedRound:
    """Read and type-check the request; check card uniqueness across the whole round. The
    boxes decide in the order they are listed (a dark box listed before its player's first
    course is refused, as at the table)."""
    if not isinstance(body, Mapping):
        kind = _JSON_TYPES.get(type(body).__name__, type(body).__name__)
        raise RequestError("the request body must be a JSON object, got %(kind)s", kind=kind,
                           field="body", value=kind)
    profile = _profile(body)
    table = parse_table(body.get("table"), profile)
    dealer = need_mapping(body.get("dealer"), "dealer")
    dealer_cards = get_cards(dealer, "cards", "dealer")
    draw = get_cards(dealer, "draw", "dealer", default=())
    raw_boxes = get_list(body, "boxes")
    if not raw_boxes:
        raise RequestError("boxes must list at least one box", field="boxes", value=0)
    boxes = [_box(raw, i, profile) for i, raw in enumerate(raw_boxes)]
    groups = {f"{b.path}.cards": b.deal.cards for b in boxes}
    groups["dealer.cards"] = dealer_cards
    for b in boxes:
        groups.update(b.new_cards)
    groups["dealer.draw"] = draw
    check_unique_cards(groups, profile.ranking.deck)
    steps = [Step(b.path, b.place) for b in boxes] + [Step(b.path, b.deal) for b in boxes]
    steps.append(Step("dealer", DealDealer(dealer_cards)))
    for b in boxes:
        steps += [Step(b.path, a) for a in (b.improvement, b.decision, b.insurance) if a]
    steps.append(Step("dealer", RevealDealer()))
    no_game = tuple(Step(b.path, b.no_game) for b in boxes if isinstance(b.decision, Bet))
    return ParsedRound(profile, table, tuple(steps), no_game, Step("dealer", DealerDraw(draw)))


def _run(state: RoundState, step: Step) -> RoundState:
    try:
        return RUSSIAN.apply(state, step.action)
    except RulesError as err:
        raise err.at(step.path) from None


def round_from_request(body: Any) -> RoundState:
    """The complete round state of a calculator request (every action verified)."""
    parsed = parse_request(body)
    state: RoundState = RUSSIAN.new_round(parsed.profile, parsed.table)
    for step in parsed.steps:
        state = _run(state, step)
    if dealer_has_game(state):
        return state
    for step in parsed.no_game:
        state = _run(state, step)
    if any(isinstance(s.action, BuyGame) for s in parsed.no_game):
        state = _run(state, parsed.draw)
    return state


def settle_request(body: Mapping[str, Any]) -> Settlement:
    """``POST /api/v1/russian/settle``: parse, verify every action, settle."""
    return settle(round_from_request(body))

"""Oasis poker: Caribbean stud plus one paid, non-refundable card replacement before the decision.

RULES.md "Oasis poker and Caribbean stud": "Oasis poker = Caribbean stud plus a paid,
non-refundable card replacement before the decision. Fee schedule is profile data; default
(Wizard of Odds, "Oasis Poker"): 1 card 1 x ANTE, 2 cards 2 x, 3 cards 3 x, 4 cards 2 x, 5 cards
1 x; replacing all five forces the raise. Other schedules in use: 1 x ANTE per card; one card
only." Profiles: ``oasis-classic``, ``oasis-per-card``, ``oasis-one-card``.

Its one step of its own is :class:`Replace` (``verify_replace``, ``can_replace``,
``replace``); the rest are the steps every house game shares; ``settle`` is Caribbean stud's.
Its game is :data:`OASIS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import Step, StepRule
from ...errors import CardCountError, IllegalActionError, RulesError
from ...fields import get_cards, get_int, need_mapping
from ...phrase import Phrase
from ...profiles import register_profile
from ...settlement import Settlement
from .actions import Replace
from .calculator import round_from_request
from .caribbean import CaribbeanGame, CaribbeanProfile
from .codec import SHARED_DECODERS, box_of, codes, codes_with
from .deal import State, improving
from .game import exchange_inputs
from .seen import add_cards
from .state import BoxState, Improvement, evolve
from .steps import SHARED

#: Wizard of Odds, "Oasis Poker": cards replaced -> fee in ANTEs
CLASSIC_FEES = {1: 1, 2: 2, 3: 3, 4: 2, 5: 1}

OASIS_CLASSIC = CaribbeanProfile(name="oasis-classic", game="oasis", replace_fees=CLASSIC_FEES,
                                 forced_raise_replacing=5)
#: "1 x ANTE per card"
OASIS_PER_CARD = CaribbeanProfile(name="oasis-per-card", game="oasis",
                                  replace_fees={n: n for n in range(1, 6)},
                                  forced_raise_replacing=5)
#: "one card only"
OASIS_ONE_CARD = CaribbeanProfile(name="oasis-one-card", game="oasis", replace_fees={1: 1})
for _house in (OASIS_CLASSIC, OASIS_PER_CARD, OASIS_ONE_CARD):
    register_profile(_house)


def replacement_fee(profile: CaribbeanProfile, ante: int, count: int) -> int:
    """The fee for replacing ``count`` cards (currency units); refuses counts not on offer."""
    fees = profile.replace_fees
    if not fees:
        raise IllegalActionError("profile %(name)s offers no card replacement",
                                 name=profile.name,
                                 field="improvement.replace", value=count)
    if count not in fees:
        allowed = ", ".join(str(n) for n in fees)
        raise IllegalActionError(Phrase.counted(
            "replacing %(num)d card is not allowed under %(name)s (allowed: %(allowed)s)",
            "replacing %(num)d cards is not allowed under %(name)s (allowed: %(allowed)s)",
            count, name=profile.name, allowed=allowed),
            field="improvement.replace.discard", value=count)
    return fees[count] * ante


def _profile(state: State) -> CaribbeanProfile:
    assert isinstance(state.profile, CaribbeanProfile)
    return state.profile


DRAW = "improvement.replace.draw"
DISCARD = "improvement.replace.discard"


def verify_replace(state: State, a: Replace) -> None:
    """One replacement per box, before its decision: 1..5 of its own cards, as many drawn, the
    count on the profile's fee schedule (dealing order: a count, the new cards if seen)."""
    _, box = improving(state, a.box, "improvement.replace")
    profile = _profile(state)
    if a.count and not a.discard:
        replacement_fee(profile, box.ante, a.count)
        if a.draw and len(a.draw) != a.count:
            raise CardCountError(len(a.draw), f"{a.count} (or none)",
                                 "replacement cards").at(DRAW)
    else:
        replacement_fee(profile, box.ante, len(a.discard))
        for pos, card in enumerate(a.discard, start=1):
            if card not in box.cards:
                raise IllegalActionError("%(card)s (card %(pos)s) is not one of box %(box)s's "
                                         "cards", card=card.code, pos=pos, box=box.box,
                                         field=DISCARD, value=card.code)
            if card in a.discard[:pos - 1]:
                raise IllegalActionError("%(card)s is discarded twice", card=card.code,
                                         field=DISCARD, value=card.code)
        if len(a.draw) != len(a.discard):
            raise CardCountError(len(a.draw), str(len(a.discard)),
                                 "replacement draw").at(DRAW)
    add_cards(state.used, a.draw, DRAW, profile.ranking.deck, f"box {box.box} replacement")


def can_replace(state: State, box: str, count: int) -> bool:
    """Whether box ``box`` may replace ``count`` cards now (for the UI's buttons)."""
    try:
        _, b = improving(state, box, "improvement.replace")
        replacement_fee(_profile(state), b.ante, count)
    except RulesError:
        return False
    return True


def replace(state: State, a: Replace) -> State:
    i, box = state.find(a.box)
    profile = _profile(state)
    used = add_cards(state.used, a.draw, DRAW, profile.ranking.deck,
                     f"box {box.box} replacement")
    n = len(a.discard) or a.count
    forces = profile.forced_raise_replacing > 0 and n >= profile.forced_raise_replacing
    imp = Improvement("replace", replacement_fee(profile, box.ante, n), discard=a.discard,
                      cards=a.draw, forces_bet=forces, count=0 if a.discard else a.count)
    return state.with_box(i, evolve(box, improvement=imp), used)


def decode_replace(state: State, p: Any) -> tuple[Replace]:
    """Dealing order ``{"box", "count", "cards"?}``; all cards first ``{"box", "discard",
    "draw"}``."""
    if p.get("discard") is not None:
        return (Replace(box_of(p), get_cards(p, "discard"), get_cards(p, "draw")),)
    return (Replace(box_of(p), (), get_cards(p, "cards", default=[]),
                    get_int(p, "count", minimum=1)),)


class OasisGame(CaribbeanGame):
    """Caribbean stud plus the replacement (``replace {"box", "count"}``)."""

    name = "oasis"
    decoders = {**SHARED_DECODERS, "replace": decode_replace}
    table = {**SHARED, Replace: StepRule(verify_replace, replace)}

    def encode_own(self, a: Any) -> dict[str, Any]:
        if not isinstance(a, Replace):
            return super().encode_own(a)
        if a.discard:
            return {"box": a.box, "discard": codes(a.discard), "draw": codes(a.draw)}
        return codes_with({"box": a.box, "count": a.count}, "cards", a.draw)

    def improvement_steps(self, s: State, b: BoxState) -> list[Step]:
        counts = tuple(n for n in range(1, 6) if can_replace(s, b.box, n))
        if not counts:
            return []
        fees = {n: replacement_fee(_profile(s), b.ante, n) for n in counts}
        return [Step("replace", b.box, "Replace cards", discard=tuple(codes(b.cards)),
                     discard_counts=counts, fees=fees,
                     inputs=exchange_inputs(b.cards, counts, fees))]


OASIS = OasisGame()
apply = OASIS.apply


def _replace_request(state: State, index: int, body: Mapping[str, Any]) -> State:
    """A request box's ``improvement: {"replace": {"discard": [...], "draw": [...]}}``."""
    raw = body.get("improvement")
    if raw is None:
        return state
    imp = need_mapping(raw, "improvement")
    unknown = [k for k in imp if k != "replace"]
    if unknown:
        raise IllegalActionError("Oasis poker has no improvement '%(v)s' (only 'replace')",
                                 v=unknown[0], field=f"improvement.{unknown[0]}",
                                 value=unknown[0])
    rep = need_mapping(imp.get("replace"), "improvement.replace")
    discard = get_cards(rep, "discard", "improvement.replace")
    draw = get_cards(rep, "draw", "improvement.replace")
    return OASIS.apply(state, Replace(state.boxes[index].box, discard, draw))


def settle_request(body: Mapping[str, Any]) -> Settlement:
    """``POST /api/v1/oasis/settle``: one complete round in, its settlement out."""
    return OASIS.settle(round_from_request(body, OASIS, OASIS_CLASSIC.name,
                                           improve=_replace_request))

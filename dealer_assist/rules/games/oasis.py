"""Oasis poker: Caribbean stud plus one paid, non-refundable card replacement before the decision.

RULES.md "Oasis poker and Caribbean stud": "Oasis poker = Caribbean stud plus a paid,
non-refundable card replacement before the decision. Fee schedule is profile data; default
(Wizard of Odds, "Oasis Poker"): 1 card 1 x ANTE, 2 cards 2 x, 3 cards 3 x, 4 cards 2 x, 5 cards
1 x; replacing all five forces the raise. Other schedules in use: 1 x ANTE per card; one card
only." Profiles: ``oasis-classic``, ``oasis-per-card``, ``oasis-one-card``.

Live table: the actions of ``house_round`` plus :class:`Replace` (``verify_replace``,
``can_replace``); ``apply(state, action)``; ``settle`` is Caribbean stud's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..errors import CardCountError, IllegalActionError, RulesError
from ..phrase import Phrase
from ..profiles import register_profile
from ..request import get_cards, need_mapping
from ..settlement import Settlement
from .actions import Replace
from .caribbean import CaribbeanProfile, settle
from .common import add_cards
from .house_request import round_from_request
from .house_round import (
    GenericAction,
    Improvement,
    RoundState,
    apply_generic,
    verify_deciding,
)
from .registry import GameSpec, register

__all__ = ["OASIS_CLASSIC", "OASIS_ONE_CARD", "OASIS_PER_CARD", "Replace", "apply",
           "can_replace", "replacement_fee", "settle", "settle_request", "verify_replace"]

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
for _profile in (OASIS_CLASSIC, OASIS_PER_CARD, OASIS_ONE_CARD):
    register_profile(_profile)


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


def verify_replace(state: RoundState, action: Replace) -> None:
    """One replacement per box, before its decision: 1..5 of its own cards, as many drawn."""
    _, box = state.find(action.box)
    verify_deciding(state, box)
    profile = state.profile
    assert isinstance(profile, CaribbeanProfile)
    if box.improvement is not None:
        raise IllegalActionError("box %(box)s has already replaced cards (one replacement "
                                 "per box)", box=box.box, field="improvement.replace")
    if action.count and not action.discard:
        replacement_fee(profile, box.ante, action.count)
        if action.draw and len(action.draw) != action.count:
            raise CardCountError(len(action.draw), f"{action.count} (or none)",
                                 "replacement cards").at("improvement.replace.draw")
        return
    replacement_fee(profile, box.ante, len(action.discard))
    for pos, card in enumerate(action.discard, start=1):
        if card not in box.cards:
            raise IllegalActionError("%(card)s (card %(pos)s) is not one of box %(box)s's "
                                     "cards",
                                     card=card.code, pos=pos, box=box.box,
                                     field="improvement.replace.discard",
                                     value=card.code)
        if card in action.discard[:pos - 1]:
            raise IllegalActionError("%(card)s is discarded twice", card=card.code,
                                     field="improvement.replace.discard", value=card.code)
    if len(action.draw) != len(action.discard):
        raise CardCountError(len(action.draw), str(len(action.discard)),
                             "replacement draw").at("improvement.replace.draw")


def can_replace(state: RoundState, box: str, count: int) -> bool:
    """Whether box ``box`` may replace ``count`` cards now (for the UI's buttons)."""
    try:
        b = state.find(box)[1]
        verify_deciding(state, b)
        if b.improvement is not None:
            return False
        assert isinstance(state.profile, CaribbeanProfile)
        replacement_fee(state.profile, b.ante, count)
    except RulesError:
        return False
    return True


def apply(state: RoundState, action: Replace | GenericAction) -> RoundState:
    if not isinstance(action, Replace):
        return apply_generic(state, action)
    verify_replace(state, action)
    i, box = state.find(action.box)
    profile = state.profile
    assert isinstance(profile, CaribbeanProfile)
    used = add_cards(state.used, action.draw, "improvement.replace.draw",
                     profile.ranking.deck, f"box {box.box} replacement")
    n = len(action.discard) or action.count
    forces = profile.forced_raise_replacing > 0 and n >= profile.forced_raise_replacing
    imp = Improvement("replace", replacement_fee(profile, box.ante, n), discard=action.discard,
                      cards=action.draw, forces_bet=forces,
                      count=0 if action.discard else action.count)
    return state.with_box(i, replace(box, improvement=imp), used)


def _improve(state: RoundState, index: int, body: Mapping[str, Any]) -> RoundState:
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
    return apply(state, Replace(state.boxes[index].box, discard, draw))


def settle_request(body: Mapping[str, Any]) -> Settlement:
    """``POST /api/v1/oasis/settle``: one complete round in, its settlement out."""
    return settle(round_from_request(body, "oasis", OASIS_CLASSIC.name, improve=_improve))


register(GameSpec("oasis", "Oasis poker", OASIS_CLASSIC.name, settle_request))

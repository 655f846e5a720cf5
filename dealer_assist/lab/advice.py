"""The decision advisor's answer: every option the rules allow, valued in ANTEs.

``advise(profile, stage, cards, ...)`` is the one entry point (the CLI, ``POST
/api/v1/lab/advise`` and the judging of recorded decisions call it). Stages:

* ``deal``: a box's five cards (and the dealer's up card where the game shows one): fold, bet
  or raise, and every improvement (exchange or sixth card, replacement, extra cards);
* ``split`` (Big/Small): the seven cards after bought extra cards: every split, or fold;
* ``no_game`` (Russian poker, Big/Small): the box's final hand against the dealer's five
  cards without a game: take the ANTE or buy a game.

Each option carries its expected result per ANTE (the box's whole result: ANTE, BET, fees,
insurance, bonus), the standard error of that figure (0 when exact or modelled) and how it was
found (``exact``, ``model``, ``model+monte-carlo``, ``monte-carlo``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules.cards import Card, parse_cards
from ..rules.errors import IllegalActionError
from ..rules.games.russian import RussianProfile
from ..rules.games.stud import CaribbeanProfile, SplitProfile
from ..rules.games.stud.seen import check_unique_cards
from ..rules.profiles import HouseProfile
from . import advise_russian, advise_split, advise_stud
from .games import pick
from .options import Advice, Option, as_text, card_indices, dealer_five, one_card
from .strategy_store import load

STAGES = ("deal", "split", "no_game")


def advise(profile: HouseProfile, stage: str, cards: Any, *, up: Any = None,
           dealer: Any = None, seen: Any = (), ante: int | None = None, bonus: int = 0,
           small: Any = None, precise: int = 0) -> Advice:
    """Every option of ``stage`` for the box's ``cards`` (see the module docstring)."""
    start = time.process_time()
    if stage not in STAGES:
        raise IllegalActionError("stage must be one of %(v)s", v=", ".join(STAGES),
                                 field="stage", value=stage)
    _check_unique(profile, cards=cards, up=up, dealer=dealer, small=small, seen=seen)
    hand = card_indices(cards, "box")
    extra = card_indices(seen, "seen") if seen else np.zeros(0, dtype=np.int64)
    ante = profile.min_ante if ante is None else ante
    asked = Asked(stage, hand, up, dealer, extra, ante, bonus, small, precise)
    options, notes = pick(_ADVISORS, profile, "advisor")(profile, asked)
    return Advice(profile.name, profile.game, stage, options, time.process_time() - start,
                  notes)


def _check_unique(profile: HouseProfile, **groups: Any) -> None:
    """Every card named once across the box, the dealer and the cards seen (RULES.md)."""
    parsed = {}
    for name, cards in groups.items():
        items = [cards] if isinstance(cards, (Card, int, np.integer)) or (
            isinstance(cards, str) and name == "up") else cards
        if items is None or (not isinstance(items, str) and not len(items)):
            continue
        parsed[name] = parse_cards(as_text(items), what=name)
    check_unique_cards(parsed, profile.ranking.deck)


@dataclass(frozen=True)
class Asked:
    """What :func:`advise` was asked, as every engine's advisor takes it."""

    stage: str
    hand: np.ndarray
    up: Any
    dealer: Any
    extra: np.ndarray
    ante: int
    bonus: int
    small: Any
    precise: int


def _russian(profile: RussianProfile, a: Asked) -> tuple[list[Option], list[str]]:
    hand, extra, ante = a.hand, a.extra, a.ante
    if a.stage == "deal":
        if len(hand) != 5:
            raise IllegalActionError("a dealt Russian poker hand has five cards",
                                     field="cards", value=len(hand))
        stored = load(profile)
        bet_value = None if stored is None else stored["bet_value"].astype(np.float64)
        options = advise_russian.deal_options(profile, hand, dead=extra, ante=ante,
                                              bonus=a.bonus, precise=a.precise,
                                              bet_value=bet_value)
        return options, [_MODEL_NOTE]
    if a.stage == "no_game":
        if len(hand) not in (5, 6):
            raise IllegalActionError("a Russian poker box's final hand has five or six cards",
                                     field="cards", value=len(hand))
        d = dealer_five(a.dealer)
        seen = np.union1d(hand, extra)
        return advise_russian.no_game_options(profile, hand, d, seen, ante=ante), []
    raise IllegalActionError("Russian poker has no stage '%(v)s'", v=a.stage, field="stage",
                             value=a.stage)


def _stud(profile: CaribbeanProfile, a: Asked) -> tuple[list[Option], list[str]]:
    if a.stage != "deal":
        raise IllegalActionError("Caribbean stud and Oasis have only the 'deal' stage",
                                 field="stage", value=a.stage)
    return advise_stud.deal_options(profile, a.hand, one_card(a.up), a.extra, a.ante)


def _split(profile: SplitProfile, a: Asked) -> tuple[list[Option], list[str]]:
    return advise_split.options(profile, a.stage, a.hand, a.up, a.dealer, a.extra, a.ante,
                                a.small)


#: each lab engine's advisor (``lab/games.py``: the game's spec names its engine)
_ADVISORS: dict[str, Callable[[Any, Asked], tuple[list[Option], list[str]]]] = {
    "russian": _russian, "stud": _stud, "split": _split}

_MODEL_NOTE = ("exchanges of 2-5 cards: first-order model of the discards' removal "
               "(error within about 0.005 ANTE, docs/rules/strategy.md)")

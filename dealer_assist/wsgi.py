"""The production entry point: ``waitress-serve --call dealer_assist.wsgi:production_app``.

The hand evaluator builds its look-up tables on first use (seconds of CPU per ranking). Built
lazily, the first round after every start or restart stalled every tablet behind it (the load
test's step p99 of 11-17 s on a busy machine); here they are built before the first request.
So are the game-math lab's tables the decisions judge needs (the first view
of a settled round took 10.5 s, the first shift report preview 12.5 s):
``services.decisions.warm.warm_up``, about 18 s of CPU once per start.
"""

from __future__ import annotations

from flask import Flask

from .app import create_app
from .rules.cards import parse_cards
from .rules.evaluator import rank_key
from .rules.games import GAMES  # noqa: F401 - registers every game's profiles
from .rules.profiles import profiles
from .services.decisions.warm import warm_up as warm_lab


def warm_up(lab: bool = True) -> int:
    """Build the evaluator's tables for every registered profile's ranking (and, with
    ``lab``, the lab's tables for judging decisions); how many rankings."""
    hand = parse_cards("as kd qh jc 9s")
    seen: set[int] = set()
    for profile in profiles():
        ranking = getattr(profile, "ranking", None)
        if ranking is not None and id(ranking) not in seen:
            seen.add(id(ranking))
            rank_key(hand, ranking)
    if lab:
        warm_lab()
    return len(seen)


def production_app() -> Flask:
    app = create_app()
    warm_up(lab=bool(app.config.get("WARM_LAB", True)))
    return app

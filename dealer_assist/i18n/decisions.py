"""The lab's decisions and strategies in the reader's words (the advisor, the judged decisions).

An advisor option is an action code and the cards it names (``lab.options.Option``); pages, the
CLI and the reports show it through :func:`option_label`, a strategy name through
:func:`strategy_name`, so both languages say the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext

from ..rules.cards import ALL_CARDS


def _codes(cards: Sequence[int | str]) -> str:
    by_index = {c.index: c.code for c in ALL_CARDS}
    return " ".join(by_index[c] if isinstance(c, int) else str(c) for c in cards)


def option_label(action: str, cards: Sequence[int | str] = ()) -> str:
    """``exchange`` + (2s, 7d) -> ``Exchange 2s 7d`` / ``Обменять 2s 7d`` (``insure`` names
    its stake instead of cards)."""
    if action == "insure":
        return str(gettext("Insure %(amount)s", amount=cards[0] if cards else ""))
    if action == "no_insurance":
        return str(gettext("No insurance"))
    named = _codes(cards)
    labels = {
        "fold": gettext("Fold"), "bet": gettext("Bet"), "raise": gettext("Raise"),
        "sixth_card": gettext("Buy a sixth card"),
        "exchange": gettext("Exchange %(cards)s", cards=named),
        "replace": gettext("Replace %(cards)s", cards=named),
        "free_extra": gettext("Take two free extra cards"),
        "bought_extra": gettext("Buy two extra cards"),
        "split": gettext("Split: Small Hand %(cards)s", cards=named),
        "take_ante": gettext("Take the ANTE"), "buy_game": gettext("Buy a game"),
    }
    return str(labels.get(action, action))


def strategy_name(strategy: str) -> str:
    """A strategy's name as shown beside every theoretical figure."""
    names = {"basic": gettext("basic strategy"), "best": gettext("best strategy"),
             "optimal": gettext("best strategy")}
    return str(names.get(strategy, strategy))


def method_name(method: str) -> str:
    names = {"exact": gettext("exact"), "model": gettext("model"),
             "model+monte-carlo": gettext("model + Monte Carlo"),
             "monte-carlo": gettext("Monte Carlo")}
    return str(names.get(method, method))


def stage_name(stage: str) -> str:
    """Which decision of a box was judged."""
    names = {"deal": gettext("dealt hand"), "bet": gettext("bet or fold"),
             "split": gettext("split"), "insurance": gettext("insurance"),
             "no_game": gettext("dealer without a game")}
    return str(names.get(stage, stage))

"""A recorded step's name in the reader's language (issue 34: the floor's refused offline steps
and the shift report's list of steps recorded offline)."""

from __future__ import annotations

from flask_babel import gettext

from .wording import N_

#: a house round's step types, as the pit reads them
STEP_NAMES = {
    "place": N_("Bets placed"), "deal_box": N_("Box dealt"), "deal_dealer": N_("Dealer dealt"),
    "reveal": N_("Dealer reveals"), "dealer_draw": N_("Dealer's new card"),
    "dealer_small": N_("Dealer's Small Hand"), "show": N_("Hand shown"),
    "exchange": N_("Exchange"), "sixth_card": N_("Sixth card"), "replace": N_("Replacement"),
    "extra": N_("Extra cards"), "split": N_("Split"), "bet": N_("Bet"), "fold": N_("Fold"),
    "insure": N_("Insurance"), "take_ante": N_("Take ANTE"), "buy_game": N_("Bought game"),
    "paid": N_("Paid"), "undo": N_("Undo"), "redeal": N_("Redeal"),
}


def step_name(type: str) -> str:
    """``sixth_card`` -> ``Sixth card`` / ``Шестая карта``; an unknown type as it is."""
    found = STEP_NAMES.get(type)
    return str(gettext(found)) if found else type

"""What the table screen says: each box's payout at the showdown (the fees were collected at the
tap), "COLLECT 20" when a step incurs a fee, and what Undo takes back. Plain values in, the
croupier's words out."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from ..i18n import formats, wording
from ..i18n.wording import N_
from ..rules.settlement import FEES, at_showdown
from ..services.rounds import live

WAGER_LABELS = {"ante": "ANTE", "bet": "BET", "improvement_fee": "Improvement fee",
                "buy_game_fee": "Buy-game fee", "insurance": "Insurance", "bonus": "Bonus"}
#: what an Undo takes back, in the croupier's words (``↶ Undo: the dealer's face-up card``)
UNDO_WORDS = {
    "place": N_("the bets"), "deal_dealer": N_("the dealer's face-up card"),
    "deal_box": N_("the box's cards"), "reveal": N_("the dealer's cards"),
    "dealer_draw": N_("the dealer's new card"), "dealer_small": N_("the dealer's Small Hand"),
    "show": N_("the hand shown"), "exchange": N_("the exchange"),
    "sixth_card": N_("the 6th card"), "replace": N_("the replacement"),
    "extra": N_("the extra cards"), "split": N_("the split"), "bet": N_("the bet"),
    "fold": N_("the fold"), "insure": N_("the insurance"), "take_ante": N_("Take ANTE"),
    "buy_game": N_("the bought game"),
}


def payout_lines(settlement: dict[str, Any]) -> list[dict[str, Any]]:
    """Per box, per wager: PAY / TAKE / RETURN with the amount and the reason (``action`` is
    the code the page styles by, ``said`` the word in the croupier's language). The box's
    headline is what moves at the showdown: its wagers without the fees, which were collected
    at the tap (``COLLECTED``; RULES.md "People at the table"); the settlement is unchanged."""
    out = []
    for box in settlement["boxes"]:
        wagers = []
        for name, w in box["wagers"].items():
            if not w["stake"] and not w["net"]:
                continue
            wagers.append(_wager_line(name, w))
        net = at_showdown(box)
        out.append({"box": box["box"], "hand": wording.hand_name(box["hand"]) or None,
                    "small_hand": wording.hand_name(box.get("small_hand")) or None,
                    "wagers": wagers, "net": net,
                    "action": "PAY" if net > 0 else "TAKE" if net < 0 else "RETURN",
                    "said": wording.action(net), "capped": box["capped"]})
    return out


def _wager_line(name: str, w: dict[str, Any]) -> dict[str, Any]:
    if name in FEES:  # in the tray since the tap: nothing moves now
        action, said, amount = "COLLECTED", gettext("COLLECTED"), w["stake"]
    else:
        action = "PAY" if w["net"] > 0 else "TAKE" if w["net"] < 0 else "RETURN"
        said, amount = wording.action(w["net"]), abs(w["net"]) if w["net"] else w["stake"]
    return {"name": WAGER_LABELS.get(name, name), "action": action, "said": said,
            "title": wording.wager_name(name), "amount": amount, "stake": w["stake"],
            "why": wording.reason(w)}


def undo_label(rnd: live.LiveRound) -> str:
    """The Undo button's words: what it takes back (not "Undo deal dealer")."""
    last = next((e for e in rnd.events if e.seq == rnd.last_step), None)
    if last is None:
        return ""
    payload = last.payload
    if last.type == "deal_dealer" and not (payload.get("up") or payload.get("cards")):
        word = str(gettext("the deal"))  # Russian poker: the deal recorded with "Start round"
    else:
        word = wording.say(UNDO_WORDS.get(last.type, last.type.replace("_", " ")))
    said = str(gettext("Undo: %(step)s", step=word))
    if payload.get("count"):
        said += " " + formats.cards(int(payload["count"]))
    return said + (" · " + str(gettext("box %(box)s", box=payload["box"]))
                   if payload.get("box") else "")

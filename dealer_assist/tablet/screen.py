"""The table screen's round as data: what ``static/round.js`` draws, in the croupier's language.

Pure (stdlib and the rules engine only), so the server and the table's tablet -- offline, in
Pyodide -- build the very same screen from the same events. One answer serves the first draw
(embedded in the page) and every tap: the round's id, number, last sequence number and the
engine's steps with their ``inputs``, every word already said in the page's language (the steps'
and inputs' labels by their catalog message ids, hands, reasons, the amounts formatted) and the
figures to show. The renderer knows no game and no step type: it draws the description (DESIGN.md
principle 9). What only the server knows (a pit boss's void request) is added by the server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.engine import Game, Step
from ..rules.inputs import Input
from ..rules.phrase import Phrase
from ..rules.settlement import FEES, at_showdown
from .words import N_, Words

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


@dataclass(frozen=True, slots=True)
class Shown:
    """A round as the screen needs it: the server's ``LiveRound`` or the tablet's mirror."""

    id: Any
    number: int | None
    status: str
    open: bool
    last_seq: int
    frozen: bool
    phase: str
    engine: Game[Any]
    state: Any
    steps: tuple[Step, ...]
    #: the settlement once the round can settle, else None
    settlement: Any
    #: the boxes settled so far at the showdown (None while frozen or closed and unsettled)
    ready: Any
    #: the last effective step's event (type, payload), when it can be undone
    undo: tuple[str, Mapping[str, Any]] | None


def screen(rnd: Shown, words: Words, *, before: Any = None) -> dict[str, Any]:
    """The round as the screen draws it (``before``: the engine's state this tap started
    from, to say the fee to collect or give back now)."""
    summary = rnd.engine.summary(rnd.state)
    ready = rnd.ready if not rnd.frozen else None
    return {
        "id": rnd.id, "number": rnd.number, "status": rnd.status,
        "open": rnd.open, "last_seq": rnd.last_seq, "frozen": rnd.frozen,
        "phase": words.say(rnd.phase),
        "undo": undo_label(rnd.undo, words) if rnd.undo is not None else None,
        "void": None,
        "dealer": _dealer(summary["dealer"], words),
        "boxes": [_box(b, summary.get("dealt", False), words) for b in summary["boxes"]],
        "steps": [step_view(s, words) for s in rnd.steps],
        "payouts": _payouts(ready.to_dict(), words) if ready is not None else None,
        "used": list(summary.get("used", [])),
        "can_pay": rnd.settlement is not None and rnd.open and not rnd.frozen,
        "moved": _moved(rnd, summary, before, words) if before is not None else [],
    }


def step_view(step: Step, words: Words) -> dict[str, Any]:
    """One step the engine offers, as described (``Step.to_dict``) and said."""
    out = step.to_dict()
    out["said"] = words.say(step.label)
    if step.amount:
        out["amount_said"] = words.money(step.amount)
    out["inputs"] = [_input(i, words) for i in step.inputs]
    return out


def _input(item: Input, words: Words) -> dict[str, Any]:
    out = item.to_dict()
    out["said"] = words.say(item.label)
    if item.labels:
        out["labels"] = {k: words.say(v) for k, v in item.labels.items()}
    if item.notes:
        out["notes"] = {k: words.money(v) for k, v in item.notes.items()}
    for name in ("low", "high"):
        if out.get(name) is not None:
            out[name + "_said"] = words.money(out[name])
    return out


def _dealer(d: dict[str, Any], words: Words) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": d.get("cards") or [], "up": d.get("up") or [],
                           "draw": d.get("draw") or [], "small": d.get("small") or []}
    if d.get("revealed"):
        out["hand"] = words.hand_name(d.get("hand_value")) or words.say(d.get("hand"))
        out["game"] = words.gettext("game") if d.get("qualified") else words.gettext("NO GAME")
    bought = d.get("bought")
    if bought:
        out["bought"] = {"cards": bought.get("cards") or [],
                         "hand": words.hand_name(bought.get("hand_value")),
                         "game": words.gettext("GAME") if bought.get("qualified")
                         else words.gettext("still NO GAME")}
    return out


def _box(b: dict[str, Any], dealt: bool, words: Words) -> dict[str, Any]:
    improvement = b.get("improvement")
    extra = improvement.get("cards") if isinstance(improvement, dict) else None
    notes = []
    if improvement:
        notes.append(words.say(improvement if isinstance(improvement, str)
                               else improvement.get("kind")))
    if b.get("decision"):
        notes.append(words.say(b["decision"]))
    if b.get("no_game"):
        notes.append({"take_ante": words.gettext("no game: ANTE paid"),
                      "buy_game": words.gettext("bought a game")}.get(b["no_game"], b["no_game"]))
    cards = b.get("hand_cards") or []
    out: dict[str, Any] = {
        "box": b["box"], "player": _who(b.get("player"), words), "cards": cards,
        "small": b.get("small") or [], "folded": b.get("decision") == "fold",
        "stakes": _stakes(b, words), "status": " · ".join(str(n).replace("_", " ")
                                                         for n in notes),
        "empty": "" if cards else (
            words.gettext("folded") if b.get("decision") == "fold"
            else words.gettext("face down") if dealt else words.gettext("no cards")),
    }
    if b.get("collected"):
        out["collected"] = words.gettext("Fee collected: %(amount)s",
                                         amount=words.money(b["collected"]))
        out["collected_amount"] = int(b["collected"])
    if extra and not cards and isinstance(improvement, dict):
        out["extra"] = {"cards": extra, "said": words.say(improvement.get("kind")) + " "
                        + words.gettext("extra")}
    if b.get("hand"):
        hand = words.hand_name(b.get("hand_value")) or words.say(b["hand"])
        if b.get("small_hand"):
            small = words.hand_name(b.get("small_hand_value")) or words.say(b["small_hand"])
            hand += " · " + words.gettext("Small:") + " " + small
        out["hand"] = hand
    if b.get("course") == 2 and not b.get("decision") and not improvement:
        waits = b.get("waits_for") or []
        out["dark"] = words.gettext("In the dark") + (" · " + words.ngettext(
            "decides after box %(boxes)s", "decides after boxes %(boxes)s", len(waits),
            boxes=", ".join(waits)) if waits else "")
    return out


def _stakes(b: dict[str, Any], words: Words) -> str:
    parts = [words.gettext("ANTE") + " " + words.money(b["ante"])]
    for key, word in (("bonus", words.gettext("bonus")), ("bet", words.gettext("BET")),
                      ("insurance", words.gettext("insurance"))):
        if b.get(key):
            parts.append(word + " " + words.money(b[key]))
    return " · ".join(parts)


def _who(player: dict[str, Any] | None, words: Words) -> str:
    """Who plays a box: a seat letter, or a rated player's card number (never his name)."""
    if not player:
        return ""
    if player.get("card"):
        return "★" + str(player["card"])
    return str(words.gettext("Player")) + " " + str(player.get("seat", ""))


def _moved(after: Shown, summary: dict[str, Any], before: Any, words: Words) -> list[str]:
    """At the tap that incurs a fee: "Box 1: COLLECT 20"; an undone improvement gives it back."""
    was, now = _collected(after.engine.summary(before)), _collected(summary)
    out = []
    for box in sorted({*was, *now}, key=lambda b: (len(b), b)):
        moved = now.get(box, 0) - was.get(box, 0)
        if moved > 0:
            out.append(words.gettext("Box %(box)s: COLLECT %(amount)s", box=box,
                                     amount=words.money(moved)))
        elif moved < 0:
            out.append(words.gettext("Box %(box)s: RETURN %(amount)s (the fee goes back)",
                                     box=box, amount=words.money(-moved)))
    return out


def _collected(summary: dict[str, Any]) -> dict[str, int]:
    """The fees each box has paid into the tray so far (taken when incurred)."""
    return {b["box"]: int(b.get("collected") or 0) for b in summary["boxes"]}


def _payouts(settlement: dict[str, Any], words: Words) -> list[dict[str, Any]]:
    """PAY / TAKE / RETURN per box and wager, with the amounts said."""
    lines = payout_lines(settlement, words)
    for line in lines:
        line["net_said"] = words.money(abs(line["net"]))
        for w in line["wagers"]:
            w["amount_said"] = words.money(w["amount"])
    return lines


def payout_lines(settlement: dict[str, Any], words: Words) -> list[dict[str, Any]]:
    """Per box, per wager: PAY / TAKE / RETURN with the amount and the reason (``action`` is
    the code the page styles by, ``said`` the word in the croupier's language). The box's
    headline is what moves at the showdown: its wagers without the fees, which were collected
    at the tap (``COLLECTED``; RULES.md "People at the table"); the settlement is unchanged."""
    out = []
    for box in settlement["boxes"]:
        wagers = [_wager_line(name, w, words) for name, w in box["wagers"].items()
                  if w["stake"] or w["net"]]
        net = at_showdown(box)
        out.append({"box": box["box"], "hand": words.hand_name(box["hand"]) or None,
                    "small_hand": words.hand_name(box.get("small_hand")) or None,
                    "wagers": wagers, "net": net,
                    "action": "PAY" if net > 0 else "TAKE" if net < 0 else "RETURN",
                    "said": words.action(net), "capped": box["capped"]})
    return out


def _wager_line(name: str, w: dict[str, Any], words: Words) -> dict[str, Any]:
    if name in FEES:  # in the tray since the tap: nothing moves now
        action, said, amount = "COLLECTED", words.gettext("COLLECTED"), w["stake"]
    else:
        action = "PAY" if w["net"] > 0 else "TAKE" if w["net"] < 0 else "RETURN"
        said, amount = words.action(w["net"]), abs(w["net"]) if w["net"] else w["stake"]
    return {"name": WAGER_LABELS.get(name, name), "action": action, "said": said,
            "title": words.wager_name(name), "amount": amount, "stake": w["stake"],
            "why": words.reason(w)}


def undo_label(last: tuple[str, Mapping[str, Any]], words: Words) -> str:
    """The Undo button's words: what it takes back (not "Undo deal dealer")."""
    type, payload = last
    if type == "deal_dealer" and not (payload.get("up") or payload.get("cards")):
        word = str(words.gettext("the deal"))  # Russian poker: the deal recorded at the start
    else:
        word = words.say(UNDO_WORDS.get(type, type.replace("_", " ")))
    said = str(words.gettext("Undo: %(step)s", step=word))
    if payload.get("count"):
        said += " " + words.cards(int(payload["count"]))
    return said + (" · " + str(words.gettext("box %(box)s", box=payload["box"]))
                   if payload.get("box") else "")


def closed_phase(status: str) -> Phrase:
    """The phase of a round that takes no more steps."""
    return Phrase("Round %(status)s", status=Phrase(status))


def last_effective(events: Sequence[Any], last_step: int | None) -> tuple[str, Any] | None:
    """The event of the last effective step, (type, payload): what Undo takes back."""
    found = next((e for e in events if e.seq == last_step), None) if last_step else None
    return (found.type, found.payload) if found is not None else None

"""The table screen's round as data: what ``static/live.js`` draws, in the croupier's language.

One answer serves the first draw (embedded in the page) and every tap (the JSON the step's POST
returns): the round as the JSON API gives it (``api``-shaped ``round``: its id, number, last
sequence number and the engine's ``next_steps`` with their ``inputs``) plus ``screen``: every
word already said in the page's language (the steps' and inputs' labels by their catalog
message ids, hands, reasons, the amounts formatted) and the figures to show. The renderer knows
no game and no step type: it draws the description (DESIGN.md principle 9).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, ngettext

from ..i18n import money, wording
from ..i18n.formats import when
from ..rules.engine import Step
from ..rules.inputs import Input
from ..services.rounds import live
from .live_said import payout_lines, undo_label
from .tables import floor_zone


def screen(rnd: live.LiveRound, *, before: Any = None) -> dict[str, Any]:
    """The round as the screen draws it (``before``: the engine's state this tap started
    from, to say the fee to collect or give back now)."""
    summary = rnd.flow.summary(rnd.state)
    ready = rnd.ready if not rnd.void_pending else None
    return {
        "id": rnd.round.id, "number": rnd.round.number, "status": rnd.round.status,
        "open": rnd.is_open, "last_seq": rnd.last_seq, "frozen": rnd.void_pending,
        "phase": wording.say(rnd.phase),
        "undo": undo_label(rnd) if rnd.can_undo else None,
        "void": _void(rnd),
        "dealer": _dealer(summary["dealer"]),
        "boxes": [_box(b, summary.get("dealt", False)) for b in summary["boxes"]],
        "steps": [step_view(s) for s in rnd.steps],
        "payouts": _payouts(ready.to_dict()) if ready is not None else None,
        "used": list(summary.get("used", [])),
        "can_pay": rnd.settlement is not None and rnd.is_open and not rnd.void_pending,
        "moved": _moved(rnd, summary, before) if before is not None else [],
    }


def step_view(step: Step) -> dict[str, Any]:
    """One step the engine offers, as described (``Step.to_dict``) and said."""
    out = step.to_dict()
    out["said"] = wording.say(step.label)
    if step.amount:
        out["amount_said"] = money(step.amount)
    out["inputs"] = [_input(i) for i in step.inputs]
    return out


def _input(item: Input) -> dict[str, Any]:
    out = item.to_dict()
    out["said"] = wording.say(item.label)
    if item.labels:
        out["labels"] = {k: wording.say(v) for k, v in item.labels.items()}
    if item.notes:
        out["notes"] = {k: money(v) for k, v in item.notes.items()}
    for name in ("low", "high"):
        if out.get(name) is not None:
            out[name + "_said"] = money(out[name])
    return out


def _dealer(d: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": d.get("cards") or [], "up": d.get("up") or [],
                           "draw": d.get("draw") or [], "small": d.get("small") or []}
    if d.get("revealed"):
        out["hand"] = wording.hand_name(d.get("hand_value")) or wording.say(d.get("hand"))
        out["game"] = gettext("game") if d.get("qualified") else gettext("NO GAME")
    bought = d.get("bought")
    if bought:
        out["bought"] = {"cards": bought.get("cards") or [],
                         "hand": wording.hand_name(bought.get("hand_value")),
                         "game": gettext("GAME") if bought.get("qualified")
                         else gettext("still NO GAME")}
    return out


def _box(b: dict[str, Any], dealt: bool) -> dict[str, Any]:
    improvement = b.get("improvement")
    extra = improvement.get("cards") if isinstance(improvement, dict) else None
    notes = []
    if improvement:
        notes.append(wording.say(improvement if isinstance(improvement, str)
                                 else improvement.get("kind")))
    if b.get("decision"):
        notes.append(wording.say(b["decision"]))
    if b.get("no_game"):
        notes.append({"take_ante": gettext("no game: ANTE paid"),
                      "buy_game": gettext("bought a game")}.get(b["no_game"], b["no_game"]))
    cards = b.get("hand_cards") or []
    out: dict[str, Any] = {
        "box": b["box"], "player": _who(b.get("player")), "cards": cards,
        "small": b.get("small") or [], "folded": b.get("decision") == "fold",
        "stakes": _stakes(b), "status": " · ".join(str(n).replace("_", " ") for n in notes),
        "empty": "" if cards else (gettext("folded") if b.get("decision") == "fold"
                                   else gettext("face down") if dealt else gettext("no cards")),
    }
    if b.get("collected"):
        out["collected"] = gettext("Fee collected: %(amount)s", amount=money(b["collected"]))
        out["collected_amount"] = int(b["collected"])
    if extra and not cards and isinstance(improvement, dict):
        out["extra"] = {"cards": extra, "said": wording.say(improvement.get("kind")) + " "
                        + gettext("extra")}
    if b.get("hand"):
        hand = wording.hand_name(b.get("hand_value")) or wording.say(b["hand"])
        if b.get("small_hand"):
            small = wording.hand_name(b.get("small_hand_value")) or wording.say(b["small_hand"])
            hand += " · " + gettext("Small:") + " " + small
        out["hand"] = hand
    if b.get("course") == 2 and not b.get("decision") and not improvement:
        waits = b.get("waits_for") or []
        out["dark"] = gettext("In the dark") + (" · " + ngettext(
            "decides after box %(boxes)s", "decides after boxes %(boxes)s", len(waits),
            boxes=", ".join(waits)) if waits else "")
    return out


def _stakes(b: dict[str, Any]) -> str:
    parts = [gettext("ANTE") + " " + money(b["ante"])]
    for key, word in (("bonus", gettext("bonus")), ("bet", gettext("BET")),
                      ("insurance", gettext("insurance"))):
        if b.get(key):
            parts.append(word + " " + money(b[key]))
    return " · ".join(parts)


def _who(player: dict[str, Any] | None) -> str:
    """Who plays a box: a seat letter, or a rated player's card number (never his name)."""
    if not player:
        return ""
    if player.get("card"):
        return "★" + str(player["card"])
    return str(gettext("Player")) + " " + str(player.get("seat", ""))


def _void(rnd: live.LiveRound) -> dict[str, Any] | None:
    request = rnd.void_request
    if rnd.void_pending and request is not None:
        return {"pending": True, "reason": wording.say(request.reason),
                "said": gettext("Asked by") + " " + (request.requested_by_name or "") + " "
                + gettext("at") + " " + when(request.requested_at, "time", zone=floor_zone()) + ". "
                + gettext("Nothing can be recorded until a pit boss decides: approved, the "
                          "next round's bets open here; refused, the round goes on where it "
                          "stopped.")}
    refused = rnd.void_refused
    if refused is not None:
        said = gettext("Void refused by") + " " + (refused.decided_by_name or "")
        if refused.note:
            said += ": “" + refused.note + "”"
        return {"pending": False, "said": said + ". " + gettext("The round goes on.")}
    return None


def _moved(after: live.LiveRound, summary: dict[str, Any], before: Any) -> list[str]:
    """At the tap that incurs a fee: "Box 1: COLLECT 20"; an undone improvement gives it back."""
    was, now = _collected(after.flow.summary(before)), _collected(summary)
    out = []
    for box in sorted({*was, *now}, key=lambda b: (len(b), b)):
        moved = now.get(box, 0) - was.get(box, 0)
        if moved > 0:
            out.append(gettext("Box %(box)s: COLLECT %(amount)s", box=box, amount=money(moved)))
        elif moved < 0:
            out.append(gettext("Box %(box)s: RETURN %(amount)s (the fee goes back)", box=box,
                               amount=money(-moved)))
    return out


def _collected(summary: dict[str, Any]) -> dict[str, int]:
    """The fees each box has paid into the tray so far (taken when incurred)."""
    return {b["box"]: int(b.get("collected") or 0) for b in summary["boxes"]}


def _payouts(settlement: dict[str, Any]) -> list[dict[str, Any]]:
    """PAY / TAKE / RETURN per box and wager, with the amounts said."""
    lines = payout_lines(settlement)
    for line in lines:
        line["net_said"] = money(abs(line["net"]))
        for w in line["wagers"]:
            w["amount_said"] = money(w["amount"])
    return lines

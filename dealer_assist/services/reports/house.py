"""The house games' sections of the shift report: money per wager, the dealer's qualification,
the hands paid, the largest and the capped payouts, the cumulative result (see :mod:`.shift`)."""

from __future__ import annotations

import re
from datetime import tzinfo
from typing import Any

from ...models import Round
from ...rules.phrase import Phrase
from ...rules.ranking import Category
from ...rules.settlement import WAGER_NAMES
from . import sections

WAGER_TITLES = {"ante": Phrase("Ante"), "bet": Phrase("Bet"),
                "improvement_fee": Phrase("Improvement fees"),
                "buy_game_fee": Phrase("Buy-game fees"), "insurance": Phrase("Insurance"),
                "bonus": Phrase("Bonus")}


CATEGORY_ORDER = {c.value: i for i, c in enumerate(Category)}


TOP_PAYOUTS = 10


def wagers(rows: list[tuple[Round, dict[str, Any], int]]) -> dict[str, Any]:
    """Per wager: boxes with a stake, wagered, collected, paid, house win; and the totals."""
    sums = {w: {"boxes": 0, "wagered": 0, "collected": 0, "paid": 0} for w in WAGER_NAMES}
    for _rnd, s, _v in rows:
        for box in s["boxes"]:
            for name, w in box["wagers"].items():
                line = sums.setdefault(name, {"boxes": 0, "wagered": 0, "collected": 0,
                                              "paid": 0})
                net, stake = int(w["net"]), int(w["stake"])
                line["boxes"] += stake > 0
                line["wagered"] += stake
                line["collected"] += -net if net < 0 else 0
                line["paid"] += net if net > 0 else 0
    lines = [{"wager": name, "title": WAGER_TITLES.get(name, name), **v,
              "house_win": v["collected"] - v["paid"]} for name, v in sums.items()]
    total = {k: sum(v[k] for v in sums.values()) for k in ("wagered", "collected", "paid")}
    total["house_win"] = total["collected"] - total["paid"]
    return {"lines": lines, "total": total,
            "hold": sections.ratio(total["house_win"], total["wagered"])}


def dealer(rows: list[tuple[Round, dict[str, Any], int]]) -> dict[str, Any]:
    no_game = sum(1 for _r, s, _v in rows if not s["dealer"].get("qualified", True))
    bought = sum(1 for _r, s, _v in rows if s["dealer"].get("bought"))
    return {"rounds": len(rows), "no_game": no_game, "bought": bought,
            "no_game_rate": sections.ratio(no_game, len(rows))}


def _best(combinations: list[dict[str, Any]]) -> dict[str, Any]:
    return min(combinations, key=lambda c: (-int(c["multiplier"]),
                                            CATEGORY_ORDER.get(c["category"], 99)))


def hands_paid(rows: list[tuple[Round, dict[str, Any], int]]) -> list[dict[str, Any]]:
    """Boxes whose bet was paid, by the category of their best paid combination.

    ``paid`` is what those boxes won net (the box's net: the fees it paid, collected at the tap,
    are taken off; the table screen's showdown PAY is the wagers alone); ``gross`` is the bet's
    win before the fees, labelled so; ``other`` the wins of the box's other wagers (bonus,
    insurance, ANTE) and ``taken`` what it lost (fees, lost side bets), so that
    paid = gross + other - taken (the bonus was in ``paid`` and nowhere beside it).
    """
    by: dict[str, dict[str, int]] = {}
    for _r, s, _v in rows:
        for box in s["boxes"]:
            bet = box["wagers"].get("bet", {})
            if not box["combinations"] or int(bet.get("net", 0)) <= 0:
                continue
            line = by.setdefault(_best(box["combinations"])["category"],
                                 {"boxes": 0, "combinations": 0, "paid": 0, "gross": 0,
                                  "other": 0, "taken": 0})
            line["boxes"] += 1
            line["combinations"] += len(box["combinations"])
            paid = _box_paid(box)
            line["paid"] += paid
            line["gross"] += int(bet["net"])
            line["other"] += _box_gross(box) - int(bet["net"])
            # what the box lost (fees, side bets); a box whose losses exceed its wins is paid 0
            line["taken"] += _box_gross(box) - paid
    return [{"category": c, "label": _label(c), **v}
            for c, v in sorted(by.items(), key=lambda kv: CATEGORY_ORDER.get(kv[0], 99))]


def _label(category: str) -> str:
    try:
        return Category(category).label
    except ValueError:
        return category.replace("_", " ").capitalize()


def _box_paid(box: dict[str, Any]) -> int:
    """What the box won net: its net when positive (the fees it paid at the tap taken off)."""
    return max(int(box["net"]), 0)


def _box_gross(box: dict[str, Any]) -> int:
    """The box's winning wagers added up, before its lost fees and stakes are taken off."""
    return sum(int(w["net"]) for w in box["wagers"].values() if int(w["net"]) > 0)


def hand_value(hand: dict[str, Any]) -> dict[str, Any] | None:
    """A stored hand as codes (category and cards), for the reader's language: the label is
    the engine's English."""
    if not hand.get("category") or not hand.get("cards"):
        return None
    return {"category": hand["category"], "cards": list(hand["cards"])}


def _box_line(rnd: Round, box: dict[str, Any], zone: tzinfo | None) -> dict[str, Any]:
    hand = box.get("hand") or {}
    return {"round": rnd.number, "at": sections.at(rnd.opened_at, zone), "box": box["box"],
            "seat": box.get("seat", box["box"]), "hand": hand.get("label", ""),
            "hand_value": hand_value(hand),
            "paid": _box_paid(box), "gross": _box_gross(box), "net": int(box["net"]),
            "capped": bool(box["capped"])}


#: the engine's cap notes: "capped at 50000 (maximum payout 50000 ...)" or "capped at the
#: maximum payout 50000"; the number after "maximum payout" is the cap that wager met
_CAP_NOTE = re.compile(r"capped at .*?maximum payout (\d+)(?P<shared> for [^)]*)?")
#: what a shared cap covers, as the engine's note says it: a message id, so the PDF says it in
#: the reader's language ("общий предел: combination plus insurance")
SHARED_CAPS = {"combination plus insurance": Phrase("combination plus insurance")}


def _shared(note: re.Match[str]) -> str:
    scope = (note.group("shared") or "").replace(" for ", "", 1)
    return SHARED_CAPS.get(scope, scope)


def _capped_wagers(rnd: Round, box: dict[str, Any], table_cap: int,
                   zone: tzinfo | None) -> list[dict[str, Any]]:
    """One line per capped wager of a capped box, each against its own cap (a bet and a bonus
    capped separately are two lines, never one sum "at the cap")."""
    hand = (box.get("hand") or {}).get("label", "")
    value = hand_value(box.get("hand") or {})
    out = []
    for name, w in box["wagers"].items():
        note = _CAP_NOTE.search(str(w.get("explanation", "")))
        if note is None or int(w["net"]) <= 0:
            continue
        out.append({"round": rnd.number, "at": sections.at(rnd.opened_at, zone), "box": box["box"],
                    "hand": hand, "hand_value": value, "wager": name,
                    "title": WAGER_TITLES.get(name, name),
                    "paid": int(w["net"]), "cap": int(note.group(1)),
                    "shared": _shared(note)})
    if not out:  # an older settlement without a cap note: the box, against the table's cap
        out.append({"round": rnd.number, "at": sections.at(rnd.opened_at, zone), "box": box["box"],
                    "hand": hand, "hand_value": value, "wager": "", "title": "Box",
                    "paid": _box_paid(box),
                    "cap": table_cap, "shared": ""})
    return out


def payouts(rows: list[tuple[Round, dict[str, Any], int]], table_cap: int,
             zone: tzinfo | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ten largest payouts (what the croupier paid a box) and every capped wager."""
    paid = [(rnd, box) for rnd, s, _v in rows for box in s["boxes"] if _box_paid(box) > 0]
    paid.sort(key=lambda rb: (-_box_paid(rb[1]), rb[0].number, rb[1]["box"]))
    capped = [line for rnd, s, _v in rows for box in s["boxes"] if box["capped"]
              for line in _capped_wagers(rnd, box, table_cap, zone)]
    return ([_box_line(r, b, zone) for r, b in paid[:TOP_PAYOUTS]], capped)


def cumulative_rounds(rows: list[tuple[Round, dict[str, Any], int]]) -> list[int]:
    """The number of each settled round :func:`cumulative` adds up (a voided round
    leaves a gap, so the chart's last point is not "round <count>")."""
    return [r.number for r, _s, _v in rows]


def cumulative(rows: list[tuple[Round, dict[str, Any], int]]) -> list[int]:
    out, total = [], 0
    for _r, s, _v in rows:
        total -= sum(int(b["net"]) for b in s["boxes"])
        out.append(total)
    return out

"""The hold report: per table and per game, win, drop and hold = win / drop for a
gaming day, month-to-date and year-to-date, the settlements' win beside it with the variance
by cause, the fluctuations outside the casino's band with their investigation notes, and the
accounting of every slip number. Plain data (canonical JSON, a SHA-256) like the shift report;
the page prints it as PDF and CSV.

Only counted days have a win: a day whose drop box is not counted yet is listed as
"uncounted" and left out of the sums (its recorded buy-ins are shown), so a period's hold is
never a mix of counted and guessed cash.

The band (``HOLD_BAND`` setting): ``{"mode": "points", "base_bp": 2000, "points_bp": 1000}``
is 20.00 % +- 10 percentage points, in basis points (integers, no float); ``"games"`` may give
a game its own base and points. The other mode a jurisdiction may choose, a 95 % interval from
the lab's figures, needs the lab's hold per unit of drop, which it does not compute:
``"mode": "lab"`` raises NotImplementedError.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlmodel import Session, col, select

from ...models import GameTable
from ...rules.games.registry import get_game
from ..cage import notes as hold_notes
from ..cage import slips, win
from .sections import percent, ratio

SCHEMA = "dealer_assist/hold-report/1"
PERIODS = ("day", "mtd", "ytd")
FLAGGED = {"day": "day", "mtd": "month"}


@dataclass(frozen=True, slots=True)
class Band:
    """Hold band in basis points: base +- points (per game when the casino says so)."""

    base_bp: int = 2000
    points_bp: int = 1000
    games: Mapping[str, tuple[int, int]] | None = None

    def limits(self, game: str) -> tuple[int, int]:
        base, points = (self.games or {}).get(game, (self.base_bp, self.points_bp))
        return base - points, base + points

    def outside(self, game: str, won: int, drop: int) -> bool:
        """Is ``won / drop`` outside the band? (``won * 10000`` against ``bp * drop``.)"""
        if drop <= 0:
            return False
        low, high = self.limits(game)
        return won * 10000 < low * drop or won * 10000 > high * drop


def band_from(setting: Mapping[str, Any] | None) -> Band:
    setting = dict(setting or {})
    mode = setting.get("mode", "points")
    if mode == "lab":
        raise NotImplementedError("a hold band from the lab's 95 % interval is not built: the "
                                  "lab has no hold per unit of drop")
    if mode != "points":
        raise ValueError(f"HOLD_BAND mode is 'points' or 'lab', not {mode!r}")
    games = {g: (int(v[0]), int(v[1])) for g, v in (setting.get("games") or {}).items()}
    return Band(int(setting.get("base_bp", 2000)), int(setting.get("points_bp", 1000)), games)


def _period(days: list[win.DayMoney]) -> dict[str, Any]:
    counted = [d for d in days if d.win is not None]
    drop = sum(d.counted or 0 for d in counted)
    won = sum(d.win or 0 for d in counted)
    settled = sum(d.settled for d in counted)
    causes: dict[str, int] = {}
    for d in counted:
        for diff in d.differences():
            causes[diff["cause"]] = causes.get(diff["cause"], 0) + diff["amount"]
    return {"days": len(days), "uncounted": len(days) - len(counted), "drop": drop,
            "win": won, "hold": ratio(won, drop), "settled": settled,
            "variance": won - settled, "buy_ins": sum(d.buy_ins for d in days),
            "differences": [{"cause": c, "amount": a} for c, a in sorted(causes.items()) if a],
            "uncounted_buy_ins": sum(d.buy_ins for d in days if d.win is None)}


def _starts(day: date) -> dict[str, date]:
    return {"day": day, "mtd": day.replace(day=1), "ytd": day.replace(month=1, day=1)}


def build_hold_report(session: Session, day: date, *, band: Band) -> dict[str, Any]:
    """The report for gaming date ``day`` (see the module docstring)."""
    starts = _starts(day)
    money = win.days_between(session, starts["ytd"], day)
    tables = {t.id: t for t in session.exec(select(GameTable).where(
        col(GameTable.id).in_({m.table_id for m in money}))).all()} if money else {}
    notes = hold_notes.notes_between(session, starts["ytd"], day)
    rows: list[dict[str, Any]] = []
    by_game: dict[str, list[list[win.DayMoney]]] = {}
    for table_id in sorted(tables, key=lambda i: (tables[i].name, i)):
        table = tables[table_id]
        if get_game(table.game).poker_room:
            continue
        mine = [m for m in money if m.table_id == table_id]
        line: dict[str, Any] = {"table": table.name, "table_id": table_id, "game": table.game,
                                "title": get_game(table.game).title}
        for period in PERIODS:
            figures = _period([m for m in mine if m.gaming_date >= starts[period]])
            # every period is compared with the band (the YTD row was not); notes
            # are kept per day and per month
            figures["outside"] = band.outside(table.game, figures["win"], figures["drop"])
            figures["notes"] = []
            if period in FLAGGED:
                kind, begins = FLAGGED[period], hold_notes.period_start(FLAGGED[period], day)
                figures["notes"] = [{"note": n.note, "by": n.written_by,
                                     "at": n.at.isoformat(timespec="seconds")}
                                    for n in notes if n.table_id == table_id
                                    and n.period == kind and n.starts == begins]
            line[period] = figures
        by_game.setdefault(table.game, []).append(mine)
        rows.append(line)
    games = []
    for game in sorted(by_game):
        flat = [m for table_days in by_game[game] for m in table_days]
        games.append({"game": game, "title": get_game(game).title,
                      **{p: _period([m for m in flat if m.gaming_date >= starts[p]])
                         for p in PERIODS}})
    low, high = band.limits("")
    return {"schema": SCHEMA, "gaming_date": day.isoformat(),
            "starts": {p: d.isoformat() for p, d in starts.items()},
            "band": {"low_bp": low, "high_bp": high, "low": percent(low, 10000),
                     "high": percent(high, 10000)}, "tables": rows, "games": games,
            "slips": slips.accounting(session, day, day)}


def csv_rows(data: Mapping[str, Any]) -> list[list[str]]:
    """One line per table and period, then per game (numbers as plain integers, hold as
    ``12.34``); the web adds the header line in the reader's language."""
    out: list[list[str]] = []
    for kind, lines in (("table", data["tables"]), ("game", data["games"])):
        for line in lines:
            for period in PERIODS:
                f = line[period]
                out.append([kind, line.get("table", ""), line["game"], period,
                            data["starts"][period], data["gaming_date"], str(f["drop"]),
                            str(f["win"]), f["hold"]["percent"] or "", str(f["settled"]),
                            str(f["variance"]), str(f["uncounted"]),
                            "yes" if f.get("outside") else "",
                            " | ".join(n["note"] for n in f.get("notes", []))])
    return out

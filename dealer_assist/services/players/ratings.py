"""A rated player's rating (RULES.md "People at the table", "Rating (player
tracking)"): per table session, per gaming day and over all his play.

Pure: plain values in (his settled rounds with his boxes of their stored settlements, his visits,
the lab's house edge per round), figures out; :mod:`.played` reads them from the database.
Definitions (``docs/rules/player-ratings.md`` records each reading with its line):

* **table session**: his rounds at one table in one shift within one visit (a sit-down, until
  the leave when tapped); rounds with no visit recorded form one session per table and shift;
* **time played**: from the first round's start to the last round's end, or from the sit-down
  and to the leave when they were tapped (the sit-down counts for the visit's first session,
  the leave for its last); a day's and a player's time is the sum of their sessions';
* **rounds**, **boxes**: the settled rounds he played a box in, and his boxes in them;
* **average bet**: his initial wagers (ANTE and bonus, the side bet placed with it) per round,
  kept as an exact fraction and shown rounded half up to a whole unit;
* **wagered**: every stake of his boxes (ANTE, BET, fees, insurance, bonus), as the shift
  report counts it; **win**: the house's win from him (minus his boxes' nets: fees included);
* **theoretical win**: for each round, his ANTEs times the lab's house edge per ANTE of the
  round's own profile (the edge covers the whole hand: ANTE, BET and fees); the side bets have
  no lab figure and are left out; None when a round's profile has no figure (``no_figure``
  names them); summed exactly, rounded half up once;
* **decisions differing** from the lab's strategy: counted by the judging service through
  the ``judge`` hook; None while no judge is given (the figure is not known);
* **buy-ins**: the amounts given as ``buy_ins`` (None when none are recorded).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from fractions import Fraction
from typing import Any

#: wagers placed before the deal: the average bet's "initial wagers (ANTE and side bets)"
INITIAL = ("ante", "bonus")


@dataclass(frozen=True, slots=True)
class Edge:
    """The lab's house edge per ANTE of a round's profile, exact from its stored decimal."""

    per_ante: Fraction
    strategy: str


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """One settled round as a player's rating reads it: his boxes of its stored settlement."""

    round_id: int
    number: int
    table_id: int
    table: str
    game: str
    profile: str
    shift_id: int
    gaming_date: date
    started: datetime
    ended: datetime
    boxes: tuple[Mapping[str, Any], ...]
    edge: Edge | None = None


@dataclass(frozen=True, slots=True)
class Visit:
    id: int
    table_id: int
    sat_at: datetime
    left_at: datetime | None = None

    def holds(self, r: PlayedRound) -> bool:
        return (self.table_id == r.table_id and self.sat_at <= r.started
                and (self.left_at is None or r.started <= self.left_at))


@dataclass(frozen=True, slots=True)
class BuyIn:
    """Chips a player bought at a table (records them with his card)."""

    table_id: int
    at: datetime
    amount: int


#: the judging service: how many of the player's decisions in a round differ from the
#: lab's best strategy (its judged boxes of that round)
Judge = Callable[[PlayedRound], int]


@dataclass(frozen=True, slots=True)
class Average:
    """An average as an exact fraction, shown rounded half up to a whole unit."""

    num: int
    den: int

    @property
    def rounded(self) -> int | None:
        return half_up(Fraction(self.num, self.den)) if self.den else None

    def to_dict(self) -> dict[str, Any]:
        return {"num": self.num, "den": self.den, "rounded": self.rounded}


def half_up(value: Fraction) -> int:
    """The nearest whole number, a half rounded up (away from zero for a negative value)."""
    sign = -1 if value < 0 else 1
    magnitude = abs(value)
    return sign * int((2 * magnitude.numerator + magnitude.denominator)
                      // (2 * magnitude.denominator))


@dataclass(frozen=True, slots=True)
class Rating:
    start: datetime | None
    end: datetime | None
    seconds: int
    rounds: int
    boxes: int
    average_bet: Average
    wagered: int
    win: int
    theoretical: int | None
    no_figure: tuple[str, ...]
    decisions_differing: int | None
    buy_ins: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start.isoformat() if self.start else None,
                "end": self.end.isoformat() if self.end else None,
                "seconds": self.seconds, "rounds": self.rounds, "boxes": self.boxes,
                "average_bet": self.average_bet.to_dict(), "wagered": self.wagered,
                "win": self.win, "theoretical": self.theoretical,
                "no_figure": list(self.no_figure),
                "decisions_differing": self.decisions_differing, "buy_ins": self.buy_ins}


@dataclass(frozen=True, slots=True)
class SessionRating:
    """A rating slip: one table session."""

    table_id: int
    table: str
    game: str
    shift_id: int
    gaming_date: date
    rating: Rating

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "table": self.table, "game": self.game,
                "shift_id": self.shift_id, "gaming_date": self.gaming_date.isoformat(),
                **self.rating.to_dict()}


@dataclass(frozen=True, slots=True)
class DayRating:
    gaming_date: date
    rating: Rating
    sessions: tuple[SessionRating, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"gaming_date": self.gaming_date.isoformat(), **self.rating.to_dict(),
                "sessions": [s.to_dict() for s in self.sessions]}


# --- one box, one round -------------------------------------------------------------------------

def stake(box: Mapping[str, Any], wager: str) -> int:
    return int(box["wagers"].get(wager, {}).get("stake", 0))


def initial_wagers(box: Mapping[str, Any]) -> int:
    return sum(stake(box, w) for w in INITIAL)


def wagered(box: Mapping[str, Any]) -> int:
    return sum(int(w["stake"]) for w in box["wagers"].values())


def house_win(box: Mapping[str, Any]) -> int:
    return -int(box["net"])


# --- figures over rounds ------------------------------------------------------------------------

def rate(rounds: Sequence[PlayedRound], *, seconds: int, start: datetime | None,
         end: datetime | None, judge: Judge | None = None,
         buy_ins: Sequence[BuyIn] | None = None) -> Rating:
    """The figures of ``rounds`` (the time played is the caller's: it depends on the taps)."""
    boxes = [b for r in rounds for b in r.boxes]
    theo, missing = theoretical(rounds)
    return Rating(
        start=start, end=end, seconds=seconds, rounds=len(rounds), boxes=len(boxes),
        average_bet=Average(sum(initial_wagers(b) for b in boxes), len(rounds)),
        wagered=sum(wagered(b) for b in boxes), win=sum(house_win(b) for b in boxes),
        theoretical=theo, no_figure=missing,
        decisions_differing=None if judge is None else sum(judge(r) for r in rounds),
        buy_ins=None if buy_ins is None else sum(b.amount for b in buy_ins))


def theoretical(rounds: Iterable[PlayedRound]) -> tuple[int | None, tuple[str, ...]]:
    """His ANTEs times each round's house edge per ANTE, summed exactly and rounded half up;
    None, with the profiles that have no figure, when a round's profile has none."""
    total = Fraction(0)
    missing: set[str] = set()
    for r in rounds:
        if r.edge is None:
            missing.add(r.profile)
            continue
        total += r.edge.per_ante * sum(stake(b, "ante") for b in r.boxes)
    return (None if missing else half_up(total)), tuple(sorted(missing))


# --- table sessions, days ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Session:
    visit: Visit | None
    rounds: tuple[PlayedRound, ...]


def _sessions(rounds: Sequence[PlayedRound], visits: Sequence[Visit]) -> list[_Session]:
    """His rounds grouped by visit (or none), table and shift, in the order played."""
    groups: dict[tuple[int | None, int, int], list[PlayedRound]] = {}
    holder: dict[tuple[int | None, int, int], Visit | None] = {}
    for r in sorted(rounds, key=lambda r: (r.started, r.round_id)):
        found = [v for v in visits if v.holds(r)]
        visit = max(found, key=lambda v: (v.sat_at, v.id)) if found else None
        key = (visit.id if visit else None, r.table_id, r.shift_id)
        groups.setdefault(key, []).append(r)
        holder[key] = visit
    return [_Session(holder[k], tuple(g)) for k, g in groups.items()]


def session_ratings(rounds: Sequence[PlayedRound], visits: Sequence[Visit] = (), *,
                    judge: Judge | None = None,
                    buy_ins: Sequence[BuyIn] | None = None) -> list[SessionRating]:
    """His rating slips: one per table session, in the order played."""
    found = _sessions(rounds, visits)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for n, s in enumerate(found):
        if s.visit is not None:
            first.setdefault(s.visit.id, n)
            last[s.visit.id] = n
    out = []
    for n, s in enumerate(found):
        start, end = s.rounds[0].started, max(r.ended for r in s.rounds)
        if s.visit is not None and first[s.visit.id] == n:
            start = min(start, s.visit.sat_at)
        if s.visit is not None and last[s.visit.id] == n and s.visit.left_at is not None:
            end = max(end, s.visit.left_at)
        head = s.rounds[0]
        mine = None if buy_ins is None else [
            b for b in buy_ins if b.table_id == head.table_id and start <= b.at <= end]
        rating = rate(s.rounds, seconds=int((end - start).total_seconds()), start=start,
                      end=end, judge=judge, buy_ins=mine)
        out.append(SessionRating(head.table_id, head.table, head.game, head.shift_id,
                                 head.gaming_date, rating))
    return out


def combine(sessions: Sequence[SessionRating], rounds: Sequence[PlayedRound], *,
            judge: Judge | None = None, buy_ins: Sequence[BuyIn] | None = None) -> Rating:
    """The rating over several sessions (a day, or all his play): their times added up, the
    other figures over all their rounds."""
    ratings = [s.rating for s in sessions]
    starts = [r.start for r in ratings if r.start is not None]
    ends = [r.end for r in ratings if r.end is not None]
    total = rate(rounds, seconds=sum(r.seconds for r in ratings),
                 start=min(starts) if starts else None, end=max(ends) if ends else None,
                 judge=judge, buy_ins=None)
    if buy_ins is None:
        return total
    return replace(total, buy_ins=sum(r.buy_ins or 0 for r in ratings))


def day_ratings(rounds: Sequence[PlayedRound], visits: Sequence[Visit] = (), *,
                judge: Judge | None = None,
                buy_ins: Sequence[BuyIn] | None = None) -> list[DayRating]:
    """Per gaming day (oldest first): the day's rating and its slips."""
    slips = session_ratings(rounds, visits, judge=judge, buy_ins=buy_ins)
    out = []
    for day in sorted({s.gaming_date for s in slips}):
        mine = tuple(s for s in slips if s.gaming_date == day)
        played = [r for r in rounds if r.gaming_date == day]
        out.append(DayRating(day, combine(mine, played, judge=judge, buy_ins=buy_ins), mine))
    return out

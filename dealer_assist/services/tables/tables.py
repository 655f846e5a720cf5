"""Live tables: game, house-rules profile and integer limits.

The profile must be one the engine knows for that game when the engine has any for it; while a
game is not yet in the engine, any well-formed profile name is accepted so tables can be set up
ahead of time. A table's game and profile cannot change while a shift is open on it (rounds in
progress would mix rules).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ...models import POKER_GAMES, GameTable, Round, RoundStatus, Shift, ShiftStatus
from ...rules.games.registry import games
from ..errors import Conflict, NotFound, ValidationError
from . import chips, profiles

NAME_MAX = 64
PIT_MAX = 40
MAX_BOXES = 9
#: the rotation interval the pit may set, in minutes (default 40)
ROTATION_RANGE = (5, 240)
#: the largest amount a column holds on both databases (BigInteger)
MONEY_MAX = 2**63 - 1
PROFILE_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")


@dataclass(frozen=True, slots=True)
class TableView:
    id: int
    name: str
    game: str
    profile: str
    min_ante: int
    max_ante: int
    max_payout: int
    boxes: int
    active: bool
    chip_set: str = chips.DEFAULT_CHIP_SET
    #: ISO 4217 code; None: the configuration's DEFAULT_CURRENCY (``i18n.table_currency``)
    currency: str | None = None
    #: the pit it belongs to (the floor page), and its dealers' rotation interval
    pit: str | None = None
    rotation_minutes: int = 40
    #: the players' strategy the theoretical hold assumes
    strategy: str = "basic"


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What an administrator enters for a table (already parsed into ints by the edge)."""

    name: str
    game: str
    profile: str
    min_ante: int
    max_ante: int
    max_payout: int
    boxes: int
    chip_set: str = chips.DEFAULT_CHIP_SET
    currency: str | None = None
    pit: str | None = None
    strategy: str = "basic"


#: the players' strategies a table's theoretical hold may assume (the lab computes both)
STRATEGIES = ("basic", "best")


def view(table: GameTable) -> TableView:
    assert table.id is not None
    return TableView(table.id, table.name, table.game, table.profile, table.min_ante,
                     table.max_ante, table.max_payout, table.boxes, table.active,
                     table.chip_set, table.currency, table.pit, table.rotation_minutes,
                     table.strategy)


def validate(spec: TableSpec) -> TableSpec:
    """Check every field; returns the spec with the name tidied and the default profile filled."""
    name = " ".join(spec.name.split())
    if not name or len(name) > NAME_MAX:
        raise ValidationError("A table name is 1 to %(NAME_MAX)s characters.",
                              NAME_MAX=NAME_MAX, field="name")
    if spec.game not in {g.name for g in games() if g.banked}:
        raise ValidationError("Unknown game '%(game)s'.", game=spec.game, field="game")
    profile = spec.profile.strip() or profiles.default_profile(spec.game) or ""
    if not PROFILE_RE.match(profile):
        raise ValidationError("Choose a house-rules profile (lower-case letters, digits, '.', "
                              "'_' or '-').", field="profile")
    known = profiles.profile_names(spec.game)
    if known and profile not in known:
        raise ValidationError("The engine has no profile '%(profile)s' for this game "
                              "(known: %(v)s).",
                              profile=profile, v=', '.join(sorted(known)), field="profile")
    for field, amount in (("min_ante", spec.min_ante), ("max_ante", spec.max_ante),
                          ("max_payout", spec.max_payout)):
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MONEY_MAX:
            raise ValidationError("Limits are whole amounts greater than zero.", field=field)
    if spec.max_ante < spec.min_ante:
        raise ValidationError("The maximum ante cannot be below the minimum ante.",
                              field="max_ante")
    if not 1 <= spec.boxes <= MAX_BOXES:
        raise ValidationError("A table has 1 to %(MAX_BOXES)s boxes.", MAX_BOXES=MAX_BOXES,
                              field="boxes")
    chips.denominations(spec.chip_set)  # a known chip set, else a ValidationError naming it
    currency = (spec.currency or "").strip().upper() or None
    if currency is not None and not (len(currency) == 3 and currency.isascii()
                                     and currency.isalpha()):
        raise ValidationError("A currency is a three-letter ISO 4217 code such as RUB or EUR.",
                              field="currency")
    if spec.strategy not in STRATEGIES:
        raise ValidationError("The theoretical strategy is 'basic' or 'best'.", field="strategy")
    pit = " ".join((spec.pit or "").split()) or None
    if pit is not None and len(pit) > PIT_MAX:
        raise ValidationError("A pit's name is at most %(PIT_MAX)s characters.", PIT_MAX=PIT_MAX,
                              field="pit")
    return TableSpec(name, spec.game, profile, spec.min_ante, spec.max_ante, spec.max_payout,
                     spec.boxes, spec.chip_set, currency, pit, spec.strategy)


def _load(session: Session, table_id: int) -> GameTable:
    table = session.get(GameTable, table_id)
    if table is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    return table


def _name_taken(session: Session, name: str, table_id: int | None) -> bool:
    other = session.exec(select(GameTable).where(GameTable.name == name)).first()
    return other is not None and other.id != table_id


def create_table(session: Session, spec: TableSpec) -> TableView:
    spec = validate(spec)
    if _name_taken(session, spec.name, None):
        raise Conflict("A table named '%(name)s' already exists.", name=spec.name, field="name")
    table = GameTable(name=spec.name, game=spec.game, profile=spec.profile,
                      min_ante=spec.min_ante, max_ante=spec.max_ante,
                      max_payout=spec.max_payout, boxes=spec.boxes, chip_set=spec.chip_set,
                      currency=spec.currency, pit=spec.pit)
    _save(session, spec.name, lambda: session.add(table))
    return view(table)


def update_table(session: Session, table_id: int, spec: TableSpec) -> TableView:
    table = _load(session, table_id)
    if table.game in POKER_GAMES:  # it became a Russian poker table
        raise Conflict("%(name)s is a poker table: its name, pit and stakes are edited on its "
                       "own form.", name=table.name, field="game")
    spec = validate(spec)
    if _name_taken(session, spec.name, table_id):
        raise Conflict("A table named '%(name)s' already exists.", name=spec.name, field="name")
    if (spec.game, spec.profile) != (table.game, table.profile) and _has_open_shift(session,
                                                                                    table_id):
        raise Conflict("Close the open shift before changing this table's game or profile.",
                       field="game")
    limits = ("min_ante", "max_ante", "max_payout")
    changed = [f for f in limits if getattr(spec, f) != getattr(table, f)]
    if changed and has_open_round(session, table_id):
        raise Conflict("A round is open at this table: its limits change after it is paid or "
                       "voided.", field=changed[0])

    def apply() -> None:
        for field in ("name", "game", "profile", "min_ante", "max_ante", "max_payout", "boxes",
                      "chip_set", "currency", "pit", "strategy"):
            setattr(table, field, getattr(spec, field))

    _save(session, spec.name, apply)
    return view(table)


def set_rotation(session: Session, table_id: int, minutes: int) -> TableView:
    """The pit sets how long a dealer deals at this table before the floor page flags him."""
    table = _load(session, table_id)
    low, high = ROTATION_RANGE
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not low <= minutes <= high:
        raise ValidationError("The rotation interval is %(low)s to %(high)s minutes.", low=low,
                              high=high, field="rotation_minutes")
    table.rotation_minutes = minutes
    session.add(table)
    session.flush()
    return view(table)


def set_pit(session: Session, table_id: int, pit: str | None) -> TableView:
    """Put a table (a poker table too) in a pit, or in none."""
    table = _load(session, table_id)
    pit = " ".join((pit or "").split()) or None
    if pit is not None and len(pit) > PIT_MAX:
        raise ValidationError("A pit's name is at most %(PIT_MAX)s characters.", PIT_MAX=PIT_MAX,
                              field="pit")
    table.pit = pit
    session.add(table)
    session.flush()
    return view(table)


def pits(session: Session) -> list[str]:
    """The pits the active tables belong to, by name."""
    query = select(GameTable.pit).where(GameTable.active == True,  # noqa: E712
                                        GameTable.pit.is_not(None)).distinct()  # type: ignore[union-attr]
    return sorted(p for p in session.exec(query).all() if p)


def _save(session: Session, name: str, apply: Callable[[], None]) -> None:
    """Apply and flush inside a savepoint, so a unique-name race is a Conflict and the outer
    transaction stays usable (PostgreSQL aborts the whole transaction otherwise)."""
    try:
        with session.begin_nested():
            apply()
    except IntegrityError:  # a concurrent create took the name between check and insert
        raise Conflict("A table named '%(name)s' already exists.", name=name,
                       field="name") from None


def has_open_round(session: Session, table_id: int) -> bool:
    """A round in play at the table plays under the limits it started with; they stay put."""
    query = select(Round.id).where(Round.table_id == table_id,
                                   Round.status == RoundStatus.OPEN.value)
    return session.exec(query).first() is not None


def _has_open_shift(session: Session, table_id: int) -> bool:
    query = select(Shift.id).where(Shift.table_id == table_id,
                                   Shift.status == ShiftStatus.OPEN.value)
    return session.exec(query).first() is not None


def get_table(session: Session, table_id: int) -> TableView:
    return view(_load(session, table_id))


def list_tables(session: Session, *, include_inactive: bool = True) -> list[TableView]:
    query = select(GameTable).order_by(GameTable.name)
    if not include_inactive:
        query = query.where(GameTable.active == True)  # noqa: E712
    return [view(t) for t in session.exec(query).all()]

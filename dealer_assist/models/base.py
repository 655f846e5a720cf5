"""What every table module shares: the constraint naming, the UTC clock and column type, CHECKs.

Conventions: money columns are integers (BigInteger) in the table's currency unit; every time is
a timezone-aware UTC ``datetime`` (:class:`UTCDateTime`); enumerations are short strings guarded by
CHECK constraints; constraint names follow :data:`NAMING` so migrations can refer to them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

from sqlalchemy import DateTime, Dialect, TypeDecorator
from sqlmodel import SQLModel

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata.naming_convention = NAMING


def utcnow() -> datetime:
    return datetime.now(UTC)


def check_in(column: str, values: type[StrEnum]) -> str:
    """A CHECK constraint's text: ``column`` holds one of the enumeration's values."""
    return f"{column} IN ({', '.join(repr(v.value) for v in values)})"


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out. PostgreSQL stores ``timestamptz``; SQLite has no zones, so
    the value is stored as naive UTC and given its zone back on the way out. A naive datetime is a
    bug (whose clock?) and is refused."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime for a UTC column; use dealer_assist.models.utcnow")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

"""A table's limits and the stakes on a box: the checks of money every house game shares.

Pure functions over ints and profiles; every check raises a named ``RulesError`` whose ``field``
is relative to the object being checked (``ante``, ``bet``) so that the caller can prefix it
with ``err.at("boxes[0]")``:

* :class:`Table` (``min_ante``, ``max_ante``, ``max_payout``), :func:`table_from_profile`,
  :func:`parse_table` (a request's optional ``table`` object over the profile's defaults).
* :func:`check_ante` (table limits), :func:`check_bet` (BET = multiple x ANTE); one player's
  boxes are ``players.py``'s.
* :func:`cap_amount` / :func:`apply_cap` (the maximum table payout).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import StakeError
from ...fields import get_int, need_mapping
from ...profiles import HouseProfile


@dataclass(frozen=True, slots=True)
class Table:
    """The limits of one table: ANTE range and the maximum payout on one box."""

    min_ante: int
    max_ante: int
    max_payout: int

    def __post_init__(self) -> None:
        if self.min_ante < 1:
            raise StakeError("the table minimum must be at least 1", field="min_ante",
                             value=self.min_ante)
        if self.max_ante < self.min_ante:
            raise StakeError("the table maximum %(max_ante)s is below the minimum "
                             "%(min_ante)s",
                             max_ante=self.max_ante, min_ante=self.min_ante, field="max_ante",
                             value=self.max_ante)
        if self.max_payout < 1:
            raise StakeError("the maximum payout must be at least 1", field="max_payout",
                             value=self.max_payout)

    def to_dict(self) -> dict[str, int]:
        return {"min_ante": self.min_ante, "max_ante": self.max_ante,
                "max_payout": self.max_payout}


def table_from_profile(profile: HouseProfile) -> Table:
    return Table(profile.min_ante, profile.max_ante, profile.max_payout)


def parse_table(data: Any, profile: HouseProfile, path: str = "table") -> Table:
    """A request's ``table`` object; each missing limit falls back to the profile's default."""
    if data is None:
        return table_from_profile(profile)
    body = need_mapping(data, path)
    try:
        return Table(
            get_int(body, "min_ante", path, default=profile.min_ante, minimum=1),
            get_int(body, "max_ante", path, default=profile.max_ante, minimum=1),
            get_int(body, "max_payout", path, default=profile.max_payout, minimum=1),
        )
    except StakeError as err:
        raise err.at(path) from None


def check_ante(ante: int, table: Table, field: str = "ante") -> None:
    """ANTE within the table limits."""
    if ante < table.min_ante:
        raise StakeError("ANTE %(ante)s is below the table minimum %(minimum)s", ante=ante,
                         minimum=table.min_ante, field=field, value=ante)
    if ante > table.max_ante:
        raise StakeError("ANTE %(ante)s is above the table maximum %(maximum)s", ante=ante,
                         maximum=table.max_ante, field=field, value=ante)


def check_bet(bet: int, ante: int, multiple: int, field: str = "bet") -> None:
    """BET (raise) is exactly ``multiple`` x ANTE."""
    if bet != multiple * ante:
        raise StakeError("BET must be %(multiple)s x ANTE = %(v)s, got %(bet)s",
                         multiple=multiple, v=multiple * ante, bet=bet,
                         field=field, value=bet)


def cap_amount(amount: int, cap: int) -> tuple[int, bool]:
    """``(min(amount, cap), capped?)`` for one winning amount."""
    return (cap, True) if amount > cap else (amount, False)


def apply_cap(amounts: Sequence[int], cap: int) -> tuple[tuple[int, ...], bool]:
    """Cap the sum of several winnings of one box; earlier amounts keep priority.

    The amounts are in the order they were won; when the total exceeds ``cap`` the later ones
    are reduced first. Negative amounts (losses) pass through untouched and do not count.
    """
    room = cap
    out: list[int] = []
    capped = False
    for amount in amounts:
        if amount <= 0:
            out.append(amount)
            continue
        paid = min(amount, max(room, 0))
        capped = capped or paid < amount
        room -= paid
        out.append(paid)
    return tuple(out), capped

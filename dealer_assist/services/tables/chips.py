"""Chip sets: which chip denominations a table's float is counted in (data, not code).

A table names its chip set (``GameTable.chip_set``, default :data:`DEFAULT_CHIP_SET`); a count
is entered chip by chip (``{denomination: number of chips}``) and its amount is the exact
integer sum, so the pit never adds up a float by hand. A casino with other chips adds a set
here (or in ``CHIP_SETS`` of the instance config); counts already stored keep their own
denominations.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..errors import ValidationError

#: denominations of each chip set, smallest first (chips in the table's currency unit)
CHIP_SETS: dict[str, tuple[int, ...]] = {
    "standard": (1, 5, 25, 100, 500, 1000, 5000),
    "high-limit": (25, 100, 500, 1000, 5000, 10_000, 25_000),
}
DEFAULT_CHIP_SET = "standard"
#: more chips of one denomination than any rack holds: a slip of the finger
MAX_CHIPS = 100_000


def denominations(chip_set: str, sets: Mapping[str, tuple[int, ...]] | None = None
                  ) -> tuple[int, ...]:
    known = dict(sets or CHIP_SETS)
    if chip_set not in known:
        raise ValidationError("Unknown chip set '%(chip_set)s' (known: %(v)s).",
                              chip_set=chip_set, v=', '.join(known),
                              field="chip_set")
    return known[chip_set]


def count(chip_set: str, chips: Mapping[Any, Any], *, field: str = "chips") -> dict[int, int]:
    """``{denomination: chips}`` checked against the set: every denomination of the set is
    present (a missing one is 0), no other, each a whole number from 0 to :data:`MAX_CHIPS`.
    Errors name the denomination's field (``chips.25``)."""
    allowed = denominations(chip_set)
    given: dict[int, Any] = {}
    for key, value in chips.items():
        try:
            denom = int(key)
        except (TypeError, ValueError):
            raise ValidationError("'%(key)s' is not a chip denomination.", key=key,
                                  field=field) from None
        if denom not in allowed:
            raise ValidationError("The %(chip_set)s chip set has no %(denom)s chip (%(v)s).",
                                  chip_set=chip_set, denom=format(denom, ','),
                                  v=', '.join(f'{d:,}' for d in allowed),
                                  field=f"{field}.{key}")
        given[denom] = value
    out: dict[int, int] = {}
    for denom in allowed:
        n = given.get(denom, 0)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_CHIPS:
            raise ValidationError("The number of %(denom)s chips is a whole number from 0 "
                                  "to %(MAX_CHIPS)s.",
                                  denom=format(denom, ','), MAX_CHIPS=format(MAX_CHIPS, ','),
                                  field=f"{field}.{denom}")
        out[denom] = n
    return out


def total(chips: Mapping[int, int]) -> int:
    """The amount the chips are worth (exact integer arithmetic)."""
    return sum(denom * n for denom, n in chips.items())


def encode(chips: Mapping[int, int]) -> str:
    """Stored form: canonical JSON with the denominations as keys, smallest first."""
    return json.dumps({str(d): chips[d] for d in sorted(chips)}, separators=(",", ":"))


def decode(stored: str | None) -> dict[int, int]:
    """The stored chips (empty for a count entered as one amount before chip sets)."""
    return {int(k): int(v) for k, v in json.loads(stored).items()} if stored else {}

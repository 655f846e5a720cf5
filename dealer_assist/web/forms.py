"""Reading form fields into plain values; malformed input becomes a ``ValidationError``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

from flask import request

from ..rules.phrase import Phrase
from ..services.errors import ValidationError

_INT_RE = re.compile(r"^[0-9]{1,18}$")


def text(name: str, *, max_length: int = 200) -> str:
    value = request.form.get(name, "")
    if len(value) > max_length:
        raise ValidationError("%(v)s is too long.", v=name.replace('_', ' ').capitalize(),
                              field=name)
    return value.strip()


def whole_number(name: str, label: str, form: Mapping[str, str] | None = None) -> int:
    """A non-negative whole number; spaces and thin separators (1 000) are allowed, decimals
    are not (money is an integer). ``form``: other fields than the request's form."""
    raw = (request.form if form is None else form).get(name, "").strip()
    raw = raw.replace(" ", "").replace("_", "").replace("'", "")
    if not _INT_RE.match(raw):
        raise ValidationError("%(label)s must be a whole number, e.g. 100.", label=Phrase(label),
                              field=name)
    if len(raw) > 18:  # beyond any table's bank, and beyond a 64-bit column
        raise ValidationError("%(label)s is too large.", label=Phrase(label), field=name)
    return int(raw)


def optional_date(name: str, label: str) -> date | None:
    raw = request.form.get(name, "").strip()
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise ValidationError("%(label)s must be a date like 2025-01-31.", label=Phrase(label),
                              field=name) from None

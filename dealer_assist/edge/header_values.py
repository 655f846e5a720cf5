"""Header values built from what a user chose, made safe in one place.

A pit named "Зал 1" went into the floor's ETag and waitress, which writes headers as latin-1,
failed on every ``GET /floor/cards``; a CR/LF in a pit or in a sign-in's ``next`` made Werkzeug
refuse the header. Every view that puts a user's value into a header uses these:

- :func:`etag`: an opaque tag, a digest of its parts (any text, any length, always the same tag
  for the same parts);
- :func:`attachment`: ``Content-Disposition`` with an ASCII ``filename`` and, when the name is
  not plain ASCII, the exact name as ``filename*`` (RFC 6266 / RFC 8187);
- a redirect target that stays on this site holds no control character either:
  ``refusals.same_site`` (Werkzeug IRI-encodes the rest of a ``Location``);
- :func:`encode_unsafe`: the last net, run on every answer by ``headers.secure_headers``: any
  header value that is not printable ASCII is percent-encoded (UTF-8) instead of failing.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import quote

#: printable ASCII but ``%`` (kept literally by :func:`safe`'s percent-encoding)
_PRINTABLE = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != "%")
_FILENAME_FALLBACK = re.compile(r"[^A-Za-z0-9._-]+")


def is_safe(value: str) -> bool:
    """Printable ASCII only: what every HTTP client and waitress's latin-1 accept as is."""
    return value.isascii() and value.isprintable()


def safe(value: str) -> str:
    """``value`` unchanged when it is printable ASCII, else percent-encoded as UTF-8 (a line
    break becomes ``%0D%0A``: never a second header)."""
    return value if is_safe(value) else quote(value, safe=_PRINTABLE)


def etag(*parts: object) -> str:
    """A strong ETag for the parts: their digest, so any text may be a part."""
    joined = "\x1f".join(str(p) for p in parts)
    return '"' + hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()[:32] + '"'


def attachment(filename: str) -> str:
    """``attachment; filename="..."``: the name itself when it is plain, else an ASCII fallback
    with the exact UTF-8 name as ``filename*``."""
    plain = _FILENAME_FALLBACK.sub("-", filename).strip("-") or "download"
    if plain == filename:
        return f'attachment; filename="{filename}"'
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"


def encode_unsafe(response: Any) -> None:
    """The last net: every header value that is not printable ASCII is percent-encoded."""
    unsafe = {name for name, value in response.headers.items() if not is_safe(value)}
    for name in unsafe:  # setlist keeps every value of a repeated header (Set-Cookie)
        response.headers.setlist(name, [safe(v) for v in response.headers.getlist(name)])

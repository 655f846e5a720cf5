"""Argon2id password hashing (argon2-cffi) and one-time passwords.

The hasher's cost is process-wide: :func:`configure` is called by the app factory from
``ARGON2_TIME_COST``/``ARGON2_MEMORY_KIB`` (tests lower them). Hashes made with older parameters
are upgraded at the next successful login (``needs_rehash``).
"""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn  # type: ignore[import-untyped]

from ..errors import ValidationError

_hasher = PasswordHasher()
#: no 0/O, 1/l/I: one-time passwords are read aloud and typed on a tablet
OTP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
#: a valid hash of a random password, verified against when the username is unknown so that
#: the response time does not tell which usernames exist
_DUMMY_HASH: str | None = None


def configure(*, time_cost: int, memory_kib: int) -> None:
    global _hasher, _DUMMY_HASH
    if (_hasher.time_cost, _hasher.memory_cost) != (time_cost, memory_kib):
        _hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)
        _DUMMY_HASH = None


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def burn_time(password: str) -> None:
    """Spend as long as a real verification (unknown username)."""
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = _hasher.hash(secrets.token_hex(16))
    verify_password(_DUMMY_HASH, password)


def one_time_password() -> str:
    """Four groups of four from a 31-letter alphabet: about 79 bits, easy to read out."""
    groups = ("".join(secrets.choice(OTP_ALPHABET) for _ in range(4)) for _ in range(4))
    return "-".join(groups)


#: words anyone guessing a password here would try first (ASVS 6.2.11 context words)
CONTEXT_WORDS = ("dealer", "assist", "dealerassist", "dealer_assist", "casino", "croupier",
                 "pitboss", "poker", "roulette", "table", "shift")
#: zxcvbn's estimate (log10 of guesses) below which a password counts as common or guessable:
#: 10^8 guesses is its score 3, "safely unguessable: moderate protection from offline attacks"
MIN_GUESSES_LOG10 = 8.0
#: zxcvbn refuses (``ValueError``) a password longer than this; a longer one is judged by its
#: first 72 characters: a guesser who cannot guess those cannot guess the whole, and one that is
#: weak in its first 72 (``aaaa...``) is refused, so the reading is never kinder than the whole
ESTIMATE_LENGTH = 72


def check_policy(password: str, *, username: str, min_length: int,
                 context: tuple[str, ...] = ()) -> None:
    """Length is what matters (NIST SP 800-63B); no composition rules. But a long password can
    still be common, repetitive or made of the user's own name (ASVS 6.2.4, 6.2.11): zxcvbn
    (its bundled frequency lists: passwords, English words, names, keyboard patterns; no
    network) estimates how many guesses it takes, with the username, display name and the
    casino's words as context. At most 256 characters; the strength of a longer one than
    zxcvbn takes is judged on its first :data:`ESTIMATE_LENGTH`."""
    if len(password) < min_length:
        raise ValidationError("The new password needs at least %(min_length)s characters.",
                              min_length=min_length,
                              field="new_password")
    if len(password) > 256:
        raise ValidationError("The new password is too long (256 characters at most).",
                              field="new_password")
    if password.strip().lower() == username.strip().lower():
        raise ValidationError("The password cannot be the username.", field="new_password")
    words = [w for w in (username, *context, *CONTEXT_WORDS) if w]
    estimate = zxcvbn(password[:ESTIMATE_LENGTH], user_inputs=words)
    if float(estimate["guesses_log10"]) < MIN_GUESSES_LOG10:
        hint = (estimate.get("feedback") or {}).get("warning") or "it is too easy to guess"
        raise ValidationError("Choose a less guessable password: %(v)s. A few unrelated "
                              "words make a strong one.",
                              v=hint.rstrip('.'), field="new_password")

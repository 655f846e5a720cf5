"""Layered configuration: defaults, then ``instance/config.py``, then ``DEALER_ASSIST_*``
environment variables (plus ``DATABASE_URL``), then the test mapping."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from datetime import tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from flask import Flask, current_app

PROJECT_ROOT = Path(__file__).resolve().parent.parent
ENV_PREFIX = "DEALER_ASSIST_"


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "DATABASE_URL": "sqlite:///" + os.path.join(instance_path, "dealer_assist.sqlite3"),
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "MAX_CONTENT_LENGTH": 1024 * 1024,
        "JSON_SORT_KEYS": False,
        # SQLite: how long a writer waits for the lock before "database is locked" (ms)
        "SQLITE_BUSY_TIMEOUT_MS": 5000,
        # log a croupier out after this many idle minutes (checked server-side on each request)
        "IDLE_TIMEOUT_MINUTES": 30,
        # ... and after this many minutes however busy (a 12-hour shift plus handover)
        "SESSION_LIFETIME_MINUTES": 13 * 60,
        # a one-time password set by an administrator stops working after this many hours
        "OTP_LIFETIME_HOURS": 72,
        # failed logins from one address across all usernames before it is throttled too
        "LOGIN_MAX_FAILURES_PER_IP": 20,
        # login throttling per username+IP: lock after this many failures, for a delay that
        # doubles with each further failure, from the base up to the cap (seconds)
        "LOGIN_MAX_FAILURES": 5,
        "LOGIN_LOCK_BASE_SECONDS": 30,
        "LOGIN_LOCK_MAX_SECONDS": 15 * 60,
        "PASSWORD_MIN_LENGTH": 10,
        # PIN guesses, like logins: per account on one device, per account across
        # devices, per device across accounts (the lock times are the login's)
        "PIN_MAX_FAILURES": 5,
        "PIN_MAX_FAILURES_PER_ACCOUNT": 10,
        "PIN_MAX_FAILURES_PER_DEVICE": 20,
        # the pit's live floor (docs/operations.md): how often it asks for news, and its alerts
        "FLOOR_POLL_SECONDS": 2,
        # build the lab's tables the decisions judge needs at start-up (about
        # 18 s of CPU; false: on first use, e.g. for servers the load tests start and kill)
        "WARM_LAB": True,
        "FLOOR_PAYOUT_ALERT": 10_000,
        "FLOOR_ALERT_WINDOW_MINUTES": 30,
        "FLOOR_IDLE_MINUTES": 15,
        "FLOOR_BREAK_WINDOW_MINUTES": 120,
        # the cage. The notes the soft count is entered in (the currency's units,
        # largest first); the drop variance above which the count needs a note (NJ reads $25
        # and $100 as report levels: a casino setting, not a constant); the hold band in basis
        # points, base +- points ("games": {"russian": [base, points]} per game)
        "CASH_DENOMINATIONS": [5000, 2000, 1000, 500, 200, 100, 50, 10],
        "DROP_VARIANCE_NOTE_THRESHOLD": 100,
        # how many members of the count team sign a soft count (at least two; Nevada
        # and Mississippi require three)
        "COUNT_TEAM_SIGNERS": 2,
        "HOLD_BAND": {"mode": "points", "base_bp": 2000, "points_bp": 1000},
        # Argon2id cost (argon2-cffi's RFC 9106 low-memory profile); tests lower it
        "ARGON2_TIME_COST": 3,
        "ARGON2_MEMORY_KIB": 64 * 1024,
        # the gaming day starts at this local hour (a 4 a.m. round belongs to the previous day)
        "GAMING_DAY_START_HOUR": 6,
        # IANA zone of the casino floor; empty means the server's local zone
        "TIMEZONE": "",
        # the public calculators (no login): a limit per anonymous client address (Flask-Limiter
        # syntax; counters in Redis when REDIS_URL is set, shared by every process and machine,
        # else in this process's memory; RATELIMIT_ENABLED=false turns it off) and the most
        # Monte Carlo samples one split/suggest call may ask for
        "PUBLIC_API_RATE_LIMIT": "60 per minute",
        "RATELIMIT_ENABLED": True,
        "SPLIT_MAX_SAMPLES": 50_000,
        # the pages' language when neither the user's profile nor the browser names one
        "BABEL_DEFAULT_LOCALE": "en",
        # ISO 4217 currency of a table that names none (the seeds quote stakes in roubles)
        "DEFAULT_CURRENCY": "RUB",
    }


def load_config(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """Apply the four layers in order; later layers win."""
    app.config.from_mapping(defaults(app.instance_path))
    app.config.from_pyfile("config.py", silent=True)
    for key, raw in os.environ.items():
        if key.startswith(ENV_PREFIX):
            app.config[key[len(ENV_PREFIX):]] = _parse_env(raw)
    for key in ("DATABASE_URL", "REDIS_URL"):  # as hosting providers name them
        if os.environ.get(key):
            app.config[key] = os.environ[key]
    if test_config:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app.instance_path)


def floor_zone() -> tzinfo | None:
    """The casino floor's time zone (``TIMEZONE``), or None for the server's local zone (the
    pages and the command line read it alike)."""
    name = current_app.config.get("TIMEZONE") or ""
    return ZoneInfo(name) if name else None


def _parse_env(raw: str) -> Any:
    """``true``/``123``/``["a"]`` become JSON values; anything else stays a string."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _instance_secret(instance_path: str) -> str:
    """A per-installation secret key, generated once and kept in ``instance/secret_key``."""
    path = Path(instance_path) / "secret_key"
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    return key

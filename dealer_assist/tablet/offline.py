"""The one entry the tablet's worker calls: ``handle(op, args_json) -> str`` (JSON in, JSON out).

A placeholder until the offline engine lands: it answers ``ping`` only (the runtime's test)."""

from __future__ import annotations

import json
import sys


def handle(op: str, args_json: str) -> str:
    """Answer ``op`` with ``args_json`` (a JSON object) as a JSON document."""
    json.loads(args_json or "{}")
    if op == "ping":
        return json.dumps({"pong": True, "python": sys.version})
    return json.dumps({"error": "unknown-op", "op": op})

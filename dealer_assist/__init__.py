"""dealer_assist: casino dealer-assist and audit tool.

``create_app`` is imported lazily (PEP 562) so that ``import dealer_assist.rules`` — the pure
rules engine — never drags Flask, SQLModel or WeasyPrint into the process.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        # import_module rather than a from-import: mypy on the rules engine does not follow it
        return import_module(".app", __name__).create_app
    raise AttributeError(f"module 'dealer_assist' has no attribute {name!r}")

"""dealer_assist: casino dealer-assist and audit tool."""

from .app import create_app

__all__ = ["create_app"]

"""Errors of requests that no blueprint owns: an unknown route (404), a wrong method (405), a
static file, input refused before routing. The blueprints' own handlers (:mod:`.problems`,
:mod:`.pages`) answer everything else; here the path decides which of the two sets answers, so
an unknown ``/api/...`` route is still a JSON problem body and never an HTML page."""

from __future__ import annotations

from typing import Any

from flask import Flask

from . import pages, problems
from .status import is_api


def _handle(err: Exception) -> Any:
    """The most specific handler of the API's set under ``/api/``, of the pages' elsewhere.
    None for a ``RulesError`` on a page: the web catches its own, so reaching here is a bug
    (re-raised: Flask logs it and answers 500)."""
    handlers = problems.HANDLERS if is_api() else pages.HANDLERS
    for cls in type(err).__mro__:
        if cls in handlers:
            return handlers[cls](err)
    raise err


def init_app(app: Flask) -> None:
    for cls in problems.HANDLERS:
        app.register_error_handler(cls, _handle)

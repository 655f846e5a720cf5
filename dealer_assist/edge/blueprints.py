"""The two kinds of blueprint, each with its error handlers registered on itself:
a page blueprint answers a failure with the error page (:mod:`.pages`), the API blueprint with
a problem body (:mod:`.problems`). A view therefore needs no ``if request.path...`` to know how
to fail, and ``web`` and ``api`` share the edge instead of importing each other."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from . import pages, problems


class PageBlueprint(Blueprint):
    """A blueprint of server-rendered pages."""

    def __init__(self, name: str, import_name: str, **options: Any) -> None:
        super().__init__(name, import_name, **options)
        pages.register(self)


class ApiBlueprint(Blueprint):
    """A blueprint of the JSON API: every failure is an RFC 9457 problem body."""

    def __init__(self, name: str, import_name: str, **options: Any) -> None:
        super().__init__(name, import_name, **options)
        problems.register(self)

"""The two kinds of blueprint, each with its error handlers registered on itself:
a page blueprint answers a failure with the error page (:mod:`.pages`), the API blueprint with
a problem body (:mod:`.problems`). A view therefore needs no ``if request.path...`` to know how
to fail, and ``web`` and ``api`` share the edge instead of importing each other. Every view is
registered inside the request's unit of work (:func:`.unit.unit_of_work`): the edge, not the
view, commits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint

from . import pages, problems
from .unit import unit_of_work


class _Unit(Blueprint):
    """Each view registered inside the request's unit of work."""

    def add_url_rule(self, rule: str, endpoint: str | None = None,
                     view_func: Callable[..., Any] | None = None,
                     provide_automatic_options: bool | None = None, **options: Any) -> None:
        if view_func is not None:
            view_func = unit_of_work(view_func)
        super().add_url_rule(rule, endpoint, view_func, provide_automatic_options, **options)


class PageBlueprint(_Unit):
    """A blueprint of server-rendered pages."""

    def __init__(self, name: str, import_name: str, **options: Any) -> None:
        super().__init__(name, import_name, **options)
        pages.register(self)


class ApiBlueprint(_Unit):
    """A blueprint of the JSON API: every failure is an RFC 9457 problem body."""

    def __init__(self, name: str, import_name: str, **options: Any) -> None:
        super().__init__(name, import_name, **options)
        problems.register(self)

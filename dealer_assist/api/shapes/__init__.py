"""The JSON API's shapes: pydantic models of every request body and answer.

One source: the same classes read the request bodies (:func:`parse`, through the views'
``operations.parsed``) and produce the OpenAPI document's ``components`` (``api/openapi.py``).
A request shape is the one reader of its body: it runs the engine's field readers (a broken
rule, and any type the engine checks itself, keeps its 422 problem body naming the field),
then its own check (a body the engine accepted but that breaks the documented shape is a 400
naming the field), and hands the view what the readers read (``.got``). The answers are built
by their shapes too (``operations.answer``).
"""

from __future__ import annotations

from . import house, lab, parlour, players, poker, problems, rounds
from .base import Request, Shape, field_path, parse, read_body

__all__ = ["Request", "Shape", "field_path", "house", "lab", "parlour", "parse", "players",
           "poker", "problems", "read_body", "rounds"]

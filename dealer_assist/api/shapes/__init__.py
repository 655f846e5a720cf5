"""The JSON API's shapes: pydantic models of every request body and answer.

One source: the same classes check the request bodies (:func:`conform`, through the views'
``checked``) and produce the OpenAPI document's ``components`` (``api/openapi.py``). The rules
engine stays standard library and reads the same bodies with its own field readers: a broken
rule (and any type the engine checks itself) keeps its 422 problem body naming the field; a
body the engine accepted but that breaks the documented shape is a 400 naming the field.
"""

from __future__ import annotations

from . import house, lab, parlour, players, poker, problems, rounds
from .base import Shape, conform, field_path

__all__ = ["Shape", "conform", "field_path", "house", "lab", "parlour", "players", "poker",
           "problems",
           "rounds"]

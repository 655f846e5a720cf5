"""Sentences as a message id and values, so that the edge can say them in any language.

The engine never builds a sentence for a person: a reason line or an error message is a
:class:`Phrase`, a ``str`` whose text is the English rendering (what the JSON API, the stored
settlement and the logs carry) and which keeps its message id (``msgid``, a gettext
``%(name)s`` template) and its values. ``dealer_assist/wording.py`` translates it for the page,
the PDF and the CLI. A value may itself be a Phrase, a hand value or a category: the edge names
those in the reader's language too. Standard library only (the rules engine's rule).
"""

from __future__ import annotations

from typing import Any


class Phrase(str):
    """English text (``str(p)``) plus ``msgid``, ``plural``, ``n`` and ``params``."""

    msgid: str
    plural: str | None
    n: int | None
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> Phrase:
        return cls._make(msgid, None, None, params)

    @classmethod
    def counted(cls, singular: str, plural: str, n: int, /, **params: Any) -> Phrase:
        """A phrase whose wording depends on ``n`` (``%(num)d card`` / ``%(num)d cards``);
        Russian has three forms, which the catalog holds."""
        return cls._make(singular, plural, n, {"num": n, **params})

    @classmethod
    def _make(cls, msgid: str, plural: str | None, n: int | None,
              params: dict[str, Any]) -> Phrase:
        template = plural if plural is not None and n != 1 else msgid
        text = template % {k: english(v) for k, v in params.items()} if params else template
        obj = super().__new__(cls, text)
        obj.msgid, obj.plural, obj.n, obj.params = msgid, plural, n, params
        return obj

    def __add__(self, other: str) -> Phrase:
        """``why + cap_note``: the two parts stay translatable (an empty part is dropped)."""
        if not other:
            return self
        return Phrase("%(first)s%(second)s", first=self, second=other)

    def __radd__(self, other: str) -> Phrase:
        if not other:
            return self
        return Phrase("%(first)s%(second)s", first=other, second=self)

    def __reduce__(self) -> Any:
        """Copies and pickles (the table screen's cached rounds) keep the message id."""
        return (_rebuild, (str(self), self.msgid, self.plural, self.n, self.params))


def _rebuild(text: str, msgid: str, plural: str | None, n: int | None,
             params: dict[str, Any]) -> Phrase:
    obj = str.__new__(Phrase, text)
    obj.msgid, obj.plural, obj.n, obj.params = msgid, plural, n, params
    return obj


def english(value: Any) -> Any:
    """A value as the English text shows it: a hand or a category by its label."""
    if isinstance(value, Phrase):
        return str(value)
    label = getattr(value, "label", None)
    return label if isinstance(label, str) else value


class Lower:
    """A hand or category named in lower case inside a sentence ("... (two pairs) ...")."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    @property
    def label(self) -> str:
        return str(english(self.value)).lower()


def lower(value: Any) -> Lower:
    return Lower(value)


class Amount(int):
    """Money inside a sentence: English shows ``1,600`` (a true minus sign); the edge formats
    it by the reader's locale (``1 600``)."""

    __slots__ = ()

    @property
    def label(self) -> str:
        return f"{int(self):,}".replace("-", "\u2212")


class HandRef:
    """A hand named in a stored phrase: its category and cards (the edge names it)."""

    __slots__ = ("category", "cards")

    def __init__(self, category: str, cards: list[str]) -> None:
        self.category, self.cards = category, cards


def to_data(value: Any) -> Any:
    """A phrase (or one of its values) as plain JSON, so that a stored settlement's reasons can
    be said in another language later: ``{"id", "plural", "n", "args"}``."""
    from .ranking import Category

    if isinstance(value, Phrase):
        return {"id": value.msgid, "plural": value.plural, "n": value.n,
                "args": {k: _arg(v, Category) for k, v in value.params.items()}}
    return None


def _arg(value: Any, category: type) -> Any:
    if isinstance(value, Phrase):
        return {"phrase": to_data(value)}
    if isinstance(value, Amount):
        return {"amount": int(value)}
    if isinstance(value, Lower):
        return {"lower": _arg(value.value, category)}
    if isinstance(value, category):
        return {"category": str(value.value)}  # type: ignore[attr-defined]
    if hasattr(value, "category") and hasattr(value, "cards"):
        return {"hand": {"category": str(value.category.value),
                         "cards": [c.code for c in value.cards]}}
    return value if value is None or isinstance(value, int | str) else str(value)


def from_data(data: Any, text: str) -> str:
    """The phrase stored by :func:`to_data`, its English ``text`` as stored; ``text`` itself
    when there is none (settlements stored before phrases were)."""
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        return text
    obj = str.__new__(Phrase, text)
    obj.msgid, obj.plural, obj.n = data["id"], data.get("plural"), data.get("n")
    obj.params = {k: _back(v) for k, v in (data.get("args") or {}).items()}
    return obj


def _back(value: Any) -> Any:
    from .ranking import Category

    if not isinstance(value, dict):
        return value
    if "phrase" in value:
        return from_data(value["phrase"], "")
    if "amount" in value:
        return Amount(value["amount"])
    if "lower" in value:
        return Lower(_back(value["lower"]))
    if "category" in value:
        return Category(value["category"])
    if "hand" in value:
        return HandRef(value["hand"]["category"], list(value["hand"]["cards"]))
    return value

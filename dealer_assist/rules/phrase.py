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

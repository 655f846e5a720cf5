"""What the croupier enters for a step: the round describes itself, the screen draws it.

Every :class:`~.engine.Step` the engine offers carries its :class:`Input` list: which payload
field each one fills, what kind of control it is and its limits, with the catalog message id
of its label. One renderer (the table screen's, online from the server's answer) draws any step
from this description alone and sends the payload it describes: no screen knows a step type,
and a new step type or house game needs no screen code.

The kinds of input:

* ``cards``: cards tapped on the grid (or typed), ``count`` of them (``most`` when a second
  card may be asked for: the engine refuses the step with a ``CardCountError`` naming this
  field until enough are entered); ``auto``: the last card records the step;
* ``pick``: cards chosen among ``choices`` (the box's own cards), as many as one of
  ``counts``; ``rest``: the cards not picked fill that other field (a Big/Small split);
* ``number``: a whole number typed, ``low``..``high`` (``None``: no limit known yet), with
  ``quick`` values offered as one-tap fills;
* ``choice``: one of ``choices``, each a single tap that records the step (``labels`` says
  them; ``notes`` adds a figure, e.g. the fee of exchanging that many cards);
* ``boxes``: the boxes' stakes and players (``place``): the bets form, drawn between rounds.

A step with no input is one tap. ``Step.auto`` declares the steps the engine records by itself
(nothing to enter, nothing to decide: a deal with no card face up, a BET that is the box's only
choice left): the record path records them after the step that brought them, in the same
write.

Pure and standard library only, like the whole rules package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CARDS, PICK, NUMBER, CHOICE, BOXES = "cards", "pick", "number", "choice", "boxes"
KINDS = (CARDS, PICK, NUMBER, CHOICE, BOXES)


@dataclass(frozen=True, slots=True)
class Input:
    """One control of a step: the payload field it fills and its limits (see the module)."""

    kind: str
    name: str
    label: str = ""
    count: int = 0
    most: int = 0
    auto: bool = False
    #: ``pick``: card codes; ``choice``: the values themselves (a count stays a number)
    choices: tuple[Any, ...] = ()
    counts: tuple[int, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    notes: Mapping[str, int] = field(default_factory=dict)
    rest: str = ""
    #: ``cards``: as many as the cards picked in that ``pick`` input (exchange the discarded)
    count_from: str = ""
    low: int | None = None
    high: int | None = None
    quick: tuple[int, ...] = ()
    #: ``pick``: chosen before anything is tapped (the engine's suggestion)
    chosen: tuple[str, ...] = ()
    #: ``cards``: once they are in, the engine says the step again knowing them
    #: (``Game.refine_step``: the insurance's limit is the presumptive payout of the hand shown)
    refines: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "label": self.label}
        for name in ("count", "most", "auto", "rest", "count_from", "refines"):
            value = getattr(self, name)
            if value:
                out[name] = value
        for name in ("choices", "counts", "quick", "chosen"):
            value = getattr(self, name)
            if value:
                out[name] = list(value)
        if self.labels:
            out["labels"] = dict(self.labels)
        if self.notes:
            out["notes"] = dict(self.notes)
        if self.kind == NUMBER:
            out["low"], out["high"] = self.low, self.high
        return out


def cards(name: str, label: str, count: int, *, most: int = 0, auto: bool = True,
          count_from: str = "", refines: bool = False) -> Input:
    """``count`` cards tapped (``most``: up to that many when the engine asks for more)."""
    return Input(CARDS, name, label, count=count, most=max(most, count), auto=auto,
                 count_from=count_from, refines=refines)


def boxes(label: str) -> Input:
    """The bets: each box's stakes and player (the table screen's bets form)."""
    return Input(BOXES, "boxes", label)


def pick(name: str, label: str, choices: Sequence[str], counts: Sequence[int], *,
         rest: str = "", chosen: Sequence[str] = ()) -> Input:
    """Some of ``choices`` picked (as many as one of ``counts``)."""
    return Input(PICK, name, label, choices=tuple(choices), counts=tuple(counts), rest=rest,
                 chosen=tuple(chosen))


def number(name: str, label: str, low: int | None, high: int | None,
           quick: Sequence[int | None] = ()) -> Input:
    """A whole number typed, ``low``..``high``, with one-tap ``quick`` values."""
    return Input(NUMBER, name, label, low=low, high=high,
                 quick=tuple(dict.fromkeys(v for v in quick if v is not None)))


def choice(name: str, label: str, values: Sequence[Any], labels: Mapping[str, str] | None = None,
           notes: Mapping[Any, int] | None = None) -> Input:
    """One tap per value: the value fills ``name`` and the step is recorded."""
    return Input(CHOICE, name, label, choices=tuple(values),
                 labels=dict(labels or {}), notes={str(k): v for k, v in (notes or {}).items()})


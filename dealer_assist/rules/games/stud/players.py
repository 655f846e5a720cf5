"""Who plays a box, and seed 001's rules for a player's boxes.

At ``place`` a box may name its player (``player``): ``{"seat": "A"}``, an anonymous player known
by the seat letter the croupier gives him, or ``{"card": "100234"}``, a rated player by his
player card. A box that names none is played by its ``seat`` (default: the box itself), as
rounds stored before were: the same key, so ``"seat": "A"`` and ``{"seat": "A"}`` are
one player.

The rules, read from the profile's :class:`~dealer_assist.rules.profiles.RoundTerms` (Russian
poker's defaults are RULES.md's, "People at the table"; the other house games have none):

* at most ``boxes_per_seat`` boxes per player, all with the same ANTE (``equal_antes``);
* with more than ``open_boxes`` boxes a player plays his ``open_boxes`` lowest-numbered boxes
  open (his first course) and the others "in the dark" (the second course): a dark box decides
  (an improvement, BET or fold) only once every box of his first course has decided.

Pure functions over the round's boxes; each refusal names the box's field (``player``, ``seat``,
``ante``, the decision's own field).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...errors import IllegalActionError, StakeError
from ...fields import RequestError, get_str, need_mapping
from ...phrase import Phrase

SEAT_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: a player card number: letters, digits and dashes, 1 to 20 (stored upper case)
CARD = re.compile(r"[0-9A-Z][0-9A-Z-]{0,19}")
CARD_MAX = 20


@dataclass(frozen=True, slots=True)
class Player:
    """A box's player: an anonymous seat letter or a rated player's card (exactly one)."""

    seat: str = ""
    card: str = ""

    @property
    def key(self) -> str:
        return f"card:{self.card}" if self.card else f"seat:{self.seat}"

    def said(self) -> Phrase:
        """How a refusal names him (the croupier sees the card number, never a name)."""
        if self.card:
            return Phrase("the player with card %(card)s", card=self.card)
        return Phrase("player %(seat)s", seat=self.seat)

    def to_dict(self) -> dict[str, str]:
        return {"card": self.card} if self.card else {"seat": self.seat}


def decode_player(data: Mapping[str, Any], path: str) -> Player | None:
    """A box's optional ``player`` object: one seat letter A-Z or one card number (either case;
    kept upper case)."""
    raw = data.get("player")
    if raw is None:
        return None
    where = f"{path}.player" if path else "player"
    body = need_mapping(raw, where)
    keys = sorted(k for k in body if body[k] is not None)
    if keys == ["seat"]:
        seat = get_str(body, "seat", where).strip().upper()
        if len(seat) != 1 or seat not in SEAT_LETTERS:
            raise RequestError("%(name)s is one letter from A to Z, got '%(got)s'",
                               name=f"{where}.seat", got=seat, field=f"{where}.seat",
                               value=seat)
        return Player(seat=seat)
    if keys == ["card"]:
        card = normal_card(get_str(body, "card", where))
        if not CARD.fullmatch(card):
            raise RequestError("%(name)s is a player card number: 1 to 20 letters, digits or "
                               "dashes, got '%(got)s'", name=f"{where}.card", got=card[:40],
                               field=f"{where}.card", value=card[:40])
        return Player(card=card)
    raise RequestError("%(name)s must hold exactly one of 'seat' or 'card'", name=where,
                       field=where, value=", ".join(map(str, keys)) or "none")


def normal_card(card: str) -> str:
    """A card number as stored: trimmed, upper case."""
    return card.strip().upper()


class Boxed(Protocol):
    """A box as these rules see it (a placed box or one being placed)."""

    @property
    def box(self) -> str: ...

    @property
    def seat(self) -> str: ...

    @property
    def ante(self) -> int: ...

    @property
    def player(self) -> Player | None: ...


def owner(b: Boxed) -> str:
    """The key of the box's player: its ``player``, else its ``seat``."""
    return b.player.key if b.player is not None else f"seat:{b.seat}"


def _named(b: Boxed) -> tuple[Phrase, str]:
    """How a refusal names the box's player, and the box's field that names him."""
    if b.player is not None:
        return b.player.said(), "player"
    return Phrase("seat %(seat)s", seat=b.seat), "seat"


def box_order(box: str) -> tuple[int, int, str]:
    """Boxes by number ("lowest-numbered"); a box named otherwise after, by name."""
    return (0, int(box), "") if box.isascii() and box.isdigit() and len(box) < 10 \
        else (1, 0, box)


def check_player_boxes(boxes: Sequence[Boxed], limit: int | None, equal_antes: bool) -> None:
    """The last box of ``boxes`` joins its player's others: the same ANTE on all of them (seed:
    "All bets of one player should be equal"), at most ``limit`` of them (seed: "The maximum
    number the boxes in the game - 4")."""
    new = boxes[-1]
    mine = [b for b in boxes if owner(b) == owner(new)]
    who, field = _named(new)
    named = new.player.card or new.player.seat if new.player is not None else new.seat
    if equal_antes and mine[0].ante != new.ante:
        raise StakeError("%(who)s: all his boxes must carry the same ANTE (%(expected)s), got "
                         "%(ante)s", who=who, expected=mine[0].ante, ante=new.ante,
                         field="ante", value=new.ante)
    if limit is not None and len(mine) > limit:
        raise IllegalActionError("%(who)s may play at most %(limit)s boxes", who=who,
                                 limit=limit, field=field, value=named)


def first_course(boxes: Sequence[Boxed], box: Boxed, open_boxes: int | None) -> tuple[str, ...]:
    """The boxes of the player's first course when ``box`` plays in the dark (seed: "in all four
    boxes, two of them play in a 'dark'"; RULES.md: his two lowest-numbered boxes are open);
    empty when ``box`` is played open."""
    if open_boxes is None:
        return ()
    mine = sorted((b for b in boxes if owner(b) == owner(box)), key=lambda b: box_order(b.box))
    if len(mine) <= open_boxes:
        return ()
    first = tuple(b.box for b in mine[:open_boxes])
    return () if box.box in first else first


def check_course(boxes: Sequence[Any], box: Any, open_boxes: int | None, field: str) -> None:
    """Seed: "At first you should make a decision on the first course of boxing distribution,
    then on the second": a dark box decides (an improvement, BET or fold) only once every box
    of its player's first course has."""
    waiting = waiting_for(boxes, box, open_boxes)
    if waiting:
        who, _field = _named(box)
        first = first_course(boxes, box, open_boxes)
        still = Phrase.counted("box %(boxes)s has not decided yet",
                               "boxes %(boxes)s have not decided yet", len(waiting),
                               boxes=", ".join(waiting))
        raise IllegalActionError(Phrase(
            "box %(box)s plays in the dark: %(who)s decides it after his first course (boxes "
            "%(first)s); %(still)s", box=box.box, who=who, first=", ".join(first),
            still=still), field=field, value=box.box)


def decided(b: Any) -> bool:
    """A box has decided: it improved, bet or folded."""
    return b.decision is not None or b.improvement is not None


def waiting_for(boxes: Sequence[Any], box: Any, open_boxes: int | None) -> list[str]:
    """The first-course boxes a dark box still waits for (empty: it may decide)."""
    first = first_course(boxes, box, open_boxes)
    return [b.box for b in boxes if b.box in first and not decided(b)]


def summary_of(boxes: Sequence[Any], box: Any, open_boxes: int | None) -> dict[str, Any]:
    """What a box's summary says of its player (only what there is: a round stored before
    shows exactly what it showed): ``player``, and for a dark box ``course`` 2 with
    the first-course boxes it ``waits_for``."""
    out: dict[str, Any] = {}
    if box.player is not None:
        out["player"] = box.player.to_dict()
    if first_course(boxes, box, open_boxes):
        out.update(course=2, waits_for=waiting_for(boxes, box, open_boxes))
    return out

"""The codec of the steps every house game shares: an event's JSON payload <-> step records.

Event types and payloads in dealing order (cards as codes)::

    place        {"boxes": [{"box": "1", "seat": "1", "ante": 100, "bonus": 0,
                             "player": {"seat": "A"} or {"card": "100234"}}, ...]}
                                                      (``player`` optional: ``players.py``)
    deal_dealer  {"up": [the face-up cards]}          (none in Russian poker by default)
    bet          {"box": "1", "amount": 200}          (amount defaults to the profile's BET)
    fold         {"box": "1"}
    reveal       {"cards": [the dealer's hole cards]}
    take_ante    {"box": "1"}
    buy_game     {"box": "1"}
    dealer_draw  {"cards": ["8c"]}                    (a second card for the free replacement)
    show         {"box": "1", "cards": [the final hand]}  (Big/Small free cards: plus "small")

All cards first (a card-reading shoe; rounds stored before dealing order) still replays:
``deal_box {"box", "cards": [5]}``, ``deal_dealer {"cards": [5]}``, ``reveal {}``. A payload is
decoded once into records; what is stored is their encoding (:func:`encode_shared`), the same
bytes for the same step whatever shape the tablet sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...cards import Card
from ...engine import Decoder
from ...fields import RequestError, get_cards, get_int, get_list, get_str, need_mapping
from .actions import (
    Bet,
    BuyGame,
    DealBox,
    DealDealer,
    DealerDraw,
    DealUp,
    Fold,
    PlaceBox,
    RevealDealer,
    Show,
    TakeAnte,
)
from .players import decode_player


def codes(cards: tuple[Card, ...]) -> list[str]:
    """Cards as their codes, as events store them."""
    return [c.code for c in cards]


def codes_with(out: dict[str, Any], name: str, cards: tuple[Any, ...]) -> dict[str, Any]:
    """``out`` with ``name``: the card codes, only when there are cards (optional fields)."""
    if cards:
        out[name] = [c.code for c in cards]
    return out


def value_of(hand: Any) -> dict[str, Any] | None:
    """A hand value as codes (category and its cards in order) for the edge to name it in the
    reader's language (``wording.hand_name``); the English ``label`` stays beside it."""
    if hand is None:
        return None
    return {"category": hand.category.value, "cards": [c.code for c in hand.cards]}


def box_of(p: Mapping[str, Any]) -> str:
    return get_str(p, "box")


def decode_place(state: Any, p: Mapping[str, Any]) -> tuple[PlaceBox, ...]:
    """One ``PlaceBox`` per listed box (seat defaults to the box; the bonus to 0). Whether a
    bonus is allowed is the engine's check, not the codec's."""
    raw = get_list(p, "boxes")
    if not raw:
        raise RequestError("boxes must list at least one box", field="boxes", value=0)
    out = []
    for i, item in enumerate(raw):
        path = f"boxes[{i}]"
        d = need_mapping(item, path)
        box = get_str(d, "box", path)
        out.append(PlaceBox(box, get_str(d, "seat", path, default=box), get_int(d, "ante", path),
                            get_int(d, "bonus", path, default=0), decode_player(d, path)))
    return tuple(out)


def decode_deal_dealer(state: Any, p: Mapping[str, Any]) -> tuple[DealDealer | DealUp]:
    """Dealing order ``{"up": [...]}`` (or ``{}``); all cards first ``{"cards": [5]}``."""
    if p.get("cards") is not None:
        return (DealDealer(get_cards(p, "cards")),)
    return (DealUp(get_cards(p, "up", default=[])),)


def decode_bet(state: Any, p: Mapping[str, Any]) -> tuple[Bet]:
    """``{"box", "amount"?}``: the amount defaults to the profile's BET for the box's ANTE."""
    box = box_of(p)
    ante = next((b.ante for b in state.boxes if b.box == box), 0)
    return (Bet(box, get_int(p, "amount", default=state.profile.bet_multiple * ante)),)


SHARED_DECODERS: dict[str, Decoder] = {
    "place": decode_place,
    "deal_box": lambda s, p: (DealBox(box_of(p), get_cards(p, "cards")),),
    "deal_dealer": decode_deal_dealer,
    "bet": decode_bet,
    "fold": lambda s, p: (Fold(box_of(p)),),
    "reveal": lambda s, p: (RevealDealer(get_cards(p, "cards", default=[])),),
    "take_ante": lambda s, p: (TakeAnte(box_of(p)),),
    "buy_game": lambda s, p: (BuyGame(box_of(p)),),
    "dealer_draw": lambda s, p: (DealerDraw(get_cards(p, "cards")),),
    "show": lambda s, p: (Show(box_of(p), get_cards(p, "cards"),
                               get_cards(p, "small", default=[])),),
}
"""Event type -> decoder, for the steps every house game shares."""


def encode_shared(a: Any, *, bonus: bool) -> dict[str, Any] | None:
    """The canonical payload of a shared record, or None for a game's own record. ``bonus``:
    the game's ``place`` payload carries each box's bonus (Russian poker)."""
    if isinstance(a, PlaceBox):
        out: dict[str, Any] = {"box": a.box, "seat": a.seat, "ante": a.ante}
        if bonus:
            out["bonus"] = a.bonus
        if a.player is not None:  # absent from what older rounds stored
            out["player"] = a.player.to_dict()
        return out
    if isinstance(a, DealBox):
        return {"box": a.box, "cards": codes(a.cards)}
    if isinstance(a, DealDealer | DealerDraw):
        return {"cards": codes(a.cards)}
    if isinstance(a, Bet):
        return {"box": a.box, "amount": a.amount}
    if isinstance(a, DealUp):
        return {"up": codes(a.cards)}
    if isinstance(a, RevealDealer):
        return codes_with({}, "cards", a.cards)
    if isinstance(a, Show):
        return codes_with({"box": a.box, "cards": codes(a.cards)}, "small", a.small)
    if isinstance(a, Fold | TakeAnte | BuyGame):
        return {"box": a.box}
    return None

"""The live round as a stored event stream: event codec, replay with undo, and the UI's next steps.

The live-table app stores each croupier step as an event ``(type, JSON payload)`` with cards as
codes (``["As", "Kd"]``). This module turns events back into the engine's action records and
folds them into a round state; it needs no I/O, so the service, the pages, the API and the
tests all replay a round the same way. One :class:`GameFlow` per game (``flow_russian``,
``flow_house``) knows its event types, and :func:`next_steps` is built from the engine's
``can_*`` functions only, so the UI never offers a button the engine would refuse.

Two meta events are not actions:

* ``undo`` ``{"cancels": seq}`` cancels the last effective step (the one with that sequence
  number; naming it makes a stale tablet's undo fail instead of undoing someone else's step).
  Nothing is deleted: replay simply skips the cancelled step. An undo is itself never undone.
* ``paid`` ``{}`` closes a settled round (and ``void`` a redealt one); they end the stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ..cards import Card
from ..errors import HouseRulesError, IllegalActionError, RulesError
from ..phrase import Phrase
from ..profiles import HouseProfile, get_profile, load_profile, profile_data, profile_hash
from ..request import RequestError, get_cards, get_int, get_list, get_str, need_mapping
from ..settlement import Settlement
from .actions import (
    Action,
    Bet,
    BuyGame,
    DealDealer,
    DealUp,
    Fold,
    PlaceBox,
    RevealDealer,
    Show,
    TakeAnte,
)
from .common import BoughtGame, Table
from .state import RoundState

Round: TypeAlias = RoundState[Any]
"""The seam's round: the one round state, of whichever game's profile (each flow knows its
own: ``RoundState[RussianProfile]``, ``RoundState[StudProfile]``)."""

UNDO, PAID, VOID = "undo", "paid", "void"
META_EVENTS = frozenset({UNDO, PAID, VOID})


@dataclass(frozen=True, slots=True)
class Event:
    """One stored event as the engine sees it: sequence number, type and JSON payload."""

    seq: int
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Step:
    """One legal step the UI may offer now (a button or a small form).

    ``cards``/``max_cards``: how many cards the croupier enters (0: a plain button); no step
    before the reveal asks for a card nobody at the table has seen (dealing order);
    ``discard``: the box's cards that may be discarded, with ``discard_counts`` the allowed
    numbers of them (for a Big/Small ``split``: the seven cards to choose the Small Hand
    from); ``amount``: a fixed stake (BET); ``min_amount``/``max_amount``: a stake
    the croupier types (insurance); ``modes``: choices (Big/Small extra cards); ``fees``:
    fee by number of cards (Oasis); ``suggest``: the engine can propose a split.
    """

    type: str
    box: str | None = None
    label: str = ""
    cards: int = 0
    max_cards: int = 0
    discard: tuple[str, ...] = ()
    discard_counts: tuple[int, ...] = ()
    amount: int | None = None
    min_amount: int | None = None
    max_amount: int | None = None
    modes: tuple[str, ...] = ()
    fees: Mapping[int, int] = field(default_factory=dict)
    suggest: bool = False
    #: ``show`` of a Big/Small box with free extra cards: the Small Hand's cards too
    small: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "label": self.label}
        if self.box is not None:
            out["box"] = self.box
        for name in ("cards", "max_cards", "amount", "min_amount", "max_amount", "small"):
            value = getattr(self, name)
            if value:
                out[name] = value
        if self.discard:
            out["discard"] = list(self.discard)
            out["discard_counts"] = list(self.discard_counts)
        if self.modes:
            out["modes"] = list(self.modes)
        if self.fees:
            out["fees"] = {str(k): v for k, v in self.fees.items()}
        if self.suggest:
            out["suggest"] = True
        return out


@dataclass(frozen=True, slots=True)
class Folded:
    """A replayed round: the state and the sequence numbers of its effective steps, in order."""

    state: Round
    steps: tuple[int, ...] = ()
    #: ``paid`` or ``void`` when the stream was closed, else None
    closed: str | None = None

    @property
    def last_step(self) -> int | None:
        return self.steps[-1] if self.steps else None


Decoder = Callable[[Round, Mapping[str, Any]], tuple[Action, ...]]


class GameFlow:
    """A game's live flow. Subclasses fill :attr:`decoders` and implement the hooks."""

    game: str = ""
    #: event type -> (state, payload) -> the engine actions it stands for (parse only)
    decoders: Mapping[str, Decoder] = {}

    # --- hooks ---------------------------------------------------------------------------
    def new_round(self, profile: HouseProfile, table: Table) -> Round:
        raise NotImplementedError

    def apply(self, state: Round, action: Action) -> Round:
        raise NotImplementedError

    def encode(self, action: Action) -> dict[str, Any]:
        """The canonical JSON payload of one action (cards as codes, amounts explicit)."""
        raise NotImplementedError

    def next_steps(self, state: Round) -> tuple[Step, ...]:
        raise NotImplementedError

    def can_settle(self, state: Round) -> bool:
        raise NotImplementedError

    def settle(self, state: Round) -> Settlement:
        raise NotImplementedError

    def summary(self, state: Round) -> dict[str, Any]:
        raise NotImplementedError

    def settle_ready(self, state: Round) -> Settlement | None:
        """The showdown so far: the settlement of the boxes whose result is known now (every
        box but those still to show their hand), so the croupier pays box by box; None
        before the reveal or while the dealer's cards are not complete."""
        return None

    def voided(self, state: Round) -> str | None:
        """Why the round was voided (a redeal), or None."""
        return None

    # --- the codec -----------------------------------------------------------------------
    def decode(self, state: Round, type: str, payload: Any) -> tuple[Action, ...]:
        """The actions an event stands for; ``RequestError`` for an unknown type or bad payload."""
        decoder = self.decoders.get(type)
        if decoder is None:
            known = ", ".join(sorted([*self.decoders, UNDO, PAID]))
            raise RequestError(f"unknown step '{type}' for {self.game} (known: {known})",
                               field="type", value=type)
        return decoder(state, need_mapping(payload, "payload"))

    def normalize(self, state: Round, type: str, payload: Any) -> dict[str, Any]:
        """The canonical payload of an event (what is stored and compared for idempotency)."""
        actions = self.decode(state, type, payload)
        if type == "place":
            return {"boxes": [self.encode(a) for a in actions]}
        return self.encode(actions[0]) if actions else {}

    def step(self, state: Round, type: str, payload: Any) -> Round:
        """Apply one event to ``state`` (every action verified by the engine). A refused box of
        a ``place`` names its place in the list (``boxes[1].bonus``), not just ``bonus``."""
        for i, action in enumerate(self.decode(state, type, payload)):
            try:
                state = self.apply(state, action)
            except RulesError as err:
                if type == "place":
                    raise err.at(f"boxes[{i}]") from None
                raise
        return state

    def replay(self, state: Round, events: Iterable[Event]) -> Folded:
        """Fold stored events into a state from the empty round ``state``, honouring undo."""
        history: list[tuple[int, Round]] = []
        closed: str | None = None
        for event in events:
            if closed is not None:
                raise IllegalActionError("the round was closed (%(closed)s) before event "
                                         "%(seq)s",
                                         closed=closed, seq=event.seq, field="type",
                                         value=event.type)
            if event.type == UNDO:
                check_undo(tuple(seq for seq, _ in history), event.payload)
                state = history.pop()[1]
            elif event.type in (PAID, VOID):
                closed = event.type
            else:
                history.append((event.seq, state))
                state = self.step(state, event.type, event.payload)
        return Folded(state, tuple(seq for seq, _ in history), closed)


def check_undo(steps: tuple[int, ...], payload: Mapping[str, Any]) -> None:
    """An undo names the last effective step; anything else is refused."""
    if not steps:
        raise IllegalActionError("there is no step to undo", field="cancels")
    cancels = get_int(need_mapping(payload, "payload"), "cancels")
    if cancels != steps[-1]:
        raise IllegalActionError("only the last step (%(v)s) can be undone, not step "
                                 "%(cancels)s; reload the round",
                                 v=steps[-1], cancels=cancels, field="cancels", value=cancels)


# --- the registry and a round's start --------------------------------------------------------

FLOWS: dict[str, GameFlow] = {}


def register_flow(flow: GameFlow) -> GameFlow:
    FLOWS[flow.game] = flow
    return flow


def get_flow(game: str) -> GameFlow:
    _load()
    flow = FLOWS.get(game)
    if flow is None:
        raise RulesError("no live table for game '%(game)s' (known: %(v)s)", game=game,
                         v=', '.join(sorted(FLOWS)),
                         field="game", value=game)
    return flow


def _load() -> None:
    """Import the game flows (they register themselves); late to avoid an import cycle."""
    from . import flow_house, flow_russian  # noqa: F401


def start(game: str, profile: str, min_ante: int, max_ante: int,
          max_payout: int) -> tuple[GameFlow, Round]:
    """The flow and the empty round of a table: its game, house-rules profile and limits."""
    return start_rules(round_rules(game, profile, min_ante, max_ante, max_payout))


def round_rules(game: str, profile: str, min_ante: int, max_ante: int,
                max_payout: int) -> dict[str, Any]:
    """What a round stores about itself when it starts: the game, the full house-rules profile
    as data with its hash, and the table limits in force. Replay reads only this."""
    get_flow(game)
    data = profile_data(get_profile(profile, game))
    limits = Table(min_ante, max_ante, max_payout).to_dict()
    return {"game": game, "profile": data, "profile_hash": profile_hash(data),
            "limits": limits}


def start_rules(rules: Mapping[str, Any]) -> tuple[GameFlow, Round]:
    """The flow and the empty round of a round's own stored rules (``round_rules``); a profile
    whose data no longer matches its hash is refused (the record was altered)."""
    rules = need_mapping(rules, "rules")
    flow = get_flow(get_str(rules, "game"))
    data = need_mapping(rules.get("profile"), "rules.profile")
    if profile_hash(data) != rules.get("profile_hash"):
        raise HouseRulesError("the round's stored profile does not match its hash",
                              field="profile_hash", value=str(rules.get("profile_hash")))
    house = load_profile(data)
    if house.game != flow.game:
        raise HouseRulesError("the round's profile is for %(game)s, not %(game2)s",
                              game=house.game, game2=flow.game,
                              field="profile.game", value=house.game)
    limits = need_mapping(rules.get("limits"), "rules.limits")
    table = Table(get_int(limits, "min_ante"), get_int(limits, "max_ante"),
                  get_int(limits, "max_payout"))
    return flow, flow.new_round(house, table)


def phase(steps: Iterable[Step], settled: bool) -> str:
    """A one-line heading for the table screen: what the croupier does now."""
    kinds = {s.type for s in steps}
    for names, title in (
        # dealing first: more boxes may still be placed until a card is dealt, but once bets are
        # down the croupier's job is the deal
        ({"deal_box"}, Phrase("Deal: enter the cards")),
        ({"deal_dealer"}, Phrase("Deal the cards")),
        ({"place"}, Phrase("Place the bets")),
        # offered once every box has bet or folded (insurance may still be placed)
        ({"reveal"}, Phrase("Reveal the dealer's hand")),
        ({"exchange", "sixth_card", "replace", "extra", "split", "bet", "fold", "insure"},
         Phrase("Players decide")),
        ({"buy_game"}, Phrase("Dealer has no game: take the ANTE or buy a game")),
        ({"take_ante"}, Phrase("Dealer has no game: take the ANTE")),
        ({"dealer_draw"}, Phrase("Dealer draws for the bought game")),
        ({"dealer_small"}, Phrase("Dealer's Small Hand")),
        ({"show"}, Phrase("Showdown: turn the hands over box by box")),
    ):
        if kinds & names:
            return title
    if "void" in kinds:
        return Phrase("Round voided by a redeal")
    return Phrase("Pay out") if settled else Phrase("Waiting")


def decode_place(state: Round, p: Mapping[str, Any]) -> tuple[PlaceBox, ...]:
    """The ``place`` event of every game: one ``PlaceBox`` per listed box (seat defaults to the
    box; the bonus to 0). Whether a bonus is allowed is the engine's check, not the codec's."""
    raw = get_list(p, "boxes")
    if not raw:
        raise RequestError("boxes must list at least one box", field="boxes", value=0)
    out = []
    for i, item in enumerate(raw):
        path = f"boxes[{i}]"
        d = need_mapping(item, path)
        box = get_str(d, "box", path)
        out.append(PlaceBox(box, get_str(d, "seat", path, default=box), get_int(d, "ante", path),
                            get_int(d, "bonus", path, default=0)))
    return tuple(out)


# --- the steps every house game shares, in dealing order (old shapes still accepted) ---------

def decode_deal_dealer(state: Round, p: Mapping[str, Any]) -> tuple[DealDealer | DealUp]:
    """Dealing order ``{"up": [...]}`` (or ``{}``); all cards first ``{"cards": [5]}``."""
    if p.get("cards") is not None:
        return (DealDealer(get_cards(p, "cards")),)
    return (DealUp(get_cards(p, "up", default=[])),)


def decode_reveal(state: Round, p: Mapping[str, Any]) -> tuple[RevealDealer]:
    """``{"cards": [the dealer's hole cards]}``; ``{}`` when all five were entered at the deal."""
    return (RevealDealer(get_cards(p, "cards", default=[])),)


def decode_show(state: Round, p: Mapping[str, Any]) -> tuple[Show]:
    """``{"box", "cards": [final hand]}`` (Big/Small free extra cards: plus ``"small"``)."""
    return (Show(get_str(p, "box"), get_cards(p, "cards"), get_cards(p, "small", default=[])),)


def value_of(hand: Any) -> dict[str, Any] | None:
    """A hand value as codes (category and its cards in order) for the edge to name it in the
    reader's language (``wording.hand_name``); the English ``label`` stays beside it."""
    if hand is None:
        return None
    return {"category": hand.category.value, "cards": [c.code for c in hand.cards]}


def bought_summary(bought: BoughtGame | None) -> dict[str, Any] | None:
    """The dealer's bought game as the screen announces it the moment he draws: the cards
    replaced and drawn, the new hand and whether it is a game (``None``: nothing bought yet)."""
    if bought is None:
        return None
    return {"replaced": codes(bought.replaced), "drawn": codes(bought.drawn),
            "cards": codes(bought.cards), "hand": bought.hand.label,
            "hand_value": value_of(bought.hand), "qualified": bought.qualified}


def codes(cards: tuple[Card, ...]) -> list[str]:
    """Cards as their codes, as events store them."""
    return [c.code for c in cards]


def box_of(p: Mapping[str, Any]) -> str:
    return get_str(p, "box")


def decode_bet(state: Round, p: Mapping[str, Any]) -> tuple[Bet]:
    """``{"box", "amount"?}``: the amount defaults to the profile's BET for the box's ANTE."""
    box = box_of(p)
    ante = next((b.ante for b in state.boxes if b.box == box), 0)
    return (Bet(box, get_int(p, "amount", default=state.profile.bet_multiple * ante)),)


def codes_with(out: dict[str, Any], name: str, cards: tuple[Any, ...]) -> dict[str, Any]:
    """``out`` with ``name``: the card codes, only when there are cards (optional fields)."""
    if cards:
        out[name] = [c.code for c in cards]
    return out


def encode_shared(a: Action) -> dict[str, Any] | None:
    """The canonical payload of a shared dealing-order record, or None for another record."""
    if isinstance(a, DealUp):
        return {"up": [c.code for c in a.cards]}
    if isinstance(a, RevealDealer):
        return codes_with({}, "cards", a.cards)
    if isinstance(a, Show):
        return codes_with({"box": a.box, "cards": [c.code for c in a.cards]}, "small", a.small)
    return None


def not_a_step(action: Action, game: str) -> IllegalActionError:
    """A record of another game reached this game's flow (a codec bug, never a croupier's)."""
    return IllegalActionError("%(name__)s is not a step of %(game)s",
                              name__=type(action).__name__, game=game, field="type",
                              value=type(action).__name__)


def encode_box_only(a: Action, game: str) -> dict[str, Any]:
    """The canonical payload of a shared record, or of a step that names only its box (fold,
    take the ANTE, buy a game); ``not_a_step`` for anything else."""
    shared = encode_shared(a)
    if shared is not None:
        return shared
    if isinstance(a, Fold | TakeAnte | BuyGame):
        return {"box": a.box}
    raise not_a_step(a, game)

"""Every house game as a :class:`~dealer_assist.rules.engine.Game`: how a round starts from its
own stored rules, the codec, the steps the screen offers, and the stud games' summary.

:class:`HouseGame` is what Russian poker and the stud games share (their table is
``steps.SHARED`` plus their own steps); :class:`StudGame` is Caribbean stud, which Oasis
(``oasis.py``) and Big/Small (``split.py``) extend with their improvements. Russian poker's game
is ``russian/game.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ... import inputs as ask
from ...cards import Card
from ...engine import PAID, UNDO, Decoder, Game, Step, StepRule, not_a_step
from ...errors import HouseRulesError, RulesError
from ...evaluator import evaluate, evaluate_small
from ...fields import get_int, need_mapping
from ...phrase import Phrase
from ...profiles import HouseProfile, load_profile, profile_hash
from ...settlement import Settlement
from .actions import TakeAnte
from .codec import SHARED_DECODERS, codes, encode_shared, value_of
from .deal import FREE, State, can_bet, can_deal_dealer, can_fold, can_place_box
from .dealer import bought_summary
from .players import summary_of
from .settle import missing_hand, resolve_dealer
from .showdown import (
    ante_taken,
    can_buy_game,
    can_dealer_draw,
    can_reveal_dealer,
    can_show,
    can_take_ante,
)
from .state import BUY_GAME, BoxState, RoundState, evolve
from .steps import SHARED
from .table import Table


class HouseGame(Game[State]):
    """A banked house game: a round of boxes against the dealer, started from its stored rules
    (the game, the full profile as data with its hash, the table limits in force)."""

    decoders: Mapping[str, Decoder] = SHARED_DECODERS
    table: Mapping[type[Any], StepRule[Any, Any]] = SHARED
    list_events = {"place": "boxes"}
    meta_events = (UNDO, PAID)
    #: the ``place`` payload carries each box's bonus bet
    bonus_field = False

    def needless(self, state: State, actions: tuple[Any, ...]) -> bool:
        """A ``take_ante`` for a box whose ANTE the reveal already took (no game can be bought:
        Caribbean, Oasis): clients written before still send it."""
        return bool(actions) and all(isinstance(a, TakeAnte) and ante_taken(state, a.box)
                                     for a in actions)

    def new_round(self, profile: HouseProfile, table: Table) -> State:
        """The empty round a croupier starts with."""
        return RoundState(profile, table)

    def start(self, rules: Mapping[str, Any]) -> State:
        """The empty round of a round's own stored rules; a profile whose data no longer
        matches its hash is refused (the record was altered)."""
        rules = need_mapping(rules, "rules")
        data = need_mapping(rules.get("profile"), "rules.profile")
        if profile_hash(data) != rules.get("profile_hash"):
            raise HouseRulesError("the round's stored profile does not match its hash",
                                  field="profile_hash", value=str(rules.get("profile_hash")))
        house = load_profile(data)
        if house.game != self.name:
            raise HouseRulesError("the round's profile is for %(game)s, not %(game2)s",
                                  game=house.game, game2=self.name, field="profile.game",
                                  value=house.game)
        limits = need_mapping(rules.get("limits"), "rules.limits")
        return self.new_round(house, Table(get_int(limits, "min_ante"),
                                           get_int(limits, "max_ante"),
                                           get_int(limits, "max_payout")))

    def encode(self, action: Any) -> dict[str, Any]:
        shared = encode_shared(action, bonus=self.bonus_field)
        return shared if shared is not None else self.encode_own(action)

    def encode_own(self, action: Any) -> dict[str, Any]:
        """The canonical payload of one of the game's own records."""
        raise not_a_step(action, self.name)

    def can_settle(self, state: State) -> bool:
        return state.revealed and passes_settle(self, state)

    def settle_ready(self, state: State) -> Settlement | None:
        """The showdown so far: the settlement of the boxes whose result is known now (every
        box but those still to show their hand), so the croupier pays box by box; None
        before the reveal or while the dealer's cards are not complete."""
        if not state.revealed or state.voided:
            return None
        ready = tuple(b for b in state.boxes if not self.missing_hand(state, b))
        try:
            return self.settle(evolve(state, boxes=ready)) if ready else None
        except RulesError:
            return None

    def missing_hand(self, state: State, box: BoxState) -> bool:
        """Whether the showdown still needs this box's hand (it decides a payout)."""
        raise NotImplementedError

    # --- the steps the screen offers: built from the engine's ``can_*`` only --------------
    def next_steps(self, state: State) -> tuple[Step, ...]:
        s = state
        if s.voided:
            return (Step("void", None, "Close the voided round"),)
        out: list[Step] = []
        if can_place_box(s):
            out.append(Step("place", None, "Place the bets",
                            inputs=(ask.boxes("Place the bets"),)))
        if can_deal_dealer(s) and not any(b.cards for b in s.boxes):
            up = s.profile.terms().dealer_up_cards
            # nothing face up (Russian poker by default): nothing to enter, the deal records
            # itself after the bets (a declared follow-up, ``Step.auto``)
            out.append(Step("deal_dealer", None, "Dealer's face-up card" if up else "Deal",
                            cards=up, auto=not up,
                            inputs=(ask.cards("up", "Tap the dealer's face-up card.", up),)
                            if up else ()))
        for b in s.boxes:
            out += self.box_steps(s, b)
        if can_reveal_dealer(s):
            hole = 0 if s.dealer else s.profile.terms().hand_size - len(s.up)
            out.append(Step("reveal", None, "Reveal the dealer", cards=hole,
                            inputs=(ask.cards("cards", "Turn the dealer's hole cards over and "
                                              "tap them.", hole),) if hole else ()))
        if can_dealer_draw(s):
            two = s.profile.terms().free_second_replacement
            out.append(Step("dealer_draw", None, "Dealer's new card", cards=1,
                            max_cards=2 if two else 1,
                            inputs=(ask.cards("cards", "Tap the dealer's new card.", 1,
                                              most=2 if two else 1),)))
        return (*out, *self.game_steps(s))

    def box_steps(self, s: State, b: BoxState) -> list[Step]:
        """One box's steps; none asks for a card nobody at the table has seen."""
        out = self.improvement_steps(s, b)
        if can_bet(s, b.box):
            # the BET as the box's only step left (free extra cards, all five replaced) is no
            # decision: the engine records it by itself (``Step.auto``)
            forced = not out and not can_fold(s, b.box)
            out.append(Step("bet", b.box, "Bet", amount=s.profile.bet_multiple * b.ante,
                            auto=forced))
        if can_fold(s, b.box):
            out.append(Step("fold", b.box, "Fold"))
        out += self.side_steps(s, b)
        if can_take_ante(s, b.box):
            out.append(Step("take_ante", b.box, "Take ANTE"))
        if can_buy_game(s, b.box):
            out.append(Step("buy_game", b.box, "Buy game"))
        if self.missing_hand(s, b) and can_show(s, b.box):
            free = b.improvement is not None and b.improvement.kind == FREE
            small = s.profile.terms().small_hand if free else 0
            shown: tuple[ask.Input, ...] = (
                ask.cards("cards", "Turn the box's hand over and tap its cards.", s.hand_size(b)),)
            if small:
                shown += (ask.cards("small", "Then the 2 cards of its Small Hand.", small),)
            out.append(Step("show", b.box, "Show the hand", cards=s.hand_size(b),
                            small=small, inputs=shown))
        return out

    def improvement_steps(self, s: State, b: BoxState) -> list[Step]:
        """The game's own improvement steps for a box (before its decision)."""
        return []

    def side_steps(self, s: State, b: BoxState) -> list[Step]:
        """The game's own steps for a box that has decided (Russian insurance)."""
        return []

    def game_steps(self, s: State) -> list[Step]:
        """The game's own table steps (the dealer's Small Hand, a redeal)."""
        return []


def passes_settle(game: Game[State], state: State) -> bool:
    try:
        game.settle(state)
    except RulesError:
        return False
    return True


class StudGame(HouseGame):
    """A one-ANTE stud game (Caribbean stud, Oasis, Big/Small): its showdown and summary."""

    def missing_hand(self, state: State, box: BoxState) -> bool:
        if not state.revealed or box.folded or box.hand_known:
            return False
        try:
            return missing_hand(state, box, resolve_dealer(state))
        except RulesError:
            return False

    def summary(self, state: State) -> dict[str, Any]:
        s = state
        dealer = dealer_summary(s, lambda: s.dealer_qualified, lambda: _bought(s),
                                small=codes(s.dealer_small))
        return round_summary(self.name, s, dealer, [_box_summary(b, s) for b in s.boxes])


def round_summary(game: str, s: Any, dealer: dict[str, Any], boxes: list[dict[str, Any]],
                  voided: Any = None) -> dict[str, Any]:
    """A house round's summary (``Game.summary``): what every house game shows the same way,
    with the dealer's and each box's own (:func:`dealer_summary`, :func:`box_summary`)."""
    return {"game": game, "profile": s.profile.name, "table": s.table.to_dict(),
            "voided": voided, "dealer": dealer, "dealt": s.dealt, "boxes": boxes,
            "used": sorted(c.code for c in s.used)}


def dealer_summary(s: Any, qualified: Callable[[], bool], bought: Callable[[], Any],
                   **own: Any) -> dict[str, Any]:
    """The dealer's cards, and once revealed his hand, whether it qualifies and what a bought
    game gave him (``qualified``, ``bought``: each game's own reading); ``own``: the game's."""
    dealer: dict[str, Any] = {"cards": codes(s.dealer), "up": codes(s.up),
                              "revealed": s.revealed, "draw": codes(s.draw), **own}
    if s.revealed:
        dealer.update(hand=s.dealer_hand.label, hand_value=value_of(s.dealer_hand),
                      qualified=qualified(), bought=bought())
    return dealer


def box_summary(b: Any, s: Any, open_boxes: int | None, **own: Any) -> dict[str, Any]:
    """What every house game shows of a box; ``own``: the game's own fields."""
    hand = b.hand_cards
    value = evaluate(hand, s.profile.ranking) if b.hand_known else None
    return {
        "box": b.box, "seat": b.seat, "ante": b.ante, "cards": codes(b.cards), **own,
        "shown": codes(b.shown), "hand_cards": codes(hand) if b.hand_known else [],
        "hand": value.label if value else None, "hand_value": value_of(value),
        "decision": b.decision, "bet": b.bet, "no_game": b.no_game,
        "collected": collected_fees(b), **summary_of(s.boxes, b, open_boxes),
    }


def _bought(s: State) -> dict[str, Any] | None:
    """The dealer's new hand once he has drawn for a bought game."""
    if not s.draw:
        return None
    try:
        return bought_summary(resolve_dealer(s).bought)
    except RulesError:  # a buyer's choice still missing: the draw is not complete yet
        return None


def _box_summary(b: BoxState, s: State) -> dict[str, Any]:
    imp = b.improvement
    small = evaluate_small(b.small) if b.small else None
    return box_summary(
        b, s, s.profile.terms().open_boxes,
        improvement=None if imp is None else {
            "kind": imp.kind, "fee": imp.fee, "discard": codes(imp.discard),
            "cards": codes(imp.cards), "forces_bet": imp.forces_bet,
            "count": imp.replaced},
        big=codes(b.big), small=codes(b.small),
        small_hand=small.label if small else None, small_hand_value=value_of(small),
        buy_fee=b.buy_fee)


def collected_fees(b: BoxState) -> int:
    """The fees the box has paid into the tray so far: the improvement fee when the player
    asked for it, the buy-game fee when he bought (RULES.md, "People at the table")."""
    return b.improvement_fee + (b.buy_fee if b.no_game == BUY_GAME else 0)


#: what the table is doing, read from the steps offered, first match wins: (the step types,
#: the table screen's heading, the pit floor's stage code). Dealing first: more boxes may still
#: be placed until a card is dealt, but once bets are down the croupier's job is the deal; the
#: reveal is offered once every box has bet or folded (insurance may still be placed).
PHASES: tuple[tuple[frozenset[str], str, str], ...] = (
    (frozenset({"deal_box"}), Phrase("Deal: enter the cards"), "placing"),
    (frozenset({"deal_dealer"}), Phrase("Deal the cards"), "placing"),
    (frozenset({"place"}), Phrase("Place the bets"), "placing"),
    (frozenset({"reveal"}), Phrase("Reveal the dealer's hand"), "reveal"),
    (frozenset({"exchange", "sixth_card", "replace", "extra", "split", "bet", "fold", "insure"}),
     Phrase("Players decide"), "deciding"),
    (frozenset({"buy_game"}), Phrase("Dealer has no game: take the ANTE or buy a game"),
     "reveal"),
    (frozenset({"take_ante"}), Phrase("Dealer has no game: take the ANTE"), "reveal"),
    (frozenset({"dealer_draw"}), Phrase("Dealer draws for the bought game"), "reveal"),
    (frozenset({"dealer_small"}), Phrase("Dealer's Small Hand"), "reveal"),
    (frozenset({"show"}), Phrase("Showdown: turn the hands over box by box"), "showdown"),
)


def phase(steps: Iterable[Step], settled: bool) -> str:
    """A one-line heading for the table screen: what the croupier does now."""
    kinds = {s.type for s in steps}
    for names, title, _stage in PHASES:
        if kinds & names:
            return title
    if "void" in kinds:
        return Phrase("Round voided by a redeal")
    return Phrase("Pay out") if settled else Phrase("Waiting")


def exchange_inputs(cards: Iterable[Card], counts: tuple[int, ...],
                    fees: Mapping[int, int] | None = None) -> tuple[ask.Input, ...]:
    """An exchange's (a replacement's) inputs: in dealing order the box's cards are unseen, so
    one tap says how many (with each number's fee); when they are known, the cards discarded
    are picked and the new ones tapped, as many."""
    known = tuple(codes(tuple(cards)))
    if not known:
        return (ask.choice("count", "How many cards", counts, notes=fees),)
    return (ask.pick("discard", "Tap the cards to discard, then the new cards.", known, counts),
            ask.cards("draw", "The new cards", 0, most=max(counts), auto=False,
                      count_from="discard"))

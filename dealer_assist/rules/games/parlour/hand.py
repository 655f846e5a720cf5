"""One whole hand of Parlour Americana, and the end-of-game deal.

:func:`play_hand` checks the deal (the whole pack exactly once across the hands and the extra
hand), puts the antes, settles the extra hand, the pool, the sections and the "Ante" play-out,
and returns the board to carry to the next hand and each player's net. Chips are conserved: the
players' nets and the board's change always sum to zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...cards import Card
from ...decks import STANDARD_52
from ...errors import CardCountError, DuplicateCardError, IllegalActionError, RulesError
from ...evaluator import HandValue, evaluate
from ...phrase import Phrase
from .betting import Action, BettingResult, run_betting
from .board import Board, SectionAward, antes_of, check_board, collect, put_antes, split_evenly
from .playout import Playout, play_out
from .profile import ANTE, VARIANTS, ParlourProfile


@dataclass(frozen=True, slots=True)
class ExtraHand:
    """``keep`` (the extra hand is dead), ``exchange`` (the dealer takes it) or ``sell``."""

    action: str
    buyer: str | None = None
    price: int = 0


@dataclass(frozen=True, slots=True)
class HandInput:
    profile: ParlourProfile
    variant: str
    players: tuple[str, ...]  # the dealer first, then clockwise
    board: Board  # before the antes
    hands: Mapping[str, tuple[Card, ...]]
    extra: tuple[Card, ...]
    extra_hand: ExtraHand
    betting: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class PoolResult:
    amount: int
    winners: tuple[str, ...]
    awards: Mapping[str, int]
    outcome: str
    shows: tuple[str, ...]
    labels: Mapping[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "winners": list(self.winners), "awards": dict(self.awards),
                "outcome": self.outcome, "shows": list(self.shows), "hands": dict(self.labels)}


@dataclass(frozen=True, slots=True)
class HandResult:
    antes: Mapping[str, int]
    held: Mapping[str, tuple[Card, ...]]
    dead: tuple[Card, ...]
    pool: PoolResult
    sections: Mapping[str, SectionAward]
    playout: Playout
    ante_won: int
    board_after: Board
    net: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        po = self.playout
        return {
            "antes": dict(self.antes),
            "held": {p: [c.code for c in cards] for p, cards in self.held.items()},
            "dead": [c.code for c in self.dead],
            "pool": self.pool.to_dict(),
            "sections": {name: a.to_dict() for name, a in self.sections.items()},
            "playout": {"plays": po.plays, "winner": po.winner, "paid_during": po.paid_during,
                        "payments": po.payments, "ante_won": self.ante_won},
            "board_after": self.board_after.to_dict(),
            "net": dict(self.net),
        }


def check_players(players: Sequence[str], profile: ParlourProfile) -> None:
    if not profile.min_players <= len(players) <= profile.max_players:
        raise RulesError("%(name)s is for %(min_players)s to %(max_players)s players, not "
                         "%(count)s", name=profile.name,
                         min_players=profile.min_players, max_players=profile.max_players,
                         count=len(players), field="players", value=len(players))
    seen: set[str] = set()
    for i, p in enumerate(players):
        if not p.strip() or p in seen:
            why = Phrase("is named twice") if p in seen else Phrase("has no name")
            raise RulesError("player %(v)s %(why)s", v=i + 1, why=why, field=f"players[{i}]",
                             value=p)
        seen.add(p)


def check_deal(players: Sequence[str], hands: Mapping[str, Sequence[Card]],
               extra: Sequence[Card]) -> None:
    """The whole pack dealt exactly once, one hand per player plus the extra hand, sizes within
    one card of each other (RULES.md: "hand sizes differ by at most one card")."""
    for name in hands:
        if name not in players:
            raise RulesError("hands names '%(name)s', who is not a player", name=name,
                             field=f"hands.{name}",
                             value=name)
    groups: dict[str, Sequence[Card]] = {}
    for p in players:
        if p not in hands:
            raise RulesError("%(p)s has no hand", p=p, field=f"hands.{p}", value=p)
        groups[f"hands.{p}"] = hands[p]
    groups["extra"] = extra
    _check_unique(groups)
    dealt = {c for cards in groups.values() for c in cards}
    missing = [c.code for c in STANDARD_52.cards if c not in dealt]
    if missing:
        raise RulesError("the whole pack must be dealt: %(v)s %(v2)s in no hand",
                         v=' '.join(missing), v2='is' if len(missing) == 1 else 'are',
                         field="hands", value=missing[0])
    sizes = {place: len(cards) for place, cards in groups.items()}
    small, big = min(sizes.values()), max(sizes.values())
    if big - small > 1:
        place = max(sizes, key=lambda k: sizes[k])
        raise CardCountError(big, f"{small} or {small + 1} (hand sizes differ by at most one)",
                             place).at(place)


def _check_unique(groups: Mapping[str, Sequence[Card]]) -> None:
    """A card named twice: the error names the card and the second place (``hands.Bob``)."""
    seen: dict[Card, str] = {}
    for place, cards in groups.items():
        for pos, card in enumerate(cards, start=1):
            if card in seen:
                raise DuplicateCardError(card.code, pos, Phrase(
                    "(%(first)s), named again in %(place)s", first=seen[card],
                    place=place)).at(place)
            seen[card] = place


def settle_extra(players: Sequence[str], hands: Mapping[str, tuple[Card, ...]],
                 extra: tuple[Card, ...], choice: ExtraHand
                 ) -> tuple[dict[str, tuple[Card, ...]], tuple[Card, ...], dict[str, int]]:
    """(the hands held after the extra-hand step, the dead hand, chips paid (+) or received)."""
    held = {p: hands[p] for p in players}
    dealer = players[0]
    paid = {p: 0 for p in players}
    if choice.action == "keep":
        return held, extra, paid
    if choice.action == "exchange":
        held[dealer] = extra
        return held, hands[dealer], paid
    if choice.action != "sell":
        raise RulesError("extra_hand.action must be keep, exchange or sell, not "
                         "'%(action)s'", action=choice.action, field="extra_hand.action",
                         value=choice.action)
    buyer = choice.buyer
    if buyer is None or buyer not in players or buyer == dealer:
        raise IllegalActionError("the extra hand is sold to a player other than the dealer, "
                                 "not '%(buyer)s'",
                                 buyer=buyer, field="extra_hand.buyer", value=buyer)
    if choice.price < 1:
        raise IllegalActionError("a bid for the extra hand is at least 1 chip",
                                 field="extra_hand.price", value=choice.price)
    held[buyer] = extra
    paid[buyer], paid[dealer] = choice.price, -choice.price
    return held, hands[buyer], paid


def best_hand(cards: Sequence[Card], profile: ParlourProfile) -> HandValue:
    """The best five cards of a hand of any size (the evaluator takes up to 17 at once)."""
    if len(cards) <= 17:
        return evaluate(cards, profile.ranking)
    return max(evaluate([c for c in cards if c is not left], profile.ranking) for left in cards)


def settle_pool(pool: int, betting: BettingResult, held: Mapping[str, Sequence[Card]],
                profile: ParlourProfile) -> PoolResult:
    """no bet: the pool stays; an uncalled bet takes it; else the best hand(s), odd chips stay."""
    if betting.outcome == "no_bet":
        return PoolResult(pool, (), {}, "no_bet", (), {})
    if betting.outcome == "uncalled":
        assert betting.last_raiser is not None
        return PoolResult(pool, (betting.last_raiser,), {betting.last_raiser: pool}, "uncalled",
                          (), {})
    values = {p: best_hand(held[p], profile) for p in betting.shows}
    top = max(values.values())
    winners = tuple(p for p in betting.shows if values[p] == top)
    shares, _odd = split_evenly(pool, winners)
    labels = {p: v.label for p, v in values.items()}
    return PoolResult(pool, winners, shares, "showdown", betting.shows, labels)


def play_hand(hand: HandInput) -> HandResult:
    """Settle one whole hand; a ``RulesError`` naming the card, player or bet otherwise."""
    profile, players = hand.profile, hand.players
    if hand.variant not in VARIANTS:
        raise RulesError("variant must be basic or clockwise, not '%(variant)s'",
                         variant=hand.variant,
                         field="variant", value=hand.variant)
    check_players(players, profile)
    board = check_board(hand.board, profile)
    check_deal(players, hand.hands, hand.extra)
    antes = antes_of(players, profile)
    board = put_antes(board, players, profile)
    held, dead, price = settle_extra(players, hand.hands, hand.extra, hand.extra_hand)
    betting = run_betting(players, hand.betting)
    pool = settle_pool(board.pool + sum(betting.contributions.values()), betting, held, profile)
    board = board.with_pool(pool.amount - sum(pool.awards.values()))
    board, sections = collect(board, held, players, profile)
    playout = play_out(players, held, dead, hand.variant)
    ante_won = board.sections[ANTE] + sum(playout.paid_during.values())
    board = board.add(ANTE, -board.sections[ANTE] + sum(playout.payments.values()))
    net = {p: -antes[p] - price[p] - betting.contributions[p] - playout.paid_during[p]
           - playout.payments.get(p, 0) + pool.awards.get(p, 0)
           + sum(a.awards.get(p, 0) for a in sections.values())
           + (ante_won if p == playout.winner else 0) for p in players}
    return HandResult(antes, held, dead, pool, sections, playout, ante_won, board, net)


@dataclass(frozen=True, slots=True)
class EndOfGame:
    winners: tuple[str, ...]
    awards: Mapping[str, int]
    labels: Mapping[str, str]
    left: int  # odd chips of a split, left on the board

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "awards": dict(self.awards),
                "hands": dict(self.labels), "left": self.left}


def end_of_game(board: Board, players: Sequence[str], hands: Mapping[str, Sequence[Card]],
                profile: ParlourProfile) -> EndOfGame:
    """Five cards face up to each player; the best hand wins every chip left on the board."""
    check_players(players, profile)
    _check_unique({f"hands.{p}": hands.get(p, ()) for p in players})
    values: dict[str, HandValue] = {}
    for p in players:
        if len(hands.get(p, ())) != 5:
            raise CardCountError(len(hands.get(p, ())), "5", f"hand of {p}").at(f"hands.{p}")
        values[p] = evaluate(hands[p], profile.ranking)
    top = max(values.values())
    winners = tuple(p for p in players if values[p] == top)
    shares, odd = split_evenly(board.total, winners)
    return EndOfGame(winners, shares, {p: v.label for p, v in values.items()}, odd)

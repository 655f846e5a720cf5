"""Americana stud: streets of up cards, the bring-in and the first to act (seed 000).

RULES.md: "Round 1: the highest up card (rank, then suit) must open with the bring-in or a
raise ... A player all in from the ante is passed over: the next highest card opens." and
"Rounds 2-4: the best shown hand (up cards only: pairs, two pairs, trips, quads count; straights
and flushes need five cards; then high cards; exact ties by suit, a pair against an equal pair by
the best suit in the pair) acts first".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ...cards import Card
from ...errors import DuplicateCardError, IllegalActionError
from ...phrase import Phrase
from ...ranking import Ranking
from .betting import begin_round
from .state import Action, HandState

STREETS = 4  # four betting rounds: after 2, 3, 4 and 5 cards


def shown_key(cards: Sequence[Card], ranking: Ranking) -> tuple[int, ...]:
    """Strength of some up cards: groups (quads > trips > two pairs > pair > high), ranks, suit.

    The suit digit is the best suit among the cards of the highest group: "exact ties by suit,
    a pair against an equal pair by the best suit in the pair"; for high cards it is the suit of
    the highest card.
    """
    counts = Counter(c.rank for c in cards)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    if shape[0] >= 2:
        category = {4: 5, 3: 4}.get(shape[0], 3 if shape[:2] == (2, 2) else 2)
    else:
        category = 1
    ranks = tuple(r for r, _ in groups)
    top = groups[0][0]
    suit = max(ranking.suit_strength(c.suit) for c in cards if c.rank == top)
    return (category, *ranks, suit)


def best_shown(state: HandState, candidates: Iterable[str]) -> str | None:
    """The candidate whose up cards rank highest (the opener in round 1, first to act later)."""
    ranking = state.profile.ranking
    pool = list(candidates)
    if not pool:
        return None
    return max(pool, key=lambda s: shown_key(state.up[s], ranking))


def known_cards(state: HandState) -> dict[Card, str]:
    """Every card seen in this hand and where: up cards of all players, shown hands."""
    seen: dict[Card, str] = {}
    for seat, cards in state.up.items():
        for card in cards:
            seen[card] = f"seat {seat}'s up cards"
    for seat, cards in state.shown.items():
        for card in cards:
            seen.setdefault(card, f"seat {seat}'s hand")
    return seen


def check_new_cards(state: HandState, cards: Iterable[tuple[str, Card]]) -> None:
    """Deck membership and uniqueness across the hand for cards the dealer enters now."""
    seen = known_cards(state)
    deck = state.profile.ranking.deck
    for place, card in cards:
        if card not in deck:
            raise IllegalActionError("%(card)s (%(place)s) is not in the %(name)s deck",
                                     card=card, place=place, name=deck.name,
                                     value=card.code)
        if card in seen:
            raise DuplicateCardError(card.code, None, Phrase("(%(first)s), named again for "
                                                            "%(place)s", first=seen[card],
                                                            place=place))
        seen[card] = place


def apply_street(state: HandState, action: Action) -> HandState:
    """The up cards of one street for every player still in; opens the next betting round."""
    if state.status != "street":
        raise IllegalActionError("no street is due now: the hand is at '%(status)s'",
                                 status=state.status)
    up = action.up or {}
    live = set(state.live)
    missing = [s for s in state.live if s not in up]
    extra = sorted(s for s in up if s not in live)
    if extra:
        raise IllegalActionError("seat %(v)s is not in the hand and gets no card",
                                 v=extra[0],
                                 value=extra[0])
    if missing:
        raise IllegalActionError("the street needs an up card for seat %(v)s", v=missing[0],
                                 value=missing[0])
    check_new_cards(state, ((f"seat {s}", up[s]) for s in state.live))
    new_up = {**state.up, **{s: (*state.up.get(s, ()), up[s]) for s in state.live}}
    round_no = len(new_up[state.live[0]])
    state = state.but(up=new_up)
    unit = state.stakes.unit(state.profile, round_no, 0)
    able = [s for s in state.live if state.can_put_in(s)]
    first = best_shown(state, able)
    state = begin_round(state, round_no, unit, first)
    if round_no == 1 and state.to_act is not None:
        state = state.but(opener=state.to_act, bring_in_seat=state.to_act)
    return state


def stud_show(state: HandState, seat: str, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The five cards of a stud hand from the hole card, or all five matching the up cards."""
    up = state.up.get(seat, ())
    if len(cards) == 1:
        check_new_cards(state, [(f"seat {seat}'s hole card", cards[0])])
        return (cards[0], *up)
    if len(cards) != len(up) + 1:
        raise IllegalActionError("seat %(seat)s shows his hole card (1 card) or all %(v)s "
                                 "cards, not %(count)s",
                                 seat=seat, v=len(up) + 1, count=len(cards), value=len(cards))
    hole = [c for c in cards if c not in up]
    if len(hole) != 1:
        raise IllegalActionError("the cards shown by seat %(seat)s do not match his up "
                                 "cards %(v)s", seat=seat,
                                 v=' '.join(c.code for c in up))
    check_new_cards(state, [(f"seat {seat}'s hole card", hole[0])])
    return (hole[0], *up)

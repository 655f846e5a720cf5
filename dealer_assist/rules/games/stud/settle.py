"""Settling the one-ANTE stud games: the dealer's outcome and the wagers every game shares.

Caribbean stud, Oasis and Big/Small settle a betting box differently against a qualified dealer
(``caribbean._compare``, ``split._compare``); everything else — the dealer's qualification and
bought game, "no game", folds, fees and the full list of wagers — is the same and lives here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...errors import CardCountError, IllegalActionError, RulesError
from ...evaluator import HandValue, evaluate, evaluate_small
from ...phrase import Phrase
from ...settlement import WAGER_NAMES, DealerResult, WagerResult
from .dealer import BoughtGame, buy_game, dealer_qualifies
from .profile import StudProfile
from .state import TAKE_ANTE, BoxState
from .state import RoundState as _RoundState
from .table import cap_amount

RoundState = _RoundState[StudProfile]
"""A Caribbean/Oasis/Big-Small round: the one round state with the stud games' house rules."""


@dataclass(frozen=True, slots=True)
class DealerOutcome:
    """The dealer's first hand, whether it qualifies, and the bought game (if any box bought)."""

    hand: HandValue
    qualified: bool
    bought: BoughtGame | None


def resolve_dealer(state: RoundState) -> DealerOutcome:
    """Qualification, and the one new dealer hand all buyers compare against."""
    if not state.revealed:
        raise IllegalActionError("settle after the dealer reveals his hand", field="dealer")
    profile = state.profile
    hand = state.dealer_hand
    qualified = dealer_qualifies(hand, profile.qualifier, profile.ranking)
    bought = None
    if not qualified:
        undecided = [i for i, b in enumerate(state.boxes) if b.betting and b.no_game is None]
        if undecided:
            i = undecided[0]
            raise IllegalActionError(
                "box %(box)s has not chosen between the ANTE and buying a game",
                box=state.boxes[i].box,
                field=f"boxes[{i}].on_no_game")
        if state.buyers:
            if not state.draw:
                raise CardCountError(0, "at least 1", "dealer draw").at("dealer.draw")
            try:
                bought = buy_game(state.dealer, state.draw, profile.ranking, profile.qualifier,
                                  free_second_replacement=profile.free_second_replacement)
            except RulesError as err:
                raise err.at("dealer") from None
    return DealerOutcome(hand, qualified, bought)


def missing_hand(state: RoundState, box: BoxState, outcome: DealerOutcome) -> bool:
    """Whether the box's hand decides a payout and is not known yet (it must be shown): still
    in against a dealer with a game, the first or the one it bought. A fold, an ANTE taken on
    "no game" or a bought game that found none need no hand."""
    if box.folded or box.hand_known:
        return False
    if outcome.qualified:
        return True
    return box.no_game != TAKE_ANTE and outcome.bought is not None and outcome.bought.qualified


def check_hands(state: RoundState, outcome: DealerOutcome) -> None:
    """Settle only when every hand that decides a payout was shown."""
    for i, box in enumerate(state.boxes):
        if missing_hand(state, box, outcome):
            raise IllegalActionError("box %(box)s has not shown its hand", box=box.box,
                                     field=f"boxes[{i}].cards", value=box.box)


def known_hand(state: RoundState, box: BoxState) -> HandValue | None:
    """The value of the box's hand, or None while it is face down (a fold, an ANTE taken)."""
    return evaluate(box.hand_cards, state.profile.ranking) if box.hand_known else None


def dealer_result(state: RoundState, outcome: DealerOutcome) -> DealerResult:
    """The settlement's record of the dealer: first hand, and the bought game if any."""
    bought = outcome.bought
    small = state.dealer_small
    return DealerResult(
        cards=state.dealer, hand=outcome.hand, qualified=outcome.qualified,
        bought=bought is not None,
        replaced=bought.replaced if bought else (), drawn=bought.drawn if bought else (),
        new_cards=bought.cards if bought else None, new_hand=bought.hand if bought else None,
        new_qualified=bought.qualified if bought else None,
        small=small, small_hand=evaluate_small(small) if small else None,
    )


def fee_wagers(box: BoxState, improvement_why: str) -> dict[str, WagerResult]:
    """The fees of a box (non-refundable, lost whatever happens), as wager results."""
    out: dict[str, WagerResult] = {}
    if box.improvement_fee:
        out["improvement_fee"] = WagerResult.lost("improvement_fee", box.improvement_fee,
                                                  improvement_why)
    if box.buy_fee:
        out["buy_game_fee"] = WagerResult.lost("buy_game_fee", box.buy_fee,
                                               Phrase("fee for buying the dealer a game: kept "
                                                      "by the house whatever happens"))
    return out


def no_game_wagers(state: RoundState, box: BoxState, outcome: DealerOutcome,
                   ) -> tuple[dict[str, WagerResult], bool] | None:
    """ANTE/BET of a betting box when the dealer has no game (``None``: it plays a game).

    Took the ANTE: ANTE paid at the no-game multiplier (1:1), BET returned. Bought a game and
    the dealer still has none: ANTE and BET returned. Otherwise the box compares its hand.
    The flag says whether the maximum payout capped the ANTE win.
    """
    if outcome.qualified:
        return None
    if box.no_game == TAKE_ANTE:
        mult = state.profile.no_game_ante_multiplier
        win, capped = cap_amount(box.ante * mult, state.table.max_payout)
        why = Phrase("dealer has no game (%(hand)s): ANTE paid %(mult)s:1",
                     hand=outcome.hand, mult=mult)
        if capped:
            why += Phrase(", capped at the maximum payout %(max_payout)s",
                          max_payout=state.table.max_payout)
        return ({"ante": WagerResult.won("ante", box.ante, win, why),
                 "bet": WagerResult.pushed("bet", box.bet,
                                           Phrase("dealer has no game: BET returned"))},
                capped)
    assert outcome.bought is not None
    if not outcome.bought.qualified:
        why = Phrase("bought game, dealer still has no game (%(hand)s): returned",
                     hand=outcome.bought.hand)
        return ({"ante": WagerResult.pushed("ante", box.ante, why),
                 "bet": WagerResult.pushed("bet", box.bet, why)}, False)
    return None


def folded_wagers(box: BoxState) -> dict[str, WagerResult]:
    return {"ante": WagerResult.lost("ante", box.ante, Phrase("folded: ANTE lost")),
            "bet": WagerResult.pushed("bet", 0, Phrase("folded: no BET placed"))}


def opponent(outcome: DealerOutcome) -> HandValue:
    """The dealer hand a playing box compares with: the bought one if the box bought."""
    return outcome.bought.hand if outcome.bought is not None else outcome.hand


def all_wagers(wagers: Mapping[str, WagerResult]) -> dict[str, WagerResult]:
    """Every wager of the API contract in its order; one not placed is a 0-stake push with an
    empty explanation (as in the Russian poker API; these games have no insurance or bonus)."""
    return {name: wagers.get(name) or WagerResult.pushed(name, 0, "") for name in WAGER_NAMES}

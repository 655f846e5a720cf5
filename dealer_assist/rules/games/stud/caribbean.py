"""Caribbean stud (profile ``caribbean-classic``) and the settlement it shares with Oasis poker.

RULES.md "Oasis poker and Caribbean stud" (source: Wizard of Odds, "Caribbean Stud Poker"):
"ANTE, raise = 2 x ANTE or fold. Dealer qualifies with AK or better. No game: ANTE 1:1, raise
returned. Player wins: ANTE 1:1 and raise by the pay table (AK/pair 1, two pair 2, trips 3,
straight 4, flush 5, full house 7, quads 20, straight flush 50, royal 100). Dealer wins: both
lose. Tie: push." The raise is the ``bet`` wager (BET = 2 x ANTE), as in the Russian poker API.

Oasis poker is the same game plus a paid card replacement before the decision; its profiles are
:class:`CaribbeanProfile` instances with a non-empty ``replace_fees`` (see ``oasis.py``).

Caribbean stud has only the steps every house game shares (``steps.py``); its game is
``game.CARIBBEAN``. This module holds its profile and its settlement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from ...errors import HouseRulesError, IllegalActionError
from ...evaluator import HandValue
from ...phrase import Phrase
from ...profiles import PayTable, check_bool, check_int, register_profile
from ...ranking import Category
from ...settlement import BoxSettlement, PaidCombination, Settlement, WagerResult
from .calculator import round_from_request
from .game import StudGame
from .profile import StudProfile
from .settle import (
    DealerOutcome,
    RoundState,
    all_wagers,
    check_hands,
    dealer_result,
    fee_wagers,
    folded_wagers,
    known_hand,
    no_game_wagers,
    opponent,
    resolve_dealer,
)
from .state import BoxState
from .table import apply_cap

C = Category

#: RULES.md: "AK/pair 1, two pair 2, trips 3, straight 4, flush 5, full house 7, quads 20,
#: straight flush 50, royal 100"
CLASSIC_RAISE_TABLE: dict[Category, int] = {
    C.royal_flush: 100, C.straight_flush: 50, C.four_of_a_kind: 20, C.full_house: 7,
    C.flush: 5, C.straight: 4, C.three_of_a_kind: 3, C.two_pairs: 2, C.one_pair: 1,
    C.ace_king: 1,
}


@dataclass(frozen=True, kw_only=True)
class CaribbeanProfile(StudProfile):
    """Caribbean stud / Oasis poker house rules. Fees are in units of the box's ANTE.

    ``replace_fees`` maps the number of cards replaced (1..5) to its fee; an empty schedule
    (Caribbean stud) allows no replacement, and a count missing from it is refused.
    """

    #: the games whose profiles this class makes (a new game played as Caribbean stud names
    #: its own in a subclass; the error below is about these two)
    GAMES: ClassVar[tuple[str, ...]] = ("caribbean", "oasis")

    game: str = "caribbean"
    pay_table: PayTable = field(default_factory=lambda: dict(CLASSIC_RAISE_TABLE))
    #: whether a winning box's ANTE is paid 1:1 as well (Caribbean: yes)
    ante_paid_on_win: bool = True
    replace_fees: Mapping[int, int] = field(default_factory=dict)
    #: replacing this many cards (all five) obliges the box to raise; 0 = never
    forced_raise_replacing: int = 0

    def validate(self) -> None:
        super().validate()
        if self.game not in self.GAMES:
            raise HouseRulesError("a Caribbean/Oasis profile must have game 'caribbean' or "
                                  "'oasis', got '%(game)s'",
                                  game=self.game, field="game", value=self.game)
        check_bool(self.ante_paid_on_win, "ante_paid_on_win")
        if not isinstance(self.replace_fees, Mapping):
            raise HouseRulesError("replace_fees must map a card count to a fee in ANTEs",
                                  field="replace_fees", value=type(self.replace_fees).__name__)
        fees: dict[int, int] = {}
        for count, fee in self.replace_fees.items():
            n = check_int(int(count) if isinstance(count, str) and count.isdigit() else count,
                          f"replace_fees.{count}", minimum=1, maximum=5)
            fees[n] = check_int(fee, f"replace_fees.{count}")
        self._set("replace_fees", MappingProxyType(dict(sorted(fees.items()))))
        check_int(self.forced_raise_replacing, "forced_raise_replacing", maximum=5)


CARIBBEAN_CLASSIC = CaribbeanProfile(name="caribbean-classic")
register_profile(CARIBBEAN_CLASSIC)


def settle(state: RoundState) -> Settlement:
    """Settle a revealed Caribbean stud or Oasis round (pure: same state, same result)."""
    outcome = resolve_dealer(state)
    check_hands(state, outcome)
    boxes = tuple(settle_box(state, box, outcome) for box in state.boxes)
    return Settlement(state.profile.game, state.profile.name, dealer_result(state, outcome),
                      boxes)


def settle_box(state: RoundState, box: BoxState, outcome: DealerOutcome) -> BoxSettlement:
    hand = known_hand(state, box)
    n = box.improvement.replaced if box.improvement else 0
    fees = fee_wagers(box, Phrase.counted(
        "fee for replacing %(num)d card: kept by the house whatever happens",
        "fee for replacing %(num)d cards: kept by the house whatever happens", n))
    combos: tuple[PaidCombination, ...] = ()
    capped = False
    if box.folded:
        wagers = folded_wagers(box)
    else:
        no_game = no_game_wagers(state, box, outcome)
        if no_game is not None:
            wagers, capped = no_game
        else:
            assert hand is not None  # check_hands
            wagers, combos, capped = _compare(state, box, hand, opponent(outcome))
    return BoxSettlement(box.box, box.seat, all_wagers({**wagers, **fees}), combos, capped, hand,
                         folded=box.folded, player=box.player_data)


def _compare(state: RoundState, box: BoxState, hand: HandValue, dealer: HandValue,
             ) -> tuple[dict[str, WagerResult], tuple[PaidCombination, ...], bool]:
    """A playing box against a qualified dealer hand."""
    profile = state.profile
    assert isinstance(profile, CaribbeanProfile)
    if hand < dealer:
        why = Phrase("%(dealer)s beats %(hand)s", dealer=dealer, hand=hand)
        return ({"ante": WagerResult.lost("ante", box.ante, why),
                 "bet": WagerResult.lost("bet", box.bet, why)}, (), False)
    if hand == dealer:
        why = Phrase("tie: %(hand)s against %(dealer)s, push", hand=hand, dealer=dealer)
        return ({"ante": WagerResult.pushed("ante", box.ante, why),
                 "bet": WagerResult.pushed("bet", box.bet, why)}, (), False)
    mult = profile.multiplier(hand.category)
    ante_mult = 1 if profile.ante_paid_on_win else 0
    (ante_win, bet_win), capped = apply_cap([box.ante * ante_mult, box.bet * mult],
                                            state.table.max_payout)
    cap_note = (Phrase(", capped at the maximum payout %(max_payout)s",
                       max_payout=state.table.max_payout) if capped else "")
    why = Phrase("%(hand)s beats %(dealer)s", hand=hand, dealer=dealer)
    wagers = {
        "ante": WagerResult.won("ante", box.ante, ante_win, Phrase("%(why)s: ANTE paid "
                                                                   "%(ante_mult)s:1",
                                                                   why=why,
                                                                   ante_mult=ante_mult)),
        "bet": WagerResult.won("bet", box.bet, bet_win, Phrase("%(why)s: raise paid "
                                                               "%(mult)s:1%(cap_note)s",
                                                               why=why, mult=mult,
                                                               cap_note=cap_note)),
    }
    combo = PaidCombination(hand.category, hand.significant, mult)
    return wagers, (combo,), capped


class CaribbeanGame(StudGame):
    """Caribbean stud: only the steps every house game shares."""

    name = "caribbean"

    def settle(self, state: RoundState) -> Settlement:
        return settle(state)


CARIBBEAN = CaribbeanGame()
apply = CARIBBEAN.apply


def _no_improvement(state: RoundState, index: int, body: Mapping[str, Any]) -> RoundState:
    """Caribbean stud has no improvement: one sent is refused, never silently ignored."""
    if body.get("improvement") is not None:
        raise IllegalActionError("Caribbean stud has no card replacement (that is Oasis poker)",
                                 field="improvement", value=None)
    return state


def settle_request(body: Mapping[str, Any]) -> Settlement:
    """``POST /api/v1/caribbean/settle``: one complete round in, its settlement out."""
    return settle(round_from_request(body, CARIBBEAN, CARIBBEAN_CLASSIC.name,
                                     improve=_no_improvement))

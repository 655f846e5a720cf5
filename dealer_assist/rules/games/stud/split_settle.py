"""Settling a Big/Small round (seed 004): Big Hands first, then the Small Hands decide whether
the BET or the ANTE is paid at the Big Hand's coefficient."""

from __future__ import annotations

from ...errors import CardCountError
from ...evaluator import HandValue, SmallHandValue, evaluate_small
from ...phrase import Phrase
from ...settlement import BoxSettlement, PaidCombination, Settlement, WagerResult
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
from .split_profile import SplitProfile
from .state import BoxState
from .table import apply_cap


def _profile(state: RoundState) -> SplitProfile:
    assert isinstance(state.profile, SplitProfile)
    return state.profile


def settle(state: RoundState) -> Settlement:
    """Settle a revealed Big/Small round (pure: same state, same result)."""
    outcome = resolve_dealer(state)
    check_hands(state, outcome)
    dealer_small = evaluate_small(state.dealer_small) if state.dealer_small else None
    boxes = tuple(settle_box(state, box, outcome, dealer_small) for box in state.boxes)
    return Settlement("split", state.profile.name, dealer_result(state, outcome), boxes)


def settle_box(state: RoundState, box: BoxState, outcome: DealerOutcome,
               dealer_small: SmallHandValue | None) -> BoxSettlement:
    hand = known_hand(state, box)
    small = evaluate_small(box.small) if box.small else None
    kind = box.improvement.kind if box.improvement else ""
    fees = fee_wagers(box, "fee for two bought extra cards: kept by the house whatever happens")
    combos: tuple[PaidCombination, ...] = ()
    capped = False
    if box.folded:
        wagers = folded_wagers(box)
    else:
        no_game = no_game_wagers(state, box, outcome)
        if no_game is not None:
            wagers, capped = no_game
        else:
            if dealer_small is None:
                raise CardCountError(0, "2", "dealer's Small Hand").at("dealer.small")
            assert hand is not None  # check_hands
            wagers, combos, capped = _compare(state, box, hand, small, opponent(outcome),
                                              dealer_small)
    notes = (Phrase("extra cards: %(kind)s", kind=kind),) if kind else ()
    return BoxSettlement(box.box, box.seat, all_wagers({**wagers, **fees}), combos, capped,
                         hand, small, box.folded, notes, box.player_data)


def _compare(state: RoundState, box: BoxState, big: HandValue, small: SmallHandValue | None,
             dealer: HandValue, dealer_small: SmallHandValue,
             ) -> tuple[dict[str, WagerResult], tuple[PaidCombination, ...], bool]:
    """A betting box against a dealer with a game: Big Hands first, then Small Hands."""
    profile = _profile(state)
    if big < dealer:
        why = Phrase("dealer's %(dealer)s beats the Big Hand %(big)s", dealer=dealer,
                     big=big)
        return ({"ante": WagerResult.lost("ante", box.ante, why),
                 "bet": WagerResult.lost("bet", box.bet, why)}, (), False)
    if big == dealer:
        why = Phrase("Big Hand %(big)s equals the dealer's: everything returned", big=big)
        return ({"ante": WagerResult.pushed("ante", box.ante, why),
                 "bet": WagerResult.pushed("bet", box.bet, why)}, (), False)
    coef = profile.multiplier(big.category)
    head = Phrase("Big Hand %(big)s beats %(dealer)s", big=big, dealer=dealer)
    if small is None:
        small_wins, reason = False, "no Small Hand"
    elif small == dealer_small:
        small_wins = profile.small_tie_to_player
        favour = ", in favour of the player" if small_wins else ""
        reason = Phrase("Small Hands equal (%(small)s)%(favour)s", small=small,
                        favour=favour)
    else:
        small_wins = small > dealer_small
        reason = (Phrase("Small Hand %(small)s %(v)s the dealer's %(dealer_small)s",
                         small=small, v='beats' if small_wins else 'loses to',
                         dealer_small=dealer_small))
    if small_wins:
        (bet_win,), capped = apply_cap([box.bet * coef], state.table.max_payout)
        cap = (Phrase(", capped at the maximum payout %(max_payout)s",
                      max_payout=state.table.max_payout) if capped else "")
        wagers = {"ante": WagerResult.pushed("ante", box.ante, Phrase("%(head)s; %(reason)s: ANTE "
                                                                      "returned",
                                                                      head=head,
                                                                      reason=reason)),
                  "bet": WagerResult.won("bet", box.bet, bet_win,
                                         Phrase("%(head)s; %(reason)s: BET paid "
                                                "%(coef)s:1%(cap)s",
                                                head=head, reason=reason, coef=coef, cap=cap))}
    else:
        (ante_win,), capped = apply_cap([box.ante * coef], state.table.max_payout)
        cap = (Phrase(", capped at the maximum payout %(max_payout)s",
                      max_payout=state.table.max_payout) if capped else "")
        wagers = {"ante": WagerResult.won("ante", box.ante, ante_win,
                                          Phrase("%(head)s; %(reason)s: ANTE paid "
                                                 "%(coef)s:1%(cap)s",
                                                 head=head, reason=reason, coef=coef,
                                                 cap=cap)),
                  "bet": WagerResult.pushed("bet", box.bet, Phrase("%(head)s; %(reason)s: BET "
                                                                   "returned",
                                                                   head=head, reason=reason))}
    return wagers, (PaidCombination(big.category, big.significant, coef),), capped



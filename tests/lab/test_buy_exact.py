"""The buy-game value draws the dealer's new card from a deck without the box's cards.

RULES.md (Russian poker): "Dealer has no game: each betting box either takes the ANTE paid 1:1
with the BET returned, or buys a game for the dealer for 1 ANTE. Buying replaces the dealer's
highest card with the next card of the deck": the box's cards (its hand and its discards) are
not in that deck, and the engine refuses such a card. The advisor's "bet" and "sixth card" are
labelled exact, so they must count the bought card over the cards the box has not seen.

The exhaustive check enumerates, for a few made hands, every dealer hand the box's cards leave
and, for each without a game, every next card of the deck the box and that dealer hand leave,
replaced as the engine replaces it (``lab.buygame.buy_game``, equal to the engine's
``buy_game`` below); the free second replacement (a card of the replaced rank leaving no game)
draws once more from the other cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dealer_assist.lab import advice
from dealer_assist.lab.advise_russian import no_game_options
from dealer_assist.lab.batch import combination_array, rank_keys
from dealer_assist.lab.buy_exact import buy_values, seen_mask
from dealer_assist.lab.buy_value import key_classes
from dealer_assist.lab.buygame import buy_game
from dealer_assist.lab.russian_best import valuer
from dealer_assist.rules.cards import ALL_CARDS, parse_cards
from dealer_assist.rules.games.russian import calculator as russian_request  # noqa: F401
from dealer_assist.rules.games.stud.dealer import buy_game as engine_buy_game
from dealer_assist.rules.profiles import get_profile

CARD = {c.index: c for c in ALL_CARDS}


def idx(text: str) -> Any:
    return np.array(sorted(c.index for c in parse_cards(text)), dtype=np.int64) if text \
        else np.zeros(0, dtype=np.int64)


def _results(profile: Any, final_key: int, win: float, keys: Any, ok: Any) -> Any:
    lose = float(1 + profile.bet_multiple)
    return np.where(ok, np.where(final_key > keys, win,
                                 np.where(final_key < keys, -lose, 0.0)), 0.0)


def _enumerate(profile: Any, hand: Any, seen: Any) -> tuple[float, Any, Any]:
    """(bet value, dealer hands without a game, their buy values), every dealer hand and
    every next card enumerated."""
    v = valuer(profile)
    ranking = profile.ranking
    deck = np.setdiff1d(np.arange(52), seen)
    dealer = deck[combination_array(len(deck), 5).astype(np.int64)]
    dk = rank_keys(dealer, ranking)
    game = (dk >> 24) >= ranking.strength(profile.qualifier)
    final_key = int(rank_keys(hand[None, :], ranking)[0])
    win = float(v.win_amounts(v.pay.totals(hand[None, :]))[0])
    settled = _results(profile, final_key, win, dk[game], np.ones(int(game.sum()), bool)).sum()
    ng = dealer[~game]
    m = len(deck) - 5
    buy = np.zeros(len(ng))
    for lo in range(0, len(ng), 25000):
        d = ng[lo:lo + 25000]
        left = np.ones((len(d), 52), dtype=bool)
        left[:, seen] = False
        left[np.arange(len(d))[:, None], d] = False
        cards = np.nonzero(left)[1].reshape(len(d), m)  # the deck, per dealer hand
        r = np.empty((len(d), m))
        again = np.zeros((len(d), m), dtype=bool)
        top = (d % 13).max(axis=1)
        for j in range(m):
            c = cards[:, j]
            _, keys, ok = buy_game(d, np.stack([c, c], axis=1), ranking, profile.qualifier,
                                   free_second_replacement=False)
            r[:, j] = _results(profile, final_key, win, keys, ok)
            again[:, j] = ~ok & (c % 13 == top)
        if profile.free_second_replacement:
            # the second card replaces the first (the new highest card): the dealer's four
            # lower cards plus any other card of the deck, whose results ``r`` already holds
            # (``test_the_free_second_replacement_...`` checks that against the engine)
            r = np.where(again, (r.sum(axis=1, keepdims=True) - r) / (m - 1), r)
        buy[lo:lo + 25000] = r.mean(axis=1) - profile.buy_game_fee
    take = float(profile.no_game_ante_multiplier)
    value = (settled + np.maximum(buy, take).sum()) / len(dealer)
    # insurance, settled on the dealer's five cards: paid on no game, lost on a game below
    # the box; the box insures (with the largest stake) when that is worth something
    unit = np.where(game, np.where(dk < final_key, -1.0, 0.0),
                    float(profile.insurance_multiplier)).mean()
    total = int(v.pay.totals(hand[None, :])[0])
    if final_key >> 24 >= ranking.strength(profile.insurance_min_category) and total \
            and unit > 0:
        value += unit * min(profile.bet_multiple * total, profile.max_payout / profile.min_ante)
    return float(value), ng, buy


MADE = [("russian-classic", "5h 6c 7d 8s 9h", ""),          # a straight: the hand
        ("russian-classic", "2h 2c 2d 8s 8h", "Kc Qd"),     # a full house after an exchange
        ("russian-pair-game", "Ah Kh Qh Jh Th", "2c")]      # a royal flush after an exchange


@pytest.mark.slow
@pytest.mark.parametrize(("name", "hand", "discards"), MADE)
def test_a_made_hands_bet_value_equals_every_dealer_hand_and_every_bought_card_enumerated(
        name: str, hand: str, discards: str) -> None:
    profile = get_profile(name)
    cards = idx(hand)
    seen = np.sort(np.concatenate([cards, idx(discards)]))
    value, ng, buy = _enumerate(profile, cards, seen)
    assert valuer(profile).values(cards[None, :], seen[None, :])[0] == pytest.approx(
        value, abs=1e-9)
    # and per dealer hand, the value of buying the play rule of the best strategy uses
    v = valuer(profile)
    k = key_classes(rank_keys(cards[None, :], profile.ranking), profile.ranking)
    win = v.win_amounts(v.pay.totals(cards[None, :]))
    got = buy_values(profile.ranking, profile.qualifier, dealer=ng, k=np.repeat(k, len(ng)),
                     win=np.repeat(win, len(ng)), lose=v.lose,
                     fee=float(profile.buy_game_fee), seen=np.repeat(seen_mask(seen[None]),
                                                                     len(ng), axis=0),
                     free_second=profile.free_second_replacement)
    assert np.abs(got - buy).max() < 1e-12


def test_the_advisor_gives_the_exhaustive_figures_for_a_straight() -> None:
    # "for 5h 6c 7d 8s 9h under russian-classic the advisor gives bet 5.0328 and sixth card
    # 6.7269 ANTE, while exhaustive enumeration under the rule gives 5.0061 and 6.674"
    got = advice.advise(get_profile("russian-classic"), "deal", "5h 6c 7d 8s 9h".split())
    assert round(got.find("bet").ev, 4) == 5.0061
    assert round(got.find("sixth_card").ev, 3) == 6.674


def test_buying_for_a_known_dealer_hand_equals_the_advisors_engine_checked_count() -> None:
    # no_game_options is checked against the engine's settlement card by card
    # (tests/lab/test_advisor.py); the strategy's play rule must give the same value
    profile = get_profile("russian-classic")
    v = valuer(profile)
    rng = np.random.default_rng(35)
    done = 0
    while done < 40:
        deck = rng.permutation(52)
        final, discards, dealer = np.sort(deck[:5]), np.sort(deck[5:7]), np.sort(deck[7:12])
        if (rank_keys(dealer[None], profile.ranking)[0] >> 24) >= \
                profile.ranking.strength(profile.qualifier):
            continue
        seen = np.sort(np.concatenate([final, discards]))
        options = {o.action: o for o in no_game_options(profile, final, dealer, seen)}
        k = key_classes(rank_keys(final[None], profile.ranking), profile.ranking)
        got = buy_values(profile.ranking, profile.qualifier, dealer=dealer[None], k=k,
                         win=v.win_amounts(v.pay.totals(final[None])), lose=v.lose,
                         fee=float(profile.buy_game_fee), seen=seen_mask(seen[None]),
                         free_second=True)[0]
        assert got == pytest.approx(options["buy_game"].ev, abs=1e-12)
        done += 1


def test_the_free_second_replacement_keeps_the_dealers_four_lower_cards_and_the_second_card(
        ) -> None:
    profile = get_profile("russian-classic")
    rng = np.random.default_rng(7)
    checked = 0
    while checked < 300:
        deck = rng.permutation(52)
        dealer = deck[:5]
        ranks = dealer % 13
        if len(set(ranks)) < 5:
            continue
        top = int(ranks.max())
        same = [c for c in deck[5:] if c % 13 == top]
        first, second = same[0], deck[5] if deck[5] != same[0] else deck[6]
        got = engine_buy_game([CARD[int(c)] for c in dealer], [CARD[int(first)],
                                                               CARD[int(second)]],
                              profile.ranking, profile.qualifier, free_second_replacement=True)
        if got.qualified and len(got.drawn) == 1:
            continue  # the same-rank card made a game (a flush): no second replacement
        if (rank_keys(dealer[None], profile.ranking)[0] >> 24) >= \
                profile.ranking.strength(profile.qualifier):
            continue
        lower = sorted(int(c) for c in dealer if c % 13 != top)
        assert sorted(c.index for c in got.cards) == sorted([*lower, int(second)])
        checked += 1

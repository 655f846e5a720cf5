"""Big/Small: the bought card comes from a deck without the box's cards.

RULES.md (Big/Small): "No game: ANTE paid 1:1, BET returned, unless the box buys a game (1 ANTE,
highest card replaced by the next card; no free second replacement). After buying, still no game:
ANTE and BET returned." The next card of the deck is none of the box's cards (the engine refuses
such a card, "Every card on a table is unique"), so the value of a Big/Small position, which
counts the option to buy, must draw that card from the cards neither the box has seen nor the
dealer holds.

The exhaustive check enumerates, for a few made positions (Big Hand, Small Hand or none, the
dealer's up card), every dealer hand holding the up card and avoiding the box's cards and, for
each without a game, every next card of the deck those leave, replaced as the engine replaces it
(``lab.buygame.buy_game``, equal to the engine's ``buy_game`` below). The win when the Big Hand
beats a dealer with a game is the model's ``W(p)`` (the Small Hand's chance ``p`` given): what is
checked is the count of dealer hands and bought cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dealer_assist.lab.advise_split import options
from dealer_assist.lab.batch import combination_array, rank_keys
from dealer_assist.lab.buy_exact import buy_values, seen_mask
from dealer_assist.lab.buy_value import key_classes
from dealer_assist.lab.buygame import buy_game
from dealer_assist.lab.split_best import valuer
from dealer_assist.lab.split_value import small_chance
from dealer_assist.rules.cards import ALL_CARDS, parse_cards
from dealer_assist.rules.games.stud.dealer import buy_game as engine_buy_game
from dealer_assist.rules.profiles import get_profile

CARD = {c.index: c for c in ALL_CARDS}


def idx(text: str) -> Any:
    return np.array(sorted(c.index for c in parse_cards(text)), dtype=np.int64) if text \
        else np.zeros(0, dtype=np.int64)


def _enumerate(profile: Any, big: Any, seen: Any, up: int | None, win: float,
               ) -> tuple[float, Any, Any]:
    """(position value, dealer hands without a game, their buy values): every dealer hand
    (holding ``up`` when given) avoiding ``seen`` and every next card enumerated."""
    ranking = profile.ranking
    lose = float(1 + profile.bet_multiple)
    rest = np.setdiff1d(np.arange(52), seen if up is None else np.append(seen, up))
    if up is None:
        dealer = rest[combination_array(len(rest), 5).astype(np.int64)]
    else:
        four = rest[combination_array(len(rest), 4).astype(np.int64)]
        dealer = np.sort(np.hstack([four, np.full((len(four), 1), up)]), axis=1)
    dk = rank_keys(dealer, ranking)
    game = (dk >> 24) >= ranking.strength(profile.qualifier)
    big_key = int(rank_keys(np.sort(big)[None, :], ranking)[0])

    def result(keys: Any, ok: Any) -> Any:
        return np.where(ok, np.where(big_key > keys, win, np.where(big_key < keys, -lose, 0.0)),
                        0.0)
    settled = result(dk[game], np.ones(int(game.sum()), dtype=bool)).sum()
    ng = dealer[~game]
    m = 52 - len(seen) - 5
    buy = np.zeros(len(ng))
    for lo in range(0, len(ng), 20000):
        d = ng[lo:lo + 20000]
        left = np.ones((len(d), 52), dtype=bool)
        left[:, seen] = False
        left[np.arange(len(d))[:, None], d] = False
        cards = np.nonzero(left)[1].reshape(len(d), m)  # the deck, per dealer hand
        r = np.empty((len(d), m))
        for j in range(m):
            c = cards[:, j]
            _, keys, ok = buy_game(d, np.stack([c, c], axis=1), ranking, profile.qualifier,
                                   free_second_replacement=False)
            r[:, j] = result(keys, ok)
        buy[lo:lo + 20000] = r.mean(axis=1) - profile.buy_game_fee
    take = float(profile.no_game_ante_multiplier)
    return float((settled + np.maximum(buy, take).sum()) / len(dealer)), ng, buy


# (Big Hand, Small Hand, other cards the box has seen, the dealer's up card)
MADE = [("2h 2c 2d 8s 8h", "Kc Qd", "", "5s"),     # a full house after buying extra cards
        ("As Ks Qs Js 9s", "7c 7d", "", "Th"),     # a flush with a pair as the Small Hand
        ("5h 6c 7d 8s 9h", "", "", "Kd"),          # a straight without extra cards
        ("4c 4d 4h Jc 2s", "Ac 3d", "9h", "Qs")]   # trips, a dead card seen too


@pytest.mark.parametrize(("big", "small", "dead", "up"), MADE)
def test_a_made_positions_value_equals_every_dealer_hand_and_every_bought_card_enumerated(
        big: str, small: str, dead: str, up: str) -> None:
    profile: Any = get_profile("split-classic")
    v = valuer(profile)
    b, s, u = idx(big), idx(small), int(idx(up)[0])
    seen = np.sort(np.concatenate([b, s, idx(dead)]))
    p = 0.0 if not len(s) else float(small_chance(s[None, :], np.append(seen, u)[None, :],
                                                  profile.small_tie_to_player)[0])
    k = key_classes(rank_keys(b[None, :], profile.ranking), profile.ranking)
    win = float(v.win_amount(k, np.array([p]))[0])
    value, ng, buy = _enumerate(profile, b, seen, u, win)
    got = v.exact(b[None, :], np.array([p]), seen[None, :], np.array([u]))[0]
    assert got == pytest.approx(value, abs=1e-9)
    # per dealer hand: the buy value the best strategy's play rule uses
    each = buy_values(profile.ranking, profile.qualifier, dealer=ng, k=np.repeat(k, len(ng)),
                      win=np.full(len(ng), win), lose=float(1 + profile.bet_multiple),
                      fee=float(profile.buy_game_fee),
                      seen=np.repeat(seen_mask(seen[None]), len(ng), axis=0),
                      free_second=False)
    assert np.abs(each - buy).max() < 1e-12


@pytest.mark.slow
def test_the_strategy_tables_model_value_equals_every_dealer_hand_and_bought_card_enumerated(
        ) -> None:
    # the best strategy's grid: the dealer's hand and the bought card avoid the Big Hand's cards
    profile: Any = get_profile("split-classic")
    v = valuer(profile)
    b = idx("3h 3c 3d Ts Th")
    k = key_classes(rank_keys(b[None, :], profile.ranking), profile.ranking)
    p = np.array([0.5])
    win = float(v.win_amount(k, p)[0])
    value, _, _ = _enumerate(profile, b, b, None, win)
    grid = v.grid(b[None, :])[0]
    assert grid[2] == pytest.approx(value, abs=1e-9)  # GRID[2] == 0.5


def test_the_play_rule_buys_exactly_when_the_advisors_card_by_card_count_says_so() -> None:
    # the advisor's no_game stage settles every card of the deck left (engine-checked in
    # tests/lab/test_advisor.py); the best strategy's play rule must value buying the same
    from dealer_assist.lab.split_play import buy_rule
    profile: Any = get_profile("split-classic")
    v = valuer(profile)
    rng = np.random.default_rng(35)
    made = [idx(h) for h in ("2h 2c 2d 8s 8h", "As Ks Qs Js 9s", "Tc Td Th Ts 3c",
                             "7h 7c 7d Ks Kh", "4d 6d 8d Td Qd")]
    decided: list[bool] = []
    while len(decided) < 60:
        big = made[len(decided) % len(made)]
        deck = rng.permutation(np.setdiff1d(np.arange(52), big))
        small, dealer = np.sort(deck[:2]), np.sort(deck[2:7])
        if (rank_keys(dealer[None], profile.ranking)[0] >> 24) >= \
                profile.ranking.strength(profile.qualifier):
            continue
        got = {o.action: o.ev for o in options(
            profile, "no_game", big, None, [CARD[int(c)].code for c in dealer],
            np.zeros(0, dtype=np.int64), profile.min_ante,
            [CARD[int(c)].code for c in small])[0]}
        seen = np.concatenate([big, small])
        p = small_chance(small[None], np.concatenate([seen, dealer])[None],
                         profile.small_tie_to_player)
        k = key_classes(rank_keys(big[None], profile.ranking), profile.ranking)
        value = buy_values(profile.ranking, profile.qualifier, dealer=dealer[None], k=k,
                           win=v.win_amount(k, p), lose=float(1 + profile.bet_multiple),
                           fee=float(profile.buy_game_fee), seen=seen_mask(seen[None]),
                           free_second=False)[0]
        assert value == pytest.approx(got["buy_game"], abs=1e-12)
        rule = buy_rule(profile, profile.min_ante, profile.max_payout, p)
        buys = rule(dealer[None], rank_keys(big[None], profile.ranking), np.array([True]),
                    seen_mask(seen[None]))[0]
        assert buys == (got["buy_game"] > got["take_ante"])
        decided.append(bool(buys))
    assert any(decided) and not all(decided)


def test_the_box_has_seen_its_five_and_bought_extra_cards_but_not_free_blind_ones() -> None:
    from dealer_assist.lab.split_mc import seen_cards
    cards = np.arange(15 * 3).reshape(3, 15)
    seen = seen_cards(cards, np.array([0, 1, 2], dtype=np.int8))  # none, free, bought
    assert [sorted(np.flatnonzero(row).tolist()) for row in seen] == [
        [0, 1, 2, 3, 4], [15, 16, 17, 18, 19], [30, 31, 32, 33, 34, 40, 41]]


def test_the_labs_bought_game_is_the_engines_without_a_free_second_replacement() -> None:
    profile: Any = get_profile("split-classic")
    rng = np.random.default_rng(4)
    for _ in range(300):
        deck = rng.permutation(52)
        dealer, c = deck[:5], int(deck[5])
        lab, keys, ok = buy_game(dealer[None], np.array([[c, c]]), profile.ranking,
                                 profile.qualifier, free_second_replacement=False)
        got = engine_buy_game([CARD[int(x)] for x in dealer], [CARD[c]], profile.ranking,
                              profile.qualifier, free_second_replacement=False)
        assert sorted(x.index for x in got.cards) == sorted(lab[0].tolist())
        assert got.qualified == bool(ok[0])

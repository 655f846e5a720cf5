"""The one house-round engine reads a game's constants from its profile's terms, never from the
game's name or a number of its own; and every game reaches its engine through the registry."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from dealer_assist.rules import RulesError, parse_cards
from dealer_assist.rules.errors import CardCountError
from dealer_assist.rules.games import stud as hr
from dealer_assist.rules.games.registry import games, get_engine, house_engine
from dealer_assist.rules.games.stud import caribbean as cb
from dealer_assist.rules.games.stud.table import Table
from dealer_assist.rules.profiles import RoundTerms, get_profile


@dataclass(frozen=True, kw_only=True)
class SixCardProfile(cb.CaribbeanProfile):
    """A test-only variant whose hands are six cards (its terms say so, nothing else)."""

    def terms(self) -> RoundTerms:
        return dataclasses.replace(super().terms(), hand_size=6)


def test_the_hand_size_of_a_deal_is_the_profiles_hand_size() -> None:
    profile = SixCardProfile(name="caribbean-six")
    state = cb.apply(hr.new_round(profile, Table(10, 1000, 50000)), hr.PlaceBox("1", "A", 100))
    with pytest.raises(CardCountError) as refused:
        cb.apply(state, hr.DealBox("1", parse_cards("7s 7d 4c 4h Js")))
    assert (refused.value.got, refused.value.expected) == (5, "6")
    state = cb.apply(state, hr.DealBox("1", parse_cards("7s 7d 4c 4h Js 2c")))
    state = cb.apply(state, hr.DealDealer(parse_cards("Ah Kd 9c 5s 2h 3h")))
    assert len(state.dealer) == 6
    assert state.hand_size(state.boxes[0]) == 6


def test_the_shipped_house_games_deal_hands_of_five() -> None:
    # seed 001/002/003/004: five-card stud; Russian poker's sixth card adds one (its own step)
    for spec in games():
        if spec.banked:
            assert get_profile(spec.default_profile).terms().hand_size == 5, spec.name


def test_only_big_small_shows_a_small_hand_of_two_cards() -> None:
    # seed 004: "choose 2 combinations ("Small Hand" of 2 cards and "Big Hand" of 5 cards)"
    small = {s.name: get_profile(s.default_profile).terms().small_hand
             for s in games() if s.banked}
    assert small == {"russian": 0, "caribbean": 0, "oasis": 0, "split": 2}


def test_every_registered_game_reaches_its_flow_through_get_flow() -> None:
    for spec in games():
        assert get_engine(spec.name) is spec.engine  # a poker hand and a parlour evening too


def test_only_a_house_game_has_a_house_rounds_flow() -> None:
    assert house_engine("caribbean") is get_engine("caribbean")
    for game in ("americana", "draw32", "parlour"):
        with pytest.raises(RulesError, match="no live table for game"):
            house_engine(game)

"""Tables: a game, a house-rules profile the engine knows, integer limits, 1..9 boxes."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from dealer_assist.services.errors import Conflict, NotFound, ValidationError
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import tables
from tests.factories import make_table, make_user, table_spec


def test_an_administrator_defines_a_russian_poker_table(session: Session) -> None:
    table = make_table(session, name="  RP   1 ", min_ante=25, max_ante=1000, boxes=7)
    assert (table.name, table.game, table.min_ante, table.max_ante, table.boxes) == \
        ("RP 1", "russian", 25, 1000, 7)
    assert tables.list_tables(session) == [table]


@pytest.mark.parametrize(("game", "default"), [
    ("russian", "russian-classic"), ("oasis", "oasis-classic"),
    ("caribbean", "caribbean-classic"), ("split", "split-classic")])
def test_an_empty_profile_means_the_engines_default_for_the_game(session: Session, game: str,
                                                                 default: str) -> None:
    """RULES.md: "the default profile of each game is the one described here" (profiles
    ``russian-classic``, ``oasis-classic``, ``caribbean-classic``, ``split-classic``)."""
    spec = tables.TableSpec(f"T {game}", game, "", 10, 100, 1000, 6)
    assert tables.create_table(session, spec).profile == default


def test_a_profile_the_engine_does_not_know_for_that_game_is_refused(session: Session) -> None:
    with pytest.raises(ValidationError, match="no profile 'casino-x'") as err:
        tables.create_table(session, table_spec(profile="casino-x"))
    assert err.value.field == "profile"
    assert tables.list_tables(session) == []


def test_table_names_are_unique(session: Session) -> None:
    make_table(session, name="RP 1")
    with pytest.raises(Conflict, match="already exists"):
        make_table(session, name="RP 1")


@pytest.mark.parametrize(("overrides", "field"), [
    ({"game": "blackjack"}, "game"),
    ({"name": "  "}, "name"),
    ({"min_ante": 0}, "min_ante"),
    ({"min_ante": 100, "max_ante": 50}, "max_ante"),
    ({"max_payout": -5}, "max_payout"),
    ({"boxes": 0}, "boxes"),
    ({"boxes": 10}, "boxes"),
    ({"profile": "Bad Profile!"}, "profile"),
])
def test_bad_table_settings_are_refused_naming_the_field(
        session: Session, overrides: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as err:
        tables.create_table(session, table_spec(**overrides))
    assert err.value.field == field


def test_limits_can_be_edited(session: Session) -> None:
    table = make_table(session)
    spec = table_spec(name="RP 1 VIP", max_ante=2000, max_payout=200000, boxes=5)
    edited = tables.update_table(session, table.id, spec)
    assert (edited.name, edited.max_ante, edited.max_payout, edited.boxes) == \
        ("RP 1 VIP", 2000, 200000, 5)


def test_the_game_cannot_change_while_a_shift_is_open(session: Session) -> None:
    table = make_table(session)
    croupier = make_user(session)
    shifts.open_shift(session, table_id=table.id, user_id=croupier.id)
    with pytest.raises(Conflict, match="Close the open shift"):
        tables.update_table(session, table.id, table_spec(game="caribbean"))
    assert tables.update_table(session, table.id, table_spec(max_ante=800)).max_ante == 800


def test_renaming_onto_another_tables_name_is_a_conflict(session: Session) -> None:
    make_table(session, name="A")
    b = make_table(session, name="B")
    with pytest.raises(Conflict):
        tables.update_table(session, b.id, table_spec(name="A"))


def test_an_unknown_table_is_not_found(session: Session) -> None:
    with pytest.raises(NotFound):
        tables.get_table(session, 4242)


def test_the_theoretical_strategy_is_a_table_setting_basic_by_default(session: Session) -> None:
    # the table's theoretical hold assumes 'basic' or 'best'
    table = tables.create_table(session, tables.TableSpec("RP S", "russian", "", 10, 100,
                                                          1000, 6))
    assert table.strategy == "basic"
    spec = tables.TableSpec("RP S", "russian", "", 10, 100, 1000, 6, strategy="best")
    assert tables.update_table(session, table.id, spec).strategy == "best"
    assert tables.get_table(session, table.id).strategy == "best"
    with pytest.raises(ValidationError) as err:
        tables.update_table(session, table.id, tables.TableSpec(
            "RP S", "russian", "", 10, 100, 1000, 6, strategy="optimal"))
    assert err.value.field == "strategy"

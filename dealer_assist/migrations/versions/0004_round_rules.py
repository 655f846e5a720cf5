"""Every round carries its own rules: ``game_round.rules`` (JSON: game, the full house-rules
profile as data with its hash, the table limits in force).

Rounds that exist when this runs get the rules their table has at that moment (the game and
limits of their table row, the profile as the engine defines it now): the best record there is,
since before this revision a round was always replayed with its table's current settings.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


#: every registered house-rules profile as data, frozen as the engine defined them when this
#: revision was last written (a migration depends on nothing of the application that can change
#: after it: issue 36). A profile name not here was never one a table could hold.
PROFILES: dict[str, dict[str, Any]] = {'caribbean-classic': {'ante_paid_on_win': True,
                           'bet_multiple': 2,
                           'buy_game_allowed': False,
                           'buy_game_fee': 1,
                           'dealer_up_cards': 1,
                           'forced_raise_replacing': 0,
                           'free_second_replacement': False,
                           'game': 'caribbean',
                           'max_ante': 1000,
                           'max_boxes_per_seat': None,
                           'max_payout': 50000,
                           'min_ante': 10,
                           'name': 'caribbean-classic',
                           'no_game_ante_multiplier': 1,
                           'pay_table': {'ace_king': 1,
                                         'flush': 5,
                                         'four_of_a_kind': 20,
                                         'full_house': 7,
                                         'one_pair': 1,
                                         'royal_flush': 100,
                                         'straight': 4,
                                         'straight_flush': 50,
                                         'three_of_a_kind': 3,
                                         'two_pairs': 2},
                           'qualifier': 'ace_king',
                           'ranking': 'standard',
                           'replace_fees': {}},
     'oasis-classic': {'ante_paid_on_win': True,
                       'bet_multiple': 2,
                       'buy_game_allowed': False,
                       'buy_game_fee': 1,
                       'dealer_up_cards': 1,
                       'forced_raise_replacing': 5,
                       'free_second_replacement': False,
                       'game': 'oasis',
                       'max_ante': 1000,
                       'max_boxes_per_seat': None,
                       'max_payout': 50000,
                       'min_ante': 10,
                       'name': 'oasis-classic',
                       'no_game_ante_multiplier': 1,
                       'pay_table': {'ace_king': 1,
                                     'flush': 5,
                                     'four_of_a_kind': 20,
                                     'full_house': 7,
                                     'one_pair': 1,
                                     'royal_flush': 100,
                                     'straight': 4,
                                     'straight_flush': 50,
                                     'three_of_a_kind': 3,
                                     'two_pairs': 2},
                       'qualifier': 'ace_king',
                       'ranking': 'standard',
                       'replace_fees': {'1': 1, '2': 2, '3': 3, '4': 2, '5': 1}},
     'oasis-one-card': {'ante_paid_on_win': True,
                        'bet_multiple': 2,
                        'buy_game_allowed': False,
                        'buy_game_fee': 1,
                        'dealer_up_cards': 1,
                        'forced_raise_replacing': 0,
                        'free_second_replacement': False,
                        'game': 'oasis',
                        'max_ante': 1000,
                        'max_boxes_per_seat': None,
                        'max_payout': 50000,
                        'min_ante': 10,
                        'name': 'oasis-one-card',
                        'no_game_ante_multiplier': 1,
                        'pay_table': {'ace_king': 1,
                                      'flush': 5,
                                      'four_of_a_kind': 20,
                                      'full_house': 7,
                                      'one_pair': 1,
                                      'royal_flush': 100,
                                      'straight': 4,
                                      'straight_flush': 50,
                                      'three_of_a_kind': 3,
                                      'two_pairs': 2},
                        'qualifier': 'ace_king',
                        'ranking': 'standard',
                        'replace_fees': {'1': 1}},
     'oasis-per-card': {'ante_paid_on_win': True,
                        'bet_multiple': 2,
                        'buy_game_allowed': False,
                        'buy_game_fee': 1,
                        'dealer_up_cards': 1,
                        'forced_raise_replacing': 5,
                        'free_second_replacement': False,
                        'game': 'oasis',
                        'max_ante': 1000,
                        'max_boxes_per_seat': None,
                        'max_payout': 50000,
                        'min_ante': 10,
                        'name': 'oasis-per-card',
                        'no_game_ante_multiplier': 1,
                        'pay_table': {'ace_king': 1,
                                      'flush': 5,
                                      'four_of_a_kind': 20,
                                      'full_house': 7,
                                      'one_pair': 1,
                                      'royal_flush': 100,
                                      'straight': 4,
                                      'straight_flush': 50,
                                      'three_of_a_kind': 3,
                                      'two_pairs': 2},
                        'qualifier': 'ace_king',
                        'ranking': 'standard',
                        'replace_fees': {'1': 1, '2': 2, '3': 3, '4': 4, '5': 5}},
     'russian-classic': {'ante_paid_on_win': False,
                         'bet_multiple': 2,
                         'bonus_max_ante_percent': 50,
                         'bonus_table': {'four_of_a_kind': 300,
                                         'full_house': 100,
                                         'royal_flush': 1000,
                                         'straight_flush': 500,
                                         'two_pairs': 5},
                         'bonus_two_pairs_min_rank': 7,
                         'bonus_unit': 50,
                         'buy_game_fee': 1,
                         'dealer_up_cards': 0,
                         'equal_antes': True,
                         'free_second_replacement': True,
                         'game': 'russian',
                         'improvement_fee': 1,
                         'insurance_min_category': 'three_of_a_kind',
                         'insurance_multiplier': 1,
                         'max_ante': 1000,
                         'max_boxes_per_seat': 4,
                         'max_combinations': 2,
                         'max_exchange': 5,
                         'max_payout': 50000,
                         'min_ante': 10,
                         'name': 'russian-classic',
                         'no_game_ante_multiplier': 1,
                         'open_boxes': 2,
                         'pay_table': {'ace_king': 1,
                                       'flush': 5,
                                       'four_of_a_kind': 20,
                                       'full_house': 7,
                                       'one_pair': 1,
                                       'royal_flush': 100,
                                       'straight': 4,
                                       'straight_flush': 50,
                                       'three_of_a_kind': 3,
                                       'two_pairs': 2},
                         'qualifier': 'ace_king',
                         'ranking': 'standard',
                         'sixth_card_allowed': True},
     'russian-pair-game': {'ante_paid_on_win': False,
                           'bet_multiple': 2,
                           'bonus_max_ante_percent': 50,
                           'bonus_table': {'four_of_a_kind': 300,
                                           'full_house': 100,
                                           'royal_flush': 1000,
                                           'straight_flush': 500,
                                           'two_pairs': 5},
                           'bonus_two_pairs_min_rank': 7,
                           'bonus_unit': 50,
                           'buy_game_fee': 1,
                           'dealer_up_cards': 0,
                           'equal_antes': True,
                           'free_second_replacement': True,
                           'game': 'russian',
                           'improvement_fee': 1,
                           'insurance_min_category': 'three_of_a_kind',
                           'insurance_multiplier': 1,
                           'max_ante': 1000,
                           'max_boxes_per_seat': 4,
                           'max_combinations': 2,
                           'max_exchange': 5,
                           'max_payout': 50000,
                           'min_ante': 10,
                           'name': 'russian-pair-game',
                           'no_game_ante_multiplier': 1,
                           'open_boxes': 2,
                           'pay_table': {'ace_king': 1,
                                         'flush': 5,
                                         'four_of_a_kind': 20,
                                         'full_house': 7,
                                         'one_pair': 1,
                                         'royal_flush': 100,
                                         'straight': 4,
                                         'straight_flush': 50,
                                         'three_of_a_kind': 3,
                                         'two_pairs': 2},
                           'qualifier': 'one_pair',
                           'ranking': 'standard',
                           'sixth_card_allowed': True},
     'split-classic': {'bet_multiple': 2,
                       'bought_extra_allowed': True,
                       'buy_game_allowed': True,
                       'buy_game_fee': 1,
                       'dealer_up_cards': 1,
                       'extra_fee': 1,
                       'free_extra_allowed': True,
                       'free_extra_forces_bet': True,
                       'free_second_replacement': False,
                       'game': 'split',
                       'max_ante': 1000,
                       'max_boxes_per_seat': None,
                       'max_payout': 50000,
                       'min_ante': 10,
                       'name': 'split-classic',
                       'no_game_ante_multiplier': 1,
                       'pay_table': {'flush': 5,
                                     'four_of_a_kind': 20,
                                     'full_house': 7,
                                     'one_pair': 1,
                                     'royal_flush': 100,
                                     'straight': 4,
                                     'straight_flush': 50,
                                     'three_of_a_kind': 3,
                                     'two_pairs': 1},
                       'qualifier': 'one_pair',
                       'ranking': 'standard',
                       'small_tie_to_player': True}}


def round_rules(game: str, profile: str, min_ante: int, max_ante: int,
                max_payout: int) -> dict[str, Any]:
    """A round's rules as ``rules.games.registry.round_rules`` made them: the game, its profile as
    data with its hash (SHA-256 of the canonical JSON), the table limits."""
    data = PROFILES.get(profile)
    if data is None or data["game"] != game:
        raise RuntimeError(f"no house-rules profile {profile!r} of game {game!r}")
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(text.encode()).hexdigest()
    return {"game": game, "profile": data, "profile_hash": digest,
            "limits": {"min_ante": min_ante, "max_ante": max_ante, "max_payout": max_payout}}


def _backfill() -> None:
    """Write each existing round's rules from its table (``round_rules`` above)."""
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT r.id, t.game, t.profile, t.min_ante, t.max_ante, t.max_payout "
        "FROM game_round r JOIN game_table t ON t.id = r.table_id WHERE r.rules IS NULL"
    )).all()
    cache: dict[tuple[object, ...], str] = {}
    for row in rows:
        key = tuple(row[1:])
        if key not in cache:
            rules = round_rules(row[1], row[2], row[3], row[4], row[5])
            cache[key] = json.dumps(rules, sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=False)
        bind.execute(sa.text("UPDATE game_round SET rules = :rules WHERE id = :id"),
                     {"rules": cache[key], "id": row[0]})


def upgrade() -> None:
    with op.batch_alter_table("game_round") as batch:
        batch.add_column(sa.Column("rules", sa.Text(), nullable=True))
    _backfill()


def downgrade() -> None:
    with op.batch_alter_table("game_round") as batch:
        batch.drop_column("rules")

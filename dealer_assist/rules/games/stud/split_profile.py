"""Big/Small hand poker's house rules as data (seed 004): the profile ``split-classic``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...errors import HouseRulesError
from ...profiles import PayTable, RoundTerms, check_bool, check_int, register_profile
from ...ranking import Category
from .profile import StudProfile

C = Category
FREE, BOUGHT = "free", "bought"

#: seed 004 "Payment coefficients" (pair 1:1 ... full house 7:1); quads, straight flush and
#: royal from the common casino table (RULES.md)
CLASSIC_COEFFICIENTS: dict[Category, int] = {
    C.royal_flush: 100, C.straight_flush: 50, C.four_of_a_kind: 20, C.full_house: 7,
    C.flush: 5, C.straight: 4, C.three_of_a_kind: 3, C.two_pairs: 1, C.one_pair: 1,
}


@dataclass(frozen=True, kw_only=True)
class SplitProfile(StudProfile):
    """Big/Small house rules; ``pay_table`` holds the coefficients. Fees in ANTEs."""

    game: str = "split"
    qualifier: Category = C.one_pair
    pay_table: PayTable = field(default_factory=lambda: dict(CLASSIC_COEFFICIENTS))
    buy_game_allowed: bool = True
    free_extra_allowed: bool = True
    #: free extra cards are dealt blind and oblige the box to BET
    free_extra_forces_bet: bool = True
    bought_extra_allowed: bool = True
    extra_fee: int = 1
    #: "Stand off" on "Small Hand" is in favour of a player
    small_tie_to_player: bool = True

    @property
    def coefficients(self) -> PayTable:
        return self.pay_table

    def terms(self) -> RoundTerms:
        """The stud games' terms, and a Small Hand of two cards (seed 004: "'Small Hand' of 2
        cards and 'Big Hand' of 5 cards")."""
        return replace(super().terms(), small_hand=2)

    def validate(self) -> None:
        super().validate()
        if self.game != "split":
            raise HouseRulesError("a Big/Small profile must have game 'split', got "
                                  "'%(game)s'",
                                  game=self.game, field="game", value=self.game)
        for name in ("free_extra_allowed", "free_extra_forces_bet", "bought_extra_allowed",
                     "small_tie_to_player"):
            check_bool(getattr(self, name), name)
        check_int(self.extra_fee, "extra_fee")


SPLIT_CLASSIC = SplitProfile(name="split-classic")
register_profile(SPLIT_CLASSIC)

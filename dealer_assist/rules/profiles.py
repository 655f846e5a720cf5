"""House-rules profiles: frozen, validated data that says how a casino runs a game.

A profile is a frozen dataclass; constructing one (directly, through ``dataclasses.replace`` or
from plain data with :meth:`HouseProfile.from_mapping`) validates every field and raises
:class:`HouseRulesError` whose ``field`` names the offending entry (``pay_table.flush``,
``bonus_unit``). A new casino variant is a new profile, never a new ``if``.

What other game modules (Oasis, Caribbean stud, Big/Small) may rely on, kept stable:

* :class:`HouseProfile` -- the base: ``name``, ``game``, ``ranking`` (a :class:`Ranking`; a
  ranking name is accepted and resolved), ``qualifier`` (a :class:`Category`; a name is accepted),
  ``pay_table`` (``Category -> int`` multiplier, read-only), table defaults ``min_ante``,
  ``max_ante``, ``max_payout`` and ``bet_multiple`` (BET = bet_multiple x ANTE). Subclass it with
  ``@dataclass(frozen=True, kw_only=True)`` and extend :meth:`HouseProfile.validate` (call
  ``super().validate()``); override :meth:`HouseProfile.pay_categories` to say which categories
  the pay table must hold.
* Validation helpers ``check_int``, ``check_bool``, ``check_category``, ``check_pay_table``: each
  returns the normalised value or raises ``HouseRulesError(field=...)``.
* ``PayTable`` (the type of a pay table) and the registry ``register_profile`` / ``get_profile``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from .errors import HouseRulesError
from .ranking import Category, Ranking, get_ranking

#: a pay table: category -> integer multiplier ("n:1" pays n times the stake)
PayTable = Mapping[Category, int]

P = TypeVar("P", bound="HouseProfile")


def check_int(value: Any, name: str, *, minimum: int | None = 0,
              maximum: int | None = None) -> int:
    """An integer house-rule value within bounds (booleans and floats are refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise HouseRulesError("%(name)s must be a whole number, got %(value_)s", name=name,
                              value_=repr(value), field=name,
                              value=repr(value))
    if minimum is not None and value < minimum:
        raise HouseRulesError("%(name)s must be at least %(minimum)s, got %(value_)s",
                              name=name, minimum=minimum, value_=value, field=name,
                              value=value)
    if maximum is not None and value > maximum:
        raise HouseRulesError("%(name)s must be at most %(maximum)s, got %(value_)s",
                              name=name, maximum=maximum, value_=value, field=name,
                              value=value)
    return value


def check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise HouseRulesError("%(name)s must be true or false, got %(value_)s", name=name,
                              value_=repr(value), field=name,
                              value=repr(value))
    return value


def check_category(value: Any, name: str, ranking: Ranking | None = None) -> Category:
    """A :class:`Category` (or its name), optionally one that exists in ``ranking``."""
    try:
        category = Category(value)
    except ValueError:
        raise HouseRulesError("%(name)s: unknown category %(value_)s", name=name,
                              value_=repr(value), field=name,
                              value=str(value)) from None
    if ranking is not None and category not in ranking.order:
        raise HouseRulesError("%(name)s: %(category)s does not exist in the %(name2)s "
                              "ranking", name=name,
                              category=category.value, name2=ranking.name, field=name,
                              value=category.value)
    return category


def check_pay_table(table: Any, name: str, *, required: Iterable[Category] = (),
                    ranking: Ranking | None = None, minimum: int = 0) -> PayTable:
    """A read-only ``Category -> int`` table: known categories, int multipliers >= ``minimum``.

    Every category in ``required`` must be present ("missing category" names
    ``<name>.<category>``). Keys may be categories or their names.
    """
    if not isinstance(table, Mapping):
        raise HouseRulesError("%(name)s must be a mapping of category to multiplier",
                              name=name, field=name,
                              value=type(table).__name__)
    out: dict[Category, int] = {}
    for key, mult in table.items():
        category = check_category(key, f"{name}.{key}", ranking)
        out[category] = check_int(mult, f"{name}.{category.value}", minimum=minimum)
    for category in required:
        if category not in out:
            raise HouseRulesError("%(name)s has no multiplier for %(category)s", name=name,
                                  category=category.value,
                                  field=f"{name}.{category.value}", value=None)
    return MappingProxyType(out)


@dataclass(frozen=True, slots=True)
class RoundTerms:
    """How a house round runs under a profile, as the one round engine reads it.

    Each game's profile class derives these from its own fields (:meth:`HouseProfile.terms`), so
    the steps every house game shares are written once and read flags, never the game's name.
    Never stored: a round stores its profile's data, and the terms follow from it.
    """

    #: the dealer's cards dealt face up, entered at the deal
    dealer_up_cards: int
    #: a box may carry a bonus side bet (its amount is the game's own check)
    bonus: bool
    #: boxes one player may hold (None: no limit), and whether they carry the same ANTE
    boxes_per_seat: int | None
    equal_antes: bool
    #: a player with more boxes plays this many open (his first course) and the others in the
    #: dark, decided after the first course (None: every box open)
    open_boxes: int | None
    #: boxes decide once every box and the dealer are dealt (else once the box itself is)
    whole_deal_first: bool
    #: a wrong number of cards is a redeal, never a correction
    redeal: bool
    #: the dealer has no game: a box may buy him one, for this fee in ANTEs, with the free
    #: second replacement on the same rank; or take the ANTE at this multiplier
    buy_game: bool
    buy_game_fee: int
    free_second_replacement: bool
    no_game_ante_multiplier: int
    #: the cards of a box's hand and of the dealer's, as dealt (a sixth card adds one)
    hand_size: int = 5
    #: the cards of the Small Hand a box with free extra cards shows beside its hand (0: none)
    small_hand: int = 0


@dataclass(frozen=True, kw_only=True)
class HouseProfile:
    """The fields every banked poker game shares. Validated on construction."""

    name: str
    game: str
    ranking: Ranking = field(default_factory=lambda: get_ranking("standard"))
    #: the dealer "has a game" with this category or better
    qualifier: Category = Category.ace_king
    #: BET/raise multipliers by category
    pay_table: PayTable = field(default_factory=dict)
    #: default table limits (a request's ``table`` may override them)
    min_ante: int = 10
    max_ante: int = 1000
    max_payout: int = 50000
    #: BET (raise) = bet_multiple x ANTE
    bet_multiple: int = 2

    #: fields added after rounds were stored, with the value a round stored without them was
    #: played under (``load_profile``: a round replays under its own rules, never today's
    #: default)
    STORED_WITHOUT: ClassVar[Mapping[str, Any]] = {}
    #: fields of a player's boxes (table conduct): they change no box's mathematics, so the
    #: lab's figures do not depend on them (``lab.version.fingerprint``)
    CONDUCT: ClassVar[frozenset[str]] = frozenset()

    def __post_init__(self) -> None:
        self.validate()

    def _set(self, name: str, value: Any) -> None:
        """Normalise a field during validation (the dataclass is frozen)."""
        object.__setattr__(self, name, value)

    def validate(self) -> None:
        """Check and normalise every field; subclasses extend this and call ``super()``."""
        for name in ("name", "game"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise HouseRulesError("%(name)s must be a non-empty string", name=name, field=name,
                                      value=repr(getattr(self, name)))
        if isinstance(self.ranking, str):
            self._set("ranking", get_ranking(self.ranking))
        if not isinstance(self.ranking, Ranking):
            raise HouseRulesError("ranking must be a ranking name", field="ranking",
                                  value=repr(self.ranking))
        self._set("qualifier", check_category(self.qualifier, "qualifier", self.ranking))
        self._set("pay_table", check_pay_table(self.pay_table, "pay_table",
                                               required=self.pay_categories(),
                                               ranking=self.ranking))
        check_int(self.min_ante, "min_ante", minimum=1)
        check_int(self.max_ante, "max_ante", minimum=self.min_ante)
        check_int(self.max_payout, "max_payout", minimum=1)
        check_int(self.bet_multiple, "bet_multiple", minimum=1)

    def pay_categories(self) -> tuple[Category, ...]:
        """Categories the pay table must price: by default the qualifier and every better one."""
        start = self.ranking.strength(self.qualifier)
        return self.ranking.order[start:]

    def multiplier(self, category: Category) -> int:
        """The pay-table multiplier of ``category`` (0 when the table does not pay it)."""
        return self.pay_table.get(category, 0)

    def terms(self) -> RoundTerms:
        """How the one house-round engine runs a round under this profile (each game's profile
        class says it from its own fields)."""
        raise NotImplementedError(f"{type(self).__name__} has no round terms")

    def qualifies(self, category: Category) -> bool:
        """Whether a hand of ``category`` is a game (qualifier or better)."""
        return self.ranking.strength(category) >= self.ranking.strength(self.qualifier)

    @classmethod
    def from_mapping(cls: type[P], data: Mapping[str, Any]) -> P:
        """Load a profile from plain data (JSON, a config file); names the first bad field."""
        if not isinstance(data, Mapping):
            raise HouseRulesError("a profile must be a mapping", field=None,
                                  value=type(data).__name__)
        known = {f.name: f for f in fields(cls)}
        for key in data:
            if key not in known:
                raise HouseRulesError("unknown profile field '%(key)s'", key=key, field=str(key),
                                      value=str(key))
        for name, f in known.items():
            if name not in data and f.default is MISSING and f.default_factory is MISSING:
                raise HouseRulesError("the profile has no %(name)s", name=name, field=name)
        return cls(**data)


_PROFILES: dict[str, HouseProfile] = {}
#: game -> the profile class its profiles are loaded with (from the registered profiles)
_CLASSES: dict[str, type[HouseProfile]] = {}


def _plain(value: Any) -> Any:
    """A profile field as JSON data: rankings and categories by name, tables as objects."""
    if isinstance(value, Ranking):
        return value.name
    if isinstance(value, Category):
        return value.value
    if isinstance(value, Mapping):
        return {str(_plain(k)): _plain(v) for k, v in value.items()}
    return value


def profile_data(profile: HouseProfile) -> dict[str, Any]:
    """The profile as plain JSON data, every field (what a round stores as its own rules);
    :func:`load_profile` turns it back into an equal profile."""
    return {f.name: _plain(getattr(profile, f.name)) for f in fields(profile)}


def profile_hash(data: Mapping[str, Any]) -> str:
    """A fingerprint of a profile's data: SHA-256 of its canonical JSON (sorted keys)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def load_profile(data: Mapping[str, Any]) -> HouseProfile:
    """The profile loader: plain data (a round's stored rules, a config file) -> a validated
    profile of the class its ``game`` uses. Not registered: a round's rules stand alone."""
    if not isinstance(data, Mapping) or not isinstance(data.get("game"), str):
        raise HouseRulesError("a profile must be a mapping with its game", field="game")
    cls = _CLASSES.get(data["game"])
    if cls is None:
        raise HouseRulesError("no profile type for game '%(v)s'", v=data['game'], field="game",
                              value=str(data["game"]))
    return cls.from_mapping({**cls.STORED_WITHOUT, **data})


def check_optional_int(value: Any, name: str, *, minimum: int = 0) -> int | None:
    """None (no limit) or an integer house-rule value of at least ``minimum``."""
    return None if value is None else check_int(value, name, minimum=minimum)


def register_profile(profile: HouseProfile) -> HouseProfile:
    """Make a validated profile available by name (one name, one profile)."""
    existing = _PROFILES.get(profile.name)
    if existing is not None and existing is not profile:
        raise HouseRulesError("profile '%(name)s' is already registered", name=profile.name,
                              field="name",
                              value=profile.name)
    _PROFILES[profile.name] = profile
    _CLASSES.setdefault(profile.game, type(profile))
    return profile


def get_profile(name: str, game: str | None = None) -> HouseProfile:
    """The registered profile ``name``; with ``game``, it must be a profile of that game."""
    profile = _PROFILES.get(name)
    if profile is None or (game is not None and profile.game != game):
        known = sorted(p.name for p in _PROFILES.values() if game is None or p.game == game)
        raise HouseRulesError("unknown profile '%(name)s' (known: %(v)s)", name=name,
                              v=', '.join(known) or 'none',
                              field="profile", value=name)
    return profile


def profiles(game: str | None = None) -> tuple[HouseProfile, ...]:
    """Every registered profile (of one game), for pickers in the UI."""
    return tuple(p for p in _PROFILES.values() if game is None or p.game == game)

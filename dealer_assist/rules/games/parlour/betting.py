"""The pool's betting round (RULES.md "Pool"): bet, call, raise or pass, left of the dealer first.

Amounts are what the player adds above the current bet ("I raise two"). A pass facing a bet is a
fold; folding only affects the pool. The round is over when every player still in has acted since
the last bet or raise (or everyone passed). The result says how the pool is decided: ``no_bet``
(the pool stays), ``uncalled`` (the last bettor takes it unseen) or ``showdown`` (the last raiser
shows first, then the others clockwise from him).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...errors import IllegalActionError, RulesError

ACTION_TYPES = ("bet", "call", "raise", "pass")


@dataclass(frozen=True, slots=True)
class Action:
    player: str
    type: str
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class BettingResult:
    """Each player's chips put in the pool, who is still in, and how the pool is decided."""

    contributions: Mapping[str, int]
    still_in: tuple[str, ...]
    outcome: str  # "no_bet" | "uncalled" | "showdown"
    last_raiser: str | None
    #: showdown order: the last raiser first, then clockwise (empty unless a showdown)
    shows: tuple[str, ...]


def betting_order(players: Sequence[str]) -> tuple[str, ...]:
    """Left of the dealer first, the dealer (``players[0]``) last."""
    return (*players[1:], players[0])


class _Round:
    """The betting state while actions are applied one by one."""

    def __init__(self, players: Sequence[str]) -> None:
        self.order = betting_order(players)
        self.put = {p: 0 for p in players}
        self.current = 0
        self.folded: set[str] = set()
        self.pending = list(self.order)
        self.last_raiser: str | None = None

    def still_in(self) -> tuple[str, ...]:
        return tuple(p for p in self.order if p not in self.folded)

    def apply(self, act: Action, where: str) -> None:
        if not self.pending:
            raise IllegalActionError("%(where)s: the betting round is already over; "
                                     "%(player)s cannot %(type)s",
                                     where=where, player=act.player, type=act.type, field=where,
                                     value=act.player)
        turn = self.pending[0]
        if act.player != turn:
            raise IllegalActionError("%(where)s: it is %(turn)s's turn, not %(player)s's",
                                     where=where, turn=turn, player=act.player,
                                     field=f"{where}.player", value=act.player)
        getattr(self, "_" + act.type)(act, where)

    def _bet(self, act: Action, where: str) -> None:
        if self.current:
            raise IllegalActionError("%(where)s: %(player)s cannot bet, there is already a "
                                     "bet of %(current)s; call, raise or pass",
                                     where=where, player=act.player, current=self.current,
                                     field=f"{where}.type", value="bet")
        self._raise_by(act, where)

    def _raise(self, act: Action, where: str) -> None:
        if not self.current:
            raise IllegalActionError("%(where)s: %(player)s cannot raise, nobody has bet; "
                                     "bet or pass",
                                     where=where, player=act.player, field=f"{where}.type",
                                     value="raise")
        self._raise_by(act, where)

    def _raise_by(self, act: Action, where: str) -> None:
        if act.amount is None or act.amount < 1:
            raise RulesError("%(where)s: a %(type)s adds at least 1 chip above the current "
                             "bet", where=where, type=act.type,
                             field=f"{where}.amount", value=act.amount)
        self.current += act.amount
        self.put[act.player] = self.current
        self.last_raiser = act.player
        i = self.order.index(act.player)
        after = self.order[i + 1:] + self.order[:i]
        self.pending = [p for p in after if p not in self.folded]

    def _call(self, act: Action, where: str) -> None:
        if self.put[act.player] >= self.current:
            raise IllegalActionError("%(where)s: %(player)s has no bet to call; bet or pass",
                                     where=where, player=act.player,
                                     field=f"{where}.type", value="call")
        self.put[act.player] = self.current
        self.pending.pop(0)

    def _pass(self, act: Action, where: str) -> None:
        if self.put[act.player] < self.current:
            self.folded.add(act.player)
        self.pending.pop(0)
        if len(self.still_in()) == 1:
            self.pending = []


def run_betting(players: Sequence[str], actions: Sequence[Action]) -> BettingResult:
    """Apply the actions in order; every error names the action (``betting[2]``) and player."""
    rnd = _Round(players)
    for i, act in enumerate(actions):
        where = f"betting[{i}]"
        if act.type not in ACTION_TYPES:
            raise RulesError("%(where)s: unknown action '%(type)s' (bet, call, raise, pass)",
                             where=where, type=act.type,
                             field=f"{where}.type", value=act.type)
        if act.player not in rnd.put:
            raise RulesError("%(where)s: '%(player)s' is not a player", where=where,
                             player=act.player, field=f"{where}.player",
                             value=act.player)
        if act.type in ("call", "pass") and act.amount is not None:
            raise RulesError("%(where)s: a %(type)s has no amount", where=where,
                             type=act.type, field=f"{where}.amount",
                             value=act.amount)
        rnd.apply(act, where)
    if rnd.pending:
        raise IllegalActionError("the betting round is not finished: %(v)s to act",
                                 v=rnd.pending[0],
                                 field="betting", value=rnd.pending[0])
    still = rnd.still_in()
    if rnd.last_raiser is None:
        return BettingResult(dict(rnd.put), still, "no_bet", None, ())
    if len(still) == 1:
        return BettingResult(dict(rnd.put), still, "uncalled", rnd.last_raiser, ())
    i = rnd.order.index(rnd.last_raiser)
    shows = tuple(p for p in rnd.order[i:] + rnd.order[:i] if p not in rnd.folded)
    return BettingResult(dict(rnd.put), still, "showdown", rnd.last_raiser, shows)

"""Every recorded decision of a round judged against the lab's best option.

For each box whose cards were shown, the decisions the record makes visible are valued by the
decision advisor (``lab.advice``) with exactly what the player knew then:

* ``deal``: the improvement (or bet/fold) chosen on the five dealt cards, when the dealt cards
  and the discards are on record (a card-reading shoe, all cards first; a dealing-order round
  knows only how many cards were exchanged, and the dealt hand is then not judged);
* ``bet``: bet or fold with the final hand after an improvement, when it was shown;
* ``split`` (Big/Small): the split of the seven cards;
* ``insurance`` (Russian poker): the stake against the best stake (none or the largest);
* ``no_game``: take the ANTE or buy a game, seeing the dealer's five cards.

Each judgement gives the chosen and the best option, their expected results and the EV given
up in chips; ``no_game`` and ``insurance`` also carry what the decision actually returned and
the variance of its result, which :mod:`.alerts` needs. Pure: a profile, a replayed round
state and its settlement in, judgements out (``services.decisions`` loads them from a session).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...lab.advice import advise
from ...lab.batch import rank_keys
from ...lab.options import Advice, Option
from ...lab.russian_best import valuer
from ...lab.strategy_lookup import table_choice
from ...rules.games.registry import get_game
from ...rules.games.russian import RussianProfile
from ...rules.games.stud import CaribbeanProfile, SplitProfile
from ...rules.profiles import HouseProfile
from .insurance import judge_insurance
from .judged import TIE, Judged, indices, names_player, player_of, seen_cards


def _judged(box: Any, stage: str, advice: Any, chosen: tuple[str, tuple[int, ...]],
            realized: float | None = None) -> Judged | None:
    option = advice.find(*chosen)
    if option is None:
        return None
    best = advice.best
    if best.ev - option.ev <= TIE:
        best = option
    return Judged(box.box, player_of(box), stage, chosen, (best.action, tuple(best.cards)),
                  option.ev, best.ev, box.ante, option.method,
                  realized if option.variance is not None else None, option.variance,
                  names_player(box))


def judge_state(profile: HouseProfile, state: Any, settlement: dict[str, Any] | None,
                ) -> list[Judged]:
    """Every judgeable decision of the round ``state`` (a replayed round of ``profile``)."""
    nets = {b["box"]: b for b in (settlement or {}).get("boxes", [])}
    judge = _JUDGES.get(get_game(profile.game).lab or "")  # None: the lab has no engine
    out: list[Judged] = []
    for box in state.boxes:
        items = judge(profile, state, box, nets.get(box.box)) if judge else []
        out.extend(j for j in items if j is not None)
    return out


def _deal_choice(box: Any, improved: dict[str, str]) -> tuple[str, tuple[int, ...]] | None:
    """The option a box took on its dealt cards, if the record says which cards it gave up."""
    imp = box.improvement
    if imp is None:
        return ("bet" if box.betting else "fold", ()) if box.decision else None
    kind = improved.get(imp.kind)
    if kind is None:
        return None
    if kind in ("exchange", "replace"):
        return (kind, tuple(sorted(indices(imp.discard)))) if imp.discard else None
    return kind, ()


def _dealer_up(state: Any) -> int | None:
    if state.up:
        return int(state.up[0].index)
    return int(state.dealer[-1].index) if state.dealer else None


def _russian(profile: RussianProfile, state: Any, box: Any,
             net: dict[str, Any] | None) -> list[Judged | None]:
    out: list[Judged | None] = []
    first = box.first_five
    choice = _deal_choice(box, {"exchange": "exchange", "sixth_card": "sixth_card"})
    if len(first) == 5 and choice is not None:
        out.append(_deal(profile, box, indices(first), choice))
    if box.improvement is not None and box.hand_known and box.decision:
        out.append(_after_improvement(profile, box))
    if box.betting and box.hand_known and state.revealed:
        out.append(_insurance(profile, state, box, net))
        if not _dealer_qualified(profile, state) and box.no_game and net is not None:
            out.append(_no_game(profile, state, box, net))
    return out


def _deal(profile: RussianProfile, box: Any, first: list[int],
          choice: tuple[str, tuple[int, ...]]) -> Judged | None:
    """The deal decision: when the box did what the stored table says, its value is the
    table's (no advisor run); otherwise the advisor values every option."""
    table = table_choice(profile, first)
    if table is not None and table[0][0] == choice[0] \
            and sorted(table[0][1]) == sorted(choice[1]):
        return Judged(box.box, player_of(box), "deal", choice, choice, table[1], table[1], box.ante,
                      "model", named=names_player(box))
    return _judged(box, "deal", advise(profile, "deal", first, ante=box.ante), choice)


def _after_improvement(profile: RussianProfile, box: Any) -> Judged | None:
    """Bet or fold with the final hand (exact: the dealer avoids every card the box saw)."""
    v = valuer(profile)
    final = np.array(sorted(indices(box.hand_cards)))
    value = float(v.values(final[None, :], np.array([seen_cards(box)]))[0])
    options = sorted([Option("bet", (), value, 0.0, "exact"),
                      Option("fold", (), -1.0, 0.0, "exact")], key=lambda o: -o.ev)
    advice = Advice(profile.name, profile.game, "bet", options, 0.0)
    return _judged(box, "bet", advice, ("bet" if box.betting else "fold", ()))


def _dealer_qualified(profile: HouseProfile, state: Any) -> bool:
    key = rank_keys(np.array([indices(state.dealer)]), profile.ranking)[0]
    return bool((key >> 24) >= profile.ranking.strength(profile.qualifier))


def _insurance(profile: RussianProfile, state: Any, box: Any,
               net: dict[str, Any] | None) -> Judged | None:
    return judge_insurance(profile, state, box, net)


def _no_game(profile: HouseProfile, state: Any, box: Any, net: dict[str, Any],
             split: bool = False) -> Judged | None:
    """Take the ANTE or buy a game; ``split``: the box's Big Hand plays (Big/Small)."""
    kwargs: dict[str, Any] = {"dealer": indices(state.dealer), "ante": box.ante}
    if split:
        cards, seen = indices(box.big or box.hand_cards), indices(box.cards) + indices(box.small)
        kwargs["small"] = indices(box.small) or None
        seen = [c for c in seen if c not in cards and c not in (kwargs["small"] or [])]
    else:
        cards = indices(box.hand_cards)
        seen = [c for c in seen_cards(box) if c not in cards]
    advice = advise(profile, "no_game", cards, seen=seen, **kwargs)
    chosen = ("buy_game", ()) if box.no_game == "buy_game" else ("take_ante", ())
    wagers = net.get("wagers", {})
    realized = sum(int(wagers.get(w, {}).get("net", 0))
                   for w in ("ante", "bet", "buy_game_fee")) / box.ante
    return _judged(box, "no_game", advice, chosen, realized)


def _stud(profile: CaribbeanProfile, state: Any, box: Any) -> list[Judged | None]:
    up = _dealer_up(state)
    if up is None:
        return []
    out: list[Judged | None] = []
    first = box.first_five
    choice = _deal_choice(box, {"replace": "replace"})
    if choice is not None and choice[0] == "bet":
        choice = ("raise", ())
    if len(first) == 5 and choice is not None:
        out.append(_judged(box, "deal", advise(profile, "deal", indices(first), up=up,
                                               ante=box.ante), choice))
    return out


def _split(profile: SplitProfile, state: Any, box: Any,
           net: dict[str, Any] | None) -> list[Judged | None]:
    up = _dealer_up(state)
    out: list[Judged | None] = []
    first = box.first_five
    choice = _deal_choice(box, {"free": "free_extra", "bought": "bought_extra"})
    if up is not None and len(first) == 5 and choice is not None:
        out.append(_judged(box, "deal", advise(profile, "deal", indices(first), up=up,
                                               ante=box.ante), choice))
    imp = box.improvement
    if up is not None and imp is not None and imp.kind == "bought" and box.big and box.small:
        seven = indices(box.big) + indices(box.small)
        chosen = ("split", tuple(sorted(indices(box.small)))) if box.betting else ("fold", ())
        out.append(_judged(box, "split", advise(profile, "split", seven, up=up,
                                                ante=box.ante), chosen))
    if box.betting and state.revealed and box.no_game and net is not None \
            and not _dealer_qualified(profile, state) and box.big:
        out.append(_no_game(profile, state, box, net, split=True))
    return out


#: each lab engine's judge (the game's ``GameSpec.lab`` names it; ``lab/games.py``)
_JUDGES: dict[str, Callable[[Any, Any, Any, dict[str, Any] | None], list[Judged | None]]] = {
    "russian": _russian, "stud": lambda profile, state, box, net: _stud(profile, state, box),
    "split": _split}

"""The engine's codes and values in the reader's words: hand names, reason lines and the table's
action words in English or Russian, from a gettext catalog -- pure, so the server and the table's
tablet (offline, in Pyodide) say every word the same way.

The rules engine returns values (a hand's category and cards, a wager's outcome and net) and
:class:`~dealer_assist.rules.phrase.Phrase` objects (a message id and its values); it never
decides what a person reads. :meth:`Words.say` translates a phrase through the catalog, naming
the hands, categories and nested phrases inside it in the same language.

Hand names are grammar, not a lookup: Russian needs a rank in four forms (``король``,
``короли``, ``королей``, ``до короля``), which gettext cannot inflect, so the names are built
here per language. The English names are exactly the engine's ``label`` (a test checks every
category), which stays in the API as the contract's English wording.

Money is an integer in the table's currency unit: grouped by language (``1,600`` /
``1 600`` with a no-break space, as Babel's CLDR data writes them; a test compares the two),
a true minus sign, ``–`` for no value. The server's ``i18n`` wires a :class:`Words` to
Flask-Babel's catalogs; the tablet to the same ``.mo`` files read by :mod:`gettext`.
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..rules.cards import RANK_NAME, RANK_PLURAL, Card, parse_card
from ..rules.evaluator import HandValue, SmallHandValue
from ..rules.phrase import Amount, Lower, Phrase
from ..rules.ranking import Category

C = Category
MINUS = "\u2212"
#: how each language groups thousands (CLDR: ``,`` in English, a no-break space in Russian)
GROUP = {"en": ",", "ru": "\u00a0"}
#: Russian rank forms: nominative singular, nominative plural, genitive plural, genitive singular
_RU = {
    2: ("двойка", "двойки", "двоек", "двойки"), 3: ("тройка", "тройки", "троек", "тройки"),
    4: ("четвёрка", "четвёрки", "четвёрок", "четвёрки"),
    5: ("пятёрка", "пятёрки", "пятёрок", "пятёрки"),
    6: ("шестёрка", "шестёрки", "шестёрок", "шестёрки"),
    7: ("семёрка", "семёрки", "семёрок", "семёрки"),
    8: ("восьмёрка", "восьмёрки", "восьмёрок", "восьмёрки"),
    9: ("девятка", "девятки", "девяток", "девятки"),
    10: ("десятка", "десятки", "десяток", "десятки"), 11: ("валет", "валеты", "валетов", "валета"),
    12: ("дама", "дамы", "дам", "дамы"), 13: ("король", "короли", "королей", "короля"),
    14: ("туз", "тузы", "тузов", "туза"),
}
#: which of the five cards (in the engine's order) carry the ranks a hand's name mentions
_NAMED = {C.royal_flush: (), C.straight_flush: (0,), C.straight: (0,), C.flush: (0,),
          C.four_of_a_kind: (0, 4), C.full_house: (0, 3), C.three_of_a_kind: (0,),
          C.two_pairs: (0, 2, 4), C.one_pair: (0, 2), C.ace_king: (2,), C.high_card: (0,)}




class Gettext(Protocol):
    def __call__(self, string: str, **variables: Any) -> str: ...


class Ngettext(Protocol):
    def __call__(self, singular: str, plural: str, num: int, **variables: Any) -> str: ...


def plain_money(value: int | None, language: str) -> str:
    """An integer amount without a currency: ``1,234`` (en) / ``1 234`` (ru), a true minus
    sign, ``–`` for no value."""
    if value is None:
        return "–"
    number = f"{abs(int(value)):,}".replace(",", GROUP.get(language, ","))
    return (MINUS if value < 0 else "") + number


@dataclass(frozen=True, slots=True)
class Words:
    """The reader's words in one language: ``gettext``/``ngettext`` with Flask-Babel's
    signature (keyword values formatted into the translation)."""

    gettext: Gettext
    ngettext: Ngettext
    language: str

    def money(self, value: int | None) -> str:
        return plain_money(value, self.language)

    def cards(self, count: int) -> str:
        """``1 card``, ``5 cards`` (``1 карта``, ``3 карты``, ``5 карт``)."""
        return str(self.ngettext("%(num)d card", "%(num)d cards", count))

    def category_name(self, category: Category | str) -> str:
        """``two_pairs`` -> ``Two pairs`` / ``Две пары``."""
        names = {
            C.royal_flush: self.gettext("Royal flush"),
            C.straight_flush: self.gettext("Straight flush"),
            C.four_of_a_kind: self.gettext("Four of a kind"),
            C.full_house: self.gettext("Full house"),
            C.flush: self.gettext("Flush"),
            C.straight: self.gettext("Straight"),
            C.three_of_a_kind: self.gettext("Three of a kind"),
            C.two_pairs: self.gettext("Two pairs"),
            C.one_pair: self.gettext("One pair"),
            C.ace_king: self.gettext("Ace-King"),
            C.high_card: self.gettext("High card"),
        }
        return str(names[Category(category)])

    def hand_name(self, hand: HandValue | SmallHandValue | Mapping[str, Any] | None) -> str:
        """A hand value (or its API dict: ``category`` and ``cards``) named in the reader's
        language: ``Two pairs, kings and sevens, five kicker`` / ``Две пары, короли и
        семёрки, кикер пятёрка``."""
        if hand is None:
            return ""
        if isinstance(hand, HandValue | SmallHandValue):
            category, ranks = hand.category, _ranks(hand.cards)
        elif "category" not in hand:  # a hand stored without its category: its own label
            return str(hand.get("label") or "")
        else:
            category, ranks = Category(hand["category"]), _ranks(hand.get("cards") or [])
        if len(ranks) == 2:
            return _small(category, ranks, self.language)
        named = [ranks[i] for i in _NAMED[category]]
        return (_ru if self.language == "ru" else _en)(category, named)

    def _value(self, value: Any) -> Any:
        """A phrase's value in the reader's language (hands, categories, nested phrases)."""
        if isinstance(value, Phrase):
            return self.say(value)
        if isinstance(value, Amount):
            return self.money(int(value))
        if isinstance(value, Lower):
            return str(self._value(value.value)).lower()
        if isinstance(value, HandValue | SmallHandValue):
            return self.hand_name(value)
        if isinstance(value, Category):
            return self.category_name(value)
        return value

    def _stored(self, text: str) -> str | None:
        """``text`` read as one of :data:`STORED_PHRASES`, said in the reader's language."""
        for msgid, pattern in _STORED:
            found = pattern.match(text)
            if found:
                values = {k: self.say(v) for k, v in found.groupdict().items()}
                return str(self.gettext(msgid, **values)) if values else str(self.gettext(msgid))
        return None

    def say(self, text: str | None) -> str:
        """A :class:`Phrase` (or a plain message id) translated; a stored sentence made from a
        known message id (:data:`STORED_PHRASES`) too; any other plain string (a stored note,
        a name) comes back unchanged."""
        if not text:
            return ""
        if not isinstance(text, Phrase):
            said = str(self.gettext(text))
            if said == text:  # English too: the en catalog may reword a stored sentence
                return self._stored(text) or said
            return said
        params = {k: self._value(v) for k, v in text.params.items()}
        if text.plural is not None and text.n is not None:
            params.pop("num", None)  # ngettext sets it from n
            return str(self.ngettext(text.msgid, text.plural, text.n, **params))
        return str(self.gettext(text.msgid, **params)) if params else str(self.gettext(text.msgid))

    def reason(self, wager: Mapping[str, Any] | None) -> str:
        """A wager's reason said in the reader's language. In memory its ``explanation`` is a
        :class:`Phrase`. A settlement read back from storage holds the English text only
        (stored settlements are exactly the engine's ``to_dict``, the replay invariant): a
        reason without values is still found in the catalog, one with values stays English."""
        if not wager:
            return ""
        text = wager.get("explanation") or ""
        return self.say(text if isinstance(text, str) else str(text))

    def wager_name(self, name: str) -> str:
        """The table's word for a wager: ANTE, BET, ... / АНТЕ, БЕТ, ..."""
        names = {
            "ante": self.gettext("ANTE"),
            "bet": self.gettext("BET"),
            "improvement_fee": self.gettext("Improvement fee"),
            "buy_game_fee": self.gettext("Buy-game fee"),
            "insurance": self.gettext("Insurance"),
            "bonus": self.gettext("Bonus"),
        }
        return str(names.get(name, name.replace("_", " ")))

    def action(self, net: int) -> str:
        """What the croupier does with a wager or a box: PAY, TAKE or RETURN (the stake goes
        back); one word for a returned wager on every screen."""
        if net > 0:
            return str(self.gettext("PAY"))
        if net < 0:
            return str(self.gettext("TAKE"))
        return str(self.gettext("RETURN"))


def catalog_words(catalog: _gettext.NullTranslations, language: str) -> Words:
    """:class:`Words` over a :mod:`gettext` catalog (the tablet's: the server's ``.mo`` file),
    formatting as Flask-Babel does (values only when given; ``num`` set from ``n``)."""
    def say(string: str, **variables: Any) -> str:
        text = catalog.gettext(string)
        return text % variables if variables else text

    def say_n(singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        return catalog.ngettext(singular, plural, num) % variables

    return Words(say, say_n, language)


def _ranks(cards: Sequence[Card | str]) -> list[int]:
    return [(c if isinstance(c, Card) else parse_card(c)).rank for c in cards]


def _en(category: Category, r: list[int]) -> str:
    """The engine's own English label (``evaluator._label``), from the named ranks."""
    n, pl = RANK_NAME, RANK_PLURAL
    forms: dict[Category, Callable[[], str]] = {
        C.royal_flush: lambda: "Royal flush",
        C.straight_flush: lambda: f"Straight flush, {n[r[0]]} high",
        C.straight: lambda: f"Straight, {n[r[0]]} high",
        C.flush: lambda: f"Flush, {n[r[0]]} high",
        C.four_of_a_kind: lambda: f"Four of a kind, {pl[r[0]]}, {n[r[1]]} kicker",
        C.full_house: lambda: f"Full house, {pl[r[0]]} over {pl[r[1]]}",
        C.three_of_a_kind: lambda: f"Three of a kind, {pl[r[0]]}",
        C.two_pairs: lambda: f"Two pairs, {pl[r[0]]} and {pl[r[1]]}, {n[r[2]]} kicker",
        C.one_pair: lambda: f"One pair, {pl[r[0]]}, {n[r[1]]} kicker",
        C.ace_king: lambda: f"Ace-King, {n[r[0]]} kicker",
        C.high_card: lambda: f"High card, {n[r[0]]}",
    }
    return forms[category]()


def _ru(category: Category, r: list[int]) -> str:
    """Russian table wording (docs/glossary.md): каре королей, две пары, стрит до короля."""
    def one(i: int) -> str:
        return _RU[r[i]][0]

    def many(i: int) -> str:
        return _RU[r[i]][1]

    def of(i: int) -> str:
        return _RU[r[i]][2]

    def upto(i: int) -> str:
        return _RU[r[i]][3]

    forms: dict[Category, Callable[[], str]] = {
        C.royal_flush: lambda: "Роял-флеш",
        C.straight_flush: lambda: f"Стрит-флеш до {upto(0)}",
        C.straight: lambda: f"Стрит до {upto(0)}",
        C.flush: lambda: f"Флеш до {upto(0)}",
        C.four_of_a_kind: lambda: f"Каре {of(0)}, кикер {one(1)}",
        C.full_house: lambda: f"Фулл-хаус, {many(0)} и {many(1)}",
        C.three_of_a_kind: lambda: f"Тройка {of(0)}",
        C.two_pairs: lambda: f"Две пары, {many(0)} и {many(1)}, кикер {one(2)}",
        C.one_pair: lambda: f"Пара {of(0)}, кикер {one(1)}",
        C.ace_king: lambda: f"Туз-король, кикер {one(0)}",
        C.high_card: lambda: f"Старшая карта {one(0)}",
    }
    return forms[category]()


def _small(category: Category, ranks: list[int], language: str) -> str:
    """A Big/Small game's two-card Small Hand: ``Pair of kings`` / ``King-seven high``."""
    hi, lo = sorted(ranks, reverse=True)
    if language == "ru":
        if category == C.one_pair:
            return f"Пара {_RU[hi][2]}"
        return f"{_RU[hi][0].capitalize()}-{_RU[lo][0]}"
    if category == C.one_pair:
        return f"Pair of {RANK_PLURAL[hi]}"
    return f"{RANK_NAME[hi].capitalize()}-{RANK_NAME[lo]} high"


def N_(message: str) -> str:
    """Mark a message id for extraction; it is translated where it is shown (``say``)."""
    return message


#: sentences stored as English text (a void's or a correction's reason) built from these message
#: ids: read back from the database they are said in the reader's language too (item
#: 13: "redeal: box 2 received 6 cards" on the Russian screen)
STORED_PHRASES = (
    N_("redeal: %(v)s"), N_("box %(box)s received %(count)s cards"),
    N_("wrong number of cards"), N_("Dispute %(id)s upheld: %(note)s"),
    N_("Dispute %(id)s: decision %(new)s supersedes decision %(old)s"),
    # Caribbean/Oasis's raise is the BET wager; the en catalog says "BET paid"
    N_("%(why)s: raise paid %(mult)s:1%(cap_note)s"),
)


def _pattern(msgid: str) -> re.Pattern[str]:
    parts = re.split(r"%\((\w+)\)s", msgid)
    body = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.*?)" for i, p in enumerate(parts))
    return re.compile(f"^{body}$", re.S)


_STORED = tuple((msgid, _pattern(msgid)) for msgid in STORED_PHRASES)


#: words the pages show from stored codes and engine titles (``|say`` translates them): game
#: titles, statuses, kinds of requests and corrections, the timeline's event labels
SHOWN_CODES = (
    N_("Russian poker"), N_("Caribbean stud poker"), N_("Oasis poker"),
    N_("Big/Small hand poker"), N_("open"), N_("settled"), N_("voided"), N_("pending"),
    N_("approved"), N_("rejected"), N_("upheld"), N_("denied"), N_("escalated"), N_("void"),
    N_("correction"), N_("dispute"), N_("reversal"), N_("Open"), N_("Upheld"), N_("Denied"),
    N_("Escalated"), N_("Waiting"), N_("Approved"), N_("Rejected"), N_("Place"),
    N_("Deal box"), N_("Deal dealer"), N_("Deal up"), N_("Reveal"), N_("Exchange"),
    N_("Sixth card"), N_("Bet"), N_("Fold"), N_("Insure"), N_("Take ante"), N_("Buy game"),
    N_("Dealer draw"), N_("Dealer small"), N_("Show"), N_("Paid"), N_("Undo"), N_("Redeal"),
    N_("Split"), N_("Replace"), N_("Extra"), N_("Improvement"),
    # the engine's step labels (``engine.Step.label``), said on the table screen
    N_("6th card"), N_("Close the voided round"), N_("Deal"), N_("Dealer's Small Hand"),
    N_("Dealer's face-up card"), N_("Dealer's new card"), N_("Extra cards"),
    N_("Place the bets"), N_("Raise"), N_("Replace cards"), N_("Reveal the dealer"),
    N_("Show the hand"), N_("Take ANTE"),
    # the poker room's betting structures (profile data), on the tables list
    N_("limit"), N_("pot-limit"), N_("no-limit"),
)
#: what the engine's steps ask the croupier to enter (``rules.inputs``: their labels)
SHOWN_INPUTS = (
    N_("Tap the dealer's face-up card."), N_("Turn the dealer's hole cards over and tap them."),
    N_("Tap the dealer's new card."), N_("Turn the box's hand over and tap its cards."),
    N_("Then the 2 cards of its Small Hand."), N_("How many cards"),
    N_("Tap the cards to discard, then the new cards."), N_("The new cards"),
    N_("The player shows his hand: tap its cards."), N_("Amount"), N_("Cards the box received"),
    N_("Free extra + BET"), N_("Bought extra (1 ANTE)"),
    N_("Tap the two cards of the Small Hand."), N_("The 5 cards of the Big Hand"),
    N_("The 2 cards of the Small Hand"), N_("Tap the 2 cards of the dealer's Small Hand."),
    N_("Suggested: Big %(big)s, Small %(small)s"), N_("%(said)s (folding is better)"),
)
#: a box's decisions and improvements as the table screen's status line shows them
SHOWN_DECISIONS = (N_("bet"), N_("fold"), N_("exchange"), N_("sixth_card"), N_("replace"),
                   N_("bought"), N_("free"))
#: kinds of chip movements on the inventory page
SHOWN_KINDS = (N_("fill"), N_("credit"), N_("opening"), N_("closing"))

"""Player-versus-player poker: Americana stud (seed 000) and 32-card draw (seed 002).

The dealer runs the betting, keeps the pot and pushes it to the winner; this package tells him,
at every moment, whose turn it is, what that player may do and for how much, what is in the pot
and, at the end, who wins which pot. Pure standard library, integers only.

Public interface::

    from dealer_assist.rules.games.poker import (Action, SeatEntry, get_poker_profile, make_stakes,
                                           replay, apply, can_act, legal, hand_to_dict)
"""

from .betting import Legal, legal
from .calculator import encode_action, hand_to_dict, parse_action, parse_hand
from .game import AMERICANA, DRAW32, HandResult, PokerGame, shown_hands
from .hand import apply, can_act, replay, start_hand, verify_action
from .profile import PokerProfile, Stakes, get_poker_profile, make_stakes, poker_profiles
from .setup import SeatEntry
from .state import Action, HandState, Posting, PotResult

__all__ = [
    "AMERICANA", "DRAW32", "Action", "HandResult", "HandState", "Legal", "PokerGame",
    "PokerProfile", "Posting", "PotResult", "SeatEntry", "Stakes", "apply", "can_act",
    "encode_action", "get_poker_profile", "hand_to_dict", "legal", "make_stakes", "parse_action",
    "parse_hand", "poker_profiles", "replay", "shown_hands", "start_hand", "verify_action",
]

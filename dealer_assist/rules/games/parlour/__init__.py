"""Parlour Americana (seed 003, Parker Brothers' board game): the banker's arithmetic.

The board (a pool and eight sections) is profile data; :func:`play_hand` takes one whole hand
(antes, the extra hand, the pool betting round, collecting, the "Ante" play-out) and returns every
chip movement, the board to carry to the next hand and each player's net. Pure and deterministic.
"""

from .betting import Action, BettingResult, run_betting
from .board import Board, SectionAward, antes_of, collect
from .calculator import end_of_game_request, settle_hand_request
from .game import PARLOUR, EndDeal, Evening, ParlourGame
from .hand import EndOfGame, ExtraHand, HandInput, HandResult, end_of_game, play_hand
from .playout import Playout, play_out
from .profile import DEFAULT_PROFILE, ParlourProfile, Section, get_parlour_profile

__all__ = [
    "DEFAULT_PROFILE", "PARLOUR", "Action", "Board", "BettingResult", "EndDeal", "EndOfGame",
    "Evening", "ExtraHand", "HandInput", "HandResult", "ParlourGame", "ParlourProfile", "Playout",
    "Section", "SectionAward", "antes_of", "collect", "end_of_game", "end_of_game_request",
    "get_parlour_profile", "play_hand", "play_out", "run_betting", "settle_hand_request",
]

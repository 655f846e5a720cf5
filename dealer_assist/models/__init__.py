"""The database tables (SQLModel), one module per concept. Schema changes go through Alembic
(``dealer_assist/migrations``); importing this package registers every table on the metadata.

``base`` holds what every table module shares (constraint naming, :func:`utcnow`,
:class:`UTCDateTime`); ``people`` (accounts, login sessions), ``tables``, ``shifts``, ``rounds``
(rounds, their events and settlements), ``inventory`` (chip counts, fills, credits), ``audit``
(the audit chain, disputes, voids, corrections), ``floor`` (dealers' stints, table devices,
signatures), ``cage`` (buy-ins, numbered slips, the soft count), ``poker`` (poker tables
and seats), ``parlour`` (the parlour board game) and ``players`` (rated players' cards and
visits). The table classes are re-exported here:
``from dealer_assist.models import Round``.
"""

from __future__ import annotations

from .audit import (
    AuditEntry,
    ChangeKind,
    CorrectionSource,
    Dispute,
    DisputeDecision,
    Outcome,
    RoundChangeDecision,
    RoundChangeRequest,
    RoundCorrection,
)
from .base import NAMING, UTCDateTime, utcnow
from .cage import (
    BuyIn,
    CageIssue,
    CageReceipt,
    DropCount,
    HoldNote,
    Slip,
    SlipCounter,
    SlipKind,
    SlipVoid,
)
from .floor import ActSignature, DealerStint, OfflineRefusal, SignMethod, StintKind, TableDevice
from .inventory import ChipTransfer, CountKind, InventoryCount, TransferKind
from .lab import LabFigures
from .parlour import ParlourGame
from .people import AuthSession, LoginThrottle, Role, User
from .players import PlayerCard, PlayerVisit
from .poker import PokerChipMove, PokerSeat, PokerTable
from .rounds import Round, RoundEvent, RoundSettlement, RoundStatus
from .shifts import Shift, ShiftStatus
from .tables import POKER_GAMES, Game, GameTable

__all__ = [
    "ActSignature", "AuditEntry", "AuthSession", "BuyIn", "CageIssue", "CageReceipt", "ChangeKind",
    "ChipTransfer",
    "CorrectionSource", "CountKind", "DealerStint", "DropCount", "HoldNote", "LabFigures",
    "OfflineRefusal",
    "SignMethod", "Slip", "SlipCounter", "SlipKind", "SlipVoid", "StintKind", "TableDevice",
    "Dispute", "DisputeDecision", "Game", "GameTable", "InventoryCount", "LoginThrottle", "NAMING",
    "Outcome", "ParlourGame", "PlayerCard", "PlayerVisit", "POKER_GAMES", "PokerChipMove",
    "PokerSeat",
    "PokerTable", "Role", "Round", "RoundChangeDecision", "RoundChangeRequest",
    "RoundCorrection", "RoundEvent", "RoundSettlement", "RoundStatus", "Shift", "ShiftStatus",
    "TransferKind", "User", "UTCDateTime", "utcnow",
]

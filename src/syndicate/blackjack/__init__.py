"""Blackjack: pure rules, the round state machine, views and histories."""

from .course import BETTING, EARLY_SURRENDER, INSURANCE, PLAYING, SETTLED
from .hands import PlayerHand, Seat, hand_total
from .round import Round, shuffled
from .rules import DEFAULT_PRESET, KEYS, PRESET_TITLES, PRESETS, Rules, preset
from .session import Session

__all__ = [
    "BETTING",
    "DEFAULT_PRESET",
    "EARLY_SURRENDER",
    "INSURANCE",
    "KEYS",
    "PLAYING",
    "PRESETS",
    "PRESET_TITLES",
    "SETTLED",
    "PlayerHand",
    "Round",
    "Rules",
    "Seat",
    "Session",
    "hand_total",
    "preset",
    "shuffled",
]

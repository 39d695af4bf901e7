"""Five-card draw: the hand evaluator and the draw engine (pure: no I/O, no clock).

The batch evaluator (numba) is imported on first use, so playing a hand never pays for
loading numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .draw import DrawHand
from .evaluator import CATEGORIES, VALUES, HandValue, best_five, best_of, evaluate, value_of_rank
from .pots import Pot
from .rules import DrawRules
from .table import DrawTable

if TYPE_CHECKING:
    from .maths.batch import all_hands, evaluate_batch, frequency_table

_BATCH = ("all_hands", "evaluate_batch", "frequency_table")

__all__ = [
    "CATEGORIES", "VALUES", "DrawHand", "DrawRules", "DrawTable", "HandValue", "Pot", "all_hands",
    "best_five", "best_of", "evaluate", "evaluate_batch", "frequency_table", "value_of_rank",
]


def __getattr__(name: str) -> Any:
    if name in _BATCH:
        from .maths import batch

        return getattr(batch, name)
    raise AttributeError(f"module 'syndicate.poker' has no attribute {name!r}")

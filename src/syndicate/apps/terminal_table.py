"""What every game's play at a live table from the terminal shares (``syndicate play
--server``): the question before leaving with chips in play, and the hand's title."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


async def sure(input_fn: Callable[[str], str], question: str) -> bool:
    """Leaving with chips in play forfeits them: asked first, never on one key."""
    try:
        answer = await asyncio.to_thread(input_fn, f"{question} [y] (or q again) to leave, any other key to stay: ")
    except EOFError:  # no one left to answer (the input ended): leave, as asked
        return True
    return answer.strip().lower() in ("y", "yes", "q", "quit")


def hand_title(state: dict[str, Any]) -> str:
    """The hand by its evening-wide number, as every page says it (``hand_id``: known once the
    hand is stored, at its first bet or ante)."""
    return f"Hand {state['hand_id']}" if state.get("hand_id") is not None else "New hand"


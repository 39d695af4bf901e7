"""What replaying a hand history reports, the same for every game (``syndicate replay --json``)."""

from __future__ import annotations

from typing import Any


def replay_json(
    game: str, rounds: int, matches: bool, results: dict[int, int], steps: list[str], problems: list[str]
) -> dict[str, Any]:
    """The JSON that `syndicate replay --json` prints, the same for every game."""
    return {
        "game": game,
        "rounds": rounds,
        "matches": matches,
        "results": {str(k): v for k, v in sorted(results.items())},
        "steps": steps,
        "problems": problems,
    }

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


def clock_moves(entry: dict[str, Any]) -> dict[int, float | None]:
    """The moves of a round (or hand) the turn clock made for a player who let it run out, by
    their index in the log, with the clock's length: the card room marks them in the entry's
    ``entered_by`` (docs/hand-history.md)."""
    return {e["at"]: e.get("clock") for e in entry.get("entered_by") or [] if isinstance(e, dict) and "clock" in e}


def by_clock(line: str, seconds: float | None) -> str:
    """A step the clock made, said as the clock's: "seat 2 stands on hand 1 (the clock: time ran
    out after 30 s, not the player's choice)"."""
    length = f" after {seconds:g} s" if isinstance(seconds, (int, float)) else ""
    return f"{line} (the clock: time ran out{length}, not the player's choice)"

"""Hand-history files: load one, and dispatch replay and verify to its game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FORMAT = "syndicate-history"


class HistoryError(ValueError):
    """A file that is not a Syndicate hand history we can read."""


def load(path: str | Path) -> dict[str, Any]:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HistoryError(f"no such file: {path}") from None
    except json.JSONDecodeError as e:
        raise HistoryError(f"{path} is not JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise HistoryError(f"{path} is not a Syndicate hand history (its format is not {FORMAT!r})")
    if doc.get("game") not in ("blackjack", "poker"):
        raise HistoryError(f"{path}: unknown game {doc.get('game')!r}; known: blackjack, poker")
    return doc


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


def _module(doc: dict[str, Any]) -> Any:
    if doc["game"] == "blackjack":
        from .blackjack import history
    else:
        from .poker import history  # type: ignore[no-redef]
    return history


def replay(doc: dict[str, Any]) -> Any:
    return _module(doc).replay(doc)


def verify(doc: dict[str, Any]) -> Any:
    return _module(doc).verify(doc)

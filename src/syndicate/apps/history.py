"""Hand-history files: load one, and dispatch replay and verify to its game (``room/games``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..room.games import HistoryFormat, game_ids, kind_of

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
    if doc.get("game") not in game_ids():
        raise HistoryError(f"{path}: unknown game {doc.get('game')!r}; known: {', '.join(game_ids())}")
    return doc


def format_of(doc: dict[str, Any]) -> HistoryFormat:
    """The hand-history format of ``doc``'s game (``room/games``)."""
    return kind_of(doc["game"]).history


def replay(doc: dict[str, Any]) -> Any:
    return format_of(doc).replay(doc)


def verify(doc: dict[str, Any]) -> Any:
    return format_of(doc).verify(doc)

"""Hand-history files: load one, and dispatch replay and verify to its game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..blackjack import history as blackjack_history
from ..poker import history as poker_history

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


def _module(doc: dict[str, Any]) -> Any:
    return blackjack_history if doc["game"] == "blackjack" else poker_history


def replay(doc: dict[str, Any]) -> Any:
    return _module(doc).replay(doc)


def verify(doc: dict[str, Any]) -> Any:
    return _module(doc).verify(doc)

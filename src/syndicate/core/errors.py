"""Typed errors shared by the game engines.

Every refusal names the rule it enforces (``rule``), so a client can show a clear message
and a test can check *which* rule refused, not just that something did.
"""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules do not allow. Nothing changed."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule
        self.message = message


class OutOfTurn(RuleError):
    """Someone acted when it was not their turn (or in the wrong phase)."""


class IllegalAction(RuleError):
    """An action the current state does not allow (e.g. doubling a three-card hand)."""


class BadAmount(RuleError):
    """An amount outside what the rules allow (under the minimum, over the stack, ...)."""


class ConfigError(ValueError):
    """An unknown rule key or a bad value for one; the message lists what is valid."""


class ShoeError(RuntimeError):
    """The shoe cannot do what was asked (run out with nothing to reshuffle, finished)."""

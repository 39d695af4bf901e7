"""Refusals of the card room. Each names the rule it enforces, like the engines' RuleError,
and carries the HTTP status the web layer answers with, so no layer guesses."""

from __future__ import annotations


class RoomError(Exception):
    """A request the room refuses. Nothing changed."""

    status = 400

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule
        self.message = message


class BadRequest(RoomError):
    status = 400


class Unauthorized(RoomError):
    status = 401


class Forbidden(RoomError):
    status = 403


class NotFound(RoomError):
    status = 404


class Conflict(RoomError):
    status = 409

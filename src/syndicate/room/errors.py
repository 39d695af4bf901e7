"""Refusals of the card room. Each names the rule it enforces, like the engines' RuleError,
and carries the HTTP status the web layer answers with, so no layer guesses."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .values import Event


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


class Fenced(Exception):
    """A table's write refused because this process no longer holds the table's lease (another
    process took the table over): nothing was written. Not a client's error."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id}: this process's lease was taken over; the write was refused")
        self.table_id = table_id


def refuse_if_ended(ev: Event | None, what: str = "no new tables or hands") -> None:
    """Refuse (rule ``event_ended``) once the event has ended; ``what`` says what it no longer
    allows."""
    if ev is not None and ev.ended_at is not None:
        raise Conflict("event_ended", f"event {ev.id} ended at {ev.ended_at.isoformat()}: {what}")

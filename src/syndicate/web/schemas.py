"""What every route's schema shares: path ids, cents and names as the API takes them, the base of
request bodies, and the refusal every operation may answer (``{"error": {"rule", "message"}}``).

Bad bodies (wrong types, floats for cents, amounts out of range, unknown fields) are refused by
these schemas with 422 before a handler runs (:mod:`syndicate.web.errors` gives the answer its
shape). A number in a path or a query is digits only: ``2.0``, ``+2``, `` 2`` and ``2_0`` (which
Python's ``int`` reads as 20) are refused by name, as a float or a boolean in a body is.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import Path
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, StrictStr

from ..core import money
from ..room.games import game_ids

_DIGITS = re.compile(r"[0-9]{1,19}")


def _digits(value: object) -> object:
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise ValueError("a whole number, written with the digits 0-9 only (such as 12)")
    return value


#: a whole number in a path or a query, as text: digits only
Digits = BeforeValidator(_digits)
Id = Annotated[int, Path(ge=1, le=2**31 - 1), Digits]
Cents = Annotated[StrictInt, Field(ge=1, le=money.MAX_CENTS, description="whole cents, positive")]
Name = Annotated[StrictStr, Field(min_length=1, max_length=40)]
if TYPE_CHECKING:
    GameId = str
else:  # one of the games registered when the app is made (room/games), as an enum in /openapi.json
    GameId = Literal[game_ids()]
#: The game a table is of when the request names none: the first registered.
DEFAULT_GAME = game_ids()[0]
#: a password being set (a new account's, a new event's admin's)
NewPassword = Annotated[StrictStr, Field(min_length=8, max_length=200)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")
    rule: str = Field(description="the rule the request broke")
    message: str
    fields: list[dict[str, str]] | None = Field(default=None, description="422 only: each field's problem")


class ErrorBody(BaseModel):
    error: ErrorDetail


#: every refusal, as every operation may answer it (the OpenAPI document says so)
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": why} for status, why in (
        (400, "a rule of the room refused it"), (401, "not signed in"),
        (403, "your role may not, or a cross-site request (rule csrf)"), (404, "no such thing in your event"),
        (409, "it conflicts with the current state"), (422, "the request does not match the schema"),
    )
}
#: the same, for an operation whose success is not JSON (its errors still are)
JSON_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"description": e["description"],
             "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
    for status, e in ERRORS.items()
}

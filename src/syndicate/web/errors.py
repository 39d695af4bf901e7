"""Every refusal as ``{"error": {"rule": ..., "message": ...}}`` with a 4xx status: the room's
errors carry their own status (:mod:`syndicate.room.errors`), a body that does not match the
schema is 422 (rule ``validation``, each field's problem listed), and Starlette's own refusals
(a body that is not JSON, no such route, a wrong method) take the same shape."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..room.errors import RoomError
from .security import RateLimited


def _error(status: int, rule: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"rule": rule, "message": message, **extra}}, status_code=status)


def _rate_limited(_: Request, e: RateLimited) -> JSONResponse:
    r = _error(e.status, e.rule, e.message)
    r.headers["Retry-After"] = str(e.retry_after)
    return r


def _room_error(_: Request, e: RoomError) -> JSONResponse:
    return _error(e.status, e.rule, e.message)


def _http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
    """Starlette's own refusals (a body that is not JSON, no such route, a wrong method) in
    the room's error shape too."""
    rule = {400: "malformed_body", 404: "not_found", 405: "method"}.get(e.status_code, "http")
    r = _error(e.status_code, rule, str(e.detail))
    r.headers.update(e.headers or {})
    return r


def _invalid(_: Request, e: RequestValidationError) -> JSONResponse:
    fields = [
        {"field": ".".join(str(p) for p in err.get("loc", ()) if p != "body"), "problem": err.get("msg", "")}
        for err in e.errors()
    ]
    where = ", ".join(f"{f['field'] or 'body'}: {f['problem']}" for f in fields[:5])
    return _error(422, "validation", f"bad request: {where}", fields=fields)


def answer_refusals(app: FastAPI) -> None:
    """Give ``app`` the handlers that shape every refusal (see the module's docstring)."""
    app.exception_handler(RateLimited)(_rate_limited)
    app.exception_handler(RoomError)(_room_error)
    app.exception_handler(StarletteHTTPException)(_http_error)
    app.exception_handler(RequestValidationError)(_invalid)

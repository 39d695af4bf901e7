"""Security headers on every HTTP response (pages, static files, the API, errors).

The pages load only their own modules and stylesheet (no inline script, nothing from
elsewhere), so the Content-Security-Policy allows scripts from this origin only. Styles may be
inline: the pages lay a few things out with ``style`` attributes, and a style cannot run code.
``frame-ancestors 'none'`` (with ``X-Frame-Options`` for older browsers) stops another site
framing the table to trick a click; ``nosniff`` stops a browser reading a JSON answer as script.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
_NAMES = frozenset(name for name, _ in HEADERS)


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in _NAMES]
                message = {**message, "headers": [*kept, *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

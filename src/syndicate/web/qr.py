"""QR codes of the pages, so that a player with a phone opens one by scanning it: a table's page
on the dealer's tablet, the lobby on the host's screen (docs/dealer.md). Drawn by segno, on the
server, as SVG.

The address in a code is the one the players must reach. It is the deployment's public URL when
it has one (``syndicate serve --public-url``); otherwise the address this request was sent to,
but only when that address is this server's own: the ``Host`` of the request names the
address the connection actually reached, or one of the trusted origins. Any other ``Host``
is refused (rule ``public_url``): a request must not be able to put another site's address in a
code that players will scan.
"""

from __future__ import annotations

import io
import re
from typing import Any
from urllib.parse import urlsplit

import segno
from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..room.errors import BadRequest
from .pages import table_row
from .schemas import Id
from .state import Settings

router = APIRouter()

SVG = "image/svg+xml"
_HOST = re.compile(r"(?:\[(?P<ip6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})))(?::(?P<port>\d{1,5}))?")
_DEFAULT_PORT = {"http": 80, "https": 443}


def public_url(url: str) -> str:
    """``url`` checked as a deployment's public address (``http(s)://host[:port][/path]``, no
    query, fragment or credentials), without its trailing slash; refused (rule ``public_url``)
    otherwise."""
    text = url.strip()
    parts = urlsplit(text)
    try:
        ok = parts.port is None or parts.port > 0  # a port that is not a number raises
    except ValueError:
        ok = False
    if not ok or parts.scheme not in _DEFAULT_PORT or not parts.hostname or parts.query or parts.fragment \
            or parts.username is not None:
        raise BadRequest("public_url", f"a public URL is http(s)://host[:port][/path], got {url[:100]!r}")
    return text.rstrip("/")


def base_url(request: Request, settings: Settings) -> str:
    """Where the players reach this server (see the module's docstring): no trailing slash."""
    if settings.public_url is not None:
        return settings.public_url
    scheme = request.url.scheme if request.url.scheme in _DEFAULT_PORT else "http"
    host = request.headers.get("host", "")
    m = _HOST.fullmatch(host)
    if m is not None:
        name = (m["ip6"] or m["name"]).lower()
        port = int(m["port"]) if m["port"] else _DEFAULT_PORT[scheme]
        shown = f"[{name}]" if m["ip6"] else name
        origin = f"{scheme}://{shown}" + ("" if port == _DEFAULT_PORT[scheme] else f":{port}")
        server = request.scope.get("server")
        if server is not None and server[0] is not None and str(server[0]).lower() == name and server[1] == port:
            return origin
        if origin in settings.trusted_origins:
            return origin
    raise BadRequest("public_url", f"this server does not know the address {host[:100]!r} the request was sent "
                                   "to, so it cannot put it in a QR code: start the server with --public-url "
                                   "(the address the players reach), or use that address")


def qr_svg(url: str, title: str) -> str:
    """The QR code of ``url`` as an SVG document that scales to its box (a quiet zone of 4 modules,
    black on white, as scanners expect)."""
    out = io.BytesIO()
    segno.make_qr(url, error="m").save(out, kind="svg", border=4, omitsize=True, title=title,
                                       dark="#000", light="#fff", svgclass="qr", lineclass=None)
    return out.getvalue().decode()


def _answer(svg: str) -> Response:
    # The address in it depends on the request's Host: no shared cache may keep it for another.
    return Response(svg, media_type=SVG, headers={"Cache-Control": "private, no-cache", "Vary": "Host"})


_SVG_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"description": "the QR code, as SVG", "content": {SVG: {"schema": {"type": "string"}}}},
}


@router.get("/qr.svg", tags=["pages"], response_class=Response, responses=_SVG_ANSWER)
def lobby_qr(request: Request) -> Response:
    """The QR code of the lobby (``/``), for the host's screen: a phone that scans it opens the
    lobby. 400 (rule ``public_url``) when the request's ``Host`` is not this server's own address."""
    url = base_url(request, request.app.state.settings) + "/"
    return _answer(qr_svg(url, f"QR code of the card room's lobby: {url}"))


@router.get("/tables/{table_id}/qr.svg", tags=["pages"], response_class=Response, responses=_SVG_ANSWER)
async def table_qr(request: Request, table_id: Id) -> Response:
    """The QR code of a table's page (``/tables/{id}``), shown on the dealer's tablet: a player who
    scans it opens the table to sit down. 404 (rule ``table``) for no such table; 400 (rule
    ``public_url``) as for the lobby's."""
    url = base_url(request, request.app.state.settings) + f"/tables/{table_id}"
    t = await table_row(request, table_id)
    return _answer(qr_svg(url, f"QR code of the table {t.name}: {url}"))

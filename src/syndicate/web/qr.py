"""QR codes of the pages, so that a player with a phone opens one by scanning it: a table's page
on the dealer's tablet, the lobby on the host's screen (docs/dealer.md). Drawn by segno, on the
server, as SVG.

The address in a code is the one the players must reach. It is the deployment's public URL when
it has one (``syndicate serve --public-url``, or ``--lan``, which sets it to the machine's
address on the local network); otherwise the address this request was sent to, but only when
that address is one players can reach: the ``Host`` of the request names the address the
connection actually reached, an ``--allowed-host`` or one of the trusted origins. Any other
``Host`` is refused (rule ``public_url``): ``localhost``, which the room answers on this machine
(:mod:`syndicate.web.hosts`) but no phone can open, and any name a request might try to put in a
code that players will scan.
"""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import urlsplit

import segno
from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..room.errors import BadRequest
from .hosts import DEFAULT_PORT, reached, split_host
from .pages import table_row
from .schemas import Id
from .state import Settings

router = APIRouter()

SVG = "image/svg+xml"


def public_url(url: str) -> str:
    """``url`` checked as a deployment's public address (``http(s)://host[:port][/path]``, no
    query, fragment or credentials), without its trailing slash; refused (rule ``public_url``)
    otherwise."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        ok = parts.port is None or parts.port > 0  # a port that is not a number raises
    except ValueError:  # a port out of range, a bracket not closed
        ok = False
    if not ok or parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment \
            or parts.username is not None or split_host(parts.netloc) is None:
        raise BadRequest("public_url", f"a public URL is http(s)://host[:port][/path], got {url[:100]!r}")
    return text.rstrip("/")


def base_url(request: Request, settings: Settings) -> str:
    """Where the players reach this server (see the module's docstring): no trailing slash."""
    if settings.public_url is not None:
        return settings.public_url
    scheme = request.url.scheme if request.url.scheme in ("http", "https") else "http"
    host = request.headers.get("host", "")
    parts = split_host(host)
    if parts is not None:
        name, port = parts
        at = port if port is not None else DEFAULT_PORT[scheme]
        shown = f"[{name}]" if ":" in name else name
        origin = f"{scheme}://{shown}" + ("" if at == DEFAULT_PORT[scheme] else f":{at}")
        if reached(name, at, request.scope.get("server")) or settings.hosts.is_added(name, at) \
                or origin in settings.trusted_origins:
            return origin
    raise BadRequest("public_url", f"a phone cannot reach the address {host[:100]!r} this page was opened at, so "
                                   "it is not put in a QR code: serve the room on the local network (./run serve "
                                   "--lan) or with --public-url (the address the players reach), or open this page "
                                   "at that address")


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

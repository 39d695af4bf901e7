"""The REST API as published (``/openapi.json``) is pinned to ``openapi.snapshot.json`` beside
this file: a changed path, parameter, schema, status, tag, operation id, summary or description
fails here, so an API change is a decision made on purpose and seen in the diff, never the
by-product of moving code (FastAPI derives operation ids, summaries and descriptions from the
handlers' names and docstrings).

After a deliberate change of the API, regenerate the snapshot and commit it with the change:

    .venv/bin/python -m tests.web.test_openapi
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from syndicate.web import create_app
from tests.kit.room import FAST_HASHER

SNAPSHOT = Path(__file__).with_name("openapi.snapshot.json")


def document() -> str:
    """The OpenAPI document as the snapshot holds it: key order kept (it is the paths' order)."""
    return json.dumps(create_app("sqlite://", hasher=FAST_HASHER).openapi(), indent=1) + "\n"


def test_the_openapi_document_is_the_snapshot() -> None:
    now, pinned = document(), SNAPSHOT.read_text(encoding="utf-8")
    diff = list(difflib.unified_diff(pinned.splitlines(), now.splitlines(), "openapi.snapshot.json", "now",
                                     lineterm="", n=2))
    assert now == pinned, ("the OpenAPI document changed; if on purpose, regenerate the snapshot "
                           "(.venv/bin/python -m tests.web.test_openapi):\n" + "\n".join(diff[:80]))


def test_the_snapshot_holds_the_api() -> None:
    """The snapshot is the real document, not an empty or truncated file that would pin nothing."""
    doc = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert doc["info"]["title"] == "Syndicate card room"
    assert {"/api/events", "/api/accounts/{account_id}", "/api/hands/{hand_id}/phh", "/api/report"} <= set(doc["paths"])
    assert doc["paths"]["/api/cashier/buy-in"]["post"]["operationId"] == "buy_in_api_cashier_buy_in_post"


if __name__ == "__main__":
    SNAPSHOT.write_text(document(), encoding="utf-8")
    print(f"wrote {SNAPSHOT}")

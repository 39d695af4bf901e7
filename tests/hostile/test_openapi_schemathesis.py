"""Schemathesis against ``/openapi.json``, in process (ASGI), signed in as an admin so that the
authenticated operations are exercised too: no 500, and every response (status code, content
type, headers, body) matches what the document declares, for schema-valid requests and for
schema-breaking ones. The WebSocket route and the static pages are not in the document (the
pages are ``include_in_schema=False``).

Each operation gets its own bounded Hypothesis run inside one test (schemathesis's lazy pytest
fixture does not work with this pytest); every failure is collected, then reported together.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from syndicate.room.cardroom import CardRoom
from syndicate.store import Database, SqlStore
from syndicate.web import create_app
from syndicate.web.security import Limits
from tests.kit.room import FAST_HASHER, PASSWORD, make_cast

EXAMPLES = {GenerationMode.POSITIVE: 25, GenerationMode.NEGATIVE: 15}  # per operation
KNOWN_ID_EXAMPLES = 10
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, negative_data_rejection]


@pytest.fixture(scope="module")
def app_and_admin(tmp_path_factory: pytest.TempPathFactory):
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('schemathesis') / 'syndicate.db'}")
    db.migrate()
    cast = make_cast(CardRoom(SqlStore(db), FAST_HASHER))
    app = create_app(database=db, hasher=FAST_HASHER, migrate=False, limits=Limits(sign_in_window=1.0))
    token, _ = app.state.room.accounts.sign_in(cast.event.id, "admin", PASSWORD)
    table = app.state.room.tables.open(cast.dealer, "Fuzzed")
    known = {"event_id": cast.event.id, "account_id": cast.alice.id, "table_id": table.id, "hand_id": 1}
    yield app, {"token": token, "event": cast.event.id, "known": known}
    db.dispose()


def test_every_operation_conforms_to_the_schema(app_and_admin) -> None:
    app, admin = app_and_admin
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [r.ok() for r in schema.get_all_operations()]
    labels = {f"{op.method.upper()} {op.path}" for op in operations}
    assert "PATCH /api/accounts/{account_id}" in labels and "POST /api/cashier/buy-in" in labels
    assert not any("/ws/" in label or "/static/" in label for label in labels)
    failures: dict[str, str] = {}
    calls = {"n": 0}
    succeeded: set[str] = set()

    for op in operations:
        in_path = {k: v for k, v in admin["known"].items() if "{" + k + "}" in op.path}
        runs = [(mode, n, None) for mode, n in EXAMPLES.items()]
        if in_path:  # random ids are mostly 404: also the ids of things that exist
            runs.append((GenerationMode.POSITIVE, KNOWN_ID_EXAMPLES, in_path))
        for mode, examples, path_parameters in runs:
            label = f"{mode.value} {op.method.upper()} {op.path} {path_parameters or ''}"

            @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            @given(case=op.as_strategy(generation_mode=mode, path_parameters=path_parameters))
            def run(case: Any) -> None:
                calls["n"] += 1
                r = case.call_and_validate(headers={"Authorization": f"Bearer {admin['token']}"}, checks=CHECKS)
                if r.status_code < 300:
                    succeeded.add(f"{op.method.upper()} {op.path}")
                if case.method.upper() == "DELETE" and case.path == "/api/session":  # the admin signed out
                    admin["token"], _ = app.state.room.accounts.sign_in(admin["event"], "admin", PASSWORD)

            try:
                run()
            except Unsatisfiable:  # no parameter to break: nothing to generate in negative mode
                assert mode is GenerationMode.NEGATIVE, label
            except (Exception, BaseExceptionGroup) as e:  # collected, reported below
                failures[label] = str(e)[:1500]
    assert calls["n"] > 10 * len(operations)
    # signed in as the admin, the generated requests get past the checks: most operations succeed
    assert len(succeeded) >= len(labels) * 2 // 3, sorted(labels - succeeded)
    assert not failures, "\n\n".join(f"== {k}\n{v}" for k, v in failures.items())

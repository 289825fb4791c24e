"""Fuzz the HTTP API from its own OpenAPI schema (schemathesis): never a 5xx.

Both valid (positive) and schema-violating (negative) requests are generated for every
operation; the real game created first must still be intact afterwards.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from app.store.migrate import upgrade

from ..conftest import LiveServer
from .. import oneshot


@pytest.fixture(params=["sqlite", "postgresql"])
def fuzz_server(request, tmp_path_factory):
    """A live server on each database: type limits differ (PostgreSQL's are stricter)."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
        upgrade(url)
    else:
        url = request.getfixturevalue("pg_url")
    with LiveServer(url) as server:
        yield server


# The requests generated for each (operation, mode), kept for the other database's server:
# generating them (hypothesis and schemathesis) took two thirds of this file's time, and
# both servers get the same number of requests either way. Both parameters of the test
# run in one process (``--dist loadfile``); a process that runs only one generates afresh.
GENERATED: dict[tuple[str, str], list] = {}


def fuzz_operation(server: LiveServer, operation, mode: GenerationMode, examples: int) -> list[str]:
    failures: list[str] = []
    key = (operation.label, mode.value)
    kept = GENERATED.get(key)
    recording: list = []

    def check(case) -> None:
        response = case.call(base_url=server.url)
        if response.status_code >= 500:
            failures.append(f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text[:200]}")
        else:
            # Refusals carry a readable message, never a bare list of validation errors.
            content_type = response.headers.get("content-type") or ""
            if isinstance(content_type, list):
                content_type = content_type[0] if content_type else ""
            if response.status_code >= 400 and content_type.startswith("application/json"):
                detail = response.json().get("detail")
                if not isinstance(detail, str) or not detail:
                    failures.append(f"{case.method} {case.formatted_path}: unreadable error {response.text[:200]}")

    if kept is not None:  # the same requests the other database's server got
        for case in kept:
            check(case)
        return failures

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def run(case) -> None:
        recording.append(case)
        check(case)

    try:
        run()
    except Unsatisfiable:
        pass  # e.g. no way to break the schema of an operation without parameters
    GENERATED[key] = recording
    return failures


def test_no_generated_request_makes_the_server_fail(fuzz_server):
    game = oneshot.post(f"{fuzz_server.url}/api/games", json={"title": "tiny-towns", "players": ["A", "B"]}).json()
    before = oneshot.get(f"{fuzz_server.url}/api/games/{game['id']}").json()
    schema = schemathesis.openapi.from_url(f"{fuzz_server.url}/openapi.json")
    failures: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            failures += fuzz_operation(fuzz_server, operation, mode, examples=40)
    assert operations >= 4
    assert not failures, "\n".join(failures[:10])
    after = oneshot.get(f"{fuzz_server.url}/api/games/{game['id']}").json()
    assert after == before, "fuzzing must not change a game it holds no token for"

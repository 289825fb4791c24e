"""The server answers as its OpenAPI document says: schemathesis sends generated requests
(valid and invalid) to every operation and checks each answer's status, content type and
body against the document."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.store.migrate import upgrade

from ..conftest import LiveServer
from .. import oneshot

CHECKS = [status_code_conformance, content_type_conformance, response_schema_conformance]


def test_every_answer_matches_the_document(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'conformance.db'}"
    upgrade(url)
    with LiveServer(url) as server:
        oneshot.post(f"{server.url}/api/games", json={"title": "tiny-towns", "players": ["A", "B"]})
        schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
        failures: list[str] = []
        for result in schema.get_all_operations():
            operation = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

                @given(case=operation.as_strategy(generation_mode=mode))
                @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                          derandomize=True)
                def run(case) -> None:  # type: ignore[no-untyped-def]
                    response = case.call(base_url=server.url)
                    try:
                        case.validate_response(response, checks=CHECKS)
                    except (Exception, BaseExceptionGroup) as failure:  # collected, reported below
                        failures.append(f"{case.method} {case.formatted_path} -> {response.status_code}: "
                                        f"{str(failure)[:300]}")

                try:
                    run()
                except Unsatisfiable:
                    pass
    assert not failures, "\n".join(sorted(set(failures))[:15])

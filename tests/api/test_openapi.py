"""The OpenAPI document tells the truth: every refusal is {"detail": "<message>"}, the view
has its real schema, and what a route does not accept is answered with Allow."""

from __future__ import annotations

import pytest

from app.api.games import ViewOut

REFUSAL_CODES = {"400", "401", "403", "404", "409", "413", "422", "429"}


async def openapi(client) -> dict:  # type: ignore[no-untyped-def]
    return (await client.get("/openapi.json")).json()


def operations(schema: dict):  # type: ignore[no-untyped-def]
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", operation


async def test_every_refusal_is_documented_as_a_detail_message(sqlite_client):
    schema = await openapi(sqlite_client)
    assert schema["components"]["schemas"]["ErrorOut"]["properties"]["detail"]["type"] == "string"
    assert "HTTPValidationError" not in schema["components"]["schemas"], "422 is not FastAPI's list of errors"
    documented: set[str] = set()
    for name, operation in operations(schema):
        responses = operation["responses"]
        assert "413" in responses, f"{name}: every route refuses bodies over 64 KB"
        for status, response in responses.items():
            if status.startswith("4"):
                documented.add(status)
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/ErrorOut", f"{name} {status}"
                assert response["description"], f"{name} {status} says when it happens"
    assert REFUSAL_CODES <= documented


async def test_each_route_lists_the_refusals_it_can_give(sqlite_client):
    schema = await openapi(sqlite_client)
    listed = {name: set(op["responses"]) for name, op in operations(schema)}
    assert listed["POST /api/games/{game_id}/actions"] >= REFUSAL_CODES
    assert listed["POST /api/games"] >= {"400", "404", "413", "422", "429"}
    assert listed["GET /api/games/{game_id}"] >= {"401", "403", "404", "413"}


async def test_the_view_has_its_real_schema(sqlite_client):
    schema = await openapi(sqlite_client)
    for name in ("GET /api/games/{game_id}", "POST /api/games/{game_id}/actions"):
        body = dict(operations(schema))[name]["responses"]["200"]["content"]["application/json"]["schema"]
        assert body == {"$ref": "#/components/schemas/ViewOut"}, name
    view = schema["components"]["schemas"]["ViewOut"]
    assert {"version", "to_act", "public", "private", "options", "result", "seats", "log"} <= set(view["required"])
    assert view["properties"]["options"]["items"] == {"$ref": "#/components/schemas/OptionOut"}


@pytest.mark.parametrize("players", [["Ann", "Bob"], ["Ann", None, "Cy"]])
async def test_real_views_match_the_documented_schema_key_for_key(client, players):
    created = (await client.post("/api/games", json={"title": "tiny-towns", "players": players, "seed": 4})).json()
    views = [(await client.get(f"/api/games/{created['id']}")).json()]
    for seat in created["seats"]:
        views.append((await client.get(f"/api/games/{created['id']}",
                                       headers={"Authorization": f"Bearer {seat['token']}"})).json())
    for view in views:
        ViewOut.model_validate(view, strict=False)
        undocumented = set(view) - set(ViewOut.model_fields)
        assert not undocumented, f"the view sends {undocumented}: describe them in app/api/games.py ViewOut"


async def test_a_finished_game_view_matches_the_schema(client):
    created = (await client.post("/api/games", json={"title": "tiny-towns", "players": ["Solo"], "seed": 2})).json()
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    client._transport.app.state.action_limiter.burst = 10_000  # type: ignore[attr-defined]
    view = (await client.get(f"/api/games/{created['id']}", headers=headers)).json()
    for _ in range(2000):
        if view["status"] == "finished":
            break
        choices = [o["id"] for o in view["options"] if o["id"] != "cancel"] or [o["id"] for o in view["options"]]
        response = await client.post(f"/api/games/{created['id']}/actions", headers=headers,
                                     json={"option": choices[-1], "version": view["version"]})
        assert response.status_code == 200, response.text
        view = response.json()
    assert view["status"] == "finished"
    documented = ViewOut.model_validate(view)
    assert documented.result is not None and documented.result.scores


async def test_a_method_a_route_does_not_take_gets_405_with_allow(client):
    response = await client.delete("/api/titles")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET"
    assert response.json() == {"detail": "DELETE is not accepted here; use GET."}
    response = await client.put("/api/games/abc/actions", json={})
    assert response.status_code == 405 and response.headers["allow"] == "POST"

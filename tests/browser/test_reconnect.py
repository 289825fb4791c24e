"""A page whose websocket drops shows "Reconnecting…", reconnects with back-off and
catches up with what happened while it was away (here: across a server restart)."""

from __future__ import annotations

import pytest

from ..conftest import LiveServer
from .. import oneshot

pytestmark = pytest.mark.browser


def test_page_reconnects_after_a_server_restart_and_catches_up(sqlite_url, browser):
    server = LiveServer(sqlite_url).__enter__()
    port = server.port
    game = oneshot.post(f"{server.url}/api/games", json={
        "title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 5, "options": {"monuments": False}}).json()
    ctx = browser.new_context(bypass_csp=True)
    page = ctx.new_page()
    page.goto(game["seats"][1]["url"])
    page.wait_for_function("window.keydom !== undefined")
    page.wait_for_timeout(300)  # let the socket open
    assert page.locator("#connection").is_hidden()

    server.__exit__(None, None, None)
    page.wait_for_selector("#connection:not([hidden])", timeout=10000)
    assert "Reconnecting" in page.locator("#connection").inner_text()

    server = LiveServer(sqlite_url, port=port).__enter__()
    try:
        # While Bob's page is (re)connecting, Ann names a resource.
        base = server.url
        ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        view = oneshot.get(f"{base}/api/games/{game['id']}", headers=ann).json()
        name = next(o["id"] for o in view["options"] if o["id"].startswith("name:"))
        response = oneshot.post(f"{base}/api/games/{game['id']}/actions", json={"option": name, "version": view["version"]},
                                headers=ann)
        assert response.status_code == 200
        page.wait_for_selector("#connection[hidden]", state="attached", timeout=20000)
        page.wait_for_function(f"Number(document.getElementById('game').dataset.version) >= {view['version'] + 1}",
                               timeout=10000)
        # Bob can now place the named resource: his squares are highlighted.
        assert page.locator(".town.mine .square.can").count() == 16
    finally:
        ctx.close()
        server.__exit__(None, None, None)

"""Two fetches of the game's fragment in flight (the action's answer and a frame's) may
come back in either order: the older one, landing last, must not take the page back."""

from __future__ import annotations

import pytest

from ..conftest import LiveServer
from .. import oneshot

pytestmark = pytest.mark.browser


def test_an_older_fragment_landing_last_does_not_take_the_page_back(sqlite_url, browser):
    with LiveServer(sqlite_url) as server:
        game = oneshot.post(f"{server.url}/api/games", json={
            "title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 5, "options": {"monuments": False}}).json()
        ctx = browser.new_context(bypass_csp=True)
        try:
            page = ctx.new_page()
            held = []

            def hold_the_first(route):  # the first fragment is read now and handed over later
                if not held:
                    held.append((route, route.fetch()))
                else:
                    route.continue_()

            page.route("**/fragment*", hold_the_first)
            page.goto(game["seats"][1]["url"])
            page.wait_for_function("window.keydom !== undefined")
            before = page.evaluate("keydom.version")
            page.evaluate("() => { keydom.refresh(); }")  # its answer is held back
            page.wait_for_function("document.body.dataset.laidOut !== 'no'")
            for _ in range(50):
                if held:
                    break
                page.wait_for_timeout(50)
            assert held, "the first fragment was never asked for"

            # Ann names a resource: Bob's frame brings a newer fragment, which lands first.
            ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
            view = oneshot.get(f"{server.url}/api/games/{game['id']}", headers=ann).json()
            name = next(o["id"] for o in view["options"] if o["id"].startswith("name:"))
            assert oneshot.post(f"{server.url}/api/games/{game['id']}/actions", headers=ann,
                                json={"option": name, "version": view["version"]}).status_code == 200
            page.wait_for_function(f"keydom.version > {before}", timeout=10000)
            after = page.evaluate("keydom.version")
            assert page.locator(".town.mine .square.can").count() == 16  # Bob places the named resource

            route, old = held[0]
            route.fulfill(response=old)  # the older answer arrives last
            page.wait_for_timeout(500)
            assert page.evaluate("keydom.version") == after
            assert page.locator(".status-line").get_attribute("data-version") == str(after)
            assert page.locator(".town.mine .square.can").count() == 16
        finally:
            ctx.close()

"""A timed game in the browser: each page shows the awaited seat's time left; when it runs
out (a fake clock moved by the test) the pages already open say so without a reload, and
the home page's "Your games" shows the time left too."""

from __future__ import annotations

import pytest

from app.bots.config import BotConfig

from ..bots.conftest import Clock
from ..conftest import LiveServer
from .. import oneshot

pytestmark = pytest.mark.browser
HOUR = 3600


def test_time_left_shows_and_running_out_reaches_open_pages(sqlite_url, browser):
    clock = Clock()
    server = LiveServer(sqlite_url)
    server.server.config.app.state.bot_config = BotConfig(delay=0, tick=0.2, clock=clock)
    with server:
        game = oneshot.post(f"{server.url}/api/games", json={
            "title": "tiny-towns", "players": ["Ann", "Bob"], "options": {"monuments": False},
            "time_limit": {"seconds": 24 * HOUR, "on_timeout": "wait"}}).json()
        context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
        bob = context.new_page()
        bob.goto(game["seats"][1]["url"])
        bob.wait_for_function("window.keydom !== undefined")
        assert bob.locator("#game-body .clock").inner_text().replace("\n", " ") == "Ann: 24 hours left"
        ann = context.new_page()  # Ann opens her seat once: this browser keeps both links
        ann.goto(game["seats"][0]["url"])
        assert ann.locator("#game-body .clock.mine").inner_text().replace("\n", " ") == "You: 24 hours left"
        ann.close()
        home = context.new_page()
        home.goto(server.url + "/")
        home.wait_for_selector("#your-games .clock")
        assert "24 hours left" in home.locator("#your-games").inner_text()
        clock.advance(24 * HOUR + 1)  # the server's loop notices within a tick
        bob.wait_for_function(
            "document.querySelector('#game-body .clock.out') !== null"
            " && document.querySelector('#log').textContent.includes(\"Ann's time ran out\")", timeout=20000)
        assert bob.locator("#game-body .clock").inner_text().replace("\n", " ") == "Ann: time ran out"
        home.reload()
        home.wait_for_selector("#your-games .clock.out")
        context.close()

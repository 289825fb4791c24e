"""One player plays a whole Tiny Towns game in the browser against two bots that the server
plays (BOT_DELAY_SECONDS small): the bots' moves reach her page live, and the game ends."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app.bots.config import BotConfig

from ..conftest import LiveServer
from .test_two_players import clickable, version
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_one_player_plays_a_whole_tiny_towns_game_against_two_bots(sqlite_url, browser):
    server = LiveServer(sqlite_url)
    server.server.config.app.state.bot_config = BotConfig(delay=0.05, tick=0.5)
    with server:
        body = {"title": "tiny-towns", "players": ["Ann", {"bot": "strong"}, {"bot": "random"}],
                "options": {"monuments": False, "buildings": "first_game"}}
        game = oneshot.post(f"{server.url}/api/games", json=body).json()
        spectator = f"{server.url}/api/games/{game['id']}"
        context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
        ann = context.new_page()
        ann.goto(game["seats"][0]["url"])
        ann.wait_for_function("window.keydom !== undefined")
        clicks = 0
        deadline = time.monotonic() + 600
        while oneshot.get(spectator).json()["status"] == "active":
            assert time.monotonic() < deadline, "the game did not end"
            choices = clickable(ann)
            if not choices:
                # Ann waits for the bots: their moves arrive by websocket, no reload.
                before = version(ann)
                try:
                    ann.wait_for_function(
                        f"Number(document.getElementById('game').dataset.version) > {before}"
                        " || document.querySelectorAll('#game-body [data-option]').length > 0", timeout=20000)
                except Exception:
                    if oneshot.get(spectator).json()["status"] != "active":
                        break
                    raise
                continue
            element, _ = choices[0]
            before = version(ann)
            try:
                element.click(timeout=5000)
            except PlaywrightTimeout:
                # a bot's move redrew the page between reading the choices and the click, and
                # this one is gone: read them again (the deadline above still holds)
                continue
            ann.wait_for_function(
                f"Number(document.getElementById('game').dataset.version) > {before}"
                " && !document.getElementById('game-body').classList.contains('busy')", timeout=20000)
            clicks += 1
        final = oneshot.get(spectator).json()
        assert final["status"] == "finished" and final["result"]["winners"]
        exported = oneshot.get(f"{server.url}/api/games/{game['id']}/export",
                               headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}).json()
        assert {a["seat"] for a in exported["actions"]} == {0, 1, 2}  # Ann and both bots played
        ann.locator("#game-body .result").wait_for(timeout=20000)  # her page shows the final scores
        assert clicks >= 10
        ARTIFACTS.mkdir(exist_ok=True)
        ann.screenshot(path=str(ARTIFACTS / "tiny-towns-against-bots.png"), full_page=True)
        context.close()

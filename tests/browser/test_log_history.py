"""The game page shows the newest log lines and pages back through the rest on request."""

from __future__ import annotations

import random
import re
from pathlib import Path

import httpx
import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def play(base: str, game: dict, actions: int, rng: random.Random) -> None:
    """Random Keythedral choices through the API that never buy a tile (the game goes on)."""
    with httpx.Client(base_url=base) as http:
        for _ in range(actions):
            public = http.get(f"/api/games/{game['id']}").json()
            seat = rng.choice(public["to_act"])
            headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
            mine = http.get(f"/api/games/{game['id']}", headers=headers).json()
            ids = [o["id"] for o in mine["options"]]
            choice = rng.choice([i for i in ids if not i.startswith("tile:")] or ids)
            answer = http.post(f"/api/games/{game['id']}/actions", headers=headers,
                               json={"option": choice, "version": mine["version"]})
            assert answer.status_code == 200, answer.text


TIME = re.compile(r"^\d{1,2}:\d{2}(\s?[AP]M)?\s+")  # each line's time, as the browser's locale writes it


def log_items(page) -> list[str]:
    """The log's lines as shown, without the time in front of each."""
    return [TIME.sub("", text) for text in page.locator(".log li").all_inner_texts()]


def whole_log(base: str, game_id: str) -> list[str]:
    """Every line, the table's own ones among them, newest first, paged from the API."""
    lines: list[str] = []
    before = None
    while before != 1:
        params = {"limit": 200, **({"before": before} if before else {})}
        page = oneshot.get(f"{base}/api/games/{game_id}/log", params=params).json()
        merged = []
        for n, line in enumerate(page["lines"], page["first"]):
            merged += [t["line"] for t in page["table_lines"] if t["after"] == n - 1] + [line]
        merged += [t["line"] for t in page["table_lines"] if t["after"] == page["first"] + len(page["lines"]) - 1]
        lines = merged + lines
        before = page["first"]
    return lines[::-1]


def test_earlier_lines_are_paged_in_and_stay_as_the_game_goes_on(live_server, browser):
    response = oneshot.post(f"{live_server.url}/api/games",
                            json={"title": "keythedral", "players": ["Ann", None], "seed": 5})
    game = response.json()
    # Bob takes his seat by his link: the table writes a line of its own after line 1.
    context = browser.new_context()
    bob = context.new_page()
    bob.goto(game["seats"][1]["url"])
    bob.fill("input[name=name]", "Bob")
    bob.click("button[type=submit]")
    # Claiming spends the invite: Bob's seat now opens with the private link he is shown.
    bob.wait_for_selector("#yours")
    game["seats"][1]["token"] = bob.locator("#yours input").input_value().rsplit("/", 1)[1]
    context.close()
    rng = random.Random(7)
    play(live_server.url, game, 170, rng)

    for width, height, name in ((1280, 900, "wide"), (390, 844, "phone")):
        everything = whole_log(live_server.url, game["id"])
        assert len(everything) > 150  # three pages on the game page: 50 shown, then 100 more at a time
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)  # lets the test evaluate JS
        page = context.new_page()
        page.goto(game["seats"][0]["url"])
        page.wait_for_function("window.keydom !== undefined")
        assert log_items(page) == everything[:50]  # no table line among the newest
        shown = 50
        while page.locator(".log-earlier").count():
            page.locator(".log-earlier").click()
            shown = min(shown + 100, len(everything))
            page.wait_for_function(f"document.querySelectorAll('.log li').length === {shown}")
            assert log_items(page) == everything[:shown]
        assert shown == len(everything)  # the button went once the first line was shown
        assert log_items(page)[-3:] == [everything[-3], "Bob takes seat 2", everything[-1]]
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(".log").screenshot(path=str(ARTIFACTS / f"log-history-{name}.png"))

        # The game goes on: the new lines come in on top, the fetched ones stay below, once each.
        before = int(page.locator("#game").get_attribute("data-version"))
        play(live_server.url, game, 12, rng)
        page.wait_for_function(f"Number(document.getElementById('game').dataset.version) > {before}")
        latest = whole_log(live_server.url, game["id"])
        page.wait_for_function(f"document.querySelectorAll('.log li').length === {len(latest)}")
        assert log_items(page) == latest
        page.screenshot(path=str(ARTIFACTS / f"log-history-page-{name}.png"), full_page=True)
        context.close()

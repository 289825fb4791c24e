"""Stepping through a replay in the browser: a seat opens "Replay" from its game page and
walks the game with First / Back / Forward / Last, the slider and the arrow keys; each step
shows what that seat could see then, and never another seat's screen while the game runs."""

from __future__ import annotations

import random
import re
from pathlib import Path

import httpx
import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def played_game(base: str, actions: int) -> dict:
    """A two-player Tiny Towns game (monuments: each seat keeps a secret) some actions in."""
    body = {"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 8, "options": {"monuments": True}}
    game = oneshot.post(f"{base}/api/games", json=body).json()
    rng = random.Random(3)
    with httpx.Client(base_url=base) as http:
        for _ in range(actions):
            public = http.get(f"/api/games/{game['id']}").json()
            seat = rng.choice(public["to_act"])
            headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
            mine = http.get(f"/api/games/{game['id']}", headers=headers).json()
            option = rng.choice([o["id"] for o in mine["options"] if o["id"] != "cancel"])
            answer = http.post(f"/api/games/{game['id']}/actions", json={"option": option, "version": mine["version"]},
                               headers=headers)
            assert answer.status_code == 200, answer.text
    return game


def where(page) -> tuple[int, int]:
    text = page.locator(".replay-where").inner_text()
    step, steps = re.search(r"Step (\d+) of (\d+)", text).groups()
    return int(step), int(steps)


def test_a_seat_steps_through_its_replay(live_server, browser):
    game = played_game(live_server.url, 6)
    ann = game["seats"][0]
    kept = oneshot.get(f"{live_server.url}/api/games/{game['id']}/history?at=0",
                       headers={"Authorization": f"Bearer {ann['token']}"}).json()
    ann_monuments = {card["name"] for card in kept["private"]["dealt"]}
    context = browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True)  # lets the test wait on JS
    page = context.new_page()
    page.goto(ann["url"])
    page.get_by_role("link", name="Replay").click()
    page.wait_for_selector(".replay-controls")
    last, steps = where(page)
    assert steps == 7 and last in (1, steps)

    page.get_by_role("button", name="First step").click()
    page.wait_for_function("document.querySelector('.replay-where').innerText.startsWith('Step 1 of')")
    assert page.get_by_role("button", name="One step back").is_disabled()
    first_board = page.locator(".replay-board").inner_text()
    # Ann's own secret monuments are on her screen at the start; Bob's never are.
    bob_dealt = oneshot.get(f"{live_server.url}/api/games/{game['id']}/history?at=0",
                            headers={"Authorization": f"Bearer {game['seats'][1]['token']}"}).json()["private"]["dealt"]
    bob_only = {card["name"] for card in bob_dealt} - ann_monuments
    html = page.locator("#replay-body").inner_html()
    assert bob_only and any(name in html for name in ann_monuments)
    assert not any(name in html for name in bob_only)

    page.get_by_role("button", name="One step forward").click()
    page.wait_for_function("document.querySelector('.replay-where').innerText.startsWith('Step 2 of')")
    assert "at=1" in page.url
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('.replay-where').innerText.startsWith('Step 3 of')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('.replay-where').innerText.startsWith('Step 2 of')")

    page.locator(".replay-slider").fill("5")
    page.locator(".replay-slider").dispatch_event("change")
    page.wait_for_function("document.querySelector('.replay-where').innerText.startsWith('Step 6 of')")
    page.get_by_role("button", name="Last step").click()
    page.wait_for_function("document.querySelector('.replay-where').innerText.startsWith('Step 7 of')")
    assert page.get_by_role("button", name="One step forward").is_disabled()
    assert page.locator(".replay-board").inner_text() != first_board  # the game moved on in between
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay-1366.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.get_by_role("button", name="One step back").is_visible()  # the controls fit a phone
    page.screenshot(path=str(ARTIFACTS / "replay-390.png"))
    # While the game runs, a seat's replay offers no other seat's screen.
    options = page.locator(".replay-seat option").all_inner_texts() if page.locator(".replay-seat").count() else []
    assert not any("Bob" in o for o in options)
    context.close()

"""Two players' pages: a chat line one sends appears on the other's page without a
reload, as text; the chat button sits in a corner and leaves the question in view.
Screenshots of the open chat (1366x900 and 390x844) go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def create_game(base: str) -> dict:
    body = {"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 21,
            "options": {"monuments": False, "buildings": "first_game"}}
    response = oneshot.post(f"{base}/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_a_chat_line_appears_live_on_the_other_players_page(live_server, browser):
    game = create_game(live_server.url)
    ann_ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors: list[str] = []
    for page in (ann, bob):
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    ann.goto(game["seats"][0]["url"])
    bob.goto(game["seats"][1]["url"])
    for page in (ann, bob):
        page.wait_for_function("window.keydom !== undefined")
        page.wait_for_function("document.body.dataset.laidOut === 'yes'")
    ann.locator(".chat-toggle").click()
    ann.locator(".chat-form input").fill("<b>Hi</b> Bob, good luck!")
    ann.locator(".chat-form button").click()
    ann.locator(".chat-lines li", has_text="good luck").wait_for()
    # Bob's chat is closed: the button counts the unread line; opening it shows the line.
    bob.locator(".chat-unread", has_text="1").wait_for()
    bob.locator(".chat-toggle").click()
    line = bob.locator(".chat-lines li", has_text="good luck")
    line.wait_for()
    assert line.locator(".chat-name").inner_text() == "Ann"
    assert line.locator(".chat-text").inner_text() == "<b>Hi</b> Bob, good luck!"  # text, not markup
    assert bob.locator(".chat-lines b").count() == 0
    assert bob.locator(".chat-unread").is_hidden()  # read now
    assert ann.locator(".chat-unread").is_hidden()  # her own line is no news to her
    # Bob answers from his phone; Ann's open panel shows it.
    bob.locator(".chat-form input").fill("Thanks!")
    bob.locator(".chat-form button").click()
    ann.locator(".chat-lines li", has_text="Thanks!").wait_for()
    # A refusal is said in the panel.
    bob.locator(".chat-form input").evaluate("el => el.removeAttribute('maxlength')")
    bob.locator(".chat-form input").fill("x" * 400)
    bob.locator(".chat-form button").click()
    bob.locator(".chat-error", has_text="at most 300 characters").wait_for()
    # The question stays where it was: the action bar is still on top of the page.
    for page in (ann, bob):
        assert page.locator("#action-bar").bounding_box()["y"] < 200
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "chat-desktop.png"))
    bob.screenshot(path=str(ARTIFACTS / "chat-phone.png"))
    bob.locator(".chat-close").click()
    bob.screenshot(path=str(ARTIFACTS / "chat-phone-closed.png"))
    assert not [e for e in errors if "Content Security Policy" in e], errors
    ann_ctx.close()
    bob_ctx.close()

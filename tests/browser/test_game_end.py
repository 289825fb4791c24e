"""Two players' pages at the end of a game: Bob concedes (after a confirmation), Ann's page
shows the result without a reload; Ann presses "Play again" and Bob's old page shows a link
to his own new seat, live. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_concede_then_play_again_live(live_server, browser):
    body = {"title": "tiny-towns", "players": ["Ann", "Bob"], "options": {"monuments": False}}
    game = oneshot.post(f"{live_server.url}/api/games", json=body).json()
    ann_ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    ann.goto(game["seats"][0]["url"])
    bob.goto(game["seats"][1]["url"])
    for page in (ann, bob):
        page.wait_for_function("window.keydom !== undefined")
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if len(asked) > 1 else dialog.dismiss()

    bob.on("dialog", answer)
    bob.locator(".table-tools summary").click()
    bob.locator(".table-tools button").click()  # the first question is dismissed: nothing happens
    assert asked == ["Concede? Ann wins and the game ends."]
    assert "Your move" in ann.locator(".status-line").inner_text() or "Waiting" in ann.locator(".status-line").inner_text()
    bob.locator(".table-tools button").click()
    ann.locator(".status-line", has_text="Game over — Ann wins!").wait_for()
    ann.locator(".result.ended", has_text="Bob conceded: Ann wins.").wait_for()
    bob.locator(".status-line", has_text="Game over — Ann wins!").wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "ended-desktop.png"))
    ann.locator(".play-again button", has_text="Play again").click()
    ann.wait_for_url("**/seat/**")
    assert game["id"] not in ann.url
    link = bob.locator(".rematch-link", has_text="Your seat in the new game")
    link.wait_for()  # on Bob's old page, without a reload
    bob.screenshot(path=str(ARTIFACTS / "rematch-phone.png"))
    link.click()
    bob.locator(".status-line .you", has_text="Bob").wait_for()
    assert bob.url != ann.url and "/seat/" in bob.url
    ann.locator(".status-line .you", has_text="Ann").wait_for()
    ann_ctx.close()
    bob_ctx.close()

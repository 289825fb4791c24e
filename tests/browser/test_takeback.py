"""A takeback request in the browser: Ann asks to take back her move after Bob has played;
Bob sees the request on his page (live, without a reload), accepts, and both pages are back
at the moment before Ann's move. Screenshots of the request as Bob sees it, on a desktop
(1366x900) and on a phone (390x844), go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def wait_past(page, before: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('game').dataset.version) > {before}"
                           " && !document.getElementById('game-body').classList.contains('busy')", timeout=15000)


def first_choice(page, prefix: str) -> None:
    page.locator(f"#game-body [data-option^='{prefix}']").first.click()


def test_a_takeback_request_accepted_by_the_other_player(live_server, browser):
    body = {"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 21,
            "options": {"monuments": False, "buildings": "first_game"}}
    created = oneshot.post(f"{live_server.url}/api/games", json=body)
    assert created.status_code == 201, created.text
    game = created.json()
    # bypass_csp: lets the test evaluate its own waits; the page scripts run as served
    contexts = [browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True),
                browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True),
                browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, bypass_csp=True)]
    ann, bob, bob_phone = (c.new_page() for c in contexts)
    ann.goto(game["seats"][0]["url"])
    for page in (bob, bob_phone):
        page.goto(game["seats"][1]["url"])
    for page in (ann, bob, bob_phone):
        page.wait_for_function("window.keydom !== undefined && document.body.dataset.laidOut === 'yes'")
    named_from = ann.locator("#game-body [data-option^='name']").count()
    assert named_from > 0, "Ann names the first resource"
    start = version(ann)
    first_choice(ann, "name")
    wait_past(ann, start)
    wait_past(bob, version(bob) - 1)
    bob_before = version(bob)
    bob.wait_for_selector("#game-body [data-option^='place']")
    first_choice(bob, "place")
    wait_past(bob, bob_before)
    ann.wait_for_selector("[data-takeback='ask']")
    assert ann.locator("[data-takeback='undo']").count() == 0  # Bob has played since: Ann must ask

    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "takeback-offer-ann-1366.png"))
    bob_phone.wait_for_selector("[data-takeback='undo']")  # nobody has moved since Bob: he may undo at once
    bob_phone.screenshot(path=str(ARTIFACTS / "takeback-undo-bob-390.png"))
    ann.locator("[data-takeback='ask']").click()
    ann.wait_for_selector(".takeback", timeout=15000)
    assert "Waiting for Bob" in ann.locator(".takeback").inner_text()
    for page in (bob, bob_phone):  # live, without a reload
        page.wait_for_selector(".takeback.to-answer [data-takeback='accept']", timeout=15000)
        assert "Ann asks to take back their last move" in page.locator(".takeback").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "takeback-request-bob-1366.png"))
    bob_phone.screenshot(path=str(ARTIFACTS / "takeback-request-bob-390.png"))
    # While the request is open Bob's board choices are refused (play waits).
    ann_asked = version(ann)

    bob.locator(".takeback [data-takeback='accept']").click()
    wait_past(ann, ann_asked)
    ann.wait_for_selector("#game-body [data-option^='name']", timeout=15000)
    assert ann.locator("#game-body [data-option^='name']").count() == named_from  # back before her move
    assert ann.locator(".takeback").count() == 0
    for page in (ann, bob, bob_phone):
        page.wait_for_function("document.querySelector('#log').innerText.includes('everyone agreed')", timeout=15000)
    ann.screenshot(path=str(ARTIFACTS / "takeback-accepted-ann-1366.png"))
    for c in contexts:
        c.close()

"""A host creates a game with the form, copies links; a friend claims the open seat."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_host_creates_a_game_and_a_friend_claims_the_open_seat(live_server, browser):
    ctx = browser.new_context()
    host = ctx.new_page()
    host.goto(live_server.url + "/")
    host.click("[data-title=tiny-towns] >> text=New game")
    host.select_option("#seats", "3")
    assert host.locator("[data-seat='3']").is_hidden()  # only three name boxes
    host.fill("input[name=name0]", "Ann")
    host.fill("input[name=name1]", "Bob")
    host.check("input[name=cavern]")
    host.click("button[type=submit]")
    host.wait_for_selector("text=is ready")
    links = [host.locator(".link input").nth(i).input_value() for i in range(4)]
    assert all("/seat/" in link for link in links[:3]) and "/seat/" not in links[3]
    assert host.locator(".link .who").nth(2).inner_text() == "Open seat 3"

    friend = browser.new_context().new_page()
    friend.goto(links[2])
    friend.fill("input[name=name]", "Cy")
    friend.click("button[type=submit]")
    friend.wait_for_selector(".status-line")
    assert "You are Cy" in friend.locator(".status-line").inner_text()
    # Cy's device remembers the seat: the home page lists it under "Your games".
    friend.goto(live_server.url + "/")
    friend.wait_for_selector("#your-games:not([hidden])")
    assert "Tiny Towns — as Cy" in friend.locator("#your-games").inner_text()
    friend.click("#your-games a")
    friend.wait_for_selector(".status-line")
    assert "You are Cy" in friend.locator(".status-line").inner_text()
    # The host's seat page now shows Cy by name (it was an open seat).
    host.goto(links[0])
    assert host.locator(".town[data-seat='2'] .owner").inner_text() == "Cy"
    spectator = browser.new_context().new_page()
    spectator.goto(links[3])
    assert "Watching" in spectator.locator(".status-line").inner_text()
    assert spectator.locator("[data-option]").count() == 0
    ctx.close()

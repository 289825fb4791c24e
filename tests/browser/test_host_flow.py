"""A host creates a game with the form and lands on the host page (reloading creates
nothing), which says its loopback links reach nobody else and shows each link's QR code; a
friend takes the open seat from the invite page (not with a name already taken) and gets a
private link to bookmark, after which the invite says the seat is taken; "Your games" lists
the game with whose turn it is; the host replaces a seat's link and the old one explains
itself; broken links say what happened."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def shoot(page, name: str) -> None:
    """Screenshots at a desktop and a phone width, for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(ARTIFACTS / f"host-flow-{name}-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} scrolls sideways at {width}px"
    page.set_viewport_size({"width": 1366, "height": 900})


def seat_link(host, seat: int) -> str:
    return host.locator(f"#seat-{seat} .seat-link input").input_value()


def test_host_page_invite_and_your_games(live_server, browser):
    host_ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    host = host_ctx.new_page()
    host.goto(live_server.url + "/")
    host.click("[data-title=tiny-towns] >> text=New game")
    host.select_option("#seats", "3")
    assert host.locator("[data-seat='3']").is_hidden()  # only three name boxes
    host.fill("input[name=name0]", "Ann")
    host.fill("input[name=name1]", "Bob")
    host.check("input[name=cavern]")
    host.uncheck("input[name=monuments]")  # so the Master Builder (Ann) is the first to choose
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/g/[a-z0-9]+/host/"))
    assert host.locator("h1").inner_text() == "Your game of Tiny Towns"
    host_url = host.url
    links = [seat_link(host, s) for s in range(3)]
    assert len(set(links)) == 3 and all("/seat/" in link for link in links)
    assert host.locator("#seat-2 .who").inner_text() == "waiting for a player"

    # Reloading the page after creating shows the same game: nothing new is made.
    host.reload()
    assert host.url == host_url and [seat_link(host, s) for s in range(3)] == links
    game_id = host_url.split("/g/")[1].split("/")[0]
    # The links say 127.0.0.1: the page says friends cannot open them, and what to do.
    reach = host.locator("#links-reach")
    assert "Friends cannot open these links yet" in reach.inner_text()
    assert "HOST=0.0.0.0 make run" in reach.inner_text()
    host.click("#seat-0 details.qr summary")
    assert host.locator("#seat-0 details.qr img").is_visible()
    shoot(host, "host-page")

    # Cy takes the open seat from the invite page.
    friend_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, bypass_csp=True)
    friend = friend_ctx.new_page()
    friend.goto(links[2])
    invite = friend.locator(".invite").inner_text()
    assert "Ann invites you to play Tiny Towns" in invite and "Ann, Bob" in invite
    assert friend.locator(".invite a[href='/rules/tiny-towns']").count() == 1
    shoot(friend, "invite")
    friend.fill("input[name=name]", " BOB")  # Bob already sits at the table
    friend.click("button[type=submit]")
    assert "too close to Bob" in friend.locator("[role=alert]").inner_text()
    friend.fill("input[name=name]", "Cy")
    friend.click("button[type=submit]")
    # The seat is Cy's, with a private link of its own to bookmark; the invite is spent.
    friend.wait_for_selector("#yours")
    assert "Seat 3 is yours, Cy" in friend.locator("h1").inner_text()
    private = friend.locator("#yours input").input_value()
    assert private != links[2] and f"/g/{game_id}/seat/" in private
    friend.wait_for_function("JSON.parse(localStorage.getItem('keydom.games') || '[]').length > 0")
    kept = friend.evaluate("JSON.parse(localStorage.getItem('keydom.games'))")
    assert [g["url"] for g in kept] == [private.removeprefix(live_server.url)]
    shoot(friend, "yours")
    friend.click("text=Go to the game")
    friend.wait_for_selector(".status-line")
    assert "You are Cy" in friend.locator(".status-line").inner_text()
    assert "Cy takes seat 3" in friend.locator(".log").inner_text()
    other = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    other.goto(links[2])
    spent = other.locator("main").inner_text()
    assert "Seat 3 is taken" in spent and "Cy took seat 3" in spent and other.locator("form").count() == 0
    shoot(other, "spent-invite")

    # Her device lists the game with whose turn it is (Ann holds the Master Builder's hammer).
    # (game.js is deferred: wait until it has kept the link before leaving the page.)
    friend.wait_for_function("JSON.parse(localStorage.getItem('keydom.games') || '[]').length > 0")
    friend.goto(live_server.url + "/")
    friend.wait_for_selector("#your-games:not([hidden]) .my-game")
    entry = friend.locator(f".my-game[data-game='{game_id}']")
    assert "Waiting for Ann" in entry.inner_text() and "Cy (you)" in entry.inner_text()
    # Live: when Ann names the resource, the list says so on its next refresh.
    ann_token = links[0].rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {ann_token}"}
    view = oneshot.get(f"{live_server.url}/api/games/{game_id}", headers=auth).json()
    chosen = oneshot.post(f"{live_server.url}/api/games/{game_id}/actions", headers=auth,
                          json={"option": view["options"][0]["id"], "version": view["version"]})
    assert chosen.status_code == 200 and 2 in chosen.json()["to_act"]
    friend.evaluate("window.keydomHome.refresh()")
    friend.wait_for_function(f"document.querySelector(\".my-game[data-game='{game_id}'] .turn\").textContent === 'Your turn'")
    shoot(friend, "your-games")
    friend.click(f".my-game[data-game='{game_id}'] button.remove")
    friend.wait_for_selector("#your-games[hidden]", state="attached")
    assert friend.evaluate("JSON.parse(localStorage.getItem('keydom.games'))") == []

    # The host page shows who took the seat and when each last looked.
    host.reload()
    cy = host.locator("#seat-2").inner_text()
    assert "Cy" in cy and "Took the seat just now" in cy and "Last looked: just now" in cy
    assert "Cy has a private link of their own" in cy and private not in host.content()
    assert "Last looked: never" in host.locator("#seat-1").inner_text()

    # Bob lost his link: the host gives seat 2 a new one; the old one stops at once.
    bob = browser.new_context().new_page()
    bob.goto(links[1])
    assert "You are Bob" in bob.locator(".status-line").inner_text()
    host.click("#seat-1 .seat-tools summary")
    host.click("#seat-1 >> text=New link")
    host.wait_for_selector("text=Seat 2 has a new link")
    new_link = seat_link(host, 1)
    assert new_link != links[1]
    bob.wait_for_selector("#connection:not([hidden])")  # his open page is told at once
    bob.goto(links[1])
    assert "The host gave this seat a new link — ask Ann for it." in bob.locator("main").inner_text()
    shoot(bob, "replaced-link")
    bob.goto(links[1][:-6])
    assert "This link is cut short" in bob.locator("main").inner_text()
    shoot(bob, "cut-link")
    bob.goto(live_server.url + "/g/nosuchgame/seat/" + links[1].rsplit("/", 1)[1])
    assert "No such game here" in bob.locator("main").inner_text()
    shoot(bob, "no-game")
    # His device still keeps the old link: "Your games" says it opens nothing, and its page says why.
    bob.goto(live_server.url + "/")
    bob.wait_for_selector(".my-game.gone")
    bob.click(".my-game.gone a.why")
    assert "The host gave this seat a new link" in bob.locator("main").inner_text()
    bob.goto(new_link)
    assert "You are Bob" in bob.locator(".status-line").inner_text()

    # The host's own device lists the game from the host link alone...
    host.goto(live_server.url + "/")
    host.wait_for_selector(f".my-game[data-game='{game_id}']")
    assert "you host this game" in host.locator(f".my-game[data-game='{game_id}']").inner_text()
    # ...and, once Ann has opened her seat there, as her game (her turn: everyone places) with the host page beside it.
    host.goto(links[0])
    host.wait_for_selector(".status-line")
    host.goto(live_server.url + "/")
    host.wait_for_selector(f".my-game[data-game='{game_id}'] a.host")
    assert "Your turn" in host.locator(f".my-game[data-game='{game_id}'] .turn").inner_text()
    shoot(host, "home-host")
    host_ctx.close()
    friend_ctx.close()


def test_host_who_plays_sees_each_link_only_until_it_is_opened(live_server, browser):
    """The new-game page says what the host link opens; with "I play too", Bob's link asks
    for one press, gives him a private link, and the host page stops showing his seat."""
    host_ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    host = host_ctx.new_page()
    host.goto(live_server.url + "/new/tiny-towns")
    assert "whoever holds it can open every player's screen" in host.locator(".host-plays").inner_text()
    host.fill("input[name=name0]", "Ann")
    host.fill("input[name=name1]", "Bob")
    host.check("input[name=host_plays]")
    shoot(host, "new-game")
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/g/[a-z0-9]+/host/"))
    assert "You play too" in host.locator(".host-note").inner_text()
    bob_link = seat_link(host, 1)
    assert "Shown until Bob opens it" in host.locator("#seat-1").inner_text()

    bob = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    bob.goto(bob_link)
    assert "Bob, your seat in Tiny Towns" in bob.locator("h1").inner_text()
    shoot(bob, "open-your-seat")
    bob.click("text=Open my seat (Bob)")
    bob.wait_for_selector("#yours")
    private = bob.locator("#yours input").input_value()
    assert private != bob_link
    bob.click("text=Go to the game")
    bob.wait_for_selector(".status-line")
    assert "You are Bob" in bob.locator(".status-line").inner_text()

    host.reload()
    seat = host.locator("#seat-1").inner_text()
    assert "Bob has a private link of their own (they opened the seat)" in seat
    assert host.locator("#seat-1 .seat-link").count() == 0 and private not in host.content()
    shoot(host, "host-plays-page")
    bob.goto(bob_link)
    assert "Bob opened seat 2" in bob.locator("main").inner_text()
    host_ctx.close()

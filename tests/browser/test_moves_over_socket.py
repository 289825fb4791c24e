"""The game page sends a move over the game's websocket when it is open (no HTTP request
of its own; the same checks and refusals as the HTTP route), by HTTP when it is not, says
so when the socket drops before the move is answered, and fetches the new fragment once
per move (the move's answer and the frame it caused carry the same version)."""

from __future__ import annotations

import pytest

from .. import oneshot

pytestmark = pytest.mark.browser


def new_game(base: str) -> dict:
    response = oneshot.post(f"{base}/api/games", json={
        "title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 5, "options": {"monuments": False}})
    assert response.status_code == 201, response.text
    return response.json()


def first_option(base: str, game: dict, seat: int) -> str:
    auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    view = oneshot.get(f"{base}/api/games/{game['id']}", headers=auth).json()
    return next(o["id"] for o in view["options"] if o["id"].startswith("name:"))


def watch(page) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    page.on("request", lambda r: seen.append((r.method, r.url)))
    return seen


def posts(seen: list[tuple[str, str]]) -> list[str]:
    return [url for method, url in seen if method == "POST" and "/actions" in url]


def fragments(seen: list[tuple[str, str]]) -> list[str]:
    return [url for _, url in seen if "/fragment" in url]


def open_seat(browser, game: dict, seat: int):
    context = browser.new_context(bypass_csp=True)  # wait_for_function evaluates strings
    page = context.new_page()
    seen = watch(page)
    page.goto(game["seats"][seat]["url"])
    page.wait_for_selector("body[data-laid-out=yes]")
    return context, page, seen


def test_a_move_goes_over_the_open_socket_and_the_page_fetches_its_fragment_once(live_server, browser):
    base = live_server.url
    game = new_game(base)
    context, page, seen = open_seat(browser, game, 0)
    try:
        page.wait_for_function("keydom.live")
        before = page.evaluate("keydom.version")
        option = first_option(base, game, 0)
        del seen[:]
        page.evaluate(f"keydom.choose({option!r})")
        page.wait_for_function(f"keydom.version > {before}")
        page.wait_for_timeout(400)  # any second fetch of the same version would have gone by now
        assert posts(seen) == []
        assert len(fragments(seen)) == 1, fragments(seen)
        assert page.locator(".action-bar .bar-notice").is_hidden()
        # The move was taken: Ann's next choice is no longer to name a resource.
        auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        assert oneshot.get(f"{base}/api/games/{game['id']}", headers=auth).json()["version"] > before
    finally:
        context.close()


def test_a_refusal_over_the_socket_shows_the_servers_words(live_server, browser):
    base = live_server.url
    game = new_game(base)
    context, page, seen = open_seat(browser, game, 0)
    try:
        page.wait_for_function("keydom.live")
        page.evaluate("keydom.choose('no-such-choice')")
        notice = page.locator(".action-bar .bar-notice")
        notice.wait_for(state="visible")
        assert "'no-such-choice' is not one of your choices" in notice.inner_text()
        assert posts(seen) == []
    finally:
        context.close()


def test_without_a_socket_the_move_goes_by_http(live_server, browser):
    base = live_server.url
    game = new_game(base)
    context = browser.new_context(bypass_csp=True)  # wait_for_function evaluates strings
    page = context.new_page()
    page.route_web_socket("**/ws/games/**", lambda ws: ws.close(code=1011))  # never reaches the server
    seen = watch(page)
    try:
        page.goto(game["seats"][0]["url"])
        page.wait_for_selector("body[data-laid-out=yes]")
        assert not page.evaluate("keydom.live")
        before = page.evaluate("keydom.version")
        page.evaluate(f"keydom.choose({first_option(base, game, 0)!r})")
        page.wait_for_function(f"keydom.version > {before}")
        assert len(posts(seen)) == 1
    finally:
        context.close()


def test_a_socket_that_drops_before_the_answer_says_so_and_shows_the_game_as_it_is(live_server, browser):
    base = live_server.url
    game = new_game(base)
    context = browser.new_context(bypass_csp=True)  # wait_for_function evaluates strings
    page = context.new_page()

    def cut_on_a_move(ws):
        server = ws.connect_to_server()

        def from_page(message):
            if '"act"' in str(message):
                ws.close(code=1011)  # the move never reaches the server
            else:
                server.send(message)
        ws.on_message(from_page)

    page.route_web_socket("**/ws/games/**", cut_on_a_move)
    seen = watch(page)
    try:
        page.goto(game["seats"][0]["url"])
        page.wait_for_selector("body[data-laid-out=yes]")
        page.wait_for_function("keydom.live")
        before = page.evaluate("keydom.version")
        page.evaluate(f"keydom.choose({first_option(base, game, 0)!r})")
        notice = page.locator(".action-bar .bar-notice")
        notice.wait_for(state="visible")
        assert "connection dropped" in notice.inner_text()
        assert posts(seen) == []
        assert page.evaluate("keydom.version") == before  # nothing was taken, and the page says what is
        auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        assert oneshot.get(f"{base}/api/games/{game['id']}", headers=auth).json()["version"] == before
    finally:
        context.close()

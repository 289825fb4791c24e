"""The game page's notification panel and tab signals, in the system Chromium."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from ..browser.conftest import browser  # noqa: F401 (the shared Chromium fixture)
from .conftest import Clock
from .test_live import LiveNotifyServer
from .. import oneshot

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("KEYDOM_SHOTS", "/tmp/keydom-shots"))

SET_HIDDEN = """hidden => {
  Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
  Object.defineProperty(document, 'visibilityState', { value: hidden ? 'hidden' : 'visible', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.fixture
def server(sqlite_url: str) -> Iterator[LiveNotifyServer]:
    with LiveNotifyServer(sqlite_url, Clock()) as live:
        yield live


def _game(server: LiveNotifyServer) -> dict[str, Any]:
    return oneshot.post(f"{server.url}/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 3,
                                                          "options": {"monuments": False}}).json()


def _ann_names_a_resource(server: LiveNotifyServer, game: dict[str, Any]) -> None:
    ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    view = oneshot.get(f"{server.url}/api/games/{game['id']}", headers=ann).json()
    option = next(o["id"] for o in view["options"] if o["id"] != "cancel")
    response = oneshot.post(f"{server.url}/api/games/{game['id']}/actions", headers=ann,
                            json={"option": option, "version": view["version"]})
    assert response.status_code == 200


def _page(browser: Any, width: int = 1280) -> Any:  # noqa: F811
    """A page in its own context; bypass_csp lets the test evaluate JS (the app allows no eval)."""
    return browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True).new_page()


def _wait_for_bell(page: Any, text: str) -> None:
    """Wait for the bell to say ``text``; on a timeout, say what the page showed instead."""
    try:
        page.wait_for_function(f"document.getElementById('notify-open').textContent === {text!r}")
    except Exception as timeout:
        shown = page.evaluate("[document.getElementById('notify-open').textContent, "
                              "document.getElementById('notify-message').textContent, "
                              "localStorage.getItem('keydom.notify.usual')]")
        raise AssertionError(f"the bell never said {text!r}; bell, message, usual settings: {shown}") from timeout


def _is_view_fetch(response: Any, game_id: str) -> bool:
    return response.request.method == "GET" and response.url.endswith(f"/api/games/{game_id}")


def test_the_tab_title_and_icon_say_your_turn_while_the_tab_is_in_the_background(server, browser):  # noqa: F811
    game = _game(server)
    page = _page(browser)
    page.goto(game["seats"][1]["url"])
    plain = page.title()
    assert plain.startswith("Tiny Towns: ") and plain.endswith(" — Keydom")  # the game and its players
    site_icon = page.eval_on_selector("link[rel~='icon']", "link => link.href")
    with page.expect_response(lambda r: _is_view_fetch(r, game["id"])):
        page.evaluate(SET_HIDDEN, True)  # Bob switches to another tab; it is Ann's move
    _ann_names_a_resource(server, game)  # now Bob owes a decision
    page.wait_for_function("document.title === '● Your turn — Tiny Towns'")
    icon = page.eval_on_selector("link[rel~='icon']", "link => link.href")
    assert icon.startswith("data:image/svg+xml")
    page.evaluate(SET_HIDDEN, False)  # Bob comes back
    assert page.title() == plain
    assert page.eval_on_selector("link[rel~='icon']", "link => link.href") == site_icon  # the site's own again
    page.context.close()


def test_a_visible_tab_keeps_its_title(server, browser):  # noqa: F811
    game = _game(server)
    page = _page(browser)
    page.goto(game["seats"][1]["url"])
    with page.expect_response(lambda r: "/g/" in r.url and r.url.split("?")[0].endswith("/fragment")):
        _ann_names_a_resource(server, game)
    page.wait_for_timeout(300)  # let any (wrong) title change happen before looking
    assert page.title().startswith("Tiny Towns: ") and "Your turn" not in page.title()
    page.context.close()


def test_the_panel_saves_channels_refuses_bad_ones_and_sends_a_test(server, browser, receiver):  # noqa: F811
    game = _game(server)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page = _page(browser, width)
        page.goto(game["seats"][0]["url"])
        assert page.is_visible("#notify-open")  # the bell is in the top bar, in view without scrolling
        assert page.eval_on_selector("#notify-open", "b => b.getBoundingClientRect().bottom") <= 900
        page.click("#notify-open")
        page.fill("#notify-urls", "ntfys//missing-colon")
        page.click("#notify-form button[type=submit]")
        page.wait_for_function("document.getElementById('notify-message').textContent.includes('needs a service')")
        assert "bad" in page.get_attribute("#notify-message", "class")
        page.fill("#notify-urls", receiver.url(f"ann{width}"))
        page.select_option("#notify-remind", "12")
        page.click("#notify-form button[type=submit]")
        page.wait_for_function("document.getElementById('notify-message').textContent.startsWith('Saved')")
        assert page.is_disabled("#notify-email")  # this server has no SMTP_URL
        server.app.state.notify_config.clock.advance(11)  # tests are at most one per 10 s
        page.click("#notify-test")
        page.wait_for_function("document.getElementById('notify-message').textContent === 'Test sent to 1 channel.'")
        page.wait_for_function("document.getElementById('notify-deliveries').textContent.includes('Delivered')")
        assert len(receiver.to(f"ann{width}")) == 1
        assert page.text_content("#notify-state") == "(on: 1 channel)"
        assert page.text_content("#notify-open") == "Notifying"
        page.screenshot(path=str(SHOTS / f"notify-panel-{width}.png"))
        width_used = page.evaluate("document.documentElement.scrollWidth")
        assert width_used <= width, "the panel makes the page scroll sideways"
        page.context.close()
    stored = oneshot.get(f"{server.url}/api/games/{game['id']}/notifications",
                         headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}).json()
    assert stored["remind_after_hours"] == 12 and stored["urls"] == [receiver.url("ann390")]


def test_a_failed_delivery_is_shown_on_the_page(server, browser, receiver):  # noqa: F811
    game = _game(server)
    oneshot.put(f"{server.url}/api/games/{game['id']}/notifications", json={"urls": [receiver.url("bob")]},
                headers={"Authorization": f"Bearer {game['seats'][1]['token']}"})
    receiver.fail_next = 1
    _ann_names_a_resource(server, game)
    assert server.run_pass_blocking() == 0  # not due yet (the delay)
    server.app.state.notify_config.clock.advance(10)
    assert server.run_pass_blocking() == 1
    for width in (1366, 390):
        page = _page(browser, width)
        page.goto(game["seats"][1]["url"])
        page.wait_for_selector("#notify-failed:not([hidden])")
        text = page.text_content("#notify-failed")
        assert text.startswith("The last notification to JSON") and "failed: delivery failed" in text
        assert "Trying again at" in text
        # Said where the player looks: at the top of the page, and on the bell.
        assert page.eval_on_selector("#notify-failed", "p => p.getBoundingClientRect().top") < 300
        assert page.text_content("#notify-open") == "Notify: failed"
        page.screenshot(path=str(SHOTS / f"notify-failed-{width}.png"))
        page.context.close()


def _seat_settings(server: LiveNotifyServer, game: dict[str, Any], seat: int) -> dict[str, Any]:
    return oneshot.get(f"{server.url}/api/games/{game['id']}/notifications",
                       headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"}).json()


def _typing_while_the_settings_load(server: LiveNotifyServer, browser: Any,  # noqa: F811
                                    urls: str) -> tuple[dict[str, Any], Any, list[Any]]:
    """A new game's seat page whose loads of its settings are answered by the server at once
    but handed to the page only when the test says (``_answer``), as a slow or busy server's
    answer would come; the page's changes go through. Once the page has asked, the player
    opens the panel and types ``urls``. Gives the game, the page and the held loads."""
    game = _game(server)
    page = _page(browser)
    held: list[Any] = []

    def hold(route: Any) -> None:
        if route.request.method == "GET":
            held.append((route, route.fetch()))
        else:
            route.continue_()
    page.route(f"**/api/games/{game['id']}/notifications", hold)
    page.goto(game["seats"][0]["url"])
    for _ in range(200):  # it asks once it has looked for push support
        if held:
            break
        page.wait_for_timeout(25)
    else:
        raise AssertionError("the page never asked for its settings")
    page.click("#notify-open")
    page.fill("#notify-urls", urls)
    return game, page, held


def _answer(held: list[Any]) -> None:
    route, response = held.pop(0)
    route.fulfill(response=response)


def test_a_late_load_of_the_settings_keeps_what_the_player_is_typing(server, browser, receiver):  # noqa: F811
    game, page, held = _typing_while_the_settings_load(server, browser, receiver.url("ann"))
    _answer(held)  # the first load answers only now: nothing saved yet, no channels
    _wait_for_bell(page, "Notify me")
    assert page.input_value("#notify-urls") == receiver.url("ann")  # still what was typed
    page.click("#notify-form button[type=submit]")
    page.wait_for_function("document.getElementById('notify-message').textContent.startsWith('Saved')")
    assert page.text_content("#notify-message").startswith("Saved. Send a test")
    assert _seat_settings(server, game, 0)["urls"] == [receiver.url("ann")]


def test_a_load_answered_after_a_save_does_not_undo_it_on_the_page(server, browser, receiver):  # noqa: F811
    _, page, held = _typing_while_the_settings_load(server, browser, receiver.url("ann"))
    page.uncheck("#notify-every")  # (else the usual settings would be applied again, hiding the undo)
    page.click("#notify-form button[type=submit]")
    page.wait_for_function("document.getElementById('notify-state').textContent === '(on: 1 channel)'")
    _answer(held)  # the load from before the save: its answer has no channels
    page.evaluate("new Promise(function (done) { setTimeout(done, 500); })")  # its answer is in
    assert page.text_content("#notify-state") == "(on: 1 channel)"
    assert page.input_value("#notify-urls") == receiver.url("ann")
    _wait_for_bell(page, "Notifying")


def test_settings_made_once_are_used_in_every_game_this_browser_joins(server, browser, receiver):  # noqa: F811
    first, second, third = _game(server), _game(server), _game(server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    page.goto(first["seats"][0]["url"])
    page.click("#notify-open")
    page.fill("#notify-urls", receiver.url("ann"))
    assert page.is_checked("#notify-every")  # on by default once chosen
    page.click("#notify-form button[type=submit]")
    page.wait_for_function("document.getElementById('notify-message').textContent.startsWith('Saved')")
    # The next game this browser joins is told the same, with no click.
    page.goto(second["seats"][0]["url"])
    _wait_for_bell(page, "Notifying")
    assert _seat_settings(server, second, 0)["urls"] == [receiver.url("ann")]
    # Unticked: offered in one click instead.
    page.click("#notify-open")
    page.uncheck("#notify-every")
    page.click("#notify-close")
    page.goto(third["seats"][0]["url"])
    _wait_for_bell(page, "Notify as usual?")
    assert _seat_settings(server, third, 0)["urls"] == []
    page.click("#notify-open")
    assert "ann" in page.text_content("#notify-usual-text") or "json://" in page.text_content("#notify-usual-text")
    page.screenshot(path=str(SHOTS / "notify-usual-390.png"))
    page.click("#notify-usual-use")
    page.wait_for_function("document.getElementById('notify-state').textContent === '(on: 1 channel)'")
    assert _seat_settings(server, third, 0)["urls"] == [receiver.url("ann")]
    context.close()


def test_the_page_says_why_push_cannot_work_without_https(server, browser):  # noqa: F811
    """Over plain http from a name other than localhost, browsers refuse push: the panel
    says so instead of offering a button that fails. (keydom.test is mapped to 127.0.0.1
    inside the browser: no traffic leaves loopback.)"""
    from ..browser.conftest import ARGS, CHROMIUM

    game = _game(server)
    url = game["seats"][0]["url"].replace("127.0.0.1", "keydom.test")
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                           args=ARGS + ["--host-resolver-rules=MAP keydom.test 127.0.0.1"])
    try:
        for width, height in ((1366, 900), (390, 844)):
            page = chromium.new_page(viewport={"width": width, "height": height})
            page.goto(url)
            page.click("#notify-open")
            page.wait_for_selector("#notify-push:disabled")
            why = page.text_content("#notify-push-why")
            assert "HTTPS" in why and "keydom.test" in why
            page.screenshot(path=str(SHOTS / f"notify-no-https-{width}.png"))
            page.close()
    finally:
        chromium.close()

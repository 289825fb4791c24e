"""On a phone (390×844) every game page shows the seat's prompt and a choice in the first
screenful, nothing scrolls sideways, the log opens from the action bar; the forms fit."""

from __future__ import annotations

from pathlib import Path

import pytest

import app.games as games
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "bypass_csp": True}  # bypass_csp lets the test evaluate JS

# Where the seat's prompt is written: the shared action bar, or Key Harvest's own line.
PROMPT = ".bar-prompt, .kh-prompt"
IN_VIEW = """els => els.filter(el => { const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })
  .map(el => el.dataset.option || el.textContent.trim())"""


@pytest.fixture(autouse=True)
def every_title_listed(monkeypatch):
    """The titles are playable whether or not the registry lists them yet."""
    monkeypatch.setitem(games._BY_ID, "keythedral",
                        games.Listing("keythedral", "Keythedral", 2, 5, "app.games.keythedral"))


def create(base: str, title: str, seed: int, players=("Ann", "Bob"), **options) -> dict:
    body = {"title": title, "players": list(players), "seed": seed}
    if options:
        body["options"] = options
    response = oneshot.post(f"{base}/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def act(base: str, game: dict, seat: int, option: str) -> None:
    auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    version = oneshot.get(f"{base}/api/games/{game['id']}", headers=auth).json()["version"]
    response = oneshot.post(f"{base}/api/games/{game['id']}/actions", headers=auth,
                            json={"option": option, "version": version})
    assert response.status_code == 200, response.text


def options(base: str, game: dict, seat: int) -> list[str]:
    auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    return [o["id"] for o in oneshot.get(f"{base}/api/games/{game['id']}", headers=auth).json()["options"]]


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(el => {
        const r = el.getBoundingClientRect(); return r.width > 0 && r.right > innerWidth + 1; })
        .slice(0, 5).map(el => el.tagName + '.' + el.className)""")
    assert width <= 390, (page.url, width, wide)


def first_screen(page, shot: str) -> tuple[str, list[str]]:
    """The prompt and the choices inside the first 390×844 screenful."""
    page.wait_for_function("window.keydom !== undefined")
    no_sideways_scroll(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-{shot}.png"))
    prompts = page.eval_on_selector_all(PROMPT, IN_VIEW)
    choices = page.eval_on_selector_all("#game-body [data-option]", IN_VIEW)
    return " ".join(prompts), choices


def seat_page(browser, url: str):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(url)
    return context, page


def test_tiny_towns_on_a_phone_build_step_names_the_buildings(live_server, browser):
    base = live_server.url
    game = create(base, "tiny-towns", 21, monuments=False, buildings="first_game")
    # Wood then stone side by side: both players can build a Well.
    for resource, cell in (("wood", "0,0"), ("stone", "0,1")):
        builder = next(s for s in (0, 1) if any(o.startswith("name:") for o in options(base, game, s)))
        act(base, game, builder, f"name:{resource}")
        for seat in (0, 1):
            act(base, game, seat, f"place:{cell}")
    assert "build:well" in options(base, game, 0)
    context, page = seat_page(browser, game["seats"][0]["url"])
    prompt, choices = first_screen(page, "tiny-towns-build")
    assert "You can build a Well" in prompt
    # The Well's card (or the Done button) is a choice inside the first screenful.
    assert "build:well" in choices and "done" in choices
    # Resource colours are named on the cards and in a legend.
    assert page.locator(".tt-card .pcell.wood[title=wood]").count() >= 1
    assert page.locator(".tt-legend").inner_text().split() == ["wood", "wheat", "brick", "glass", "stone"]
    # The log opens from the bar as a sheet over the board, and closes again.
    page.locator(".action-bar .log-toggle").click()
    log = page.locator("#log")
    box = log.bounding_box()
    assert box and box["y"] + box["height"] <= 844 + 1 and "names wood" in log.inner_text()
    assert page.locator(".action-bar .log-toggle").get_attribute("aria-expanded") == "true"
    page.locator("#log .log-close").click()
    assert page.locator(".action-bar .log-toggle").get_attribute("aria-expanded") == "false"
    # Clicking the card from the first screenful starts the building; the prompt follows.
    page.locator('#game-body [data-option="build:well"]').first.click()
    page.wait_for_function("document.querySelector('.bar-prompt').textContent.startsWith('Building a Well')")
    prompt, choices = first_screen(page, "tiny-towns-building")
    assert any(c.startswith("pick:") for c in choices) and "cancel" in choices
    context.close()


def test_tiny_towns_on_a_phone_placing_and_watching(live_server, browser):
    base = live_server.url
    game = create(base, "tiny-towns", 5)
    # Keeping a monument: the two cards on the screen come first.
    context, page = seat_page(browser, game["seats"][0]["url"])
    prompt, choices = first_screen(page, "tiny-towns-keep")
    assert prompt.startswith("Choose the monument you keep")
    assert sum(c.startswith("keep:") for c in choices) == 2
    context.close()
    for seat in (0, 1):
        act(base, game, seat, options(base, game, seat)[0])
    builder = next(s for s in (0, 1) if options(base, game, s))
    act(base, game, builder, "name:glass")
    context, page = seat_page(browser, game["seats"][1 - builder]["url"])
    prompt, choices = first_screen(page, "tiny-towns-place")
    assert prompt == "Place the glass: click an empty square of your town."
    assert any(c.startswith("place:") for c in choices)
    context.close()
    context, page = seat_page(browser, game["url"])  # a spectator
    first_screen(page, "tiny-towns-watch")
    assert "Waiting for" in page.locator(".action-bar .status").inner_text()
    assert page.locator(".bar-prompt").count() == 0
    context.close()


def test_keythedral_on_a_phone(live_server, browser):
    base = live_server.url
    game = create(base, "keythedral", 8)
    seat = next(s for s in (0, 1) if options(base, game, s))
    context, page = seat_page(browser, game["seats"][seat]["url"])
    prompt, choices = first_screen(page, "keythedral-setup")
    assert prompt.startswith("You drew a")
    assert any(c.startswith("cell:") for c in choices)
    # Every cube colour is named next to the costs and in the store.
    legend = page.locator(".kt-legend > span").all_inner_texts()
    assert [t.strip() for t in legend] == ["timber", "stone", "food", "water", "wine", "ironwork",
                                           "stained glass", "gold"]
    assert "timber" in page.locator(".kt-store").inner_text()
    context.close()
    context, page = seat_page(browser, game["seats"][1 - seat]["url"])
    first_screen(page, "keythedral-waiting")
    assert page.locator(".action-bar .status").inner_text().startswith("Waiting for")
    context.close()
    context, page = seat_page(browser, game["url"])
    first_screen(page, "keythedral-watch")
    context.close()


def test_key_harvest_on_a_phone(live_server, browser):
    base = live_server.url
    game = create(base, "key-harvest", 4)
    # Play on through the API until a seat has its turn's choices.
    for _ in range(20):
        seat = next((s for s in (0, 1) if options(base, game, s)), None)
        found = options(base, game, seat)
        if any(o.startswith("end") for o in found) or len(found) > 3:
            break
        act(base, game, seat, found[0])
    context, page = seat_page(browser, game["seats"][seat]["url"])
    prompt, choices = first_screen(page, "key-harvest-turn")
    assert prompt.strip(), "no prompt in the first screenful"
    assert choices, "no choice in the first screenful"
    context.close()
    for url, name in ((game["seats"][1 - seat]["url"], "key-harvest-waiting"), (game["url"], "key-harvest-watch")):
        context, page = seat_page(browser, url)
        first_screen(page, name)
        assert page.locator(".action-bar .status").inner_text().startswith("Waiting for")
        context.close()


@pytest.mark.parametrize("path", ["/", "/new/tiny-towns", "/new/keythedral", "/new/key-harvest",
                                  "/rules/tiny-towns", "/rules/keythedral", "/rules/key-harvest"])
def test_pages_and_forms_fit_a_phone(live_server, browser, path):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    no_sideways_scroll(page)
    if path.startswith("/new/"):
        # Every field of the form fits inside the screen's width.
        for box in page.eval_on_selector_all("form.new-game select, form.new-game input, form.new-game button",
                                             "els => els.map(e => e.getBoundingClientRect().right)"):
            assert box <= 390
    context.close()


def test_claim_and_host_pages_fit_a_phone(live_server, browser):
    game = create(live_server.url, "tiny-towns", 3, players=("Ann", ""))
    for url in (game["seats"][1]["url"], game["host_url"]):
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.goto(url)
        page.wait_for_load_state("networkidle")
        no_sideways_scroll(page)
        context.close()

"""Two players in two browser contexts play Tiny Towns rounds against each other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def create_game(base: str, **options) -> dict:
    body = {"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 21,
            "options": {"monuments": False, "buildings": "first_game", **options}}
    response = oneshot.post(f"{base}/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def clickable(page):
    """Highlighted board choices and prompt buttons, preferring progress over cancel."""
    # The ids in one read: the page may be redrawn (a bot's move) between a count and an
    # item-by-item read, and an item past the new count is waited for until the timeout.
    ids = page.eval_on_selector_all("#game-body [data-option]", "els => els.map(el => el.dataset.option)")
    ids = list(dict.fromkeys(ids))  # one choice may be drawn on several things
    ranked = sorted(ids, key=lambda i: (i == "cancel", not i.startswith(("place", "name", "keep"))))
    return [(page.locator(f'#game-body [data-option="{option}"]').first, option) for option in ranked]


def test_two_players_play_rounds_live(live_server, browser):
    game = create_game(live_server.url)
    ann_ctx = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)  # lets the test evaluate JS
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, bypass_csp=True)  # a phone
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    ann.goto(game["seats"][0]["url"])
    bob.goto(game["seats"][1]["url"])
    for page in (ann, bob):
        page.wait_for_function("window.keydom !== undefined")
    assert "You are" in ann.locator(".status-line").inner_text()
    assert "Ann" in ann.locator(".status-line").inner_text()
    assert "Bob" in bob.locator(".status-line").inner_text()

    placed = 0
    for step in range(40):
        acted = False
        for me, other in ((ann, bob), (bob, ann)):
            choices = clickable(me)
            if not choices:
                continue
            element, option = choices[0]
            before = version(me)
            assert version(other) == before
            element.click()
            # Both pages move on; the other player's without a reload (websocket).
            for page in (me, other):
                page.wait_for_function(
                    f"Number(document.getElementById('game').dataset.version) > {before}"
                    " && !document.getElementById('game-body').classList.contains('busy')", timeout=15000)
            placed += option.startswith("place:")
            acted = True
            break
        assert acted, "nobody had anything to click"
        if placed >= 6:
            break
    assert placed >= 6, "both players should have placed cubes over several rounds"
    # Cubes are drawn on the towns: at least three cubes or buildings in each town.
    for page in (ann, bob):
        town = page.locator(".town.mine .square:not(.empty)")
        assert town.count() >= 3
        assert re.search(r"Round \d", page.locator(".tt-round").inner_text())
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "tiny-towns-ann.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "tiny-towns-bob-phone.png"), full_page=True)
    ann_ctx.close()
    bob_ctx.close()


def test_a_players_monument_is_not_in_the_other_players_page(live_server, browser):
    game = create_game(live_server.url, monuments=True)
    ann_view = oneshot.get(f"{live_server.url}/api/games/{game['id']}",
                           headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}).json()
    offered = [o for o in ann_view["options"] if o["id"].startswith("keep:")]
    assert len(offered) == 2
    ctx = browser.new_context()
    bob = ctx.new_page()
    bob.goto(game["seats"][1]["url"])
    html = bob.content()
    from app.games.tiny_towns.content import MONUMENTS

    for o in offered:
        monument = MONUMENTS[o["id"].split(":", 1)[1]]
        assert monument.name not in html, f"Bob's page shows Ann's secret monument {monument.name}"
    # ...while Ann's own page does show them.
    ann_page = ctx.new_page()
    ann_page.goto(game["seats"][0]["url"])
    assert all(MONUMENTS[o["id"].split(":", 1)[1]].name in ann_page.content() for o in offered)
    ctx.close()

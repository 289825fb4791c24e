"""Two players in two browser contexts play Key Harvest turns through the real pages: one
on a desktop, one on a phone, each click on the board itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}

# What a player clicks, best first: finish a bid, then make progress on the board.
PREFERENCE = ("start:", "confirm", "take:", "registry:", "harvest:", "space:", "play:", "add:",
              "gain:", "reap:", "renew:", "settle:", "resettle:", "bloom:", "hail:", "done", "end")


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def choices(page) -> list[str]:
    return page.eval_on_selector_all("#game-body [data-option]", "els => els.map(e => e.dataset.option)")


def best(found: list[str]) -> str:
    for prefix in PREFERENCE:
        hits = [o for o in found if o.startswith(prefix)]
        if hits:
            return hits[0]
    return found[0]


def settled(page, before: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.version) > {before}"
        " && !document.getElementById('game-body').classList.contains('busy')", timeout=15000)


def caught_up(page, seen: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.version) >= {seen}"
        " && !document.getElementById('game-body').classList.contains('busy')", timeout=15000)


def choices_in_first_screen(page) -> bool:
    """The prompt, and at least one of the choices drawn on the board (not only the
    buttons above it), lie within the phone's first screenful."""
    return page.evaluate("""() => {
        const top = el => el.getBoundingClientRect().top + window.scrollY;
        const now = document.querySelector('.bar-prompt') || document.querySelector('.kh-now');
        const tops = [...document.querySelectorAll('.kh [data-option]')].map(top);
        return top(now) < innerHeight && (tops.length === 0 || Math.min(...tops) < innerHeight);
    }""")


def test_two_players_take_turns_on_desktop_and_phone(live_server, browser):
    created = oneshot.post(f"{live_server.url}/api/games",
                           json={"title": "key-harvest", "players": ["Ann", "Bob"], "seed": 12})
    assert created.status_code == 201, created.text
    game = created.json()
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    bob_ctx = browser.new_context(viewport=PHONE, is_mobile=True, bypass_csp=True)  # bypass: the test runs JS
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    tokens = {ann: game["seats"][0]["token"], bob: game["seats"][1]["token"]}

    def seat_version(page) -> int:
        """The version of that seat's view now: it moves only when what the seat sees
        changes (a bid being made changes nothing the other player sees)."""
        return oneshot.get(f"{live_server.url}/api/games/{game['id']}",
                           headers={"Authorization": f"Bearer {tokens[page]}"}).json()["version"]

    ann.goto(game["seats"][0]["url"])
    bob.goto(game["seats"][1]["url"])
    for page in (ann, bob):
        page.wait_for_function("window.keydom !== undefined")
        assert page.locator(".kh-map").count() == 2  # both country boards
        assert page.locator(".kh-country.mine .sp").count() == 56
        assert page.locator(".kh-country.mine .sp.field").count() == 2  # the start pair
        assert page.locator(".kh-registry .kh-tile").count() == 6
        assert page.locator(".kh-track li").count() == 10
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing scrolls sideways

    clicked: list[str] = []
    phone_turns, handovers, last, group_hovers = 0, 0, None, 0
    for _ in range(150):
        if handovers >= 8 and {"harvest", "take", "confirm"} <= {o.split(":")[0] for o in clicked}:
            break
        acted = False
        for me, other in ((ann, bob), (bob, ann)):
            found = choices(me)
            if not found:
                continue
            if me is bob:
                if not choices_in_first_screen(bob):
                    ARTIFACTS.mkdir(exist_ok=True)
                    bob.screenshot(path=str(ARTIFACTS / "key-harvest-below-the-fold.png"), full_page=True)
                    pytest.fail(f"Bob's choices are below the fold on his phone after {clicked[-3:]}")
                phone_turns += 1
            handovers += me is not last
            last = me
            option = best(found)
            if me is ann and option.startswith("harvest:") and found.count(option) > 1:
                # Hovering one field of a group lights up the whole group it would harvest.
                ann.locator(f'.kh-map [data-option="{option}"]').first.hover()
                assert ann.locator(".kh-map .same-option").count() == found.count(option)
                group_hovers += 1
            before = version(me)
            me.locator(f'#game-body [data-option="{option}"]').first.click()
            settled(me, before)
            caught_up(other, seat_version(other))  # by websocket, without a reload
            clicked.append(option)
            acted = True
            break
        assert acted, "nobody had anything to click"
    assert handovers >= 8, clicked[-12:]
    assert phone_turns > 10
    assert group_hovers >= 1

    kinds = {o.split(":")[0] for o in clicked}
    assert {"start", "registry", "add", "confirm", "take", "harvest"} <= kinds, kinds
    for page in (ann, bob):
        fields = page.locator(".kh-country.mine .sp.field").count()
        assert fields > 2  # tiles were transferred onto the boards
        assert page.locator(".kh-country.mine .sp.field.harvested").count() >= 1
    log = ann.locator(".log").inner_text()
    assert "Ann" in log and "Bob" in log and "{seat" not in log
    assert "into their store with a bid of" in log and "harvests" in log

    # Each screen is its owner's: Bob's page shows his own counters, nobody else's.
    bob_private = oneshot.get(f"{live_server.url}/api/games/{game['id']}",
                              headers={"Authorization": f"Bearer {game['seats'][1]['token']}"}).json()["private"]
    shown = {el.get_attribute("data-counter"): int(el.locator(".n").inner_text())
             for el in bob.locator(".kh-screen .kh-held").all()}
    assert shown == bob_private["counters"]
    assert "only you see this" in bob.locator(".kh-screen").inner_text()
    assert ann.locator(".kh-screen").count() == 1 and bob.locator(".kh-screen").count() == 1
    watcher = ann_ctx.new_page()
    watcher.goto(f"{live_server.url}/g/{game['id']}")
    assert watcher.locator(".kh-screen").count() == 0 and watcher.locator(".kh-map").count() == 2

    rules = watcher.goto(f"{live_server.url}/rules/key-harvest")
    assert rules.status == 200
    assert "Lord of the Manor" in watcher.content() and "Hailstorm" in watcher.content()  # from the content tables

    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "key-harvest-ann.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "key-harvest-bob-phone.png"), full_page=True)
    ann_ctx.close()
    bob_ctx.close()

"""Three players draft Key Flow's spring through the real pages, all at once: two on
desktops, one on a phone, each click on a card in the hand and then on the village. Until
the last one has chosen, nobody's page shows another's pick."""

from __future__ import annotations

from pathlib import Path

import pytest
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def choices(page) -> list[str]:
    return page.eval_on_selector_all("#game-body [data-option]", "els => els.map(e => e.dataset.option)")


def settled(page, before: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.version) > {before}"
        " && !document.getElementById('game-body').classList.contains('busy')", timeout=15000)


def caught_up(page, seen: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.version) >= {seen}"
        " && !document.getElementById('game-body').classList.contains('busy')", timeout=15000)


PREFERENCE = ("on:", "road:", "river:", "upgrade:", "take:", "pay:", "move:", "token:", "discard", "stop", "done")


def best(found: list[str]) -> str:
    picks = [o for o in found if o.startswith("pick:")]
    if picks:
        return picks[0]
    for prefix in PREFERENCE:
        hits = [o for o in found if o.startswith(prefix)]
        if hits:
            return hits[0]
    return found[0]


def hand_in_first_screen(page) -> bool:
    """On the phone the hand (or the current choice) starts within the first screenful."""
    return page.evaluate("""() => {
        const top = el => el.getBoundingClientRect().top + window.scrollY;
        const hand = document.querySelector('.kf-now');
        const can = [...document.querySelectorAll('.kf [data-option]')].map(top);
        return top(hand) < innerHeight && (can.length === 0 || Math.min(...can) < 3 * innerHeight);
    }""")


def test_three_players_draft_spring_together(live_server, browser):
    created = oneshot.post(f"{live_server.url}/api/games",
                           json={"title": "key-flow", "players": ["Ann", "Bob", "Cy"], "seed": 21})
    assert created.status_code == 201, created.text
    game = created.json()
    contexts = [browser.new_context(viewport=DESKTOP, bypass_csp=True),
                browser.new_context(viewport=PHONE, is_mobile=True, bypass_csp=True),
                browser.new_context(viewport=DESKTOP, bypass_csp=True)]
    pages = [ctx.new_page() for ctx in contexts]
    tokens = [s["token"] for s in game["seats"]]

    def api(seat: int) -> dict:
        return oneshot.get(f"{live_server.url}/api/games/{game['id']}",
                           headers={"Authorization": f"Bearer {tokens[seat]}"}).json()

    for seat, page in enumerate(pages):
        page.goto(game["seats"][seat]["url"])
        page.wait_for_function("window.keydom !== undefined")
        assert page.locator(".kf-village").count() == 3  # own village and both neighbours'
        assert page.locator(".kf-hand .kf-card.can").count() == 6  # a spring hand to pick from
        assert "Waiting for 3 players to choose" in page.locator(".kf-now").inner_text()
        # the content security policy refuses inline styles: the village grid must not need any
        assert page.locator(".kf [style]").count() == 0
    assert pages[1].evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert hand_in_first_screen(pages[1])

    # Ann picks a card and a place: the others see that she has chosen, not what.
    ann = pages[0]
    first = ann.locator(".kf-hand .kf-card.can").first
    picked_name = first.locator(".name").inner_text()
    before = version(ann)
    first.click()
    settled(ann, before)
    assert ann.locator(".kf-card.picked").count() >= 1
    use = [o for o in choices(ann) if not o.startswith("pick:") and o != "cancel"][0]
    before = version(ann)
    ann.locator(f'#game-body [data-option="{use}"]').first.click()
    settled(ann, before)
    assert "Nobody else sees it" in ann.locator(".kf-now").inner_text()
    for seat in (1, 2):
        caught_up(pages[seat], api(seat)["version"])
        text = pages[seat].locator(".kf-now").inner_text()
        assert "Waiting for 2 players to choose" in text
        assert "has chosen" in pages[seat].locator(f'.kf-village[data-seat="0"]').inner_text()
        assert picked_name not in pages[seat].locator(f'.kf-village[data-seat="0"]').inner_text()

    clicked: list[str] = ["pick", use]
    reveals_seen = 0
    for _ in range(200):
        if api(0)["public"]["season"] != "spring":
            break
        acted = False
        for seat, page in enumerate(pages):
            found = choices(page)
            if not found:
                continue
            if seat == 1 and any(o.startswith("pick:") for o in found):
                assert hand_in_first_screen(page), "the phone's hand is below the fold"
            option = best(found)
            before = version(page)
            page.locator(f'#game-body [data-option="{option}"]').first.click()
            settled(page, before)
            clicked.append(option)
            acted = True
            if api(seat)["public"]["last_reveal"] and page.locator(".kf-reveal").count():
                reveals_seen += 1
                if reveals_seen == 1:
                    ARTIFACTS.mkdir(exist_ok=True)
                    assert page.locator(".kf .new").count() >= 1  # the plays of the reveal are marked new
                    for s, p in enumerate(pages):
                        caught_up(p, api(s)["version"])
                        p.evaluate("window.scrollTo(0, 0)")
                    pages[0].screenshot(path=str(ARTIFACTS / "key-flow-ann-desktop.png"), full_page=False)
                    pages[1].screenshot(path=str(ARTIFACTS / "key-flow-bob-phone.png"), full_page=False)
            break
        if not acted:
            for s, p in enumerate(pages):
                caught_up(p, api(s)["version"])
    assert api(0)["public"]["season"] == "summer", clicked[-10:]
    kinds = {o.split(":")[0] for o in clicked}
    assert {"pick", "discard"} & kinds and len([o for o in clicked if o.startswith("pick:")]) >= 17
    assert reveals_seen >= 1
    log = pages[2].locator(".log").inner_text()
    assert "Ann" in log and "Bob" in log and "Cy" in log and "{seat" not in log
    for s, p in enumerate(pages):
        caught_up(p, api(s)["version"])
        p.evaluate("window.scrollTo(0, 0)")
    assert pages[0].locator(".kf-hand:not(.winter) .kf-card").count() == 7  # summer hands dealt
    pages[0].screenshot(path=str(ARTIFACTS / "key-flow-ann-summer.png"), full_page=True)
    pages[1].screenshot(path=str(ARTIFACTS / "key-flow-bob-phone-summer.png"), full_page=True)

    rules = pages[2].goto(f"{live_server.url}/rules/key-flow")
    assert rules.status == 200 and "Brainwave" in pages[2].content()
    for ctx in contexts:
        ctx.close()

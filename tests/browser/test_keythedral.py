"""Two players in two browser contexts lay the Keythedral landscape and play a round."""

from __future__ import annotations

from pathlib import Path

import pytest

import app.games as games
from .. import oneshot

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# What a player clicks, best first: progress on the board, cheap choices in the auction.
PREFERENCE = ("cell:", "gap:", "number:", "order:", "field:", "collect", "tile:", "keep",
              "pay:", "bid:1", "decline", "start:", "pass")


@pytest.fixture(autouse=True)
def keythedral_listed(monkeypatch):
    """The title is playable whether or not the registry lists it yet."""
    monkeypatch.setitem(games._BY_ID, "keythedral",
                        games.Listing("keythedral", "Keythedral", 2, 5, "app.games.keythedral"))


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def choices(page) -> list[str]:
    return page.eval_on_selector_all("#game-body [data-option]", "els => els.map(e => e.dataset.option)")


def nearness(option: str) -> int:
    """How far a square or gap is from the Keythedral, to keep the landscape compact."""
    x, y = option.split(":")[1].split(",")
    return abs(int(x)) + abs(int(y))


def best(found: list[str]) -> str:
    for prefix in PREFERENCE:
        hits = [o for o in found if o.startswith(prefix)]
        if hits:
            return min(hits, key=nearness) if prefix in ("cell:", "gap:") else hits[0]
    return found[0]


def settled(page, before: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.version) > {before}"
        " && !document.getElementById('game-body').classList.contains('busy')", timeout=15000)


def caught_up(page, url: str, game_id: str, token: str) -> None:
    """The page shows what the API shows that seat now. A seat's private step (paying cube
    by cube) changes nothing the other seat sees, so its page may rightly stay as it was."""
    now = oneshot.get(f"{url}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()["version"]
    page.wait_for_function(
        f"Number(document.getElementById('game').dataset.version) >= {now}"
        " && !document.getElementById('game-body').classList.contains('busy')", timeout=15000)


def test_two_players_lay_the_landscape_and_play_a_round(live_server, browser):
    created = oneshot.post(f"{live_server.url}/api/games",
                           json={"title": "keythedral", "players": ["Ann", "Bob"], "seed": 8})
    assert created.status_code == 201, created.text
    game = created.json()
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 1000}, bypass_csp=True)
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  bypass_csp=True)  # a phone; bypass_csp lets the test evaluate JS
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    ann.goto(game["seats"][0]["url"])
    bob.goto(game["seats"][1]["url"])
    for page in (ann, bob):
        page.wait_for_function("window.keydom !== undefined")
        assert page.locator(".kt-land .field").count() == 4  # the start fields
        assert page.locator(".kt-land .keythedral").count() == 1

    clicked: list[str] = []
    tokens = [seat["token"] for seat in game["seats"]]
    for _ in range(160):
        if "Round 2" in ann.locator(".kt-round").inner_text():
            break
        acted = False
        for me, other, other_token in ((ann, bob, tokens[1]), (bob, ann, tokens[0])):
            found = choices(me)
            if not found:
                continue
            option = best(found)
            if option.startswith("bid:") and not any(o.startswith("bid:") for o in clicked):
                ARTIFACTS.mkdir(exist_ok=True)
                for page, name in ((ann, "ann"), (bob, "bob-phone")):
                    page.screenshot(path=str(ARTIFACTS / f"keythedral-auction-{name}.png"), full_page=True)
            before = version(me)
            me.locator(f'#game-body [data-option="{option}"]').first.click()
            # Both pages move on; the other player's without a reload (websocket).
            settled(me, before)
            caught_up(other, live_server.url, game["id"], other_token)
            clicked.append(option)
            acted = True
            break
        assert acted, "nobody had anything to click"
    assert "Round 2" in ann.locator(".kt-round").inner_text(), clicked[-10:]

    # The landscape was laid by clicking squares and gaps: 4 + 10 fields, 10 cottages.
    assert sum(o.startswith("cell:") for o in clicked) == 10
    assert sum(o.startswith("gap:") for o in clicked) == 10
    for page in (ann, bob):
        assert page.locator(".kt-land .field").count() == 14
        assert page.locator(".kt-land .cottage").count() == 10
        assert page.locator(".kt-order .kt-space").count() == 5
    # Work order markers were placed and workers sent in round 1.
    assert any(o.startswith("order:") for o in clicked)
    log = ann.locator(".log").inner_text()
    assert "Ann" in log and "Bob" in log and "{seat" not in log
    assert "places work order marker 1" in log and "Round 2 begins" in log
    # The auction: bids are heard by all, which cubes paid only payer and payee know.
    assert "Ann opens the bidding" in log and "Ann bids 1 cube." in log
    assert "Ann pays 1 cube to Bob." in log
    paid = bob.locator(".kt-screen .kt-received")
    assert paid.count() == 1 and paid.inner_text().startswith("For the start player marker Ann paid you 1 ")
    assert ann.locator(".kt-received").count() == 0
    spectator = oneshot.get(f"{live_server.url}/api/games/{game['id']}").json()
    assert spectator["private"] is None and "received" not in str(spectator["public"])
    # Each screen is its owner's: Bob's page shows his own cubes, and Ann's only as a count.
    assert bob.locator(".kt-screen").count() == 1
    assert "only you see this" in bob.locator(".kt-screen").inner_text()
    bob_cubes = oneshot.get(f"{live_server.url}/api/games/{game['id']}",
                            headers={"Authorization": f"Bearer {game['seats'][1]['token']}"}).json()["private"]["cubes"]
    shown = {el.get_attribute("data-cube"): int(el.locator(".n").inner_text())
             for el in bob.locator(".kt-held").all()}
    assert shown == bob_cubes
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / "keythedral-ann.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "keythedral-bob-phone.png"), full_page=True)
    ann_ctx.close()
    bob_ctx.close()

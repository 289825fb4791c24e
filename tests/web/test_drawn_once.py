"""Board parts drawn once per change (``app/web/render.drawn_once``): a Tiny Towns town or
card, a Key Harvest or Keyper country board, is drawn again only when it (or a fact it shows: for the
seat's own town, its choices, construction and hidden placement; for a board, the seat's
choices on boards) changed, and every page is exactly what drawing it afresh gives. The pages' environment reads views as Jinja would, only faster."""

from __future__ import annotations

import random

import pytest

from app.web import render


def test_a_part_is_drawn_again_only_for_another_part_or_other_facts():
    drawings: list[str] = []

    def draw(text: str) -> str:
        drawings.append(text)
        return text.upper()

    part, twin = {"town": [1]}, {"town": [1]}  # equal, but another version's object
    assert render.drawn_once(part, ("Ann",), draw, "ann") == "ANN"
    assert render.drawn_once(part, ("Ann",), draw, "again") == "ANN"
    assert render.drawn_once(part, ("Bob",), draw, "bob") == "BOB"
    assert render.drawn_once(twin, ("Ann",), draw, "twin") == "TWIN"
    assert drawings == ["ann", "bob", "twin"]


@pytest.mark.parametrize("title, options", [("tiny-towns", {"monuments": True}), ("key-harvest", None),
                                            ("keyper", None)])
async def test_every_page_through_a_game_is_what_drawing_it_afresh_gives(sqlite_client, title, options):
    # SQLite alone: what a page draws comes from the view, whichever database kept the game
    client = sqlite_client
    created = (await client.post("/api/games", json={"title": title, "players": ["Ann", "Bob", "Cy"],
                                                     "seed": 11, "options": options})).json()
    game_id = created["id"]
    auths = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
    rng = random.Random(2)
    redrawn = 0
    for _ in range(60):  # through placements hidden until revealed, and constructions
        views = [(await client.get(f"/api/games/{game_id}", headers=a)).json() for a in auths]
        for seat, auth in enumerate(auths):
            kept = await client.get(f"/g/{game_id}/fragment", headers=auth)
            size = len(render._DRAWN)
            render._DRAWN.clear()
            fresh = await client.get(f"/g/{game_id}/fragment", headers=auth)
            assert kept.status_code == fresh.status_code == 200
            assert kept.text == fresh.text, f"seat {seat} at version {views[seat]['version']}"
            redrawn += size > 0
        if views[0]["status"] == "finished":
            break
        seat = rng.choice(views[0]["to_act"])
        options = [o["id"] for o in views[seat]["options"] if o["id"] != "cancel"]
        acted = await client.post(f"/api/games/{game_id}/actions", headers=auths[seat],
                                  json={"option": rng.choice(options), "version": views[seat]["version"]})
        assert acted.status_code == 200, acted.text
    assert redrawn, "the towns were taken from what was drawn before"


def test_the_pages_environment_reads_a_view_as_jinja_would():
    import jinja2

    plain, ours = jinja2.Environment(), render.ViewEnvironment()
    part = {"town": [1, 2], "items": "an item", "get": "another", "none": None}
    for source in ("{{ p.town }}", "{{ p.items }}", "{{ p.get('town') }}", "{{ p.missing is defined }}",
                   "{{ p.none.x is defined }}", "{{ q.x is defined }}", "{{ p['items'] }}",
                   "{% for k, v in p.items() %}{{ k }}{% endfor %}", "{{ p.town.count(1) }}",
                   "{{ p.__class__.__name__ }}", "{{ q.__class__.__name__ }}"):
        expected = plain.from_string(source).render(p=part, q=None)
        assert ours.from_string(source).render(p=part, q=None) == expected, source
    strict = render.ViewEnvironment(undefined=jinja2.StrictUndefined)
    for source in ("{{ p.missing }}", "{{ q.x }}"):
        try:
            strict.from_string(source).render(p=part, q=None)
        except jinja2.UndefinedError:
            continue
        raise AssertionError(f"{source} should be undefined")

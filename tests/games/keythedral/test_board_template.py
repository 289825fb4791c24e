"""The board partial renders every state of a game, makes every listed choice clickable,
and shows a seat's screen to that seat only."""

from __future__ import annotations

import html
import re

import pytest

import app.games as games
import app.games.keythedral as kt
from app.games.keythedral import bot
from app.games.rng import Rng
from app.web.pages import templates
from app.web.render import game_context

NAMES = ["Ann", "Bob", "Cyd"]


@pytest.fixture(autouse=True)
def listed(monkeypatch):
    monkeypatch.setitem(games._BY_ID, "keythedral",
                        games.Listing("keythedral", "Keythedral", 2, 5, "app.games.keythedral"))


def page(g, seat, version=1):
    seen = kt.view(g, seat)
    result = kt.result(g)
    view = {
        "id": "g1", "title": "keythedral", "status": "active", "version": version, "seat": seat,
        "seats": [{"seat": i, "name": NAMES[i], "open": False} for i in range(len(g.players))],
        "to_act": sorted(kt.to_act(g)), "public": seen["public"], "private": seen["private"],
        "log": [re.sub(r"\{seat(\d)\}", lambda m: NAMES[int(m.group(1))], line) for line in seen["log"]],
        "options": [o.as_json() for o in kt.options(g, seat)] if seat is not None else [],
        "result": result.as_json() if result else None,
    }
    return templates.env.get_template("_game_body.html").render(**game_context(view, token="t"))


def clickable(text):
    return set(html.unescape(m) for m in re.findall(r'data-option="([^"]*)"', text))


def test_every_choice_of_a_whole_game_is_clickable_on_the_board():
    g = kt.setup(3, {}, 21)
    rng = Rng(4)
    kinds = set()
    for step in range(5000):
        if kt.result(g) is not None:
            break
        seat = min(kt.to_act(g))
        listed = [o.id for o in kt.options(g, seat)]
        if step % 3 == 0 or g.pending:
            assert set(listed) <= clickable(page(g, seat)), (g.phase, g.pending)
            kinds.add(g.pending["kind"] if g.pending else g.phase)
        g = kt.apply(g, seat, bot.choose(g, seat, rng))
    assert kt.result(g) is not None
    assert {"setup", "order", "actions", "auction", "pay"} <= kinds
    final = page(g, 0)
    assert "Final scores" in final and "Building tiles" in final


def test_a_players_law_cards_and_tiles_show_only_on_their_own_page():
    g = kt.setup(2, {}, 5)
    g.players[0].laws = ["L18"]
    g.players[0].tiles = ["12c"]
    mine, theirs, spectator = page(g, 0), page(g, 1), page(g, None)
    assert "Surveyor" in mine and "Your screen" in mine
    assert "Surveyor" not in theirs and "Surveyor" not in spectator
    assert "Your screen" not in spectator
    assert "1 law" in theirs and "1 tile" in theirs


def test_the_landscape_is_drawn_as_octagons_and_cottages_in_the_gaps():
    g = kt.setup(2, {}, 5)
    text = page(g, None)
    assert text.count('class="field t-') == 4
    assert text.count("<polygon points=") >= 5  # 4 fields and the Keythedral
    g = kt.apply(g, g.start, "cell:1,0")
    g = kt.apply(kt.apply(g, g.start, "gap:2,1"), g.start, "number:3")
    text = page(g, None)
    assert 'data-cottage="%d-3"' % g.start in text
    assert text.count('class="field t-') == 5

"""What the view shows: public board, counts for others, the seat's own screen and prompt."""

from __future__ import annotations

import app.games.keythedral as kt
from app.games.keythedral import rules
from app.games.keythedral.notation import position

from .support import LAND, game

def test_set_up_shows_the_drawn_field_to_everyone_and_the_places_it_may_go():
    g = game()
    public = kt.view(g, None)["public"]
    assert public["setup"]["drawn"]["id"] == g.drawn and public["setup"]["bag"] == 9
    assert len(public["landscape"]["places"]) == 8 and public["landscape"]["gaps"] == []
    assert public["landscape"]["box"] == [-2, -2, 2, 2]


def test_others_see_counts_and_the_seat_sees_its_screen():
    g = position(LAND, 2)
    g.players[1].cubes["red"] = 3
    g.players[1].laws = ["L07"]
    g.players[1].tiles = ["4a"]
    other = kt.view(g, 0)
    assert other["public"]["players"][1] == {
        "seat": 1, "colour": "yellow", "cubes": 3, "tiles": 1, "laws": 1, "fences": 3,
        "houses": 0, "start": False, "to_act": False, "stopped": False, "out": False}
    assert other["private"]["cubes"]["red"] == 0 and other["private"]["laws"] == []
    own = kt.view(g, 1)["private"]
    assert own["cubes"]["red"] == 3 and [c["name"] for c in own["laws"]] == ["Granary Rights"]
    assert own["tiles"] == [{"id": "4a", "value": 4, "cost": ["black", "black"]}]
    assert own["score"] == {"Building tiles": 4, "Gold": 0, "Stained glass": 0, "Ironwork": 0,
                            "Basic resources": 3}
    assert kt.view(g, None)["private"] is None


def test_the_prompt_tells_the_acting_seat_what_to_do_and_mentions_playable_laws():
    g = position(LAND, 2, start=0)
    assert kt.view(g, 0)["private"]["prompt"] == (
        "Place work order marker 1: choose the cottage number that works next.")
    assert kt.view(g, 1)["private"]["prompt"] is None
    g.players[0].laws = ["L01"]
    assert kt.view(g, 0)["private"]["prompt"].endswith("You may also play a law card from your screen.")


def test_a_forced_move_of_a_cottage_is_public():
    g = position(LAND, 2, start=0)
    rules.begin_actions(g)
    g.fences.append({"id": 1, "owner": 1, "gap": "1,0", "cell": "0,-1"})
    g.players[0].cubes["brown"] = 1
    g = kt.apply(kt.apply(g, 0, "fence"), 0, "fence:1,0/0,0")
    for seat in (None, 0, 1):
        public = kt.view(g, seat)["public"]
        assert public["reposition"] == {"seat": 1, "cottage": "1-2"}
        assert "1,-1" in [f"{x},{y}" for x, y in public["landscape"]["gaps"]]
    assert kt.view(g, 1)["private"]["prompt"].startswith("Your cottage is fully fenced")


def test_the_store_shows_which_colours_were_paid_into_it():
    """As at a real table, cubes paid to the store are seen going in (only cubes paid from
    screen to screen in the auction keep their colours private)."""
    g = position(LAND, 2)
    rules.begin_actions(g)
    g.players[0].cubes.update({"red": 1, "blue": 1, "green": 1})
    before = dict(kt.view(g, 1)["public"]["store"])
    g = kt.apply(g, 0, "craft:white")
    g = kt.apply(kt.apply(g, 0, "pay:red"), 0, "pay:blue")
    after = kt.view(g, 1)["public"]["store"]
    assert {c: after[c] - before[c] for c in after if after[c] != before[c]} == {"red": 1, "blue": 1}
    assert "red" not in " ".join(g.log[-2:]) and "wine" not in " ".join(g.log[-2:])

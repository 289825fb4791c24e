"""Whose turn it is never tells which monument a seat kept (review repro, issue 7)."""

from __future__ import annotations

import app.games.tiny_towns as tt

from ..twins import Twins, assert_same_to_others
from .support import with_towns

OPTIONS = {"monuments": True, "buildings": "first_game"}


def kept(monument: str) -> tt.Game:
    """2 players; seat 1 was dealt The Starloom and Silva Forum and keeps ``monument``;
    seat 1's town is G G / W; seat 0 names wheat and seat 1 places it on B2."""
    g = tt.setup(2, OPTIONS, 3)
    g.players[1].dealt = ["starloom", "silva_forum"]
    g = tt.apply(g, 0, f"keep:{g.players[0].dealt[0]}")
    g = tt.apply(g, 1, f"keep:{monument}")
    g = with_towns(g, ". . . . / . . . . / . . . . / . . . .", "G G . . / W . . . / . . . . / . . . .")
    g = tt.apply(g, 0, "name:wheat")
    g = tt.apply(g, 0, "place:3,3")
    return tt.apply(g, 1, "place:1,1")


def test_keeping_the_starloom_or_silva_forum_looks_the_same_to_the_others():
    starloom, forum = kept("starloom"), kept("silva_forum")
    assert "build:starloom" in [o.id for o in tt.options(starloom, 1)]  # it does fit, privately
    twins = Twins("tiny-towns", 2, starloom, forum, holder=1, hidden=lambda a, b: True, what="Starloom or Forum")
    assert_same_to_others(tt, twins, starloom, forum, step=0)
    assert 1 in tt.to_act(forum)  # asked: some monument it might hold fits


def test_a_seat_no_unbuilt_monument_could_fit_is_not_asked():
    g = tt.setup(2, {"monuments": False, "buildings": "first_game"}, 3)
    g = with_towns(g, ". . . . / . . . . / . . . . / . . . .", "G G . . / W . . . / . . . . / . . . .")
    g = tt.apply(g, 0, "name:wheat")
    g = tt.apply(g, 0, "place:3,3")
    g = tt.apply(g, 1, "place:1,1")
    assert (g.phase, g.round, g.master_builder) == ("name", 2, 1)  # no construction step was asked for

"""The seat's prompt says in words what it is asked to do, above all what it can build."""

from __future__ import annotations

import app.games.tiny_towns as tt

from .support import act, first_game, play_round, with_towns


def prompt(g, seat):
    return tt.view(g, seat)["private"]["prompt"]


def test_the_build_step_names_every_building_that_fits():
    g = with_towns(first_game(2, seed=1), "W S . . / W S . . / H . . . / B G . .")
    g = play_round(g, "wheat", {0: "2,1", 1: "0,0"})
    assert g.phase == "build"
    assert prompt(g, 0) == "You can build a Cottage or a Well: click its card, or Done building."


def test_one_building_is_named_alone():
    g = with_towns(first_game(2, seed=1), "W . . . / . . . . / . . . . / . . . .")
    g = play_round(g, "stone", {0: "0,1", 1: "0,0"})
    assert prompt(g, 0) == "You can build a Well: click its card, or Done building."
    # Once a building is chosen, the prompt follows the construction step by step.
    g = act(g, 0, "build:well")
    assert prompt(g, 0) == ("Building a Well: click the glowing squares to use their cubes "
                            "(0 of 2 picked).")
    g = act(g, 0, "pick:0,0", "pick:0,1")
    assert prompt(g, 0) == "Click the glowing square the Well will stand on."


def test_the_prompt_is_private_and_only_for_a_seat_that_is_asked():
    g = with_towns(first_game(2, seed=1), "W . . . / . . . . / . . . . / . . . .")
    g = play_round(g, "stone", {0: "0,1", 1: "0,0"})
    assert tt.to_act(g) == {0}
    assert prompt(g, 1) is None
    assert "prompt" not in str(tt.view(g, None)["public"])
    assert tt.view(g, None)["private"] is None


def test_placing_and_naming_prompts():
    g = first_game(2, seed=1)
    mb = g.master_builder
    assert prompt(g, mb) == "You are the Master Builder: name the resource every player places this round."
    assert prompt(g, 1 - mb) is None
    g = tt.apply(g, mb, "name:glass")
    assert prompt(g, 0) == "Place the glass: click an empty square of your town."

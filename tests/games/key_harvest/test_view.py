"""Views: every board, store with public bids, registry, event track; the counters behind
a screen for their owner only."""

from __future__ import annotations

import app.games.key_harvest as kh

from .support import act, game, give, lay, stock


def test_public_view_shows_boards_stores_registry_and_track():
    g = stock(lay(give(game(3), 0, "red"), 1, "C3", harvested="C4"), 2, "A1", "green")
    pub = kh.view(g, None)["public"]
    board = {s["ref"]: s for s in pub["players"][1]["board"]}
    assert len(board) == 56 and board["C3"]["tile"] == {"crop": "red", "harvested": False}
    assert board["C4"]["tile"]["harvested"] is True and board["A1"]["tile"] is None
    assert pub["players"][2]["store"] == [{"slot": 0, "tile": "A1", "crop": "orange", "bid": {"green": 1}}]
    assert len(pub["registry"]) == 6 and pub["events"]["spaces"] == 10 and pub["events"]["check_space"] == 7
    assert pub["turn"] == 0 and pub["to_act"] == [0] and pub["actions_used"] == []
    assert len(pub["townsfolk"]) == 6 and pub["bag"]["events"] == 12  # two removed unseen


def test_counters_are_seen_by_their_owner_only():
    g = give(give(game(), 0, "red red"), 1, "green")
    assert kh.view(g, 0)["private"]["counters"]["red"] == 2
    assert kh.view(g, 1)["private"]["counters"] == {"brown": 0, "green": 1, "orange": 0, "red": 0, "yellow": 0}
    assert kh.view(g, None)["private"] is None
    assert "counters" not in keys(kh.view(g, None)) and "counters" not in keys(kh.view(g, 1)["public"])


def keys(value):
    """Every key in a view, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def test_workers_on_the_board_show_their_tile():
    g = lay(game(), 0, "C3 C4")
    g = act(g, 0, "play:red-gleaner", "space:D3", "done")
    space = next(s for s in kh.view(g, 1)["public"]["players"][0]["board"] if s["ref"] == "D3")
    assert space["worker"]["name"] == "Gleaner" and space["worker"]["mark"] == "bell"
    assert "red-gleaner" not in kh.view(g, 1)["public"]["players"][0]["home"]


def test_options_name_their_board_targets():
    g = stock(lay(give(game(), 0, "red"), 0, "C3 C4"), 1, "A1", "red")
    targets = {o.id: o.target for o in kh.options(g, 0)}
    assert targets["harvest:C3"] == "group:0:C3,C4"
    assert targets["take:1:0"] == "store:1:0" and targets["registry:0"] == "registry:0"
    assert targets["play:red-gleaner"] == "worker:red-gleaner"
    g = act(g, 0, "play:red-gleaner")
    assert {o.target for o in kh.options(g, 0) if o.id.startswith("space:")} >= {"space:0:D3"}


def test_the_log_is_in_words_with_seats_as_placeholders():
    g = act(lay(game(), 0, "C3"), 0, "harvest:C3")
    assert kh.view(g, None)["log"][-1] == "{seat0} harvests C3 and takes 1 wine."


def test_the_board_notation_round_trips_and_refuses_a_wrong_crop():
    import pytest

    from app.games.key_harvest.notation import parse, render

    fields = {"A1": False, "B2": True, "G8": False}
    assert parse(render(fields, {"C3": "lord"})) == fields
    assert render({}, {"C3": "lord"}).splitlines()[2].split()[2] == "5"
    with pytest.raises(ValueError, match="A1 grows cider apples"):
        parse("Y . . . . . .\n" + ". . . . . . .\n" * 7)


def test_the_prompt_is_in_the_asked_seats_own_view_only():
    g = kh.setup(3, {}, 5)
    chooser = g.start_chooser
    assert kh.view(g, chooser)["private"]["prompt"] == "Your colour was drawn: name the start player."
    others = [s for s in range(3) if s != chooser]
    assert all(kh.view(g, s)["private"]["prompt"] is None for s in others)
    g = kh.apply(g, chooser, f"start:{chooser}")
    assert kh.view(g, g.turn)["private"]["prompt"].startswith("Your turn — up to two different actions")
    assert "prompt" not in kh.view(g, None)["public"]

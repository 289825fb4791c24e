"""Set-up as play: start fields, drawing and laying fields, placing cottages, the rows."""

from __future__ import annotations

import pytest

import app.games.keythedral as kt
from app.games.keythedral import rules
from app.games.keythedral.content import FIELDS
from app.games.keythedral.notation import render
from app.games.protocol import IllegalAction

from .support import game, ids


def test_four_start_fields_surround_the_keythedral_same_types_opposite():
    g = game()
    assert {c: FIELDS[f].type for c, f in g.fields.items()} == {
        "-1,-1": "quarry", "0,0": "quarry", "0,-1": "wood", "-1,0": "wood"}
    assert render(g) == ".  .  .\n Q  W\n.  K  .\n W  Q\n.  .  ."


@pytest.mark.parametrize("players, numbers", [(2, {2}), (3, {2, 3}), (4, {2, 3, 4}), (5, {2, 3, 4, 5})])
def test_the_bag_holds_the_fields_numbered_up_to_the_player_count(players, numbers):
    g = game(players)
    drawn = g.bag + [g.drawn]
    assert len(drawn) == 5 * players
    assert {FIELDS[f].number for f in drawn} == numbers


def test_the_start_player_lays_first_a_field_then_a_cottage():
    g = game()
    first = g.start
    assert kt.to_act(g) == {first}
    # the drawn field goes orthogonally next to the landscape
    assert sorted(ids(g, first)) == sorted(f"cell:{c}" for c in
                                           ["-1,-2", "0,-2", "-2,-1", "1,-1", "-2,0", "1,0", "-1,1", "0,1"])
    drawn = g.drawn
    g = kt.apply(g, first, "cell:1,0")
    assert g.fields["1,0"] == drawn and g.drawn is None
    # then a cottage in any empty gap touching a field (never the Keythedral's)
    gaps = ids(g, first)
    assert "gap:0,0" not in gaps and "gap:2,1" in gaps and "gap:-1,-1" in gaps
    assert all(o.startswith("gap:") for o in gaps)
    g = kt.apply(g, first, "gap:2,1")
    assert ids(g, first) == ["number:1", "number:2", "number:3", "number:4", "number:5", "cancel"]
    g = kt.apply(g, first, "number:4")
    assert g.cottages[f"{first}-4"] == {"owner": first, "number": 4, "gap": "2,1", "house": False}
    assert kt.to_act(g) == {1 - first} and g.drawn is not None
    assert g.log[-1] == f"{{seat{first}}} places cottage 4."


def test_a_cottage_need_not_touch_the_field_just_laid_and_cancel_goes_back():
    g = game()
    s = g.start
    g = kt.apply(g, s, "cell:1,0")
    g2 = kt.apply(g, s, "gap:-1,-1")  # touches only the start fields
    assert kt.apply(g2, s, "cancel").pending is None
    assert kt.dump(kt.apply(g2, s, "cancel")) == kt.dump(g)


def test_a_field_may_go_where_it_only_touches_a_cottage():
    g = game()
    s = g.start
    g = kt.apply(g, s, "cell:1,0")
    assert "2,1" not in rules.field_places(g)  # only diagonal to the field at 1,0
    g = kt.apply(kt.apply(g, s, "gap:2,1"), s, "number:1")  # a cottage touching 1,0 only
    assert "cell:2,1" in ids(g, 1 - s)  # now it touches that cottage


def test_setup_ends_after_five_fields_and_five_cottages_each_and_row_4_turns_up():
    g = game(3, seed=8)
    assert g.face_up == []
    for _ in range(15):
        s = next(iter(kt.to_act(g)))
        g = kt.apply(g, s, ids(g, s)[0])
        s2 = next(iter(kt.to_act(g)))
        g = kt.apply(g, s2, ids(g, s2)[0])
        if g.pending:
            g = kt.apply(g, s2, ids(g, s2)[0])
    assert len(g.fields) == 4 + 15
    assert all(c["gap"] is not None for c in g.cottages.values())
    assert g.face_up == [4]
    assert g.phase == rules.ORDER and g.round == 1
    assert "The 4 row of building tiles turns face up" in " ".join(g.log)


def test_the_last_cottage_needs_no_number_choice():
    g = game()
    s = g.start
    for n in range(1, 5):
        g.cottages[f"{s}-{n}"]["gap"] = f"{5 + n},9"  # out of the way
    g = kt.apply(g, s, "cell:1,0")
    g = kt.apply(g, s, "gap:2,1")
    assert g.cottages[f"{s}-5"]["gap"] == "2,1" and g.pending is None


@pytest.mark.parametrize("length, sizes", [("full", [5, 5, 5, 4, 3]), ("short", [4, 3, 3, 3, 2])])
def test_rows_are_filled_for_the_short_or_full_game(length, sizes):
    g = game(length=length)
    assert [len(g.rows[str(v)]) for v in (4, 6, 8, 10, 12)] == sizes
    assert all(t.startswith(v) for v in ("4", "6", "8", "10", "12") for t in g.rows[v])


def test_strategic_variant_shows_every_row_from_the_start():
    g = game(strategic=True)
    assert g.face_up == [4, 6, 8, 10, 12]
    plain = kt.view(game(), None)["public"]["mat"]
    shown = kt.view(g, None)["public"]["mat"]
    assert all(t["id"] is None for row in plain for t in row["tiles"])
    assert all(t["id"] and t["cost"] for row in shown for t in row["tiles"])
    assert [row["buyable"] for row in shown] == [True, False, False, False, False]


def test_bad_player_counts_and_options_are_refused():
    with pytest.raises(IllegalAction):
        kt.setup(1, {}, 1)
    with pytest.raises(IllegalAction):
        kt.setup(6, {}, 1)
    with pytest.raises(IllegalAction, match="Game length"):
        kt.setup(2, {"length": "epic"}, 1)


def test_the_start_player_is_drawn_from_the_seed():
    starts = {kt.setup(4, {}, seed).start for seed in range(30)}
    assert starts == {0, 1, 2, 3}
    assert kt.setup(4, {}, 12).start == kt.setup(4, {}, 12).start

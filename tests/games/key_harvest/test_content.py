"""The content tables agree with the seed's component list, and are marked by source."""

from __future__ import annotations

from collections import Counter

from app.games.key_harvest import content
from app.games.key_harvest.content import (EVENTS, FARMHANDS, FIELDS, NEIGHBOURS, SPACES, START_PAIRS,
                                           TOWNSFOLK, WORKERS, describe_event, describe_worker)


def test_board_has_56_hex_spaces_with_letter_digit_references():
    assert len(SPACES) == 56
    assert all(len(ref) == 2 and ref[0] in "ABCDEFG" and ref[1] in "12345678" for ref in SPACES)
    assert len({(s.q, s.r) for s in SPACES.values()}) == 56


def test_neighbours_are_symmetric_and_at_most_six():
    for ref, near in NEIGHBOURS.items():
        assert 2 <= len(near) <= 6
        assert all(ref in NEIGHBOURS[n] for n in near)
    assert NEIGHBOURS["D4"] == ("E5", "E4", "D3", "C4", "C5", "D5")


def test_56_field_tiles_one_per_space_five_crops():
    assert set(FIELDS) == set(SPACES)
    assert Counter(f.crop for f in FIELDS.values()) == {"brown": 11, "green": 11, "orange": 11, "red": 11,
                                                         "yellow": 12}


def test_four_coloured_start_pairs_of_touching_tiles():
    assert len(START_PAIRS) == 4
    for pair in START_PAIRS:
        a, b = pair.refs
        assert b in NEIGHBOURS[a]


def test_24_farmhands_6_per_colour_valued_1_to_3_and_6_townsfolk_valued_4_or_5():
    assert len(FARMHANDS) == 24
    assert Counter(w.colour for w in FARMHANDS.values()) == {c: 6 for c in content.PLAYER_COLOURS}
    assert {w.value for w in FARMHANDS.values()} == {1, 2, 3}
    assert len(TOWNSFOLK) == 6 and {w.value for w in TOWNSFOLK.values()} == {4, 5}
    assert {w.mark for w in WORKERS.values()} == {"bell", "scroll"}


def test_14_events():
    assert len(EVENTS) == 14
    assert all(describe_event(e) for e in EVENTS.values())


def test_every_authored_item_is_marked_and_described():
    for table in (SPACES, FIELDS, WORKERS, EVENTS):
        assert all(item.source in ("published", "authored") for item in table.values())
    assert all(p.source == "authored" for p in START_PAIRS)
    assert all(describe_worker(w).endswith(("(optional)", "(compulsory)")) for w in WORKERS.values())
    assert all(content.CROP_KINDS[c].source == "published" for c in content.CROPS)


def test_content_json_lists_the_geometry_for_the_board_page():
    raw = content.content_json()
    assert len(raw["spaces"]) == 56 and {"ref", "q", "r"} <= set(raw["spaces"][0])

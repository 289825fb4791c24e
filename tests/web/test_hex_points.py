"""``hex_points`` writes the very text the Key Harvest template's arithmetic wrote (its
macro, kept here as the reference), for ints and floats alike: a cache that took 34 and
34.0 for one key would write "34" where the page said "34.0"."""

from __future__ import annotations

import itertools

import jinja2

from app.web.render import hex_points

REFERENCE = jinja2.Environment().from_string(
    "{{ cx - s }},{{ cy }} {{ cx - s / 2 }},{{ cy - h / 2 }} {{ cx + s / 2 }},{{ cy - h / 2 }} "
    "{{ cx + s }},{{ cy }} {{ cx + s / 2 }},{{ cy + h / 2 }} {{ cx - s / 2 }},{{ cy + h / 2 }}")


def test_the_corners_are_written_as_the_template_wrote_them():
    values = [0, 4, 34, 34.0, 79.0, 122.5, -3]
    sizes = [(30, 52), (28.5, 49.4), (29, 50.3), (30.0, 52.0)]
    checked = 0
    for (cx, cy), (s, h) in itertools.product(itertools.product(values, values), sizes):
        assert hex_points(cx, cy, s, h) == REFERENCE.render(cx=cx, cy=cy, s=s, h=h), (cx, cy, s, h)
        checked += 1
    assert checked == len(values) ** 2 * len(sizes)


def test_an_int_and_an_equal_float_are_not_one_cache_entry():
    assert hex_points(34, 0, 30, 52).startswith("4,")
    assert hex_points(34.0, 0, 30, 52).startswith("4.0,")
    assert hex_points(34, 0, 30, 52).startswith("4,")

"""A compact text notation for a Key Flow village, for tests and crash dumps.

Two lines: the road row, then the river row shifted half a card (two characters) to the
right. Each card is four characters: the first three letters of its name and a digit for
its upgrade tiles (``h`` house sides, ``p`` point sides are counted together); ``....`` is
an empty place.

>>> from app.games.key_flow.rules import entry
>>> village = [entry("home1", "road", 0, 0), entry("sp01", "road", 1, 1), entry("sp15", "river", 0, 1)]
>>> print(render(village))
Bro0Gol0
  She0
>>> columns(render(village))
{('road', 0): 'Bro', ('road', 1): 'Gol', ('river', 0): 'She'}
"""

from __future__ import annotations

from typing import Any

from .content import CARDS


def render(village: list[dict[str, Any]]) -> str:
    cols = [e["col"] for e in village]
    low, high = min(cols), max(cols)
    rows = []
    for row in ("road", "river"):
        cells = []
        for col in range(low, high + 1):
            e = next((x for x in village if x["row"] == row and x["col"] == col), None)
            cells.append(f"{CARDS[e['card']].name[:3]}{len(e['tiles'])}" if e else "....")
        line = "".join(cells)
        rows.append(("  " + line if row == "river" else line).rstrip("."))
    return "\n".join(rows)


def columns(text: str) -> dict[tuple[str, int], str]:
    """The three-letter names at each (row, column) of a rendered village, counting the
    leftmost column as 0."""
    out: dict[tuple[str, int], str] = {}
    road, river = (text.splitlines() + ["", ""])[:2]
    for row, line in (("road", road), ("river", river[2:])):
        for i in range(0, len(line), 4):
            cell = line[i:i + 4]
            if cell.strip(".") and len(cell) == 4:
                out[(row, i // 4)] = cell[:3]
    return out

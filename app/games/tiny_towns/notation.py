"""A compact text notation for a Tiny Towns town, like chess's FEN for a board.

A town is 4 rows of 4 tokens, top row first; rows are separated by newlines or ``/``:

- ``.`` an empty square;
- ``W H B G S`` a resource cube lying on the square (wood, wheat, brick, glass, stone);
- a two-letter code from ``CODES`` (or any full card id) for a building or monument,
  optionally followed by ``+`` and the letters of the cubes stored on it
  (``Wa+WWH``: a Warehouse holding wood, wood, wheat; ``Co+B``: a Cottage carrying a
  brick under the Statue of the Bondmaker).

>>> town = parse_town("Co . . W / . Wa+WH . . / . . . . / S . . Fa")
>>> print(format_town(town))
Co    .     .     W
.     Wa+WH .     .
.     .     .     .
S     .     .     Fa
>>> parse_town(format_town(town)) == town
True
"""

from __future__ import annotations

import re
from typing import Any

from .content import ALL_CARDS, LETTER_OF, RESOURCE_LETTER
from .town import SIZE, Square, Town

# Building codes: capitalised for building cards, all capitals for monuments.
CODES: dict[str, str] = {
    "Co": "cottage",
    "Fa": "farm", "Gr": "granary", "Gh": "greenhouse", "Or": "orchard",
    "Fo": "fountain", "Mi": "millstone", "Sh": "shed", "We": "well",
    "Ab": "abbey", "Ch": "chapel", "Cl": "cloister", "Te": "temple",
    "Al": "almshouse", "Fe": "feast_hall", "In": "inn", "Ta": "tavern",
    "Ba": "bakery", "Ma": "market", "Tl": "tailor", "Th": "theater",
    "Bk": "bank", "Fc": "factory", "Tp": "trading_post", "Wa": "warehouse",
    "AR": "archive", "AG": "architects_guild", "BC": "barrett_castle", "CA": "cathedral",
    "FI": "fort_ironweed", "GM": "grand_mausoleum", "GU": "grove_university",
    "MP": "mandras_palace", "OB": "obelisk", "OW": "opaleyes_watch", "SE": "shrine",
    "SF": "silva_forum", "SK": "sky_baths", "SL": "starloom", "BM": "bondmaker",
}
CODE_OF: dict[str, str] = {card_id: code for code, card_id in CODES.items()}
assert set(CODE_OF) == set(ALL_CARDS), "one code per card"


def format_square(square: Square) -> str:
    """The token of one square."""
    if square.building:
        stored = "".join(LETTER_OF[r] for r in square.stored)
        return CODE_OF[square.building] + (f"+{stored}" if stored else "")
    if square.resource:
        return LETTER_OF[square.resource]
    return "."


def parse_square(token: str) -> Square:
    """One square from its token; raises ValueError on anything unknown."""
    if token == ".":
        return Square()
    if token in RESOURCE_LETTER:
        return Square(resource=RESOURCE_LETTER[token])
    name, _, stored = token.partition("+")
    building = CODES.get(name, name)
    if building not in ALL_CARDS or any(ch not in RESOURCE_LETTER for ch in stored):
        raise ValueError(f"unknown town token {token!r}")
    return Square(building=building, stored=[RESOURCE_LETTER[ch] for ch in stored])


def format_town(town: Town) -> str:
    """Four lines of four tokens, padded into columns."""
    tokens = [[format_square(town[(r, c)]) for c in range(SIZE)] for r in range(SIZE)]
    width = max(len(t) for row in tokens for t in row) + 1
    return "\n".join(" ".join(t.ljust(width - 1) for t in row).rstrip() for row in tokens)


def parse_town(text: str) -> Town:
    """A town from its notation (newlines or ``/`` between rows)."""
    rows = [line.split() for line in re.split(r"[\n/]", text) if line.strip()]
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError(f"a town is {SIZE} rows of {SIZE} tokens, got {text!r}")
    return Town([[parse_square(token) for token in row] for row in rows])


def one_line(town: Town) -> str:
    """The town on a single line, rows separated by `` / `` (for logs and test ids)."""
    return " / ".join(" ".join(format_square(town[(r, c)]) for c in range(SIZE))
                      for r in range(SIZE))


def format_game(state: Any) -> str:
    """A crash-dump summary of a game: round, phase and every town in notation."""
    lines = [f"round {state.round}, phase {state.phase}, resource {state.resource}"]
    for p in state.players:
        status = f"complete ({p.place})" if p.complete else "playing"
        lines.append(f"Player {p.seat + 1}: {status}")
        lines.append(format_town(p.town))
    return "\n".join(lines)


__all__ = ["CODES", "CODE_OF", "format_game", "format_square", "format_town",
           "one_line", "parse_square", "parse_town"]

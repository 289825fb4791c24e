"""A compact text notation for a Keyper country board, for tests and crash dumps.

Four lines of four tokens, row 0 first. A token is the field's short name (``cla``
clay, ``log`` logs, ``roc`` rock, ``whe`` wheat, an animal's or a gem's first three
letters, ``til`` country tile, ``bui`` build, ``dis`` discount build, ``upg`` upgrade,
``fai`` winter fair, ``KEY`` the keyp field, ``~~~`` the river), followed by the keyples
on it: a capital letter for a standing keyple, small for one laid down (``B`` light
blue, ``O`` orange, ``G`` green, ``N`` brown, ``K`` black, ``Y`` grey, ``W`` white).
The river's keyples are written on its first cell.

>>> from app.games.keyper.rules import new_board
>>> b = new_board(1, "spring-0-0", None)
>>> b["spaces"]["0,0"] = [{"colour": "orange", "seat": 0, "down": True}, {"colour": "white", "seat": 1, "down": False}]
>>> print(render(b))
claoW whe til KEY
til she ~~~ ~~~
eme log bui roc
chi roc pig cla
>>> parse_keyples("claoW")
('cla', [('orange', True), ('white', False)])
"""

from __future__ import annotations

from typing import Any

from .content import RIVER_CELLS, layout

LETTERS = {"blue": "B", "orange": "O", "green": "G", "brown": "N", "black": "K", "grey": "Y", "white": "W"}
COLOUR_OF = {v: k for k, v in LETTERS.items()}


def short(kind: str) -> str:
    return {"keyp": "KEY", "river": "~~~"}.get(kind, kind[:3])


def render(board: dict[str, Any]) -> str:
    cells = layout(board["id"], board["fold"])
    lines = []
    for r in range(4):
        tokens = []
        for c in range(4):
            kind = cells[(r, c)]
            key = "river" if (r, c) in RIVER_CELLS else f"{r},{c}"
            on = board["spaces"].get(key, []) if (r, c) != RIVER_CELLS[1] and kind != "keyp" else []
            tokens.append(short(kind) + "".join(LETTERS[k["colour"]].lower() if k["down"] else LETTERS[k["colour"]]
                                                for k in on))
        lines.append(" ".join(tokens))
    return "\n".join(lines)


def parse_keyples(token: str) -> tuple[str, list[tuple[str, bool]]]:
    """A token back into its field's short name and its keyples as (colour, laid down)."""
    return token[:3], [(COLOUR_OF[ch.upper()], ch.islower()) for ch in token[3:]]

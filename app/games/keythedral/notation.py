"""A compact text notation for a Keythedral landscape, for tests and crash dumps.

Lines alternate between rows of gaps and rows of fields, gaps first. A gap row has one
token more than a field row, so the text looks like the table: each field sits between
the four gaps at its corners.

- Field tokens: ``Q`` quarry, ``W`` wood, ``L`` lake, ``F`` farm, ``V`` vineyard, ``.``
  no field.
- Gap tokens: ``K`` the Keythedral (always at gap 0,0), ``a3`` seat 0's cottage 3
  (``b`` is seat 1, and so on), ``A3`` the same as a house, ``.`` empty.

>>> text = '''
... .  .  .
...  Q  W
... a1 K  .
...  W  Q
... .  .  B2
... '''
>>> lands = parse(text)
>>> lands.fields["-1,-1"], lands.cottages["0-1"], lands.cottages["1-2"]
('quarry', ('-1,0', False), ('1,1', True))
>>> print(render_landscape(lands.fields, {g: c for c, (g, _) in lands.cottages.items()},
...                        {c for c, (_, house) in lands.cottages.items() if house}))
.  .  .
 Q  W
a1 K  .
 W  Q
.  .  B2
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.gamelog import GameLog
from app.games.rng import Rng

from . import rules
from .content import FIELD_TYPES, FIELDS, TYPE_OF_LETTER
from .rules import KEYTHEDRAL, Game, key, xy

SEAT_LETTERS = "abcde"


@dataclass
class Landscape:
    fields: dict[str, str]  # square -> field type
    cottages: dict[str, tuple[str, bool]]  # cottage id -> (gap, is a house)


def parse(text: str) -> Landscape:
    """Read the notation; the Keythedral's gap fixes the coordinates."""
    lines = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if len(lines) % 2 == 0:
        raise ValueError("a landscape starts and ends with a row of gaps")
    where = [(r, c) for r, row in enumerate(lines) for c, tok in enumerate(row) if tok == "K" and r % 2 == 0]
    if len(where) != 1:
        raise ValueError("exactly one Keythedral (K) in a gap row")
    kr, kc = where[0]
    ox, oy = -kc, -(kr // 2)
    out = Landscape({}, {})
    for r, row in enumerate(lines):
        for c, tok in enumerate(row):
            if tok == ".":
                continue
            if r % 2:  # a row of fields
                out.fields[key(ox + c, oy + r // 2)] = TYPE_OF_LETTER[tok]
            elif tok != "K":
                seat = SEAT_LETTERS.index(tok[0].lower())
                out.cottages[rules.cottage_id(seat, int(tok[1:]))] = (key(ox + c, oy + r // 2), tok[0].isupper())
    return out


def render_landscape(fields: dict[str, str], cottages_at: dict[str, str], houses: set[str]) -> str:
    """Fields (square -> type) and cottages (gap -> cottage id) as notation text."""
    cells = [xy(c) for c in fields] + [(0, 0)]
    gaps = [xy(g) for g in cottages_at] + [xy(KEYTHEDRAL)]
    x0 = min([x for x, _ in cells] + [i for i, _ in gaps])
    y0 = min([y for _, y in cells] + [j for _, j in gaps])
    x1 = max([x + 1 for x, _ in cells] + [i for i, _ in gaps])
    y1 = max([y + 1 for _, y in cells] + [j for _, j in gaps])
    letter = {t: ft.letter for t, ft in FIELD_TYPES.items()}
    lines = []
    for j in range(y0, y1 + 1):
        row = []
        for i in range(x0, x1 + 1):
            g = key(i, j)
            if g == KEYTHEDRAL:
                row.append("K ")
            elif g in cottages_at:
                seat, number = cottages_at[g].split("-")
                ch = SEAT_LETTERS[int(seat)]
                row.append((ch.upper() if cottages_at[g] in houses else ch) + number)
            else:
                row.append(". ")
        lines.append(" ".join(row).rstrip())
        if j < y1:
            lines.append(" " + "  ".join(letter[fields[key(i, j)]] if key(i, j) in fields else "."
                                         for i in range(x0, x1)).rstrip())
    return "\n".join(lines)


def render(g: Game) -> str:
    """The landscape of a game as notation text."""
    fields = {c: FIELDS[f].type for c, f in g.fields.items()}
    at = {c["gap"]: cid for cid, c in g.cottages.items() if c["gap"] is not None}
    return render_landscape(fields, at, {cid for cid, c in g.cottages.items() if c["house"]})


def position(text: str, players: int = 2, *, seed: int = 1, start: int = 0,
             options: dict | None = None) -> Game:
    """A game at the start of round 1 on the given landscape (set-up skipped): for tests.

    Fields get ids of their type (start fields first); cottages not in the text stay off
    the landscape. Rows, law cards and the store are set up from ``seed`` as usual.
    """
    chosen = {"length": "full", "strategic": False, **(options or {})}
    g = rules.setup(players, chosen, seed)
    lands = parse(text)
    free = {t: [f for f in sorted(FIELDS, key=lambda f: (FIELDS[f].number, f)) if FIELDS[f].type == t]
            for t in FIELD_TYPES}
    g.fields = {c: free[t].pop(0) for c, t in lands.fields.items()}
    g.bag, g.drawn = [], None
    for cid, cot in g.cottages.items():
        gap, house = lands.cottages.get(cid, (None, False))
        cot["gap"], cot["house"] = gap, house
    g.setup_turn = 5 * players
    g.start = start
    g.face_up = sorted(set(g.face_up) | {4})
    g.log = GameLog()
    g.rng = Rng(seed).state
    rules.begin_round(g)
    return g

"""A compact text notation for a Key Harvest country board, for tests and crash dumps.

Eight lines (spaces 1–8), seven tokens each (columns A–G). Odd columns (B, D, F) sit half
a hex lower on the board; the text keeps them in line, so read neighbours from the
references, not the layout. Tokens:

- a crop letter (``B`` hops, ``G`` vegetables, ``O`` cider apples, ``R`` wine, ``Y``
  wheat): a field tile, capital on its crop side, small when harvested. The letter must
  be that reference's crop (each tile has one place).
- ``1``–``5``: a worker of that value (``render`` only; ``parse`` leaves workers out).
- ``.``: an empty space.

>>> text = '''
... . . . . . . .
... . G . . . . .
... . . r . . . .
... . . . . . . .
... . . . . . . .
... . . . . . . .
... . . . . . . .
... . . . . . . .
... '''
>>> fields = parse(text)
>>> fields
{'B2': False, 'C3': True}
>>> render(fields, {"A1": "red-gleaner"}).splitlines()[:3]
['1 . . . . . .', '. G . . . . .', '. . r . . . .']
"""

from __future__ import annotations

from .content import COLUMNS, CROP_KINDS, FIELDS, ROWS, WORKERS, Ref


def render(fields: dict[Ref, bool], workers: dict[Ref, str] | None = None) -> str:
    """A board (reference -> harvested, reference -> worker id) as notation text."""
    workers = workers or {}
    lines = []
    for row in range(1, ROWS + 1):
        tokens = []
        for column in COLUMNS:
            ref = f"{column}{row}"
            if ref in fields:
                letter = CROP_KINDS[FIELDS[ref].crop].letter
                tokens.append(letter.lower() if fields[ref] else letter)
            elif ref in workers:
                tokens.append(str(WORKERS[workers[ref]].value))
            else:
                tokens.append(".")
        lines.append(" ".join(tokens))
    return "\n".join(lines)


def parse(text: str) -> dict[Ref, bool]:
    """The field tiles of a board written in the notation (reference -> harvested)."""
    lines = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if len(lines) != ROWS or any(len(tokens) != len(COLUMNS) for tokens in lines):
        raise ValueError(f"a board is {ROWS} lines of {len(COLUMNS)} tokens")
    out: dict[Ref, bool] = {}
    for row, tokens in enumerate(lines, start=1):
        for column, token in zip(COLUMNS, tokens):
            if token == "." or token.isdigit():
                continue
            ref = f"{column}{row}"
            if token.upper() != CROP_KINDS[FIELDS[ref].crop].letter:
                raise ValueError(f"{ref} grows {CROP_KINDS[FIELDS[ref].crop].name}, not {token!r}")
            out[ref] = token.islower()
    return out

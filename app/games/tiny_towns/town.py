"""A player's town: the 4×4 board of squares, shared by the rules and the scoring.

A square is empty, holds one resource cube, or holds one building (a building card id or
a monument id). Some buildings hold cubes on top (Warehouse, Bank, Factory; a Cottage
under the Statue of the Bondmaker): those are ``stored`` and never count as the square's
resource.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from .content import ALL_CARDS, RESOURCES, Resource

SIZE = 4
Cell = tuple[int, int]  # (row, column), 0-based, row 0 at the top
ALL_SQUARES = (1 << SIZE * SIZE) - 1  # one bit per square, reading order

# What each square can match in a building's pattern, as one number (the rules' match
# code): a byte per square in reading order, holding one bit per resource for the
# square's own cube, all five and WILD_BIT for a wild square (a Trading Post from an
# earlier round), nothing otherwise. "Does this layout fit" is asked thousands of times a
# game; on the number it is two bit operations (``rules._first_fit``) instead of a walk
# over the layout's squares.
RESOURCE_BITS = {r: 1 << n for n, r in enumerate(RESOURCES)}
WILD_BIT = 1 << len(RESOURCES)
WILD_BITS = WILD_BIT | (WILD_BIT - 1)  # a wild square matches every resource
SQUARE_BITS = 0xFF
WILD = "*"  # the match value of a wild square (a Trading Post from an earlier round)


def square_shift(index: int) -> int:
    """Where a square's byte starts in a match code (``index`` in reading order)."""
    return 8 * index


# Per square (reading order): what each match value adds to a match code there.
_SQUARE_CODES = tuple({**{r: bit << square_shift(n) for r, bit in RESOURCE_BITS.items()},
                       WILD: WILD_BITS << square_shift(n)} for n in range(SIZE * SIZE))


CORNERS: frozenset[Cell] = frozenset({(0, 0), (0, 3), (3, 0), (3, 3)})
CENTRE: frozenset[Cell] = frozenset({(1, 1), (1, 2), (2, 1), (2, 2)})


def iter_cells() -> Iterator[Cell]:
    for r in range(SIZE):
        for c in range(SIZE):
            yield (r, c)


def neighbours(cell: Cell) -> list[Cell]:
    """Orthogonally adjacent squares (the only meaning of "adjacent" in Tiny Towns)."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE]


def surrounding(cell: Cell) -> list[Cell]:
    """The up to 8 squares around a square, diagonals included (Granary)."""
    r, c = cell
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE]


# The empty squares (reading-order indices) of a town, from its held squares: looked up
# a half at a time (8 squares each), for the rules ask at every placement.
_EMPTY_IN_FIRST_HALF = tuple(tuple(n for n in range(8) if not held >> n & 1) for held in range(256))
_EMPTY_IN_SECOND_HALF = tuple(tuple(n + 8 for n in empty) for empty in _EMPTY_IN_FIRST_HALF)
_CELLS = tuple(iter_cells())
_ROW_SQUARES = tuple(((1 << SIZE) - 1) << SIZE * r for r in range(SIZE))  # each row's squares, as ``owned`` bits


def empty_squares(held: int) -> tuple[int, ...]:
    """The squares not in ``held`` (bit n: square n in reading order), in reading order."""
    return _EMPTY_IN_FIRST_HALF[held & 0xFF] + _EMPTY_IN_SECOND_HALF[held >> 8]


def squares_of(mask: int) -> tuple[int, ...]:
    """The squares in ``mask`` (bit n: square n in reading order), in reading order."""
    return empty_squares(ALL_SQUARES ^ mask)


def cell_name(cell: Cell) -> str:
    """Human name of a square: rows A–D top to bottom, columns 1–4 left to right."""
    return _CELL_NAMES.get(cell) or f"{'ABCD'[cell[0]]}{cell[1] + 1}"


_CELL_NAMES = {(r, c): f"{'ABCD'[r]}{c + 1}" for r in range(SIZE) for c in range(SIZE)}  # the log names squares at every step


@dataclass(slots=True)
class Square:
    resource: Resource | None = None
    building: str | None = None
    stored: list[Resource] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return self.resource is None and self.building is None


@dataclass
class Town:
    """The squares of a town. ``copy`` shares the squares until one side changes them,
    square by square: a copied town most often changes in one square or none."""

    squares: list[list[Square]] = field(
        default_factory=lambda: [[Square() for _ in range(SIZE)] for _ in range(SIZE)]
    )
    # The rules' memo of which cards fit (``rules.FitMemo``): derived, never saved or
    # compared; it checks itself against the squares each time it is asked.
    fit_memo: Any = field(default=None, compare=False, repr=False)
    # The squares this town has its own (bit n: square n in reading order); the others
    # may be shared with copies. With none of its own, the rows are shared too.
    owned: int = field(default=ALL_SQUARES, compare=False, repr=False)
    # Derived from the squares, and brought up to date square by square: the squares
    # changed since (``stale``, taken to change by ``town[cell]``), the match code
    # (``match_code``), the squares holding a cube or a building and those holding a
    # building (bit n: square n in reading order). They are asked at nearly every step; a
    # step changes a square or two.
    stale: int = field(default=ALL_SQUARES, compare=False, repr=False)
    code: int = field(default=0, compare=False, repr=False)
    held: int = field(default=0, compare=False, repr=False)
    built: int = field(default=0, compare=False, repr=False)
    # The squares as JSON (``to_json``) and the squares object it was made from: kept
    # while the town owns no square, since squares shared with a copy never change (a
    # change copies them first). Towns that did not change in a step dump as they did.
    json_memo: Any = field(default=None, compare=False, repr=False)

    def __getitem__(self, cell: Cell) -> Square:
        """The square, to read or change: a square shared with a copy is copied first."""
        r, c = cell
        bit = 1 << (r * SIZE + c)
        self.stale |= bit
        owned = self.owned
        if not owned & bit:
            # Own the list of rows, the square's row (a row is the town's own once any of
            # its squares is), then the square.
            squares = self.squares = self.squares[:] if not owned else self.squares
            row = squares[r] = squares[r][:] if not owned & _ROW_SQUARES[r] else squares[r]
            s = row[c]
            row[c] = Square(s.resource, s.building, s.stored[:])
            self.owned = owned | bit
            return row[c]
        return self.squares[r][c]

    def put_cube(self, cell: Cell, resource: Resource) -> None:
        """A cube on an empty square (a placement, the usual change): its match code and
        held squares brought up to date here when nothing else changed since."""
        self[cell].resource = resource
        n = cell[0] * SIZE + cell[1]
        if self.stale == 1 << n and not self.held >> n & 1:  # only this square, empty before
            self.code |= _SQUARE_CODES[n][resource]
            self.held |= 1 << n
            self.stale = 0

    def at(self, cell: Cell) -> Square:
        """The square, for reading only (never changed through this: it may be shared)."""
        return self.squares[cell[0]][cell[1]]

    def held_squares(self) -> int:
        """The squares holding a cube or a building, one bit each in reading order."""
        if self.stale:
            self.refresh()
        return self.held

    def match_code(self) -> int:
        """What the squares can match in a pattern: a cube its resource (never one stored on
        a building), every Trading Post anything (the rules take out this round's)."""
        if self.stale:
            self.refresh()
        return self.code

    def refresh(self) -> None:
        """Bring ``code``, ``held`` and ``built`` up to date for the squares changed since."""
        stale, code, held, built = self.stale, self.code, self.held, self.built
        while stale:
            bit = stale & -stale
            stale ^= bit
            n = bit.bit_length() - 1
            square = self.squares[n // SIZE][n % SIZE]
            code &= ~(SQUARE_BITS << 8 * n)  # its byte (``square_shift``, inline)
            held &= ~bit
            built &= ~bit
            if square.building is not None:
                held |= bit
                built |= bit
                if square.building == "trading_post":
                    code |= _SQUARE_CODES[n][WILD]
            elif square.resource is not None:
                held |= bit
                code |= _SQUARE_CODES[n][square.resource]
        self.stale, self.code, self.held, self.built = 0, code, held, built

    def empty_cells(self) -> list[Cell]:
        """Empty squares in reading order."""
        return [_CELLS[n] for n in empty_squares(self.held_squares())]

    def is_full(self) -> bool:
        # (``held_squares`` inline: asked of every town at every round's start and end)
        if self.stale:
            self.refresh()
        return self.held == ALL_SQUARES

    def buildings(self) -> list[tuple[Cell, str]]:
        """(cell, building id) for every building and monument, in reading order."""
        if self.stale:
            self.refresh()
        squares = self.squares
        return [(cell, squares[cell[0]][cell[1]].building) for cell in map(_CELLS.__getitem__, squares_of(self.built))]

    def cells_of(self, building_id: str) -> list[Cell]:
        return [cell for cell, building in self.buildings() if building == building_id]

    def colour_at(self, cell: Cell) -> str | None:
        """The building colour on a square ("monument" for a monument), or None."""
        b = self.at(cell).building
        return ALL_CARDS[b].colour if b else None

    def copy(self) -> "Town":
        """An independent copy. The squares are copied lazily: both towns share them
        until either indexes one (``town[cell]``), which gives that town its own."""
        self.owned = 0  # ``share``, inline: a copy is made at nearly every step
        twin = Town.__new__(Town)  # without the dataclass __init__: a third of the cost
        # The same squares, memo and summary; none owned. A dict display, not
        # ``self.__dict__.copy()``, whose shared keys made later attribute writes slower.
        twin.__dict__ = {**self.__dict__}
        return twin

    def share(self) -> None:
        """Let others keep these squares: from now on, any change copies first."""
        self.owned = 0

    # --- JSON ---
    def to_json(self) -> list[list[Any]]:
        """The squares as JSON, read only: the same lists may be given to every later caller."""
        memo = self.json_memo
        if memo is not None and memo[0] is self.squares and not self.owned:
            return memo[1]

        def sq(s: Square) -> Any:
            if s.building:
                return {"b": s.building, "on": list(s.stored)} if s.stored else {"b": s.building}
            return s.resource

        made = [[sq(s) for s in row] for row in self.squares]
        if not self.owned:
            self.json_memo = (self.squares, made)
        return made

    @classmethod
    def from_json(cls, raw: list[list[Any]]) -> "Town":
        def sq(x: Any) -> Square:
            if isinstance(x, dict):
                return Square(building=x["b"], stored=list(x.get("on", [])))
            return Square(resource=x)

        return cls([[sq(x) for x in row] for row in raw])


# One board of empty squares, shared by every new town until it changes a square (as a
# copy shares its original's): never changed, as no town owns it.
_EMPTY_BOARD = Town().squares


def empty_town() -> Town:
    """A town with nothing on it, for a new player: it shares ``_EMPTY_BOARD`` and its
    summaries (no code, nothing held or built) are already up to date."""
    return Town(_EMPTY_BOARD, owned=0, stale=0)

"""Keythedral (Richard Breese, 2nd edition 2004): townsfolk of Keytown gather resources
from the fields around the new Keythedral and fund its construction, row by row.

Title metadata and the protocol functions; the rules live in ``rules.py`` and the
per-seat view in ``view.py``.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import OptionSpec, TitleSpec, keeps_secrets, validate_options

from . import rules
# The rest of the protocol is the rules' and the view's own functions.
from .rules import Game, apply, dump, load, options, result, to_act
from .view import view

TITLE = TitleSpec(
    id="keythedral",
    name="Keythedral",
    min_players=2,
    max_players=5,
    blurb=("Send workers from your cottages into the fields, trade with the craftsmen of "
           "Keytown and buy the most valuable seats in the new Keythedral."),
    option_specs=(
        OptionSpec("length", "Game length", "choice", "full",
                   choices=(("full", "Full game: 22 building tiles"),
                            ("short", "Short game: 15 building tiles")),
                   help="How many building tiles are laid on the Keythedral mat."),
        OptionSpec("strategic", "Strategic variant", "bool", False,
                   help="Every building tile's cost is visible from the start; only the lowest "
                        "row with tiles left may be bought."),
    ),
)


def setup(players: int, options: dict[str, Any] | None, seed: int) -> Game:
    """A fresh game: the rows, the law cards and the bag are shuffled; the landscape is
    then laid by the players in turn."""
    return rules.setup(players, validate_options(TITLE, options, players), seed)


def undoable(before: Game, seat: int, option_id: str, after: Game) -> bool:
    """May ``seat`` take this step back at once (app/table/takeback.py)?

    A step that draws a field tile, takes or turns a law card, turns a row of tiles face up,
    or moves the game to its next phase does not qualify; placing, paying and the steps of a
    choice do.
    """
    return keeps_secrets(before, after, "phase", "bag", "drawn", "law_deck", "law_slots", "face_up", "rows")


__all__ = ["TITLE", "setup", "undoable", "to_act", "options", "apply", "view", "result", "dump", "load"]

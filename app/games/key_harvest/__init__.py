"""Key Harvest (Richard Breese, 2007): citizens of Keydom bid for field tiles, lay them on
their country boards, harvest crops and put workers to use, under the eye of Keywood.

Title metadata and the protocol functions; the rules live in ``rules.py`` and the
per-seat view in ``view.py``.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import TitleSpec, keeps_secrets, validate_options

from . import rules
# The rest of the protocol is the rules' and the view's own functions.
from .rules import Game, apply, dump, load, options, result, to_act
from .view import view

TITLE = TitleSpec(
    id="key-harvest",
    name="Key Harvest",
    min_players=2,
    max_players=4,
    blurb=("Bid for field tiles at the land registry, buy them from your neighbours' stores, "
           "grow the largest holdings on your country board and put farmhands and townsfolk to work."),
)


def setup(players: int, options: dict[str, Any] | None, seed: int) -> Game:
    """A fresh game: start pairs and secret counters are drawn, the registry is filled and
    the drawn colour's owner names the start player."""
    return rules.setup(players, validate_options(TITLE, options, players), seed)


def undoable(before: Game, seat: int, option_id: str, after: Game) -> bool:
    """May ``seat`` take this step back at once (app/table/takeback.py)?

    A step that draws from the bag (refilling the registry, an event), resolves an event or
    moves the game to its next phase does not qualify; the steps of a turn on one's own farm
    do.
    """
    return keeps_secrets(before, after, "phase", "bag", "removed", "track", "registry", "resolving")


__all__ = ["TITLE", "setup", "undoable", "to_act", "options", "apply", "view", "result", "dump", "load"]

"""Keyper (Richard Breese, 2017): keypers lead teams of keyples over four seasons, working
the fields of folding country boards together, building farm and village, holding fairs
and trading with boatmen.

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
    id="keyper",
    name="Keyper",
    min_players=2,
    max_players=4,
    blurb=("Send your keyples to the fields of the folding country boards, invite the others to work "
           "beside you, build farm and village, hold fairs and trade with the boatmen over four seasons."),
)


def setup(players: int, options: dict[str, Any] | None, seed: int) -> Game:
    """A fresh game: spring boards, the bag and display, boats, face-down fairs and a
    random start player."""
    return rules.setup(players, validate_options(TITLE, options, players), seed)


def undoable(before: Game, seat: int, option_id: str, after: Game) -> bool:
    """May ``seat`` take this step back at once (app/table/takeback.py)?

    A step that draws country tiles, deals fairs or boats, or ends a season does not
    qualify; the steps of a turn that only move keyples and goods do.
    """
    return keeps_secrets(before, after, "phase", "season", "bag", "display", "fair_pool", "fair_out", "boats")


__all__ = ["TITLE", "setup", "undoable", "to_act", "options", "apply", "view", "result", "dump", "load"]

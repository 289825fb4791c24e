"""Key Flow (Richard Breese, Ian Vincent, 2018): villages along the River Key grow over four
seasons of simultaneous, secret card drafting.

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
    id="key-flow",
    name="Key Flow",
    min_players=2,
    max_players=6,
    blurb=("Draft cards all at once and in secret over four seasons: build your village along the "
           "road and the river, send keyples to work in your own and your neighbours' villages, "
           "and gather what your winter cards score."),
)


def setup(players: int, options: dict[str, Any] | None, seed: int) -> Game:
    """A fresh game: homes, store cards and winter K cards dealt, spring hands in hand."""
    return rules.setup(players, validate_options(TITLE, options, players), seed)


def undoable(before: Game, seat: int, option_id: str, after: Game) -> bool:
    """May ``seat`` take this step back at once (app/table/takeback.py)?

    A step that reveals the cards everyone chose (all have picked), deals, or draws a skill
    tile does not qualify; a pick the others have not all matched yet does.
    """
    return keeps_secrets(before, after, "phase", "decks", "box", "skill_pile", "reveals")


__all__ = ["TITLE", "setup", "undoable", "to_act", "options", "apply", "view", "result", "dump", "load"]

"""Tiny Towns (Peter McPherson, AEG 2019): build the best town on a 4×4 board.

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
    id="tiny-towns",
    name="Tiny Towns",
    min_players=1,
    max_players=6,
    blurb=("Woodland mayors fill a 4×4 town with resources the Master Builder names, "
           "then turn patterns of cubes into cottages, farms, taverns and monuments."),
    option_specs=(
        OptionSpec("monuments", "Play with monuments", "bool", True,
                   help="Each player keeps one of two secret monuments only they may build."),
        OptionSpec("buildings", "Building cards", "choice", "random",
                   choices=(("random", "One random card from each pile"),
                            ("first_game", "First game: Cottage, Farm, Well, Chapel, Tavern, "
                                           "Theater, Factory")),
                   help="The Cottage is always in play."),
        OptionSpec("cavern", "Cavern rule", "bool", False,
                   help="Up to twice a game, set aside a resource another player named "
                        "and place it later on an empty square."),
        OptionSpec("town_hall", "Town Hall variant", "bool", False,
                   help="Resources come from a deck of cards: card, card, then a free choice.",
                   players=(2, 6)),
    ),
)


def setup(players: int, options: dict[str, Any] | None, seed: int) -> Game:
    """A fresh game; one player plays the solo rules."""
    return rules.setup(players, validate_options(TITLE, options, players), seed)


def undoable(before: Game, seat: int, option_id: str, after: Game) -> bool:
    """May ``seat`` take this step back at once (app/table/takeback.py)?

    Placing a resource or a step of a construction before the others have all chosen
    qualifies; the step that reveals everyone's placements (the phase moves on), a card
    drawn from the resource deck, and a monument kept by the last seat to choose do not.
    """
    return keeps_secrets(before, after, "phase", "deck", "revealed")


__all__ = ["TITLE", "setup", "undoable", "to_act", "options", "apply", "view", "result", "dump", "load"]

"""Keythedral (Richard Breese, 2nd edition 2004): townsfolk of Keytown gather resources
from the fields around the new Keythedral and fund its construction, row by row.

Title metadata and the protocol functions; the rules live in ``rules.py`` and the
per-seat view in ``view.py``.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import JSON, Option, OptionSpec, Result, Seat, TitleSpec, validate_options

from . import rules
from .rules import Game
from .view import view as _view

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


def to_act(state: Game) -> frozenset[Seat]:
    return rules.to_act(state)


def options(state: Game, seat: Seat) -> list[Option]:
    return rules.options(state, seat)


def apply(state: Game, seat: Seat, option_id: str) -> Game:
    return rules.apply(state, seat, option_id)


def view(state: Game, seat: Seat | None) -> dict[str, Any]:
    return _view(state, seat)


def result(state: Game) -> Result | None:
    return rules.result(state)


def dump(state: Game) -> JSON:
    return rules.dump(state)


def load(raw: JSON) -> Game:
    return rules.load(raw)

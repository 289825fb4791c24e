"""Hand-made Key Flow positions for rules tests."""

from __future__ import annotations

import app.games.key_flow as kf
from app.games.key_flow.content import CARDS
from app.games.key_flow.rules import Game, entry, find


def ids(name: str) -> list[str]:
    return sorted(c.id for c in CARDS.values() if c.name == name)


def keyple(code: str, season: str | None = None) -> str:
    """A keyple card id by its content code (e.g. "r2LD", "y1Ds")."""
    from app.games.key_flow.content import ANIMAL_LETTERS, COLOUR_LETTERS
    colour, n = COLOUR_LETTERS[code[0]], int(code[1])
    arrows = "".join(ch for ch in code[2:] if ch in "LDR")
    animal = ANIMAL_LETTERS.get(code[-1])
    for c in CARDS.values():
        if (c.kind == "keyple" and c.colour == colour and c.keyples == n and c.arrows == arrows
                and c.animal == animal and (season is None or c.season == season)):
            return c.id
    raise KeyError(code)


def game(players: int = 3, seed: int = 1) -> Game:
    """A fresh game whose hands are emptied: tests give each seat what they need."""
    g = kf.setup(players, {}, seed)
    for p in g.players:
        p.hand = []
    return g


def build(g: Game, seat: int, card_id: str, row: str, col: int, **res: int) -> dict:
    """Put a card straight into a village (placed before this turn), with resources on it."""
    e = entry(card_id, row, col, 0)
    e["res"].update(res)
    g.players[seat].village.append(e)
    return e


def hands(g: Game, *cards: list[str]) -> None:
    for p, cs in zip(g.players, cards):
        p.hand = list(cs)


def play(g: Game, plays: dict[int, tuple[str, str]]) -> Game:
    """Every seat picks and uses a card: {seat: (card, use option id)}."""
    for seat, (card, use) in sorted(plays.items()):
        g = kf.apply(g, seat, f"pick:{card}")
        g = kf.apply(g, seat, use)
    return g


def option_ids(g: Game, seat: int) -> list[str]:
    return [o.id for o in kf.options(g, seat)]


__all__ = ["find"]

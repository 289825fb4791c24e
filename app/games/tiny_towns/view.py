"""What one seat (or a spectator) may see of a Tiny Towns game.

Public: the round, the step, the Master Builder and the named resource, the building
cards, every town as it stands, who has chosen (never what), cubes on buildings, Cavern
counts, built monuments and Opaleye's Watch cards, the resource-card counts.
Private (the seat's own only): the kept monument (and the two to choose from), the
placement being chosen or waiting to be revealed, the construction in progress, the
"when built" choice due, the cubes set aside in the Cavern.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import orjson

from app.games.protocol import seat_view

from .content import ALL_CARDS, RESOURCES
from .rules import (BUILD, KEEP, NAME, PICK, PLACE, STEP_NAMES, WATCH, Game, Player, a_card,
                    buildable, card_name, is_solo, is_town_hall, pickable, result, sites, to_act)
from .scoring import score_town
from .town import Cell, Town

Seat = int


@lru_cache(maxsize=None)  # one per card id: the content never changes
def card_json(card_id: str) -> dict[str, Any]:
    """The card as views show it. One dict per card, shared by every view: views are
    never changed by their readers (the table shares one public part between viewers)."""
    card = ALL_CARDS[card_id]
    return {"id": card.id, "name": card.name, "colour": card.colour,
            "pattern": card.pattern.split("/"), "text": card.text}


def view(g: Game, seat: Seat | None) -> dict[str, Any]:
    """``{"public": ..., "private": ... (None for spectators), "log": [...]}``."""
    return seat_view(g.players, seat, lambda: public_view(g), lambda own: private_view(g, own), g.log)


@lru_cache(maxsize=256)
def cards_json(cards: tuple[str, ...]) -> list[dict[str, Any]]:
    """The game's building cards, one list per set of cards: most versions show the very
    list the last one showed, so a frame of changes skips it at once."""
    return [card_json(c) for c in cards]


def public_view(g: Game) -> dict[str, Any]:
    acting = to_act(g)
    over = result(g)
    cards = tuple(g.cards)
    towns = [drawn_town(p.town) for p in g.players]
    return {
        "round": g.round,
        "phase": g.phase,
        "step": STEP_NAMES[g.phase],
        "variant": "solo" if is_solo(g) else "town_hall" if is_town_hall(g) else "standard",
        "options": dict(g.options),
        "master_builder": g.master_builder,
        "resource": g.resource,
        "source": g.source,
        "cards": cards_json(cards),
        "monument_cards": {p.monument: card_json(p.monument) for p in g.players
                           if p.monument and p.monument_round is not None},
        "players": [player_public(g, p, p.seat in acting, cards, drawn, towns)
                    for p, drawn in zip(g.players, towns)],
        "to_act": sorted(acting),
        "town_hall": ({"deck": len(g.deck), "discard": len(g.discard),
                       "cycle": ["card", "card", "free"][(g.round - 1) % 3] if g.round else None}
                      if is_town_hall(g) else None),
        "solo": {"revealed": list(g.revealed), "deck": len(g.deck)} if is_solo(g) else None,
        "result": over.as_json() if over else None,
    }


def player_public(g: Game, p: Player, acting: bool, cards: tuple[str, ...], drawn: "Drawn",
                  towns: list["Drawn"]) -> dict[str, Any]:
    """A player's public part, remembered per town (see ``drawn_town``) and everything
    else it is built from: most actions change one town or none, so most players' parts
    are the very dicts the last version showed."""
    n = len(towns)
    right = None if n == 1 else towns[(p.seat - 1) % n].feast_halls  # the player on the right
    built = p.monument if p.monument_round is not None else None
    watch = tuple(p.watch) if built == "opaleyes_watch" and not _choosing_watch(p) else None
    chosen = has_chosen(g, p)
    key = (p.seat, right, cards, p.complete, p.place, built, chosen, acting,
           p.master_builder_turns, len(p.cavern), p.caverns_used, watch, p.shrine_value)
    part = drawn.parts.get(key)
    if part is None:
        total, fed = _score_now(p.town, drawn.dumped, right, p.place, p.shrine_value, cards)
        part = {
            "seat": p.seat,
            "town": drawn.town,
            "score_now": total,
            "fed": fed,
            "complete": p.complete,
            "place": p.place,
            "monument": built,
            "chosen": chosen,
            "to_act": acting,
            "master_builder_turns": p.master_builder_turns,
            "cubes": drawn.cubes,
            "cavern": len(p.cavern),
            "caverns_used": p.caverns_used,
            "watch": list(watch) if watch is not None else None,
            "shrine_value": p.shrine_value if built == "shrine" else None,
        }
        if len(drawn.parts) >= PARTS_KEPT:
            drawn.parts.clear()  # a town seen in many ways (rare): start again
        drawn.parts[key] = part
    return part


class Drawn:
    """What views show of one set of squares: the town, its cubes, its Feast Halls (for
    the player on its left), the town as bytes (the score's memo key), and the public
    parts of players built on it."""

    __slots__ = ("squares", "town", "cubes", "feast_halls", "dumped", "parts")

    def __init__(self, town: Town) -> None:
        self.squares = town.squares  # kept, so its id is not reused while remembered
        self.town = town.to_json()
        self.cubes = stored_cubes(town)
        self.feast_halls = len(town.cells_of("feast_hall"))
        self.dumped = orjson.dumps(self.town)
        self.parts: dict[tuple[Any, ...], dict[str, Any]] = {}


TOWNS_KEPT = 2048  # sets of squares remembered (~7 KiB each; the table keeps 256 games' views)
PARTS_KEPT = 8  # public parts remembered per set of squares
_TOWNS: dict[int, Drawn] = {}


def drawn_town(town: Town) -> Drawn:
    """The town as views show it, remembered per squares object. A town's squares are
    marked shared first, as ``Town.copy`` does: any later change (``town[cell]``) then
    takes the town its own rows and square, so remembered squares never change under the memo."""
    town.share()
    drawn = _TOWNS.get(id(town.squares))
    if drawn is None or drawn.squares is not town.squares:
        drawn = Drawn(town)
        if len(_TOWNS) >= TOWNS_KEPT:
            _TOWNS.pop(next(iter(_TOWNS), None), None)  # the oldest (never fails, even between threads)
        _TOWNS[id(town.squares)] = drawn
    return drawn


def clear_memos() -> None:
    """Forget every remembered view part (tests: views built afresh)."""
    _TOWNS.clear()
    cards_json.cache_clear()
    card_json.cache_clear()
    _SCORES.clear()


CUBE_HOLDERS = {"factory": "factory", "bank": "bank", "warehouse": "warehouse", "cottage": "statue"}


def stored_cubes(town: Town) -> dict[str, list[list[str]]]:
    """The cubes on each Factory, Bank, Warehouse and Cottage (Statue of the Bondmaker), in
    reading order: one pass over the town."""
    cubes: dict[str, list[list[str]]] = {kind: [] for kind in ("factory", "bank", "warehouse", "statue")}
    for row in town.squares:
        for square in row:
            kind = CUBE_HOLDERS.get(square.building) if square.building else None
            if kind is not None:
                cubes[kind].append(list(square.stored))
    return cubes


SCORES_KEPT = 8192  # scores remembered (early towns look alike across games)
_SCORES: dict[tuple[Any, ...], tuple[int, list[list[int]]]] = {}


def _score_now(town: Town, drawn: bytes, right: int | None, place: int | None, shrine: int | None,
               cards: tuple[str, ...]) -> tuple[int, list[list[int]]]:
    """The town's score if the game ended now, and its fed Cottages under the feeding that
    scores (towns are public, and only built monuments count, so this reveals nothing).
    Remembered by the town as bytes (``drawn``), across games too; worked out from ``town``."""
    key = (drawn, right, place, shrine, cards)
    kept = _SCORES.get(key)
    if kept is None:
        score = score_town(town, right_feast_halls=right, completion_place=place, shrine_value=shrine,
                           game_types=cards)
        kept = (score.total, sorted([r, c] for r, c in score.fed))
        if len(_SCORES) >= SCORES_KEPT:
            _SCORES.pop(next(iter(_SCORES), None), None)  # the oldest (never fails, even between threads)
        _SCORES[key] = kept
    return kept


def has_chosen(g: Game, p: Player) -> bool:
    """Whether the player has made this step's choice (never what it was)."""
    if g.phase == KEEP:
        return p.monument is not None
    if g.phase == PLACE:
        return g.pending[p.seat] is not None
    if g.phase == BUILD:
        return p.done and not p.complete
    if g.phase == WATCH:
        return not p.effects
    return False


def _choosing_watch(p: Player) -> bool:
    return any(e["kind"] == "watch" for e in p.effects)


def private_view(g: Game, p: Player) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "monument": card_json(p.monument) if p.monument else None,
        "dealt": [card_json(m) for m in p.dealt],
        "placing": dict(g.placing[p.seat]) if g.placing[p.seat] else None,
        "pending": dict(g.pending[p.seat]) if g.pending[p.seat] else None,
        "construction": construction_view(g, p),
        "effect": dict(p.effects[0]) if p.effects else None,
        "cavern": [r for r in RESOURCES for _ in range(p.cavern.count(r))],
        "prompt": prompt(g, p),
    }


def prompt(g: Game, p: Player) -> str | None:
    """What the seat is asked to do now, in words (it names the seat's own monument, so
    it is private); None when nothing is asked of it."""
    if p.seat not in to_act(g):
        return None
    if p.effects:
        return effect_prompt(p.effects[0])
    if g.phase == KEEP:
        return "Choose the monument you keep: click one of the two cards on your screen."
    if g.phase == NAME:
        return "You are the Master Builder: name the resource every player places this round."
    if g.phase == PICK:
        return "Take one of the three resource cards: its resource is the one you place."
    if g.phase == PLACE:
        placing = g.placing[p.seat] or {}
        if placing.get("resource") is None:
            return "Free choice: choose, in secret, the resource you place."
        if placing.get("switch"):
            return f"Click an empty square for the {placing['switch']}."
        if placing.get("take"):
            return f"Click an empty square for the {placing['take']} from the Warehouse."
        return f"Place the {placing['resource']}: click an empty square of your town."
    if g.phase == BUILD:
        return build_prompt(g, p)
    return None


def build_prompt(g: Game, p: Player) -> str:
    con = p.construction
    if con:
        name = card_name(con["card"])
        if len(con["picked"]) == len(ALL_CARDS[con["card"]].shape):
            return f"Click the glowing square the {name} will stand on."
        return (f"Building {a_card(con['card'])}: click the glowing squares to use their "
                f"cubes ({len(con['picked'])} of {len(ALL_CARDS[con['card']].shape)} picked).")
    cards = buildable(g, p)
    if not cards:
        if p.cavern and p.town.empty_cells():
            return "Nothing fits a building now: place a set-aside cube, or click Done building."
        return "Nothing fits a building now: click Done building."
    names = [a_card(c) for c in cards]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f"You can build {listed}: click its card, or Done building."


EFFECT_PROMPTS = {
    "bank": "Your new Bank: choose the resource to put on it.",
    "factory": "Your new Factory: choose the resource to put on it.",
    "watch": "Opaleye's Watch: choose the building cards to put on it.",
    "uncavern": "Click an empty square for the set-aside cube.",
}


def effect_prompt(effect: dict[str, Any]) -> str:
    kind = effect["kind"]
    if kind == "guild":
        return ("Architect's Guild: click a building of yours to replace, or stop."
                if effect["cell"] is None else "Architect's Guild: choose the building it becomes.")
    if kind == "grove":
        return ("Grove University: choose a building to place for free."
                if effect["card"] is None else f"Grove University: click an empty square for the {card_name(effect['card'])}.")
    if kind == "watch-move":
        return f"Opaleye's Watch: click an empty square for the {card_name(effect['card'])}."
    return EFFECT_PROMPTS.get(kind, "Finish what your new building asks for.")


def construction_view(g: Game, p: Player) -> dict[str, Any] | None:
    con = p.construction
    if not con:
        return None
    card = con["card"]
    picked: list[Cell] = [tuple(c) for c in con["picked"]]  # type: ignore[misc]
    complete = len(picked) == len(ALL_CARDS[card].shape)
    return {
        "card": card,
        "picked": [list(c) for c in picked],
        "candidates": [] if complete else [list(c) for c in pickable(g, p, card, picked)],
        "sites": [list(c) for c in sites(g, p, card, picked)] if complete else [],
    }


__all__ = ["view", "card_json", "prompt"]

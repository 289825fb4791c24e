"""What one seat (or a spectator) may see of a Keyper game.

``view(g, seat)`` returns ``{"public": ..., "private": ... | None, "log": [...]}``.

``public`` (the same for everyone, never built from a face-down fair or a fold being chosen)::

    phase        "play" | "fold" (everyone secretly folds their board) | "over"
    season       "spring" | "summer" | "autumn" | "winter"; season_index 0-3; round 1-4 (the
                 season's number, the page's counter)
    step         what is happening, in words
    turn, start, last   the turn player, the season's start player, the last to play
    to_act       [seat]
    pending      the step being chosen: {"do", "seat"} ("house": housing animals at the end of
                 a season; "surplus": keyples over the team size onto the keyp tile) plus, for "invite", the inviter
                 ("active"), the space and the gain the invited seat would get; for "act",
                 the action kind and how many repetitions; for "place", the keyple colour
    boards       [{id, fold, season, folder, keyper, boat: {id, name, goods} | None,
                   cells: 16 x {row, col, key, kind, colour, keyples: [{colour, seat, down}]}}]
                 (the river's two cells share key "river")
    display      8 x {slot, tile, ...building faces} | None
    bag          tiles left in the bag
    boats        this season's boats not yet on a river: [{id, name, goods}]; aside: ids set aside
    winter_fairs [{id, needs, points, back_needs, back_points}] face up (from summer)
    supply       {good: n}
    players      [{seat, colour, hand, keyp, keyp_down, keyper, stock, plots, home, held,
                   ship, fairs_face_down: [season], shown, winter, housed, folded}]
    result       the Result as JSON once over, else None

``private`` (the seat's own; None for spectators)::

    seat, colour
    fairs        {season: {id, needs, points}}: the seat's face-down fair tiles
    fold         the fold it has chosen this time (until everyone has chosen), else None
    prompt       what the seat is asked now, in words

Option targets (``Option.target``):

    "space:<board>:<r,c>|river"  a field or river of a country board
    "keyp:<board>"               a board's keyp field (the keyper)
    "hand:<seat>:<colour>"       a keyple in the seat's hand
    "plot:<seat>:<plot>"         a plot of the seat's player board
    "display:<slot>"             a country tile on display
    "home:<seat>:<tile>" / "held:<seat>:<tile>"   a home tile / a taken country tile
    "boat:<id>"                  a boat waiting beside the boards
    "winterfair:<id>"            a winter fair tile; "fairtile:<seat>:<season>" a face-down fair
    "keyptile:<seat>"            the seat's keyp tile; "fold:<board>:<fold>" a fold
"""

from __future__ import annotations

import functools
from typing import Any

from app.games.protocol import seat_view

from .content import (BOATS, BUILDINGS, FAIRS, FIELD_COLOUR, FIELD_NAMES, KEYPLE_NAMES, RIVER_CELLS, SEASONS,
                      TEAM_SIZE, describe_side, layout)
from .rules import (FOLD, OVER, PLAY, Game, Player, board_of, field_kind, join_gain, result, season_name,
                    to_act)

Seat = int


def view(g: Game, seat: Seat | None) -> dict[str, Any]:
    return seat_view(g.players, seat, lambda: public_view(g), lambda own: private_view(g, own), g.log)


def step_text(g: Game) -> str:
    if g.phase == OVER:
        return "Game over"
    if g.phase == FOLD:
        return f"Everyone folds their board for {season_name(g)}"
    if g.ending:
        return f"The end of {season_name(g)}"
    return f"{season_name(g).capitalize()}: turns"


def public_view(g: Game) -> dict[str, Any]:
    over = result(g)
    return {
        "phase": g.phase,
        "season": season_name(g),
        "season_index": g.season,
        "round": g.season + 1,
        "step": step_text(g),
        "turn": g.turn,
        "start": g.start,
        "last": g.last,
        "to_act": sorted(to_act(g)),
        "pending": pending_public(g),
        "boards": [board_json(g, b) for b in g.boards],
        "display": [tile_json(t, slot=i) if t else None for i, t in enumerate(g.display)],
        "bag": len(g.bag),
        "boats": [boat_json(g, b) for b in g.boats],
        "aside": list(g.aside),
        "winter_fairs": [winter_json(f) for f in g.winter_fairs],
        "supply": dict(g.supply),
        "players": [player_public(g, p) for p in g.players],
        "result": over.as_json() if over else None,
    }


def boat_json(g: Game, boat_id: str) -> dict[str, Any]:
    return {"id": boat_id, "name": BOATS[boat_id].name, "goods": list(BOATS[boat_id].faces[season_name(g)])}


def winter_json(fair_id: str) -> dict[str, Any]:
    f = FAIRS[fair_id]
    return {"id": f.id, "needs": dict(f.needs), "points": f.points, "back_needs": dict(f.back_needs or {}),
            "back_points": f.back_points}


def tile_json(tile: str, **extra: Any) -> dict[str, Any]:
    b = BUILDINGS[tile]
    text, back_text = side_texts(tile)
    return {"tile": tile, "area": b.area, "season": b.season, "name": b.front.name, "cost": dict(b.front.cost),
            "text": text, "back_name": b.back.name, "upgrade": dict(b.back.cost),
            "back_text": back_text, **extra}


@functools.cache
def side_texts(tile: str) -> tuple[str, str]:
    """A tile's two sides in words: fixed content, written once (they were two thirds of a
    view's work, every tile of every player written afresh for each view)."""
    b = BUILDINGS[tile]
    return describe_side(b.front), describe_side(b.back)


def board_json(g: Game, b: dict[str, Any]) -> dict[str, Any]:
    cells = []
    for (r, c), kind in sorted(layout(b["id"], b["fold"]).items()):
        key = "river" if (r, c) in RIVER_CELLS else f"{r},{c}"
        cells.append({"row": r, "col": c, "key": key, "kind": kind, "colour": FIELD_COLOUR.get(kind),
                      "name": FIELD_NAMES[kind],
                      "keyples": [dict(k) for k in b["spaces"].get(key, [])] if kind != "keyp" else []})
    boat = boat_json(g, b["boat"]) if b["boat"] else None
    return {"id": b["id"], "fold": b["fold"], "season": b["fold"].split("-")[0], "folder": b["folder"],
            "keyper": b["keyper"], "boat": boat, "cells": cells}


def player_public(g: Game, p: Player) -> dict[str, Any]:
    plots = []
    for pid, plot in p.plots.items():
        top = plot["tiles"][-1] if plot["tiles"] else None
        plots.append({"plot": pid, "area": pid.rstrip("0123456789"), "tiles": list(plot["tiles"]), "up": plot["up"],
                      "top": tile_json(top) if top else None, "keyples": [dict(k) for k in plot["keyples"]],
                      "housed": dict(p.housed.get(pid, {}))})
    return {
        "seat": p.seat, "colour": p.colour, "hand": list(p.hand), "keyp": list(p.keyp),
        "keyp_down": list(p.keyp_down), "keyper": p.keyper, "stock": {k: n for k, n in p.stock.items() if n},
        "plots": plots, "home": [tile_json(t) for t in p.home], "held": [tile_json(t) for t in p.held],
        "ship": p.ship, "fairs_face_down": [s for s in SEASONS if s in p.fairs],
        "shown": [dict(f) for f in p.shown], "winter": [winter_json(f) for f in p.winter],
        "folded": g.phase == FOLD and p.fold is not None,
    }


def pending_public(g: Game) -> dict[str, Any] | None:
    if g.phase != PLAY or not g.queue:
        return None
    job = g.queue[0]
    out: dict[str, Any] = {"do": job["do"], "seat": job.get("seat")}
    if job["do"] == "invite":
        out.update(active=job["active"], board=job["board"], space=job["space"],
                   field=FIELD_NAMES[field_kind(g, job["board"], job["space"])],
                   first=board_of(g, job["board"])["spaces"][job["space"]][0]["colour"])
    elif job["do"] == "act":
        out.update(kind=job["kind"], left=job["left"], plot=job.get("plot"), board=job.get("board"),
                   src=job.get("src"))
    elif job["do"] == "place":
        out.update(colour=job["colour"], river=job.get("river"))
    return out


def private_view(g: Game, p: Player) -> dict[str, Any]:
    return {
        "seat": p.seat, "colour": p.colour,
        "fairs": {s: {"id": f, "needs": dict(FAIRS[f].needs), "points": FAIRS[f].points} for s, f in p.fairs.items()},
        "fold": p.fold,
        "prompt": prompt(g, p),
    }


ACT_PROMPTS = {
    "tile": "Take a country tile: click one in the display, or Done.",
    "build": "Build: click a tile (your home tiles, your taken tiles or the display), then a plot.",
    "discount": "Build at a discount (the most valuable item of the cost is free): click a tile, then a plot.",
    "upgrade": "Upgrade: click one of your buildings to flip it to its better side.",
    "fair": "Take a winter fair tile: click one of the winter fairs.",
    "boat": "Trade with the boat: take a good it shows, or sell one for 2 shipping points.",
    "work": "Use your building: choose its action below.",
}


def prompt(g: Game, p: Player) -> str | None:
    """What the seat is asked now, in words (the page's action bar); None when not asked."""
    if p.seat not in to_act(g):
        return None
    if g.phase == FOLD:
        return (f"Choose how to fold your board for {season_name(g)}: your choice stays secret until everyone "
                "has chosen.")
    step = pending_public(g)
    if step is None:
        if p.keyper is None and p.hand:
            return "Your turn: click a keyple to play it, or a keyp field (outlined) to play your keyper there."
        if p.keyper is None:
            return "Your turn: your keyples are all out — click a keyp field to play your keyper."
        if p.hand:
            return "Your turn: click a keyple in your hand to play it."
        return "Your turn: all your keyples are out — click a standing keyple to lay it down."
    job = g.queue[0]
    if step["do"] == "invite":
        inviter = step["active"]
        gains = {c: join_gain(g, job, c) for c in p.hand}
        best = max(gains.values()) if gains else 2
        return (f"{{seat{inviter}}} invites you to join on the {step['field']} field of board {step['board']}: "
                f"join with the same colour ({KEYPLE_NAMES[step['first']]}) or a white keyple and you both gain — you get {best}. "
                "Or decline.")
    if step["do"] == "place":
        if step.get("river"):
            return "Choose the boat to put on the river."
        return f"Play your {step['colour']} keyple: click a highlighted field, river or building."
    if step["do"] == "act":
        if step.get("src"):
            return "Click the plot to build on (a plot with one building may be overbuilt once)."
        left = f" ({step['left']} left)" if step["left"] > 1 else ""
        return ACT_PROMPTS[step["kind"]] + left
    if step["do"] == "keyp":
        return "You played your keyper: lay down the keyples on your keyp tile for their goods?"
    if step["do"] == "final":
        return "The season is ending: you may make one final lay-down."
    if step["do"] == "fair":
        return f"The fairs of {season_name(g)}: hold a fair by displaying its goods, or finish."
    if step["do"] == "house":
        return ("Your farm buildings cannot house every animal: choose which to keep and where "
                "(the rest go back to the supply).")
    if step["do"] == "surplus":
        return (f"You have more than {TEAM_SIZE[len(g.players)]} keyples: choose which go onto your keyp tile "
                "(each gives a good when your keyper is played).")
    return "Your choice."

"""What one seat (or a spectator) may see of a Key Harvest game.

``view(g, seat)`` returns ``{"public": ..., "private": ... | None, "log": [str, ...]}``.

``public`` (the same for everyone, never built from anything behind a screen)::

    phase        "start" (the drawn colour's owner names the start player) | "play" | "over"
    step         the phase in words
    turn         seat whose turn it is (the bag holder)
    turns        turns finished; round: turns // players + 1 (every player once is a round)
    to_act       [seat]: who owes a choice now (the turn player, or a seat in an event/step)
    actions_used ["harvest" | "worker" | "transfer" | "registry"], in the order taken this turn
    actions      {"harvest": "a) harvest crops", ...}: the turn option card
    pending      {"seat", "do"} | None: the step being chosen ("place", "power", "gain",
                 "more", "resettle", "hail", "bloom", "start"); for "place"/"power" also
                 "worker" and (power) "space" and "effect" (the kind of the worker's effect
                 being chosen, content.EFFECT_KINDS). A bid being made is private: while a seat
                 composes one, this shows the step it came from (None or "more")
    players      [{seat, colour, board, store, home, fields, tiles, groups}]:
                   board  56 spaces [{ref, q, r, tile: {crop, harvested} | None,
                          worker: {id, name, value, mark, townsfolk} | None}]
                   store  [{slot, tile, crop, bid: {crop: n}}] (bids are public, as on the table)
                   home   farmhand ids in the seat's own supply
                   fields / tiles  field tiles on the board / field + worker tiles
                   groups sizes of its field groups, largest first
    registry     6 entries {slot, tile, crop} | None (an empty space)
    events       {spaces: 10, check_space: 7, track: [{id, name, text}] (space 1 first),
                  set_aside: [...], ignored: [...]}
    townsfolk    [{id, name, value, mark, text}] on the town board
    fallow       [{tile, crop}]
    bag          {fields: n, events: n}
    supply       {crop: n}
    start_bag    crop colours that were special in the starting counter bag
    ending       the tenth event is placed (or no field tile can come any more)
    final_turns  turns left once the final turns began, else None
    crops        {colour: crop name}
    result       the Result as JSON once over, else None

``private`` (the seat's own; None for spectators)::

    seat, colour
    counters     {crop: n} behind the screen
    bid          {"slot", "tile", "counters": {crop: n}} while this seat is composing a bid

Option targets (``Option.target``) name the board thing a choice is about:

    "space:<seat>:<ref>"    a space on that seat's country board (worker space, field)
    "group:<seat>:<r1,r2>"  a connected group of fields to harvest (all its references)
    "worker:<id>"           a worker tile (a farmhand at home or a townsfolk on the town board)
    "store:<seat>:<slot>"   a tile in that seat's store
    "registry:<slot>"       a land registry space
    "fallow:<ref>"          a tile in the fallow fields
    "supply:<crop>"         the supply's counters of a crop
    "counter:<crop>"        your own counters of a crop (adding to a bid)
    "seat:<seat>"           a player (naming the start player)
Option kinds are the id's prefix ("harvest", "play", "space", "take", "registry", "add",
"confirm", "gain", "reap", "renew", "settle", "cart", "drop", "swap", "clear",
"resettle", "hail", "bloom", "done", "home", "remove", "start", "end", "cancel").
Worker powers: "settle:<ref>" takes a tile onto your board (target "fallow:", "registry:"
or "store:" names where it is); "cart:<ref>" carries a registry tile into your store
("drop:<ref>" first empties a slot of a full store); "swap:<seat>" swaps stores with that
seat (no target: a button); "clear:<ref>" sends a field next to the worker to the fallow
fields.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import seat_view

from .content import (CHECK_SPACE, CROP_KINDS, CROPS, EVENT_SPACES, EVENTS, FIELDS, SPACES, STORE_SIZE, WORKERS,
                      EVERY, describe_effect, describe_event, describe_worker, is_event)
from .rules import ACTION_NAMES, OVER, PLAY, START, Game, Player, groups, result, to_act, workers_at_home

Seat = int
STEPS = {START: "Choose the start player", PLAY: "Take up to two actions", OVER: "Game over"}


def view(g: Game, seat: Seat | None) -> dict[str, Any]:
    """``{"public": ..., "private": ... (None for spectators), "log": [...]}``."""
    return seat_view(g.players, seat, lambda: public_view(g), lambda own: private_view(g, own), g.log)


def public_view(g: Game) -> dict[str, Any]:
    over = result(g)
    return {
        "phase": g.phase,
        "step": STEPS[g.phase],
        "turn": g.turn,
        "turns": g.turns,
        "round": g.turns // len(g.players) + 1,
        "to_act": sorted(to_act(g)),
        "actions_used": list(g.used),
        "actions": dict(ACTION_NAMES),
        "pending": pending_public(g),
        "players": [player_public(g, p) for p in g.players],
        "registry": [{"slot": i, "tile": t, "crop": FIELDS[t].crop} if t else None for i, t in enumerate(g.registry)],
        "events": {"spaces": EVENT_SPACES, "check_space": CHECK_SPACE,
                   "track": [event_json(e) for e in g.track],
                   "set_aside": [event_json(e) for e in g.set_aside + g.held],
                   "ignored": [event_json(e) for e in g.ignored]},
        "townsfolk": [worker_json(w) for w in g.town],
        "fallow": [{"tile": t, "crop": FIELDS[t].crop} for t in g.fallow],
        "bag": {"fields": sum(not is_event(t) for t in g.bag), "events": sum(is_event(t) for t in g.bag)},
        "supply": {c: g.supply[c] for c in CROPS},
        "start_bag": list(g.start_bag),
        "ending": g.ending,
        "final_turns": g.final_turns,
        "crops": {c: CROP_KINDS[c].name for c in CROPS},
        "result": over.as_json() if over else None,
    }


def pending_public(g: Game) -> dict[str, Any] | None:
    """The step in progress, without anything secret (a bid's counters, its tile)."""
    if not g.queue:
        return None
    job = g.queue[0]
    if job["do"] == "bid":  # a bid in the making is private: show the step it came from
        job = job["back"]
        if job is None:
            return None
    out = {"seat": job["seat"], "do": job["do"]}
    if job["do"] in ("place", "power"):
        out["worker"] = job["worker"]
    if job["do"] == "power":
        out["space"] = job["space"]
        out["effect"] = WORKERS[job["worker"]].effects[job["effect"]].kind
    return out


def worker_json(worker_id: str) -> dict[str, Any]:
    w = WORKERS[worker_id]
    return {"id": w.id, "name": w.name, "value": w.value, "mark": w.mark, "townsfolk": w.is_townsfolk,
            "colour": w.colour, "text": describe_worker(w)}


def event_json(event_id: str) -> dict[str, Any]:
    e = EVENTS[event_id]
    return {"id": e.id, "name": e.name, "text": describe_event(e)}


def board_json(p: Player) -> list[dict[str, Any]]:
    out = []
    for s in SPACES.values():
        tile = {"crop": FIELDS[s.ref].crop, "harvested": p.fields[s.ref]} if s.ref in p.fields else None
        worker = worker_json(p.workers[s.ref]) if s.ref in p.workers else None
        out.append({"ref": s.ref, "q": s.q, "r": s.r, "tile": tile, "worker": worker})
    return out


def player_public(g: Game, p: Player) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "colour": p.colour,
        "board": board_json(p),
        "store": [{"slot": i, "tile": e["tile"], "crop": FIELDS[e["tile"]].crop, "bid": dict(e["bid"])}
                  for i, e in enumerate(p.store)],
        "home": [w for w in workers_at_home(g, p) if not WORKERS[w].is_townsfolk],
        "fields": len(p.fields),
        "tiles": len(p.fields) + len(p.workers),
        "groups": [len(grp) for grp in groups(p)],
    }


def private_view(g: Game, p: Player) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": p.seat, "colour": p.colour, "counters": dict(p.counters), "bid": None}
    if g.queue and g.queue[0]["do"] == "bid" and g.queue[0]["seat"] == p.seat:
        job = g.queue[0]
        out["bid"] = {"slot": job["slot"], "tile": g.registry[job["slot"]], "counters": dict(job["bid"])}
    out["prompt"] = prompt(g, p, out["bid"])
    return out


STEP_PROMPTS = {
    "start": "Your colour was drawn: name the start player.",
    "gain": "Take a crop counter: click a crop in the supply.",
    "more": "You may take a second tile, or stop with one.",
    "resettle": "Event: you may take a tile from the fallow fields onto your board.",
    "hail": "Event: hail — choose one of your unharvested fields to turn to its harvested side.",
    "bloom": "Event: you may turn one of your harvested fields back to its crop side.",
}


def prompt(g: Game, p: Player, bid: dict[str, Any] | None) -> str | None:
    """What the seat is asked now, in words (the page's action bar); None when not asked."""
    if p.seat not in to_act(g):
        return None
    if bid:
        return (f"Make your bid for {bid['tile']}: click counters behind your screen to add them, "
                "then confirm. Nobody sees it until it is placed.")
    step = pending_public(g)
    if step is None:
        if g.used:
            return "One more action (a different one), or end your turn: click what glows blue."
        return ("Your turn — up to two different actions: click what glows blue (fields to harvest, "
                "a worker, a store or registry tile), or end your turn.")
    if step["do"] == "place":
        return f"Put the {WORKERS[step['worker']].name} on a space of your board that glows blue."
    if step["do"] == "power":
        job = g.queue[0]
        worker = WORKERS[job["worker"]]
        effect = worker.effects[job["effect"]]
        words = describe_effect(effect)
        if effect.kind == "cart" and len(p.store) >= STORE_SIZE:
            words = ("your store is full: click one of its tiles to send it to the fallow fields (its bid goes "
                     "to the supply), then a registry tile to carry into your store, its bid one counter from the supply")
        how = "optional (bell): choose, or stop" if job["optional"] else "compulsory (scroll): choose"
        more = f" ({job['left']} to go)" if 1 < effect.amount < EVERY else ""
        return f"{worker.name}: {words[0].upper()}{words[1:]}{more} — {how}."
    return STEP_PROMPTS.get(step["do"], "Your choice.")

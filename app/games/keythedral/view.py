"""What one seat (or a spectator) may see of a Keythedral game.

Public: the landscape (fields, cottages and houses, fences, workers), the Keythedral mat
(face-up tiles with their costs, face-down ones as backs only), the work order markers,
the store with every colour in it (cubes paid into the store are seen going in, as at a
real table) and the Keytown mat, how many new law cards are on offer and in the deck, the
law cards already played, each player's counts (cubes, tiles, law cards, fences), who took
a new law this phase, and the auction: every bid and pass, spoken aloud, and how many
cubes the winner pays.
Private (the seat's own only): the cubes, building tiles and law cards behind its screen,
which cubes it was paid in the auction, and the choice it is in the middle of.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import seat_view

from .content import BASIC, COLOURS, CRAFT, CUBES, FIELD_TYPES, FIELDS, LAWS, ROW_VALUES, TILES
from .rules import (ACTIONS, AUCTION, COLLECT, KEYTHEDRAL, NUMBERS, ORDER, OVER, PHASE_NUMBER,
                    SETUP, STEP_NAMES, WORKERS, Game, Player, basic_count, cottage_places,
                    cube_count, empty_gaps, field_places, free_numbers, law_play_options,
                    marker_placer, result, score_lines, tile_cost, to_act, xy)

Seat = int
PLAYER_COLOURS = ("blue", "yellow", "grey", "green", "red")  # the 2nd edition's colours


def view(g: Game, seat: Seat | None) -> dict[str, Any]:
    """``{"public": ..., "private": ... (None for spectators), "log": [...]}``."""
    return seat_view(g.players, seat, lambda: public_view(g), lambda own: private_view(g, own), g.log)


def public_view(g: Game) -> dict[str, Any]:
    acting = to_act(g)
    over = result(g)
    return {
        "round": g.round,
        "phase": g.phase,
        "phase_number": PHASE_NUMBER.get(g.phase),
        "step": STEP_NAMES[g.phase],
        "options": dict(g.options),
        "start": g.start,
        "landscape": landscape_view(g),
        "setup": setup_view(g) if g.phase == SETUP else None,
        "mat": mat_view(g),
        "work_order": work_order_view(g),
        "store": {c: g.store[c] for c in BASIC},
        "craft": {c: {"mat": g.craft[c], "spent": g.spent[c], "price": CUBES[c].price} for c in CRAFT},
        "laws": {"slots": [card is not None for card in g.law_slots], "deck": len(g.law_deck),
                 "played": [law_json(c) for c in g.played]},
        "effects": effects_view(g),
        "players": [player_public(g, p, p.seat in acting) for p in g.players],
        "auction": auction_view(g),
        "reposition": ({"seat": g.pending["seat"], "cottage": g.pending["cottage"]}
                       if g.pending and g.pending["kind"] == "reposition" else None),
        "to_act": sorted(acting),
        "result": over.as_json() if over else None,
    }


def law_json(card_id: str) -> dict[str, Any]:
    card = LAWS[card_id]
    return {"id": card.id, "name": card.name, "phase": card.phase, "text": card.text}


def cell_json(k: str) -> list[int]:
    return list(xy(k))


def landscape_view(g: Game) -> dict[str, Any]:
    fields = [{"id": f, "type": FIELDS[f].type, "name": FIELD_TYPES[FIELDS[f].type].name,
               "colour": FIELDS[f].colour, "cell": cell_json(c), "worker": g.workers.get(c)}
              for c, f in g.fields.items()]
    cottages = [{"id": cid, "owner": c["owner"], "number": c["number"], "house": c["house"],
                 "gap": cell_json(c["gap"])} for cid, c in g.cottages.items() if c["gap"] is not None]
    fences = [{"id": f["id"], "owner": f["owner"], "gap": cell_json(f["gap"]), "cell": cell_json(f["cell"])}
              for f in g.fences]
    # Empty places that may matter now: where a field or a cottage could go.
    places = field_places(g) if g.phase == SETUP and g.drawn else []
    gaps = (empty_gaps(g) if g.phase == SETUP and not g.drawn
            else cottage_places(g) if g.pending and (g.pending["kind"] == "reposition" or
                                                     (g.pending["kind"] == "survey" and "cottage" in g.pending))
            else [])
    cells = [xy(c) for c in g.fields] + [xy(c) for c in places]
    xs = [x for x, _ in cells] + [xy(gp)[0] - 1 for gp in gaps] + [xy(gp)[0] for gp in gaps]
    ys = [y for _, y in cells] + [xy(gp)[1] - 1 for gp in gaps] + [xy(gp)[1] for gp in gaps]
    return {
        "keythedral": cell_json(KEYTHEDRAL),
        "fields": fields,
        "cottages": cottages,
        "fences": fences,
        "places": [cell_json(c) for c in places],
        "gaps": [cell_json(gp) for gp in gaps],
        "box": [min(xs), min(ys), max(xs) + 1, max(ys) + 1],  # squares, right/bottom exclusive
    }


def setup_view(g: Game) -> dict[str, Any]:
    n = len(g.players)
    return {
        "turn": g.setup_turn + 1,
        "turns": 5 * n,
        "drawn": ({"id": g.drawn, "type": FIELDS[g.drawn].type, "name": FIELD_TYPES[FIELDS[g.drawn].type].name,
                   "colour": FIELDS[g.drawn].colour} if g.drawn else None),
        "bag": len(g.bag),
    }


def mat_view(g: Game) -> list[dict[str, Any]]:
    """Rows from the 4 row up. Face-down tiles are shown as backs only (no id, no cost)."""
    open_row = next((v for v in ROW_VALUES if g.rows[str(v)]), None)
    rows = []
    for value in ROW_VALUES:
        up = value in g.face_up
        tiles = [{"id": t, "cost": tile_cost(g, t), "discount": g.discounts.get(t, 0),
                  "surcharge": list(g.surcharges.get(t, []))} if up else {"id": None}
                 for t in g.rows[str(value)]]
        rows.append({"value": value, "face_up": up, "buyable": value == open_row and up,
                     "tiles": tiles})
    return rows


def work_order_view(g: Game) -> dict[str, Any]:
    placing = g.phase == ORDER and not g.pending
    return {
        "spaces": [{"number": n, "marker": g.markers.get(str(n))} for n in NUMBERS],
        "next_marker": g.marker if g.phase in (ORDER, WORKERS) else None,
        "placer": marker_placer(g) if placing else None,
        "free": free_numbers(g) if placing else [],
        "activation": ({"number": g.activation["number"], "seat": g.activation["queue"][0]}
                       if g.phase == WORKERS and g.activation else None),
        "decree": g.decree,
    }


def effects_view(g: Game) -> list[str]:
    """Laws in force this phase, in words (the players they favour are public: the card
    was read out when played)."""
    words = {"levy": "Labour Levy", "right_of_way": "Right of Way", "granary": "Granary Rights",
             "honest": "Honest Trader"}
    out = []
    for name, values in g.effects.items():
        for v in values:
            if name in words:
                out.append(f"{words[name]} (player {v + 1})")
            elif name == "bumper":
                out.append(f"Bumper Harvest on {CUBES[v].name}")
            elif name == "blight":
                out.append(f"Blight on {CUBES[v].name}")
    if g.decree is not None and g.phase in (ORDER, WORKERS):
        out.append(f"Royal Decree (player {g.decree + 1})")
    return out


def player_public(g: Game, p: Player, acting: bool) -> dict[str, Any]:
    a = g.auction
    return {
        "seat": p.seat,
        "colour": PLAYER_COLOURS[p.seat],
        "cubes": cube_count(p),
        "tiles": len(p.tiles),
        "laws": len(p.laws),
        "fences": p.fences,
        "houses": sum(1 for c in g.cottages.values() if c["owner"] == p.seat and c["house"]),
        "start": g.start == p.seat,
        "to_act": acting,
        "stopped": g.phase == ACTIONS and p.seat in g.stopped,
        "out": bool(a and p.seat in a["out"]),
    }


def auction_view(g: Game) -> dict[str, Any] | None:
    a = g.auction
    if a is None:
        return None
    bidding = a["step"] == "bid"
    return {
        "holder": a["holder"],
        "previous": a["previous"],
        "step": a["step"],
        "turn": a["turn"] if bidding else None,
        "out": sorted(a["out"]),
        "leader": a["leader"],
        "bid": a["bid"] if a["leader"] is not None else None,
        "worth": a["worth"] if a["leader"] is not None else None,
        "bonus": {int(s): n for s, n in a["bonus"].items()},
        "winner": a["winner"],
        "payer": a["payer"],
        "payee": a["payee"],
        "amount": a["amount"] if a["step"] in ("pay", "start") else None,
    }


def private_view(g: Game, p: Player) -> dict[str, Any]:
    a = g.auction
    return {
        "seat": p.seat,
        "colour": PLAYER_COLOURS[p.seat],
        "cubes": {c: p.cubes[c] for c in COLOURS},
        "basic": basic_count(p),
        "tiles": [{"id": t, "value": TILES[t].value, "cost": list(TILES[t].cost)} for t in p.tiles],
        "laws": [law_json(c) for c in p.laws],
        "score": score_lines(p),
        "received": dict(p.received) if p.received else None,
        "pending": pending_view(g, p),
        "prompt": prompt(g, p),
    }


def pending_view(g: Game, p: Player) -> dict[str, Any] | None:
    pend = g.pending
    if not pend or pend["seat"] != p.seat:
        return None
    out = {"kind": pend["kind"]}
    if pend["kind"] == "pay":
        out.update(need=pend["need"], paid=dict(pend["paid"]), purpose=pend["purpose"]["for"])
    if pend["kind"] == "new_law":
        out["card"] = law_json(pend["card"])
    if pend.get("law"):
        out["law"] = law_json(pend["law"])
    if pend["kind"] == "drop":
        out.update(tile=pend["tile"], dropped=list(pend["dropped"]))
    if pend["kind"] == "get":
        out.update(got=list(pend["got"]), count=pend["count"])
    return out


PENDING_PROMPTS = {
    "number": "Which cottage goes there? Choose its number.",
    "drop": "Guild Discount: choose which cube to leave out of the price.",
    "slot": "Click the place for the fence: the edge between a cottage and a field.",
    "unfence": "Click the fence to remove.",
    "reposition": "Your cottage is fully fenced: click an empty place for it (glowing yellow).",
    "get": "Choose the cube to take from the store.",
    "new_law": "You drew a law card: play it now, or keep it for later.",
    "type": "Choose the field type.",
    "mason": "Click the cottage that becomes a house.",
}
PURPOSES = {"craft": "the craft cube", "trade": "the trade", "law": "the law card",
            "auction": "the start player marker"}


def prompt(g: Game, p: Player) -> str | None:
    """What the seat is asked to do now, in words; None when it is not its turn."""
    if p.seat not in to_act(g) or g.phase == OVER:
        return None
    ask = _prompt(g, p)
    if not g.pending and law_play_options(g, p):
        ask += " You may also play a law card from your screen."
    return ask


def _prompt(g: Game, p: Player) -> str:
    pend = g.pending
    if pend:
        if pend["kind"] == "pay":
            chosen = sum(pend["paid"].values())
            return (f"Pay for {PURPOSES[pend['purpose']['for']]}: click your cubes "
                    f"({chosen} of {pend['need']} chosen).")
        if pend["kind"] == "mark":
            return ("Choose the colour to add to the tile's cost." if "tile" in pend
                    else "Click a face-up building tile.")
        if pend["kind"] == "survey":
            return "Click its new place (glowing yellow)." if "cottage" in pend else "Click the cottage or house to move."
        return PENDING_PROMPTS[pend["kind"]]
    if g.phase == SETUP:
        if g.drawn:
            return f"You drew a {FIELD_TYPES[FIELDS[g.drawn].type].name}: click a glowing square to lay it."
        return "Place one of your cottages: click a glowing place next to a field."
    if g.phase == ORDER:
        return f"Place work order marker {g.marker}: choose the cottage number that works next."
    if g.phase == WORKERS:
        return f"Send a worker from your number {g.activation['number']}: click a free field next to it."
    if g.phase == COLLECT:
        return "Collect your cubes (you may play a Phase 2 law card first)."
    if g.phase == ACTIONS:
        return "Your action: click a building tile, a cottage, a craft cube or a new law, or choose a button below."
    if g.phase == AUCTION:
        step = g.auction["step"]
        if step == "bid":
            if g.auction["leader"] is None:
                return "Bid for the start player marker, or pass (a pass is for the whole auction)."
            return (f"Raise the bid of {g.auction['worth']}, or pass "
                    "(a pass is for the whole auction).")
        if step == "match":
            return "Match the last bid to keep the marker, or let it go and be paid."
        return "You won the marker: choose who starts the next round."
    return ""


__all__ = ["view", "PLAYER_COLOURS"]

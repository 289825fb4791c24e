"""What one seat (or a spectator) may see of a Key Flow game.

``view(g, seat)`` returns ``{"public": ..., "private": ... | None, "log": [...], "log_total": n}``.

``public`` (the same for everyone, never built from a hand, a choice being made, a winter K
card, the cards under a store card or the order of a face-down pile)::

    phase      "draft" | "resolve" | "tokens" | "winter-k" | "over"; step: the phase in words
    season     "spring".."winter"; round: 1-4 (the season's number); turn: turns done this season
    passing    "left" | "right" (this season's direction)
    to_act     [seat]; waiting: how many seats still owe a choice
    chosen     [seat]: seats that have chosen this turn (never what)
    players    [{seat, home, store, tokens, skills {skill: n}, doubles {skill: n}, hand_size,
                winter_k (count), under_store (count), done, jobs [{do, left|n|pay}],
                village [card in village]}]; a job's "onto" is the card its resources land on
               a card in a village: {card (card json), row, col, x (col, +0.5 for the river),
                 live (index of the live panel), tiles ["house"|"points"], res {r: n},
                 stored {r: n} (autumn stores), keyples [{card, by, tokens, new}], acts, new}
    last_reveal [{seat, use: "build"|"keyple"|"discard", card?, owner?, place?}]
    reveals    reveals so far (cards marked "new" came with the newest)
    supply     {tokens, upgrade_tiles, skill_pile, doubles {skill: n}}
    decks      {season: cards left to deal}
    final      once over: [{seat, score, breakdown, tiebreak, allocation [{card, name, variant,
                sets, points, items {kind: n}}]}]; result: the Result as JSON, else None

``private`` (the seat's own)::

    seat, hand [card json], winter_k [card json], choosing card json | None,
    chosen {card, use, ...} | None, under_store [card json], prompt (words for the action bar)

Option targets (``Option.target``):

    "hand:<card>"                  a card in your hand (or a winter K card)
    "spot:<seat>:<row>.<col>"      an empty place in a village where the picked card may go
    "card:<seat>:<row>.<col>"      a card in a village (keyple target, upgrade, flip,
                                   token activation)
Discarding, transport moves, resources and skill tiles to choose, stop/skip/done have no
target: they are buttons in the action bar.
Option kinds: pick, build, keyple, discard, cancel, take, pay, skip, move, upgrade, flip,
stop, token, done.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import seat_view

from .content import BASIC, CARDS, PASS_LEFT, RIVER, SEASONS, SKILLS, Card, describe_action
from .rules import (DRAFT, OVER, RESOLVE, TOKENS, WINTER_K, Entry, Game, Player, cost_text, live_panel, result,
                    season_name, to_act)

Seat = int
STEPS = {DRAFT: "Everyone chooses a card in secret", RESOLVE: "Finishing the revealed actions",
         TOKENS: "Keyple tokens", WINTER_K: "Everyone chooses a winter K card in secret", OVER: "Game over"}


def view(g: Game, seat: Seat | None) -> dict[str, Any]:
    return seat_view(g.players, seat, lambda: public_view(g), lambda own: private_view(g, own), g.log)


_CARD_JSON: dict[str, dict[str, Any]] = {}


def card_json(cid: str) -> dict[str, Any]:
    """A card as the page shows it. Built once per card and shared by every view (a view
    is read, encoded and sent, never changed in place): building these was most of the
    cost of a view."""
    out = _CARD_JSON.get(cid)
    if out is None:
        out = _CARD_JSON[cid] = _card_json(cid)
    return out


def _card_json(cid: str) -> dict[str, Any]:
    c: Card = CARDS[cid]
    out: dict[str, Any] = {"id": c.id, "name": c.name, "kind": c.kind, "season": c.season, "marking": c.marking,
                           "text": c.text, "source": c.source}
    if c.kind == "keyple":
        out.update(colour=c.colour, keyples=c.keyples, arrows=c.arrows, animal=c.animal)
        return out
    out.update(row=c.row, animals=list(c.animals), power=c.power,
               panels=[{"points": p.points, "action": describe_action(p.action)} for p in c.panels],
               costs=[cost_text(x) for x in c.costs], reward=describe_action(c.reward),
               accepts=list(c.accepts), store_points=c.store_points, boat=c.boat,
               scoring=[{"label": v.label, "points": v.points} for v in c.scoring])
    return out


def entry_json(g: Game, e: Entry) -> dict[str, Any]:
    return {"card": card_json(e["card"]), "row": e["row"], "col": e["col"],
            "x": e["col"] + (0.5 if e["row"] == RIVER else 0), "live": live_panel(e), "tiles": list(e["tiles"]),
            "res": dict(e["res"]), "stored": dict(e["stored"]),
            "keyples": [{"card": card_json(k["card"]), "by": k["by"], "tokens": k["tokens"],
                         "new": k["at"] == g.reveals} for k in e["keyples"]],
            "acts": len(e["keyples"]) + e["token_acts"], "new": e["placed"] == g.reveals and g.reveals > 0}


def job_json(job: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in job.items() if k in ("do", "left", "n", "pay", "gains", "onto")}


def player_public(g: Game, p: Player) -> dict[str, Any]:
    return {"seat": p.seat, "home": p.home, "store": p.store, "tokens": p.tokens,
            "skills": {s: p.skills[s] + p.doubles[s] for s in SKILLS}, "doubles": dict(p.doubles),
            "hand_size": len(p.hand), "winter_k": len(p.winter_k), "under_store": len(p.under_store),
            "done": p.done, "jobs": [job_json(j) for j in p.jobs],
            "village": [entry_json(g, e) for e in p.village]}


def public_view(g: Game) -> dict[str, Any]:
    over = result(g)
    acting = sorted(to_act(g))
    return {
        "phase": g.phase,
        "step": STEPS[g.phase],
        "season": season_name(g),
        "round": g.season + 1,
        "turn": g.turn,
        "passing": "left" if PASS_LEFT[season_name(g)] else "right",
        "to_act": acting,
        "waiting": len(acting),
        "chosen": [p.seat for p in g.players if p.chosen is not None] if g.phase in (DRAFT, WINTER_K) else [],
        "players": [player_public(g, p) for p in g.players],
        "last_reveal": [dict(x, card=card_json(x["card"])) if "card" in x else dict(x) for x in g.last_reveal],
        "reveals": g.reveals,
        "supply": {"tokens": g.token_supply, "upgrade_tiles": g.tile_supply, "skill_pile": len(g.skill_pile),
                   "doubles": dict(g.doubles)},
        "decks": {s: len(g.decks.get(s, [])) for s in SEASONS},
        "resources": list(BASIC) + ["gold"],
        "final": g.final,
        "result": over.as_json() if over else None,
    }


def private_view(g: Game, p: Player) -> dict[str, Any]:
    chosen = None
    if p.chosen:
        chosen = dict(p.chosen, card=card_json(p.chosen["card"]))
    return {"seat": p.seat, "hand": [card_json(c) for c in p.hand], "winter_k": [card_json(c) for c in p.winter_k],
            "choosing": card_json(p.choosing) if p.choosing else None, "chosen": chosen,
            "under_store": [card_json(c) for c in p.under_store], "prompt": prompt(g, p)}


JOB_PROMPTS = {
    "any": "Choose which resource to take.",
    "convert": "Pay a skill tile for this building's conversion, or pay nothing.",
}


def prompt(g: Game, p: Player) -> str | None:
    """What the seat is asked now, in words; None when it owes nothing."""
    if p.seat not in to_act(g):
        return None
    if g.phase in (DRAFT, WINTER_K):
        if p.choosing:
            c = CARDS[p.choosing]
            if c.kind == "keyple":
                return (f"{c.name}: click a highlighted building to put it on"
                        + (", or discard it for a keyple token." if g.phase == DRAFT else "."))
            return f"{c.name}: click a highlighted place in your village" + \
                (", or discard it for a keyple token." if g.phase == DRAFT else ".")
        if g.phase == WINTER_K:
            return "Choose one of your winter K cards to play into your village (everyone chooses in secret)."
        return "Choose a card from your hand: everyone chooses at once, in secret."
    if p.jobs:
        job = p.jobs[0]
        if job["do"] == "transport":
            return f"Transport: {job['left']} cart point(s) left — click a card to move a resource from, or stop."
        if job["do"] == "upgrade":
            return f"Upgrade: {job['left']} left — click a building to upgrade, a tile to flip, or stop."
        return JOB_PROMPTS[job["do"]]
    if g.phase == TOKENS:
        return "Use keyple tokens on your own buildings, or say you are done."
    return None


__all__ = ["view", "OVER"]

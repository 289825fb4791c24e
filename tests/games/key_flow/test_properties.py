"""Whole games: random and bot games finish for 2–6 players, replay equals the snapshot,
and no view shows another seat's hidden cards."""

from __future__ import annotations

import json

import pytest

import app.games.key_flow as kf
from app.games.playout import bot_playout, random_playout

from ..twins import leaves


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_finish(players):
    p = random_playout("key-flow", players, seed=40 + players)
    r = kf.result(p.state)
    assert r is not None and r.winners and len(r.scores) == players
    assert p.random_steps == len(p.actions)  # random play alone reached the end


@pytest.mark.parametrize("players", [2, 6])
def test_bot_games_finish_and_replay_to_the_same_snapshot(players):
    p = bot_playout("key-flow", players, seed=players)
    state = kf.setup(players, {}, players)
    for seat, option in p.actions:
        state = kf.apply(state, seat, option)
    assert kf.dump(state) == kf.dump(p.state)
    assert kf.dump(kf.load(json.loads(json.dumps(kf.dump(state))))) == kf.dump(state)
    assert kf.result(state).as_json() == kf.result(p.state).as_json()
    final = kf.view(state, None)["public"]["final"]
    for row, score in zip(final, kf.result(state).scores):
        assert row["score"] == score.score
        assert sum(line["points"] for line in row["allocation"]) == row["breakdown"]["winter cards"] + \
            row["breakdown"]["gold"]


def secrets_of(g, seat):
    p = g.players[seat]
    out = set(p.hand) | set(p.winter_k) | set(p.under_store) | set(g.box) | set(g.decks.get("winter", []))
    for deck in g.decks.values():
        out |= set(deck)
    if p.chosen:
        out.add(p.chosen["card"])
    if p.choosing:
        out.add(p.choosing)
    return out


def test_no_view_shows_another_seats_hidden_cards():
    p = bot_playout("key-flow", 3, seed=9)
    state = kf.setup(3, {}, 9)
    checked = 0
    for step, (seat, option) in enumerate(p.actions):
        if step % 5 == 0 and state.phase != "over":
            for owner in range(3):
                hidden = secrets_of(state, owner)
                for viewer in [None] + [s for s in range(3) if s != owner]:
                    seen = set(leaves(kf.view(state, viewer)))
                    seen |= {t.split(":", 1)[1] for t in seen if t.startswith("hand:")}
                    leaked = hidden & seen
                    assert not leaked, f"step {step}: viewer {viewer} sees {leaked} of seat {owner}"
                    checked += 1
        state = kf.apply(state, seat, option)
    assert checked > 100


def test_waiting_count_says_how_many_still_choose_not_what():
    g = kf.setup(4, {}, 3)
    g = kf.apply(g, 2, f"pick:{g.players[2].hand[0]}")
    g = kf.apply(g, 2, "discard")
    pub = kf.view(g, 0)["public"]
    assert pub["waiting"] == 3 and pub["chosen"] == [2] and pub["to_act"] == [0, 1, 3]
    assert kf.view(g, 2)["private"]["chosen"]["use"] == "discard"
    assert kf.view(g, 0)["private"]["chosen"] is None


def test_clone_copies_every_field_and_shares_nothing_mutable():
    from dataclasses import fields

    from app.games.key_flow.rules import Game, Player, clone
    p = bot_playout("key-flow", 3, seed=2)
    g = p.state
    copy = clone(g)
    assert kf.dump(copy) == kf.dump(g)
    assert {f.name for f in fields(Game)} == set(vars(copy)) and {f.name for f in fields(Player)} == set(
        vars(copy.players[0]))
    copy.players[0].village[0]["res"]["gold"] = 99
    copy.players[0].village[0]["tiles"].append("house")
    copy.decks.setdefault("spring", []).append("x")
    copy.log.append("x")
    assert kf.dump(copy) != kf.dump(g) and g.players[0].village[0]["res"].get("gold") != 99
    assert "x" not in g.log.recent

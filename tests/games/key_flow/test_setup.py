"""Setup and deals by player count, passing directions (seed, Setup and Phases 1–2)."""

from __future__ import annotations

from collections import Counter

import pytest

import app.games.key_flow as kf
from app.games.key_flow.content import CARDS, HOMES
from app.games.key_flow.rules import DRAFT, WINTER_K, numbered_for
from app.games.protocol import IllegalAction

SPRING = {2: 8, 3: 6, 4: 6, 5: 6, 6: 6}
DEALS = {"summer": {2: 9, 3: 7, 4: 7, 5: 7, 6: 7}, "autumn": {2: 10, 3: 8, 4: 8, 5: 8, 6: 8},
         "winter": {2: 12, 3: 9, 4: 9, 5: 9, 6: 9}}
K_OUT = {2: 6, 3: 6, 4: 4, 5: 2, 6: 0}


@pytest.mark.parametrize("players", range(2, 7))
def test_setup_removes_k_cards_and_numbered_cards_by_player_count(players):
    g = kf.setup(players, {}, 11)
    for season in ("summer", "autumn"):
        deck = g.decks[season]
        markings = Counter(CARDS[c].marking for c in deck)
        assert markings["K"] == 12 - K_OUT[players]
        top = max(players, 3)
        assert all(m == "K" or int(m[0]) <= top for m in markings)
        assert sum(n for m, n in markings.items() if m != "K") == len(numbered_for(players, season))
        removed = [c for c in g.box if CARDS[c].season == season]
        assert len(removed) == K_OUT[players] and all(CARDS[c].marking == "K" for c in removed)
        if players >= 3:
            assert len(deck) == players * DEALS[season][players]
    assert sorted(p.home for p in g.players) == sorted(set(p.home for p in g.players))
    assert all(p.home in HOMES for p in g.players) and len({p.store for p in g.players}) == players


@pytest.mark.parametrize("players", range(2, 7))
def test_hands_of_spring_cards_and_winter_k_cards(players):
    g = kf.setup(players, {}, 3)
    for p in g.players:
        assert len(p.hand) == SPRING[players] and all(CARDS[c].season == "spring" for c in p.hand)
        assert len(p.winter_k) == (7 if players == 2 else 5)
        assert all(CARDS[c].season == "winter" and CARDS[c].marking == "K" for c in p.winter_k)
        assert [e["card"] for e in p.village] == [p.home]
    # players may look at their winter K cards at any time: they are in their own view
    v = kf.view(g, 0)
    assert [c["id"] for c in v["private"]["winter_k"]] == g.players[0].winter_k
    assert v["public"]["players"][0]["winter_k"] == len(g.players[0].winter_k)


def test_two_to_six_players_only():
    for bad in (1, 7):
        with pytest.raises(IllegalAction):
            kf.setup(bad, {}, 1)


def finish_draft(g, seat_order=None):
    """Everyone discards whatever is first in hand until the season's hands are empty."""
    season = g.season
    while g.season == season and g.phase == DRAFT:
        for p in g.players:
            if p.chosen is None:
                g = kf.apply(g, p.seat, f"pick:{p.hand[0]}")
                g = kf.apply(g, p.seat, "discard")
    while g.season == season and g.phase not in (DRAFT, WINTER_K):
        seat = min(kf.to_act(g))
        g = kf.apply(g, seat, "done" if "done" in [o.id for o in kf.options(g, seat)] else
                     kf.options(g, seat)[-1].id)
    return g


@pytest.mark.parametrize("players", range(2, 7))
def test_each_season_deals_its_hand_size(players):
    g = kf.setup(players, {}, 5)
    g = finish_draft(g)
    assert g.season == 1 and all(len(p.hand) == DEALS["summer"][players] for p in g.players)
    g = finish_draft(g)
    assert g.season == 2 and all(len(p.hand) == DEALS["autumn"][players] for p in g.players)
    g = finish_draft(g)
    assert g.phase == WINTER_K
    for p in g.players:
        g = kf.apply(g, p.seat, f"pick:{p.winter_k[0]}")
        g = kf.apply(g, p.seat, next(o.id for o in kf.options(g, p.seat) if o.kind == "build"))
    assert g.season == 3 and all(len(p.hand) == DEALS["winter"][players] for p in g.players)
    # the winter deck held the numbered winter cards and the K cards nobody chose
    dealt = [c for p in g.players for c in p.hand]
    ks = [c for c in dealt if CARDS[c].marking == "K"] + [c for c in g.box if CARDS[c].season == "winter"
                                                         and CARDS[c].marking == "K"]
    assert len([c for c in dealt if CARDS[c].marking == "K"]) <= players * (len(kf.setup(players, {}, 5).players[0].winter_k) - 1)
    assert ks


@pytest.mark.parametrize("season_index, step", [(0, 1), (1, -1), (2, 1), (3, -1)])
def test_hands_pass_left_in_spring_and_autumn_right_in_summer_and_winter(season_index, step):
    from app.games.key_flow.rules import pass_hands
    g = kf.setup(4, {}, 2)
    g.season = season_index
    before = [list(p.hand) for p in g.players]
    pass_hands(g)
    for p in g.players:
        assert p.hand == sorted(before[(p.seat - step) % 4], key=lambda c: (CARDS[c].name, c))


def test_after_choosing_the_rest_of_the_hand_moves_on():
    g = kf.setup(3, {}, 4)
    left_over = {}
    for p in g.players:
        left_over[p.seat] = [c for c in p.hand if c != p.hand[0]]
        g = kf.apply(g, p.seat, f"pick:{p.hand[0]}")
        g = kf.apply(g, p.seat, "discard")
    # spring passes left: seat s now holds what seat s-1 kept
    for p in g.players:
        assert sorted(p.hand) == sorted(left_over[(p.seat - 1) % 3])

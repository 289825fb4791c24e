"""Keyper rules, one test per rule of the seed (and the readings in docs/titles/keyper.md)."""

from __future__ import annotations

import pytest

import app.games.keyper as kp
from app.games.keyper.content import BOATS, COUNTRY, FIELD_COLOUR, SUPPLY
from app.games.keyper.rules import (FOLD, OVER, PLAY, board_fields, building_points, matched, may_join, payment, result,
                                    scores, tiebreak)
from app.games.protocol import IllegalAction

from .support import all_out, build_on, fresh, give, ids, play

# Board 1, spring face: (0,0) clay/orange, (0,1) wheat/green, (0,2) tile, (1,1) sheep/green,
# (2,0) emerald/black, (2,1) logs/brown, (2,2) build, (2,3) rock/grey, (3,0) chicken.


def test_setup_follows_the_seed():
    g = kp.setup(3, {}, 5)
    assert len(g.boards) == 3 and all(b["fold"] == "spring-0-0" for b in g.boards)
    assert len([t for t in g.display if t]) == 8 and len(g.bag) == 13
    assert all(COUNTRY[t].season == "spring" for t in g.display + g.bag)
    assert len(g.boats) == 4 and len(g.aside) == 2
    for p in g.players:
        assert sorted(p.hand) == sorted(["blue", "orange", "green", "brown", "black", "grey", "white", "white"])
        assert {k: n for k, n in p.stock.items() if n} == {"brick": 1, "wood": 1, "stone": 1}
        assert set(p.fairs) == {"spring", "summer", "autumn"} and p.keyper is None
    assert g.supply["brick"] == SUPPLY["brick"] - 3
    with pytest.raises(IllegalAction):
        kp.setup(5, {}, 1)


def test_matching_and_white_keyples():
    assert matched("orange", "orange") and matched("white", "orange")
    assert not matched("grey", "orange") and not matched("white", None) and not matched("orange", None)
    assert may_join("orange", "orange", "orange") and may_join("orange", "orange", "white")
    assert not may_join("orange", "orange", "grey")
    assert may_join("white", "green", "green") and may_join("white", "green", "white")
    assert not may_join("white", None, "green") and may_join("white", None, "white")


def test_an_empty_field_alone_gives_one_or_two_when_matched():
    g = fresh()
    g = play(g, 0, "keyple:orange", "space:1:0,0", )
    assert kp.to_act(g) == {1} and g.queue[0]["do"] == "invite"
    g = play(g, 1, "decline")
    assert g.players[0].stock["clay"] == 2  # orange on an orange field
    g = play(g, 1, "keyple:grey", "space:1:3,3")  # grey on the orange clay field: 1
    g = play(g, 0, "decline")
    assert g.players[1].stock["clay"] == 1


def test_white_keyple_gets_the_colour_bonus_but_not_on_action_fields():
    g = fresh()
    g = play(g, 0, "keyple:white", "space:1:2,1")
    g = play(g, 1, "decline")
    assert g.players[0].stock["logs"] == 2
    g = play(g, 1, "keyple:white", "space:1:0,2")
    g = play(g, 0, "decline")  # the tile field: no colour, 1 action
    assert g.queue[0]["kind"] == "tile" and g.queue[0]["of"] == 1


def test_invitations_go_clockwise_from_the_left_and_both_gain_when_joined():
    g = fresh(players=4, turn=1)
    g.players[2].hand = ["grey"]  # cannot join an orange keyple: skipped without being asked
    g = play(g, 1, "keyple:orange", "space:1:0,0")
    assert kp.to_act(g) == {3}
    assert ids(g, 3) == ["join:orange", "join:white", "decline"]
    g = play(g, 3, "decline")
    assert kp.to_act(g) == {0}
    g = play(g, 0, "join:white")
    assert g.players[1].stock["clay"] == 3 and g.players[0].stock["clay"] == 3  # both matched: 3
    assert [k["colour"] for k in g.boards[0]["spaces"]["0,0"]] == ["orange", "white"]
    assert kp.to_act(g) == {2}  # the turn passes on to seat 1's left


def test_joiner_without_the_colour_gains_two():
    g = fresh()
    g = play(g, 0, "keyple:white", "space:1:0,0")  # white first on an orange field
    assert "join:orange" in ids(g, 1) and "join:grey" not in ids(g, 1)
    g.players[1].hand = ["orange"]
    g = play(g, 1, "join:orange")
    assert g.players[0].stock["clay"] == 3 and g.players[1].stock["clay"] == 3


def test_uncoloured_field_with_a_white_keyple_is_joined_only_by_white():
    g = fresh()
    g = play(g, 0, "keyple:white", "space:1:0,2")
    assert ids(g, 1) == ["join:white", "decline"]


def test_entering_a_field_with_one_keyple_lays_it_down_for_two_or_three():
    g = fresh()
    g = play(g, 0, "keyple:grey", "space:1:2,3")
    g = play(g, 1, "decline")
    assert g.players[0].stock["rock"] == 2
    g = play(g, 1, "keyple:grey")
    assert "space:1:2,3" in ids(g, 1)
    g = play(g, 1, "space:1:2,3")
    space = g.boards[0]["spaces"]["2,3"]
    assert [k["down"] for k in space] == [True, False]
    assert g.players[1].stock["rock"] == 3 and kp.to_act(g) == {0}  # no invitation
    g = play(g, 0, "keyple:orange")
    assert "space:1:2,3" not in ids(g, 0)  # full, and orange may not follow grey


def test_supply_running_out_in_a_joint_action_active_first_then_alternating():
    g = fresh()
    g.supply["clay"] = 3
    g = play(g, 0, "keyple:orange", "space:1:0,0", )
    g = play(g, 1, "join:orange")
    assert g.players[0].stock["clay"] == 2 and g.players[1].stock["clay"] == 1 and g.supply["clay"] == 0
    assert "the supply ran out: 2 short" in " ".join(g.log)


def test_joint_actions_alternate_between_active_player_and_joiner():
    g = fresh()
    give(g, 0, logs=2)  # something to build (the henhouse costs a log)
    give(g, 1, logs=2)
    g = play(g, 0, "keyple:white", "space:1:2,2")  # build field
    g = play(g, 1, "join:white")
    assert [j["seat"] for j in g.queue if j["do"] == "act"] == [0, 1, 0, 1]


def test_laying_down_only_once_everything_is_out():
    g = fresh()
    g = play(g, 0, "keyple:grey", "space:1:2,3")
    g = play(g, 1, "decline")
    g = play(g, 1, "keyple:black", "space:2:" + next(k for k, v in board_fields(g.boards[1]).items() if v == "ruby"))
    g = play(g, 0, "decline")
    assert not any(o.startswith("lay:") for o in ids(g, 0))
    all_out(g, 0, 2)
    lays = [o for o in ids(g, 0) if o.startswith("lay:")]
    ruby = next(k for k, v in board_fields(g.boards[1]).items() if v == "ruby")
    assert lays == [f"lay:space:2:{ruby}"]  # only the claimed board 2 has a standing keyple
    g = play(g, 0, lays[0])
    assert g.players[0].stock["ruby"] == 2  # a lone keyple: 1, +1 for black on the black gem field


def test_lay_down_single_values():
    g = fresh()
    g = play(g, 0, "keyple:grey", "space:1:2,3")
    g = play(g, 1, "decline")
    all_out(g, 0, 1)
    g.turn = 0
    before = g.players[0].stock["rock"]
    g = play(g, 0, "lay:space:1:2,3")
    assert g.players[0].stock["rock"] - before == 2  # alone: 1, matched: +1


def test_lay_down_on_any_board_when_none_stand_on_own_or_claimed_board():
    g = fresh()
    g = play(g, 0, "keyple:orange", "space:2:" + next(k for k, v in board_fields(g.boards[1]).items() if v == "clay"))
    g = play(g, 1, "decline")
    all_out(g, 0, 1)  # claims board 1, which is empty; its own buildings hold nobody
    g.turn = 0
    assert any(o.startswith("lay:space:2:") for o in ids(g, 0))


def test_lay_down_a_pair_gives_the_active_player_two_or_three():
    g = fresh()
    g = play(g, 0, "keyple:orange", "space:1:0,0", )
    g = play(g, 1, "join:orange")
    clay = g.players[1].stock["clay"]
    all_out(g, 1, 1)
    g.turn = 1
    g = play(g, 1, "pair:space:1:0,0")
    assert g.players[1].stock["clay"] - clay == 3
    assert all(k["down"] for k in g.boards[0]["spaces"]["0,0"])


def test_boats_light_blue_two_actions_get_and_sell_never_the_same_good():
    g = fresh()
    boat = g.boats[0]
    goods = BOATS[boat].faces["spring"]
    g = play(g, 0, "keyple:blue", "space:1:river", f"boat:{boat}")
    g = play(g, 1, "decline")
    assert g.boards[0]["boat"] == boat and boat not in g.boats
    assert g.queue[0]["kind"] == "boat" and g.queue[0]["of"] == 2
    first = goods[0]
    g = play(g, 0, f"get:{first}")
    assert f"sell:{first}" not in ids(g, 0)
    sellable = [o for o in ids(g, 0) if o.startswith("sell:")]
    if not sellable:  # the boat shows none of the seat's goods: give it one
        give(g, 0, **{goods[1]: 1})
        sellable = [o for o in ids(g, 0) if o.startswith("sell:")]
    g = play(g, 0, sellable[0])
    assert g.players[0].ship == 2


def test_boat_with_a_joiner_gives_three_to_a_matching_keyple():
    g = fresh()
    boat = g.boats[0]
    g = play(g, 0, "keyple:blue", "space:1:river", f"boat:{boat}")
    g = play(g, 1, "join:white")
    assert [j["seat"] for j in g.queue if j["do"] == "act"] == [0, 1, 0, 1, 0, 1]


def test_building_and_overbuilding_once_with_keyples_moving_up():
    g = fresh()
    give(g, 0, logs=3, clay=3, rock=3)
    g = play(g, 0, "keyple:white", "space:1:2,2")  # the build field: uncoloured, 1 action
    g = play(g, 1, "decline")
    g = play(g, 0, "build:home:h8", "plot:village1")
    assert g.players[0].plots["village1"]["tiles"] == ["h8"]
    p = g.players[0]
    p.plots["village1"]["keyples"] = [{"colour": "brown", "seat": 0, "down": False}]
    g.turn = 0
    g = play(g, 0, "keyple:white", "space:2:" + next(k for k, v in board_fields(g.boards[1]).items() if v == "build"))
    g = play(g, 1, "decline")
    opts = ids(g, 0)
    assert "build:home:h7" in opts
    g = play(g, 0, "build:home:h7")
    assert "plot:village1" in ids(g, 0)
    g = play(g, 0, "plot:village1")
    plot = g.players[0].plots["village1"]
    assert plot["tiles"] == ["h8", "h7"] and plot["keyples"][0]["colour"] == "brown"
    # once overbuilt, a plot takes no third tile
    g.players[0].hand = ["white"]
    assert "village1" not in [pid for pid in __import__("app.games.keyper.rules", fromlist=["free_plots"])
                              .free_plots(g.players[0], "village")]


def test_overbuilt_buildings_do_not_score():
    g = fresh()
    build_on(g, 0, "village1", "c23")  # Inn: 3 points
    assert building_points(g.players[0]) == (3, 0)
    build_on(g, 0, "village1", "c21")  # Carpenter over the Inn
    give(g, 0, wood=1)
    assert building_points(g.players[0]) == (1, 2)  # the Inn's 3 are gone: the Carpenter's 1 and 2 wood x 1


def test_building_from_the_display_and_the_discount():
    g = fresh()
    slot, tile = next((i, t) for i, t in enumerate(g.display) if t)
    cost = COUNTRY[tile].front.cost
    g.players[0].stock = {k: 0 for k in g.players[0].stock}
    fake = {"do": "act", "kind": "discount", "seat": 0, "left": 1}
    g.queue = [fake]
    from app.games.keyper.rules import discounted
    give(g, 0, **{k if k not in ("raw", "finished", "gem") else {"raw": "clay", "finished": "brick", "gem": "ruby"}[k]: n
                  for k, n in discounted(cost).items()})
    if COUNTRY[tile].area == "farm" or True:
        assert f"build:display:{slot}" in ids(g, 0)
    g = play(g, 0, f"build:display:{slot}", f"plot:{COUNTRY[tile].area}1")
    assert g.players[0].plots[f"{COUNTRY[tile].area}1"]["tiles"] == [tile]
    assert g.display[slot] is None and slot in g.refill


def test_upgrade_flips_a_building():
    g = fresh()
    build_on(g, 0, "village1", "h7")
    g.queue = [{"do": "act", "kind": "upgrade", "seat": 0, "left": 1}]
    g = play(g, 0, "upgrade:village1")
    assert g.players[0].plots["village1"]["up"] and g.players[0].stock["brick"] == 0


def test_working_a_building_one_action_two_when_laying_down_a_keyple_there():
    g = fresh()
    build_on(g, 0, "village1", "h7")  # Brickworks: clay -> brick
    give(g, 0, clay=3)
    g = play(g, 0, "keyple:orange", "plot:village1", "use:0:-")
    assert g.players[0].stock["brick"] == 2 and g.players[0].stock["clay"] == 2
    g = play(g, 1, "keyple:white", "space:1:0,2")
    g = play(g, 0, "decline")
    if g.queue:
        g = play(g, 1, "done")
    g = play(g, 0, "keyple:white")
    assert "plot:village1" in ids(g, 0)  # a white keyple may follow any
    g = play(g, 0, "plot:village1", "use:0:-", "use:0:-")
    assert g.players[0].stock["brick"] == 4


def test_housing_animals_keeps_as_many_as_fit_and_returns_the_rest():
    from app.games.keyper.rules import house_animals
    g = fresh()
    build_on(g, 0, "farm1", "h1")  # chicken, goat: 2
    build_on(g, 0, "farm2", "h3")  # sheep, goat: 2
    give(g, 0, chicken=1, goat=2, sheep=2, cow=1)
    house_animals(g, g.players[0])
    p = g.players[0]
    assert p.stock["cow"] == 0 and g.supply["cow"] == SUPPLY["cow"]
    assert p.stock["chicken"] + p.stock["goat"] + p.stock["sheep"] == 4
    assert p.stock["chicken"] == 1  # only the henhouse takes chickens: the matching keeps it
    assert sum(n for animals in p.housed.values() for n in animals.values()) == 4


def housing_spot():
    """Seat 0 with a henhouse (chickens, goats: 2) and a sheep pen (sheep, goats: 2) and more
    animals than they hold, asked to house them."""
    from app.games.keyper.rules import advance
    g = fresh()
    build_on(g, 0, "farm1", "h1")
    build_on(g, 0, "farm2", "h3")
    give(g, 0, chicken=1, goat=2, sheep=2, cow=1)
    g.ending = True
    g.queue = [{"do": "house", "seat": 1}, {"do": "house", "seat": 0}]
    advance(g)  # seat 1 has nothing to house: not asked
    return g


def test_housing_is_the_players_choice_when_room_is_short():
    g = housing_spot()
    assert kp.to_act(g) == {0} and g.queue[0]["do"] == "house"
    offered = kp.options(g, 0)
    houses = [o.id for o in offered]
    assert all(o.startswith("house:") for o in houses) and len(houses) == 2
    keep_chicken = next(o for o in offered if "chicken" in o.id)
    keep_sheep = next(o for o in offered if "2sheep" in o.id)
    assert "return 1 cow" in keep_chicken.label and "return 1 chicken, 1 cow" in keep_sheep.label
    assert kp.view(g, 0)["private"]["prompt"].startswith("Your farm buildings cannot house")
    g2 = play(g, 0, keep_sheep.id)
    p = g2.players[0]
    assert p.housed == {"farm1": {"goat": 2}, "farm2": {"sheep": 2}}
    assert (p.stock["chicken"], p.stock["cow"], p.stock["goat"], p.stock["sheep"]) == (0, 0, 2, 2)
    assert g2.supply["chicken"] == SUPPLY["chicken"] and g2.supply["cow"] == SUPPLY["cow"]
    g3 = play(g, 0, keep_chicken.id)
    assert g3.players[0].stock["chicken"] == 1 and g3.players[0].stock["sheep"] == 1
    assert sum(n for a in g3.players[0].housed.values() for n in a.values()) == 4


def test_housing_with_one_way_is_not_asked_and_a_bad_plan_is_refused():
    from app.games.keyper.rules import advance
    g = fresh()
    build_on(g, 0, "farm1", "h1")
    give(g, 0, chicken=1, goat=1, cow=1)  # the cow cannot be housed anywhere: one way only
    all_out(g, 0, 1)
    all_out(g, 1, 2)
    g.queue = [{"do": "house", "seat": 0}, {"do": "house", "seat": 1}, {"do": "end2"}]
    g.ending = True
    advance(g)
    assert g.phase == FOLD  # nobody was asked; the season went on to the folds
    assert g.players[0].housed == {"farm1": {"goat": 1, "chicken": 1}} and g.players[0].stock["cow"] == 0
    g = housing_spot()
    with pytest.raises(IllegalAction):
        kp.apply(g, 0, "house:farm1=2goat;farm2=2sheep,1chicken")


def test_the_bot_houses_for_points():
    from app.games.keyper.bot import choose
    from app.games.rng import Rng
    g = housing_spot()
    build_on(g, 0, "farm2", "c8")  # overbuild the sheep pen with a sheep station: 1 a housed sheep
    g.players[0].plots["farm2"]["tiles"] = ["c8"]
    g.queue = [{"do": "house", "seat": 0}]
    assert choose(g, 0, Rng(1)).endswith("farm2=2sheep")


def test_the_cap_of_four_and_scoring_once():
    g = fresh()
    p = g.players[0]
    build_on(g, 0, "village1", "c22")  # Potter: 1 per brick
    give(g, 0, brick=6)
    assert building_points(p) == (0, 4)
    build_on(g, 0, "village2", "c13")  # Drainage: 1 per stone, 1 per brick
    assert building_points(p) == (0, 4 + 3 + 1)  # 7 bricks: 4 + 3; 1 stone; each counted once


def test_tiebreak_order():
    g = fresh()
    a, b = g.players
    a.stock = {k: 0 for k in a.stock}
    b.stock = {k: 0 for k in b.stock}
    a.stock.update(ruby=1)
    b.stock.update(brick=5, wheat=5)
    assert tiebreak(a) > tiebreak(b)
    a.stock.update(ruby=0, deer=1)
    b.stock.update(brick=0, wheat=0, sheep=9)
    assert tiebreak(a) > tiebreak(b)  # deer before sheep
    g.phase = OVER
    assert result(g).winners == [0]


def test_keyper_claims_a_board_and_the_keyp_tile_gives_goods():
    g = fresh()
    g.players[0].keyp = ["orange", "black"]
    g = play(g, 0, "keyper:2")
    assert g.boards[1]["keyper"] == 0 and g.queue[0]["do"] == "keyp"
    g = play(g, 0, "keyp:now")
    p = g.players[0]
    assert p.stock["clay"] == 1 and sum(p.stock[x] for x in ("emerald", "gold", "ruby", "sapphire")) == 1
    assert p.keyp_down == ["orange", "black"]
    assert "keyper:2" not in ids(g, 1)


def finish_season(g, chooser=None):
    """Play the season out with everyone taking the first non-cancel option; returns the game at the fold."""
    from app.games.keyper.bot import choose
    from app.games.rng import Rng
    rng = Rng(3)
    while g.phase == PLAY:
        seat = min(kp.to_act(g))
        g = kp.apply(g, seat, choose(g, seat, rng))
    return g


def test_season_end_final_lay_downs_go_to_the_others_clockwise_from_the_left_of_the_last():
    g = fresh(players=3)
    for s, p in enumerate(g.players):
        p.hand = []
    g.players[1].hand = ["grey"]
    for s in (0, 2):
        all_out(g, s, s + 1)
    g.players[1].keyper = 2
    g.boards[1]["keyper"] = 1
    g.boards[0]["spaces"]["0,0"] = [{"colour": "orange", "seat": 0, "down": False}]
    g.boards[2]["spaces"] = {k: [] for k in g.boards[2]["spaces"]}
    g.boards[2]["spaces"]["0,0"] = [{"colour": "grey", "seat": 2, "down": False}]
    g.turn = 1
    g = play(g, 1, "keyple:grey", "space:2:" + next(k for k, v in board_fields(g.boards[1]).items() if v == "rock"))
    assert g.ending and g.queue[0] == {"do": "final", "seat": 2}
    assert "pass" in ids(g, 2)
    g = play(g, 2, "lay:space:3:0,0")  # board 3's (0,0) is a country-tile field: 1 action
    assert g.queue[0]["kind"] == "tile" and kp.to_act(g) == {2}
    g = play(g, 2, "done")
    assert g.queue[0] == {"do": "final", "seat": 0} and kp.to_act(g) == {0}


def test_forgotten_keyp_tile_keyples_are_laid_down_at_the_end():
    g = fresh()
    g.players[0].keyp = ["grey"]
    g = play(g, 0, "keyper:1", "keyp:later")
    assert g.players[0].keyp == ["grey"]
    g = finish_season(g)
    assert "lays down the keyples on their keyp tile: 1 rock" in " ".join(g.log)


def test_season_end_fairs_housing_retrieval_display_boats_folds_and_start_player():
    g = fresh(players=2, seed=4)
    spring_fair = g.players[0].fairs["spring"]
    g = finish_season(g)
    assert g.phase == FOLD and g.season == 1
    assert all("spring" not in p.fairs for p in g.players)  # held or discarded
    log = " ".join(g.log)
    assert "takes back their keyper, board" in log
    assert all(not p.keyp_down and p.keyper is None for p in g.players)
    assert all(not s for b in g.boards for s in b["spaces"].values())
    assert len(g.bag) + len([t for t in g.display if t]) + len(g.discard) + sum(
        len(p.held) for p in g.players) + sum(
        1 for p in g.players for pl in p.plots.values() for t in pl["tiles"] if t.startswith("c")) == 48
    assert any(COUNTRY[t].season != "spring" for t in g.bag + [t for t in g.display if t])
    assert len(g.boats) == 4 and g.winter_fairs
    assert kp.to_act(g) == {0, 1}
    last = g.last
    g = play(g, 1, ids(g, 1)[-1])
    assert g.players[1].fold and g.phase == FOLD and kp.view(g, 0)["private"]["fold"] is None
    assert kp.view(g, None)["public"]["players"][1]["folded"] is True
    g = play(g, 0, ids(g, 0)[0])
    assert g.phase == PLAY and g.turn == g.start == last
    assert all(b["fold"].startswith("summer") for b in g.boards)
    while g.queue and g.queue[0]["do"] == "surplus":  # over the team size: each chooses in turn
        seat = g.queue[0]["seat"]
        g = play(g, seat, ids(g, seat)[0])
    total = {c: 0 for c in ("blue", "white")}
    for p in g.players:
        assert len(p.hand) <= 9
        for c in p.hand + p.keyp:
            if c in total:
                total[c] += 1
    assert total == {"blue": 2, "white": 4}
    del spring_fair


def test_surplus_keyples_go_onto_the_keyp_tile():
    from app.games.keyper.rules import surplus
    g = fresh(players=3)
    p = g.players[0]
    p.hand = ["blue", "orange", "orange", "orange", "green", "brown", "black", "grey", "white", "white"]
    surplus(g, p)
    assert len(p.hand) == 8 and p.keyp == ["orange", "orange"]
    g2 = fresh(players=2)
    q = g2.players[0]
    q.hand = list(p.hand) + ["orange", "orange"]
    surplus(g2, q)
    assert len(q.hand) == 9


def test_surplus_keyples_are_the_players_choice():
    from app.games.keyper.rules import advance
    g = fresh(players=3)
    p = g.players[0]
    p.hand = ["blue", "orange", "orange", "orange", "green", "brown", "black", "grey", "white", "white"]
    g.queue = [{"do": "surplus", "seat": 0}]
    advance(g)
    assert kp.to_act(g) == {0}
    offered = ids(g, 0)
    assert offered[0] == "surplus:orange,orange"  # the default: the colour held most often
    assert "surplus:white,white" in offered and "surplus:blue,orange" in offered and len(offered) == len(set(offered))
    assert "onto your keyp tile" in kp.view(g, 0)["private"]["prompt"]
    g = play(g, 0, "surplus:white,white")
    p = g.players[0]
    assert p.keyp == ["white", "white"] and len(p.hand) == 8 and "white" not in p.hand and not g.queue
    with pytest.raises(IllegalAction):
        kp.apply(g, 0, "surplus:orange,orange")  # asked once only


def test_surplus_with_one_way_is_not_asked():
    from app.games.keyper.rules import advance
    g = fresh(players=4)
    p = g.players[1]
    p.hand = ["orange"] * 4 + ["white"] * 5  # 9: one over; any choice is one orange... or a white
    g.queue = [{"do": "surplus", "seat": 1}]
    advance(g)
    assert kp.to_act(g) == {1} and set(ids(g, 1)) == {"surplus:orange", "surplus:white"}
    q = g.players[2]
    q.hand = ["grey"] * 9
    g.queue = [{"do": "surplus", "seat": 2}]
    advance(g)
    assert not g.queue and q.keyp == ["grey"] and len(q.hand) == 8


def test_fairs_are_held_with_their_goods_and_score():
    g = fresh()
    g.season = 0
    fair = g.players[0].fairs["spring"]
    from app.games.keyper.content import FAIRS
    needs = FAIRS[fair].needs
    give(g, 0, **{k if k != "raw" else "clay": n for k, n in needs.items()})
    g.queue = [{"do": "fair", "seat": 0}, {"do": "fair", "seat": 1}]
    assert ids(g, 0)[0] == f"fair:{fair}:front"
    g = play(g, 0, f"fair:{fair}:front")
    assert g.players[0].shown[0]["points"] == FAIRS[fair].points
    assert scores(g)[0].breakdown["Fairs"] == FAIRS[fair].points
    assert "spring" not in g.players[0].fairs
    g = play(g, 1, "done")
    assert "spring" not in g.players[1].fairs and g.players[1].fairs.get("summer")


def test_winter_fairs_take_and_hold_on_the_allowed_side():
    g = fresh()
    g.season = 1
    g.winter_fairs = ["wi8"]
    g.queue = [{"do": "act", "kind": "fair", "seat": 0, "left": 1}]
    g = play(g, 0, "winter:wi8")
    give(g, 0, wheat=5, ruby=1)
    g.queue = [{"do": "fair", "seat": 0}]
    assert [o for o in ids(g, 0) if o.startswith("fair:wi8")] == ["fair:wi8:4"]  # summer: 4 only
    g.season = 2
    assert [o for o in ids(g, 0) if o.startswith("fair:wi8")] == ["fair:wi8:4", "fair:wi8:6"]
    g = play(g, 0, "fair:wi8:6")
    assert g.players[0].shown[-1]["points"] == 6 and g.players[0].stock["wheat"] == 1


def test_payment_named_goods_white_goods_and_wheat():
    assert payment({"clay": 1}, {"clay": 1}) == {"clay": 1}
    assert payment({"clay": 0}, {"clay": 1}) is None
    assert payment({"wheat": 1}, {"raw": 1}) == {"wheat": 1}
    assert payment({"wheat": 1}, {"gem": 1}) is None
    assert payment({"wood": 2, "brick": 1}, {"finished": 2}) == {"wood": 1, "brick": 1}


def test_a_seat_with_nothing_to_do_is_skipped_and_the_season_ends_when_all_are_out():
    g = fresh()
    all_out(g, 1, 2)
    g.players[0].hand = ["grey"]
    g.players[0].keyper = 1
    g.boards[0]["keyper"] = 0
    g = play(g, 0, "keyple:grey", "space:1:2,3")
    assert g.ending or g.phase == FOLD


def test_refusals_change_nothing():
    g = fresh()
    with pytest.raises(IllegalAction):
        kp.apply(g, 1, "keyple:orange")
    with pytest.raises(IllegalAction):
        kp.apply(g, 0, "keyper:9")
    assert FIELD_COLOUR["tile"] is None


def test_options_listed_for_one_game_are_not_trusted_for_another():
    """``apply`` checks a choice against the list the state bot just made only for that
    very game and seat; anywhere else it lists again."""
    from app.games.keyper.rules import listed
    g = fresh()
    offered = listed(g, 0)
    assert offered == ids(g, 0)  # the ids alone, in the options' order
    keyple = next(o for o in offered if o.startswith("keyple:"))
    other = fresh()
    other.players[0].hand = [c for c in other.players[0].hand if f"keyple:{c}" != keyple]
    assert keyple not in ids(other, 0)
    with pytest.raises(IllegalAction):
        kp.apply(other, 0, keyple)  # listed for g, not for this game
    listed(g, 0)
    with pytest.raises(IllegalAction):
        kp.apply(g, 1, keyple)  # listed for seat 0
    kp.apply(g, 0, keyple)  # the listed game and seat: accepted


def test_apply_after_listed_does_not_list_again(monkeypatch):
    """The state bot lists the ids once per decision: ``apply`` finds its choice in them."""
    from app.games.keyper import rules
    g = fresh()
    offered = rules.listed(g, 0)

    def listing_again(*_):
        raise AssertionError("listed twice")
    monkeypatch.setattr(rules, "option_ids", listing_again)
    monkeypatch.setattr(rules, "options", listing_again)
    monkeypatch.setattr(rules._LISTED, "_options", listing_again)
    keyple = next(o for o in offered if o.startswith("keyple:"))
    assert kp.apply(g, 0, keyple).queue[0]["do"] == "place"

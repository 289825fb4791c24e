"""Village placement, keyple cards and tokens, simultaneous resolution, transport,
upgrades and the phase after the draft (seed, Phase 2–4 and Core Mechanics)."""

from __future__ import annotations

import pytest

import app.games.key_flow as kf
from app.games.key_flow.content import CARDS
from app.games.key_flow.rules import RESOLVE, TOKENS, find, spots, targets
from app.games.protocol import IllegalAction

from .support import build, game, hands, ids, keyple, option_ids, play


def test_village_cards_go_to_their_row_touching_a_card_gaps_allowed():
    g = game(3)
    p = g.players[0]
    assert spots(p, "road") == [-1, 1]
    assert spots(p, "river") == [-1, 0]  # under the left or right half of the home card
    build(g, 0, ids("Sheep Meadow")[0], "river", 0)
    # river 0 sits between road 0 and road 1: road 1 touches it; road 2 does not touch anything
    assert spots(p, "road") == [-1, 1]
    assert spots(p, "river") == [-1, 1]
    build(g, 0, ids("Pig Farm")[0], "river", 1)
    # a road card at 2 touches the river card at 1 even with road 1 still empty (a gap)
    assert 2 in spots(p, "road") and 1 in spots(p, "road")


def test_building_a_card_gives_its_round_panel_reward_onto_the_card():
    g = game(3)
    meadow, mine = ids("Sheep Meadow")[0], ids("Gold Mine")[0]
    hands(g, [meadow, mine], [ids("Keymine")[0], ids("Quarry")[0]], [ids("Woodcutter")[0], ids("Workshop")[0]])
    g = play(g, {0: (meadow, "river:0"), 1: (g.players[1].hand[0], "road:1"), 2: (g.players[2].hand[0], "discard")})
    e = find(g.players[0], "river.0")
    assert e["card"] == meadow and e["res"] == {"wood": 1}
    assert g.players[2].tokens == 1  # discarding gives a keyple token
    assert "discards a card unseen" in " ".join(g.log.recent[-3:])


def test_keyple_counts_limit_placement_and_tokens_raise_them():
    g = game(3)
    mine = build(g, 0, ids("Gold Mine")[0], "road", 1)
    one, two, three = keyple("r1D", "spring"), keyple("g2D", "spring"), keyple("y3LDR", "spring")
    p = g.players[0]
    on_mine = lambda card: [t for o, e, t in targets(g, p, CARDS[card]) if e is mine]  # noqa: E731
    assert on_mine(one) == [0] and on_mine(two) == [0] and on_mine(three) == [0]
    mine["keyples"].append({"card": keyple("b1D", "spring"), "by": 0, "tokens": 0, "at": 0})
    assert on_mine(one) == [] and on_mine(two) == [0] and on_mine(three) == [0]
    p.tokens = 1
    assert on_mine(one) == [1]  # a 1-keyple card plus a token counts as 2
    mine["keyples"].append({"card": keyple("r1Ds", "spring"), "by": 0, "tokens": 0, "at": 0})
    assert on_mine(one) == [] and on_mine(two) == [1] and on_mine(three) == [0]
    p.tokens = 2
    assert on_mine(one) == [2]
    mine["keyples"].append({"card": keyple("b1Dp", "spring"), "by": 0, "tokens": 0, "at": 0})
    assert on_mine(three) == []  # never more than 3


def test_keyple_arrows_reach_own_and_neighbours_villages():
    g = game(4)
    for seat in range(4):
        build(g, seat, ids("Gold Mine")[seat % 2], "road", 1)
    p = g.players[0]
    owners = lambda code: sorted({o for o, e, t in targets(g, p, CARDS[keyple(code)])})  # noqa: E731
    assert owners("r1D") == [0]
    assert owners("y2LD") == [0, 1]  # left neighbour: seat 1
    assert owners("b2DR") == [0, 3]  # right neighbour: seat 3
    assert owners("y3LDR") == [0, 1, 3]


def test_two_player_arrows_reach_the_opponents_home_and_one_side():
    g = game(2)
    left_card = build(g, 1, ids("Gold Mine")[0], "road", -1)
    right_card = build(g, 1, ids("Keymine")[0], "road", 1)
    p = g.players[0]

    def on_opponent(code):
        return sorted(e["col"] for o, e, t in targets(g, p, CARDS[keyple(code)]) if o == 1)
    assert on_opponent("r2LD") == [-1, 0]
    assert on_opponent("b2DR") == [0, 1]
    assert on_opponent("y3LDR") == [-1, 0, 1]
    assert on_opponent("r1D") == []
    assert left_card and right_card


def test_neighbours_resources_land_on_the_activators_home_card():
    g = game(3)
    build(g, 1, ids("Gold Mine")[0], "road", 1)
    card = keyple("y2LD", "spring")
    hands(g, [card, ids("Keymine")[0]], [ids("Quarry")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:1:1"), 1: (ids("Quarry")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    assert find(g.players[0], "road.0")["res"] == {"gold": 1}
    assert find(g.players[1], "road.1")["res"] == {}
    # the keyple card stays on the neighbour's building until the season ends
    assert find(g.players[1], "road.1")["keyples"][0]["card"] == card


def test_own_building_produces_onto_itself():
    g = game(3)
    build(g, 0, ids("Keymine")[0], "road", 1)
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Gold Mine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:0:1"), 1: (ids("Gold Mine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    assert find(g.players[0], "road.1")["res"] == {"iron": 1}


def test_simultaneous_play_resolves_against_the_state_before_the_turn():
    """Seat 0 upgrades its Gold Mine while seat 1 uses it: seat 1 gets the old panel's
    gold; and neither can use a building placed this same turn."""
    g = game(3)
    mine = build(g, 0, ids("Gold Mine")[0], "road", 1, iron=1, stone=1)
    build(g, 0, ids("Builder")[0], "road", -1)
    mine_card = keyple("r1D", "spring")
    their = keyple("b2DR", "spring")  # seat 1's right neighbour is seat 0
    new_building = ids("Keymine")[0]
    hands(g, [mine_card, ids("Quarry")[0]], [their, ids("Woodcutter")[0]], [new_building, ids("Alehouse")[0]])
    g = kf.apply(g, 2, f"pick:{new_building}")
    g = kf.apply(g, 2, "road:-1")  # seat 2 builds now: nobody can target it this turn
    g = kf.apply(g, 1, f"pick:{their}")
    reaching_seat_2 = targets(g, g.players[0], CARDS[keyple("y3LDR", "spring")])
    assert any(o == 2 for o, e, t in reaching_seat_2)
    assert not any(o == 2 and e["col"] == -1 for o, e, t in reaching_seat_2)
    g = kf.apply(g, 1, "on:0:1")
    g = kf.apply(g, 0, f"pick:{mine_card}")
    g = kf.apply(g, 0, "on:0:-1")  # own Builder: 1 upgrade
    assert g.phase == RESOLVE and kf.to_act(g) == {0}
    assert "upgrade:road.1" in option_ids(g, 0)
    g = kf.apply(g, 0, "upgrade:road.1")
    mine = find(g.players[0], "road.1")
    assert mine["tiles"] == ["house"] and mine["res"] == {}
    # seat 1 used the Gold Mine's old top panel (1 gold), not the upgraded one (2 gold)
    assert find(g.players[1], "road.0")["res"] == {"gold": 1}


def test_more_than_three_keyple_cards_can_land_on_one_building():
    g = game(5)
    mine = build(g, 0, ids("Gold Mine")[0], "road", 1)
    for k in ("r1D", "b1Dp"):
        mine["keyples"].append({"card": keyple(k, "spring"), "by": 0, "tokens": 0, "at": 0})
    cards = {0: keyple("y3LDR", "spring"), 1: keyple("b3LDR", "spring"), 4: keyple("g2LDR", "spring")}
    fillers = [ids("Quarry")[0], ids("Woodcutter")[0], ids("Keymine")[0], ids("Alehouse")[0], ids("Workshop")[0]]
    hands(g, *[[cards.get(s, fillers[s]), fillers[(s + 1) % 5]] for s in range(5)])
    g.players[4].tokens = 1
    plays = {0: (cards[0], "on:0:1"), 1: (cards[1], "on:0:1"), 4: (cards[4], "on:0:1"),
             2: (fillers[2], "discard"), 3: (fillers[3], "discard")}
    g = play(g, plays)
    assert len(find(g.players[0], "road.1")["keyples"]) == 5
    assert g.players[4].tokens == 0  # the token raised its 2 keyples to 3


def test_transport_moves_resources_one_space_per_point():
    g = game(3)
    stable = build(g, 0, ids("Stable")[0], "road", 1)
    build(g, 0, ids("Gold Mine")[0], "road", -1, iron=2)
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Keymine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:0:1"), 1: (ids("Keymine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    assert g.players[0].jobs == [{"do": "transport", "left": 3}]
    # from road -1 only the home card (road 0) touches it
    assert option_ids(g, 0) == ["move:road.-1:road.0:iron", "stop"]
    g = kf.apply(g, 0, "move:road.-1:road.0:iron")
    g = kf.apply(g, 0, "move:road.0:road.1:iron")
    assert find(g.players[0], "road.1")["res"] == {"iron": 1} and stable is not None
    g = kf.apply(g, 0, "stop")
    assert not g.players[0].jobs and g.phase != RESOLVE


def test_transport_onto_a_store_keeps_the_resource_there():
    g = game(3)
    store = build(g, 0, ids("Blacksmith")[0], "river", 0)
    build(g, 0, ids("Stable")[0], "road", 1, iron=1, wood=1)
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Keymine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:0:1"), 1: (ids("Keymine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    moves = option_ids(g, 0)
    assert "move:road.1:river.0:iron" in moves and "move:road.1:river.0:wood" not in moves  # the Blacksmith takes iron
    g = kf.apply(g, 0, "move:road.1:river.0:iron")
    store = find(g.players[0], "river.0")
    assert store["stored"] == {"iron": 1} and store["res"] == {}
    assert not any(o.startswith("move:river.0") for o in option_ids(g, 0))


def test_upgrade_pays_with_resources_on_the_card_and_skill_tiles_gold_stands_in():
    g = game(3)
    mine = build(g, 0, ids("Keymine")[0], "road", 1)
    build(g, 0, ids("Builder")[0], "road", -1)
    meadow = build(g, 0, ids("Sheep Meadow")[0], "river", 0, gold=1)
    g.players[0].skills["anvil"] = 1
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Gold Mine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:0:-1"), 1: (ids("Gold Mine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    opts = option_ids(g, 0)
    assert "upgrade:road.1" in opts  # Keymine costs an anvil tile
    assert "upgrade:river.0" in opts  # Sheep Meadow costs wood: the gold on it stands in
    g = kf.apply(g, 0, "upgrade:river.0")
    meadow = find(g.players[0], "river.0")
    assert meadow["tiles"] == ["house"] and meadow["res"] == {} and g.tile_supply == 44
    assert mine["tiles"] == []


def test_flip_an_upgrade_tile_for_free_and_upgrade_a_card_again():
    g = game(3)
    keythedral = build(g, 0, ids("Keythedral")[0], "road", 1, iron=2, wood=2, stone=2)
    build(g, 0, ids("Builder")[0], "road", -1)
    find(g.players[0], "road.-1")["tiles"] = ["house"]  # Builder upgraded: 2 upgrades
    g.players[0].skills.update(anvil=1, pick=1, saw=1)
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Gold Mine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:0:-1"), 1: (ids("Gold Mine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    g = kf.apply(g, 0, "upgrade:road.1")
    assert "flip:road.-1" in option_ids(g, 0) and "upgrade:road.1" in option_ids(g, 0)
    g = kf.apply(g, 0, "upgrade:road.1")  # FAQ: a card with more panels is upgraded again
    keythedral = find(g.players[0], "road.1")
    assert keythedral["tiles"] == ["house", "house"]
    assert CARDS[keythedral["card"]].panels[len(keythedral["tiles"])].points == 20


def test_transport_and_upgrades_work_only_in_the_owners_village():
    g = game(3)
    build(g, 1, ids("Stable")[0], "road", 1)
    card = keyple("y2LD", "spring")
    assert not any(o == 1 for o, e, t in targets(g, g.players[0], CARDS[card]) if e["col"] == 1)


def test_skill_conversion_pays_a_tile_back_to_the_supply():
    g = game(3)
    build(g, 0, ids("Carpenter")[0], "road", 1)
    g.players[0].skills["saw"] = 1
    g.players[0].doubles["saw"] = 1
    g.doubles["saw"] = 2
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Gold Mine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:0:1"), 1: (ids("Gold Mine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    assert option_ids(g, 0) == ["pay:saw", "skip"]
    g = kf.apply(g, 0, "pay:saw")
    assert find(g.players[0], "road.1")["res"] == {"wood": 2, "gold": 1}
    assert g.players[0].skills["saw"] == 0 and g.players[0].doubles["saw"] == 1  # single-sided first


def test_random_and_specific_skill_tiles():
    g = game(3)
    build(g, 0, ids("Apprentice Hall")[0], "road", 1)
    top = g.skill_pile[0]
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Gold Mine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:0:1"), 1: (ids("Gold Mine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    assert g.players[0].skills[top] == 1 and len(g.skill_pile) == 44


def test_keyple_tokens_after_the_draft():
    g = game(3)
    mine = build(g, 0, ids("Gold Mine")[0], "road", 1)
    g.players[0].tokens = 4
    hands(g, [ids("Quarry")[0]], [ids("Keymine")[0]], [ids("Workshop")[0]])
    for seat in range(3):
        g = kf.apply(g, seat, f"pick:{g.players[seat].hand[0]}")
        g = kf.apply(g, seat, "discard")
    assert g.phase == TOKENS and kf.to_act(g) == {0, 1, 2}
    assert "token:1" in option_ids(g, 0)
    g = kf.apply(g, 0, "token:1")  # 0 activations before: 1 token
    g = kf.apply(g, 0, "token:1")  # 1 before: 1 token
    assert g.players[0].tokens == 3  # 4 + 1 for the discard - 2
    assert "Use 2 keyple tokens on Gold Mine" in [o.label.split(":")[0] for o in kf.options(g, 0)]
    g = kf.apply(g, 0, "token:1")  # 2 before: 2 tokens
    assert g.players[0].tokens == 1 and find(g.players[0], "road.1")["res"] == {"gold": 3}
    assert "token:1" not in option_ids(g, 0)  # never a 4th activation
    assert mine is not None


def test_keyple_cards_go_under_the_village_owners_store_card_at_season_end():
    g = game(3)
    build(g, 1, ids("Gold Mine")[0], "road", 1)
    card = keyple("y2LD", "spring")
    hands(g, [card], [ids("Quarry")[0]], [ids("Workshop")[0]])
    g = play(g, {0: (card, "on:1:1"), 1: (ids("Quarry")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    while g.season == 0:
        seat = min(kf.to_act(g))
        g = kf.apply(g, seat, "done")
    assert g.players[1].under_store == [card] and g.players[0].under_store == []
    assert [c["id"] for c in kf.view(g, 1)["private"]["under_store"]] == [card]
    assert kf.view(g, 0)["public"]["players"][1]["under_store"] == 1
    assert card not in str(kf.view(g, 0)["private"]) and card not in str(kf.view(g, None)["public"]["players"])


def test_a_refused_choice_changes_nothing():
    g = game(3)
    hands(g, [ids("Quarry")[0]], [ids("Keymine")[0]], [ids("Workshop")[0]])
    with pytest.raises(IllegalAction):
        kf.apply(g, 0, "discard")  # nothing picked yet
    with pytest.raises(IllegalAction):
        kf.apply(g, 0, f"pick:{ids('Keymine')[0]}")  # not in seat 0's hand
    g2 = kf.apply(g, 0, f"pick:{ids('Quarry')[0]}")
    with pytest.raises(IllegalAction):
        kf.apply(g2, 0, "road:7")
    assert g.players[0].choosing is None and g2.players[0].choosing == ids("Quarry")[0]

"""Final scoring, every winter card, boats, tiebreaks and the seed's FAQ."""

from __future__ import annotations

import pytest

import app.games.key_flow as kf
from app.games.key_flow.content import CARDS, SCORERS
from app.games.key_flow.rules import WINTER_K, finish, score_player, targets

from .support import build, game, hands, ids, keyple, option_ids, play

# What each winter card scores from a small village made for it (the card itself is built
# in the village, so base points come on top).
WINTER = {
    "Dairy": ({"res": {}, "cards": ["Dairy Farm"], "tokens": 3}, 10),  # two cows, two tokens
    "Farmyard": ({"cards": ["Sheep Meadow", "Pig Farm"]}, 2),
    "Craftsmen's Guild": ({"under": ["r1D", "y1D", "b1D", "r2LD"]}, 3),
    "Jeweller": ({"res": {"gold": 3}}, 6),
    "Scholar": ({"skills": {"anvil": 1, "saw": 2}}, 6),
    "Sea Breese": ({"cards": ["Brainwave"]}, 8),
    "Mercers' Guild": ({"res": {"iron": 2, "wood": 1, "stone": 1}}, 3),
    "Key Market": ({"under": ["g2D", "g1D", "r1D"]}, 4),
    "Village Hall": ({"under": ["r1D", "r2D", "y1D"]}, 4),
    "Scribes": ({"skills": {"anvil": 1, "pick": 1, "saw": 1}}, 7),
    "Stockyard": ({"cards": ["Paddock"], "under": ["g1Dc"]}, 6),
    "Wainwright": ({"cards": ["Stable", "Cartwright"]}, 12),  # with the home card: 3 transport cards
    "Taproom": ({"tokens": 2}, 6),
    "Apothecary": ({"under": ["r1D", "y1D", "b1D", "g1D", "r2D"]}, 6),
    "Stonemason": ({"res": {"stone": 4}}, 3),
}


def test_every_winter_card_is_tested():
    assert set(WINTER) == {name for name, *_ in SCORERS}


@pytest.mark.parametrize("name", sorted(WINTER))
def test_each_winter_card_scores_its_sets(name):
    setup, expected = WINTER[name]
    g = game(3)
    p = g.players[0]
    col = 1
    for card_name in setup.get("cards", []):
        c = CARDS[ids(card_name)[0]]
        build(g, 0, c.id, c.row, col if c.row == "road" else col - 1)
        col += 1
    build(g, 0, ids(name)[0], "road", -1)
    p.village[0]["res"].update(setup.get("res", {}))
    p.under_store = [keyple(k) for k in setup.get("under", [])]
    p.skills.update(setup.get("skills", {}))
    p.tokens = setup.get("tokens", 0)
    scored = score_player(p)
    line = next(x for x in scored["allocation"] if x["name"] == name)
    assert line["points"] == expected, scored["allocation"]


def test_final_score_adds_panels_flipped_tiles_stores_winter_cards_and_gold():
    g = game(2)
    p = g.players[0]
    keythedral = build(g, 0, ids("Keythedral")[0], "road", 1)
    keythedral["tiles"] = ["house", "points"]  # 20 points, one flipped tile
    store = build(g, 0, ids("Blacksmith")[0], "river", 0)
    store["stored"] = {"iron": 3}
    build(g, 0, ids("Jeweller")[0], "road", -1, gold=2)
    p.village[0]["res"]["gold"] = 1
    s = score_player(p)
    per_iron = CARDS[store["card"]].store_points  # authored rate (3 an iron)
    assert s["breakdown"] == {"panels": 20, "flipped tiles": 1, "stores": 3 * per_iron, "winter cards": 6, "gold": 0}
    assert s["score"] == 27 + 3 * per_iron
    # Keythedral: 5 / 12 / 20 by upgrades (seed example)
    keythedral["tiles"] = []
    assert score_player(p)["breakdown"]["panels"] == 5


def test_ties_are_broken_by_sheep_then_pigs_then_cows():
    g = game(3)
    for seat in range(3):
        g.players[seat].village[0]["res"] = {"gold": 5}
    build(g, 1, ids("Sheep Meadow")[0], "river", 0)
    build(g, 2, ids("Sheep Meadow")[1], "river", 0)
    build(g, 2, ids("Pig Farm")[0], "river", -1)
    for seat in (1, 2):  # equal panels: each meadow and farm scores 1, so even the points up
        g.players[seat].village[0]["res"] = {"gold": 5 - (len(g.players[seat].village) - 1)}
    finish(g)
    r = kf.result(g)
    assert [s.score for s in r.scores] == [5, 5, 5]
    assert r.winners == [2]  # one sheep each for 1 and 2; seat 2 has a pig too
    assert [s.tiebreak for s in r.scores] == [(0, 0, 0), (1, 0, 0), (1, 1, 0)]


def test_the_allocation_table_is_shown_at_the_end():
    g = game(2)
    build(g, 0, ids("Jeweller")[0], "road", 1, gold=2)
    finish(g)
    final = kf.view(g, None)["public"]["final"]
    assert final[0]["allocation"][0]["name"] == "Jeweller" and final[0]["allocation"][0]["points"] == 4


# --- Boats ---

def test_brainwave_lets_1_and_2_keyple_cards_reach_any_adjacent_village():
    g = game(4)
    build(g, 1, ids("Gold Mine")[0], "road", 1)
    p = g.players[0]
    card = CARDS[keyple("r1D", "spring")]
    assert {o for o, e, t in targets(g, p, card)} == {0}
    build(g, 0, ids("Brainwave")[0], "river", 0)
    assert {o for o, e, t in targets(g, p, card)} == {0, 1, 3}
    three = CARDS[keyple("r3LD", "summer")]
    assert {o for o, e, t in targets(g, p, three)} == {0, 1}  # a 3-keyple card keeps its arrows


def test_flipper_gives_a_gold_for_each_flip():
    g = game(3)
    build(g, 0, ids("Flipper")[0], "river", 0)
    builder = build(g, 0, ids("Builder")[0], "road", 1)
    mine = build(g, 0, ids("Gold Mine")[0], "road", -1)
    mine["tiles"] = ["house"]
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Keymine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = play(g, {0: (card, "on:0:1"), 1: (ids("Keymine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    g = kf.apply(g, 0, "flip:road.-1")
    mine = next(e for e in g.players[0].village if e["col"] == -1 and e["row"] == "road")
    assert mine["tiles"] == ["points"] and mine["res"] == {"gold": 1} and builder


def test_keyflower_lets_any_resource_stand_in_when_upgrading():
    g = game(3)
    build(g, 0, ids("Builder")[0], "road", 1)
    build(g, 0, ids("Sheep Meadow")[0], "river", -1, iron=1)  # needs wood
    card = keyple("r1D", "spring")
    hands(g, [card, ids("Quarry")[0]], [ids("Keymine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g2 = play(g, {0: (card, "on:0:1"), 1: (ids("Keymine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    assert "upgrade:river.-1" not in option_ids(g2, 0)
    build(g, 0, ids("Keyflower")[0], "river", 0)
    g3 = play(g, {0: (card, "on:0:1"), 1: (ids("Keymine")[0], "discard"), 2: (ids("Workshop")[0], "discard")})
    assert "upgrade:river.-1" in option_ids(g3, 0)


def test_keymelequin_and_mansfield_ark_change_what_scores():
    g = game(3)
    p = g.players[0]
    build(g, 0, ids("Key Market")[0], "road", 1)
    build(g, 0, ids("Stockyard")[0], "road", -1)
    p.under_store = [keyple("y1D"), keyple("r1Ds", "spring"), keyple("y1Dc", "summer")]
    build(g, 0, ids("Pig Farm")[0], "river", 0)
    before = score_player(p)["breakdown"]["winter cards"]
    build(g, 0, ids("Keymelequin")[0], "river", -1)
    assert score_player(p)["breakdown"]["winter cards"] == before + 2  # the plain yellow card as green
    build(g, 0, ids("Mansfield Ark")[0], "river", 1)
    assert score_player(p)["breakdown"]["winter cards"] >= before + 2


# --- Seed FAQ ---

def test_faq_a_building_played_this_turn_cannot_be_used():
    g = game(3)
    hands(g, [ids("Gold Mine")[0], ids("Quarry")[0]], [keyple("y2LD", "spring"), ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = kf.apply(g, 0, f"pick:{ids('Gold Mine')[0]}")
    g = kf.apply(g, 0, "road:1")
    g = kf.apply(g, 1, f"pick:{keyple('y2LD', 'spring')}")
    assert not any(o.startswith("on:0:1") for o in option_ids(g, 1))


def test_faq_a_token_gained_can_raise_the_keyple_count_next_turn():
    g = game(3)
    mine = build(g, 0, ids("Gold Mine")[0], "road", 1)
    mine["keyples"].append({"card": keyple("b1D"), "by": 0, "tokens": 0, "at": 0})
    one = keyple("r1D", "spring")
    hands(g, [ids("Quarry")[0], one], [ids("Keymine")[0], ids("Woodcutter")[0]],
          [ids("Workshop")[0], ids("Alehouse")[0]])
    g = kf.apply(g, 0, f"pick:{one}")
    assert "on:0:1" not in option_ids(g, 0)  # no token yet
    g = kf.apply(g, 0, "cancel")
    g = play(g, {0: (ids("Quarry")[0], "discard"), 1: (ids("Keymine")[0], "discard"),
                 2: (ids("Workshop")[0], "discard")})
    seat0_hand = g.players[0].hand  # passed on from seat 2
    assert g.players[0].tokens == 1
    g.players[0].hand = [one]
    g.players[2].hand = seat0_hand
    g = kf.apply(g, 0, f"pick:{one}")
    assert "on:0:1" in option_ids(g, 0)


def test_faq_the_winter_k_card_cannot_be_discarded():
    g = game(3)
    g.phase = WINTER_K
    p = g.players[0]
    g = kf.apply(g, 0, f"pick:{p.winter_k[0]}")
    assert "discard" not in option_ids(g, 0)
    assert all(o.startswith(("road:", "river:", "cancel")) for o in option_ids(g, 0))


def test_faq_animals_count_only_as_icons_on_cards_and_keyple_cards():
    g = game(3)
    p = g.players[0]
    build(g, 0, ids("Farmyard")[0], "road", 1)
    build(g, 0, ids("Fishery")[0], "river", 0)  # no animal icon
    assert next(x for x in score_player(p)["allocation"] if x["name"] == "Farmyard")["points"] == 0


def test_the_tiebreak_counts_each_animal_as_animal_count_does():
    from app.games.key_flow.content import ANIMALS
    from app.games.key_flow.rules import animal_count, animal_counts
    from app.games.playout import bot_playout
    for players, seed in ((2, 3), (5, 1)):
        for p in bot_playout("key-flow", players, seed=seed).state.players:
            assert animal_counts(p) == [animal_count(p, a) for a in ANIMALS]

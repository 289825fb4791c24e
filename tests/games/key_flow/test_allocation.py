"""The best winter allocation is exact: checked against brute force on small cases."""

from __future__ import annotations

import itertools
import random

import pytest

from app.games.key_flow.content import SCORERS, parse_scoring
from app.games.key_flow import scoring
from app.games.key_flow.scoring import accepts, best_allocation

KINDS = ["iron", "wood", "stone", "gold", "anvil", "pick", "saw", "token", "icon:sheep", "icon:pig", "icon:cow",
         "boat", "cart", "kcard:red:-", "kcard:yellow:sheep", "kcard:green:pig", "kcard:blue:cow"]
RULES = {name: parse_scoring(rule) for name, _, _, rule, _, _, _ in SCORERS}


def brute(items: list[str], cards, powers=frozenset()) -> int:
    """Every way to hand each single item to one card (or none)."""
    best = 0
    for owners in itertools.product(range(len(cards) + 1), repeat=len(items)):
        total = sum(1 for k, o in zip(items, owners) if o == len(cards) and k == "gold")
        for c, (_, variants) in enumerate(cards):
            mine = [k for k, o in zip(items, owners) if o == c]
            total += max(_exact_sets(mine, v, powers) * v.points for v in variants)
        best = max(best, total)
    return best


def _exact_sets(items, variant, powers) -> int:
    """Most sets from exactly these items: try every assignment of items to set slots."""
    n = len(variant.slots)
    for k in range(len(items) // n, 0, -1):
        slots = list(variant.slots) * k
        for chosen in itertools.permutations(items, len(slots)):
            if all(accepts(s, it, powers) for s, it in zip(slots, chosen)):
                return k
    return 0


CASES = [
    (["iron", "wood", "gold", "stone", "gold"], ["Mercers' Guild", "Jeweller"]),
    (["icon:cow", "token", "icon:cow", "kcard:blue:cow", "token"], ["Dairy", "Farmyard"]),
    (["kcard:red:-", "kcard:yellow:sheep", "kcard:blue:cow", "icon:sheep", "icon:pig"],
     ["Craftsmen's Guild", "Stockyard"]),
    (["anvil", "pick", "saw", "anvil", "anvil"], ["Scholar", "Scribes"]),
    (["gold", "gold", "stone", "iron"], ["Stonemason", "Jeweller"]),
    (["boat", "boat", "cart", "token", "gold"], ["Sea Breese", "Wainwright", "Taproom"]),
    (["gold", "gold", "gold", "iron", "wood"], ["Jeweller", "Jeweller", "Mercers' Guild"]),  # two copies of a card
]


@pytest.mark.parametrize("items, names", CASES)
def test_best_allocation_equals_brute_force(items, names):
    cards = [(f"{name}-{i}", RULES[name]) for i, name in enumerate(names)]
    supply = {}
    for k in items:
        supply[k] = supply.get(k, 0) + 1
    points, lines = best_allocation(supply, cards)
    assert points == brute(items, cards)
    assert sum(line.points for line in lines) == points
    used = {}
    for line in lines:
        for k, n in line.items.items():
            used[k] = used.get(k, 0) + n
    assert all(used[k] <= supply[k] for k in used), "no item is used twice"


def test_random_small_cases_equal_brute_force():
    rnd = random.Random(7)
    names = list(RULES)
    for _ in range(25):
        items = [rnd.choice(KINDS) for _ in range(rnd.randint(3, 6))]
        cards = [(n, RULES[n]) for n in rnd.sample(names, 2)]
        supply = {}
        for k in items:
            supply[k] = supply.get(k, 0) + 1
        assert best_allocation(supply, cards)[0] == brute(items, cards), (items, cards)


def test_gold_left_over_scores_one_each_and_gold_goes_where_only_gold_helps():
    points, lines = best_allocation({"gold": 3, "iron": 1, "wood": 1}, [("m", RULES["Mercers' Guild"])])
    assert points == 3 + 2  # one set (iron, wood, gold as stone), two gold left
    assert lines[0].items == {"gold": 1, "iron": 1, "wood": 1} and lines[-1].points == 2


def test_a_keyple_card_with_an_animal_counts_as_keyple_or_animal_not_both():
    cards = [("g", RULES["Craftsmen's Guild"]), ("s", RULES["Stockyard"])]
    supply = {"kcard:red:sheep": 1, "kcard:yellow:-": 1, "kcard:blue:-": 1, "icon:pig": 1, "icon:cow": 1}
    points, lines = best_allocation(supply, cards)
    assert points == 6  # the red sheep card goes to the Stockyard set (6), not the guild (3)
    assert lines[1].items["kcard:red:sheep"] == 1 and lines[0].points == 0


def test_powers_of_keymelequin_and_mansfield_ark():
    market = [("k", RULES["Key Market"])]
    assert best_allocation({"kcard:yellow:-": 2}, market)[0] == 0
    assert best_allocation({"kcard:yellow:-": 2}, market, frozenset({"keymelequin"}))[0] == 4
    lodge = [("s", RULES["Stockyard"])]
    assert best_allocation({"icon:pig": 2, "icon:cow": 1}, lodge)[0] == 0
    assert best_allocation({"icon:pig": 2, "icon:cow": 1}, lodge, frozenset({"mansfield"}))[0] == 6


def test_independent_groups_of_cards_score_as_one_search_of_them_all():
    """best_allocation searches cards that share no item kind apart; one search over all
    of them (the plain method) must find the same points, on many mixed villages."""
    from app.games.key_flow.scoring import exact_search
    rnd = random.Random(11)
    kinds = ["iron", "wood", "stone", "gold", "anvil", "pick", "saw", "token", "boat", "cart", "icon:sheep",
             "icon:cow", "kcard:red:-", "kcard:yellow:pig", "kcard:blue:sheep", "kcard:green:cow"]
    rules = {name: parse_scoring(rule) for name, _, _, rule, *_ in SCORERS}
    for _ in range(60):
        supply = {k: rnd.randrange(4) for k in rnd.sample(kinds, 7)}
        cards = [(f"c{i}", rules[name]) for i, name in enumerate(rnd.sample(sorted(rules), 5))]
        points, lines = best_allocation(supply, cards)
        plain, _ = exact_search({k: n for k, n in sorted(supply.items()) if n}, cards, frozenset())
        assert points == plain == sum(line.points for line in lines), (supply, [n for n, _ in cards])


def test_a_final_village_keeps_its_allocation_line_for_line():
    """A final village of a 2-player bot game, where several allocations make
    the best points: the search must find the same one, item for item, as it always has
    (the lines are in the game's dump; a faster search must not pick another)."""
    supply = {"gold": 11, "cart": 4, "stone": 2, "icon:sheep": 2, "icon:cow": 1, "token": 7, "kcard:blue:-": 4,
              "kcard:blue:pig": 2, "kcard:blue:sheep": 1, "kcard:blue:cow": 1, "kcard:green:-": 1, "kcard:red:-": 7,
              "kcard:red:sheep": 1, "kcard:yellow:pig": 1, "kcard:yellow:cow": 1, "kcard:yellow:-": 1}
    names = ["Jeweller", "Wainwright", "Village Hall", "Mercers' Guild", "Craftsmen's Guild", "Stockyard", "Taproom",
             "Apothecary", "Dairy"]
    points, lines = best_allocation(supply, [(name, RULES[name]) for name in names])
    assert points == 99
    assert [(line.key, line.sets, line.items) for line in lines] == [
        ("Jeweller", 11, {"gold": 11}), ("Wainwright", 4, {"cart": 4}),
        ("Village Hall", 8, {"kcard:red:-": 7, "kcard:red:sheep": 1}), ("Mercers' Guild", 0, {}),
        ("Craftsmen's Guild", 0, {}),
        ("Stockyard", 3, {"icon:cow": 1, "icon:sheep": 2, "kcard:blue:cow": 1, "kcard:blue:pig": 2,
                          "kcard:blue:sheep": 1, "kcard:yellow:cow": 1, "kcard:yellow:pig": 1}),
        ("Taproom", 7, {"token": 7}), ("Apothecary", 1, {"kcard:blue:-": 4, "kcard:green:-": 1}), ("Dairy", 0, {}),
        ("gold", 0, {})]


def test_only_the_slot_powers_change_what_a_slot_takes():
    """scoring keeps its tables by SLOT_POWERS alone: no other boat power may change a slot."""
    from app.games.key_flow.content import CARDS, SLOT_WORDS
    from app.games.key_flow.scoring import SLOT_POWERS, _accepts
    powers = sorted({c.power for c in CARDS.values() if c.power})
    kinds = KINDS + [f"kcard:{c}:{a}" for c in ("red", "yellow", "blue", "green") for a in ("-", "sheep", "pig", "cow")]
    for n in range(len(powers) + 1):
        for held in itertools.combinations(powers, n):
            pw = frozenset(held)
            for slot in SLOT_WORDS:
                for kind in kinds:
                    assert accepts(slot, kind, pw) == _accepts(slot, kind, pw & SLOT_POWERS) == _accepts(slot, kind, pw)


@pytest.mark.parametrize("powers", [frozenset(), frozenset({"mansfield"}), frozenset({"keymelequin"})])
def test_most_sets_alone_equal_a_matching_grown_set_by_set(powers):
    """_Net.sets_alone counts a variant whose slots share no item kind without a matching
    (and keeps the count by supply): it must equal growing a fresh matching one set at a
    time, for every variant, its slots apart or not (gold fills iron, wood and stone alike;
    the Mansfield fills sheep with pigs)."""
    rnd = random.Random(11)
    variants = list(dict.fromkeys(v for rule in RULES.values() for v in rule))
    apart = sharing = 0
    for _ in range(40):
        supply = {k: rnd.randint(1, 4) for k in rnd.sample(KINDS, rnd.randint(3, 10))}
        net = scoring._Net(supply, [(f"v{i}", (v,)) for i, v in enumerate(variants)], powers)
        scoring._alone.clear()  # each counted afresh
        for i, v in enumerate(variants):
            nodes = net.nodes[i][0]
            m, grown = net.fresh(), 0
            while m.add_set(nodes):
                grown += 1
            assert net.sets_alone(nodes, v) == grown, (supply, v.slots)
            if scoring._apart([net.accept[node] for node in set(nodes)]):
                apart += 1
            else:
                sharing += 1
    assert apart and sharing  # both ways of counting were checked

"""The best winter allocation for one player, computed exactly.

A player's items (resources, skill tiles, keyple tokens, animal icons on village cards,
keyple cards under the store card, boats, transport cards) each go to at most one winter
scoring card; each card completes whole sets of its slots (one chosen variant per card);
unallocated gold scores 1 each. We want the allocation with the most points.

Method: for a fixed choice of (variant, number of sets) on every card, whether the items
can fill all the slots is a bipartite b-matching (slots on one side, item kinds with their
counts on the other), decided exactly by augmenting paths. A depth-first search over the
cards tries every variant and every number of sets, most first, and prunes with each card's
best score on its own. Adding one set to a feasible matching only needs new augmenting
paths (a max flow can be grown from any feasible flow), so each level keeps a snapshot per
number of sets. Unallocated gold is the last "card" (1 point per gold). The brute-force
test in tests/games/key_flow/test_allocation.py checks optimality on small cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .content import ANIMALS, BASIC, SKILLS, Variant

GOLD_SINK = Variant(("gold",), 1, "unallocated gold")


def accepts(slot: str, kind: str, powers: frozenset[str] = frozenset()) -> bool:
    """Can an item of ``kind`` fill a ``slot`` of a winter card (with the owner's boats)?

    Item kinds: a resource or skill name, "token", "boat", "cart", "icon:<animal>" (an animal
    on a village card), "kcard:<colour>:<animal or ->" (a keyple card under the store card).
    """
    known = _accepted.get((slot, kind, powers))
    if known is None:
        known = _accepted[(slot, kind, powers)] = _accepts(slot, kind, powers)
    return known


_accepted: dict[tuple[str, str, frozenset[str]], bool] = {}  # a pure function of few words: asked very often


def _accepts(slot: str, kind: str, powers: frozenset[str]) -> bool:
    if slot in BASIC:
        return kind in (slot, "gold")
    if slot in ("gold", "token", "boat", "cart") or slot in SKILLS:
        return kind == slot
    if slot == "skill":
        return kind in SKILLS
    if kind.startswith("icon:"):
        animal = kind[5:]
    elif kind.startswith("kcard:"):
        _, colour, animal = kind.split(":")
        if slot == "keyple":
            return True
        if slot.startswith("keyple:"):
            want = slot[7:]
            return colour == want or ("keymelequin" in powers and {colour, want} == {"green", "yellow"})
    else:
        return False
    if animal not in ANIMALS:
        return False
    if slot == "animal":
        return True
    if slot in ANIMALS:
        return animal == slot or ("mansfield" in powers and {animal, slot} == {"sheep", "pig"})
    return False


@dataclass
class Line:
    """One scoring card's share of the best allocation."""
    key: str  # the card id (or "gold")
    variant: str
    sets: int
    points: int
    items: dict[str, int] = field(default_factory=dict)


class _Matching:
    """Slots (card index, slot word) matched to item kinds, grown one unit at a time."""

    def __init__(self, supply: dict[str, int], powers: frozenset[str]) -> None:
        self.supply = supply
        self.powers = powers
        self.used = {k: 0 for k in supply}
        self.flow: dict[tuple[int, str], dict[str, int]] = {}
        self._accept: dict[str, list[str]] = {}

    def copy(self) -> "_Matching":
        m = _Matching.__new__(_Matching)
        m.supply, m.powers, m._accept = self.supply, self.powers, self._accept
        m.used = self.used.copy()
        m.flow = {node: f.copy() for node, f in self.flow.items()}
        return m

    def kinds_for(self, slot: str) -> list[str]:
        if slot not in self._accept:
            # exact kinds before gold, so gold is kept for where only gold will do
            self._accept[slot] = sorted((k for k in self.supply if accepts(slot, k, self.powers)),
                                        key=lambda k: k == "gold")
        return self._accept[slot]

    def add(self, node: tuple[int, str]) -> bool:
        """One more unit for this slot, rerouting earlier units if needed."""
        return self._augment(node, set())

    def _augment(self, node: tuple[int, str], seen: set[str]) -> bool:
        kinds = self._accept.get(node[1])
        if kinds is None:
            kinds = self.kinds_for(node[1])
        used, supply = self.used, self.supply
        for kind in kinds:
            if used[kind] < supply[kind] and kind not in seen:
                used[kind] += 1
                f = self.flow.get(node)
                if f is None:
                    self.flow[node] = {kind: 1}
                else:
                    f[kind] = f.get(kind, 0) + 1
                return True
        for kind in kinds:
            if kind in seen:
                continue
            seen.add(kind)
            # no copy of the items needed: flow gains a key only just before returning True
            for other, f in self.flow.items():
                if f.get(kind) and other != node and self._augment(other, seen):  # f.get: a count, never < 0
                    f[kind] -= 1
                    mine = self.flow.setdefault(node, {})
                    mine[kind] = mine.get(kind, 0) + 1
                    return True
        return False

    def add_set(self, index: int, variant: Variant) -> bool:
        """One more set of the variant's slots on card ``index`` (False, part added, when
        the items will not do: callers grow a copy)."""
        for slot in variant.slots:
            if not self._augment((index, slot), set()):
                return False
        return True


def best_allocation(supply: dict[str, int], cards: list[tuple[str, tuple[Variant, ...]]],
                    powers: frozenset[str] = frozenset()) -> tuple[int, list[Line]]:
    """The most points the winter cards and unallocated gold can make from ``supply``
    (item kind -> count), and one allocation reaching it (a line per card, then gold)."""
    supply = {k: n for k, n in sorted(supply.items()) if n > 0}
    # Copies of one winter card are one card with the sets split among them: points are
    # the same per set, so which copy holds a set changes nothing (and the search is
    # spared every split).
    groups: dict[tuple[Variant, ...], list[str]] = {}
    for key, variants in cards:
        groups.setdefault(variants, []).append(key)
    merged = [(keys[0], variants) for variants, keys in groups.items()]
    # Cards that could take none of the same items are independent: each group of cards
    # that share item kinds is searched on its own (exact, and the searches multiply no
    # more). Unallocated gold joins the group that takes gold.
    points, lines, gold_line = 0, [], None
    comps = winter_groups(supply, merged, powers)
    takes_gold = next((i for i, comp in enumerate(comps) if "gold" in comp[1]), None)
    for i, (members, kinds) in enumerate(comps):
        sub = {k: supply[k] for k in supply if k in kinds}
        found, found_lines = exact_search(sub, [merged[j] for j in members], powers, sink=i == takes_gold)
        points += found
        lines += found_lines[:len(members)]
        if i == takes_gold:
            gold_line = found_lines[-1]
    if gold_line is None:
        gold = supply.get("gold", 0)
        gold_line = Line("gold", GOLD_SINK.label, gold, gold, {"gold": gold} if gold else {})
        points += gold
    lines.append(gold_line)
    by_key = {line.key: line for line in lines}
    out = []
    for key, variants in cards:
        keys = groups[variants]
        first = by_key[keys[0]]
        out.append(first if key == keys[0] else Line(key, first.variant, 0, 0, {}))
    return points, out + [lines[-1]]


def winter_groups(supply: dict[str, int], cards: list[tuple[str, tuple[Variant, ...]]],
                  powers: frozenset[str]) -> list[tuple[list[int], set[str]]]:
    """Groups of cards (indices) linked by an item kind two of them could take, each with
    the kinds it could take (in supply order)."""
    takes = []
    for _, variants in cards:
        slots = {slot for v in variants for slot in v.slots}  # each word asked once
        takes.append({k for k in supply if any(accepts(slot, k, powers) for slot in slots)})
    parent = list(range(len(cards)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i
    for i in range(len(cards)):
        for j in range(i):
            if takes[i] & takes[j]:
                parent[root(i)] = root(j)
    groups: dict[int, tuple[list[int], set[str]]] = {}
    for i in range(len(cards)):
        members, kinds = groups.setdefault(root(i), ([], set()))
        members.append(i)
        kinds |= takes[i]
    return list(groups.values())


def exact_search(supply: dict[str, int], cards: list[tuple[str, tuple[Variant, ...]]],
                 powers: frozenset[str], sink: bool = True) -> tuple[int, list[Line]]:
    def sets_alone(variants: tuple[Variant, ...]) -> list[int]:
        return [_max_sets(_Matching(supply, powers), 0, v) for v in variants]
    # The richest cards first: a good allocation is found early and prunes the rest.
    most = [sets_alone(variants) for _, variants in cards]
    richness = [max(k * v.points for k, v in zip(sets, variants)) for sets, (_, variants) in zip(most, cards)]
    order = sorted(range(len(cards)), key=lambda i: -richness[i])
    entries = [cards[i] for i in order] + ([("gold", (GOLD_SINK,))] if sink else [])
    most = [most[i] for i in order] + ([sets_alone((GOLD_SINK,))] if sink else [])
    alone = [max(k * v.points for k, v in zip(sets, variants)) for sets, (_, variants) in zip(most, entries)]
    rest_bound = [sum(alone[i:]) for i in range(len(entries) + 1)]
    # Each slot takes one item: the cards from i on make at most the items left times the
    # most points per slot among them (a second bound; a tighter bound prunes more but
    # finds the same first best allocation in the same order of search).
    rate = [(0, 1)] * (len(entries) + 1)  # (points, slots) of the best points per slot, from i on
    for i in range(len(entries) - 1, -1, -1):
        rate[i] = rate[i + 1]
        for variant in entries[i][1]:
            if variant.points * rate[i][1] > rate[i][0] * len(variant.slots):
                rate[i] = (variant.points, len(variant.slots))
    total = sum(supply.values())

    def rest(i: int, used: int) -> int:
        """At most what the cards from i on can make, with ``used`` items taken before them."""
        per, slots = rate[i]
        return min(rest_bound[i], (total - used) * per // slots)
    best: dict[str, object] = {"points": -1, "choice": None, "matching": None}
    last = len(entries) - 1

    def search(i: int, m: _Matching, points: int, used: int, choice: list[tuple[int, int]]) -> None:
        if points + rest(i, used) <= best["points"]:  # type: ignore[operator]
            return
        if i == len(entries):
            best.update(points=points, choice=list(choice), matching=m)
            return
        for vi, variant in enumerate(entries[i][1]):
            size = len(variant.slots)
            # A card never takes more sets than it could with every item to itself: past
            # that (or when even that cannot beat the best) no matching need be tried.
            if points + most[i][vi] * variant.points + rest(i + 1, used) <= best["points"]:  # type: ignore[operator]
                continue
            if i == last and len(variant.slots) == 1:
                # The last card (unallocated gold, as a rule): only its most sets can beat the
                # best, and a one-slot set that does not fit changes nothing, so one copy grows.
                grown, k = m.copy(), 0
                while k < most[i][vi] and grown.add_set(i, variant):
                    k += 1
                if points + k * variant.points > best["points"]:  # type: ignore[operator]
                    choice.append((vi, k))
                    search(i + 1, grown, points + k * variant.points, used + k * size, choice)
                    choice.pop()
                continue
            snapshots = [m]
            while len(snapshots) <= most[i][vi]:  # grow this card one set at a time while the items allow
                nxt = snapshots[-1].copy()
                if not nxt.add_set(i, variant):
                    break
                snapshots.append(nxt)
            for k in range(len(snapshots) - 1, -1, -1):
                if points + k * variant.points + rest_bound[i + 1] <= best["points"]:  # type: ignore[operator]
                    break
                if points + k * variant.points + rest(i + 1, used + k * size) <= best["points"]:  # type: ignore[operator]
                    continue  # fewer sets leave more items: the next k may still beat the best
                choice.append((vi, k))
                search(i + 1, snapshots[k], points + k * variant.points, used + k * size, choice)
                choice.pop()

    search(0, _Matching(supply, powers), 0, 0, [])
    matching: _Matching = best["matching"]  # type: ignore[assignment]
    lines: list[Line] = []
    for i, ((key, variants), (vi, k)) in enumerate(zip(entries, best["choice"])):  # type: ignore[arg-type]
        items: dict[str, int] = {}
        for (index, _), f in matching.flow.items():
            if index == i:
                for kind, n in f.items():
                    if n:
                        items[kind] = items.get(kind, 0) + n
        lines.append(Line(key, variants[vi].label, k, k * variants[vi].points, dict(sorted(items.items()))))
    by_card = {id(entries[j]): lines[j] for j in range(len(entries))}
    lines = [by_card[id(cards[i])] for i in range(len(cards))] + (lines[-1:] if sink else [])
    return best["points"], lines  # type: ignore[return-value]


def _max_sets(m: _Matching, index: int, variant: Variant) -> int:
    k = 0
    while m.add_set(index, variant):
        k += 1
    return k

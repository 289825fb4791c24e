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
from typing import Iterable

from .content import ANIMALS, BASIC, SKILLS, Variant

GOLD_SINK = Variant(("gold",), 1, "unallocated gold")


def accepts(slot: str, kind: str, powers: frozenset[str] = frozenset()) -> bool:
    """Can an item of ``kind`` fill a ``slot`` of a winter card (with the owner's boats)?

    Item kinds: a resource or skill name, "token", "boat", "cart", "icon:<animal>" (an animal
    on a village card), "kcard:<colour>:<animal or ->" (a keyple card under the store card).
    """
    try:
        return _accepted[powers][slot][kind]  # no key tuple made: asked very often
    except KeyError:
        by_slot = _accepted.get(powers)
        if by_slot is None:  # powers that change no slot share a table (and its answers)
            by_slot = _accepted[powers] = _accepted.setdefault(powers & SLOT_POWERS, {})
        known = by_slot.setdefault(slot, {})[kind] = _accepts(slot, kind, powers)
        return known


_accepted: dict[frozenset[str], dict[str, dict[str, bool]]] = {}  # by powers, slot, kind: a pure function
# the boats' powers that change what a slot takes (``_accepts``): the tables are kept by these
# alone, so villages whose other boats differ share them
SLOT_POWERS = frozenset(("keymelequin", "mansfield"))


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
    """Slots (card, slot word) matched to item kinds, grown one unit at a time.

    Kinds and slots are numbers (``_Net``; the search asks this very often): ``state``
    holds each kind's items left (at 0 .. K-1), then a row of K counts per slot node (a
    node is the offset of its row); ``order`` lists the nodes in the order they first took
    an item, the order rerouting tries them in."""

    __slots__ = ("accept", "state", "order")

    def __init__(self, accept: list[tuple[int, ...]], state: list[int], order: list[int]) -> None:
        self.accept, self.state, self.order = accept, state, order

    def copy(self) -> "_Matching":
        return _Matching(self.accept, self.state.copy(), self.order.copy())

    def _augment(self, node: int, seen: set[int]) -> bool:
        """One more unit for this slot node, rerouting earlier units if needed."""
        state = self.state
        kinds = self.accept[node]
        for kind in kinds:
            if state[kind] and kind not in seen:
                state[kind] -= 1
                state[node + kind] += 1
                if node not in self.order:
                    self.order.append(node)
                return True
        for kind in kinds:
            if kind in seen:
                continue
            seen.add(kind)
            # no copy of the nodes needed: order gains a node only just before returning True
            for other in self.order:
                if state[other + kind] and other != node and self._augment(other, seen):
                    state[other + kind] -= 1
                    state[node + kind] += 1
                    if node not in self.order:
                        self.order.append(node)
                    return True
        return False

    def add_set(self, nodes: tuple[int, ...]) -> bool:
        """One more set of a variant's slots (its nodes on one card) (False, part added, when
        the items will not do: callers grow a copy)."""
        state, order = self.state, self.order
        for node in nodes:
            # _augment's first try, inline (most units go straight to an item left)
            for kind in self.accept[node]:
                if state[kind]:
                    state[kind] -= 1
                    state[node + kind] += 1
                    if node not in order:
                        order.append(node)
                    break
            else:
                if not self._augment(node, set()):
                    return False
        return True


class _Net:
    """The numbers of one search: the item kinds (in supply order), a slot node per (card,
    slot word), and which kinds each node takes (exact kinds before gold, so gold is kept
    for where only gold will do)."""

    def __init__(self, supply: dict[str, int], cards: list[tuple[str, tuple[Variant, ...]]],
                 powers: frozenset[str]) -> None:
        self.kinds = kinds = list(supply)
        names = tuple(kinds)
        width = max(len(kinds), 1)  # rows never overlap, even with no kinds
        at: dict[tuple[int, str], int] = {}
        self.owner: dict[int, int] = {}  # node -> card
        self.accept: list[tuple[int, ...]] = [()] * width
        self.nodes: list[list[tuple[int, ...]]] = []  # by card, by variant: the nodes of one set
        for c, (_, variants) in enumerate(cards):
            per_variant = []
            for variant in variants:
                for slot in variant.slots:
                    if (c, slot) not in at:
                        node = at[(c, slot)] = len(self.accept)
                        self.owner[node] = c
                        self.accept += [_takes(slot, names, powers)] + [()] * (width - 1)
                per_variant.append(tuple(at[(c, slot)] for slot in variant.slots))
            self.nodes.append(per_variant)
        self.key = (tuple(supply.items()), powers)
        self.start = list(supply.values()) + [0] * (len(self.accept) - len(kinds))

    def fresh(self) -> _Matching:
        """A matching that has taken nothing yet."""
        return _Matching(self.accept, self.start.copy(), [])

    def sets_alone(self, nodes: tuple[int, ...], variant: Variant) -> int:
        """The most sets of this variant (its nodes on one card) the items make with no
        other card: the same few supplies recur, so each is matched once."""
        key = (self.key, variant.slots)
        known = _alone.get(key)
        if known is None:
            if len(_alone) > 20000:  # a bound, not a policy
                _alone.clear()
            start = self.start
            # No slot takes more units than its kinds hold: a set past that cannot fit (and
            # the failing search that would say so is spared).
            cap = min([sum(start[:len(self.kinds)]) // len(nodes)]
                      + [sum(start[k] for k in self.accept[node]) // nodes.count(node) for node in set(nodes)])
            if _apart([self.accept[node] for node in set(nodes)]):
                known = cap  # slots taking no kind in common never compete: each fills on its own
            else:
                m, known = self.fresh(), 0
                while known < cap and m.add_set(nodes):
                    known += 1
            _alone[key] = known
        return known

    def items(self, m: _Matching, card: int) -> dict[str, int]:
        """What the matching gives one card, by kind (in kind order)."""
        out: dict[str, int] = {}
        kinds, state = self.kinds, m.state
        for node in m.order:
            if self.owner[node] == card:
                for k, kind in enumerate(kinds):
                    if n := state[node + k]:
                        out[kind] = out.get(kind, 0) + n
        return dict(sorted(out.items()))


def _apart(takes: list[tuple[int, ...]]) -> bool:
    """Do these slots take no item kind in common?"""
    seen: set[int] = set()
    for kinds in takes:
        if not seen.isdisjoint(kinds):
            return False
        seen.update(kinds)
    return True


def _takes(slot: str, kinds: tuple[str, ...], powers: frozenset[str]) -> tuple[int, ...]:
    """The kinds (by number) a slot takes, exact kinds before gold, so gold is kept for where
    only gold will do."""
    powers &= SLOT_POWERS
    known = _taking.get((slot, kinds, powers))
    if known is None:
        if len(_taking) > 20000:  # a bound, not a policy: the same few supplies recur
            _taking.clear()
        taken = _taken_by((slot,), powers, kinds)
        exact = [k for k, kind in enumerate(kinds) if kind in taken and kind != "gold"]
        if "gold" in taken:
            exact.append(kinds.index("gold"))
        known = _taking[(slot, kinds, powers)] = tuple(exact)
    return known


def _taken_by(words: tuple[str, ...], powers: frozenset[str], kinds: Iterable[str]) -> set[str]:
    """The kinds (of ``kinds``) that one of these slot words takes: each (words, kind) asked
    of ``accepts`` once (a card's words take the same few kinds game after game), the kinds
    given matched as sets."""
    powers &= SLOT_POWERS
    known = _tables.get((words, powers))
    if known is None:
        if len(_tables) > 5000:  # a bound, not a policy
            _tables.clear()
        known = _tables[(words, powers)] = (set(), set())
    seen, taken = known
    if not seen.issuperset(kinds):
        for kind in kinds:
            if kind not in seen:
                seen.add(kind)
                if any(accepts(slot, kind, powers) for slot in words):
                    taken.add(kind)
    return taken.intersection(kinds)


# (words, slot powers) -> (every kind weighed for them, those they take)
_tables: dict[tuple[tuple[str, ...], frozenset[str]], tuple[set[str], set[str]]] = {}
_alone: dict[tuple[object, tuple[str, ...]], int] = {}  # (supply, powers, slots) -> most sets alone
_taking: dict[tuple[str, tuple[str, ...], frozenset[str]], tuple[int, ...]] = {}  # a pure function of its words


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
    takes = [_taken_by(tuple({slot: 0 for v in variants for slot in v.slots}), powers, supply)
             for _, variants in cards]
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
    everything = cards + ([("gold", (GOLD_SINK,))] if sink else [])
    net = _Net(supply, everything, powers)

    def sets_alone(card: int) -> list[int]:
        return [net.sets_alone(nodes, variant) for nodes, variant in zip(net.nodes[card], everything[card][1])]
    # The richest cards first: a good allocation is found early and prunes the rest.
    most = [sets_alone(c) for c in range(len(cards))]
    richness = [max(k * v.points for k, v in zip(sets, variants)) for sets, (_, variants) in zip(most, cards)]
    order = sorted(range(len(cards)), key=lambda i: -richness[i])
    picks = order + ([len(cards)] if sink else [])  # the search's cards, by their place in ``everything``
    entries = [everything[c] for c in picks]
    slot_nodes = [net.nodes[c] for c in picks]
    most = [most[i] for i in order] + ([sets_alone(len(cards))] if sink else [])
    alone = [max(k * v.points for k, v in zip(sets, variants)) for sets, (_, variants) in zip(most, entries)]
    rest_bound = [sum(alone[i:]) for i in range(len(entries) + 1)]
    total = sum(supply.values())

    # The cards from i on take only the items of the kinds they could take: at most the
    # supply of those kinds, whatever the cards before them took.
    reach = [0] * (len(entries) + 1)
    kinds: set[int] = set()
    for i in range(len(entries) - 1, -1, -1):
        for nodes in slot_nodes[i]:
            for node in nodes:
                kinds.update(net.accept[node])
        reach[i] = sum([net.start[k] for k in kinds])

    # Each slot takes one item: the cards from i on make at most the items left at the
    # best points per item among them, each card up to its most points alone (a second
    # bound; a tighter bound prunes more but finds the same first best allocation in the
    # same order of search). Each card's best points per item and most points alone, and
    # from i on, best rate first:
    per_card = [(max(v.points / len(v.slots) for v in variants), most_alone)
                for (_, variants), most_alone in zip(entries, alone)]
    rates = [sorted(per_card[i:], reverse=True) for i in range(len(entries) + 1)]

    known = [[-1] * (total + 1) for _ in range(len(entries) + 1)]  # rest(i, used), once asked

    def rest(i: int, used: int) -> int:
        """At most what the cards from i on can make, with ``used`` items taken before them."""
        bound = known[i][used]
        if bound < 0:
            left: float = min(total - used, reach[i])
            got = 0.0
            for r, cap in rates[i]:
                if left * r >= cap:
                    got += cap
                    left -= cap / r
                else:
                    got += left * r
                    break
            bound = known[i][used] = int(got + 1e-9)
        return bound
    best: list = [-1, None, None]  # points, choice, matching
    last = len(entries) - 1

    def search(i: int, m: _Matching, points: int, used: int, choice: list[tuple[int, int]]) -> None:
        # (every call below has checked that the bound can beat the best)
        if i > last:
            best[:] = points, list(choice), m
            return
        variants, slots, most_i = entries[i][1], slot_nodes[i], most[i]
        for vi, variant in enumerate(variants):
            size, worth = len(variant.slots), variant.points
            # A card never takes more sets than it could with every item to itself: past
            # that (or when even that cannot beat the best) no matching need be tried.
            if points + most_i[vi] * worth + rest(i + 1, used) <= best[0]:
                continue
            if i == last and size == 1:
                # The last card (unallocated gold, as a rule): only its most sets can beat the
                # best, and a one-slot set that does not fit changes nothing, so one copy grows
                # (each unit takes one item left: with none left, no search is needed to fail).
                grown, k = m.copy(), 0
                while k < most_i[vi] and used + k < total and grown.add_set(slots[vi]):
                    k += 1
                if points + k * worth > best[0]:
                    choice.append((vi, k))
                    search(i + 1, grown, points + k * worth, used + k, choice)
                    choice.pop()
                continue
            snapshots = [m]
            # grow this card one set at a time while the items allow (a set takes ``size``
            # items left: with fewer left, no search is needed to fail)
            while len(snapshots) <= most_i[vi] and used + len(snapshots) * size <= total:
                nxt = snapshots[-1].copy()
                if not nxt.add_set(slots[vi]):
                    break
                snapshots.append(nxt)
            for k in range(len(snapshots) - 1, -1, -1):
                if points + k * worth + rest_bound[i + 1] <= best[0]:
                    break
                if points + k * worth + rest(i + 1, used + k * size) <= best[0]:
                    continue  # fewer sets leave more items: the next k may still beat the best
                choice.append((vi, k))
                search(i + 1, snapshots[k], points + k * worth, used + k * size, choice)
                choice.pop()

    search(0, net.fresh(), 0, 0, [])
    matching: _Matching = best[2]
    lines: list[Line | None] = [None] * len(everything)  # by card, as given
    for c, (key, variants), (vi, k) in zip(picks, entries, best[1]):
        lines[c] = Line(key, variants[vi].label, k, k * variants[vi].points, net.items(matching, c))
    return best[0], lines  # type: ignore[return-value]




"""Tiny Towns bots: a tiny random one on the state, for tests and benchmarks, and the
strong level's greedy one on a seat's view (``choose_from_view``, below).

The random one picks uniformly among the listed options, but prefers progress: never "cancel" unless
nothing else is offered (so every construction it starts is finished), and it stops
building ("done", "guild-done") only one time in five while something else is offered.
"""

from __future__ import annotations

from functools import lru_cache

from app.games.rng import Rng

from .rules import Game, layouts, listed_ids
from .scoring import score_town
from .town import Cell, Town

Seat = int
STOPS = ("done", "guild-done")
STOP_SET = frozenset(STOPS)


def choose(state: Game, seat: Seat, rng: Rng) -> str:
    """One option id for the seat, drawn from ``rng``."""
    offered = listed_ids(state, seat)  # apply's own list: read, never changed
    if not offered:
        raise ValueError(f"seat {seat} has nothing to choose")
    # (Most lists hold neither "cancel" nor a stop: then both are the list itself.)
    progress = ([o for o in offered if o != "cancel"] or offered) if "cancel" in offered else offered
    onward = progress if STOP_SET.isdisjoint(progress) else [o for o in progress if o not in STOPS]
    # ``rng.choice(items)`` is ``items[rng.randrange(len(items))]``: the same draws, a call less.
    if onward and len(onward) < len(progress) and rng.randrange(5):
        return onward[rng.randrange(len(onward))]
    return progress[rng.randrange(len(progress))]




# --- The strong level: greedy on the town's score, from the seat's view alone ---
#
# ``choose_from_view`` reads the seat's own town (public), the game's building cards, its
# own monument and construction in progress (private) and its options. A town is worth
# its score as the rules count it (buildings scored, every square without one -1) plus how
# near it stands to each card's pattern (cells already holding the pattern's resource in a
# layout that nothing blocks). It places each resource where that worth is highest, names
# the resource that serves it best, builds whenever a building leaves the town worth more
# (the layout and the square chosen the same way), and chooses what a new building asks
# for at random.

NEAR = 3.0  # worth of a pattern one cube from complete, scaled by the square of how full
ROOM = 0.6  # worth of an empty square beyond its -1


def choose_from_view(view: dict, offered: list[dict], rng: Rng) -> str:
    ids = [o["id"] for o in offered]
    if not ids:
        raise ValueError("nothing to choose")
    onward = [o for o in ids if o != "cancel"] or ids
    try:
        pick = Planner(view).choose(onward, rng)
    except (KeyError, ValueError, IndexError, TypeError):  # a corner this planner does not read
        pick = None
    if pick in onward:
        return pick
    progress = [o for o in onward if o not in STOPS] or onward
    return rng.choice(progress)


def cell_of(text: str) -> Cell:
    r, c = text.split(",")
    return (int(r), int(c))


def town_key(town: Town) -> str:
    return repr(town.to_json())


@lru_cache(maxsize=1 << 14)
def _score(key: str, raw: str, right: int | None, cards: tuple[str, ...]) -> int:
    import json
    return score_town(Town.from_json(json.loads(raw)), right_feast_halls=right, game_types=cards).total


class Planner:
    def __init__(self, view: dict) -> None:
        import json
        self.json = json
        self.pub = view["public"]
        self.own = view.get("private") or {}
        self.seat: int = view["seat"]
        players = self.pub["players"]
        self.town = Town.from_json(players[self.seat]["town"])
        self.cards: tuple[str, ...] = tuple(c["id"] for c in self.pub.get("cards", []))
        monument = self.own.get("monument")
        built = players[self.seat].get("monument")
        self.targets = list(self.cards) + ([monument["id"]] if monument and not built else [])
        n = len(players)
        if n == 1:
            self.right = None
        else:
            right = Town.from_json(players[(self.seat - 1) % n]["town"])
            self.right = len(right.cells_of("feast_hall"))

    # --- worth of a town ---

    def score(self, town: Town) -> int:
        raw = self.json.dumps(town.to_json())
        return _score(raw, raw, self.right, self.cards)

    def nearness(self, town: Town) -> float:
        total = 0.0
        for card in self.targets:
            best = 0.0
            for layout in layouts(card):
                have = 0
                for cell, resource in layout:
                    sq = town[cell]
                    if sq.building is not None:
                        break
                    if sq.resource is not None:
                        if sq.resource != resource:
                            break
                        have += 1
                else:
                    frac = have / len(layout)
                    if frac > best:
                        best = frac
            total += NEAR * best * best
        return total

    def worth(self, town: Town) -> float:
        return self.standing(town) + 0.9 * self.best_build(town)[0]

    def standing(self, town: Town) -> float:
        """Score, nearness to patterns, and room: an empty square can still take a cube
        that fits, a cube that fits nothing only costs its point at the end."""
        return self.score(town) + self.nearness(town) + ROOM * len(town.empty_cells())

    # --- building ---

    def full_layouts(self, town: Town, card: str) -> list[tuple[Cell, ...]]:
        found = []
        for layout in layouts(card):
            if all(town[cell].building is None and town[cell].resource == res for cell, res in layout):
                found.append(tuple(cell for cell, _ in layout))
        return found

    def built(self, town: Town, card: str, cells: tuple[Cell, ...], site: Cell) -> Town:
        after = Town.from_json(town.to_json())
        for cell in cells:
            after[cell].resource = None
        after[site].resource = None
        after[site].building = card
        return after

    def site_choices(self, town: Town, card: str, cells: tuple[Cell, ...]) -> list[Cell]:
        if card == "shed":
            return sorted(set(cells) | set(town.empty_cells()))
        return list(cells)

    def best_build(self, town: Town, only: str | None = None,
                   picked: tuple[Cell, ...] = ()) -> tuple[float, str | None, tuple[Cell, ...], Cell | None]:
        """The gain in score of the best single building now (0 when none helps)."""
        base = self.score(town)
        best: tuple[float, str | None, tuple[Cell, ...], Cell | None] = (0.0, None, (), None)
        for card in ([only] if only else self.targets):
            for cells in self.full_layouts(town, card):
                if not set(picked) <= set(cells):
                    continue
                for site in self.site_choices(town, card, cells):
                    gain = self.score(self.built(town, card, cells, site)) - base
                    if gain > best[0] or best[1] is None and only:
                        best = (float(gain), card, cells, site)
        return best

    def after_build_worth(self, card: str, picked: tuple[Cell, ...] = ()) -> tuple[float, tuple[Cell, ...], Cell | None]:
        best: tuple[float, tuple[Cell, ...], Cell | None] = (float("-inf"), (), None)
        for cells in self.full_layouts(self.town, card):
            if not set(picked) <= set(cells):
                continue
            for site in self.site_choices(self.town, card, cells):
                after = self.built(self.town, card, cells, site)
                w = self.standing(after)
                if w > best[0]:
                    best = (w, cells, site)
        return best

    # --- choosing ---

    def choose(self, onward: list[str], rng: Rng) -> str | None:
        phase = self.pub.get("phase")
        if self.own.get("effect"):
            return None  # what a new building asks for: at random
        kinds = {o.split(":", 1)[0] for o in onward}
        if "place" in kinds:
            return self.place([o for o in onward if o.startswith("place:")], self.placing_resource())
        if "name" in kinds or "choose" in kinds:
            return self.name([o for o in onward if o.startswith(("name:", "choose:"))])
        if phase == "build" or self.own.get("construction"):
            return self.build(onward)
        return None

    def placing_resource(self) -> str | None:
        placing = self.own.get("placing") or {}
        return placing.get("switch") or placing.get("take") or placing.get("resource") or self.pub.get("resource")

    def with_cube(self, cell: Cell, resource: str) -> Town:
        town = Town.from_json(self.town.to_json())
        town[cell].resource = resource
        return town

    def place(self, places: list[str], resource: str | None) -> str | None:
        if not places or resource is None:
            return None
        return max(places, key=lambda o: (self.worth(self.with_cube(cell_of(o[6:]), resource)), o))

    def name(self, names: list[str]) -> str | None:
        empty = self.town.empty_cells()
        if not names or not empty:
            return None

        def best_for(o: str) -> float:
            resource = o.split(":", 1)[1]
            return max(self.worth(self.with_cube(cell, resource)) for cell in empty)
        return max(names, key=lambda o: (best_for(o), o))

    def build(self, onward: list[str]) -> str | None:
        con = self.own.get("construction")
        if con:
            card = con["card"]
            picked = tuple(tuple(c) for c in con["picked"])
            _, cells, site = self.after_build_worth(card, picked)  # type: ignore[arg-type]
            picks = [o for o in onward if o.startswith("pick:")]
            if picks:
                for o in picks:
                    if cell_of(o[5:]) in cells:
                        return o
                return picks[0]
            sites = [o for o in onward if o.startswith("site:")]
            if sites:
                after = {o: self.built(self.town, card, picked, cell_of(o[5:])) for o in sites}
                return max(sites, key=lambda o: (self.standing(after[o]), o))
            return None
        builds = {o: self.after_build_worth(o[6:])[0] for o in onward if o.startswith("build:")}
        best = max(builds, key=lambda o: (builds[o], o), default=None)
        if best is not None:  # a building always beats cubes that wait: the town fills up
            return best
        return "done" if "done" in onward else None

"""Keyper balance: bot games per player count, and how the authored content fares in them.

    .venv/bin/python bench/keyper_balance.py [--games 500] [--players 2 3 4] [--workers 2]

For each player count it plays ``--games`` games with the title's bot (seeds 0, 1, 2...)
and prints:

- mean points, the winners' mean, the mean margin, and each seat's share of the wins;
- how often invitations were accepted (of the invitations someone could answer);
- how many times every kind of decision was taken (the option id's prefix; "work" is a keyple
  sent to one's own building, "overbuild" a building put over another, "house" a housing of
  animals chosen, "surplus" keyples chosen for the keyp tile) and in what share of games, and
  the things that happened without a question (animals housed and returned, keyp tiles left);
- every country tile, fair and boat: the games it was available in, the share of those it
  was taken in, and the mean points it brought when taken. A country tile is available
  when it shows in the display and taken when someone takes or builds it; a seasonal fair
  is available when dealt and taken when held; a winter fair is available from summer and
  taken when held; a boat is available in a season it was drawn for and taken when it was
  put on a river. Items taken in under 2% or over 90% of their games are marked.

Numbers, never asserts: this is a benchmark.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import app.games.keyper as kp  # noqa: E402
from app.games.keyper import bot  # noqa: E402
from app.games.keyper.content import BOATS, BUILDINGS, COUNTRY, FAIRS  # noqa: E402
from app.games.keyper.rules import building_scores  # noqa: E402
from app.games.rng import Rng  # noqa: E402

LOW, HIGH = 0.02, 0.90


def kind_of(g: Any, seat: int, choice: str) -> str:
    """The decision's kind: the option id's prefix, with "plot" split into a keyple sent to
    work one's own building ("work") and a building's plot, "overbuild" when one stands there."""
    kind = choice.split(":")[0]
    if kind == "plot" and g.queue and g.queue[0]["do"] == "place":
        return "work"
    if kind == "plot" and g.players[seat].plots[choice.split(":")[1]]["tiles"]:
        return "overbuild"
    return kind


def one_game(args: tuple[int, int]) -> dict[str, Any]:
    """One bot game, watched step by step for what was on offer."""
    players, seed = args
    g = kp.setup(players, {}, seed)
    rng = Rng(seed)
    shown: set[str] = set()
    invitations: set[tuple[int, int, int, str]] = set()
    kinds: Counter[str] = Counter()
    boat_seasons: Counter[str] = Counter()
    boat_taken: Counter[str] = Counter()
    auto: Counter[str] = Counter()
    season, steps = -1, 0
    while kp.result(g) is None:
        shown.update(t for t in g.display if t)
        if g.season != season and g.phase == "play":
            season = g.season
            boat_seasons.update(g.boats)
        if g.queue and g.queue[0]["do"] == "invite":
            job = g.queue[0]
            invitations.add((g.turns, job["active"], job["board"], job["space"]))
        seat = min(kp.to_act(g))
        choice = bot.choose(g, seat, rng)
        kinds[kind_of(g, seat, choice)] += 1
        if choice.startswith("boat:"):
            boat_taken[choice[5:]] += 1
        before = g.log.total
        g = kp.apply(g, seat, choice)
        for line in g.log.lines_since(before):
            if "cannot house" in line:
                auto["animals returned (players)"] += 1
            if "lays down the keyples on their keyp tile" in line and choice != "keyp:now":
                auto["keyp tiles laid at season end"] += 1
        steps += 1
    result = kp.result(g)
    assert result is not None
    taken_tiles: dict[str, int | None] = {}
    for p in g.players:
        scored = building_scores(p)
        for pid, plot in p.plots.items():
            for i, t in enumerate(plot["tiles"]):
                if t in COUNTRY:
                    taken_tiles[t] = sum(scored.get(pid, (0, 0))) if i == len(plot["tiles"]) - 1 else 0
        for t in p.held:
            taken_tiles[t] = None  # taken, never built: no points to count
        auto["animals housed"] += sum(n for animals in p.housed.values() for n in animals.values())
        auto["overbuilt plots"] += sum(len(plot["tiles"]) == 2 for plot in p.plots.values())
    fairs_available = ({f for p in g.players for f in p.fairs.values()} | set(g.fair_out)
                       | {f["id"] for p in g.players for f in p.shown}
                       | {f for f, fair in FAIRS.items() if fair.season == "winter"})
    return {
        "players": players, "steps": steps, "scores": [s.score for s in result.scores],
        "winners": result.winners, "kinds": kinds, "auto": auto, "invitations": len(invitations),
        "joins": kinds["join"], "shown": shown, "taken_tiles": taken_tiles,
        "fairs_available": fairs_available, "held": {f["id"]: f["points"] for p in g.players for f in p.shown},
        "boat_seasons": boat_seasons, "boat_taken": boat_taken,
    }


def run(players: int, games: int, workers: int) -> list[dict[str, Any]]:
    jobs = [(players, seed) for seed in range(games)]
    if workers <= 1:
        return [one_game(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one_game, jobs, chunksize=8))


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}%" if d else "    -"


def flag(n: int, d: int) -> str:
    if not d:
        return ""
    share = n / d
    return "  << under 2%" if share < LOW else "  << over 90%" if share > HIGH else ""


def report(players: int, games: list[dict[str, Any]]) -> None:
    n = len(games)
    scores = [s for g in games for s in g["scores"]]
    winners = [max(g["scores"]) for g in games]
    margins = [sorted(g["scores"])[-1] - sorted(g["scores"])[-2] for g in games]
    seat_wins = Counter(w for g in games for w in g["winners"])
    print(f"\n## {players} players, {n} bot games")
    print(f"decisions per game: median {statistics.median(g['steps'] for g in games):g} "
          f"({min(g['steps'] for g in games)}–{max(g['steps'] for g in games)})")
    print(f"points: mean {statistics.mean(scores):.1f} (sd {statistics.pstdev(scores):.1f}); winners' mean "
          f"{statistics.mean(winners):.1f}; mean margin {statistics.mean(margins):.1f}")
    print("winners' share by seat: " + ", ".join(f"seat {s + 1} {pct(seat_wins[s], n)}" for s in range(players)))
    invites = sum(g["invitations"] for g in games)
    joins = sum(g["joins"] for g in games)
    print(f"invitations someone could answer: {invites}; accepted {joins} ({pct(joins, invites).strip()})")
    kinds: Counter[str] = Counter()
    for g in games:
        kinds.update(g["kinds"])
    in_games: Counter[str] = Counter()
    for g in games:
        in_games.update(set(g["kinds"]))
    print("decisions taken: kind, per game, share of games taking it at least once")
    for k, v in sorted(kinds.items()):
        print(f"  {k:10} {v / n:6.1f}  {pct(in_games[k], n)}")
    never = sorted({"keyper", "keyple", "space", "boat", "plot", "work", "join", "decline", "lay", "pair", "keyp",
                    "take", "build", "overbuild", "upgrade", "winter", "get", "sell", "use", "fair", "fold", "house",
                    "surplus"} - set(kinds))
    print(f"decision kinds never taken: {', '.join(never) or 'none'}")
    auto: Counter[str] = Counter()
    for g in games:
        auto.update(g["auto"])
    print("automatic steps (per game): " + ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(auto.items())))

    print("\ncountry tiles (available in / taken in / mean points when built, 0 if overbuilt):")
    avail: Counter[str] = Counter()
    took: Counter[str] = Counter()
    points: dict[str, list[int]] = defaultdict(list)
    for g in games:
        for t in g["shown"] | set(g["taken_tiles"]):
            avail[t] += 1
        for t, pts in g["taken_tiles"].items():
            took[t] += 1
            if pts is not None:
                points[t].append(pts)
    for t in sorted(COUNTRY, key=lambda t: int(t[1:])):
        b = BUILDINGS[t]
        mean = f"{statistics.mean(points[t]):4.1f}" if points[t] else "   -"
        print(f"  {t:4} {b.front.name:18} {b.area:7} {b.season:6} {avail[t]:5} {pct(took[t], avail[t])} "
              f"{mean}{flag(took[t], avail[t])}")

    print("\nfairs (available in / held in / points):")
    f_avail: Counter[str] = Counter()
    f_held: Counter[str] = Counter()
    for g in games:
        f_avail.update(g["fairs_available"])
        f_held.update(list(g["held"]))
    for f in sorted(FAIRS):
        print(f"  {f:4} {FAIRS[f].season:6} {f_avail[f]:5} {pct(f_held[f], f_avail[f])}{flag(f_held[f], f_avail[f])}")

    print("\nboats (seasons on offer / put on a river):")
    b_seen: Counter[str] = Counter()
    b_taken: Counter[str] = Counter()
    for g in games:
        b_seen.update(g["boat_seasons"])
        b_taken.update(g["boat_taken"])
    for b in sorted(BOATS):
        print(f"  {b} {BOATS[b].name:14} {b_seen[b]:5} {pct(b_taken[b], b_seen[b])}{flag(b_taken[b], b_seen[b])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for players in args.players:
        report(players, run(players, args.games, args.workers))


if __name__ == "__main__":
    main()

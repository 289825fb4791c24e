"""Key Harvest workers: how each worker's power fares in bot games, per player count.

    .venv/bin/python bench/key_harvest_workers.py [--games 300] [--players 2 3 4] [--workers 2]

Plays ``--games`` games per player count with the title's state bot (``bot.choose``) in
every seat, seeds 0, 1, 2... (the bot's choices are drawn from ``Rng(seed)``), and prints
two tables per player count. Farmhands are counted together over the four colours.

**Value** (counter-equivalents) is what a seat holds, weighed as a designer would price it:

    1 per counter behind its screen
    2 per field tile on its country board (what a tile costs: a bid and two actions)
    0.5 per unharvested field on its board (a counter still to be harvested, with an action)
    1.5 per tile in its store (on its way to the board: one more action; its bid is spent)

Bids lying in a store count nothing (they are paid already); points are not used, since
the big-group points of a tile depend on the whole board. A power's **gain** is the change
of its player's value from the moment the worker is put on its space until the power and
everything it started (a registry refill, an event drawn by it, a counter of any crop when
one ran out) is over. **Swing** is the gain minus the mean change of the other seats' value
over the same steps (a power that takes from another player swings more than it gains).
A power **did nothing** when nothing but the worker changed: every screen, board, store,
the supply, registry and fallow fields are as before.

1. "bot games": every time a worker was put on a space by the bot (played, or re-placed
   after a field tile landed on it): how often per game, mean gain and swing, the share of
   plays that did nothing, and the **winners' share**: of the seats that played it at least
   once in a game, the share that won (ties count as wins; compare with 1/players).
2. "probe at a random legal space": the audit's measure. At the start of every third turn
   of those games, every worker the turn player could play is played, in a copy of the
   game, on a space drawn at random among its legal ones, and its power is answered by the
   bot; gain, swing and "did nothing" as above. This measures the power, not the bot's
   taste for it.

Numbers, never asserts: this is a benchmark.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import app.games.key_harvest as kh  # noqa: E402
from app.games.key_harvest import bot  # noqa: E402
from app.games.key_harvest.content import FARMHANDS, TOWNSFOLK, WORKERS  # noqa: E402
from app.games.key_harvest.rules import PLAY, Game  # noqa: E402
from app.games.rng import Rng  # noqa: E402

PROBE_EVERY = 3  # probe at the start of every third turn
MAX_STEPS = 400  # one power's steps, at most (a safety net; never reached in practice)


def kind_of(worker_id: str) -> str:
    """A farmhand's key without its colour ("carter"); a townsfolk's id."""
    return worker_id.split("-", 1)[1] if worker_id in FARMHANDS else worker_id


KINDS = sorted({kind_of(w) for w in WORKERS}, key=lambda k: (
    WORKERS[next(w for w in WORKERS if kind_of(w) == k)].value, k))


def value(g: Game, seat: int) -> float:
    p = g.players[seat]
    return (sum(p.counters.values()) + 2 * len(p.fields) + 0.5 * sum(not h for h in p.fields.values())
            + 1.5 * len(p.store))


def fingerprint(g: Game) -> str:
    """Everything a power can change, without the workers themselves."""
    return json.dumps([[p.counters, p.fields, p.store] for p in g.players]
                      + [g.supply, g.registry, sorted(g.fallow)], sort_keys=True)


def placing(g: Game, option: str) -> str | None:
    """The worker this choice puts on a space, if it is one."""
    if option.startswith("space:") and g.queue and g.queue[0]["do"] == "place":
        return g.queue[0]["worker"]
    return None


def resolve(g: Game, seat: int, rest: int, rng: Rng) -> Game:
    """Let the bots answer every step until the power's steps are over (the queue is back to
    ``rest`` steps, or the game ended)."""
    for _ in range(MAX_STEPS):
        if g.phase != PLAY or len(g.queue) <= rest:
            return g
        who = min(kh.to_act(g))
        g = kh.apply(g, who, bot.choose(g, who, rng))
    return g


def measure(before: Game, after: Game, seat: int) -> tuple[float, float, bool]:
    gain = value(after, seat) - value(before, seat)
    others = [s for s in range(len(before.players)) if s != seat]
    theirs = statistics.mean(value(after, s) - value(before, s) for s in others)
    return gain, gain - theirs, fingerprint(before) == fingerprint(after)


def probe(g: Game, rng: Rng) -> list[tuple[str, float, float, bool]]:
    """Every playable worker of the turn player, played at a random legal space (copies)."""
    out = []
    seat = g.turn
    for play in [o.id for o in kh.options(g, seat) if o.id.startswith("play:")]:
        g1 = kh.apply(g, seat, play)
        spaces = [o.id for o in kh.options(g1, seat) if o.id.startswith("space:")]
        if not spaces:
            continue
        rest = len(g1.queue) - 1
        g2 = resolve(kh.apply(g1, seat, rng.choice(spaces)), seat, rest, rng)
        out.append((kind_of(play.removeprefix("play:")), *measure(g, g2, seat)))
    return out


def one_game(args: tuple[int, int]) -> dict[str, Any]:
    players, seed = args
    g = kh.setup(players, {}, seed)
    rng, probe_rng = Rng(seed), Rng(seed + 1_000_003)
    plays: list[tuple[int, str, float, float, bool]] = []
    probes: list[tuple[str, float, float, bool]] = []
    window: tuple[int, str, Game, int] | None = None  # seat, worker kind, state before, steps left
    steps = 0
    last_probe = -1
    while kh.result(g) is None:
        if (g.phase == PLAY and not g.queue and not g.used and g.turns % PROBE_EVERY == 0
                and g.turns != last_probe and window is None):
            last_probe = g.turns
            probes.extend(probe(g, probe_rng))
        seat = min(kh.to_act(g))
        choice = bot.choose(g, seat, rng)
        worker = placing(g, choice)
        if worker is not None and window is None:
            window = (seat, kind_of(worker), g, len(g.queue) - 1)
        g = kh.apply(g, seat, choice)
        steps += 1
        if window is not None and (g.phase != PLAY or len(g.queue) <= window[3]):
            who, kind, before, _ = window
            plays.append((who, kind, *measure(before, g, who)))
            window = None
    result = kh.result(g)
    assert result is not None
    return {"players": players, "steps": steps, "winners": list(result.winners), "plays": plays, "probes": probes}


def run(players: int, games: int, workers: int) -> list[dict[str, Any]]:
    jobs = [(players, seed) for seed in range(games)]
    if workers <= 1:
        return [one_game(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one_game, jobs, chunksize=8))


def label(kind: str) -> str:
    w = WORKERS[kind] if kind in TOWNSFOLK else next(w for w in FARMHANDS.values() if kind_of(w.id) == kind)
    return f"{w.name} ({w.value}, {w.mark})"


def mean(xs: list[float]) -> str:
    return f"{statistics.mean(xs):5.2f}" if xs else "    -"


def pct(n: float, d: float) -> str:
    return f"{100 * n / d:5.1f}%" if d else "     -"


def report(players: int, games: list[dict[str, Any]]) -> None:
    n = len(games)
    print(f"\n## {players} players, {n} bot games (decisions per game: median "
          f"{statistics.median(g['steps'] for g in games):g})")
    print("\nbot games: plays per game, mean gain and swing per play, did nothing, winners' share "
          f"(1/{players} = {100 / players:.1f}%)")
    print(f"  {'worker':34} {'plays/g':>7} {'gain':>6} {'swing':>6} {'nothing':>8} {'winners':>8} {'seats':>6}")
    by: dict[str, list[tuple[float, float, bool]]] = defaultdict(list)
    players_of: dict[str, int] = defaultdict(int)
    winners_of: dict[str, int] = defaultdict(int)
    for g in games:
        seen: set[tuple[int, str]] = set()
        for seat, kind, gain, swing, nothing in g["plays"]:
            by[kind].append((gain, swing, nothing))
            seen.add((seat, kind))
        for seat, kind in seen:
            players_of[kind] += 1
            winners_of[kind] += seat in g["winners"]
    for kind in KINDS:
        rows = by[kind]
        print(f"  {label(kind):34} {len(rows) / n:7.2f} {mean([r[0] for r in rows]):>6} {mean([r[1] for r in rows]):>6} "
              f"{pct(sum(r[2] for r in rows), len(rows)):>8} {pct(winners_of[kind], players_of[kind]):>8} {players_of[kind]:6}")
    print("\nprobe at a random legal space: probes, mean gain and swing, did nothing, gain spread (10th–90th)")
    print(f"  {'worker':34} {'probes':>7} {'gain':>6} {'swing':>6} {'nothing':>8} {'spread':>12}")
    pr: dict[str, list[tuple[float, float, bool]]] = defaultdict(list)
    for g in games:
        for kind, gain, swing, nothing in g["probes"]:
            pr[kind].append((gain, swing, nothing))
    for kind in KINDS:
        rows = pr[kind]
        gains = sorted(r[0] for r in rows)
        spread = f"{gains[len(gains) // 10]:.1f}–{gains[(9 * len(gains)) // 10]:.1f}" if gains else "-"
        print(f"  {label(kind):34} {len(rows):7} {mean(gains):>6} {mean([r[1] for r in rows]):>6} "
              f"{pct(sum(r[2] for r in rows), len(rows)):>8} {spread:>12}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for players in args.players:
        report(players, run(players, args.games, args.workers))


if __name__ == "__main__":
    main()

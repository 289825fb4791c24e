"""Key Flow content balance, measured over bot games (no server, no database).

    .venv/bin/python bench/key_flow_balance.py [--games 500] [--players 2,4,6] [--top 0] [--workers 2]
    .venv/bin/python bench/key_flow_balance.py --against /tmp/old_bot.py --games 400 --players 3,4 --new-seats 1

For every card design (cards are counted by name; copies add up) and each player count:

- offered  how many times it was in a hand when its holder picked a card
- kept     how often it was picked when offered (kept when drafted)
- played   how often, once picked, it was played (built or put on a building), not discarded
- upgraded upgrades paid on it, per copy built
- points   mean points it brought at the end, per copy built (live panel, store, or the
           winter allocation's points for a winter card; keyple cards: none)
- win      of the players who played it, the share who won (a fair share is 1/players)

Then every kind of decision the bot took (village cards by row, keyple cards in its own
or a neighbour's village, tokens, transport, upgrades, flips, discards, resources, skill
payments), mean points and score parts, winners' mean, game length and games per second.

With ``--against FILE`` (a copy of ``app/games/key_flow/bot.py`` from before a change, kept
outside the repository), it plays this bot against that one instead (``head_to_head``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import app.games.key_flow as kf  # noqa: E402
from app.games.key_flow.bot import choose  # noqa: E402
from app.games.key_flow.content import CARDS  # noqa: E402
from app.games.key_flow.rules import DRAFT, find  # noqa: E402
from app.games.rng import Rng  # noqa: E402


def play(players: int, seed: int, stats: dict) -> tuple[kf.Game, int]:
    g = kf.setup(players, {}, seed)
    rng, seats = Rng(seed), Rng(seed + 1)
    decisions = 0
    played_by: dict[int, set[str]] = defaultdict(set)
    while kf.result(g) is None:
        seat = seats.choice(sorted(kf.to_act(g)))
        p = g.players[seat]
        option = choose(g, seat, rng)
        kind = option.split(":")[0]
        if kind == "pick" and g.phase == DRAFT:
            for cid in p.hand:
                stats["offered"][CARDS[cid].name] += 1
            stats["kept"][CARDS[option[5:]].name] += 1
        elif g.phase == DRAFT and p.choosing:
            name = CARDS[p.choosing].name
            if kind == "discard":
                stats["decisions"]["discard for a token"] += 1
            else:
                stats["played"][name] += 1
                played_by[seat].add(name)
                if kind == "on":
                    own = int(option.split(":")[1]) == seat
                    stats["decisions"]["keyple card, own village" if own else "keyple card, neighbour's village"] += 1
                else:
                    stats["decisions"][f"village card, {kind} row"] += 1
        elif kind in ("upgrade", "flip"):
            stats["decisions"][kind] += 1
            if kind == "upgrade":
                stats["upgraded"][CARDS[find(p, option[8:])["card"]].name] += 1
        elif kind in ("move", "token", "take", "pay", "skip", "stop", "done"):
            stats["decisions"][{"move": "transport move", "token": "keyple token activation", "take": "resource of choice",
                                "pay": "skill tile paid", "skip": "conversion skipped", "stop": "stop",
                                "done": "done with tokens"}[kind]] += 1
        elif kind == "pick":
            stats["decisions"]["winter K card"] += 1
        g = kf.apply(g, seat, option)
        decisions += 1
    result = kf.result(g)
    for f in g.final:
        p = g.players[f["seat"]]
        for e in p.village:
            c = CARDS[e["card"]]
            if c.season == "home":
                continue
            stats["built"][c.name] += 1
            stats["points"][c.name] += c.panels[len(e["tiles"])].points + c.store_points * sum(e["stored"].values())
        for line in f["allocation"]:
            if line["card"] in CARDS:
                stats["points"][CARDS[line["card"]].name] += line["points"]
        won = f["seat"] in result.winners
        for name in played_by[f["seat"]]:
            stats["played_games"][name] += 1
            stats["won_games"][name] += won
        stats["score"].append(f["score"])
        for part, n in f["breakdown"].items():
            stats["parts"][part] += n
        if won:
            stats["winner_score"].append(f["score"])
    return g, decisions


def new_stats() -> dict:
    stats: dict = defaultdict(Counter)
    stats["score"], stats["winner_score"], stats["lengths"] = [], [], []
    return stats


def play_seeds(job: tuple[int, list[int], float]) -> dict:
    """Play these seeds in this process (one worker's share); stop early past ``seconds``."""
    players, seeds, seconds = job
    stats = new_stats()
    start = time.perf_counter()
    for seed in seeds:
        _, n = play(players, seed, stats)
        stats["lengths"].append(n)
        if seconds and time.perf_counter() - start > seconds:  # a time budget on a busy machine
            break
    return dict(stats)


def merge(parts: list[dict]) -> dict:
    stats = new_stats()
    for part in parts:
        for key, value in part.items():
            if isinstance(value, list):
                stats[key] += value
            else:
                stats[key].update(value)
    return stats


def report(players: int, games: int, top: int, seconds: float = 0.0, workers: int = 1) -> None:
    start = time.perf_counter()
    jobs = [(players, list(range(w, games, workers)), seconds) for w in range(workers)]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            stats = merge(pool.map(play_seeds, jobs))
    else:
        stats = merge([play_seeds(jobs[0])])
    lengths = stats["lengths"]
    elapsed = time.perf_counter() - start
    games = len(lengths)
    print(f"\n## {players} players: {games} bot games, {games / elapsed:.2f} games/s ({workers} worker"
          f"{'s' if workers > 1 else ''}), "
          f"{statistics.median(lengths):g} decisions per game ({min(lengths)}–{max(lengths)})")
    seats = games * players
    print(f"mean score {statistics.mean(stats['score']):.1f}, winners' mean {statistics.mean(stats['winner_score']):.1f}; "
          "mean parts: " + ", ".join(f"{k} {v / seats:.1f}" for k, v in stats["parts"].items()))
    print("decisions per game: " + ", ".join(f"{k} {v / games:.1f}" for k, v in sorted(stats["decisions"].items())))
    never = [k for k in ("village card, road row", "village card, river row", "keyple card, own village",
                         "keyple card, neighbour's village", "keyple token activation", "transport move", "upgrade",
                         "flip", "discard for a token") if not stats["decisions"][k]]
    print("decision kinds never taken: " + (", ".join(never) if never else "none"))
    print(f"{'card':20} {'offered':>8} {'kept':>6} {'played':>7} {'upgr/copy':>9} {'pts/copy':>9} {'win':>6}")
    names = sorted({c.name for c in CARDS.values() if c.season != "home"},
                   key=lambda n: -stats["points"][n] / max(1, stats["built"][n]))
    for name in names[:top or None]:
        offered, kept, played = stats["offered"][name], stats["kept"][name], stats["played"][name]
        built = stats["built"][name]
        win = stats["won_games"][name] / stats["played_games"][name] if stats["played_games"][name] else 0
        print(f"{name[:20]:20} {offered:8} {kept / max(1, offered):6.0%} {played / max(1, kept):7.0%} "
              f"{stats['upgraded'][name] / max(1, built):9.2f} {stats['points'][name] / max(1, built):9.1f} {win:6.0%}")


def head_to_head(path: str, players: int, games: int, new_seats: int, first: int = 5000) -> None:
    """This bot against another version of it (a copy of bot.py loaded from ``path``, e.g. the
    bot before a change, kept outside the repository): seeded games, the new bot in seats
    (seed + i) % players for i < new_seats, each bot with its own Rng. Prints both kinds of
    seat's mean score and the new seats' share of wins (a shared win counts 1/winners)
    against the fair new_seats / players, with its standard error."""
    import importlib.util
    import math
    spec = importlib.util.spec_from_file_location("app.games.key_flow._other_bot", path)
    assert spec is not None and spec.loader is not None
    other = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(other)  # (its relative imports resolve in app.games.key_flow)
    mine: list[int] = []
    theirs: list[int] = []
    shares = []
    for seed in range(first, first + games):
        g = kf.setup(players, {}, seed)
        new = {(seed + i) % players for i in range(new_seats)}
        rngs, seats = {True: Rng(seed * 7 + 1), False: Rng(seed * 7 + 2)}, Rng(seed + 1)
        while kf.result(g) is None:
            seat = seats.choice(sorted(kf.to_act(g)))
            g = kf.apply(g, seat, (choose if seat in new else other.choose)(g, seat, rngs[seat in new]))
        result = kf.result(g)
        for s in result.scores:
            (mine if s.seat in new else theirs).append(s.score)
        shares.append(sum(w in new for w in result.winners) / len(result.winners))
    share = statistics.mean(shares)
    error = statistics.stdev(shares) / math.sqrt(games)
    print(f"{players} players, {games} games, {new_seats} seat(s) of this bot: mean score {statistics.mean(mine):.2f} "
          f"against {statistics.mean(theirs):.2f}; its share of wins {share:.1%} (fair {new_seats / players:.1%}, "
          f"standard error {error:.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=500, help="bot games per player count")
    parser.add_argument("--players", default="2,4,6")
    parser.add_argument("--top", type=int, default=0, help="only the N cards with the most points per copy")
    parser.add_argument("--seconds", type=float, default=0.0, help="stop a player count early after this long")
    parser.add_argument("--workers", type=int, default=1, help="processes playing games side by side")
    parser.add_argument("--against", help="instead: play head to head against this copy of bot.py")
    parser.add_argument("--new-seats", type=int, default=1, help="with --against: seats of this bot per game")
    args = parser.parse_args()
    for players in (int(x) for x in args.players.split(",")):
        if args.against:
            head_to_head(args.against, players, args.games, args.new_seats)
        else:
            report(players, args.games, args.top, args.seconds, args.workers)


if __name__ == "__main__":
    main()

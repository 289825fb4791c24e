"""Key Flow twin games: every hidden thing — a hand, the card chosen this turn until all
have chosen, the winter K cards, the cards under a store card, the order of a deck, the K
cards removed unseen and the face-down skill tile pile.

The long-lived secrets (winter K cards, cards under a store card, the summer deck) start
from a position a bot game reached, a different season for each seed, so the seeds
together still cover every phase the secret lives through while each pair is driven over
a shorter stretch (comparing every view at every step is the cost of these tests).
"""

from __future__ import annotations

import app.games.key_flow as kf
from app.games.key_flow.content import CARDS
from app.games.key_flow.bot import choose
from app.games.key_flow.rules import DRAFT, OVER, Game
from app.games.rng import Rng

from ..twins import Twins


def players_for(seed: int) -> int:
    return 2 + seed % 5  # 2 to 6 seats


def reached(players: int, seed: int, done) -> Game:
    """A game played by the bot from setup until ``done(game)`` holds."""
    g = kf.setup(players, {}, seed)
    rng = Rng(seed)
    while not done(g):
        seat = min(kf.to_act(g))
        g = kf.apply(g, seat, choose(g, seat, rng))
    return g


def season_start(players: int, seed: int, season: int) -> Game:
    """The first draft turn of a season (0 spring .. 3 winter), reached by bot play."""
    return reached(players, seed, lambda g: g.season == season and g.phase == DRAFT and g.turn == 0
                   and not any(p.chosen or p.choosing for p in g.players))


def late_spring(players: int, seed: int) -> Game:
    """Spring with one to three cards left in each hand (its last turns)."""
    left = 1 + seed % 3
    return reached(players, seed, lambda g: g.season == 0 and g.phase == DRAFT and len(g.players[0].hand) <= left
                   and not any(p.chosen or p.choosing for p in g.players))


def others_same_hands(ga: Game, gb: Game, holder: int) -> bool:
    return all(ga.players[s].hand == gb.players[s].hand for s in range(len(ga.players)) if s != holder)


def hand(seed: int) -> Twins:
    """One card of seat 1's hand is another card (from the face-down autumn deck) in the twin."""
    players = players_for(seed)
    a = kf.setup(players, {}, seed)
    b = kf.load(kf.dump(a))
    outside = b.decks["autumn"][0]
    mine = b.players[1].hand[seed % len(b.players[1].hand)]
    b.players[1].hand = sorted([c for c in b.players[1].hand if c != mine] + [outside],
                               key=lambda c: (CARDS[c].name, c))
    b.decks["autumn"][0] = mine

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.players[1].hand != gb.players[1].hand and others_same_hands(ga, gb, 1)

    return Twins("key-flow", players, a, b, holder=1, hidden=hidden, what=f"seat 1 holds {outside} instead of {mine}")


def chosen_card(seed: int) -> Twins:
    """Seat 1 has chosen (and discards) one card in one game, another card in the twin."""
    players = players_for(seed)
    g = kf.setup(players, {}, seed)
    first, second = g.players[1].hand[:2]
    a = kf.apply(kf.apply(g, 1, f"pick:{first}"), 1, "discard")
    b = kf.apply(kf.apply(g, 1, f"pick:{second}"), 1, "discard")

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.players[1].chosen is not None and ga.players[1].chosen != gb.players[1].chosen

    return Twins("key-flow", players, a, b, holder=1, hidden=hidden, what=f"seat 1 chose {first} or {second}")


def chosen_use(seed: int) -> Twins:
    """Seat 1 has chosen the same card but a different use (build it, or discard it)."""
    players = players_for(seed)
    g = kf.setup(players, {}, seed)
    card = next(c for c in g.players[1].hand if CARDS[c].kind != "keyple")
    g = kf.apply(g, 1, f"pick:{card}")
    build = next(o.id for o in kf.options(g, 1) if o.kind == "build")
    a, b = kf.apply(g, 1, build), kf.apply(g, 1, "discard")

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.players[1].chosen is not None and ga.players[1].chosen != gb.players[1].chosen

    return Twins("key-flow", players, a, b, holder=1, hidden=hidden, what=f"seat 1 builds or discards {card}")


def winter_k(seed: int) -> Twins:
    """One of seat 1's winter K cards is another (one returned to the box) in the twin."""
    players = 2 + seed % 4  # with 6 players every winter K card is dealt
    a = season_start(players, seed, (2, 1, 0)[seed % 3])  # autumn, summer or spring
    b = kf.load(kf.dump(a))
    outside = next(c for c in b.box if CARDS[c].season == "winter" and CARDS[c].name not in
                   {CARDS[x].name for x in b.players[1].winter_k})
    mine = b.players[1].winter_k[0]
    b.players[1].winter_k = sorted(b.players[1].winter_k[1:] + [outside], key=lambda c: (CARDS[c].name, c))
    b.box[b.box.index(outside)] = mine

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.players[1].winter_k != gb.players[1].winter_k

    return Twins("key-flow", players, a, b, holder=1, hidden=hidden, steps=260,
                 what=f"seat 1's winter K card {mine} is {outside} (from the {a.season + 1}. season)")


def under_store(seed: int) -> Twins:
    """Seat 1's store card hides a different keyple card in the twin (from the box)."""
    players = 2 + seed % 4
    a = season_start(players, seed, (3, 2, 1, 0)[seed % 4])  # winter, autumn, summer, spring
    keyples = [c for c in a.box if CARDS[c].kind == "keyple"]
    first = keyples[0]
    second = next(c for c in keyples if CARDS[c].colour != CARDS[first].colour)
    b = kf.load(kf.dump(a))
    for g, kept in ((a, first), (b, second)):
        g.box.remove(kept)
        g.players[1].under_store = sorted(g.players[1].under_store + [kept], key=lambda c: (CARDS[c].name, c))

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.phase != OVER and ga.players[1].under_store != gb.players[1].under_store

    return Twins("key-flow", players, a, b, holder=1, hidden=hidden, steps=160,
                 what=f"seat 1's store card hides {first} or {second} (from the {a.season + 1}. season)")


def deck_order(seed: int) -> Twins:
    """Two cards of the summer deck trade places (nobody knows the order), from spring's
    last turns to the summer deal."""
    players = players_for(seed)
    a = late_spring(players, seed)
    b = kf.load(kf.dump(a))
    deck = b.decks["summer"]
    i = next(i for i in range(len(deck) - 1, 0, -1) if CARDS[deck[i]].name != CARDS[deck[0]].name)
    deck[0], deck[i] = deck[i], deck[0]

    def hidden(ga: Game, gb: Game) -> bool:
        return ga.decks["summer"] != gb.decks["summer"]

    return Twins("key-flow", players, a, b, holder=None, hidden=hidden, steps=600,
                 what=f"summer deck cards 1 and {i + 1} swapped")


def removed_k(seed: int) -> Twins:
    """A summer K card removed unseen trades places with one in the summer deck (from
    spring's last turns to the summer deal)."""
    players = 2 + seed % 4
    a = late_spring(players, seed)
    b = kf.load(kf.dump(a))
    out = next(c for c in b.box if CARDS[c].season == "summer")
    i = next(i for i, c in enumerate(b.decks["summer"]) if CARDS[c].name != CARDS[out].name)
    b.box[b.box.index(out)], b.decks["summer"][i] = b.decks["summer"][i], out

    def hidden(ga: Game, gb: Game) -> bool:
        return sorted(ga.decks["summer"]) != sorted(gb.decks["summer"])

    return Twins("key-flow", players, a, b, holder=None, hidden=hidden, steps=600,
                 what=f"removed {out} and summer deck card {i + 1} swapped")


def skill_pile(seed: int) -> Twins:
    """The face-down skill tile pile in another order."""
    players = players_for(seed)
    a = kf.setup(players, {}, seed)
    b = kf.load(kf.dump(a))
    pile = b.skill_pile
    i = next(i for i in range(1, len(pile)) if pile[i] != pile[0])
    pile[0], pile[i] = pile[i], pile[0]

    def hidden(ga: Game, gb: Game) -> bool:
        same_tiles = all(p.skills == q.skills for p, q in zip(ga.players, gb.players))
        return ga.skill_pile != gb.skill_pile and same_tiles

    return Twins("key-flow", players, a, b, holder=None, hidden=hidden, steps=600,
                 what=f"skill tiles 1 and {i + 1} swapped")


CASES = [hand, chosen_card, chosen_use, winter_k, under_store, deck_order, removed_k, skill_pile]

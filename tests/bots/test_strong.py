"""The strong level of every title that has one (``app.bots.levels.strong_titles()``): it
finishes games from its seat's view alone and beats the random level in most of them.

Whole games run through the rules (``app.bots.arena``), seeded, so each test is the same
every run; bench/bot_strength.py plays the long series."""

from __future__ import annotations

import random

import pytest

from app.bots import arena, levels
from app.games import get_title
from tests.games.twins import cases_for

STRONG = levels.strong_titles()
GAMES = 10


def test_every_title_with_a_view_bot_is_strong():
    assert {"tiny-towns", "keythedral", "key-harvest"} <= set(STRONG)


@pytest.mark.parametrize("title_id", STRONG)
def test_the_strong_bot_is_handed_its_seats_view_and_finishes_the_game(title_id, monkeypatch):
    """Each call gets the very view the seat's link gets and its options, nothing else;
    and a table of strong bots reaches the end."""
    bot = levels.view_bot(title_id)
    title = get_title(title_id)
    calls = []
    state_box: dict = {}

    def spy(view, offered, rng):
        state = state_box["state"]
        assert view == arena.seat_view(title_id, title, state, view["seat"])
        assert offered == view["options"]
        assert view["private"] == arena.seat_view(title_id, title, state, view["seat"])["private"]
        calls.append(view["seat"])
        return bot(view, offered, rng)

    monkeypatch.setattr(levels, "view_bot", lambda t: spy if t == title_id else None)
    inner = arena.view_player(title_id, "strong", random.Random(1))

    def player(t, state, seat):
        state_box["state"] = state
        return inner(t, state, seat)

    match = arena.play_match(title_id, [player, player], seed=11)
    assert match.winners, "a table of strong bots did not finish"
    assert set(calls) == {0, 1}


@pytest.mark.parametrize("title_id", STRONG)
def test_the_strong_bot_chooses_alike_in_twin_games(title_id):
    """Twin games differ only in a secret another seat holds (tests/games/twins.py): while it
    stays hidden, the strong bot of every seat that does not know it makes the very same
    choice in both, step for step."""
    title = get_title(title_id)
    bot = levels.view_bot(title_id)
    cases = cases_for(title.__name__.rsplit(".", 1)[1])
    assert cases
    compared = 0
    for case in cases:
        twins = case(4)
        a, b, order = twins.a, twins.b, random.Random(4)
        for _ in range(min(twins.steps, 80)):
            if not twins.hidden(a, b) or title.result(a) is not None:
                break
            seat = order.choice(sorted(title.to_act(a)))
            va = arena.seat_view(title_id, title, a, seat)
            vb = arena.seat_view(title_id, title, b, seat)
            if seat == twins.holder or seat in twins.seats_to_skip:
                common = [o["id"] for o in va["options"] if o in vb["options"]]
                if not common:
                    break
                option = order.choice(common)
            else:
                option = bot(va, va["options"], random.Random(compared))
                assert option == bot(vb, vb["options"], random.Random(compared)), twins.what
                compared += 1
            a, b = title.apply(a, seat, option), title.apply(b, seat, option)
    assert compared > 10


@pytest.mark.parametrize("title_id", [t for t in STRONG if t in ("tiny-towns", "keythedral", "key-harvest")])
def test_the_strong_bot_beats_random_in_most_two_player_games(title_id):
    won = 0
    for seed in range(GAMES):
        strong = arena.view_player(title_id, "strong", random.Random(seed))
        weak = arena.view_player(title_id, "random", random.Random(seed + 100))
        seats = [strong, weak] if seed % 2 == 0 else [weak, strong]
        match = arena.play_match(title_id, seats, seed=seed)
        won += match.winners == [seed % 2]
    assert won >= GAMES * 8 // 10, f"{won} of {GAMES}"


def test_a_strong_bot_that_fails_plays_a_random_option_instead(monkeypatch):
    def broken(view, offered, rng):
        raise KeyError("a corner the bot does not read")

    monkeypatch.setattr(levels, "view_bot", lambda title: broken)
    view = {"title": "keythedral", "options": [{"id": "cancel"}, {"id": "pass"}]}
    assert levels.choose("strong", view, random.Random(1)) == "pass"

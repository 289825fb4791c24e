"""The shared refusals (``check_choice``) and the bot's list-once shortcut (``ListedOnce``)."""

from __future__ import annotations

import threading

import pytest

from app.games.protocol import IllegalAction, ListedOnce, Option, check_choice

OPTIONS = [Option(id=f"o{i}", label=f"choice {i}") for i in range(5)]


class Game:
    """Any object: ListedOnce keys on identity."""


def counting() -> tuple[ListedOnce, list[int]]:
    calls: list[int] = []

    def options(state: object, seat: int) -> list[Option]:
        calls.append(seat)
        return OPTIONS
    return ListedOnce(options), calls


def test_a_listing_is_used_once_for_the_same_game_and_seat() -> None:
    listing, calls = counting()
    game = Game()
    listing.listed(game, 1)
    assert listing.offered(game, 1)() is OPTIONS and calls == [1]
    listing.offered(game, 1)()  # taken: listed afresh
    assert calls == [1, 1]


@pytest.mark.parametrize("other_game, other_seat", [(True, False), (False, True)])
def test_another_game_or_seat_lists_afresh(other_game: bool, other_seat: bool) -> None:
    listing, calls = counting()
    game = Game()
    listing.listed(game, 0)
    listing.offered(Game() if other_game else game, 1 if other_seat else 0)()
    assert calls == [0, 1 if other_seat else 0]


def test_another_threads_listing_is_not_taken() -> None:
    listing, calls = counting()
    game = Game()
    listing.listed(game, 0)
    seen: list[int] = []
    worker = threading.Thread(target=lambda: (listing.offered(game, 0)(), seen.append(len(calls))))
    worker.start()
    worker.join()
    assert seen == [2]  # the other thread listed for itself


def test_check_choice_accepts_a_listed_id_and_refuses_the_rest() -> None:
    acting = frozenset({0})
    check_choice(0, 2, False, acting, lambda: OPTIONS, "o4")
    for seat, over, option_id, words in [
        (2, False, "o1", "There is no seat 2"),
        ("0", False, "o1", "There is no seat '0'"),
        (0, True, "o1", "The game is over."),
        (1, False, "o1", "Seat 2 has nothing to choose"),
        (0, False, "o9", "'o9' is not one of seat 1's choices"),
        (0, False, 4, "'4' is not one of seat 1's choices"),
        (0, False, None, "'None' is not one of seat 1's choices"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            check_choice(seat, 2, over, acting, lambda: OPTIONS, option_id)

"""The game's generator draws BLAKE2b(key, counter), whichever way it computes it."""

from __future__ import annotations

import hashlib

from app.games.rng import Rng, key_for


def blake(key: bytes, counter: int) -> int:
    """An output as the module's docstring defines it, made the plain way."""
    return int.from_bytes(hashlib.blake2b(counter.to_bytes(8, "big"), key=key, digest_size=8).digest(), "big")


def test_every_draw_is_the_keyed_hash_of_its_counter() -> None:
    # the first draw of an Rng and the later ones take different paths (next_u64)
    rng = Rng(123)
    assert [rng.next_u64() for _ in range(6)] == [blake(key_for(123), c) for c in range(1, 7)]


def test_a_resumed_stream_draws_what_the_first_would_have() -> None:
    whole = Rng(2**255 + 9)
    first = [whole.next_u64() for _ in range(5)]
    part = Rng(2**255 + 9)
    part.next_u64()
    part.next_u64()
    resumed = Rng(part.state)  # a new object: its first draw is the stream's third
    assert [resumed.next_u64() for _ in range(3)] == first[2:]
    assert resumed.state == whole.state


def test_shuffles_and_choices_follow_the_stream() -> None:
    a, b = Rng(5), Rng(5)
    items = list(range(30))
    a.shuffle(items)
    expected = list(range(30))
    counter = 0
    for i in range(len(expected) - 1, 0, -1):  # Fisher–Yates from the plain outputs (no draw rejected at these sizes)
        counter += 1
        j = blake(key_for(5), counter) % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert b.shuffled(range(30)) == expected

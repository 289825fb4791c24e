"""What a loopback webhook receives while a game is driven through the API.

Tiny Towns with two players, monuments off, seed 3: Ann names a resource (v1), then both
place it (both owe), and so on; Bob first comes to owe a decision at version 1, Ann at 4.
Time only moves when the test says so (``later``); the notifier runs one pass each time.
"""

from __future__ import annotations

import asyncio

import pytest

from ..spy import record_calls
from .conftest import bearer, open_table


async def test_a_seat_that_comes_to_owe_a_decision_is_told_once_with_its_link(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    await table.set_channels(game, 0, urls=[receiver.url("ann")])
    await table.step(game, 0)  # Ann names a resource: now Bob owes a placement
    assert await table.later(0) == 0  # not at once: steps that follow quickly merge
    assert await table.later(10) == 1
    [message] = receiver.to("bob")
    assert message["title"] == "Your turn — Tiny Towns"
    body = message["message"]
    assert game["id"] in body and "Tiny Towns" in body and "Ann and Bob" in body
    assert "It is your move; also waiting for Ann." in body
    assert f"http://testserver/g/{game['id']}/seat/{game['seats'][1]['token']}" in body
    assert game["seats"][0]["token"] not in body
    assert receiver.to("ann") == []  # Ann owed the naming before; nothing new for her
    assert await table.later(3600) == 0


async def test_nothing_is_sent_to_a_seat_that_asked_for_nothing(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 0, urls=[receiver.url("ann")])
    await table.step(game, 0)  # Bob owes now, but has no channels
    assert await table.later(10) == 0
    assert receiver.received == []


async def test_a_burst_of_steps_is_one_message_and_none_within_the_quiet_minutes(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    await table.step(game, 0)  # v1: Bob owes
    await table.step(game, 0)  # v2: Ann placed; Bob still owes
    await table.later(10)
    assert len(receiver.to("bob")) == 1
    # Within the next minute Bob plays, and twice more comes to owe a decision.
    for _ in range(3):
        await table.step(game)
        await table.later(5)
    owed_again = 0
    while 1 not in await table.to_act(game) or owed_again < 2:
        owed_again += 1 not in await table.to_act(game)
        await table.step(game)
        await table.later(5)
    assert len(receiver.to("bob")) == 1, "a second message within the quiet period"
    # Once the quiet period is over, one more message, as Bob still owes a decision.
    await table.later(300)
    assert len(receiver.to("bob")) == 2
    assert receiver.to("bob")[1]["title"] == "Your turn — Tiny Towns"


async def test_a_seat_that_already_acted_is_not_told(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    await table.step(game, 0)  # Bob owes…
    await table.step(game, 1)  # …and places at once (say, from another device)
    await table.step(game, 0)  # Ann places: it is Bob's naming turn, which he already owed
    assert 1 in await table.to_act(game)
    await table.later(10)
    # The pending message is written when due, from the game as it is then: Bob owes.
    assert len(receiver.to("bob")) == 1
    await table.step(game, 1)  # Bob names: Ann and Bob place; Bob is not *newly* owing
    assert await table.later(600) == 0


async def test_one_reminder_after_the_hours_the_seat_chose_if_still_pending(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")], remind_after_hours=2)
    await table.step(game, 0)
    await table.later(10)
    assert [m["title"] for m in receiver.to("bob")] == ["Your turn — Tiny Towns"]
    await table.later(3600)
    assert len(receiver.to("bob")) == 1
    await table.later(3600)
    assert [m["title"] for m in receiver.to("bob")] == ["Your turn — Tiny Towns",
                                                         "Reminder: still your turn — Tiny Towns"]
    assert "over 2 hours" in receiver.to("bob")[1]["message"]
    await table.later(3 * 24 * 3600)
    assert len(receiver.to("bob")) == 2  # one reminder, not one every two hours


async def test_no_reminder_once_the_seat_has_played(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")], remind_after_hours=1)
    await table.step(game, 0)
    await table.later(10)
    await table.step(game, 0)  # Ann places; Bob still owes his placement
    await table.step(game, 1)  # Bob places; now he owes the naming, which he chose to do later
    await table.later(2 * 3600)
    assert [m["title"] for m in receiver.to("bob")] == ["Your turn — Tiny Towns"]


async def play_to_the_end(table, game) -> dict:
    view: dict = {}
    for _ in range(400):
        if not await table.to_act(game):
            return (await table.http.get(f"/api/games/{game['id']}")).json()
        view = await table.step(game)
    raise AssertionError(f"the game did not end: {view.get('version')}")


async def test_the_game_over_message_replaces_what_was_still_waiting(sqlite_url, clock, receiver):
    async for table in open_table(sqlite_url, clock, host_urls=[receiver.url("host")]):
        game = await table.new_game()
        await table.set_channels(game, 0, urls=[receiver.url("ann")])
        await table.set_channels(game, 1, urls=[receiver.url("bob")])
        final = await play_to_the_end(table, game)
        assert final["status"] == "finished"
        await table.later(10)
        ann, bob, host = receiver.to("ann"), receiver.to("bob"), receiver.to("host")
        assert [m["title"] for m in ann] == ["Game over — Tiny Towns"]
        assert [m["title"] for m in bob] == ["Game over — Tiny Towns"]
        assert [m["title"] for m in host] == ["Game over — Tiny Towns"]
        scores = {s["seat"]: s["score"] for s in final["result"]["scores"]}
        assert f"Ann {scores[0]}" in ann[0]["message"] and f"Bob {scores[1]}" in ann[0]["message"]
        assert game["seats"][1]["token"] in bob[0]["message"]
        assert all(s["token"] not in host[0]["message"] for s in game["seats"])  # public link only
        assert await table.later(7 * 24 * 3600) == 0


async def test_a_failed_delivery_is_retried_with_back_off_and_shown_to_the_player(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    receiver.fail_next = 2
    await table.step(game, 0)
    assert await table.later(10) == 1
    shown = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
    [delivery] = shown["deliveries"]
    assert delivery["ok"] is False and delivery["service"] == "JSON"
    assert delivery["error"] == "delivery failed"  # never the remote's status or body
    assert delivery["retry_at"] == table.clock.now + 30
    assert await table.later(29) == 0  # not before the back-off
    assert await table.later(1) == 1  # second attempt: fails again, waits twice as long
    assert await table.later(59) == 0
    assert await table.later(1) == 1
    assert len(receiver.to("bob")) == 1
    shown = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
    assert shown["deliveries"][0]["ok"] is True and shown["deliveries"][0]["error"] is None


async def test_a_delivery_that_keeps_failing_is_given_up(sqlite_url, clock, receiver):
    async for table in open_table(sqlite_url, clock, retry_first=1):
        table.notifier.config.max_attempts = 3
        game = await table.new_game()
        await table.set_channels(game, 1, urls=[receiver.url("bob")])
        receiver.fail_next = 10
        await table.step(game, 0)
        attempts = [await table.later(10) for _ in range(6)]
        assert attempts == [1, 1, 1, 0, 0, 0]
        shown = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
        assert shown["deliveries"][0]["gave_up"] is True


def _words(value) -> set[str]:
    """Every text and number inside a view part (names of tiles, laws, cube counts…)."""
    if isinstance(value, dict):
        return set().union(*(_words(v) | {str(k)} for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(_words(v) for v in value)) if value else set()
    return {str(value)}


async def test_a_message_says_nothing_of_another_seats_screen(sqlite_url, clock, receiver):
    """Keythedral hides cubes, face-down tiles and a law in hand. Each message is written
    from its seat's own view: no text of the other seat's screen or choices is in it."""
    async for table in open_table(sqlite_url, clock):
        game = await table.new_game(title="keythedral", options={})
        for seat in (0, 1):
            await table.set_channels(game, seat, urls=[receiver.url(f"seat{seat}")])
        secrets_of: dict[int, set[str]] = {0: set(), 1: set()}
        for _ in range(40):
            for seat in (0, 1):
                view = (await table.http.get(f"/api/games/{game['id']}", headers=bearer(game, seat))).json()
                secrets_of[seat] |= _words(view["private"]) | {o["label"] for o in view["options"]}
            await table.step(game)
            await table.later(400)
        for seat in (0, 1):
            messages = receiver.to(f"seat{seat}")
            assert messages, f"seat {seat} never came to owe a decision"
            public = _words((await table.http.get(f"/api/games/{game['id']}")).json()["public"])
            hidden = {w for w in secrets_of[1 - seat] - public - secrets_of[seat] if len(w) >= 4}
            assert hidden, "the twin seat had nothing hidden: the test would prove nothing"
            for message in messages:
                assert not [w for w in hidden if w in message["message"]]
                assert game["seats"][1 - seat]["token"] not in message["message"]


async def test_a_seat_whose_link_was_replaced_is_not_told_on_its_old_channels(table, receiver):
    """The host may replace a lost or leaked link: the old holder's channels go quiet."""
    from sqlalchemy import update

    from app.store.models import Seat
    from app.table.tokens import new_token, token_hash

    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    async with table.notifier.db.write() as session:
        await session.execute(update(Seat).where(Seat.game_id == game["id"], Seat.seat == 1)
                              .values(token_hash=token_hash(new_token())))
    await table.step(game, 0)
    assert await table.later(10) == 0
    assert receiver.received == []
    assert await table.notifier.seat_channels(game["id"], 1) is None  # forgotten, link and all


async def test_steady_play_does_not_put_a_message_off(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    await table.step(game, 0)  # T: Bob owes (message due at T+10)
    table.clock.advance(4)
    await table.step(game, 1)  # T+4: Bob places (through the API, no page open)
    table.clock.advance(4)
    await table.step(game, 0)  # T+8: Ann places; Bob owes the naming: the same message, still due at T+10
    assert 1 in await table.to_act(game)
    assert await table.later(2) == 1


async def test_the_seats_asking_to_be_told_are_read_once_per_game_however_many_actions_ask(table, receiver):
    """A process that has not seen a game reads its notification settings once, even when
    many of its actions come at the same moment; a seat starting to ask makes it read again."""
    game = await table.new_game()
    notifier = table.notifier
    notifier._forget_telling(None)
    reads = record_calls(notifier, "_read_telling")
    seats = await asyncio.gather(*(notifier._telling_seats(game["id"]) for _ in range(20)))
    assert seats == [frozenset()] * 20 and reads == [game["id"]]
    assert await notifier._telling_seats(game["id"]) == frozenset() and len(reads) == 1

    assert (await table.set_channels(game, 1, urls=[receiver.url()])).status_code == 200
    assert await notifier._telling_seats(game["id"]) == frozenset({1})
    assert len(reads) == 2


async def test_a_game_made_by_this_process_reads_no_settings_until_a_seat_asks(table, receiver):
    reads = record_calls(table.notifier, "_read_telling")
    scheduled = record_calls(table.notifier, "_schedule")
    game = await table.new_game()
    for _ in range(3):
        await table.step(game)
    assert reads == [] and scheduled == [], "nobody asked: nothing read, no work started"
    assert (await table.set_channels(game, 0, urls=[receiver.url()])).status_code == 200
    await table.step(game)
    await table.step(game)
    assert reads == [game["id"]] and game["id"] in scheduled


async def test_the_background_loop_sends_a_message_when_due_not_at_its_next_tick(sqlite_url, receiver):
    # A tick of a minute: the loop must sleep only until the message is due (0.3 s after
    # the step), and the delivery is sent on the same wake-up or the next.
    import time

    async for table in open_table(sqlite_url, time.time, background=True, tick=60, delay=0.3):
        game = await table.new_game()
        await table.set_channels(game, 1, urls=[receiver.url("bob")])
        await table.step(game, 0)  # Bob owes a placement now
        for _ in range(100):
            if receiver.to("bob"):
                break
            await asyncio.sleep(0.1)
        assert len(receiver.to("bob")) == 1
        assert await table.notifier._next_due() is None  # nothing left to wait for

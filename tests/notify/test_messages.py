"""Messages say what happened, from the seat's own view, and never anything it may not see.

The twin-games law (tests/games/twins.py) extended to messages: two games that differ
only in one hidden thing, driven by the same actions, must give every seat other than the
secret's holder the same turn, reminder and result messages, word for word, at every step
(and the host's channel the same result). A message that read the seat's private part,
or the state behind the view, would show the difference here."""

from __future__ import annotations

from typing import Any, Callable

import pytest
import sqlalchemy as sa

from app.games import LISTINGS, get_title
from app.games.rng import Rng
from app.notify import messages
from app.notify.messages import Message
from app.notify.tables import SETTINGS
from app.table.service import Snapshot, build_view

from ..games.twins import Twins, _pick, bot_for, cases_for, observers
from .conftest import bearer

PLAYABLE = [listing for listing in LISTINGS if listing.module]
CASES = [(listing.id, case) for listing in PLAYABLE for case in cases_for(listing.module.rsplit(".", 1)[1])]
LINK = "https://keydom.example/g/twins/seat/TOKEN"

Write = Callable[[dict[str, Any]], list[Message]]


def seat_messages(view: dict[str, Any]) -> list[Message]:
    """Every message a seat could be sent from this view (as the notifier writes them)."""
    total = view["log_total"]
    written = [messages.turn(view, seen) for seen in (None, max(0, total - 4), total)]
    written.append(messages.reminder(view, 6, max(0, total - 2)))
    if view["result"] is not None:
        written.append(messages.result(view, max(0, total - 3)))
    return written


def _views(twins: Twins, a: Any, b: Any, seat: int | None, step: int) -> tuple[dict[str, Any], dict[str, Any]]:
    title = get_title(twins.title_id)
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"][:twins.players]
    built = []
    for state in (a, b):
        status = "finished" if title.result(state) is not None else "active"
        built.append(build_view(title, Snapshot("twins", twins.title_id, step, status, state), seat, list(names)))
    return built[0], built[1]


def drive_messages(twins: Twins, seed: int, write: Write = seat_messages) -> int:
    """Drive the twins as tests/games/twins.py does, comparing every other seat's messages
    (and the host channel's result) at every step; how many steps were compared."""
    title = get_title(twins.title_id)
    rng, choose = Rng(seed), bot_for(twins.title_id)
    a, b = twins.a, twins.b
    for step in range(min(twins.steps, 100)):
        if not twins.hidden(a, b):
            return step
        where = f"{twins.title_id}, {twins.what}, step {step}"
        for seat in observers(twins):
            view_a, view_b = _views(twins, a, b, seat, step)
            if seat is None:
                if view_a["result"] is not None:
                    assert messages.host_result(view_a, LINK) == messages.host_result(view_b, LINK), where
                continue
            said_a = [m.text(LINK) for m in write(view_a)]
            said_b = [m.text(LINK) for m in write(view_b)]
            assert said_a == said_b, f"{where}: seat {seat} would be told something different"
        if title.result(a) is not None:
            return step + 1
        seat = rng.choice(sorted(title.to_act(a)))
        option = _pick(title, choose, a, b, seat, twins.holder, rng)
        if option is None:
            return step + 1
        a, b = title.apply(a, seat, option), title.apply(b, seat, option)
    return min(twins.steps, 100)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("title_id, case", CASES, ids=[f"{t}-{c.__name__}" for t, c in CASES])
def test_twin_games_give_every_other_seat_the_same_messages(title_id, case, seed):
    assert drive_messages(case(seed), seed) >= 1


def test_every_playable_title_has_its_messages_checked():
    assert {title_id for title_id, _ in CASES} == {listing.id for listing in PLAYABLE}


def test_the_check_catches_a_message_that_reads_private_things():
    """The comparison has teeth: a message that quoted the seat's private part is caught
    in some twin case (each seat's own private part differs where it holds a secret)."""

    def leaky(view: dict[str, Any]) -> list[Message]:
        return [Message("Your turn", f"{view['private']} {view['public']}", "Play")]

    caught = 0
    for _, case in CASES:
        twins = case(0)
        holder_view = Twins(twins.title_id, twins.players, twins.a, twins.b, None, twins.hidden, twins.what)
        try:  # the holder is looked at too: its private part is where the secret is
            drive_messages(holder_view, 0, leaky)
        except AssertionError:
            caught += 1
    assert caught >= len(PLAYABLE)


# --- What a message says, through the notifier ---

async def test_the_message_tells_what_happened_since_the_seat_last_looked(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])  # Bob looks at the game now
    seen = (await table.http.get(f"/api/games/{game['id']}", headers=bearer(game, 1))).json()
    await table.step(game, 0)  # Ann names a resource
    await table.later(10)
    [sent] = receiver.to("bob")
    after = (await table.http.get(f"/api/games/{game['id']}", headers=bearer(game, 1))).json()
    new_lines = after["log"][-(after["log_total"] - seen["log_total"]):]
    assert new_lines and "Since you last looked:" in sent["message"]
    for line in new_lines:
        assert line in sent["message"]
    for line in seen["log"]:  # what Bob had already seen is not repeated
        assert line not in sent["message"].split("Since you last looked:", 1)[1]
    body = sent["message"]
    assert body.index("Since you last looked:") < body.index("It is your move") < body.index("Play: ")
    assert body.rstrip().endswith(game["seats"][1]["url"])


async def test_closing_the_page_marks_what_the_seat_has_seen(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    await table.step(game, 0)  # Ann names a resource while Bob's page is closed
    with table.notifier.page_open(game["id"], 1):  # Bob opens his page and sees it, then leaves
        pass
    await table.notifier.settle()
    async with table.notifier.db.read() as session:
        seen = (await session.execute(sa.select(SETTINGS.c.seen_log))).scalar_one()
    view = (await table.http.get(f"/api/games/{game['id']}", headers=bearer(game, 1))).json()
    assert seen == view["log_total"]
    await table.later(10)  # Bob's message: he has seen everything, so no "since you last looked"
    [sent] = receiver.to("bob")
    assert "Since you last looked" not in sent["message"] and "It is your move" in sent["message"]

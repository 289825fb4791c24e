"""The table's one seam: after an action or a claim commits, it publishes what happened,
and listeners (notifications, later bots, clocks, chat) subscribe without the table
knowing them."""

from __future__ import annotations

from app.table.events import TableEvent
from app.table.service import Viewer

from ..hosting.support import SAME_SITE, create, table_of


async def test_an_action_publishes_who_acted_and_who_now_owes_a_decision(client):
    table = table_of(client)
    heard: list[TableEvent] = []
    table.events.subscribe(heard.append)
    game = await create(client, ["Ann", "Bob"])
    view = await table.view(Viewer(game["id"], 0))
    master = view["to_act"][0]
    mine = await table.view(Viewer(game["id"], master))
    choice = next(o["id"] for o in mine["options"])
    await table.act(Viewer(game["id"], master), choice, mine["version"])
    assert [(e.kind, e.version, e.newly_to_act) for e in heard[:1]] == [("create", 0, frozenset(view["to_act"]))]
    assert len(heard) == 2
    event = heard[1]
    assert (event.kind, event.game_id, event.version, event.seat) == ("action", game["id"], 1, master)
    after = await table.view(Viewer(game["id"], None))
    assert event.newly_to_act == frozenset(after["to_act"]) - frozenset(view["to_act"])
    assert event.finished is False


async def test_a_claim_publishes_the_seat_taken(client):
    table = table_of(client)
    heard: list[TableEvent] = []
    table.events.subscribe(heard.append)
    game = await create(client, ["Ann", None])
    invite = f"/g/{game['id']}/seat/{game['seats'][1]['token']}"
    assert (await client.post(invite + "/claim", data={"name": "Cy"}, headers=SAME_SITE)).status_code == 303
    assert [(e.kind, e.game_id, e.seat, e.version) for e in heard] == [
        ("create", game["id"], None, 0), ("claim", game["id"], 1, None)]


async def test_a_failing_listener_neither_fails_the_action_nor_silences_the_others(client):
    table = table_of(client)
    heard: list[str] = []

    def broken(event: TableEvent) -> None:
        raise RuntimeError("listener trouble")

    table.events.subscribe(broken)
    table.events.subscribe(lambda event: heard.append(event.kind))
    game = await create(client, ["Ann", "Bob"])
    seat = (await table.view(Viewer(game["id"], None)))["to_act"][0]
    mine = await table.view(Viewer(game["id"], seat))
    answer = await table.act(Viewer(game["id"], seat), mine["options"][0]["id"], mine["version"])
    assert answer["version"] == 1
    assert heard == ["create", "action"]


async def test_the_sockets_an_action_wakes_send_before_its_caller_answers(client):
    """A player sees a move by its frame; the action's answer (only a version, for the page)
    waits until the woken sockets have had their turn."""
    import asyncio

    table = table_of(client)
    game = await create(client, ["Ann", "Bob"])
    seat = (await table.view(Viewer(game["id"], None)))["to_act"][0]
    mine = await table.view(Viewer(game["id"], seat))
    order: list[str] = []
    with table.hub.subscribe(game["id"]) as sub:
        async def socket() -> None:
            await sub.wait()
            order.append(f"frame {sub.newest}")

        listening = asyncio.create_task(socket())
        await asyncio.sleep(0)  # the socket is waiting
        answer = await table.act(Viewer(game["id"], seat), mine["options"][0]["id"], mine["version"], answer=False)
        order.append(f"answer {answer['version']}")
        await listening
    assert order == ["frame 1", "answer 1"]

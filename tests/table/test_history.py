"""History and replay (app.table.history): each viewer steps through the moments what it
saw changed, never more; after the game every screen may be replayed."""

from __future__ import annotations

import pytest

from app.games import LISTINGS, get_title
from app.games.rng import Rng
from app.table.history import viewer_steps
from app.table.service import Viewer
from tests.games import twins as twin_games

from ..hosting.support import bearer, create, play_to_the_end, table_of

PACKAGES = [(listing.id, listing.module.rsplit(".", 1)[1]) for listing in LISTINGS if listing.module]


def recorded(pair: twin_games.Twins, seed: int) -> tuple[list, list]:
    """Both games' states, driven by the same actions while the secret stays hidden."""
    title = get_title(pair.title_id)
    rng, choose = Rng(seed), twin_games.bot_for(pair.title_id)
    a, b = pair.a, pair.b
    states_a, states_b = [a], [b]
    for _ in range(pair.steps):
        if not pair.hidden(a, b) or title.result(a) is not None:
            break
        seat = rng.choice(sorted(title.to_act(a)))
        option = twin_games._pick(title, choose, a, b, seat, pair.holder, rng)
        if option is None:
            break
        a, b = title.apply(a, seat, option), title.apply(b, seat, option)
        states_a.append(a)
        states_b.append(b)
    return states_a, states_b


@pytest.mark.parametrize("title_id,package", PACKAGES)
def test_a_replay_steps_the_same_for_everyone_who_cannot_know_the_secret(title_id, package):
    """The twin-games law for replays: how many steps another seat's (or a spectator's)
    replay has, and where they fall, is the same whichever secret a seat holds."""
    title = get_title(title_id)
    cases = twin_games.cases_for(package)
    assert cases, f"{title_id} has no twin cases"
    for case in cases:
        for seed in (1, 2):
            pair = case(seed)
            states_a, states_b = recorded(pair, seed)
            for seat in twin_games.observers(pair):
                assert viewer_steps(title, states_a, seat) == viewer_steps(title, states_b, seat), (
                    f"{title_id}, {pair.what}: {'the spectator' if seat is None else f'seat {seat}'}'s replay differs")


def test_viewer_steps_skip_what_the_viewer_cannot_see():
    title = get_title("key-harvest")
    from app.games.playout import bot_playout

    played = bot_playout("key-harvest", 2, seed=3)
    states = [title.setup(2, played.options, 3)]
    for seat, option in played.actions[:60]:
        states.append(title.apply(states[-1], seat, option))
    for seat in (None, 0, 1):
        steps = viewer_steps(title, states, seat)
        assert steps[0] == 0 and steps == sorted(set(steps))
        assert len(steps) < len(states), "some steps were private to someone, or changed nothing"


async def test_the_api_replays_a_seat_s_own_screen_from_the_start_to_now(client):
    game = await create(client, ["Ann", "Bob"])
    table = table_of(client)
    for _ in range(6):
        seat = (await table.view(Viewer(game["id"], None)))["to_act"][0]
        mine = await table.view(Viewer(game["id"], seat))
        await table.act(Viewer(game["id"], seat), mine["options"][-1]["id"], mine["version"])
    url = f"/api/games/{game['id']}/history"
    ann = bearer(game["seats"][0]["token"])
    last = (await client.get(url, headers=ann)).json()
    live = (await client.get(f"/api/games/{game['id']}", headers=ann)).json()
    assert last["public"] == live["public"] and last["private"] == live["private"] and last["options"] == []
    steps = last["replay"]["steps"]
    assert 1 < steps <= 7 and last["replay"]["at"] == steps - 1
    first = (await client.get(url, params={"at": 0}, headers=ann)).json()
    assert first["log_total"] < last["log_total"] and first["public"] != last["public"]
    spectator = (await client.get(url, params={"at": 0})).json()
    assert spectator["seat"] is None and spectator["private"] is None
    beyond = await client.get(url, params={"at": steps}, headers=ann)
    assert beyond.status_code == 422 and f"steps 0 to {steps - 1}" in beyond.json()["detail"]
    early = await client.get(url, params={"seat": 1}, headers=ann)
    assert early.status_code == 422 and "once the game is over" in early.json()["detail"]
    assert (await client.get(url, headers=bearer("not-a-seat"))).status_code == 403


async def test_after_the_game_anyone_may_replay_every_screen_over_every_version(client):
    game = await create(client, ["Ann", "Bob"])
    table = table_of(client)
    await play_to_the_end(table, game["id"])
    version = (await table.view(Viewer(game["id"], None)))
    url = f"/api/games/{game['id']}/history"
    bob_from_spectator = (await client.get(url, params={"seat": 1, "at": 3})).json()
    assert bob_from_spectator["seat"] == 1 and bob_from_spectator["private"] is not None
    assert bob_from_spectator["replay"]["every_version"] is True
    whole = (await client.get(url, params={"seat": 0})).json()
    assert whole["replay"]["steps"] == len(await table.action_log(game["id"])) + 1
    assert whole["result"] == version["result"]


async def test_the_replay_page_and_its_steps(client):
    game = await create(client, ["Ann", "Bob"])
    table = table_of(client)
    for _ in range(3):
        seat = (await table.view(Viewer(game["id"], None)))["to_act"][0]
        mine = await table.view(Viewer(game["id"], seat))
        await table.act(Viewer(game["id"], seat), mine["options"][0]["id"], mine["version"])
    token = game["seats"][0]["token"]
    page = await client.get(f"/g/{game['id']}/seat/{token}/replay", params={"at": 0})
    assert page.status_code == 200 and "Step 1 of" in page.text and "replay.js" in page.text
    assert "your own screen, never anyone else" in page.text
    step = await client.get(f"/g/{game['id']}/replay/fragment", params={"at": 1}, headers=bearer(token))
    assert step.status_code == 200 and "Step 2 of" in step.text
    public = await client.get(f"/g/{game['id']}/replay")
    assert public.status_code == 200 and "what a spectator saw" in public.text


def detour(title, state, seat):  # type: ignore[no-untyped-def]
    """A private choice of ``seat`` (nobody else sees it) and the "cancel" that undoes it
    exactly, if there is one now."""
    from app.table.service import view_core

    for option in title.options(state, seat):
        if option.id == "cancel":
            continue
        after = title.apply(state, seat, option.id)
        if any(view_core(title, after, other) != view_core(title, state, other) for other in (None, 1 - seat)):
            continue  # a step the others see: not a private one
        if any(o.id == "cancel" for o in title.options(after, seat)):
            back = title.apply(after, seat, "cancel")
            if title.dump(back) == title.dump(state):
                return after, back
    return None


@pytest.mark.parametrize("title_id", ["key-harvest", "keythedral", "tiny-towns"])
def test_another_seat_s_private_detour_adds_no_step_to_anyone_else_s_replay(title_id):
    """Two games, the same but for one seat opening a choice and cancelling it (steps only
    it sees): every other seat's and the spectator's replay has the same steps in both.
    Stepping over the game's versions instead would tell them a detour happened."""
    from app.games.playout import bot_playout

    title = get_title(title_id)
    played = bot_playout(title_id, 2, seed=5)
    state = title.setup(2, played.options, 5)
    plain = [state]
    found = 0
    for seat, option in played.actions[:400]:
        turn = detour(title, plain[-1], seat)
        if turn is not None and found < 3:
            found += 1
            with_detour = plain + list(turn)
            rest_plain, rest_detour = list(plain), list(with_detour)
            state_p = title.apply(plain[-1], seat, option)
            rest_plain.append(state_p)
            rest_detour.append(state_p)
            for other in (None, 1 - seat):
                assert viewer_steps(title, rest_plain, other) == [
                    i if i < len(plain) else i - 2 for i in viewer_steps(title, rest_detour, other)
                    if not len(plain) <= i < len(plain) + 2], f"{title_id}: seat {seat}'s detour shows"
                assert len(viewer_steps(title, rest_detour, other)) == len(viewer_steps(title, rest_plain, other))
            assert len(viewer_steps(title, rest_detour, seat)) > len(viewer_steps(title, rest_plain, seat)) - 1
        plain.append(title.apply(plain[-1], seat, option))
    if title_id == "key-harvest":
        assert found, "Key Harvest's bids are private detours: the test must have found one"

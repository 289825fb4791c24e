"""PUT/GET /api/games/{id}/notifications: what a seat stores, and what is refused."""

from __future__ import annotations

import pytest

from .conftest import bearer, open_table


async def test_a_seat_stores_its_channels_and_reads_them_back(table, receiver):
    game = await table.new_game()
    response = await table.set_channels(game, 1, urls=[receiver.url(), " ntfys://ntfy.sh/bob-keydom "],
                                        remind_after_hours=12)
    assert response.status_code == 200, response.text
    stored = response.json()
    assert stored["urls"] == [receiver.url(), "ntfys://ntfy.sh/bob-keydom"]
    assert stored["remind_after_hours"] == 12
    assert stored["email"] is None and stored["email_available"] is False
    assert stored["deliveries"] == []
    again = await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))
    assert again.json() == stored
    # Another seat has its own (empty) settings.
    other = await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 0))
    assert other.json()["urls"] == []


@pytest.mark.parametrize("body, words", [
    ({"urls": ["ntfys//ntfy.sh/x"]}, "needs a service in front"),
    ({"urls": ["nosuchservice://example.org/x"]}, "not a notification URL Keydom understands"),
    ({"urls": ["dbus://"]}, "server's own screen"),
    ({"urls": ["mailto://a:b@example.org"]}, "e-mail field"),
    ({"email": "ann.example.org"}, "not an e-mail address"),
    ({"urls": ["json://example.org/" + "x" * 1200]}, "at most 1000 characters"),
    ({"remind_after_hours": 0}, "remind_after_hours"),
])
async def test_a_malformed_url_or_address_is_refused_readably_and_nothing_is_stored(table, receiver, body, words):
    game = await table.new_game()
    assert (await table.set_channels(game, 0, urls=[receiver.url()])).status_code == 200
    response = await table.set_channels(game, 0, **body)
    assert response.status_code == 422
    assert words in response.json()["detail"]
    kept = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 0))).json()
    assert kept["urls"] == [receiver.url()]


async def test_e_mail_needs_the_host_to_have_set_smtp(table):
    game = await table.new_game()
    response = await table.set_channels(game, 0, email="ann@example.org")
    assert response.status_code == 422
    assert "SMTP_URL" in response.json()["detail"]


async def test_e_mail_is_accepted_when_the_host_set_smtp(sqlite_url, clock):
    async for t in open_table(sqlite_url, clock, smtp_url="mailtos://keydom:secret@mail.example.org?from=keydom@example.org"):
        game = await t.new_game()
        response = await t.set_channels(game, 0, email=" ann@example.org ")
        assert response.status_code == 200, response.text
        assert response.json()["email"] == "ann@example.org"
        assert response.json()["email_available"] is True


async def test_spectators_and_strangers_have_no_notifications(table):
    game = await table.new_game()
    other = await table.new_game()
    assert (await table.http.get(f"/api/games/{game['id']}/notifications")).status_code == 401
    wrong = await table.http.put(f"/api/games/{game['id']}/notifications", json={"urls": []}, headers=bearer(other, 0))
    assert wrong.status_code == 403


async def test_an_open_seat_cannot_set_notifications_before_it_is_claimed(table, receiver):
    game = await table.new_game(players=["Ann", None])
    response = await table.set_channels(game, 1, urls=[receiver.url()])
    assert response.status_code == 403
    assert "Take this seat first" in response.json()["detail"]


async def test_the_test_button_sends_one_message_at_once_and_shows_how_it_went(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 0, urls=[receiver.url("good"), receiver.url("bad")])
    receiver.fail_next = 0
    sent = await table.http.post(f"/api/games/{game['id']}/notifications/test", headers=bearer(game, 0))
    assert sent.status_code == 200, sent.text
    assert [d["ok"] for d in sent.json()] == [True, True]
    assert len(receiver.to("good")) == 1 and len(receiver.to("bad")) == 1
    assert "Ann" in receiver.to("good")[0]["message"] and f"/g/{game['id']}/seat/" in receiver.to("good")[0]["message"]
    again = await table.http.post(f"/api/games/{game['id']}/notifications/test", headers=bearer(game, 0))
    assert again.status_code == 422 and "wait" in again.json()["detail"]
    table.clock.advance(11)
    receiver.fail_next = 2  # both channels fail this time
    failed = await table.http.post(f"/api/games/{game['id']}/notifications/test", headers=bearer(game, 0))
    assert [d["ok"] for d in failed.json()] == [False, False]
    assert all(d["error"] for d in failed.json())
    shown = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 0))).json()
    assert {(d["channel"], d["ok"]) for d in shown["deliveries"]} == {(receiver.url("good"), False),
                                                                       (receiver.url("bad"), False)}


async def test_no_channels_turns_notifications_off(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 0, urls=[receiver.url()])
    off = await table.set_channels(game, 0, urls=[], email=None)
    assert off.status_code == 200 and off.json()["urls"] == []
    test = await table.http.post(f"/api/games/{game['id']}/notifications/test", headers=bearer(game, 0))
    assert test.status_code == 422 and "first" in test.json()["detail"]

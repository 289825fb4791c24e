"""E-mail through the host's SMTP_URL: a seat's address becomes the recipient."""

from __future__ import annotations

from app.notify.channels import apprise_url

from .conftest import open_table


def test_the_seat_address_replaces_any_recipient_in_smtp_url():
    url = apprise_url("email:bob@example.org", "mailtos://keydom:pw@mail.example.org?from=k@example.org&to=x@y.org")
    assert url == "mailtos://keydom:pw@mail.example.org?from=k%40example.org&to=bob%40example.org"
    assert apprise_url("json://example.org/hook", "") == "json://example.org/hook"


async def test_a_turn_message_is_mailed_to_the_seat(sqlite_url, clock, smtp):
    smtp_url = f"mailto://127.0.0.1:{smtp.port}?from=keydom@example.org"
    async for table in open_table(sqlite_url, clock, smtp_url=smtp_url):
        game = await table.new_game()
        saved = await table.set_channels(game, 1, email="bob@example.org")
        assert saved.status_code == 200, saved.text
        await table.step(game, 0)
        assert await table.later(10) == 1
        [mail] = smtp.mails
        assert "To: bob@example.org" in mail and "From: keydom@example.org" in mail
        assert "Subject: =?utf-8?q?Your_turn_=E2=80=94_Tiny_Towns?=" in mail or "Your turn" in mail
        assert game["id"] in mail
        delivery = (await table.http.get(f"/api/games/{game['id']}/notifications",
                                         headers={"Authorization": f"Bearer {game['seats'][1]['token']}"})).json()
        assert delivery["deliveries"][0]["service"] == "e-mail" and delivery["deliveries"][0]["ok"] is True
        assert delivery["deliveries"][0]["channel"] == "bob@example.org"


def test_settings_that_could_never_send_stop_the_server_with_a_readable_line():
    import pytest

    from app.notify.config import NotifyConfig

    with pytest.raises(SystemExit, match="NOTIFY_URLS: 'ntfy.sh/x' is not a notification URL"):
        NotifyConfig(host_urls=["ntfy.sh/x"], smtp_url="").check()
    with pytest.raises(SystemExit, match="SMTP_URL must be an Apprise mailto"):
        NotifyConfig(host_urls=[], smtp_url="smtp://mail.example.org").check()
    NotifyConfig(host_urls=["ntfys://ntfy.sh/x"], smtp_url="mailtos://u:p@mail.example.org?from=k@example.org").check()


def test_the_hosts_own_settings_go_through_the_outgoing_policy_too():
    import pytest

    from app.notify.config import NotifyConfig

    with pytest.raises(SystemExit, match="SMTP_URL: 127.0.0.1 is an address on the server's own network"):
        NotifyConfig(host_urls=[], smtp_url="mailto://127.0.0.1:25?from=k@example.org", allowed_hosts=[]).check()
    with pytest.raises(SystemExit, match="NOTIFY_URLS: 10.0.0.9 is an address on the server's own network"):
        NotifyConfig(host_urls=["json://10.0.0.9/hook"], smtp_url="", allowed_hosts=[]).check()
    with pytest.raises(SystemExit, match="OUTGOING_ALLOWED_HOSTS"):
        NotifyConfig(host_urls=[], smtp_url="", allowed_hosts=["http://x/"]).check()
    NotifyConfig(host_urls=[], smtp_url="mailto://127.0.0.1:25?from=k@example.org", allowed_hosts=["127.0.0.1"]).check()


async def test_a_mail_server_reached_by_a_name_that_resolves_to_loopback_is_refused(sqlite_url, clock, smtp):
    from app.notify.outgoing import REFUSED

    smtp_url = f"mailto://localhost:{smtp.port}?from=keydom@example.org"
    async for table in open_table(sqlite_url, clock, smtp_url=smtp_url, allowed_hosts=[]):
        game = await table.new_game()
        assert (await table.set_channels(game, 1, email="bob@example.org")).status_code == 200
        await table.step(game, 0)
        assert await table.later(10) == 1
        delivery = (await table.http.get(f"/api/games/{game['id']}/notifications",
                                         headers={"Authorization": f"Bearer {game['seats'][1]['token']}"})).json()
        assert delivery["deliveries"][0]["error"] == REFUSED
    assert smtp.mails == []

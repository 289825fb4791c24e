"""Links that reach friends: the host page knows when its links open only on this machine,
offers the machine's other addresses (read from its interfaces, never contacted), keeps the
address the host picks (PUBLIC_URL still wins), says when the server listens on loopback
only; each seat link has a QR code; ``make run`` prints the addresses friends can use."""

from __future__ import annotations

import html
import ipaddress
import re

import httpx
import pytest
import segno
from sqlalchemy import text

from app.__main__ import where_friends_connect
from app.settings import Settings
from app import reach

from .support import SAME_SITE, bearer, create, table_of

# A laptop on Wi-Fi with Tailscale and Docker: what psutil would list (no traffic is sent).
INTERFACES = [("lo", ipaddress.ip_address("127.0.0.1")), ("wlan0", ipaddress.ip_address("192.168.1.20")),
              ("tailscale0", ipaddress.ip_address("100.101.7.2")), ("docker0", ipaddress.ip_address("172.17.0.1")),
              ("wlan0", ipaddress.ip_address("fe80::1")), ("lo", ipaddress.ip_address("::1"))]


@pytest.fixture
def laptop(monkeypatch):
    monkeypatch.setattr(reach, "interface_addresses", lambda: list(INTERFACES))


def app_of(client):
    return client._transport.app


def text_of(page) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.text)))


def test_loopback_links_reach_nobody_and_the_lan_and_vpn_addresses_are_offered():
    judged = reach.judge("http://127.0.0.1:8000", "request", "127.0.0.1", 8000, INTERFACES)
    assert not judged.reaches_others and judged.kind == "this-machine" and judged.listens_only_here
    assert [(a.url, a.kind) for a in judged.candidates] == [("http://192.168.1.20:8000", "lan"),
                                                            ("http://100.101.7.2:8000", "vpn")]
    assert reach.judge("http://localhost:8000", "request", "0.0.0.0", 8000, INTERFACES).kind == "this-machine"
    # An address only this machine has (its Docker bridge), or a link-local one, reaches nobody either.
    assert not reach.judge("http://172.17.0.1:8000", "request", "0.0.0.0", 8000, INTERFACES).reaches_others
    assert not reach.judge("http://[fe80::1]:8000", "request", "0.0.0.0", 8000, INTERFACES).reaches_others
    lan = reach.judge("http://192.168.1.20:8000", "chosen", "0.0.0.0", 8000, INTERFACES)
    assert lan.reaches_others and lan.kind == "lan" and "same network" in lan.summary
    # A LAN link while the server listens on loopback only: nobody else can connect.
    assert not reach.judge("http://192.168.1.20:8000", "chosen", "127.0.0.1", 8000, INTERFACES).reaches_others
    # Listening on one address: only that one is offered.
    only = reach.judge("http://127.0.0.1:8000", "request", "100.101.7.2", 8000, INTERFACES)
    assert [a.url for a in only.candidates] == ["http://100.101.7.2:8000"]


async def test_the_host_page_warns_and_offers_addresses_when_links_are_loopback(client, laptop):
    game = await create(client, ["Ann", None])
    host_path = f"/g/{game['id']}/host/{game['host_token']}"
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app_of(client)),
                                 base_url="http://127.0.0.1:8000") as local:
        page = await local.get(host_path)
    shown = text_of(page)
    assert "Friends cannot open these links yet" in shown and "These links only open on this computer" in shown
    assert "The server listens only on this computer (HOST=127.0.0.1)" in shown and "HOST=0.0.0.0 make run" in shown
    assert 'value="http://192.168.1.20:8000"' in page.text and "local network (wlan0)" in shown
    assert 'value="http://100.101.7.2:8000"' in page.text and "VPN (tailscale0)" in shown
    assert "172.17.0.1" not in page.text and "fe80" not in page.text  # nobody else reaches those
    # Through a name the page makes no alarm (a proxy or a name that leads here).
    named = text_of(await client.get(host_path))
    assert "Friends cannot open these links yet" not in named and "These links use the name testserver" in named


async def test_the_chosen_address_is_kept_by_the_server_and_used_for_every_link(client, laptop):
    game = await create(client, ["Ann", None])
    host_path = f"/g/{game['id']}/host/{game['host_token']}"
    chose = await client.post(host_path + "/link-address", data={"address": "http://192.168.1.20:8000"},
                              headers=SAME_SITE)
    assert chose.status_code == 303 and chose.headers["location"].endswith("?done=address#links-reach")
    async with table_of(client).db.read() as session:
        stored = (await session.execute(text("SELECT key, value FROM server_settings"))).all()
    assert [tuple(r) for r in stored] == [("link_address", "http://192.168.1.20:8000")]
    page = await client.get(chose.headers["location"])
    assert "Links are now made with the address you chose." in page.text
    assert f'value="http://192.168.1.20:8000/g/{game["id"]}/seat/{game["seats"][1]["token"]}"' in page.text
    assert "this machine&#39;s local-network address" in page.text
    api = (await client.get(f"/api/games/{game['id']}/host", headers=bearer(game["host_token"]))).json()
    assert api["seats"][0]["url"].startswith("http://192.168.1.20:8000/g/")
    made = await create(client, ["Bo", "Cy"])
    assert made["host_url"].startswith("http://192.168.1.20:8000/g/")
    # Another server process reads it from the database (after its few seconds of caching).
    other = table_of(client).hosting
    other._link_address_read = float("-inf")
    other.link_address = ""
    assert await other.link_address_now() == "http://192.168.1.20:8000"
    # Back to the address each page is opened with.
    await client.post(host_path + "/link-address", data={"address": ""}, headers=SAME_SITE)
    assert (await create(client, ["Di", "Ed"]))["host_url"].startswith("http://testserver/g/")
    # PUBLIC_URL wins, and the page offers no choice then.
    await client.post(host_path + "/link-address", data={"address": "http://100.101.7.2:8000"}, headers=SAME_SITE)
    app_of(client).state.settings.public_url = "https://games.example.org"
    try:
        assert (await create(client, ["Fy", "Gu"]))["host_url"].startswith("https://games.example.org/g/")
        page = text_of(await client.get(host_path))
        assert "Links are made with PUBLIC_URL (games.example.org)" in page
        assert "/link-address" not in (await client.get(host_path)).text
        refused = await client.post(host_path + "/link-address", data={"address": ""}, headers=SAME_SITE)
        assert refused.status_code == 403
    finally:
        app_of(client).state.settings.public_url = ""


async def test_only_this_machines_addresses_and_only_from_nearby(client, laptop):
    game = await create(client, ["Ann", "Bob"])
    host_path = f"/g/{game['id']}/host/{game['host_token']}"
    foreign = await client.post(host_path + "/link-address", data={"address": "http://evil.example"}, headers=SAME_SITE)
    assert foreign.status_code == 422 and "not one of this computer" in html.unescape(foreign.text)
    bridge = await client.post(host_path + "/link-address", data={"address": "http://172.17.0.1:8000"}, headers=SAME_SITE)
    assert bridge.status_code == 422
    wrong_host = await client.post(f"/g/{game['id']}/host/{'x' * 32}/link-address",
                                   data={"address": "http://192.168.1.20:8000"}, headers=SAME_SITE)
    assert wrong_host.status_code == 403
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app_of(client), client=("1.2.3.4", 5000)),
                                 base_url="http://testserver") as far_away:
        refused = await far_away.post(host_path + "/link-address", data={"address": "http://192.168.1.20:8000"},
                                      headers=SAME_SITE)
        assert refused.status_code == 403 and "local network" in refused.text
        assert "/link-address" not in (await far_away.get(host_path)).text
    async with table_of(client).db.read() as session:
        assert (await session.execute(text("SELECT count(*) FROM server_settings"))).scalar_one() == 0


async def test_every_shown_seat_link_has_its_qr_code(client):
    game = await create(client, ["Ann", None, "Cy"])
    page = await client.get(f"/g/{game['id']}/host/{game['host_token']}")
    codes = re.findall(r'<img src="(data:image/svg\+xml[^"]+)" alt="QR code of the link for seat (\d)"', page.text)
    assert [int(n) for _, n in codes] == [1, 2, 3]
    for (uri, _), seat in zip(codes, game["seats"]):
        made = segno.make(seat["url"], error="m", micro=False)
        assert html.unescape(uri) == made.svg_data_uri(scale=4, border=2, dark="#1d1b16", light="#ffffff")


def test_make_run_prints_the_addresses_friends_can_use(monkeypatch):
    monkeypatch.setattr(reach, "interface_addresses", lambda: list(INTERFACES))
    printed = where_friends_connect(Settings(host="0.0.0.0", port=8000, public_url=""))
    assert "http://192.168.1.20:8000  (local network (wlan0))" in printed
    assert "http://100.101.7.2:8000  (VPN (tailscale0))" in printed and "172.17" not in printed
    loopback = where_friends_connect(Settings(host="127.0.0.1", port=8000, public_url=""))
    assert "Only this computer can open it" in loopback and "HOST=0.0.0.0 make run" in loopback
    assert "http://192.168.1.20:8000" in loopback  # what will work once it listens on the network
    assert "PUBLIC_URL" in where_friends_connect(Settings(host="127.0.0.1", public_url="https://games.example.org"))

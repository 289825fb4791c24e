"""The outgoing-request policy (app/notify/outgoing.py): the server's own requests reach
neither loopback nor private networks unless the host allows them, however the address is
written or resolved, and one destination that never answers holds back nobody else.

Every listener here is on loopback; "refused" means it received nothing at all."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, AsyncIterator, Iterator

import pytest

from app.notify.outgoing import FAILED, REFUSED, OutgoingRefused, Policy, is_internal, literal_address

from .conftest import Clock, Receiver, Table, bearer, open_table

INTERNAL = ["127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
            "224.0.0.251", "239.1.1.1", "0.0.0.0", "255.255.255.255", "::", "::1", "fe80::1", "fc00::1", "fd12::1",
            "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1", "2002:7f00:1::1", "64:ff9b::a00:1",
            "2001:0:4136:e378:8000:63bf:80ff:fffe"]  # the last: Teredo, client 127.0.0.1
PUBLIC = ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:93.184.215.14"]


@pytest.mark.parametrize("address", INTERNAL)
def test_internal_addresses_are_refused(address):
    assert is_internal(ipaddress.ip_address(address))
    assert not Policy().allows(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_pass(address):
    assert not is_internal(ipaddress.ip_address(address))


@pytest.mark.parametrize("written", ["2130706433", "0x7f000001", "0177.0.0.1", "127.1", "0x7f.1", "[::ffff:7f00:1]"])
def test_every_way_of_writing_loopback_is_read_as_loopback(written):
    assert literal_address(written) == ipaddress.ip_address("127.0.0.1") or \
        literal_address(written) == ipaddress.ip_address("::ffff:127.0.0.1")


def test_the_allow_list_takes_names_addresses_and_networks():
    policy = Policy(["192.168.1.0/24", "10.0.0.7", "ntfy.lan"])
    assert policy.allows(ipaddress.ip_address("192.168.1.50"))
    assert policy.allows(ipaddress.ip_address("10.0.0.7"))
    assert not policy.allows(ipaddress.ip_address("10.0.0.8"))
    assert not policy.allows(ipaddress.ip_address("127.0.0.1"))
    with pytest.raises(ValueError):
        Policy(["http://ntfy.lan/"])


def test_a_guarded_thread_cannot_connect_to_loopback_but_others_can():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        with Policy().guard() as guarded, pytest.raises(OutgoingRefused):
            socket.create_connection(("127.0.0.1", port), timeout=2)
        assert guarded.refused
        # Outside the guard (the rest of the server: its database, its clients) nothing changes.
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


# --- Through the API, with loopback listeners ---

class Redirector:
    """An allowed server that answers every POST with a redirect elsewhere."""

    def __init__(self, host: str, location: str) -> None:
        self.hits = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                outer.hits += 1
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(307)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((host, 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class BlackHole:
    """Accepts connections and never answers, until closed."""

    def __init__(self) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(32)
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.listener.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
async def strict(sqlite_url: str, clock: Clock) -> AsyncIterator[Table]:
    """A server with the default policy: nothing internal allowed."""
    async for t in open_table(sqlite_url, clock, allowed_hosts=[]):
        yield t


@pytest.fixture
def rebinding(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A public-looking name that the resolver (socket.getaddrinfo, which the HTTP client and
    the policy both use) answers with 127.0.0.1, as a rebinding DNS server would."""
    name = "rebind.keydom-test.example"
    real = socket.getaddrinfo

    def resolve(host: Any, *args: Any, **kwargs: Any) -> Any:
        return real("127.0.0.1" if host == name else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    yield name


@pytest.mark.parametrize("url", [
    "json://127.0.0.1:{port}/x?method=DELETE&+Authorization=Bearer%20x",
    "json://2130706433:{port}/x", "json://0x7f000001:{port}/x", "json://127.1:{port}/x",
    "json://[::1]:{port}/x", "json://[::ffff:127.0.0.1]:{port}/x", "jsons://0.0.0.0:{port}/x",
    "gotify://192.168.1.20/token", "ntfy://169.254.169.254/topic",
])
async def test_a_literal_internal_address_is_refused_when_saved(strict, receiver, url):
    game = await strict.new_game()
    response = await strict.set_channels(game, 1, urls=[url.format(port=receiver.port)])
    assert response.status_code == 422
    assert "server's own network" in response.json()["detail"]
    assert "OUTGOING_ALLOWED_HOSTS" in response.json()["detail"]
    stored = (await strict.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
    assert stored["urls"] == []
    assert receiver.received == []


@pytest.mark.parametrize("url", ["irc://keydom@irc.example.org/#keydom", "ircs://keydom@irc.example.org/#keydom"])
async def test_schemes_that_are_not_web_notifications_are_refused(strict, url):
    game = await strict.new_game()
    response = await strict.set_channels(game, 1, urls=[url])
    assert response.status_code == 422
    assert "not allowed on this server" in response.json()["detail"]


async def test_the_host_can_allow_more_schemes(sqlite_url, clock):
    async for t in open_table(sqlite_url, clock, extra_schemes=["irc", "ircs"]):
        game = await t.new_game()
        response = await t.set_channels(game, 1, urls=["ircs://keydom@irc.example.org/#keydom"])
        assert response.status_code == 200, response.text


async def _bob_owes_a_turn_and_is_told(t: Table) -> dict[str, Any]:
    game = t.games["current"]
    await t.step(game, 0)  # Ann names a resource: Bob owes a decision
    await t.later(10)
    shown = (await t.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
    return shown["deliveries"][0]


async def test_a_name_resolving_to_loopback_is_refused_at_delivery(strict, receiver, rebinding):
    game = strict.games["current"] = await strict.new_game()
    url = f"json://{rebinding}:{receiver.port}/rebound"
    assert (await strict.set_channels(game, 1, urls=[url])).status_code == 200  # a name: judged when sent
    delivery = await _bob_owes_a_turn_and_is_told(strict)
    assert delivery["ok"] is False and delivery["error"] == REFUSED
    strict.clock.advance(11)
    test = await strict.http.post(f"/api/games/{game['id']}/notifications/test", headers=bearer(game, 1))
    assert [d["error"] for d in test.json()] == [REFUSED]
    assert receiver.received == []


async def test_localhost_by_name_is_refused_at_delivery(strict, receiver):
    game = await strict.new_game()
    await strict.set_channels(game, 1, urls=[f"json://localhost:{receiver.port}/by-name"])
    strict.clock.advance(11)
    test = await strict.http.post(f"/api/games/{game['id']}/notifications/test", headers=bearer(game, 1))
    assert [d["error"] for d in test.json()] == [REFUSED]
    assert receiver.received == []


async def test_a_redirect_from_an_allowed_host_to_a_refused_one_is_stopped(sqlite_url, clock, receiver):
    # 127.0.0.2 is allowed (the self-hoster's own service); 127.0.0.1 is not.
    hop = Redirector("127.0.0.2", f"http://127.0.0.1:{receiver.port}/redirected")
    try:
        async for t in open_table(sqlite_url, clock, allowed_hosts=["127.0.0.2"]):
            game = await t.new_game()
            assert (await t.set_channels(game, 1, urls=[f"json://127.0.0.2:{hop.port}/hook"])).status_code == 200
            clock.advance(11)
            test = await t.http.post(f"/api/games/{game['id']}/notifications/test", headers=bearer(game, 1))
            assert [d["error"] for d in test.json()] == [REFUSED]
    finally:
        hop.close()
    assert hop.hits == 1  # the allowed host was reached; the place it pointed to was not
    assert receiver.received == []


async def test_the_allow_list_lets_the_hosts_own_service_through(sqlite_url, clock, receiver, rebinding):
    async for t in open_table(sqlite_url, clock, allowed_hosts=[rebinding, "127.0.0.0/8"]):
        game = t.games["current"] = await t.new_game()
        urls = [f"json://{rebinding}:{receiver.port}/by-name", f"json://127.0.0.1:{receiver.port}/by-network"]
        assert (await t.set_channels(game, 1, urls=urls)).status_code == 200
        await _bob_owes_a_turn_and_is_told(t)
    assert len(receiver.to("by-name")) == 1 and len(receiver.to("by-network")) == 1


async def test_the_player_is_told_only_that_delivery_failed(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    receiver.fail_next = 1
    await table.step(game, 0)
    await table.later(10)
    shown = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
    assert shown["deliveries"][0]["error"] == FAILED  # not the remote's "503" or its body


async def test_black_holes_do_not_hold_back_other_seats_messages(sqlite_url, clock):
    hole, receiver = BlackHole(), Receiver()
    try:
        # Long per-destination deadline: one at a time, the good message would wait minutes.
        async for t in open_table(sqlite_url, clock, send_timeout=120, senders=8):
            stuck = await t.new_game()
            fine = await t.new_game()
            holes = [f"json://127.0.0.1:{hole.port}/hole{n}" for n in range(5)]
            assert (await t.set_channels(stuck, 1, urls=holes)).status_code == 200
            assert (await t.set_channels(fine, 1, urls=[receiver.url("fine")])).status_code == 200
            await t.step(stuck, 0)  # the stuck game's messages are queued first
            await t.step(fine, 0)
            clock.advance(10)
            sending = asyncio.create_task(t.notifier.run_once())
            for _ in range(600):  # the deadline of a failure, not a timing assertion
                if receiver.to("fine") or sending.done():
                    break
                await asyncio.sleep(0.05)
            assert len(receiver.to("fine")) == 1, "the good message waited behind the black holes"
            assert not sending.done() and len(hole.held) == 5  # all five still hanging meanwhile
            hole.close()  # let them fail now
            assert await sending == 6
            shown = (await t.http.get(f"/api/games/{stuck['id']}/notifications", headers=bearer(stuck, 1))).json()
            assert {d["error"] for d in shown["deliveries"]} == {FAILED}
    finally:
        hole.close()
        receiver.close()

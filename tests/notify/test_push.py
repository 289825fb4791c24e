"""Web Push ("notify this device"): a browser's subscription is stored, and turn messages
reach it through a push service, encrypted to the browser and signed with the server's
VAPID key. The push service here is a loopback server the test's allow-list lets through;
the browser is the test, holding the subscription's private key."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

import http_ece
import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from app.notify.outgoing import REFUSED
from app.notify.tables import OUTBOX, PUSH
from app.notify.webpush import GONE

from .conftest import bearer, open_table


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """Takes pushes like a browser vendor's service: 201, or the status it is told to give."""

    def __init__(self) -> None:
        self.pushes: list[dict[str, Any]] = []
        self.answer = 201
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.pushes.append({"path": self.path, "body": body,
                                     "headers": {k.lower(): v for k, v in self.headers.items()}})
                self.send_response(outer.answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """What a browser keeps of its push subscription: a P-256 key pair and an auth secret."""

    def __init__(self, service: PushService, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"http://127.0.0.1:{service.port}/push/{name}"

    def subscription(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                     serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, push: dict[str, Any]) -> dict[str, Any]:
        assert push["headers"]["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(push["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


def check_vapid(push: dict[str, Any], server_key: str, audience: str) -> dict[str, Any]:
    """The push carries a VAPID claim signed by the server's key (what push services check)."""
    scheme, _, fields = push["headers"]["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(field.strip().split("=", 1) for field in fields.split(","))
    assert parts["k"] == server_key
    head, claims, signature = parts["t"].split(".")
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    decoded = json.loads(unb64(claims))
    assert decoded["aud"] == audience and decoded["sub"] == "mailto:tests@example.org"
    return decoded


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


async def test_a_browser_subscribes_and_its_turn_arrives_encrypted_and_signed(table, service):
    game = await table.new_game()
    browser = Browser(service, "bob")
    response = await table.http.put(f"/api/games/{game['id']}/notifications/push", json=browser.subscription(),
                                    headers=bearer(game, 1))
    assert response.status_code == 200, response.text
    stored = response.json()
    assert [p["endpoint"] for p in stored["push"]] == [browser.endpoint]
    assert stored["push"][0]["service"] == "127.0.0.1"
    await table.step(game, 0)  # Ann names a resource: Bob owes a decision
    assert await table.later(10) == 1
    [push] = service.pushes
    assert push["path"] == "/push/bob"
    check_vapid(push, stored["push_key"], f"http://127.0.0.1:{service.port}")
    message = browser.read(push)
    assert message["title"] == "Your turn — Tiny Towns"
    assert "It is your move" in message["body"]
    assert message["url"] == game["seats"][1]["url"]
    async with table.notifier.db.read() as session:  # the link travelled encrypted; none is kept
        rows = (await session.execute(sa.select(OUTBOX))).all()
    assert [(r.status, r.body) for r in rows] == [("sent", "")]
    shown = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
    assert shown["deliveries"][0]["service"] == "push" and shown["deliveries"][0]["ok"] is True


async def test_one_browser_serves_every_game_it_joins(table, service):
    browser = Browser(service, "ann")
    games = [await table.new_game(), await table.new_game()]
    for game in games:
        response = await table.http.put(f"/api/games/{game['id']}/notifications/push",
                                        json=browser.subscription(), headers=bearer(game, 1))
        assert response.status_code == 200
        await table.step(game, 0)
    assert await table.later(10) == 2
    assert sorted(browser.read(p)["url"] for p in service.pushes) == sorted(g["seats"][1]["url"] for g in games)


async def test_a_subscription_the_browser_dropped_is_forgotten(table, service):
    game = await table.new_game()
    browser = Browser(service, "gone")
    await table.http.put(f"/api/games/{game['id']}/notifications/push", json=browser.subscription(),
                         headers=bearer(game, 1))
    service.answer = 410
    await table.step(game, 0)
    assert await table.later(10) == 1
    async with table.notifier.db.read() as session:
        assert (await session.execute(sa.select(PUSH))).all() == []
        [row] = (await session.execute(sa.select(OUTBOX))).all()
    assert row.status == "failed" and row.error == GONE


async def test_a_browser_is_removed_and_with_nothing_left_notifications_are_off(table, service):
    game = await table.new_game()
    browser = Browser(service, "bye")
    stored = (await table.http.put(f"/api/games/{game['id']}/notifications/push", json=browser.subscription(),
                                   headers=bearer(game, 1))).json()
    push_id = stored["push"][0]["id"]
    other = await table.http.delete(f"/api/games/{game['id']}/notifications/push/{push_id}", headers=bearer(game, 0))
    assert other.status_code == 404  # another seat cannot remove it
    response = await table.http.delete(f"/api/games/{game['id']}/notifications/push/{push_id}", headers=bearer(game, 1))
    assert response.status_code == 200 and response.json()["push"] == []
    await table.step(game, 0)
    assert await table.later(10) == 0
    assert service.pushes == []


@pytest.mark.parametrize("change, words", [
    ({"endpoint": "ftp://push.example.org/x"}, "https://"),
    ({"endpoint": "http://push.example.org/x"}, "https://"),
    ({"endpoint": "https://10.0.0.5/push/x"}, "server's own network"),
    ({"keys": {"p256dh": "AAAA", "auth": "AAAA"}}, "P-256"),
    ({"keys": {"p256dh": "not base64!", "auth": "x"}}, "base64url"),
])
async def test_a_bad_subscription_is_refused_readably(table, service, change, words):
    game = await table.new_game()
    body = {**Browser(service, "x").subscription(), **change}
    response = await table.http.put(f"/api/games/{game['id']}/notifications/push", json=body, headers=bearer(game, 1))
    assert response.status_code == 422
    assert words in response.json()["detail"]


async def test_push_endpoints_go_through_the_outgoing_policy(sqlite_url, clock, service, monkeypatch):
    import socket

    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo",
                        lambda host, *a, **k: real("127.0.0.1" if host == "push.keydom-test.example" else host, *a, **k))
    async for t in open_table(sqlite_url, clock, allowed_hosts=[]):
        game = await t.new_game()
        literal = {**Browser(service, "x").subscription()}
        refused = await t.http.put(f"/api/games/{game['id']}/notifications/push", json=literal, headers=bearer(game, 1))
        assert refused.status_code == 422  # plain http to loopback: not allowed here
        rebound = {**literal, "endpoint": f"https://push.keydom-test.example:{service.port}/push/x"}
        saved = await t.http.put(f"/api/games/{game['id']}/notifications/push", json=rebound, headers=bearer(game, 1))
        assert saved.status_code == 200, saved.text
        await t.step(game, 0)
        assert await t.later(10) == 1
        shown = (await t.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
        assert shown["deliveries"][0]["error"] == REFUSED
    assert service.pushes == []

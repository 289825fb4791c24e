"""JSON API: where a seat wants to be told that the game waits for it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from app.notify.channels import MAX_URLS, BadChannel, check_email, check_urls
from app.notify.notifier import Notifier
from app.notify.outgoing import BadDestination
from app.notify.webpush import check_subscription, host_of
from app.table.errors import Unauthorized

from .deps import TableDep, TokenDep, base_url
from .games import refusals

router = APIRouter(prefix="/api", tags=["notifications"], responses=refusals(413))


class NotificationsIn(BaseModel):
    email: str | None = Field(default=None, max_length=254, examples=["ann@example.org"],
                              description="Sent by the server's own mail account (only if its host set SMTP_URL).")
    urls: list[str] = Field(default_factory=list, max_length=MAX_URLS,
                            examples=[["ntfys://ntfy.sh/ann-keydom", "json://hooks.example.org/keydom"]],
                            description="Apprise notification URLs: ntfy, Discord, Slack, Telegram, Matrix, "
                                        "Gotify, json:// webhooks and many more.")
    remind_after_hours: float | None = Field(default=None, gt=0, le=24 * 14,
                                             description="One reminder if the game still waits for you this long.")


class DeliveryOut(BaseModel):
    channel: str = Field(description="The address or URL, as this seat typed it.")
    service: str = Field(description="What it is, e.g. 'ntfy', 'e-mail', 'JSON'.")
    kind: str = Field(description="turn, reminder, result or test.")
    ok: bool
    error: str | None = Field(description="Why the last attempt failed: refused by the server's outgoing-request "
                                          "policy, or delivery failed (the remote's answer is never shown).")
    at: float | None = Field(description="When it was tried (seconds since 1970, UTC).")
    retry_at: float | None = Field(description="When it is tried again, if it failed and will be retried.")
    gave_up: bool = Field(description="It failed too often and will not be tried again.")


class PushOut(BaseModel):
    id: int
    endpoint: str = Field(description="The browser's push endpoint (a page compares it with its own subscription).")
    service: str = Field(description="The push service's host, e.g. fcm.googleapis.com.")
    created_at: float


class NotificationsOut(BaseModel):
    email: str | None
    urls: list[str]
    remind_after_hours: float | None
    email_available: bool = Field(description="The server can send e-mail (its host set SMTP_URL).")
    push_key: str = Field(description="The server's VAPID public key: a page subscribes to Web Push with it.")
    push: list[PushOut] = Field(description="The browsers this seat gets Web Push messages on.")
    deliveries: list[DeliveryOut] = Field(description="The last attempt per channel, newest first.")


def _notifier(request: Request) -> Notifier:
    return request.app.state.notifier


async def _seat(table: TableDep, game_id: str, token: str | None) -> Any:
    if token is None:
        raise Unauthorized("Notifications belong to a seat: send 'Authorization: Bearer <seat token>'.")
    return await table.viewer(game_id, token)


async def _settings_out(notifier: Notifier, viewer: Any) -> NotificationsOut:
    target = await notifier.seat_channels(viewer.game_id, viewer.seat)
    return NotificationsOut(
        email=target.email if target else None,
        urls=target.urls if target else [],
        remind_after_hours=target.remind_after_hours if target else None,
        email_available=bool(notifier.config.smtp_url),
        push_key=notifier.push_key,
        push=[PushOut(id=row.id, endpoint=row.endpoint, service=host_of(row.endpoint), created_at=row.created_at)
              for row in (target.push if target else ())],
        deliveries=[DeliveryOut(**d) for d in await notifier.deliveries(viewer)],
    )


@router.get("/games/{game_id}/notifications", response_model=NotificationsOut,
            responses=refusals(401, 403, 404))
async def get_notifications(game_id: str, table: TableDep, token: TokenDep, request: Request) -> NotificationsOut:
    """This seat's channels, and how the last message to each went."""
    viewer = await _seat(table, game_id, token)
    return await _settings_out(_notifier(request), viewer)


@router.put("/games/{game_id}/notifications", response_model=NotificationsOut,
            responses=refusals(401, 403, 404, 422))
async def put_notifications(game_id: str, body: NotificationsIn, table: TableDep, token: TokenDep,
                            request: Request) -> NotificationsOut:
    """Replace this seat's channels. A malformed address or URL is refused (422) and nothing
    changes. No e-mail, no URLs and no browser with push turns notifications off (and the server
    forgets the link)."""
    viewer = await _seat(table, game_id, token)
    notifier = _notifier(request)
    email = check_email(body.email, notifier.config.smtp_url)
    urls = check_urls(body.urls, notifier.policy)
    assert token is not None
    await notifier.save(viewer, email, urls, body.remind_after_hours, base_url(request), token)
    return await _settings_out(notifier, viewer)


@router.post("/games/{game_id}/notifications/test", response_model=list[DeliveryOut],
             responses=refusals(401, 403, 404, 422))
async def test_notifications(game_id: str, table: TableDep, token: TokenDep, request: Request) -> list[DeliveryOut]:
    """Send one test message to each of this seat's channels now; answers how each went."""
    viewer = await _seat(table, game_id, token)
    return [DeliveryOut(**d) for d in await _notifier(request).send_test(viewer)]


class PushKeys(BaseModel):
    p256dh: str = Field(max_length=200, description="The browser's P-256 public key, base64url.")
    auth: str = Field(max_length=100, description="The browser's 16-byte auth secret, base64url.")


class PushIn(BaseModel):
    endpoint: str = Field(max_length=1000, examples=["https://fcm.googleapis.com/fcm/send/abc123"],
                          description="What the browser's PushSubscription.toJSON() gives.")
    keys: PushKeys


@router.put("/games/{game_id}/notifications/push", response_model=NotificationsOut,
            responses=refusals(401, 403, 404, 422))
async def add_push(game_id: str, body: PushIn, table: TableDep, token: TokenDep, request: Request) -> NotificationsOut:
    """Tell this seat's turns to this browser by Web Push (its service worker shows them,
    with the page and the tab closed). The endpoint goes through the outgoing-request policy."""
    viewer = await _seat(table, game_id, token)
    notifier = _notifier(request)
    try:
        subscription = check_subscription(body.endpoint, body.keys.p256dh, body.keys.auth, notifier.policy)
    except BadDestination as refusal:
        raise BadChannel(str(refusal)) from None
    assert token is not None
    await notifier.add_push(viewer, subscription, base_url(request), token)
    return await _settings_out(notifier, viewer)


@router.delete("/games/{game_id}/notifications/push/{push_id}", response_model=NotificationsOut,
               responses=refusals(401, 403, 404))
async def remove_push(game_id: str, table: TableDep, token: TokenDep,
                      request: Request, push_id: int = Path(ge=1, le=2**31 - 1)) -> NotificationsOut:
    """Stop Web Push messages to one browser of this seat."""
    viewer = await _seat(table, game_id, token)
    notifier = _notifier(request)
    await notifier.remove_push(viewer, push_id)
    return await _settings_out(notifier, viewer)

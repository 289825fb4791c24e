"""What every HTTP answer carries, and the body limit: shared by the middleware in
app.main and the action route served directly (app.api.direct)."""

from __future__ import annotations

from starlette.types import Message

MAX_BODY = 64 * 1024  # the largest honest request (a new game) is well under 2 KB

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Seat links carry tokens: never send them to other sites. (Not "no-referrer": with it
    # browsers send "Origin: null" on our own form posts, which the CSRF check refuses.)
    (b"referrer-policy", b"same-origin"),
]
CSP = (b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       b"connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def secured(start: Message, docs: bool = False) -> Message:
    """An ``http.response.start`` message with the security headers it lacks; ``docs``
    (FastAPI's own API pages) leaves out the content security policy, which they break."""
    headers = list(start.get("headers", []))
    present = {k.lower() for k, _ in headers}
    headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
    if not docs and b"content-security-policy" not in present:
        headers.append((b"content-security-policy", CSP))
    return {**start, "headers": headers}

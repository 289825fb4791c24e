"""QR codes for seat links, so a friend at the same table opens their seat with a phone camera."""

from __future__ import annotations

import segno


def seat_qr(link: str) -> str:
    """An SVG data URI of the link's QR code (the page's CSP allows data: images; no script)."""
    code = segno.make(link, error="m", micro=False)
    return code.svg_data_uri(scale=4, border=2, dark="#1d1b16", light="#ffffff")

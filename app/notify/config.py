"""Notification settings from the environment (see the README's configuration table)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from app.settings import ROOT


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        return float(raw) if raw else default
    except ValueError:
        raise SystemExit(f"{name} must be a number, not {raw!r}.") from None


def _urls(raw: str) -> list[str]:
    """NOTIFY_URLS: Apprise URLs separated by spaces or commas."""
    return [part for part in raw.replace(",", " ").split() if part]


@dataclass
class NotifyConfig:
    # An Apprise mailto:// or mailtos:// URL with the sender; a seat's address becomes its "to".
    smtp_url: str = field(default_factory=lambda: os.environ.get("SMTP_URL", "").strip())
    # The host's own channels: every game's result (public facts only).
    host_urls: list[str] = field(default_factory=lambda: _urls(os.environ.get("NOTIFY_URLS", "")))
    # Seconds between a seat coming to owe a decision and the message (steps in between merge).
    delay: float = field(default_factory=lambda: _float("NOTIFY_DELAY_SECONDS", 10))
    # No second message to one seat of one game within this many seconds of the last one.
    quiet: float = field(default_factory=lambda: _float("NOTIFY_QUIET_SECONDS", 300))
    # How often the worker looks for due messages, and refreshes "this page is open".
    tick: float = field(default_factory=lambda: _float("NOTIFY_TICK_SECONDS", 1))
    # Retries of a failed delivery: first after `retry_first` seconds, doubling, up to `retry_max`.
    retry_first: float = field(default_factory=lambda: _float("NOTIFY_RETRY_SECONDS", 30))
    retry_max: float = 3600
    max_attempts: int = 8
    # A page whose process has not confirmed it for this long is taken as closed.
    presence_stale: float = 60
    # How long a claim holds before another process may take the row over.
    lease: float = 60
    # Seat links kept for messages are sealed with this (see sealing.py); unset: a key file.
    link_key: str = field(default_factory=lambda: os.environ.get("NOTIFY_KEY", ""))
    key_file: Path = field(default_factory=lambda: Path(os.environ.get("NOTIFY_KEY_FILE", "") or ROOT / "keydom-notify.key"))
    # False: no background loop; tests call ``Notifier.run_once`` themselves.
    background: bool = True
    clock: Callable[[], float] = time.time

    def check(self) -> None:
        """Refuse to start on a setting that could never send (a readable line, not a trace)."""
        from .channels import BadChannel, apprise_url, check_url, reachable

        for url in self.host_urls:
            try:
                check_url(url)
            except BadChannel as refusal:
                raise SystemExit(f"NOTIFY_URLS: {refusal.message}") from None
        if self.smtp_url:
            if not self.smtp_url.lower().startswith(("mailto://", "mailtos://")):
                raise SystemExit("SMTP_URL must be an Apprise mailto:// or mailtos:// URL, "
                                 "e.g. mailtos://user:password@mail.example.org?from=keydom@example.org.")
            if not reachable(apprise_url("email:someone@example.org", self.smtp_url)):
                raise SystemExit("SMTP_URL is not a mail URL Apprise understands; see its mailto:// documentation.")


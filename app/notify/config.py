"""Notification settings from the environment (see the README's configuration table)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from app.settings import ROOT, env_list

from .outgoing import BadDestination, Policy


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
    # The longest the worker sleeps: it wakes when the next message or delivery it knows of
    # is due, to confirm open pages, and when this process schedules one; the tick is for
    # rows another process wrote.
    tick: float = field(default_factory=lambda: _float("NOTIFY_TICK_SECONDS", 5))
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
    # The outgoing-request policy (outgoing.py): internal hosts/networks let through, and
    # Apprise services allowed beyond the web ones (irc, amqp…).
    allowed_hosts: list[str] = field(default_factory=lambda: env_list("OUTGOING_ALLOWED_HOSTS"))
    extra_schemes: list[str] = field(default_factory=lambda: env_list("OUTGOING_EXTRA_SCHEMES"))
    # Seconds one delivery may take in all (connecting and reading get less each), and how
    # many run at once: a destination that never answers holds one sender, not the queue.
    send_timeout: float = field(default_factory=lambda: _float("NOTIFY_SEND_TIMEOUT", 15))
    senders: int = field(default_factory=lambda: int(_float("NOTIFY_SENDERS", 8)))
    # Sent and failed messages are deleted after this many days (their text is blanked as
    # soon as they are done with).
    keep_days: float = field(default_factory=lambda: _float("NOTIFY_KEEP_DAYS", 14))
    # Web Push: the server's VAPID key (PEM or raw base64url; unset: a key file made on first
    # start), and the contact push services are given (a mailto: or https: URL).
    vapid_private_key: str = field(default_factory=lambda: os.environ.get("VAPID_PRIVATE_KEY", ""))
    vapid_key_file: Path = field(default_factory=lambda: Path(os.environ.get("VAPID_KEY_FILE", "") or ROOT / "keydom-vapid.pem"))
    vapid_subject: str = field(default_factory=lambda: os.environ.get("VAPID_SUBJECT", "").strip())
    # False: no background loop; tests call ``Notifier.run_once`` themselves.
    background: bool = True
    clock: Callable[[], float] = time.time

    def policy(self) -> Policy:
        try:
            return Policy(self.allowed_hosts, self.extra_schemes)
        except ValueError as bad:
            raise SystemExit(f"OUTGOING_ALLOWED_HOSTS: {bad}") from None

    def check(self) -> None:
        """Refuse to start on a setting that could never send (a readable line, not a trace)."""
        from .channels import BadChannel, apprise_url, check_url, reachable

        policy = self.policy()
        if self.senders < 1 or self.send_timeout <= 0:
            raise SystemExit("NOTIFY_SENDERS and NOTIFY_SEND_TIMEOUT must be above 0.")
        for url in self.host_urls:
            try:
                check_url(url, policy)
            except BadChannel as refusal:
                raise SystemExit(f"NOTIFY_URLS: {refusal.message}") from None
        if self.smtp_url:
            if not self.smtp_url.lower().startswith(("mailto://", "mailtos://")):
                raise SystemExit("SMTP_URL must be an Apprise mailto:// or mailtos:// URL, "
                                 "e.g. mailtos://user:password@mail.example.org?from=keydom@example.org.")
            try:
                policy.judge_url(self.smtp_url, mail=True)
            except BadDestination as refusal:
                raise SystemExit(f"SMTP_URL: {refusal}") from None
            if not reachable(apprise_url("email:someone@example.org", self.smtp_url)):
                raise SystemExit("SMTP_URL is not a mail URL Apprise understands; see its mailto:// documentation.")


"""The notification tables (created by migrations 0005 and 0007_notify), as SQLAlchemy Core tables.

Kept out of ``app.store.models`` on purpose: nothing else reads them."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

SETTINGS = sa.Table(
    "notify_settings", metadata,
    sa.Column("game_id", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("email", sa.String(254)),
    sa.Column("urls", sa.JSON, nullable=False),
    sa.Column("remind_after_hours", sa.Float),
    sa.Column("link", sa.Text, nullable=False),
    sa.Column("last_told_at", sa.Float),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("seen_log", sa.Integer),  # log lines the seat had seen when it last looked
)

PRESENCE = sa.Table(
    "notify_presence", metadata,
    sa.Column("game_id", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("process", sa.String(32), primary_key=True),
    sa.Column("seen_at", sa.Float, nullable=False),
)

PENDING = sa.Table(
    "notify_pending", metadata,
    sa.Column("game_id", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),  # turn | reminder | result | takeback
    sa.Column("due_at", sa.Float, nullable=False),
    sa.Column("owed_since", sa.Integer, nullable=False),  # the game version the wait began at
    sa.Column("claimed_by", sa.String(32)),
    sa.Column("claimed_until", sa.Float),
)

OUTBOX = sa.Table(
    "notify_outbox", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer),  # None: the host's own channel (NOTIFY_URLS)
    sa.Column("channel", sa.Text, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # turn | reminder | result | test
    sa.Column("subject", sa.Text, nullable=False),
    sa.Column("body", sa.Text, nullable=False),  # without the seat's link; blanked once done with
    sa.Column("link_label", sa.String(40)),  # set: the seat's link is put after it when sent
    sa.Column("status", sa.String(16), nullable=False),  # queued | sent | failed
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("next_try_at", sa.Float, nullable=False),
    sa.Column("claimed_by", sa.String(32)),
    sa.Column("claimed_until", sa.Float),
    sa.Column("error", sa.Text),
    sa.Column("tried_at", sa.Float),
    sa.Column("created_at", sa.Float, nullable=False),
)

PUSH = sa.Table(
    "notify_push", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("endpoint", sa.Text, nullable=False),
    sa.Column("p256dh", sa.String(200), nullable=False),
    sa.Column("auth", sa.String(100), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

# A later kind replaces an earlier one still waiting for the same seat: the result says
# more than "your turn", and "your turn" more than a reminder.
KIND_RANK = {"reminder": 0, "turn": 1, "takeback": 1, "result": 2}

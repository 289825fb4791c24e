"""turn notifications: each seat's channels, who is looking, what is owed, the outbox

Revision ID: 0005
Revises: 0002
Create Date: 2026-11-26

- ``notify_settings``: where a seat wants to be told (e-mail, Apprise URLs, reminder hours),
  the seat's link to put in messages, and when it was last told (the quiet period).
- ``notify_presence``: game pages open right now, per seat and server process, refreshed by
  a heartbeat (a row not refreshed for a minute is a page that is gone).
- ``notify_pending``: "tell seat S of game G, not before T": one row per seat and game,
  so a burst of steps is one message; the message is written when it is due.
- ``notify_outbox``: one message to one channel, claimed by one process at a time and
  retried with back-off; its last attempt is what the seat's page shows.
Times are seconds since the epoch (float), the same on SQLite and PostgreSQL.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: Union[str, Sequence[str], None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "notify_settings",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("urls", sa.JSON(), nullable=False),
        sa.Column("remind_after_hours", sa.Float(), nullable=True),
        sa.Column("link", sa.Text(), nullable=False),
        sa.Column("last_told_at", sa.Float(), nullable=True),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "notify_presence",
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("process", sa.String(32), primary_key=True),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "notify_pending",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False, index=True),
        sa.Column("owed_since", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
    )
    op.create_table(
        "notify_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),  # None: the host's own channel
        sa.Column("channel", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),  # queued | sent | failed
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_try_at", sa.Float(), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("tried_at", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_notify_outbox_due", "notify_outbox", ["status", "next_try_at"])
    op.create_index("ix_notify_outbox_seat", "notify_outbox", ["game_id", "seat"])


def downgrade() -> None:
    op.drop_index("ix_notify_outbox_seat", table_name="notify_outbox")
    op.drop_index("ix_notify_outbox_due", table_name="notify_outbox")
    op.drop_table("notify_outbox")
    op.drop_table("notify_pending")
    op.drop_table("notify_presence")
    op.drop_table("notify_settings")

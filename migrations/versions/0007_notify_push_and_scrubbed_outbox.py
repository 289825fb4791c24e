"""notifications: no seat link at rest in the outbox; Web Push subscriptions; what a seat has seen

Revision ID: 0007_notify
Revises: 0006
Create Date: 2026-11-26

- ``notify_outbox.link_label``: a seat's message is stored without its link ("Play:" is
  kept here); the link is put in from the sealed copy in ``notify_settings`` only when it is
  sent, and the body is blanked once the row is done with. Rows written before this carried
  the whole link in their body: the sent ones are blanked, the queued ones dropped (a
  message not yet sent is lost once, rather than a seat link kept in plain text).
- ``notify_push``: a browser's Web Push subscription for one seat (endpoint and the
  browser's public keys; no secret of the game).
- ``notify_settings.seen_log``: how many log lines the seat had seen when it last looked,
  so a message tells what happened since.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0007_notify"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("notify_outbox") as batch:
        batch.add_column(sa.Column("link_label", sa.String(40), nullable=True))
    with op.batch_alter_table("notify_settings") as batch:
        batch.add_column(sa.Column("seen_log", sa.Integer(), nullable=True))
    op.execute("UPDATE notify_outbox SET body = '' WHERE status <> 'queued'")
    op.execute("DELETE FROM notify_outbox WHERE status = 'queued' AND seat IS NOT NULL")
    op.create_table(
        "notify_push",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("game_id", "seat", "endpoint", name="uq_notify_push_seat_endpoint"),
    )


def downgrade() -> None:
    op.drop_table("notify_push")
    with op.batch_alter_table("notify_settings") as batch:
        batch.drop_column("seen_log")
    with op.batch_alter_table("notify_outbox") as batch:
        batch.drop_column("link_label")

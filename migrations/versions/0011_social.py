"""table chat, rematch links, games ended by the table

Revision ID: 0011_social
Revises: 0010_perf
Create Date: 2026-11-26

- ``chat_messages``: a game's short chat, kept with the game (deleted with it).
- ``games.chat_policy``: what spectators see of the chat, "read" or "hidden" (the host's choice).
- ``games.rematch_id``: the game "Play again" made from this one (at most one).
- ``games.ending``: a game the table ended before its rules did (abandoned by the host, or
  conceded by a seat), as JSON; None for a game still running or ended by its rules.
- ``seats.awaits_link``: a rematch seat whose private link is not made yet: it is worked
  out from the seat's old link the first time that link's page is opened.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0011_social"
down_revision: Union[str, Sequence[str], None] = "0010_perf"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id", "id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("chat_policy", sa.String(8), nullable=False, server_default="read"))
        batch.add_column(sa.Column("rematch_id", sa.String(16), nullable=True))
        batch.add_column(sa.Column("ending", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("awaits_link", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("awaits_link")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ending")
        batch.drop_column("rematch_id")
        batch.drop_column("chat_policy")
    op.drop_index("ix_chat_messages_game_id", table_name="chat_messages")
    op.drop_table("chat_messages")

"""hosting: the host link, seat links that can be replaced, who claimed and looked when, table log lines

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26

- ``games.host_hash``: SHA-256 of the host link's secret (the secret itself is never stored).
  Seat links of a game that has one are derived from it, so the host page can show them again.
  ``games.host_name``: who made the game (the first name typed), named on the invite page.
- ``seats.link_generation``: how many times the host replaced this seat's link (part of the
  derivation: a replaced link is the next generation, and the old hash is gone).
- ``seats.claimed_at`` / ``seats.seen_at``: when the seat was taken, and when its link was last used.
- ``table_log``: lines the table adds to a game's log ("Ann takes seat 3", the host's changes),
  each placed after a line number of the title's own log.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: Union[str, Sequence[str], None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("host_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("host_name", sa.String(40), nullable=True))
        batch.create_index("ix_games_host_hash", ["host_hash"], unique=True)
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("link_generation", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "table_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("at_line", sa.Integer(), nullable=False),
        sa.Column("line", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_log_game_id", "table_log", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_table_log_game_id", table_name="table_log")
    op.drop_table("table_log")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seen_at")
        batch.drop_column("claimed_at")
        batch.drop_column("link_generation")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_host_hash")
        batch.drop_column("host_name")
        batch.drop_column("host_hash")

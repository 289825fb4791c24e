"""links: spent invites, distinct names, "host who plays", the address links are made with

Revision ID: 0008_links
Revises: 0007_notify
Create Date: 2026-11-26

- ``seats.name_key``: the seat's name folded (case, spaces, Unicode forms), unique per game,
  so two seats never share a name even when two claims race. Filled from the names already
  stored; where an older game already has two seats of one name, the later ones keep no key.
- ``seats.must_open`` and ``games.host_plays``: in a "host who plays" game a seat's link
  opens nothing until its player swaps it for a private link.
- ``spent_links``: hashes of links that stopped opening their seat, and why.
- ``server_settings``: the address the host chose for links.
"""
import unicodedata
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0008_links"
down_revision: Union[str, Sequence[str], None] = "0007_notify"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _key(name: str) -> str:
    # The same folding as app.table.hosting.name_key, frozen here as it was at this revision.
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())[:40]


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("host_plays", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("name_key", sa.String(40), nullable=True))
        batch.add_column(sa.Column("must_open", sa.Boolean(), nullable=False, server_default=sa.false()))
    seats = sa.table("seats", sa.column("id", sa.Integer), sa.column("game_id", sa.String),
                     sa.column("name", sa.String), sa.column("name_key", sa.String))
    conn = op.get_bind()
    taken: set[tuple[str, str]] = set()
    for row in conn.execute(sa.select(seats.c.id, seats.c.game_id, seats.c.name)
                            .where(seats.c.name.is_not(None)).order_by(seats.c.id)):
        key = (row.game_id, _key(row.name))
        if key not in taken:
            taken.add(key)
            conn.execute(seats.update().where(seats.c.id == row.id).values(name_key=key[1]))
    with op.batch_alter_table("seats") as batch:
        batch.create_unique_constraint("uq_seats_game_id_name_key", ["game_id", "name_key"])
    op.create_table(
        "spent_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("spent_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_spent_links_game_id", "spent_links", ["game_id"])
    op.create_table(
        "server_settings",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(400), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_settings")
    op.drop_index("ix_spent_links_game_id", table_name="spent_links")
    op.drop_table("spent_links")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("uq_seats_game_id_name_key", type_="unique")
        batch.drop_column("must_open")
        batch.drop_column("name_key")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("host_plays")

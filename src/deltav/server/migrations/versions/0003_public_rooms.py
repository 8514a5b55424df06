"""Rooms open to anyone (listed) or private (joined by code); an index for the room lists.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # rooms made before this revision become private: none of them chose to be listed
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_matches_status_created", "matches", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_matches_status_created", "matches")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("public")

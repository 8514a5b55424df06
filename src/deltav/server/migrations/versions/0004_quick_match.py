"""The quick-match queue (server/matchmaking.py): one row per waiting player, kept across restarts.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "queue",
        sa.Column("ticket_hash", sa.String(64), primary_key=True),
        sa.Column("client", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("key", sa.String(300), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("name", sa.String(60), nullable=True),
        sa.Column("band", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("bots", sa.String(200), nullable=True),
        sa.Column("claimed_at", sa.Float, nullable=True),
        sa.Column("room", sa.String(8), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_queue_key_state", "queue", ["key", "state", "joined_at"])
    op.create_index("ix_queue_client", "queue", ["client"])


def downgrade() -> None:
    op.drop_index("ix_queue_client", "queue")
    op.drop_index("ix_queue_key_state", "queue")
    op.drop_table("queue")

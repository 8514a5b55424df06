"""The first schema: rooms, matches, seats, submissions, chat.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("no", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("meta", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.ForeignKeyConstraint(["code"], ["rooms.code"]),
    )
    op.create_table(
        "seats",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("spec", sa.String(200), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("name", sa.String(60), nullable=True),
        sa.Column("bot_state", sa.LargeBinary, nullable=True),
        sa.Column("bot_state_step", sa.Integer, nullable=True),
        sa.ForeignKeyConstraint(["code", "no"], ["matches.code", "matches.no"]),
    )
    op.create_table(
        "submissions",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("no", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.ForeignKeyConstraint(["code", "no"], ["matches.code", "matches.no"]),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(8), nullable=False),
        sa.Column("no", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(60), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_code", "chat", ["code"])


def downgrade() -> None:
    op.drop_index("ix_chat_code", "chat")
    for name in ("chat", "submissions", "seats", "matches", "rooms"):
        op.drop_table(name)

"""Alembic migrations of the server's schema (``versions/``), run by the store when it opens.

``upgrade(connection)`` brings a database to the newest revision on a connection the caller holds (the store
calls it through ``AsyncConnection.run_sync``), so the same code migrates SQLite and PostgreSQL. New revision:
``alembic -c src/deltav/server/migrations/alembic.ini revision -m "..."`` (see docs/server.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def config(connection: Any = None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def upgrade(connection: Any, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(config(connection), revision)

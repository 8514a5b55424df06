"""Alembic environment: runs migrations on the connection handed over in ``config.attributes``."""

from alembic import context

from deltav.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always hands a connection over
    raise RuntimeError("deltav migrations run through deltav.server.migrations.upgrade(connection)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

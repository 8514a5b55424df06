"""Structured logs: one JSON object a line (``deltav serve --log-format json``), for log collectors.

Each line has ``ts`` (ISO 8601 UTC), ``level``, ``logger``, ``msg`` and, when the call passed them in
``extra``, the fields ``event``, ``room``, ``seq``, ``node``; an exception adds ``exc``. This module owns the
log format only.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

FIELDS = ("event", "room", "seq", "node", "seat")


class JsonFormatter(logging.Formatter):
    def __init__(self, node: str | None = None):
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
               "level": record.levelname.lower(), "logger": record.name, "msg": record.getMessage()}
        if self.node:
            out["node"] = self.node
        for f in FIELDS:
            v = getattr(record, f, None)
            if v is not None:
                out[f] = v
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure(fmt: str, level: str, node: str | None = None) -> None:
    """Send every logger's records (uvicorn's included) to stderr as text or JSON lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter(node) if fmt == "json" else
                         logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True

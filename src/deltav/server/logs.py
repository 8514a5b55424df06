"""Structured logs: one JSON object a line (``deltav serve --log-format json``), for log collectors, and no
seat token in any line.

Each line has ``ts`` (ISO 8601 UTC), ``level``, ``logger``, ``msg`` and, when the call passed them in
``extra``, the fields ``event``, ``room``, ``seq``, ``node``; an exception adds ``exc``. Seat tokens travel in a
socket's first message, never in an address, but an old client may still put one in a URL (``?token=``), which
uvicorn logs with the request line: :class:`RedactTokens` blanks any ``token=`` value in every record. This module
owns the log format only.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

_TOKEN = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)


class RedactTokens(logging.Filter):
    """Blank the value of every ``token=`` in a record's message and its string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg.lower():
            record.msg = _TOKEN.sub(r"\1[redacted]", record.msg)
        if isinstance(record.args, tuple) and any(isinstance(a, str) and "token=" in a.lower() for a in record.args):
            record.args = tuple(_TOKEN.sub(r"\1[redacted]", a) if isinstance(a, str) else a for a in record.args)
        return True

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
    handler.addFilter(RedactTokens())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True

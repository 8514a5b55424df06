"""A development harness for the Deep Space Combat screen (not the product, not used by tests): one in-process
Session, seat 0 played from the page, the other seats by the scripted bot. Serves $DS_HARNESS_DIR
(default /tmp/ds-harness), built by::

    mkdir -p /tmp/ds-harness && cp web/tools/ds_harness.html /tmp/ds-harness/index.html
    web/node_modules/.bin/esbuild web/tools/ds_harness.ts --bundle --format=esm --outfile=/tmp/ds-harness/ds_harness.js
    PYTHONPATH=src python web/tools/ds_harness.py [scenario] [port]
"""

from __future__ import annotations

import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.core.session import Session
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.bots import ScriptedBot

HERE = Path(os.environ.get("DS_HARNESS_DIR", "/tmp/ds-harness"))
OPTIONS = {"scenario": sys.argv[1] if len(sys.argv) > 1 else "skirmish"}
session = Session(DeepSpaceGame, OPTIONS, 7)
bots = {p: ScriptedBot() for p in range(1, DeepSpaceGame.num_players(DeepSpaceGame.resolve_options(OPTIONS)))}
rng = Rng(3)


def run_bots() -> None:
    while not session.is_over():
        todo = [p for p in session.waiting_for() if p in bots and p not in session._pending]
        if not todo:
            return
        for p in todo:
            d = Decision(DeepSpaceGame, p, session.state.view(p), session.legal_actions(p), rng, session.options)
            session.submit_action(p, bots[p].act(d))


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def _json(self, obj, code=200):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/snap"):
            seat = None if "spectator" in self.path else 0
            since = int(self.path.split("since=")[1]) if "since=" in self.path else None
            self._json(session.snapshot(seat, since))
        elif self.path.startswith("/board"):
            self._json(DeepSpaceGame.board(OPTIONS))
        else:
            name = self.path.strip("/") or "index.html"
            f = HERE / name.split("?")[0]
            if not f.is_file():
                self.send_error(404)
                return
            self.send_response(200)
            ctype = {"html": "text/html", "js": "text/javascript", "css": "text/css"}.get(f.suffix[1:], "application/octet-stream")
            self.send_header("Content-Type", ctype)
            self.end_headers()
            self.wfile.write(f.read_bytes())

    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        action = json.loads(self.rfile.read(n))
        try:
            session.submit(0, action)
        except Exception as exc:  # the harness shows every refusal
            self._json({"message": str(exc)}, 400)
            return
        run_bots()
        self._json({"ok": True})


run_bots()
port = int(sys.argv[2]) if len(sys.argv) > 2 else 8765
print(f"http://127.0.0.1:{port}/", flush=True)
ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()

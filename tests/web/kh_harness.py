"""The Knight Hawks screen without the shell: a harness page (web/test/harness/knighthawks.ts) built with esbuild
into a temporary folder and served over real HTTP, whose host calls Python (Playwright's exposed functions) backed
by a real ``deltav.core.session.Session`` with a scripted bot on the other seat. Every snapshot the page receives
is kept (``Driver.frames``) so a test can check it for secrets.

Used by tests/web/test_knighthawks_*.py; the shell's end-to-end tests go through the real server instead.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from deltav.core import get_game
from deltav.core.errors import DeltavError
from deltav.core.rng import Rng
from deltav.core.session import Session
from deltav.games import load_all
from deltav.games.knighthawks.bots import ScriptedCaptain

WEB = Path(__file__).resolve().parents[2] / "web"


def build_harness(out: Path) -> Path:
    esbuild = WEB / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        pytest.fail("the client's packages are missing: run `make setup` (or `npm ci` in web/)")
    proc = subprocess.run(
        [str(esbuild), "test/harness/knighthawks.ts", "--bundle", "--format=esm", "--target=es2022",
         f"--outfile={out / 'knighthawks.js'}", "--log-level=warning"],
        cwd=WEB, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"harness build failed:\n{proc.stdout}\n{proc.stderr}"
    shutil.copy(WEB / "test" / "harness" / "knighthawks.html", out / "index.html")
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class Server:
    def __init__(self, folder: Path) -> None:
        handler = functools.partial(_Quiet, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


class Driver:
    """A real session: ``seat`` is the page's, the other seat is the scripted captain (or None: the page plays
    both seats in turn, the hot-seat mode used to reach every stage quickly)."""

    def __init__(self, options: dict, seed: int = 1, seat: int | None = 0, spectator: bool = False) -> None:
        self.spectator = spectator
        load_all()
        self.game = get_game("knighthawks")
        self.session = Session(self.game, options, seed)
        self.seat = seat
        self.since = 0
        self.frames: list[dict] = []
        self.secrets: list[set[str]] = []  # the viewer's secret tokens when each frame was sent
        self.bot = ScriptedCaptain()
        self.rng = Rng(seed + 1000)
        self.refusals: list[str] = []

    def _viewer(self) -> int | None:
        if self.spectator:
            return None
        if self.seat is not None:
            return self.seat
        d = self.session.deciding()
        return d[0] if d else 0

    def bot_step(self) -> bool:
        """One bot decision for whoever is deciding (the spectator mode); False when the game is over."""
        if self.session.is_over():
            return False
        p = self.session.deciding()[0]
        self.session.submit_action(p, self.bot.act(self.session.decision(p, self.rng)))
        return True

    def run_bots(self) -> None:
        while self.seat is not None and not self.session.is_over() and self.seat not in self.session.deciding():
            p = self.session.deciding()[0]
            self.session.submit_action(p, self.bot.act(self.session.decision(p, self.rng)))

    def pull(self) -> dict:
        if not self.spectator:
            self.run_bots()
        snap = self.session.snapshot(self._viewer(), since=self.since)
        self.since = snap["step"]
        self.frames.append(snap)
        self.secrets.append(set(self.session.state.secret_tokens(snap["seat"])))
        return {"snapshot": snap, "events": snap["log"]}

    def submit(self, action) -> dict:
        try:
            self.session.submit(self._viewer(), action)
        except DeltavError as exc:
            self.refusals.append(str(exc))
            return {"ok": False, "message": str(exc)}
        return {"ok": True}

    def board(self) -> dict:
        return self.game.board(self.session.options)


def open_page(browser, url: str, driver: Driver, viewport=(1280, 800), reduced_motion: bool = False):
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, device_scale_factor=1,
                              reduced_motion="reduce" if reduced_motion else "no-preference")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}")
          if m.type in ("error", "warning") and "willReadFrequently" not in m.text else None)  # the tests' read-back
    pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    pg.expose_function("khSubmit", driver.submit)
    pg.expose_function("khPull", driver.pull)
    pg.expose_function("khBoard", driver.board)
    pg.goto(url + "/index.html")
    pg.wait_for_selector("html[data-ready=true]", timeout=15_000)
    pg.errors = errors
    pg.ctx = ctx
    return pg

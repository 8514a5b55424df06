"""Fixtures of the browser-client tests (every browser helper uses them): a fresh client build (from the current
web/ sources, into a temporary folder), a plain HTTP server serving it (the board preview), a real
``deltav serve`` (uvicorn on 127.0.0.1, a free port, a temporary SQLite file) serving the same build with the
game server, Debian's Chromium driven by Playwright, helpers to create a room over HTTP and open its pages, and
the screenshot folder.

Typical use::

    def test_something(live_server, new_page, screenshots):
        room = live_server.create("tactical", ["human", "bot:easy"], scenario="duel")
        page = new_page()
        live_server.open_seat(page, room)          # /play/CODE with the room's seat token
        page.wait_for_selector("html[data-ready=true]")
        assert page.errors == []                   # console errors, page errors, failed requests

The build needs Node and `npm ci` in web/ (``make setup`` does it); the browser needs /usr/bin/chromium
(``apt-get install -y chromium``; .ci/run installs it). A missing piece fails the test with the command to run.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "web"
CHROMIUM = os.environ.get("DELTAV_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = REPO / "build" / "screenshots"


def node_ready() -> None:
    """Fail (not skip) with the fix when Node or the client's packages are missing."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.fail("Node.js and npm are needed for the web client tests (Debian: apt-get install -y nodejs npm)")
    if not (WEB / "node_modules" / "esbuild").is_dir():
        pytest.fail("the client's packages are missing: run `make setup` (or `npm ci` in web/)")


def run_node(args: list[str], **kw) -> subprocess.CompletedProcess:
    node_ready()
    env = {**os.environ, "PYTHON": sys.executable}
    return subprocess.run(args, cwd=WEB, env=env, capture_output=True, text=True, timeout=300, **kw)


@pytest.fixture(scope="session")
def built_client(tmp_path_factory) -> Path:
    """The client built from the current sources into a temporary folder (the tree's build is left alone)."""
    out = tmp_path_factory.mktemp("web_static")
    proc = run_node(["node", "build.mjs", "--out", str(out)])
    assert proc.returncode == 0, f"client build failed:\n{proc.stdout}\n{proc.stderr}"
    return out


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="session")
def static_server(built_client):
    """A real HTTP server on 127.0.0.1 (a free port) serving the built client; yields its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(built_client))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="package")
def browser():
    """One Chromium for the browser tests. Package scope, not session: Playwright's sync API keeps an event loop
    running in this thread while it is started, so a worker that goes on to a test outside tests/web (one calling
    asyncio.run, say) must have it stopped first; pytest tears a package fixture down when the worker leaves the
    package."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (or set DELTAV_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# ---- the real game server --------------------------------------------------------------------------------------


@dataclass
class Room:
    """A room made over HTTP: its code, the creator's seat and token (None when no human seat), the answer."""

    code: str
    seat: int | None
    token: str | None
    answer: dict


class LiveServer:
    """``deltav serve`` as a subprocess on 127.0.0.1 (port 0, printed), a temporary SQLite file, the test build
    of the client (``--web-dir``), bots deciding on threads (``--bot-workers 0``: no process pool per test)."""

    def __init__(self, web_dir: Path, *args: str):
        self.dir = Path(tempfile.mkdtemp(prefix="deltav-web-"))
        self.db = f"sqlite+aiosqlite:///{self.dir / 'rooms.db'}"
        self.log_path = self.dir / "serve.log"
        env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        self.log = open(self.log_path, "w")  # noqa: SIM115 - open while the server runs (a pipe nobody reads blocks)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "deltav.cli", "serve", "--port", "0", "--db", self.db, "--web-dir", str(web_dir),
             "--bot-workers", "0", *args],
            stdout=self.log, stderr=subprocess.STDOUT, text=True, env=env, cwd=str(REPO))
        t0 = time.time()
        line = ""
        while "http://" not in line:
            if self.proc.poll() is not None or time.time() - t0 > 30:
                raise RuntimeError(f"deltav serve did not start:\n{self.log_path.read_text()}")
            time.sleep(0.05)
            line = self.log_path.read_text().split("\n")[0]
        self.base = line.split()[3].rstrip("/")
        self.ws = self.base.replace("http://", "ws://")
        t0 = time.time()
        while True:
            try:
                if self.http("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.time() - t0 > 30:
                raise RuntimeError(f"deltav serve never became healthy:\n{self.log_path.read_text()}")
            time.sleep(0.05)

    def http(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict | list]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=15) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def create(self, game: str, seats: list[str], seat: int | None = None, seed: int = 1, name: str | None = None,
               **options) -> Room:
        """POST /rooms; options as keywords (``scenario="duel"``)."""
        body: dict = {"game": game, "seats": seats, "seed": seed, "options": options}
        if seat is not None:
            body["seat"] = seat
        if name is not None:
            body["name"] = name
        status, out = self.http("POST", "/rooms", body)
        assert status == 201, out
        return Room(out["code"], out["seat"], out["token"], out)

    def join(self, code: str, seat: int | None = None, name: str | None = None) -> Room:
        body = {k: v for k, v in (("seat", seat), ("name", name)) if v is not None}
        status, out = self.http("POST", f"/rooms/{code}/join", body)
        assert status == 200, out
        return Room(out["code"], out["seat"], out["token"], out)

    def room(self, code: str) -> dict:
        status, out = self.http("GET", f"/rooms/{code}")
        assert status == 200, out
        return out

    def open_seat(self, page, room: Room, wait: bool = True) -> None:
        """Open /play/CODE holding the room's seat token (handed over in the URL fragment, which the page moves
        into localStorage and strips, as an invite does); wait for the first state to be drawn."""
        assert room.token is not None, "the room has no human seat of the creator's"
        page.goto(f"{self.base}/play/{room.code}#token={room.token}&seat={room.seat}")
        if wait:
            page.wait_for_selector("html[data-ready=true]", timeout=15_000)

    def open_watch(self, page, code: str, wait: bool = True) -> None:
        page.goto(f"{self.base}/watch/{code}")
        if wait:
            page.wait_for_selector("html[data-ready=true]", timeout=15_000)

    def output(self) -> str:
        return self.log_path.read_text()

    def log_tail(self, lines: int = 60) -> str:
        """The end of the server's log (what a failing browser test shows of the server's side)."""
        return "\n".join(self.output().splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def live_server(built_client):
    """One real ``deltav serve`` for the test session (rooms are independent; each test makes its own)."""
    # every test of the session makes its rooms from this one address: no per-address limit; the tests choose
    # the seed of rooms between people too, to replay the same positions (docs/server.md)
    server = LiveServer(built_client, "--grace", "30", "--no-client-limits", "--chosen-seeds", "any")
    try:
        yield server
    finally:
        server.stop()


def _counts_as_error(message) -> bool:
    """Console errors and warnings count, except Chromium's canvas read-back hint the tests themselves cause."""
    return message.type in ("error", "warning") and "willReadFrequently" not in message.text


@pytest.fixture
def new_page(browser):
    """A factory of fresh pages (each in its own browser context: its own localStorage, like another person).
    ``new_page(width=375, height=812, mobile=True)``; ``intro=True`` lets the scenario briefing and the first-game
    guide come by themselves (off by default: they wait for a key or a click); ``bypass_csp=False`` loads pages under
    the server's Content-Security-Policy; every page has ``page.errors`` (console errors and warnings, page errors,
    failed requests) and ``page.frames_in`` (every WebSocket text frame received)."""
    contexts = []

    def make(width: int = 1280, height: int = 800, mobile: bool = False, reduced_motion: bool = False,
             intro: bool = False, bypass_csp: bool = True):
        # the tests evaluate script text in the page (wait_for_function, axe), which the server's
        # Content-Security-Policy forbids; tests/web/test_security_pages.py loads every page under it
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=2 if mobile else 1, has_touch=mobile, is_mobile=mobile,
                                  reduced_motion="reduce" if reduced_motion else "no-preference",
                                  bypass_csp=bypass_csp)
        contexts.append(ctx)
        if not intro:
            # the scenario briefing and the first-game guide come by themselves to a new player; a test of
            # something else turns them off (``new_page(intro=True)`` sees them, as a person would)
            ctx.add_init_script("try { localStorage.setItem('deltav.pref.intro', 'false'); } catch (e) {}")
        pg = ctx.new_page()
        pg.errors = []
        pg.frames_in = []
        pg.on("console", lambda m: pg.errors.append(f"console.{m.type}: {m.text}") if _counts_as_error(m) else None)
        pg.on("pageerror", lambda e: pg.errors.append(f"page error: {e}"))
        # a request cut short by leaving the page (ERR_ABORTED) is not a failure of the page
        pg.on("requestfailed", lambda r: pg.errors.append(f"request failed: {r.url} {r.failure}")
              if "/ws/" not in r.url and "ERR_ABORTED" not in (r.failure or "") else None)

        def on_socket(ws):
            ws.on("framereceived", lambda payload: pg.frames_in.append(payload) if isinstance(payload, str) else None)

        pg.on("websocket", on_socket)
        return pg

    yield make
    for ctx in contexts:
        ctx.close()


def wait_step_change(page, step: int, timeout: float = 20_000) -> int:
    """Wait until the page's match moved past ``step``; the new step."""
    page.wait_for_function(f"(window.deltavShell?.state().step ?? -1) > {step}", timeout=timeout)
    return page.evaluate("window.deltavShell.state().step")


AXE = WEB / "node_modules" / "axe-core" / "axe.min.js"


def banner_whole(page) -> str:
    """The match's banner (the prompt of the decision) is shown whole, never cut by an ellipsis (on a phone it
    takes two lines); returns its text."""
    got = page.evaluate("""(() => { const b = document.querySelector('.phase-banner');
        return b ? [b.textContent, b.scrollWidth <= b.clientWidth + 1 && b.scrollHeight <= b.clientHeight + 1] : null; })()""")
    assert got is None or got[1], f"the banner is cut: {got[0]!r}"
    return got[0] if got else ""


def axe_violations(page, exclude: list[str] | None = None) -> list[str]:
    """Run axe-core (from web/node_modules, injected: no CDN) on the page; the violations as readable lines."""
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `npm ci` in web/")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async (exclude) => {
            const r = await axe.run({include: [document], exclude: exclude.map(s => [s])},
                                    {resultTypes: ['violations']});
            return r.violations.map(v => `${v.id} (${v.impact}): ${v.help} -- ` +
                v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
        }""",
        exclude or [],
    )
    return result

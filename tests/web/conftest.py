"""Fixtures of the browser-client tests: a fresh client build (from the current web/ sources, into a temporary
folder), a real HTTP server on 127.0.0.1 serving it, and Debian's Chromium driven by Playwright.

The build needs Node and `npm ci` in web/ (``make setup`` does it); the browser needs /usr/bin/chromium
(``apt-get install -y chromium``; .ci/run installs it). A missing piece fails the test with the command to run.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
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


@pytest.fixture(scope="session")
def browser():
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

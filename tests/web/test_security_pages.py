"""The browser side of issue 32, item 8, in Chromium against a real ``deltav serve``.

- Every page works under the server's Content-Security-Policy (a context that does not bypass it: a page that
  broke a directive would log "Refused to ..." as a console error).
- A page on another site cannot take a seat: before, a cross-site ``fetch`` with a ``text/plain`` body joined
  rooms, and a hidden frame of ``/play/CODE`` took the free seat (and started the absent creator's forfeit clock).
  Here such a page (served from ``localhost`` while the server is ``127.0.0.1``: another site) posts a form,
  a ``text/plain`` fetch and a JSON fetch, and frames ``/play/CODE``; the seat stays free and the frame shows
  nothing of the server.
"""

from __future__ import annotations

import http.server
import threading
import time

EVIL_PAGE = """<!doctype html><meta charset="utf-8"><title>a page elsewhere</title>
<iframe name="sink" style="display:none"></iframe>
<form id="f" method="POST" action="{join}" enctype="text/plain" target="sink">
<input name='{{"name":"sniper","x":"' value='"}}'></form>
<iframe id="frame" src="{play}" width="600" height="400"></iframe>
<script>
const done = [];
window.attempts = done;
fetch("{join}", {{method: "POST", mode: "no-cors", headers: {{"content-type": "text/plain"}}, body: '{{"name":"sniper"}}'}})
  .then(r => done.push("text/plain fetch: " + r.type), e => done.push("text/plain fetch failed"));
fetch("{join}", {{method: "POST", headers: {{"content-type": "application/json"}}, body: '{{"name":"sniper"}}'}})
  .then(r => done.push("json fetch: " + r.status), e => done.push("json fetch blocked"));
document.getElementById("f").submit();
document.querySelector("iframe[name=sink]").addEventListener("load", () => done.push("form posted"));
document.getElementById("frame").addEventListener("load", () => done.push("frame loaded"));
</script>"""


class EvilSite:
    """A plain HTTP server on localhost (another site than 127.0.0.1) serving one page."""

    def __init__(self, page: str):
        body = page.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the base class's name
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://localhost:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_every_page_works_under_the_content_security_policy(live_server, new_page):
    finished = live_server.create("mining", ["bot:random", "bot:random"], max_turns=1)
    t0 = time.time()
    while live_server.room(finished.code)["status"] != "finished":
        assert time.time() - t0 < 120, "the bot match did not finish"
        time.sleep(0.2)
    pages = [("/", ".game-card"), ("/board", "#board"), ("/leaderboard.html", "h1"),
             (f"/watch/{finished.code}", "html[data-ready=true]"), (f"/replay/{finished.code}", "html[data-ready=true]")]
    for game, options in (("tactical", {"scenario": "duel"}), ("mining", {}), ("deepspace", {"scenario": "skirmish"}),
                          ("knighthawks", {"scenario": "skirmish"})):
        room = live_server.create(game, ["human", "bot:easy"], **options)
        pages.append((f"/play/{room.code}#token={room.token}&seat={room.seat}", "html[data-ready=true]"))
    for path, ready in pages:
        page = new_page(bypass_csp=False)
        response = page.goto(live_server.base + path)
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        page.wait_for_selector(ready, state="attached", timeout=20_000)
        page.wait_for_load_state("networkidle")
        assert page.errors == [], f"{path}: {page.errors}"


def test_a_page_on_another_site_cannot_take_a_seat_nor_frame_the_match(live_server, new_page, screenshots):
    room = live_server.create("tactical", ["human", "human"], scenario="duel", name="ann")
    join = f"{live_server.base}/rooms/{room.code}/join"
    play = f"{live_server.base}/play/{room.code}"
    evil = EvilSite(EVIL_PAGE.format(join=join, play=play))
    try:
        page = new_page(bypass_csp=False)
        page.goto(evil.url)
        page.wait_for_function("window.attempts && window.attempts.length >= 4", timeout=30_000)
        attempts = sorted(page.evaluate("window.attempts"))
        page.screenshot(path=str(screenshots / "security-evil-page.png"))
        frame = next(f for f in page.frames if f.name != "sink" and f != page.main_frame and f.url != "about:blank")
    finally:
        evil.close()
    assert attempts == ["form posted", "frame loaded", "json fetch blocked", "text/plain fetch: opaque"], attempts
    assert not frame.url.startswith(live_server.base), frame.url  # Chromium shows its error page instead
    info = live_server.room(room.code)
    assert [s["taken"] for s in info["seats"]] == [True, False], info["seats"]
    assert not any(s["connected"] for s in info["seats"] if s["kind"] == "human")
    assert info["status"] == "open"

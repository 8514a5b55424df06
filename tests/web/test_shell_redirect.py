"""A seat's page following a ``redirect`` between two real ``deltav serve`` processes on one real PostgreSQL and
one real Redis (started on free loopback ports, as tests/server/test_cluster.py does; skipped only where their
binaries are absent, never on CI): the room is made on process A, the seat's page is opened on process B, B
sends the socket to A (``redirect``, close 4010), and the page reconnects there with the same token, without a
reconnect overlay or an error, and plays on."""

from __future__ import annotations

from tests.server import services
from tests.server.helpers import ProcessServer, http
from tests.web.conftest import Room

pytestmark = services.required_or_skipped()


def test_a_seat_opened_on_another_process_is_sent_to_the_owner(built_client, new_page):
    pg, redis = services.Postgres(), services.Redis()
    servers: list[ProcessServer] = []
    try:
        db = pg.new_database("web_redirect")
        for _ in range(2):
            servers.append(ProcessServer(db, "--bus", redis.url, "--lease-seconds", "3", "--bot-workers", "0",
                                         "--web-dir", str(built_client)))
        a, b = servers
        status, out = http(a.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "bot:easy"], "seed": 3,
                                                      "name": "ann", "options": {"max_turns": 2}})
        assert status == 201, out
        room = Room(out["code"], out["seat"], out["token"], out)
        page = new_page()
        page.goto(f"{b.base}/play/{room.code}?screen=generic#token={room.token}&seat={room.seat}")
        page.evaluate("""() => { window.sawOverlay = false; new MutationObserver(() => {
            const o = document.querySelector('.overlay'); if (o && !o.hidden) window.sawOverlay = true; })
            .observe(document.body, {attributes: true, subtree: true, childList: true}); }""")
        page.wait_for_selector("html[data-ready=true]", timeout=20_000)
        frames = [f for f in page.frames_in if '"redirect"' in f]
        assert frames and a.ws.split("//")[1] in frames[0], frames  # B told the page where the room plays
        url = page.evaluate("window.deltavShell.connection().currentUrl")
        assert url == f"{a.ws}/ws/{room.code}", url  # the token went in the hello there, never in an address
        assert page.evaluate("window.deltavShell.state()")["seat"] == 0
        # it plays on through the owner: an action by key is accepted and the match moves on
        page.wait_for_function("window.deltavShell.state().toAct", timeout=20_000)
        step = page.evaluate("window.deltavShell.state().step")
        page.wait_for_selector(".generic-action:not([disabled])")
        page.keyboard.press("1")
        page.wait_for_function(f"window.deltavShell.state().step > {step}", timeout=20_000)
        assert http(a.base, "GET", f"/rooms/{room.code}")[1]["seats"][0]["connected"] is True
        assert not page.evaluate("window.sawOverlay")
        assert not page.errors, page.errors
    finally:
        for s in servers:
            s.stop()
        redis.stop()
        pg.stop()

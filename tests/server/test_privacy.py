"""Private rooms, where changes may come from, and the security headers (issue 32, item 8), on a real uvicorn.

Before: ``GET /rooms?status=open`` listed every waiting room (a sniper took 4 of 4 invited seats within a
second), a page on another site joined rooms with a cross-site ``fetch`` (a ``text/plain`` body was accepted),
and ``/play/CODE`` could be framed by any site (a hidden frame took a free seat).
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from deltav.server.guard import CSP
from deltav.server.limits import Limits
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, http


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("privacy") / "p.db"
    settings = Settings(grace_seconds=0, bot_workers=0, allowed_origins=("https://friends.example",),
                        limits=Limits.for_load_tests())  # every request here comes from one address
    with ThreadServer(f"sqlite+aiosqlite:///{db}", settings) as srv:
        yield srv


def raw(srv, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, dict, dict]:
    req = urllib.request.Request(srv.base + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            data = r.read()
            return r.status, {k.lower(): v for k, v in r.headers.items()}, json.loads(data) if data[:1] in b"{[" else {}
    except urllib.error.HTTPError as e:
        data = e.read()
        return e.code, {k.lower(): v for k, v in e.headers.items()}, json.loads(data) if data[:1] in b"{[" else {}


def free_seats(srv, code: str) -> list[int]:
    return [s["seat"] for s in http(srv.base, "GET", f"/rooms/{code}")[1]["seats"] if not s["taken"]]


def test_a_private_room_is_listed_nowhere_and_joined_by_its_code(server):
    status, made = http(server.base, "POST", "/rooms", {"game": "mining", "seats": ["human"] * 4, "name": "ann",
                                                        "options": {"players": 4}})
    assert status == 201 and made["room"]["public"] is False, made
    for query in ("", "?status=open", "?status=live", "?status=finished"):
        assert made["code"] not in {r["code"] for r in http(server.base, "GET", "/rooms" + query)[1]}
    # the invited friends, who have the code, take their seats
    for _ in range(3):
        status, joined = http(server.base, "POST", f"/rooms/{made['code']}/join", {"name": "friend"})
        assert status == 200, joined
    status, open_one = http(server.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "human"],
                                                            "public": True})
    assert open_one["room"]["public"] is True
    assert open_one["code"] in {r["code"] for r in http(server.base, "GET", "/rooms?status=open")[1]}
    status, bad = http(server.base, "POST", "/rooms", {"game": "mining", "seats": ["human", "human"], "public": "yes"})
    assert status == 400 and bad["error"] == "bad_request" and "public" in bad["message"]


def test_changes_from_another_sites_page_or_not_in_json_are_refused_and_change_nothing(server):
    status, made = http(server.base, "POST", "/rooms", {"game": "tactical", "seats": ["human", "human"]})
    assert status == 201
    join = f"/rooms/{made['code']}/join"
    # what a page elsewhere can send without asking: a form, or text/plain
    for ctype, body in (("application/x-www-form-urlencoded", b"name=x"), ("text/plain", b"{}"),
                        ("multipart/form-data; boundary=b", b"--b--")):
        status, _, got = raw(server, "POST", join, body, {"content-type": ctype, "origin": "http://evil.example"})
        assert status == 403 and got["error"] == "bad_origin", got
        assert "evil.example" in got["message"]
        status, _, got = raw(server, "POST", join, body, {"content-type": ctype})
        assert status == 415 and got["error"] == "unsupported_media_type" and "application/json" in got["message"]
    status, _, got = raw(server, "POST", "/rooms", b'{"game": "tactical", "seats": ["human", "human"]}',
                         {"content-type": "text/plain"})
    assert status == 415
    status, _, got = raw(server, "POST", join, b"{}", {"content-type": "application/json",
                                                       "origin": "http://127.0.0.1.evil.example"})
    assert status == 403
    assert free_seats(server, made["code"]) == [1]
    # the server's own pages (same host and port), an allowed origin, and programs (no Origin) may
    host = server.base.removeprefix("http://")
    status, _, got = raw(server, "POST", join, b"{}", {"content-type": "application/json; charset=utf-8",
                                                       "origin": f"http://{host}"})
    assert status == 200, got
    status, _, got = raw(server, "POST", "/rooms", b'{"game": "tactical", "seats": ["human", "human"]}',
                         {"content-type": "application/json", "origin": "https://friends.example"})
    assert status == 201, got


@pytest.mark.parametrize("path", ["/", "/play/ABCDE", "/watch/ABCDE", "/replay/ABCDE", "/rooms", "/rooms/ZZZZZ",
                                  "/leaderboard.html", "/healthz", "/app.js", "/no/such/page"])
def test_every_answer_carries_the_security_headers(server, path):
    _, headers, _ = raw(server, "GET", path)
    assert headers["content-security-policy"] == CSP
    assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"

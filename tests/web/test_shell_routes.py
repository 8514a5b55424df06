"""The server's page routes and the board route, over real HTTP against a real ``deltav serve`` serving the
test build: every client path gets the client's page, the assets are served, ``GET /games/{game}/board`` gives
the game's static board (404 without one, 400 naming the bad option)."""

from __future__ import annotations

import urllib.request


def get(base: str, path: str) -> tuple[int, str, dict]:
    try:
        with urllib.request.urlopen(base + path, timeout=10) as r:
            return r.status, r.read().decode(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), dict(e.headers)


def test_every_client_path_serves_the_client(live_server):
    for path in ("/", "/play/KXMPT", "/watch/kxmpt", "/replay/KXMPT?match=2", "/play/NOTACODE"):
        status, text, headers = get(live_server.base, path)
        assert status == 200, path
        assert '<script type="module" src="/app.js">' in text, path
        assert headers.get("cache-control") == "no-cache", path
    status, text, _ = get(live_server.base, "/board")
    assert status == 200 and 'id="board-data"' in text and "demo.js" in text
    for asset in ("/app.js", "/demo.js", "/style.css", "/shell.css", "/favicon.svg"):
        assert get(live_server.base, asset)[0] == 200, asset
    assert get(live_server.base, "/nothing-here.js")[0] == 404


def test_the_board_route(live_server):
    status, board = live_server.http("GET", "/games/tactical/board?scenario=duel")
    assert status == 200 and board["format"] == "deltav-tactical-board/1" and board["scenario"]["id"] == "duel"
    status, default = live_server.http("GET", "/games/tactical/board")
    assert status == 200 and default["scenario"]["id"] == "biplanetary"
    status, err = live_server.http("GET", "/games/tactical/board?scenario=nowhere")
    assert status == 400 and err["error"] == "bad_options" and "scenario" in err["message"]
    status, err = live_server.http("GET", "/games/tactical/board?scenario=/etc/passwd")
    assert status == 400 and err["error"] == "bad_options" and "built-in" in err["message"]
    status, err = live_server.http("GET", "/games/tactical/board?warp_speed=9")
    assert status == 400 and err["error"] == "bad_options" and "warp_speed" in err["message"]
    status, comps = live_server.http("GET", "/games/mining/board?scenario=variant-b")  # the component data
    assert status == 200 and comps["id"] == "variant-b" and sum(r["count"] for r in comps["tile_mix"]) == 48
    assert len(comps["fingerprint"]) == 16 and comps["rockets_per_player"] == 5
    status, err = live_server.http("GET", "/games/chess/board")
    assert status == 404 and err["error"] == "unknown_game"


def test_the_board_route_takes_every_option_as_the_client_sends_them(live_server):
    """The client sends a snapshot's whole ``options`` as query strings (booleans as true/false)."""
    import urllib.parse

    room = live_server.create("tactical", ["human", "bot:easy"], scenario="duel")
    options = live_server.room(room.code)["options"]
    assert any(isinstance(v, bool) for v in options.values())
    query = urllib.parse.urlencode({k: str(v).lower() if isinstance(v, bool) else v for k, v in options.items()})
    status, board = live_server.http("GET", f"/games/tactical/board?{query}")
    assert status == 200 and board["scenario"]["id"] == "duel"

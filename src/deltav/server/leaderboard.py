"""The leaderboard of humans and bots: ratings from the server's finished matches.

``GET /leaderboard?game=ID`` answers ``{"game", "matches", "two_player": {"system": "glicko2", "rows"},
"free_for_all": {"system": "openskill", "rows"}}`` (rows as :meth:`deltav.ratings.Ladder.table` gives them:
name, rating, rd or sigma, 95% interval, games, wins, provisional); ``GET /leaderboard.html`` is the same as a
page (every game, or ``?game=``). Two-player matches feed a Glicko-2 ladder (one rating period per match),
matches of 3-4 players an openskill one, per game. Entrants are bot specs (``bot:hard``) and named humans
(``human:ann``: seat names are not accounts, so anyone may play under a name). A forfeited match counts as the
forfeit's winners beating the others.

Only matches between distinct connected clients are rated (:func:`unrated_because`): every human seat named and
played from a socket, no client (a network address: ``limits.client_key``) holding two human seats, and no turn
timer shorter than :data:`MIN_TURN_SECONDS`. One client playing both seats under chosen names with a 0.05 s timer
farmed 30 rated matches in 1.4 s; now none counts (docs/server.md, "Leaderboard": what a name is worth).

The ratings are folded in from the database the first time the leaderboard is asked for after a match
finished (matches in the order they finished), so the rooms need no hook and a restart loses nothing. This
module owns the leaderboard only; it reads the store's tables and never writes them.
"""

from __future__ import annotations

import asyncio
import html
import json
from itertools import combinations

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from deltav.ratings import Ladder, match_outcome
from deltav.ratings.ladder import MAX_RD, MAX_SIGMA, MIN_GAMES
from deltav.server.store import Store, matches, seats

#: A match with a turn timer shorter than this is not rated (a quick timer forfeits or plays moves by the
#: hundred a minute: it measures nobody's play).
MIN_TURN_SECONDS = 20.0


def unrated_because(seat_rows: list, meta: dict) -> str | None:
    """Why a finished match does not count (None: it is rated). ``seat_rows`` have ``seat``, ``spec``, ``name``;
    ``meta`` is the match's (``clients``: each human seat's client ids, who took it or played it; ``played``: the
    seats that had a socket; ``clock``)."""
    humans = [s for s in seat_rows if s.spec == "human"]
    if any(not s.name for s in humans):
        return "a human seat has no name"
    entrants = [f"human:{s.name}" if s.spec == "human" else s.spec for s in seat_rows]
    if len(set(entrants)) == 1:
        return "the same entrant in every seat"
    played = set(meta.get("played", []))
    if any(s.seat not in played for s in humans):
        return "a human seat never connected"
    clients = meta.get("clients", {})
    held = [set(clients.get(str(s.seat), [])) for s in humans]
    if any(not h for h in held):
        return "a human seat's client is unknown"
    if any(a & b for a, b in combinations(held, 2)):
        return "one client held two human seats"
    clock = meta.get("clock")
    if clock and float(clock.get("turn_seconds", MIN_TURN_SECONDS)) < MIN_TURN_SECONDS:
        return f"a turn timer under {MIN_TURN_SECONDS:g} s"
    return None


class Leaderboard:
    def __init__(self) -> None:
        self.ladders: dict[tuple[str, str], Ladder] = {}
        self.rated: dict[str, int] = {}  # matches rated per game
        self.unrated: dict[str, int] = {}  # finished matches not rated per game (unrated_because)
        self.seen: set[tuple[str, int]] = set()
        self.since = 0.0
        self.lock = asyncio.Lock()

    def ladder(self, game: str, system: str) -> Ladder:
        lad = self.ladders.get((game, system))
        if lad is None:
            lad = self.ladders[(game, system)] = Ladder(system)
        return lad

    async def refresh(self, store: Store) -> None:
        """Fold in every match finished since the last refresh."""
        async with self.lock, store.engine.connect() as conn:
            q = (select(matches.c.code, matches.c.no, matches.c.game, matches.c.record, matches.c.meta,
                        matches.c.finished_at)
                 .where(matches.c.status == "finished", matches.c.finished_at >= self.since)
                 .order_by(matches.c.finished_at, matches.c.code, matches.c.no))
            rows = [r for r in (await conn.execute(q)).all() if (r.code, r.no) not in self.seen]
            for r in rows:
                got = (await conn.execute(select(seats.c.seat, seats.c.spec, seats.c.name).where(
                    seats.c.code == r.code, seats.c.no == r.no).order_by(seats.c.seat))).all()
                self.seen.add((r.code, r.no))
                self.since = max(self.since, r.finished_at or 0.0)
                self._rate(r.game, r.record, r.meta, got)

    def _rate(self, game: str, record_text: str | None, meta_text: str | None, seat_rows: list) -> None:
        record = json.loads(record_text) if record_text else {}
        meta = json.loads(meta_text) if meta_text else {}
        if unrated_because(seat_rows, meta) is not None:
            self.unrated[game] = self.unrated.get(game, 0) + 1
            return
        names = [f"human:{s.name}" if s.spec == "human" else s.spec for s in seat_rows]
        n = len(names)
        forfeit = meta.get("forfeit") or (record.get("meta") or {}).get("forfeit")
        if forfeit:
            scores = match_outcome(forfeit.get("winners"), None, n)
        elif record.get("result") is not None:
            scores = match_outcome(record["result"].get("winners"), record.get("returns"), n)
        else:
            return
        self.ladder(game, "glicko2" if n == 2 else "openskill").add(names, scores)
        self.rated[game] = self.rated.get(game, 0) + 1

    def board(self, game: str) -> dict:
        out = {"game": game, "matches": self.rated.get(game, 0), "unrated": self.unrated.get(game, 0),
               "provisional": f"fewer than {MIN_GAMES} games, or RD above {MAX_RD:g} (Glicko-2) / sigma above "
                              f"{MAX_SIGMA:g} (openskill)"}
        for key, system in (("two_player", "glicko2"), ("free_for_all", "openskill")):
            lad = self.ladders.get((game, system))
            out[key] = {"system": system, "rows": lad.table() if lad else []}
        return out


def page(boards: list[dict]) -> str:
    parts = ['<!doctype html><meta charset="utf-8"><title>deltav leaderboard</title>'
             '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
             "<style>body{font:15px/1.4 system-ui,sans-serif;margin:2em auto;max-width:56em;padding:0 1em;"
             "color:#1c2430}table{border-collapse:collapse;margin:.5em 0 1.5em;width:100%}"
             "th,td{padding:.3em .7em;border-bottom:1px solid #d8dde5;text-align:right}"
             "th:nth-child(2),td:nth-child(2){text-align:left}th{background:#eef1f5}"
             ".prov{color:#7a8594}.prov td:nth-child(2)::after{content:' (provisional)';font-size:85%}"
             "h2{margin-bottom:.2em}p.note{color:#56606e}</style>",
             '<h1>Leaderboard</h1><p class="note">Humans and bots, from the finished matches on this server. '
             "Ranked by the lower end of the 95% interval; grey rows are provisional.</p>"]
    for b in boards:
        count = f"{b['matches']} rated match{'' if b['matches'] == 1 else 'es'}"
        parts.append(f"<h2>{html.escape(b['game'])}</h2><p class=\"note\">{count}</p>")
        for key, title in (("two_player", "Two players (Glicko-2)"), ("free_for_all", "Free-for-all (openskill)")):
            rows = b[key]["rows"]
            if not rows:
                continue
            unc = "RD" if key == "two_player" else "sigma"
            parts.append(f"<h3>{title}</h3><table><tr><th>#</th><th>player</th><th>rating</th><th>{unc}</th>"
                         "<th>95% interval</th><th>games</th><th>wins</th></tr>")
            for i, r in enumerate(rows, 1):
                u = r.get("rd", r.get("sigma"))
                lo, hi = r["interval"]
                cls = ' class="prov"' if r["provisional"] else ""
                parts.append(f"<tr{cls}><td>{i}</td><td>{html.escape(r['name'])}</td><td>{r['rating']:.1f}</td>"
                             f"<td>{u:.1f}</td><td>{lo:.0f} to {hi:.0f}</td><td>{r['games']}</td>"
                             f"<td>{r['wins']:g}</td></tr>")
            parts.append("</table>")
        if not b["two_player"]["rows"] and not b["free_for_all"]["rows"]:
            parts.append('<p class="note">No rated matches yet.</p>')
    return "".join(parts)


def routes(board: Leaderboard | None = None) -> list[Route]:
    board = board or Leaderboard()

    def games_of(request: Request) -> list[str] | JSONResponse:
        hub = request.app.state.hub
        gid = request.query_params.get("game")
        if gid is None:
            return sorted(hub.games)
        if gid not in hub.games:
            return JSONResponse({"error": "unknown_game", "message": f"no game {gid!r} (one of "
                                 f"{', '.join(sorted(hub.games))})"}, status_code=400)
        return [gid]

    async def as_json(request: Request) -> JSONResponse:
        if "game" not in request.query_params:
            return JSONResponse({"error": "bad_request", "message": "give ?game=ID"}, status_code=400)
        got = games_of(request)
        if isinstance(got, JSONResponse):
            return got
        await board.refresh(request.app.state.hub.store)
        return JSONResponse(board.board(got[0]))

    async def as_page(request: Request) -> HTMLResponse | JSONResponse:
        got = games_of(request)
        if isinstance(got, JSONResponse):
            return got
        await board.refresh(request.app.state.hub.store)
        return HTMLResponse(page([board.board(g) for g in got]))

    return [Route("/leaderboard", as_json), Route("/leaderboard.html", as_page)]

"""A ladder: entrants (``bot:hard``, ``human:ann``...) rated from match results, one system per ladder.

``Ladder("glicko2")`` is for two-player matches: each match is one Glicko-2 rating period for both players
(both updated from their ratings before the match). ``Ladder("openskill")`` is for free-for-all matches of
3-4 players: openskill's Plackett-Luce model, ranks from the match's returns. An entrant is provisional while
it has played fewer than :data:`MIN_GAMES` matches or its uncertainty is high (Glicko-2 RD above
:data:`MAX_RD`; openskill sigma above :data:`MAX_SIGMA`). Rows are sorted by a conservative score (the lower
end of the 95% interval), so a lucky newcomer does not top the table.

This module owns the ladder arithmetic only; reading results from records is the caller's job.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from deltav.ratings.glicko2 import Glicko2, update

MIN_GAMES = 5
MAX_RD = 110.0
MAX_SIGMA = 5.0
SYSTEMS = ("glicko2", "openskill")


def match_outcome(winners: Sequence[int] | None, returns: Sequence[float] | None, n: int) -> list[float]:
    """Per seat, a score where higher is better: the returns when known, else 1 for a winner and 0 for the
    others (no winner at all: everyone 0, a draw)."""
    if returns is not None and len(returns) == n:
        return [float(x) for x in returns]
    w = set(winners or [])
    return [1.0 if p in w else 0.0 for p in range(n)]


@dataclass
class Entry:
    name: str
    games: int = 0
    wins: float = 0.0
    rating: Any = None


@dataclass
class Ladder:
    system: str = "glicko2"
    tau: float = 0.5
    entries: dict[str, Entry] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise ValueError(f"unknown rating system {self.system!r} (one of {', '.join(SYSTEMS)})")
        self._model = None
        if self.system == "openskill":
            from openskill.models import PlackettLuce

            self._model = PlackettLuce()

    def entry(self, name: str) -> Entry:
        e = self.entries.get(name)
        if e is None:
            e = self.entries[name] = Entry(name, rating=self._new_rating(name))
        return e

    def _new_rating(self, name: str) -> Any:
        return Glicko2() if self.system == "glicko2" else self._model.rating(name=name)

    def add(self, players: Sequence[str], scores: Sequence[float]) -> None:
        """One match: ``players[i]`` (entrant names, one per seat) scored ``scores[i]`` (higher is better;
        see :func:`match_outcome`). The same entrant in two seats (self-play) is not rated."""
        if len(players) != len(scores) or len(players) < 2:
            raise ValueError("a match needs at least two players, each with a score")
        if len(set(players)) != len(players):
            return
        entries = [self.entry(p) for p in players]
        best = max(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
        if self.system == "glicko2":
            if len(players) != 2:
                raise ValueError("a Glicko-2 ladder rates two-player matches only")
            a, b = entries
            sa = 0.5 if scores[0] == scores[1] else (1.0 if scores[0] > scores[1] else 0.0)
            ra, rb = a.rating, b.rating
            a.rating = update(ra, [(rb, sa)], self.tau)
            b.rating = update(rb, [(ra, 1.0 - sa)], self.tau)
        else:
            ranks = [sorted(set(scores), reverse=True).index(s) for s in scores]
            new = self._model.rate([[e.rating] for e in entries], ranks=ranks)
            for e, team in zip(entries, new):
                e.rating = team[0]
        for i, e in enumerate(entries):
            e.games += 1
            if len(winners) < len(players) and i in winners:
                e.wins += 1.0 / len(winners)

    def row(self, e: Entry) -> dict:
        if self.system == "glicko2":
            r = e.rating
            lo, hi = r.interval()
            return {"name": e.name, "rating": round(r.r, 2), "rd": round(r.rd, 2), "volatility": round(r.vol, 6),
                    "interval": [round(lo, 2), round(hi, 2)], "score": round(lo, 2), "games": e.games,
                    "wins": e.wins, "provisional": e.games < MIN_GAMES or r.rd > MAX_RD}
        mu, sigma = e.rating.mu, e.rating.sigma
        return {"name": e.name, "rating": round(mu, 3), "sigma": round(sigma, 3),
                "interval": [round(mu - 1.96 * sigma, 3), round(mu + 1.96 * sigma, 3)],
                "score": round(mu - 1.96 * sigma, 3), "games": e.games, "wins": e.wins,
                "provisional": e.games < MIN_GAMES or sigma > MAX_SIGMA}

    def table(self) -> list[dict]:
        """Every entrant's row, best first (by the interval's lower end, then name)."""
        rows = [self.row(e) for e in self.entries.values()]
        rows.sort(key=lambda r: (-r["score"], r["name"]))
        return rows

"""Ratings of players and bots: Glicko-2 for two-player games, openskill for 3-4 player free-for-all.

- :mod:`deltav.ratings.glicko2`: the Glicko-2 system (Glickman), our own small implementation;
- :mod:`deltav.ratings.ladder`: a table of entrants fed match results, one rating system per table, with
  intervals and the provisional flag; used by the server's leaderboard and ``deltav tournament``.

Pure Python (openskill is an optional package, the ``ratings`` extra, imported only by 3-4 player tables).
This package owns rating maths only: no records, no server, no I/O.
"""

from deltav.ratings.glicko2 import Glicko2, update
from deltav.ratings.ladder import Ladder, match_outcome

__all__ = ["Glicko2", "Ladder", "match_outcome", "update"]

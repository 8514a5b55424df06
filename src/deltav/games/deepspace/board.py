"""The static "board" of Deep Space Combat for clients (``DeepSpaceGame.board``): the plane has no map, so this
is the scenario's public setup and the tables a screen shows (format ``deltav-deepspace-board/1``).

- ``scenario``: id, title, summary, round limit, and per side its name, size levels, deployment zone
  ``[q, r, radius]``, ``fleet`` (the built-in fleet's id, or ``"design"`` when designed during play; option
  ``size_levels`` makes every side design) and ``ships``, its ships' public labels in id order as every text of
  the match names them ("Frigate 2"; ``text.ship_labels``; null for a designing side, whose ships are "ship k");
- ``fleets``: every built-in fleet (public data: title, size levels, ships with their stats);
- ``points_per_size`` (a ship's design budget per size level), ``split_thrust`` (velocities in two steps above
  it), ``labels`` (the rulebook's directions A-F as axial vectors);
- ``hit_table``: exact P(hit) for targeting/evasion pairs at several ranges (design note 2.4), from
  ``odds.p_hit``; ``arena_radius`` and ``withdrawal_radius`` (the options).

This module owns that document only (its shape declared once as ``BoardJson``, from which the browser client's
types are written: web/tools/gen_types.py): pure, read from the data files and the options; no game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from deltav.games.deepspace.design import POINTS_PER_SIZE, builtin_fleet_ids, load_fleet
from deltav.games.deepspace.movement import LABEL_VECTORS, LABELS
from deltav.games.deepspace.odds import p_hit
from deltav.games.deepspace.scenarios import scenario_for
from deltav.games.deepspace.text import ship_labels
from deltav.games.deepspace.visibility import ShipDesignJson


class BoardSideJson(TypedDict):
    name: str
    size_levels: int
    zone: tuple[int, int, int]
    fleet: str
    """The built-in fleet's id, or "design" for a side that designs its fleet during play."""
    ships: list[str] | None
    """The public labels of its ships in id order ("Frigate 2"), null for a side that designs its fleet."""


class BoardScenarioJson(TypedDict):
    id: str
    title: str
    summary: str
    round_limit: int
    players: list[BoardSideJson]


class FleetJson(TypedDict):
    id: str
    title: str
    size_levels: int
    ships: list[ShipDesignJson]


class HitTableJson(TypedDict):
    pairs: list[tuple[int, int]]
    """(targeting, evasion) pairs."""
    ranges: list[int]
    p: list[list[float]]
    """P(hit) per pair and range."""


class BoardJson(TypedDict):
    """The board document (:func:`board`)."""

    format: str
    scenario: BoardScenarioJson
    fleets: list[FleetJson]
    points_per_size: int
    split_thrust: int
    labels: dict[str, tuple[int, int]]
    hit_table: HitTableJson
    arena_radius: int
    withdrawal_radius: int


HIT_PAIRS = ((5, 4), (5, 5), (10, 5), (3, 6), (30, 10), (25, 14))
HIT_RANGES = (0, 5, 10, 20, 40)


def board(options: Mapping[str, Any]) -> dict:
    """The document for resolved ``options`` (``DeepSpaceGame.resolve_options`` has checked them)."""
    from deltav.games.deepspace.limits import SPLIT_THRUST

    cap = int(options.get("stat_cap", 0) or 0)
    sc = scenario_for(options)
    fleets = []
    for fid in builtin_fleet_ids():
        f = load_fleet(fid, cap)
        fleets.append({"id": f.id, "title": f.title, "size_levels": f.levels_used,
                       "ships": [d.to_json() for d in f.ships]})
    return {
        "format": "deltav-deepspace-board/1",
        "scenario": {
            "id": sc.id,
            "title": sc.title,
            "summary": sc.summary,
            "round_limit": options.get("round_limit") or sc.round_limit,
            "players": [
                {"name": p.name, "size_levels": p.size_levels, "zone": list(p.zone),
                 "fleet": p.fleet.id if p.fleet is not None else "design", "ships": labels}
                for p, labels in zip(sc.players, ship_labels(sc), strict=True)
            ],
        },
        "fleets": fleets,
        "points_per_size": POINTS_PER_SIZE,
        "split_thrust": SPLIT_THRUST,
        "labels": {k: list(v) for k, v in zip(LABELS, LABEL_VECTORS, strict=True)},
        "hit_table": {
            "pairs": [list(p) for p in HIT_PAIRS],
            "ranges": list(HIT_RANGES),
            "p": [[round(p_hit(t, e, r), 4) for r in HIT_RANGES] for t, e in HIT_PAIRS],
        },
        "arena_radius": options.get("arena_radius", 0),
        "withdrawal_radius": options.get("withdrawal_radius", 30),
    }

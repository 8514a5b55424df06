"""The fixed part of a mining game: components, resolved options, player count and the lookup tables built
from them once (tile ids, counters, contracts, the rulings as booleans). Shared by every state of a game.

This module owns ``Config`` and the components digest; it knows no rules of play.
"""

from __future__ import annotations

from deltav.games.mining.messages import Declare
from deltav.games.mining.scenarios import KINDS, MINERALS, Components, bribe_id, tile_id


class Config:
    """Everything fixed for a whole game: components, options, player count, and lookup tables."""

    __slots__ = ("comps", "options", "n", "kinds", "values", "ids", "id_index", "contracts", "contract_index",
                 "counters", "counter_ids", "counter_index", "rockets", "mandatory", "a2a", "bump_all",
                 "short_lines", "incident_ends", "overmatch_ignored", "omni_bid", "bid_up", "skip_empty",
                 "cooldown", "scan_station", "sab_any", "alien_tiles_count", "stolen_usable",
                 "revealed_known", "full_tie", "max_turns", "declares", "comps_json", "fingerprint", "tile_json",
                 "bribe_json", "contract_json", "tile_dicts")

    def __init__(self, comps: Components, options: dict, n: int):
        self.comps = comps
        self.options = dict(options)
        self.n = n
        self.kinds = comps.kinds
        self.values = comps.values
        self.ids = tuple(tile_id(k) for k in range(len(comps.kinds)))
        self.id_index = {t: k for k, t in enumerate(self.ids)}
        self.contracts = comps.contracts
        self.contract_index = {c.id: i for i, c in enumerate(comps.contracts)}
        self.declares = tuple(Declare(c.id) for c in comps.contracts)
        self.counters = 5 * n  # counter c: owner c // 5, mineral c % 5
        self.counter_ids = tuple(bribe_id(c // 5, c % 5) for c in range(self.counters))
        self.counter_index = {b: c for c, b in enumerate(self.counter_ids)}
        self.rockets = comps.rockets_per_player
        o = options
        self.mandatory = bool(o.get("mandatory_contract_attempt", True))
        self.a2a = bool(o.get("asteroid_to_asteroid", False))
        self.bump_all = o.get("bump", "one") == "all"
        self.short_lines = bool(o.get("survey_short_lines", True))
        self.incident_ends = bool(o.get("incident_ends_attempt", True))
        self.overmatch_ignored = o.get("overmatch", "mismatch") == "ignored"
        self.omni_bid = o.get("omnidium_bid_up", "not_allowed") == "reveal_omnidium"
        self.bid_up = bool(o.get("bid_up", True))
        self.skip_empty = bool(o.get("skip_empty_windows", True))
        self.cooldown = bool(o.get("incident_cooldown", True))
        self.scan_station = bool(o.get("scan_counts_station_rockets", True))
        self.sab_any = bool(o.get("sabotage_any_rocket", True))
        self.alien_tiles_count = bool(o.get("alien_tiles_count_for_end", False))
        self.stolen_usable = o.get("stolen_bribe", "usable") == "usable"
        self.revealed_known = bool(o.get("revealed_tiles_known", True))
        self.full_tie = o.get("full_tie", "shared")
        self.max_turns = int(o.get("max_turns", 400))
        self.comps_json = comps.to_json()
        self.fingerprint = fingerprint(self.comps_json)
        self.tile_json = tuple((self.ids[t], KINDS[self.kinds[t]], self.values[t]) for t in range(len(self.kinds)))
        #: one ``{id, kind, value}`` per tile, only ever copied into views (never handed out)
        self.tile_dicts = tuple({"id": i, "kind": k, "value": v} for i, k, v in self.tile_json)
        self.contract_json = tuple((c.id, tuple(MINERALS[m] for m in c.minerals)) for c in comps.contracts)
        self.bribe_json = tuple((self.counter_ids[c], c // 5, MINERALS[c % 5]) for c in range(self.counters))


def fingerprint(components_json: dict) -> str:
    """A short digest of a components JSON (without its own fingerprint), to cache configs by content."""
    import hashlib
    import json

    body = {k: v for k, v in components_json.items() if k != "fingerprint"}
    return hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]

"""Knight Hawks (Star Frontiers, TSR 1983), the Advanced Game: starship combat on a hex map with facing,
ADF/MR movement, gravity, the Advanced Combat Table and the complete advanced damage system with repair.

See docs/knighthawks.md for the turn sequence, the decomposition of decisions, every ruling option and the
JSON forms. This module registers the game; the rules live in the sibling modules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.errors import OptionError, ScenarioError
from deltav.core.protocol import Game, Option, ScenarioInfo, register_game
from deltav.core.rng import Rng
from deltav.games.knighthawks import scenarios as scen
from deltav.games.knighthawks import tables as ship_tables  # the module: ``knighthawks.tables`` stays the module
from deltav.games.knighthawks import worlds
from deltav.games.knighthawks.messages import ACTIONS, EVENTS
from deltav.games.knighthawks.rulings import RULING_OPTIONS
from deltav.games.knighthawks.state import KHState


def _scenario_for(options: Mapping[str, Any]) -> scen.Scenario:
    name = options.get("scenario", "skirmish")
    base = scen.load(name)
    if name == "skirmish":
        return scen.skirmish(base, options.get("fleet0", DEFAULT_FLEET0), options.get("fleet1", DEFAULT_FLEET1))
    return base


DEFAULT_FLEET0 = "destroyer,frigate,assault_scout"
CLASS_IDS = tuple(ship_tables.tables().classes)  # the ship classes a skirmish fleet is built from
DEFAULT_FLEET1 = "heavy_cruiser,2*fighter"


@register_game
class KnightHawks(Game):
    id = "knighthawks"
    title = "Knight Hawks (Advanced Game)"
    min_players = 2
    max_players = 2
    has_hidden_information = True  # mine patterns and waiting seekers of the other side
    has_simultaneous_moves = False
    rules_version = "2"  # 2: issue 18 (fire timing, break-up in orbit and docked, short repair, secret traps, new events)
    options = (
        Option("scenario", str, "skirmish", "a built-in scenario id or the path of a scenario TOML file",
               choices=scen.BUILTIN, free_choice=True),
        Option("fleet0", str, DEFAULT_FLEET0, "skirmish only: player 1's ships, how many of each class",
               choices=CLASS_IDS, multiple=True, label="UPF fleet"),
        Option("fleet1", str, DEFAULT_FLEET1, "skirmish only: player 2's ships, how many of each class",
               choices=CLASS_IDS, multiple=True, label="Sathar fleet"),
        Option("turn_limit", int, 0, "game turns before the game ends on the scenario's objective or points "
               "(0: the scenario's own limit)", minimum=0, maximum=100),
    ) + RULING_OPTIONS
    actions = ACTIONS
    events = EVENTS

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        if options.get("scenario") == "skirmish":
            for k in ("fleet0", "fleet1"):
                try:
                    scen.parse_fleet(options[k], k)
                except ScenarioError as exc:
                    raise OptionError(k, exc.reason, "class ids such as destroyer,2*fighter") from None

    @classmethod
    def scenarios(cls) -> list[ScenarioInfo]:
        out = []
        for name in scen.BUILTIN:
            s = scen.builtin(name)
            out.append(ScenarioInfo(s.id, s.title, (2,), s.summary))
        return out

    @classmethod
    def max_decisions(cls, options: Mapping[str, Any]) -> int:
        opts = cls.resolve_options(options)
        s = _scenario_for(opts)
        t = ship_tables.tables()
        limit = opts.get("turn_limit") or s.turn_limit
        n = len(s.ships)
        weapons = 0
        traps = len(s.mines)
        dcr = 0
        speed = 0
        adf = 0
        for sp in s.ships:
            k = t.classes[sp.cls]
            loadout = sp.weapons if sp.weapons is not None else k.weapons
            for code, c in loadout:
                weapons += 1 if code in ("T", "AR", "RB", "M", "S") else c
                if code in ("M", "S"):
                    traps += c
            dcr += sp.dcr if sp.dcr is not None else k.dcr
            speed = max(speed, sp.speed)
            adf = max(adf, k.adf)
        steps = n * (speed + adf * limit + 2)
        per_side = (4 * n + traps + steps + 1) + 2 * (weapons + 1) + (2 * weapons + traps)
        return limit * 2 * per_side + (limit // 3 + 1) * (dcr + 2 * n + 2) + 10

    @classmethod
    def board(cls, options: Mapping[str, Any] | None = None) -> dict:
        """The map and data tables for clients (board.py)."""
        from deltav.games.knighthawks.board import board

        opts = cls.resolve_options(options)
        return board(_scenario_for(opts), opts)

    @classmethod
    def annotate_legal(cls, state, player, actions, view=None):
        from deltav.games.knighthawks.annotate import annotate

        return annotate(state, player, actions, view)

    @classmethod
    def new_initial_state(cls, options: Mapping[str, Any] | None = None, seed: int = 0) -> KHState:
        opts = cls.resolve_options(options)
        return KHState.from_scenario(_scenario_for(opts), opts, seed)

    @classmethod
    def state_from_json(cls, obj: Mapping) -> KHState:
        """A state from its JSON form, validated first (StateError naming the field on any fault)."""
        from deltav.games.knighthawks.state_schema import validate

        return KHState.from_json(validate(obj))

    @classmethod
    def describer(cls, options: Mapping[str, Any] | None = None, names: Sequence[str] | None = None):
        """The one function writing the text of every action and event of a match (text.py): ships by name
        and class from the scenario, players by ``names`` (None: "Player 1", "Player 2")."""
        from deltav.games.knighthawks import text

        try:
            opts = cls.resolve_options(options or {})
            key = json.dumps(opts, sort_keys=True, default=str)
        except (OptionError, ScenarioError, TypeError, ValueError):
            opts, key = None, "?"
        facts = text.facts_for(lambda: _scenario_for(opts) if opts is not None else None, key)
        return text.Describer(facts, names)

    @classmethod
    def match_summary(cls, state, events, names: Sequence[str] | None = None) -> dict:
        """The finished match's victory points, objective and statistics per side (summary.py)."""
        from deltav.games.knighthawks.summary import match_summary

        return match_summary(state, events, names)

    @classmethod
    def briefing(cls, options: Mapping[str, Any] | None, seat: int | None, names: Sequence[str] | None = None) -> dict:
        """The scenario's briefing for ``seat`` (briefing.py): objective, each side's ships and goal, what wins."""
        from deltav.games.knighthawks.briefing import briefing

        opts = cls.resolve_options(options or {})
        return briefing(_scenario_for(opts), opts.get("turn_limit") or _scenario_for(opts).turn_limit, seat, names)

    @classmethod
    def determinize(cls, view: Mapping, player: int, rng: Rng) -> KHState:
        """A full state from ``player``'s view: the other side's hidden traps (their number is in the view)
        are placed at random map hexes off planets, each a mine pattern or a seeker with even odds; once a
        repair turn has passed, each damaged item of an enemy ship may have been repaired in secret (25% each;
        the view's record stays the world's picture of it). The state of ``sample_world``'s JSON, built by
        reuse (``worlds.py``)."""
        return worlds.determinize(view, player, rng)


KHState.game = KnightHawks

__all__ = ["KnightHawks", "KHState"]

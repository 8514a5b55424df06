"""Delta-V tactical: vector-movement space combat on the solar-system map (rules: the help text of the public
game tre-systems/delta-v; numbers and rulings: design/tactical.md; our docs: docs/tactical.md).

This module registers the game: options (the scenario and every named ruling), codecs, scenarios, the decision
bound and the factories. The rules live in the sibling modules (see state.py for the map of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deltav.core.protocol import Game, Option, ScenarioInfo, register_game
from deltav.core.rng import Rng
from deltav.core.values import Codec
from deltav.games.tactical.rulings import RULING_OPTIONS

from .messages import ACTIONS, EVENTS
from .movement import Course, compute_course, detect_orbit
from .preview import CoursePreview, preview_course
from .scenarios import SCENARIO_IDS, builtin_scenario, get_scenario, load_scenario_file
from .state import TacticalState

__all__ = [
    "map_json",
    "TacticalGame",
    "TacticalState",
    "CoursePreview",
    "preview_course",
    "Course",
    "compute_course",
    "detect_orbit",
    "get_scenario",
    "load_scenario_file",
]


def map_json() -> dict:
    """The shipped map as plain JSON (bounds, bodies with their bases, stations, the 238 hexes), for clients
    that draw the board; the same document as ``data/map.json``."""
    from .mapdata import default_map

    return default_map().to_json()


@register_game
class TacticalGame(Game):
    id = "tactical"
    title = "Delta-V tactical (vector-movement space combat)"
    min_players = 2
    max_players = 2
    has_hidden_information = True  # fog of war, the Escape fugitive, secret fleet purchases
    has_simultaneous_moves = True  # fleet building
    rules_version = "1"
    options = (
        Option("scenario", str, "biplanetary", "a shipped scenario id or the path of a scenario file (TOML/JSON)",
               choices=SCENARIO_IDS, free_choice=True),
        Option("turn_limit", int, 100, "game turns before the game ends (a draw; Grand Tour: more checkpoints "
               "visited wins). The rules have no limit; random play needs one.", minimum=1, maximum=100_000),
    ) + RULING_OPTIONS
    actions = Codec(ACTIONS)
    events = Codec(EVENTS)

    @classmethod
    def describer(cls, options: Mapping[str, Any] | None, names=None):
        """The text of every action and event of a match, with the seats' names (``text.describer``)."""
        from .text import describer

        return describer(options, names)

    @classmethod
    def match_summary(cls, state, events, names=None) -> dict:
        """Game-over statistics per seat (turns, fuel spent, hits, ships lost, ordnance...): ``summary.py``."""
        from .summary import match_summary

        return match_summary(state, events, names)

    @classmethod
    def scorecard(cls, record) -> dict:
        """A bot measurement's counts of one match (objective, timeouts, fuel stalls, losses by cause, player-turns):
        ``scorecard.py``."""
        from .scorecard import match_scorecard

        return match_scorecard(record)

    @classmethod
    def briefing(cls, options: Mapping[str, Any] | None, seat: int | None, names=None) -> dict:
        """The scenario briefing (objective, each side's forces and goal, what wins, special rules):
        ``briefing.py``."""
        from .briefing import briefing

        return briefing(cls.resolve_options(options), seat, names)

    @classmethod
    def board(cls, options: Mapping[str, Any] | None = None) -> dict:
        """The board document of ``board.board`` (map, bodies, gravity, bases, the scenario's goals)."""
        from .board import board

        return board(options)

    @classmethod
    def annotate_legal(cls, state, player: int, actions, view=None) -> list[dict | None] | None:
        """Course previews of orders, odds of attacks, costs of purchases (``annotate.annotate_legal``)."""
        from .annotate import annotate_legal

        return annotate_legal(state, player, actions)

    @classmethod
    def advise(cls, view: Mapping[str, Any], seat: int, request: Mapping[str, Any]) -> dict:
        """The astrogation assistant: the planner's fewest-turn course for one of ``seat``'s ships to a destination,
        from ``seat``'s own view (``advise.advise``); or, for the request ``{"kind": "reach"}``, the reach shadow of
        every enemy ship the seat sees (``reach.reach_shadow``)."""
        if isinstance(request, Mapping) and request.get("kind") == "reach":
            from .reach import reach_shadow

            return reach_shadow(view, seat)
        from .advise import advise

        return advise(view, seat, request)

    @classmethod
    def scenarios(cls) -> list[ScenarioInfo]:
        out = []
        for sid in SCENARIO_IDS:
            sc = builtin_scenario(sid)
            out.append(ScenarioInfo(sid, sc.name, (2,), sc.summary))
        return out

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        get_scenario(options["scenario"])  # raises ScenarioError naming the field of a bad file

    @classmethod
    def max_decisions(cls, options: Mapping[str, Any]) -> int:
        sc = get_scenario(options["scenario"])
        credits = sum(p.credits for p in sc.players)
        ships = sum(len(p.ships) for p in sc.players) + credits // 10 + credits // 1000
        per_turn = 20 * ships + 20
        fleet = 2 * (credits // 10 + 4)
        return 2 * (int(options["turn_limit"]) + 1) * per_turn + fleet

    @classmethod
    def new_initial_state(cls, options: Mapping[str, Any] | None = None, seed: int = 0) -> TacticalState:
        opts = cls.resolve_options(options)
        return TacticalState.from_scenario(get_scenario(opts["scenario"]), opts, seed)

    @classmethod
    def action_from_json(cls, obj: Any):
        """Decode an action (the untrusted JSON path): field types, then the form checks of
        ``values.check_form`` (an order's weak-gravity hexes are hex keys); MalformedAction names the field."""
        from .messages import check_form

        action = cls.actions.decode(obj)
        check_form(action)
        return action

    @classmethod
    def state_from_json(cls, obj: Mapping) -> TacticalState:
        """Load a saved state: validated first (``state_schema.check_state``: ``StateError(field path, reason)``
        on any fault), then built."""
        from .state_schema import check_state

        return TacticalState.from_json(dict(check_state(obj, cls)))

    @classmethod
    def determinize(cls, view: Mapping, player: int, rng: Rng) -> TacticalState:
        from .visibility import determinize

        return determinize(view, player, rng, TacticalState)


TacticalState.game = TacticalGame

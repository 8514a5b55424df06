"""Deep Space Combat (Joshua Morris, 1997): fleet design under a point budget, secret simultaneous plotting,
hex vector movement, 2d6 x stat combat, defender-allocated damage and self-destruct.

Rules: ``/work/shared/rules/deep-space-combat.txt``; rulings: ``design/deep-space.md`` 2.2-2.3, each a named
option below. Docs: ``docs/deepspace.md``.

Modules: ``movement`` (velocity vectors, thrust cost), ``combat`` (rolls), ``damage`` (allocation),
``design`` (ship designs, fleets and their files), ``scenarios`` (scenario files and the agreed size levels),
``messages`` (actions and events), ``text`` (the words of a match), ``summary`` (a finished match's points and
statistics), ``briefing`` (the scenario briefing), ``state`` (the record and the dispatch), ``ship`` (a ship's
record), one module per phase (``design_phase``, ``deploy_phase``, ``plot_phase``, ``allocate_phase``,
``destruct_phase``), ``flow`` (phase transitions), ``choices`` (cached action lists), ``visibility`` (views, secret
tokens, the determinizer), ``odds`` (the exact dice odds), ``bots`` (the AI: bots, heuristics, look-ahead, opponent model).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.errors import OptionError, ScenarioError
from deltav.core.jsonin import shown
from deltav.core.protocol import Describer, Game, Option, ScenarioInfo, generic_text, player_names, register_game
from deltav.core.rng import Rng
from deltav.games.deepspace import design_phase
from deltav.games.deepspace.design import POINTS_PER_SIZE
from deltav.games.deepspace.messages import ACTIONS, EVENTS
from deltav.games.deepspace.rulings import RULING_OPTIONS
from deltav.games.deepspace.scenarios import Scenario, builtin_ids, load_scenario, scenario_for
from deltav.games.deepspace.state import DeepSpaceState
from deltav.games.deepspace.text import Words


@register_game
class DeepSpaceGame(Game):
    id = "deepspace"
    title = "Deep Space Combat"
    min_players = 2
    max_players = 8
    has_hidden_information = True
    has_simultaneous_moves = True
    rules_version = "1997-1"
    options = (
        Option("scenario", str, "duel", "A built-in scenario id or the path of a scenario TOML file.",
               choices=tuple(builtin_ids()), free_choice=True),
        Option("size_levels", str, "",
               "The size levels the players agree on before the game (the rules: 'The players must agree beforehand "
               "on the number of size levels'; they 'need not be equal'). Empty: the scenario's fleets and levels. "
               "A number (12): every side designs its own fleet of that many size levels; one number per side in "
               "seat order (6,4): unequal budgets. A designing side may still adopt a ready-made fleet that fits."),
    ) + RULING_OPTIONS
    actions = ACTIONS
    events = EVENTS

    @classmethod
    def describer(cls, options: Mapping[str, Any] | None, names: Sequence[str] | None = None) -> Describer:
        """The text of every action and event of one match (``text.Words``): seats by ``names`` (None: "Player
        1", ...), ships by their owner and public label ("Player 2's Frigate 3"), velocities by the rulebook's
        directions. Falls back to the generic wording for what it does not know (a malformed value)."""
        try:
            sc = cls._scenario(options) if options is not None else None
        except (ScenarioError, OptionError, OSError):
            sc = None
        n = len(sc.players) if sc is not None else None
        words = Words(sc, player_names(names, n) if names is not None and n is not None else names)

        def describe(v: Any) -> str:
            try:
                obj = v.to_json() if hasattr(v, "to_json") else dict(v)
                line = words(obj)
            except (TypeError, KeyError, ValueError, IndexError, AttributeError):
                line = None
            return line if line is not None else generic_text(cls, v)

        return describe

    @classmethod
    def match_summary(cls, state: DeepSpaceState, events, names: Sequence[str] | None = None) -> dict:
        """The campaign points as the rules score them, statistics per fleet and notes (``summary.py``)."""
        from deltav.games.deepspace.summary import match_summary

        return match_summary(state, events, names)

    @classmethod
    def briefing(cls, options: Mapping[str, Any] | None, seat: int | None = None,
                 names: Sequence[str] | None = None) -> dict:
        """What a round is, each fleet's budget and ships, what wins, for these options (``briefing.py``)."""
        from deltav.games.deepspace.briefing import briefing

        return briefing(cls, options or {}, seat, names)

    @classmethod
    def board(cls, options: Mapping[str, Any] | None = None) -> dict:
        """The scenario's public setup and the screen's tables (``board.board``)."""
        from deltav.games.deepspace.board import board

        return board(cls.resolve_options(options))

    @classmethod
    def annotate_legal(cls, state: DeepSpaceState, player: int, actions, view=None) -> list[dict | None]:
        """Per-action notes from ``player``'s view only (``annotate.annotate``): costs, odds, previews."""
        from deltav.games.deepspace.annotate import annotate

        return annotate(state.view(player) if view is None else view, actions)

    @classmethod
    def scenarios(cls) -> list[ScenarioInfo]:
        out = []
        for sid in builtin_ids():
            sc = load_scenario(sid)
            out.append(ScenarioInfo(sc.id, sc.title, (len(sc.players),), sc.summary))
        return out

    @classmethod
    def _scenario(cls, options: Mapping[str, Any]) -> Scenario:
        cap = options.get("stat_cap", 0)
        if isinstance(cap, bool) or not isinstance(cap, int):
            raise OptionError("stat_cap", f"expected an integer, got {shown(cap)}")
        return scenario_for(options)  # ScenarioError naming the field and file, OptionError naming the option

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        sc = cls._scenario(options)
        if options.get("fleet_levels", "all") == "all":
            for i, p in enumerate(sc.players):
                if p.fleet is not None and p.fleet.levels_used != p.size_levels:
                    raise OptionError(
                        "fleet_levels",
                        f"player {i + 1}'s fleet {p.fleet.id!r} uses {p.fleet.levels_used} of the side's "
                        f"{p.size_levels} size levels; under 'all' a fleet totals its side's levels",
                        ("all", "at_most"),
                    )

    @classmethod
    def num_players(cls, options: Mapping[str, Any]) -> int:
        return len(cls._scenario(options).players)

    @classmethod
    def max_decisions(cls, options: Mapping[str, Any]) -> int:
        sc = cls._scenario(options)
        levels = sum(p.size_levels for p in sc.players)
        n = len(sc.players)
        stat_levels = POINTS_PER_SIZE * levels  # every stat level costs at least one design point
        rounds = options.get("round_limit") or sc.round_limit
        design = sum(5 * p.size_levels + 2 * POINTS_PER_SIZE * p.size_levels + 1 for p in sc.players)
        deploy = 3 * levels + n  # place, velocity column (thrust above 10), velocity; done
        per_round = (2 * levels + stat_levels + n) + 2 * (2 * stat_levels + levels) + levels
        return design + deploy + rounds * per_round

    @classmethod
    def new_initial_state(cls, options: Mapping[str, Any] | None = None, seed: int = 0) -> DeepSpaceState:
        opts = cls.resolve_options(options)
        sc = cls._scenario(opts)
        s = DeepSpaceState.__new__(DeepSpaceState)
        n = len(sc.players)
        s.num_players = n
        s.rng = Rng(seed)
        s.opts = opts
        s.names = tuple(p.name for p in sc.players)
        s.levels = tuple(p.size_levels for p in sc.players)
        s.zones = tuple(p.zone for p in sc.players)
        s.round_limit = opts["round_limit"] or sc.round_limit
        s.phase = "design"
        s.sub = ""
        s.round = 0
        s.ships = []
        s.index = {}
        s.order = [() for _ in range(n)]
        s.cur = [0] * n
        s.col = [None] * n
        s.plan = []
        s.inflicted = [0] * n
        s.received = [0] * n
        s.report = ()
        s.shots = ()
        s._result = None
        s.designs = [p.fleet.ships if p.fleet is not None else () for p in sc.players]
        s.drafts = [(0, 0, 0, 0, (), 0, 0) for _ in range(n)]
        s._vships = s._vplayers = None
        s.waiting = [p.fleet is None for p in sc.players]
        if not any(s.waiting):
            design_phase.commission(s)
        return s

    @classmethod
    def state_from_json(cls, obj: Mapping) -> DeepSpaceState:
        """A saved state, validated (``state_schema``): StateError naming the field for any bad input."""
        return DeepSpaceState.from_json(obj)

    @classmethod
    def determinize(cls, view: Mapping, player: int, rng: Rng) -> DeepSpaceState:
        from deltav.games.deepspace.visibility import determinize

        return determinize(view, player, rng, DeepSpaceState)


DeepSpaceState.game = DeepSpaceGame

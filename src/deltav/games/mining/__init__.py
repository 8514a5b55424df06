"""Delta V (asteroid mining, Fantasy Flight Games 2001): 2 to 4 rival mining corporations remember hidden
asteroid tiles, bribe officials and race to fulfil government contracts.

The game registers itself as ``mining``. Rules: ``shared/rules/delta-v-mining-rulebook.txt``; component data
and rulings: ``shared/design/mining.md`` sections 1.4 and 1.5 (every ruling is an option below). Docs:
``docs/mining.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.errors import OptionError, ScenarioError, StateError
from deltav.core.protocol import Describer, Game, Option, ScenarioInfo, generic_text, register_game
from deltav.core.rng import Rng
from deltav.games.mining import annotate, summary
from deltav.games.mining import briefing as brief
from deltav.games.mining import scenarios as scen
from deltav.games.mining import text as txt
from deltav.games.mining.config import Config
from deltav.games.mining.messages import ACTIONS, EVENTS
from deltav.games.mining.phases import BIT
from deltav.games.mining.rulings import RULING_OPTIONS
from deltav.games.mining.state import MiningState, build, new_state
from deltav.games.mining.state_schema import read_state
from deltav.games.mining.visibility import board_json, config_for, determinize, full_view, make_view


@register_game
class MiningGame(Game):
    id = "mining"
    title = "Delta V (asteroid mining)"
    min_players = 2
    max_players = 4
    has_hidden_information = True
    has_simultaneous_moves = False
    rules_version = "1"
    options = (
        Option("scenario", str, "standard", "component set: 'standard' (variant A tile mix), 'variant-b' (more "
               "incidents), or a path to a TOML/JSON component file", choices=tuple(scen.SCENARIO_FILES),
               free_choice=True),
        Option("players", int, 2, "number of players", minimum=2, maximum=4),
        Option("max_turns", int, 400, "safety turn limit (not in the rulebook): the game is scored after this "
               "many turns in total", minimum=1, maximum=5000),
    ) + RULING_OPTIONS
    actions = ACTIONS
    events = EVENTS

    @classmethod
    def scenarios(cls) -> list[ScenarioInfo]:
        out = []
        for sid in scen.SCENARIO_FILES:
            c = scen.load(sid)
            out.append(ScenarioInfo(sid, c.title, (2, 3, 4), c.summary))
        return out

    @classmethod
    def max_decisions(cls, options: Mapping[str, Any]) -> int:
        opts = cls.resolve_options(options)
        comps = scen.load(opts["scenario"])
        n = opts["players"]
        incidents = sum(1 for k in comps.kinds if k > scen.OMNIDIUM)
        r = comps.rockets_per_player + 5 * n  # rockets in play never exceed the rockets per player
        per_turn = (3 * (n - 1) + incidents * (r + 8) + (r + 6) + 2 + scen.BOARD_TILES + 5 * n + 8)
        return opts["max_turns"] * per_turn + 1

    @classmethod
    def config(cls, options: Mapping[str, Any] | None) -> Config:
        opts = cls.resolve_options(options)
        comps = scen.load(opts["scenario"])
        return config_for(comps.to_json(), opts, opts["players"])

    @classmethod
    def board(cls, options: Mapping[str, Any] | None = None) -> dict:
        """The static component data for these options (``view.board_json``): scenario title and summary, tile
        mix, contracts, rockets per player and the ``fingerprint`` each view names. Clients get it once."""
        return board_json(cls.config(options))

    @classmethod
    def new_initial_state(cls, options: Mapping[str, Any] | None = None, seed: int = 0) -> MiningState:
        state, _ = new_state(cls.config(options), seed)
        return state

    @classmethod
    def state_from_json(cls, obj: Mapping) -> MiningState:
        """A state from ``to_json()``, validated first (``state_schema``): StateError(field, reason) otherwise."""
        d, options, rng, _ = read_state(cls, obj)
        cfg = config_for(d["components"], options, d["players"])
        state = build(cfg, d, rng)
        if not state.is_terminal() and not state.legal_actions(state.current_players()[0]):
            raise StateError("$.phase", f"nobody can act in the {d['phase']} phase of this state")
        return state

    @classmethod
    def determinize(cls, view: Mapping, player: int, rng: Rng) -> MiningState:
        return determinize(view, player, rng)

    @classmethod
    def describer(cls, options: Mapping[str, Any] | None, names: Sequence[str] | None = None) -> Describer:
        """The text of every action and event of one match (``text.Words``): players by ``names`` (None: "Player
        1", ...), tiles, minerals and counters by the rulebook's names, from the match's components (read from
        ``options``; when they cannot be read, tile ids go unnamed). Falls back to the generic form."""
        try:
            cfg = cls.config(options) if options is not None else None
        except (ScenarioError, StateError, OptionError, ValueError, OSError):
            cfg = None
        words = txt.Words(cfg, names)

        def describe(v: Any) -> str:
            try:
                obj = v.to_json() if hasattr(v, "to_json") else dict(v)
                line = words(obj)
            except (KeyError, TypeError, ValueError, AttributeError):
                line = None
            return line if line is not None else generic_text(cls, v)

        return describe

    @classmethod
    def match_summary(cls, state: MiningState, events, names: Sequence[str] | None = None) -> dict:
        """The rulebook's scoring with its tie-breaks, statistics per player and notes (``summary.py``)."""
        return summary.match_summary(state, events, names)

    @classmethod
    def briefing(cls, options: Mapping[str, Any] | None, seat: int | None = None,
                 names: Sequence[str] | None = None) -> dict:
        """What a turn is, what each player starts with and what wins, for these options (``briefing.py``)."""
        return brief.briefing(cls, options, seat, names)

    @classmethod
    def annotate_legal(cls, state: MiningState, player: int, actions, view=None) -> list[dict | None] | None:
        """Notes for a client on each legal action, from the player's own knowledge (``annotate.py``)."""
        return annotate.annotate(state, player, actions, view)

    @classmethod
    def render_view(cls, view: Mapping) -> str | None:
        """The 7x7 grid as text for terminal play (``txt.render``)."""
        return txt.render(view)


def _view(self: MiningState, player: int | None) -> dict:
    return make_view(self, player)


def _secret_tokens(self: MiningState, player: int | None) -> set[str]:
    known = self.public | (self.looked[player] if player is not None else 0) | self.faceup | self.att_mask
    ids = self.cfg.ids
    return {ids[t] for s, t in enumerate(self.squares) if t >= 0 and not known & BIT[s]}


MiningState.game = MiningGame
MiningState.view = _view  # type: ignore[method-assign]
MiningState.secret_tokens = _secret_tokens  # type: ignore[method-assign]
MiningState.full_view = full_view  # type: ignore[method-assign]

__all__ = ["MiningGame", "MiningState", "RULING_OPTIONS"]

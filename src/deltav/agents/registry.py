"""The bot registry: ``make_agent(game_id, spec)`` turns a spec such as ``hard``, ``mcts:iterations=500`` or
``scripted`` into an :class:`~deltav.core.agent.Agent` for one seat.

Names resolved, in order:

1. the generic agents: ``random``, ``mcts``, ``ismcts``, ``duct`` (parameters: see each class's ``PARAMS``);
2. the difficulty presets ``easy``, ``normal``, ``hard`` (:mod:`deltav.agents.presets`; ``hard:iterations=300``
   overrides a preset's parameter);
3. the game's own bots, ``deltav.games.<id>.bots.BOTS`` (a dict name -> Agent class; ``scripted`` is the
   baseline every game should provide). Parameters are checked against the class's ``PARAMS`` table (types
   and bounds, :class:`deltav.core.agent.Param`) and passed to the class as keyword arguments; a class without
   its own table gets one read off its constructor's defaults, with generic bounds (:func:`bot_params`).

A name that matches nothing raises :class:`~deltav.agents.spec.AgentSpecError` listing the specs available for
that game. This module owns name resolution only.
"""

from __future__ import annotations

import inspect
from typing import Any

from deltav.agents.gate import PhaseGate
from deltav.agents.mcts import DUCTAgent, ISMCTSAgent, MCTSAgent, SearchAgent, SearchUnavailable, check_searchable
from deltav.agents.noisy import EpsilonAgent
from deltav.agents.presets import LEVELS, game_module, heuristic, preset_for
from deltav.agents.rollout import BotPolicy, BotPrior
from deltav.agents.spec import AgentSpecError, parse_spec
from deltav.core.agent import Agent, Param, ParamError, RandomAgent
from deltav.core.errors import OptionError
from deltav.core.protocol import Game, get_game

SEARCH_AGENTS: dict[str, type[SearchAgent]] = {"mcts": MCTSAgent, "ismcts": ISMCTSAgent, "duct": DUCTAgent}
GENERIC = ("random", *SEARCH_AGENTS)


def game_bots(game_id: str) -> dict[str, type[Agent]]:
    """The game's own bots (``deltav.games.<id>.bots.BOTS``), or an empty dict if it has none yet."""
    mod = game_module(game_id, "bots")
    bots = getattr(mod, "BOTS", None) if mod is not None else None
    return dict(bots) if isinstance(bots, dict) else {}


def available_specs(game: str | type[Game]) -> list[str]:
    """Every agent name a spec may start with for this game."""
    gid = game if isinstance(game, str) else game.id
    names = list(GENERIC) + list(LEVELS)
    names += [n for n in sorted(game_bots(gid)) if n not in names]
    return names


def _game_class(game: str | type[Game]) -> type[Game] | None:
    if not isinstance(game, str):
        return game
    try:
        return get_game(game)
    except OptionError:
        from deltav.games import load_all

        return load_all().get(game)


def make_agent(game: str | type[Game], spec: str) -> Agent:
    """An agent for one seat of ``game`` (an id, or a Game class such as a test game) from ``spec``."""
    gid = game if isinstance(game, str) else game.id
    name, raw = parse_spec(spec)
    game_cls = _game_class(game)
    if name == "random":
        if raw:
            raise AgentSpecError(spec, "random takes no parameters")
        return RandomAgent()
    if name in SEARCH_AGENTS:
        if game_cls is not None:
            _check_search(spec, game_cls)
        raw = dict(raw)
        hooks = {key: raw.pop(key, None) for key in HOOKS}
        agent = SEARCH_AGENTS[name](
            policy=_hook(spec, gid, "rollout", hooks["rollout"], _rollout),
            evaluate=_hook(spec, gid, "evaluation", hooks["evaluation"], heuristic),
            prior=_hook(spec, gid, "prior", hooks["prior"], _prior),
            spec=spec,
            **raw,
        )
        return agent
    if name in LEVELS:
        return _from_preset(gid, game_cls, name, raw, spec)
    bots = game_bots(gid)
    if name in bots:
        raw = dict(raw)
        epsilon = raw.pop("epsilon", None)
        return _noisy(_scripted(bots[name], raw, spec), epsilon, spec)
    raise AgentSpecError(
        spec,
        f"no agent named {name!r} for game {gid!r}"
        + ("" if bots else f" (deltav.games.{gid}.bots.BOTS does not exist yet)")
        + f"; available: {', '.join(available_specs(gid))}",
    )


#: Search-agent spec parameters naming game knowledge (as in the presets): ``rollout=rollout_policy``,
#: ``evaluation=evaluate``, ``prior=bot:scripted``.
HOOKS = ("rollout", "evaluation", "prior")


def _hook(spec: str, gid: str, key: str, name: str | None, resolve: Any) -> Any:
    if name is None or name.lower() in ("none", ""):
        return None
    found = resolve(gid, name)
    if found is None:
        raise AgentSpecError(spec, f"parameter {key!r}: game {gid!r} has no {name!r} (a function of its "
                                   "AI module bots/heuristics.py, MODULE.NAME of another of its bots/ modules, "
                                   "or bot:NAME for one of its bots)")
    return found


def _check_search(spec: str, game_cls: type[Game]) -> None:
    try:
        check_searchable(game_cls)
    except SearchUnavailable as exc:
        raise AgentSpecError(spec, str(exc)) from None


#: The registry's own parameter of every game bot and preset: the share of uniformly random moves.
EPSILON = Param(float, 0.0, "the share of uniformly random moves mixed into the bot's choices", minimum=0.0,
                maximum=1.0)
#: Bounds of a number parameter read off a constructor that declares no ``PARAMS`` (a third-party bot).
GENERIC_BOUND = 1_000_000


def bot_params(cls: type[Agent]) -> dict[str, Param]:
    """The parameter table of a game bot: its ``PARAMS`` when its class (or the class its constructor comes
    from) declares one, else one read off the constructor's keyword defaults (bool, int, float or str; numbers
    within +-:data:`GENERIC_BOUND`)."""
    for klass in cls.__mro__:
        if "PARAMS" in vars(klass):
            return dict(vars(klass)["PARAMS"])
        if "__init__" in vars(klass):
            break
    out: dict[str, Param] = {}
    for name, p in inspect.signature(cls.__init__).parameters.items():
        if name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        d = p.default
        kind = type(d) if type(d) in (bool, int, float, str) else str
        bound = {"minimum": -GENERIC_BOUND, "maximum": GENERIC_BOUND} if kind in (int, float) else {}
        out[name] = Param(kind, None if d is p.empty else d, "", allow_none=d is None, **bound)
    return out


def _scripted(cls: type[Agent], raw: dict[str, Any], spec: str) -> Agent:
    table = bot_params(cls)
    kwargs = {}
    for key, value in raw.items():
        param = table.get(key)
        if param is None:
            raise AgentSpecError(spec, f"{cls.__name__} does not accept the parameter {key!r} "
                                       f"(parameters: {', '.join(sorted(table)) or 'none'})")
        try:
            kwargs[key] = param.parse(key, value)
        except ParamError as exc:
            raise AgentSpecError(spec, str(exc)) from None
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise AgentSpecError(spec, f"{cls.__name__} does not accept these parameters: {exc}") from None
    except ValueError as exc:  # a parameter it takes, with a value it refuses (``move=sideways``)
        raise AgentSpecError(spec, f"{cls.__name__}: {exc}") from None


def _from_preset(gid: str, game_cls: type[Game] | None, level: str, raw: dict[str, Any], spec: str) -> Agent:
    entry = resolve_preset(gid, level, game_cls)
    agent_name = entry["agent"]
    params = {**entry.get("params", {}), **raw}
    epsilon = params.pop("epsilon", entry.get("epsilon"))
    if agent_name == "random":
        agent: Agent = RandomAgent()
    elif agent_name in SEARCH_AGENTS:
        if game_cls is not None:
            _check_search(spec, game_cls)
        agent = SEARCH_AGENTS[agent_name](
            policy=_rollout(gid, entry.get("rollout")),
            evaluate=heuristic(gid, entry.get("evaluation")),
            prior=_prior(gid, entry.get("prior")),
            spec=spec,
            **params,
        )
    else:
        agent = _scripted(game_bots(gid)[agent_name], params, spec)
    agent = _noisy(agent, epsilon, spec)
    if entry.get("phases") is not None:
        agent = _gated(gid, agent, entry, spec)
    agent.name = level
    return agent


def _gated(gid: str, agent: Agent, entry: dict[str, Any], spec: str) -> Agent:
    """A preset with ``phases``: ``agent`` decides there, the game's bot ``otherwise`` names elsewhere."""
    other = entry.get("otherwise") or {}
    cls = game_bots(gid).get(other.get("agent", ""))
    if cls is None:
        raise AgentSpecError(spec, f"preset 'otherwise' needs one of {gid}'s bots, not {other.get('agent')!r}")
    return PhaseGate(agent, _scripted(cls, dict(other.get("params", {})), spec), entry["phases"],
                     entry.get("phase_key", "phase"))


def _noisy(agent: Agent, epsilon: Any, spec: str) -> Agent:
    """``agent`` wrapped in an :class:`EpsilonAgent` when ``epsilon`` (a share of random moves) is non-zero."""
    if epsilon is None:
        return agent
    try:
        eps = EPSILON.parse("epsilon", epsilon)
    except ParamError as exc:
        raise AgentSpecError(spec, str(exc)) from None
    return EpsilonAgent(agent, eps) if eps else agent


def _prior(gid: str, name: str | None) -> Any:
    """A PUCT prior named by a preset: ``bot:NAME`` (the bot's choice weighted, :class:`BotPrior`) or the name of
    a function in the game's heuristics module; None when the game does not have it."""
    if name and name.startswith("bot:"):
        cls = game_bots(gid).get(name[4:])
        return BotPrior(cls) if cls is not None else None
    return heuristic(gid, name)


def _rollout(gid: str, name: str | None) -> Any:
    """A rollout policy named by a preset: ``bot:NAME`` (the game's bot as a :class:`BotPolicy`) or the name of
    a function in the game's heuristics module; None when the game does not have it."""
    if name and name.startswith("bot:"):
        cls = game_bots(gid).get(name[4:])
        return BotPolicy(cls) if cls is not None else None
    return heuristic(gid, name)


def resolve_preset(gid: str, level: str, game_cls: type[Game] | None = None) -> dict[str, Any]:
    """The preset entry in force for this game now: the scripted fallback is applied when the game has no such
    bot, and ``heuristics_found`` says which named heuristics the game defines."""
    entry = preset_for(gid, level)
    bots = game_bots(gid)
    if entry["agent"] not in ("random", *SEARCH_AGENTS) and entry["agent"] not in bots:
        fb = entry.get("fallback")
        if fb is None:
            raise AgentSpecError(level, f"preset needs {gid}'s bot {entry['agent']!r}, which does not exist")
        entry = {**entry, **fb, "fallback_used": True}
    entry["heuristics_found"] = {}
    if entry.get("rollout"):
        entry["heuristics_found"]["rollout"] = _rollout(gid, entry["rollout"]) is not None
    if entry.get("evaluation"):
        entry["heuristics_found"]["evaluation"] = heuristic(gid, entry["evaluation"]) is not None
    if entry.get("prior"):
        entry["heuristics_found"]["prior"] = _prior(gid, entry["prior"]) is not None
    return entry

"""The game protocol: one interface for every game, and the registry of games.

Vocabulary follows OpenSpiel where it fits. A :class:`Game` has an id, a title, player counts, typed
:class:`Option` s (the scenario and every named ruling) and makes states. A :class:`State` answers:

- ``current_players()``: who must decide now; several players at once is a simultaneous node (secret
  plotting). Out-of-turn decisions (reactions, bid-ups, damage allocation) are ordinary decision points.
  Empty when the game is over.
- ``legal_actions(player)``: the complete list of legal actions of that player now (empty if it is not
  deciding). Big joint decisions are decomposed by each game (one ship's order at a time), so this list stays
  small; the decomposition is documented in the game's docs.
- ``apply_action(player, action)``: validates first and raises :class:`IllegalAction` naming the rule it
  breaks, leaving the state exactly as it was; otherwise applies and returns the events it produced.
- ``is_terminal()``, ``result()`` (winners and reason), ``returns()`` (one number per player).
- ``view(player)``: everything that player may know, as JSON-ready data; ``view(None)`` is a spectator's. No
  view can be used to change the state: its parts are fresh, or read-only records shared between views
  (:mod:`deltav.core.frozen`).
- ``full_view()``: what an observer who knows everything sees (a finished match's replay: nothing is secret
  then), in the shape of ``view(None)`` with every secret filled in; the default is ``view(None)``.
- ``clone()``, ``to_json()`` and ``Game.state_from_json()``.
- ``secret_tokens(player)``: strings that must never appear in that player's view (checked by the
  conformance suite).

Hidden-information games also implement ``Game.determinize(view, player, rng)``: a full state consistent with
that view, built from the view alone (so a bot that searches sampled worlds cannot peek at the truth).

A finished match's summary for the result screen: ``Game.match_summary(state, events, names)`` (scores, stats
per seat, notes; the default: turns played and decisions per seat), :func:`check_summary` its shape. The
briefing shown before a seat's first decision: ``Game.briefing(options, seat, names)`` (the default from the
scenario's title and summary), :func:`check_briefing` its shape.

Text: ``Game.describer(options, names)`` builds, once per match, the one function that writes the text of every
action and event of that match (log, legal entries, replays, CLI), from the options (public facts of the
scenario) and the seats' display names (None: "Player 1", "Player 2", ...). A game writes its wording by
overriding ``describer`` (in its ``text.py``); ``Game.describe_value(v, names=None)`` is a convenience that calls
the describer of the default options.

This module owns the interfaces and the registry only; it must not import any game.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypedDict

from deltav.core import jsonin
from deltav.core.errors import IllegalAction, MalformedAction, OptionError
from deltav.core.jsonin import shown
from deltav.core.rng import Rng
from deltav.core.values import Action, Codec, Event

# --- options ----------------------------------------------------------------------------------------------

_KIND_NAMES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}


def coerce_scalar(kind: type, raw: Any) -> Any:
    """``raw`` (a JSON value, or text from a command line) as a value of ``kind`` (bool, int, float or str).
    Text is read leniently ("yes"/"off", " 3 "); anything else must already have the right type. Raises
    ValueError saying what ``raw`` is not."""
    v = raw
    if isinstance(raw, str) and kind is not str:
        text = raw.strip().lower()
        try:
            if kind is bool:
                if text in ("true", "yes", "on", "1"):
                    v = True
                elif text in ("false", "no", "off", "0"):
                    v = False
                else:
                    raise ValueError(text)
            elif kind is int:
                v = int(text)
            elif kind is float:
                v = float(text)
        except ValueError:
            raise ValueError(f"{shown(raw)} is not {_KIND_NAMES[kind]}") from None
    if kind is bool and not isinstance(v, bool):
        raise ValueError(f"{shown(raw)} is not a boolean")
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise ValueError(f"{shown(raw)} is not an integer")
    if kind is float:
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ValueError(f"{shown(raw)} is not a number")
        v = float(v)
    if kind is str and not isinstance(v, str):
        raise ValueError(f"{shown(raw)} is not a string")
    return v



# --- the JSON shapes of the games' catalogue (``Game.describe``) and briefings; web/tools/gen_types.py -----------

class OptionInfoJson(TypedDict):
    """One option of a game (``Option.to_json``)."""

    name: str
    type: Literal["str", "int", "bool", "float"]
    default: Any
    doc: str
    choices: list[Any] | None
    minimum: float | None
    maximum: float | None
    ruling: bool
    """A ruling: it settles a silence or a contradiction of the rules text."""
    multiple: bool
    """A str option naming several of ``choices``, comma-separated, each with an optional count ("2*fighter")."""
    label: str
    """What to call it on a page (by default the name, underscores as spaces)."""


class ScenarioInfoJson(TypedDict):
    id: str
    title: str
    players: list[int]
    """The player counts the scenario supports."""
    summary: str


class GameInfoJson(TypedDict):
    """A game as the catalogue describes it (``Game.describe``)."""

    id: str
    title: str
    players: tuple[int, int]
    """The fewest and the most players."""
    hidden_information: bool
    simultaneous_moves: bool
    rules_version: str
    scenarios: list[ScenarioInfoJson]
    options: list[OptionInfoJson]


class BriefingSideJson(TypedDict):
    seat: int
    name: str
    forces: list[str]
    goal: str


class BriefingJson(TypedDict):
    """What a seat reads before its first decision of a match (``Game.briefing``, :func:`check_briefing`)."""

    title: str
    objective: str
    sides: list[BriefingSideJson]
    wins: str
    notes: list[str]


@dataclass(frozen=True)
class Option:
    """A typed game option. ``ruling`` marks a named ruling on an ambiguity of the rules text (its default is
    our ruling; the docs of the game explain it and the alternative)."""

    name: str
    kind: type  # bool, int, float or str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    ruling: bool = False
    free_choice: bool = False  # str options whose choices are suggestions (e.g. a scenario name or file path)
    # the value a match stored before this option existed is read with (see Game.stored_options): set it when
    # the option was added with a default that plays differently from what the engine did before
    legacy: Any = None
    has_legacy: bool = False
    # str options naming several of ``choices``, separated by commas, each with an optional count ("2*fighter");
    # a client offers a count per choice (a Knight Hawks fleet)
    multiple: bool = False
    label: str = ""  # what a client calls it (default: the name, underscores as spaces)

    def parse(self, raw: Any) -> Any:
        """Validate ``raw`` (a JSON value, or a string from the command line) and return the typed value."""
        try:
            v = coerce_scalar(self.kind, raw)
        except ValueError as exc:
            raise OptionError(self.name, str(exc), self.describe_allowed()) from None
        if self.multiple and self.choices is not None:
            for part in (p.strip() for p in str(v).split(",")):
                count, star, item = part.partition("*")
                name = item.strip() if star else part
                if part and (name not in self.choices or (star and not count.strip().isdigit())):
                    raise OptionError(self.name, f"{part!r} is not one of the choices (or n*choice)",
                                      self.describe_allowed())
        elif self.choices is not None and not self.free_choice and v not in self.choices:
            raise OptionError(self.name, f"{raw!r} is not allowed", self.describe_allowed())
        if self.minimum is not None and v < self.minimum:
            raise OptionError(self.name, f"{v!r} is below the minimum", self.describe_allowed())
        if self.maximum is not None and v > self.maximum:
            raise OptionError(self.name, f"{v!r} is above the maximum", self.describe_allowed())
        return v

    def describe_allowed(self) -> str:
        if self.choices is not None:
            text = ", ".join(str(c) for c in self.choices)
            if self.multiple:
                return f"any of {text}, separated by commas, each with an optional count (2*{self.choices[0]})"
            return text + (", or a file path" if self.free_choice else "")
        if self.kind is bool:
            return "true, false"
        lo = "" if self.minimum is None else f">= {self.minimum}"
        hi = "" if self.maximum is None else f"<= {self.maximum}"
        bounds = " and ".join(b for b in (lo, hi) if b)
        return f"{self.kind.__name__}{' ' + bounds if bounds else ''}"

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "doc": self.doc,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "ruling": self.ruling,
            "multiple": self.multiple,
            "label": self.label or self.name.replace("_", " "),
        }


@dataclass(frozen=True)
class ScenarioInfo:
    id: str
    title: str
    players: tuple[int, ...]  # the player counts the scenario supports
    summary: str = ""


@dataclass(frozen=True)
class Result:
    """How a game ended: ``winners`` (empty for a draw), a human ``reason``, optional per-player ``scores``."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None

    def to_json(self) -> dict:
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": list(self.scores) if self.scores is not None else None,
        }

    @classmethod
    def from_json(cls, obj: Mapping) -> Result:
        scores = obj.get("scores")
        return cls(tuple(obj["winners"]), obj["reason"], tuple(scores) if scores is not None else None)


def standard_returns(num_players: int, result: Result | None) -> list[float]:
    """+1 for each winner, -1 for each loser, 0 for everyone in a draw or an unfinished game."""
    if result is None or not result.winners:
        return [0.0] * num_players
    return [1.0 if p in result.winners else -1.0 for p in range(num_players)]


# --- names and text ---------------------------------------------------------------------------------------

#: A match's describer: the text of one action or event (an instance, or its JSON object).
Describer = Callable[[Any], str]


def default_names(num_players: int) -> list[str]:
    """The seats' display names when nobody named them: ``["Player 1", "Player 2", ...]``."""
    return [f"Player {p + 1}" for p in range(num_players)]


def player_names(names: Sequence[str] | None, num_players: int) -> list[str]:
    """``names`` as a list of ``num_players`` display names (None: :func:`default_names`)."""
    if names is None:
        return default_names(num_players)
    out = list(names)
    if len(out) != num_players or not all(isinstance(n, str) for n in out):
        raise ValueError(f"expected {num_players} seat names (strings), got {out!r}")
    return out


def generic_text(game: type[Game], v: Any) -> str:
    """The plain text of an action or event any game falls back on: its tag and its fields as JSON, private
    events prefixed with their audience (``(to [0]) dealt card="c4"``)."""
    is_event = isinstance(v, Event) or (not isinstance(v, Action) and obj_tag_is_event(game, v))
    obj = v.to_json() if hasattr(v, "to_json") else dict(v)
    parts = []
    for k, x in obj.items():
        if k == "type" or (is_event and k == "to"):
            continue
        parts.append(f"{k}={json.dumps(x, separators=(',', ':'))}")
    audience = obj.get("to") if is_event else None
    prefix = f"(to {audience}) " if audience else ""
    return f"{prefix}{obj.get('type', '?')} " + " ".join(parts)


@functools.lru_cache(maxsize=256)
def _default_describer(game: type[Game], names: tuple[str, ...] | None) -> Describer:
    """``game.describer`` of the default options (what ``describe_value`` uses), built once per names."""
    return game.describer(game.resolve_options(None), list(names) if names is not None else None)


# --- match summary -----------------------------------------------------------------------------------------


class MatchEvents(tuple):
    """Every event of a match, in order (a tuple of ``Event`` instances, private ones included: nothing is secret
    once the match is over), with ``decisions``: how many actions each seat took."""

    decisions: tuple[int, ...]

    def __new__(cls, events: Iterable[Event], decisions: Iterable[int]) -> MatchEvents:
        obj = super().__new__(cls, events)
        obj.decisions = tuple(decisions)
        return obj


_Cell = str | int | float | bool | None


class ScoresJson(TypedDict):
    """The game's own scores table of a finished match."""

    title: str
    columns: list[str]
    rows: list[list[_Cell]]
    """One cell per column (text, a number, a boolean or null)."""


class StatJson(TypedDict):
    """One line of the match in numbers: its label and one value per seat."""

    label: str
    values: list[_Cell]


class SummaryJson(TypedDict):
    """What the result screen shows of a finished match (``Game.match_summary``, checked by :func:`check_summary`)."""

    scores: ScoresJson | None
    stats: list[StatJson]
    notes: list[str]


def check_summary(summary: Any, num_players: int) -> dict:
    """``summary`` if it has the shape of ``Game.match_summary``'s answer, else ValueError naming the part:
    ``{"scores": None or {"title": str, "columns": [str], "rows": [[cell, ...], ...]}, "stats": [{"label": str,
    "values": [one per seat]}], "notes": [str]}`` (cells and values: text, numbers, booleans or null)."""
    def scalar(v: Any) -> bool:
        return v is None or isinstance(v, str | int | float | bool)

    if not isinstance(summary, Mapping) or set(summary) != {"scores", "stats", "notes"}:
        raise ValueError("a summary is an object with exactly scores, stats and notes")
    scores = summary["scores"]
    if scores is not None:
        if not isinstance(scores, Mapping) or set(scores) != {"title", "columns", "rows"}:
            raise ValueError("summary.scores: an object with exactly title, columns and rows (or null)")
        if not isinstance(scores["title"], str):
            raise ValueError("summary.scores.title: text")
        cols = scores["columns"]
        if not isinstance(cols, list | tuple) or not all(isinstance(c, str) for c in cols):
            raise ValueError("summary.scores.columns: a list of text")
        rows = scores["rows"]
        if not isinstance(rows, list | tuple) or not all(
                isinstance(r, list | tuple) and len(r) == len(cols) and all(map(scalar, r)) for r in rows):
            raise ValueError("summary.scores.rows: lists of one cell (text, number, boolean, null) per column")
    stats = summary["stats"]
    if not isinstance(stats, list | tuple):
        raise ValueError("summary.stats: a list")
    for i, st in enumerate(stats):
        if (not isinstance(st, Mapping) or set(st) != {"label", "values"} or not isinstance(st["label"], str)
                or not isinstance(st["values"], list | tuple) or len(st["values"]) != num_players
                or not all(map(scalar, st["values"]))):
            raise ValueError(f"summary.stats[{i}]: {{\"label\": text, \"values\": one value per seat ({num_players})}}")
    notes = summary["notes"]
    if not isinstance(notes, list | tuple) or not all(isinstance(n, str) for n in notes):
        raise ValueError("summary.notes: a list of text")
    return dict(summary)


def check_briefing(briefing: Any, num_players: int) -> dict:
    """``briefing`` if it has the shape of ``Game.briefing``'s answer, else ValueError naming the part:
    ``{"title": str, "objective": str, "sides": [{"seat": int, "name": str, "forces": [str], "goal": str}, one
    per seat in order], "wins": str, "notes": [str]}``."""
    if not isinstance(briefing, Mapping) or set(briefing) != {"title", "objective", "sides", "wins", "notes"}:
        raise ValueError("a briefing is an object with exactly title, objective, sides, wins and notes")
    for key in ("title", "objective", "wins"):
        if not isinstance(briefing[key], str):
            raise ValueError(f"briefing.{key}: text")
    sides = briefing["sides"]
    if not isinstance(sides, list | tuple) or len(sides) != num_players:
        raise ValueError(f"briefing.sides: a list of one side per seat ({num_players})")
    for i, side in enumerate(sides):
        if (not isinstance(side, Mapping) or set(side) != {"seat", "name", "forces", "goal"} or side["seat"] != i
                or not isinstance(side["name"], str) or not isinstance(side["goal"], str)
                or not isinstance(side["forces"], list | tuple) or not all(isinstance(f, str) for f in side["forces"])):
            raise ValueError(f"briefing.sides[{i}]: {{\"seat\": {i}, \"name\": text, \"forces\": [text], \"goal\": text}}")
    notes = briefing["notes"]
    if not isinstance(notes, list | tuple) or not all(isinstance(n, str) for n in notes):
        raise ValueError("briefing.notes: a list of text")
    return dict(briefing)


# --- game and state ---------------------------------------------------------------------------------------


class Game:
    """A registered game. Subclasses set the class attributes and implement the factory methods."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    has_hidden_information: ClassVar[bool] = False
    has_simultaneous_moves: ClassVar[bool] = False
    rules_version: ClassVar[str] = "1"
    #: Typed options; every game has at least "scenario". Games with a variable player count have "players".
    options: ClassVar[tuple[Option, ...]] = ()
    #: Codecs for the JSON forms of this game's actions and events.
    actions: ClassVar[Codec]
    events: ClassVar[Codec]

    # --- options -------------------------------------------------------------------------------------
    @classmethod
    def option(cls, name: str) -> Option:
        for o in cls.options:
            if o.name == name:
                return o
        raise OptionError(name, "unknown option", ", ".join(o.name for o in cls.options))

    @classmethod
    def resolve_options(cls, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Validate user options and fill in defaults; raises OptionError naming the bad option."""
        out = {o.name: o.default for o in cls.options}
        for name, raw in (options or {}).items():
            out[name] = cls.option(name).parse(raw)
        cls.check_options(out)
        return out

    @classmethod
    def stored_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options of a stored match (a record, a saved room) as this engine must read them: an option the
        match predates takes its ``legacy`` value where it has one (the behaviour the engine had when the match
        was played), so old records and rooms replay as they were played; otherwise :meth:`resolve_options`
        fills the default as usual."""
        out = dict(options or {})
        for o in cls.options:
            if o.has_legacy and o.name not in out:
                out[o.name] = o.legacy
        return out

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> None:
        """Cross-option checks (player count against the scenario...). Raise OptionError."""

    @classmethod
    def scenarios(cls) -> list[ScenarioInfo]:
        return []

    @classmethod
    def num_players(cls, options: Mapping[str, Any]) -> int:
        """How many players a game with these (resolved) options has."""
        return int(options.get("players", cls.min_players))

    @classmethod
    def max_decisions(cls, options: Mapping[str, Any]) -> int:
        """An upper bound on the number of decisions (applied actions) of any game with these options."""
        return 100_000

    # --- factories -----------------------------------------------------------------------------------
    @classmethod
    def new_initial_state(cls, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        raise NotImplementedError

    @classmethod
    def state_from_json(cls, obj: Mapping) -> State:
        raise NotImplementedError

    @classmethod
    def action_from_json(cls, obj: Any) -> Action:
        """Decode an action; raises MalformedAction naming the field and the reason."""
        return cls.actions.decode(obj)

    @classmethod
    def determinize(cls, view: Mapping, player: int, rng: Rng) -> State:
        """A full state consistent with ``view`` (player ``player``'s view), sampled with ``rng`` and built
        from the view alone. Perfect-information games rebuild the state from the view; hidden-information
        games sample what the view does not show."""
        raise NotImplementedError(f"{cls.id} has no determinizer")

    @classmethod
    def describer(cls, options: Mapping[str, Any] | None, names: Sequence[str] | None = None) -> Describer:
        """The one function that writes the text of every action and event of a match (the log, the legal
        entries, replays, the CLI), built once per match from its resolved ``options`` (public facts of the
        scenario, such as ship classes) and ``names``, the seats' display names (None: "Player 1", "Player 2",
        ...; :func:`player_names`). It takes an action or event, or its JSON object, and never reads the live
        state: a text must not tell a viewer more than the event's audience may know. Games override it (in
        their ``text.py``) to write their wording; the default is :func:`generic_text` (or, for a game that still
        overrides ``describe_value(v)`` alone, that method).

        A describer may also learn from the match's public events: if it has ``learn(event)``, the session calls
        it with every event every viewer sees, as it is applied, in order (tactical: the fleets spawned, so a
        fleet-built ship is "Alice's corvette B" in every later text); its ``signature()`` is then the hashable
        summary of what it learned that action texts depend on (the server shares action texts between matches
        with the same options, names and signature)."""
        own = cls.describe_value
        if getattr(own, "__func__", None) is Game.describe_value.__func__:
            return functools.partial(generic_text, cls)
        return own

    @classmethod
    def describe_value(cls, v: Action | Event | Mapping, names: Sequence[str] | None = None) -> str:
        """One line of text for an action or event: a convenience that calls :meth:`describer` of the default
        options with ``names`` (a match's text comes from its own describer: ``Session.describe``)."""
        if getattr(cls.describer, "__func__", None) is Game.describer.__func__:
            return generic_text(cls, v)
        return _default_describer(cls, tuple(names) if names is not None else None)(v)

    @classmethod
    def match_summary(cls, state: State, events: Sequence[Event], names: Sequence[str]) -> dict:
        """What the result screen shows of a finished match (by its rules or an ending), computed once from the
        final ``state``, ``events`` (every event of the match in order, private ones included: nothing is secret
        then; a :class:`MatchEvents` whose ``decisions`` counts each seat's actions when a session asks) and
        ``names`` (the seats' display names): ``{"scores": None or {"title", "columns", "rows"}, "stats":
        [{"label", "values": one per seat}], "notes": [text]}`` (:func:`check_summary`). The default: the turns
        played (``State.turn_count()``, where the game counts turns) and the decisions each seat made. Games
        override it (in their ``summary.py``)."""
        stats: list[dict] = []
        turns = state.turn_count()
        if turns is not None:
            stats.append({"label": "Turns played", "values": [turns] * len(names)})
        decisions = getattr(events, "decisions", None)
        if decisions is not None:
            stats.append({"label": "Decisions", "values": list(decisions)})
        return {"scores": None, "stats": stats, "notes": []}

    @classmethod
    def scorecard(cls, record: Any) -> dict | None:
        """What a bot measurement (``deltav simulate``) counts of one played match ``record`` (a
        ``MatchRecord``): ``{"game": {name: number or None or a str kind}, "seats": {name: one number per seat}}``,
        summed per entrant and per series by ``deltav simulate --json``; None (the default) when the game defines
        none. Games override it (tactical: ``scorecard.py``)."""
        return None

    @classmethod
    def briefing(cls, options: Mapping[str, Any], seat: int | None, names: Sequence[str] | None = None) -> dict:
        """What a seat (None: a spectator) reads before its first decision of a match, from the resolved
        ``options`` (public facts of the scenario only) and ``names`` (the seats' display names; None: "Player 1",
        ...): ``{"title", "objective", "sides": [{"seat", "name", "forces": [text], "goal"}, one per seat],
        "wins", "notes": [text]}`` (:func:`check_briefing`; "" or [] where there is nothing to say). The default
        takes the scenario's title and summary (its ``ScenarioInfo``) and the game's title. Games override it with
        their content (forces, goals, what wins), in the seat's words."""
        n = cls.num_players(options)
        who = player_names(names, n)
        info = next((s for s in cls.scenarios() if s.id == options.get("scenario")), None)
        title = f"{cls.title}: {info.title}" if info is not None and info.title else cls.title
        return {"title": title, "objective": info.summary if info is not None else "",
                "sides": [{"seat": p, "name": who[p], "forces": [], "goal": ""} for p in range(n)],
                "wins": "", "notes": []}

    @classmethod
    def board(cls, options: Mapping[str, Any] | None = None) -> dict | None:
        """The static geometry of the board for these options (map hexes, bodies, grid size) as plain JSON, for
        clients to draw once; None for a game without a fixed board. Games override."""
        return None

    @classmethod
    def annotate_legal(cls, state: State, player: int, actions: Sequence[Action],
                       view: Mapping | None = None) -> list[dict | None] | None:
        """Per-action annotations a client may show next to each legal action of ``player`` (the tactical course
        preview of each order, say): one plain-JSON object or None per action, in order, computed from what
        ``player`` may know only. None (the default) for no annotations. ``view``, when the caller has it, is
        ``state.view(player)`` already built (a session builds it once per step for the snapshot), so a game
        that annotates from the view reads it instead of building it again; it is read, never changed. Games
        override."""
        return None

    @classmethod
    def advise(cls, view: Mapping, seat: int, request: Mapping[str, Any]) -> dict:
        """Advice a client asks for on behalf of ``seat`` (the tactical astrogation assistant's planned course),
        computed from ``view`` (that seat's own view, never the true state) and the client's ``request`` (plain
        JSON, shaped by each game). Raises IllegalAction("protocol.advise") for a game without advice, and the
        game's MalformedAction / IllegalAction for a bad request. Games override."""
        raise IllegalAction("protocol.advise", f"{cls.id} gives no advice")

    @classmethod
    def render_view(cls, view: Mapping) -> str | None:
        """A text picture of a view for terminal play, or None to show the JSON. Games may override."""
        return None

    @classmethod
    def describe(cls) -> dict:
        return {
            "id": cls.id,
            "title": cls.title,
            "players": [cls.min_players, cls.max_players],
            "hidden_information": cls.has_hidden_information,
            "simultaneous_moves": cls.has_simultaneous_moves,
            "rules_version": cls.rules_version,
            "scenarios": [
                {"id": s.id, "title": s.title, "players": list(s.players), "summary": s.summary} for s in cls.scenarios()
            ],
            "options": [o.to_json() for o in cls.options],
        }


class State:
    """One position of a game. See the module docstring for the contract."""

    game: ClassVar[type[Game]]
    num_players: int
    rng: Rng

    def current_players(self) -> Sequence[int]:
        raise NotImplementedError

    def legal_actions(self, player: int) -> list[Action]:
        raise NotImplementedError

    def apply_action(self, player: int, action: Action) -> list[Event]:
        raise NotImplementedError

    def same_choice(self, player: int, action: Action) -> bool:
        """Whether ``action``, though not in ``legal_actions(player)``, is accepted as another name of a listed
        choice: the form older records use, or the twin of a choice the list offers once (two alike tiles in one
        hand). ``apply_action`` accepts exactly the listed actions and these; the default: none."""
        return False

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def result(self) -> Result | None:
        raise NotImplementedError

    def returns(self) -> list[float]:
        return standard_returns(self.num_players, self.result())

    def view(self, player: int | None) -> dict:
        """What ``player`` (None: a spectator) may know, as JSON-ready data: a fresh dict whose parts are fresh
        or read-only (``Frozen`` records, tuples) and may be shared with other views, never writable state."""
        raise NotImplementedError

    def clone(self) -> State:
        raise NotImplementedError

    def to_json(self) -> dict:
        raise NotImplementedError

    def secret_tokens(self, player: int | None) -> set[str]:
        """Strings (keys or values) that must not appear anywhere in ``view(player)``."""
        return set()

    def full_view(self) -> dict:
        """What an observer who knows everything sees: every key of ``view(None)`` with the same kind of value,
        every secret filled in (hidden ships and identities, face-down tiles, designs, plots; records may gain
        the fields that hold them), so it holds every token of ``secret_tokens`` of every viewer. Never for a
        live match's sockets: only once the match is over (``Session.snapshot_full``, the replays). The default,
        ``view(None)``, is right for a game without secrets; games with secrets override it."""
        return self.view(None)

    def turn_count(self) -> int | None:
        """Game turns played so far, where the game has such a notion (used for average match lengths)."""
        return None

    # --- conveniences shared by every game ----------------------------------------------------------
    def apply_json(self, player: int, obj: Any) -> list[Event]:
        """Decode an untrusted JSON action (an object, or its text) with :func:`read_action`, the one decoder
        of untrusted actions (``Session.submit``, the server's entry point, uses it too), and apply it."""
        return self.apply_action(player, read_action(self.game, obj))

    def check_turn(self, player: int) -> None:
        """Raise IllegalAction unless ``player`` is one of the current deciders."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise IllegalAction("protocol.player", f"no such player {player!r} (players are 0..{self.num_players - 1})")
        if self.is_terminal():
            raise IllegalAction("protocol.game_over", "the game is over")
        if player not in self.current_players():
            raise IllegalAction(
                "protocol.turn", f"player {player} may not act now (waiting for {list(self.current_players())})"
            )

    def sample_world(self, player: int, rng: Rng) -> State:
        """``game.determinize(self.view(player), player, rng)``: what a bot of ``player`` may search."""
        return self.game.determinize(self.view(player), player, rng)

    def __str__(self) -> str:
        return json.dumps(self.view(None), sort_keys=True)


def obj_tag_is_event(game: type[Game], obj: Any) -> bool:
    """Whether a JSON object's tag names one of the game's events (and not one of its actions)."""
    if not isinstance(obj, Mapping):
        return False
    tag = obj.get("type")
    events = getattr(game, "events", None)
    actions = getattr(game, "actions", None)
    return bool(events and tag in events.classes and not (actions and tag in actions.classes))


# --- registry ---------------------------------------------------------------------------------------------

_REGISTRY: dict[str, type[Game]] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator (or call): make a game available under its id."""
    if not cls.id:
        raise TypeError("a game needs an id")
    _REGISTRY[cls.id] = cls
    return cls


def registered_games() -> dict[str, type[Game]]:
    """The registered games by id (after ``deltav.games.load_all()`` has imported the game packages)."""
    return dict(_REGISTRY)


def get_game(game_id: str) -> type[Game]:
    try:
        return _REGISTRY[game_id]
    except KeyError:
        raise OptionError("game", f"unknown game {game_id!r}", ", ".join(sorted(_REGISTRY)) or "none") from None


@dataclass
class Decision:
    """What a bot gets when it must decide: its player's view and legal actions, its own seeded RNG, and a
    determinizer that samples full states consistent with that view (never the true state)."""

    game: type[Game]
    player: int
    view: dict
    legal_actions: list[Action]
    rng: Rng
    options: Mapping[str, Any] = field(default_factory=dict)

    def sample_world(self, rng: Rng | None = None) -> State:
        return self.game.determinize(self.view, self.player, rng or self.rng)


def json_tokens(obj: Any) -> set[str]:
    """Every string key and string value in a JSON tree (for secret checks)."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            out.add(o)
        elif isinstance(o, dict):
            for k, v in o.items():
                out.add(str(k))
                stack.append(v)
        elif isinstance(o, list | tuple):
            stack.extend(o)
    return out


def iter_scenario_ids(game: type[Game]) -> Iterable[str]:
    return (s.id for s in game.scenarios())


def read_action(game: type[Game], obj: Any) -> Action:
    """An untrusted action: JSON text or bytes read by the one bounded reader (:mod:`deltav.core.jsonin`), an
    object checked by the same bounds, then the game's codec. Raises MalformedAction naming the field and why.
    ``Session.submit`` (what the server calls with a client's action) and ``State.apply_json`` decode with it."""
    try:
        if isinstance(obj, str | bytes | bytearray):
            obj = jsonin.read(obj, "action")
        else:
            jsonin.check(obj, "action")
    except jsonin.JSONInputError as exc:
        raise MalformedAction(exc.field, exc.reason) from None
    return game.action_from_json(obj)

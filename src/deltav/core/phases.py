"""The one phase mechanism of every game: a declared table of phases, from which a state's ``current_players``,
``legal_actions``, ``apply_action`` and ``check_turn`` follow.

A game declares, once, a :class:`PhaseTable` over the state attribute that names its phase (``state.phase``,
``state.stage``...), with one :class:`Phase` per value:

- ``players(state)``: who decides in this phase (a list or tuple of seats), and optionally ``decides(state, p)``
  (the same question for one seat, where a game answers it faster); a table built with ``waiting="flags"`` needs
  neither: every phase is a simultaneous node of the seats whose ``state.flags[p]`` is set;
- ``legal(state, p)`` and ``apply(state, p, a)``: the phase's rules (its phase module's functions);
- ``kinds``: the action classes this phase accepts, and ``wrong_kind(state, p, a)``: the ``IllegalAction`` an
  action of another class gets (the phase's own rule id and sentence);
- ``then``: the phases one decision of this phase may lead to (the state's phase after ``apply_action``,
  the phase itself included when it may stay). :func:`check_transition` checks a step against it (the
  conformance tests play every game through it); nothing checks it while a game is played, which costs nothing.

The table then does, once, in this order, what every game used to write by hand (and some twice): the check
that the action is a well-typed value of the game (``Codec.check``: ``MalformedAction``), the turn check
(``protocol.player``, ``protocol.game_over``, ``protocol.turn``), the phase's kind check, then either the
phase's ``apply`` (which validates the rest and raises before it changes anything) or, for a table built with
``validate=``, the legal-list check first (the action, or ``state.same_choice``; otherwise ``validate(state, p,
a)`` names the rule) and then ``apply``. Options a game may use:

- ``cache``: the name of a state slot holding ``(player, legal list)`` once computed (None after each action):
  ``legal_actions`` answers from it and ``apply_action`` accepts an action that *is* one of its entries (the
  engine's own action, from the list it just gave) without any further check;
- ``after(state, events)``: what runs after every action (the steps nobody decides, e.g. knighthawks'
  ``turns.advance``).

``State`` subclasses take the table's functions as their methods (``apply_action = PHASES.apply_action``...):
the functions are built here once, so the dispatch costs one call, as the hand-written ones did.

This module owns the dispatch and the checks done on the way in; it knows no game and holds no rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from deltav.core.errors import IllegalAction
from deltav.core.fields import compile_source


@dataclass(frozen=True)
class Phase:
    """One phase of a game: its key (the value of the state's phase attribute), who decides, its rules and
    where one decision may lead (see the module docstring)."""

    key: Any
    players: Callable[[Any], Sequence[int]] | None
    legal: Callable[[Any, int], list]
    apply: Callable[[Any, int, Any], list]
    kinds: tuple[type, ...] = ()
    wrong_kind: Callable[[Any, int, Any], IllegalAction] | None = None
    then: tuple[Any, ...] = ()
    #: whether seat ``p`` decides now, where that is cheaper than ``p in players(state)`` (any ``p``: an int seat,
    #: out of range or not, or anything else)
    decides: Callable[[Any, Any], bool] | None = None
    name: str = ""  # what the docs call it (default: the key)

    @property
    def title(self) -> str:
        return self.name or str(self.key)


def turn_error(state: Any, player: Any, deciders: Sequence[int] | None) -> IllegalAction:
    """The protocol's error for ``player`` acting out of turn (``deciders``: who may act; None: the game is over)."""
    n = state.num_players
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        return IllegalAction("protocol.player", f"no such player {player!r} (players are 0..{n - 1})")
    if deciders is None:
        return IllegalAction("protocol.game_over", "the game is over")
    return IllegalAction("protocol.turn", f"player {player} may not act now (waiting for {list(deciders)})")


_SOURCE = """
def current_players(state):
    if {finished}:
        return nobody[:]  # a fresh list where the game answers lists
    return {deciders}


def check_turn(state, player):
    if {finished}:
        raise turn_error(state, player, None)
    players, decides, legal, apply, kinds, wrong = rows[state.{attr}]
    if type(player) is int and {decides}:
        return
    raise turn_error(state, player, {deciders})


def legal_actions(state, player):{legal_cached}
    if {finished}:
        return []
    players, decides, legal, apply, kinds, wrong = rows[state.{attr}]
    if not ({legal_decides}):
        return []{legal_return}


def apply_action(state, player, action):{apply_cached}
    state.game.actions.check(action)  # a non-action, another game's action or a wrong-typed field: MalformedAction
    if {finished}:
        raise turn_error(state, player, None)
    players, decides, legal, apply, kinds, wrong = rows[state.{attr}]
    if type(player) is not int or not {decides}:
        raise turn_error(state, player, {deciders})
    if kinds is not None and type(action) not in kinds:
        raise wrong(state, player, action){validate}{clear}
    events = apply(state, player, action){after}
    return events
"""

_LEGAL_CACHED = """
    cached = state.{cache}
    if cached is not None and cached[0] == player:
        return list(cached[1])"""

_LEGAL_RETURN_CACHED = """
    acts = legal(state, player)
    state.{cache} = (player, acts)
    return list(acts)"""

_APPLY_CACHED = """
    cached = state.{cache}
    if cached is not None and cached[0] == player:
        for a in cached[1]:
            if a is action:  # the engine's own action from the list it just gave: the hot path
                state.{cache} = None
                events = rows[state.{attr}][3](state, player, action){after}
                return events"""

_VALIDATE = """
    if action not in legal_actions(state, player) and not state.same_choice(player, action):
        raise validate(state, player, action)"""


class PhaseTable:
    """The declared phases of one game over the state attribute ``attr``: ``over`` is the phase value of a
    finished game, or ``terminal`` names the attribute that is not None once the game is finished (its result);
    ``waiting`` names a list of one flag per seat where every phase is a simultaneous node of the seats whose flag
    is set (the phases then name no ``players``);
    ``nobody`` is what ``current_players`` answers then (``()``, or ``[]`` for a game whose deciders are lists).
    See the module docstring for ``cache``, ``validate`` and ``after``."""

    def __init__(self, attr: str, phases: Iterable[Phase], *, over: Any = None, terminal: str | None = None,
                 cache: str | None = None, validate: Callable[[Any, int, Any], IllegalAction] | None = None,
                 after: Callable[[Any, list], None] | None = None, nobody: Sequence[int] = (),
                 waiting: str | None = None) -> None:
        self.attr = attr
        self.phases: dict[Any, Phase] = {}
        for ph in phases:
            if ph.key in self.phases:
                raise ValueError(f"phase {ph.key!r} declared twice")
            if ph.players is None and waiting is None:
                raise ValueError(f"phase {ph.key!r} names nobody who decides (players, or the table's waiting)")
            if ph.kinds and ph.wrong_kind is None:
                raise ValueError(f"phase {ph.key!r} names its kinds without a wrong_kind error")
            self.phases[ph.key] = ph
        self.over = over
        for ph in self.phases.values():
            unknown = [t for t in ph.then if t not in self.phases and t != over]
            if unknown:
                raise ValueError(f"phase {ph.key!r} leads to undeclared phases {unknown!r}")
        if terminal is None and over is None:
            raise ValueError("a phase table needs over= or terminal=")
        for name in (attr, terminal, cache, waiting):
            if name is not None and not name.isidentifier():
                raise ValueError(f"{name!r} is not an attribute name")
        self.terminal = terminal
        self.cache = cache
        self.validate = validate
        self.after = after
        self.nobody = nobody
        self.waiting = waiting
        self._build()

    def keys(self) -> list[Any]:
        return list(self.phases)

    def phase_of(self, state: Any) -> Phase | None:
        """The phase ``state`` is in (None once the game is over)."""
        if self.is_over(state):
            return None
        return self.phases[getattr(state, self.attr)]

    def is_over(self, state: Any) -> bool:
        if self.terminal is not None:
            return getattr(state, self.terminal) is not None
        return getattr(state, self.attr) == self.over

    def _build(self) -> None:
        """The state's four methods, compiled once from ``_SOURCE`` with the attribute names written in (the
        dispatch costs what the hand-written methods did)."""
        finished = f"state.{self.terminal} is not None" if self.terminal else f"state.{self.attr} == over"
        if self.waiting:
            flags = f"state.{self.waiting}"
            decides = f"(0 <= player < state.num_players and {flags}[player])"
            legal_decides = f"type(player) is int and {decides}"
            deciders = f"[p for p in range(state.num_players) if {flags}[p]]"
        else:
            decides = "(decides(state, player) if decides is not None else player in players(state))"
            legal_decides = decides
            deciders = f"rows[state.{self.attr}][0](state)"
        after = "\n    after(state, events)" if self.after is not None else ""
        cache = self.cache
        source = _SOURCE.format(
            attr=self.attr, finished=finished, after=after, decides=decides, legal_decides=legal_decides,
            deciders=deciders,
            legal_cached=_LEGAL_CACHED.format(cache=cache) if cache else "",
            legal_return=_LEGAL_RETURN_CACHED.format(cache=cache) if cache else "\n    return legal(state, player)",
            apply_cached=_APPLY_CACHED.format(cache=cache, attr=self.attr, after=after.replace("\n", "\n            "))
            if cache else "",
            validate=_VALIDATE if self.validate is not None else "",
            clear=f"\n    state.{cache} = None" if cache else "",
        )
        rows = {ph.key: (ph.players, ph.decides, ph.legal, ph.apply, frozenset(ph.kinds) if ph.kinds else None,
                         ph.wrong_kind) for ph in self.phases.values()}

        namespace: dict[str, Any] = {"rows": rows, "over": self.over, "nobody": self.nobody, "turn_error": turn_error,
                                     "validate": self.validate, "after": self.after}
        exec(compile_source(source, f"<phase table over {self.attr}>"), namespace)  # noqa: S102 - our own source
        self.source = source
        self.current_players = namespace["current_players"]
        self.check_turn = namespace["check_turn"]
        self.legal_actions = namespace["legal_actions"]
        self.apply_action = namespace["apply_action"]


def check_transition(table: PhaseTable, before: Any, state: Any) -> None:
    """Raise AssertionError unless the phase ``state`` is in after one decision made in phase ``before`` is one of
    that phase's declared ``then`` (or the game is over)."""
    if table.is_over(state):
        return
    now = getattr(state, table.attr)
    ph = table.phases[before]
    if now not in ph.then:
        raise AssertionError(f"phase {ph.title!r} led to {now!r}, not declared in its then {ph.then!r}")

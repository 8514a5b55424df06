"""The one phase mechanism of every game: a declared table of phases, from which a state's ``current_players``,
``legal_actions``, ``apply_action`` and ``check_turn`` follow.

A game declares, once, a :class:`PhaseTable` over the state attribute that names its phase (``state.phase``,
``state.stage``...), with one :class:`Phase` per value:

- ``players(state)``: who decides in this phase (a list or tuple of seats), and optionally ``decides(state, p)``
  (the same question for one seat, where a game answers it faster);
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
- ``after(state, p, events)``: what runs after every action (the steps nobody decides, e.g. knighthawks'
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


@dataclass(frozen=True)
class Phase:
    """One phase of a game: its key (the value of the state's phase attribute), who decides, its rules and
    where one decision may lead (see the module docstring)."""

    key: Any
    players: Callable[[Any], Sequence[int]]
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


class PhaseTable:
    """The declared phases of one game over the state attribute ``attr``; ``over`` is the phase value of a
    finished game, or ``terminal(state)`` says when it is finished (a result set). See the module docstring."""

    def __init__(self, attr: str, phases: Iterable[Phase], *, over: Any = None,
                 terminal: Callable[[Any], bool] | None = None, cache: str | None = None,
                 validate: Callable[[Any, int, Any], IllegalAction] | None = None,
                 after: Callable[[Any, int, list], None] | None = None, nobody: Sequence[int] = ()) -> None:
        self.attr = attr
        self.phases: dict[Any, Phase] = {}
        for ph in phases:
            if ph.key in self.phases:
                raise ValueError(f"phase {ph.key!r} declared twice")
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
        self.terminal = terminal
        self.cache = cache
        self.validate = validate
        self.after = after
        self.nobody = nobody
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
            return self.terminal(state)
        return getattr(state, self.attr) == self.over

    # --- the state's methods, built once ------------------------------------------------------------------
    def _build(self) -> None:
        from operator import attrgetter

        phases = self.phases
        key_of = attrgetter(self.attr)
        over = self.over
        terminal = self.terminal
        cache = self.cache
        validate = self.validate
        after = self.after
        get_cache = attrgetter(cache) if cache else None
        nobody = self.nobody

        if terminal is None:
            def finished(state: Any) -> bool:
                return key_of(state) == over
        else:
            finished = terminal

        def current_players(state: Any) -> Sequence[int]:
            if finished(state):
                return nobody[:]  # a fresh list where the game answers lists
            return phases[key_of(state)].players(state)

        def check_turn(state: Any, player: Any) -> None:
            if finished(state):
                deciders = None
            else:
                ph = phases[key_of(state)]
                if type(player) is int and (ph.decides(state, player) if ph.decides is not None
                                            else player in ph.players(state)):
                    return
                deciders = ph.players(state)
            raise turn_error(state, player, deciders)

        if cache is None:
            def legal_actions(state: Any, player: int) -> list:
                if finished(state):
                    return []
                ph = phases[key_of(state)]
                if not (ph.decides(state, player) if ph.decides is not None else player in ph.players(state)):
                    return []
                return ph.legal(state, player)
        else:
            def legal_actions(state: Any, player: int) -> list:
                cached = get_cache(state)
                if cached is not None and cached[0] == player:
                    return list(cached[1])
                if finished(state):
                    return []
                ph = phases[key_of(state)]
                if not (ph.decides(state, player) if ph.decides is not None else player in ph.players(state)):
                    return []
                acts = ph.legal(state, player)
                setattr(state, cache, (player, acts))
                return list(acts)

        def apply_action(state: Any, player: int, action: Any) -> list:
            if cache is not None:
                cached = get_cache(state)
                if cached is not None and cached[0] == player:
                    for a in cached[1]:
                        if a is action:  # the engine's own action from the list it just gave: the hot path
                            setattr(state, cache, None)
                            ph = phases[key_of(state)]
                            events = ph.apply(state, player, action)
                            if after is not None:
                                after(state, player, events)
                            return events
            state.game.actions.check(action)  # a non-action, another game's action or a wrong-typed field
            if finished(state):
                raise turn_error(state, player, None)
            ph = phases[key_of(state)]
            if type(player) is not int or not (ph.decides(state, player) if ph.decides is not None
                                               else player in ph.players(state)):
                raise turn_error(state, player, ph.players(state))
            if ph.kinds and type(action) not in ph.kinds:
                raise ph.wrong_kind(state, player, action)
            if validate is not None:
                legal = legal_actions(state, player)
                if action not in legal and not state.same_choice(player, action):
                    raise validate(state, player, action)
            if cache is not None:
                setattr(state, cache, None)
            events = ph.apply(state, player, action)
            if after is not None:
                after(state, player, events)
            return events

        self.current_players = current_players
        self.check_turn = check_turn
        self.legal_actions = legal_actions
        self.apply_action = apply_action


def check_transition(table: PhaseTable, before: Any, state: Any) -> None:
    """Raise AssertionError unless the phase ``state`` is in after one decision made in phase ``before`` is one of
    that phase's declared ``then`` (or the game is over)."""
    if table.is_over(state):
        return
    now = getattr(state, table.attr)
    ph = table.phases[before]
    if now not in ph.then:
        raise AssertionError(f"phase {ph.title!r} led to {now!r}, not declared in its then {ph.then!r}")

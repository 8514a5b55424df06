"""Fixed integer encodings of the games' decomposed actions (the machinery each ``<game>/encoding.py`` uses).

An :class:`ActionSpace` is a list of :class:`Kind` s, one per action class. A kind lists, for each field of the
action, a :class:`Domain`: the finite, ordered values that field can take in one game configuration (a square
0..48, a direction 0..5, the slot of a ship in the scenario's roster), or a :class:`Relative` domain whose
values are read against the position (a velocity change relative to the ship's current velocity). The integer
of an action is the offset of its kind plus the mixed-radix number of its field indices (first field most
significant), so every configuration has ``n`` actions numbered ``[0, n)`` and the numbering never depends on
which actions happen to be legal.

Pure Python (no numpy): the adapters in ``deltav.adapters`` turn masks into arrays. This module owns the
encoding machinery only; it knows no game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from deltav.core.errors import MalformedAction
from deltav.core.protocol import get_game
from deltav.core.values import Action


@dataclass
class Context:
    """What a relative domain may read: the position, the deciding player and the fields decoded so far."""

    state: Any
    player: int | None
    fields: dict[str, Any] = field(default_factory=dict)


class Domain:
    """The values of one field, in a fixed order."""

    size: int

    def index(self, ctx: Context, value: Any) -> int | None:
        raise NotImplementedError

    def value(self, ctx: Context, i: int) -> Any:
        raise NotImplementedError


class Values(Domain):
    """A fixed list of values (hashable, distinct)."""

    def __init__(self, values: Sequence[Any]):
        self.values = tuple(values)
        self._index = {self._key(v): i for i, v in enumerate(self.values)}
        if len(self._index) != len(self.values):
            raise ValueError("domain values must be distinct")
        self.size = len(self.values)

    @staticmethod
    def _key(v: Any) -> Any:
        return (type(v), v)  # keep True apart from 1 and None apart from 0

    def index(self, ctx: Context, value: Any) -> int | None:
        return self._index.get(self._key(value))

    def value(self, ctx: Context, i: int) -> Any:
        return self.values[i]


def ints(lo: int, hi: int) -> Values:
    """The integers lo..hi inclusive."""
    return Values(range(lo, hi + 1))


class Relative(Domain):
    """``size`` values read against the position: ``to_index(ctx, value)`` (None when out of the domain) and
    ``to_value(ctx, i)``."""

    def __init__(self, size: int, to_index: Callable[[Context, Any], int | None], to_value: Callable[[Context, int], Any]):
        self.size = size
        self._to_index = to_index
        self._to_value = to_value

    def index(self, ctx: Context, value: Any) -> int | None:
        i = self._to_index(ctx, value)
        return i if i is not None and 0 <= i < self.size else None

    def value(self, ctx: Context, i: int) -> Any:
        return self._to_value(ctx, i)


@dataclass
class Kind:
    """One action class and the domains of its fields (every field of the class, in any order; a tuple of
    names is one domain over several fields, whose values are tuples)."""

    cls: type[Action]
    fields: tuple[tuple[Any, Domain], ...] = ()

    @property
    def size(self) -> int:
        n = 1
        for _, d in self.fields:
            n *= d.size
        return n


class ActionSpace:
    """The fixed numbering of every action of one game configuration."""

    def __init__(self, kinds: Sequence[Kind]):
        self.kinds = tuple(k for k in kinds if k.size > 0)
        self.offsets: dict[str, int] = {}
        self._starts: list[tuple[int, Kind]] = []
        n = 0
        for k in self.kinds:
            self.offsets[k.cls.TYPE] = n
            self._starts.append((n, k))
            n += k.size
        self.n = n
        self._by_type = {k.cls.TYPE: k for k in self.kinds}

    def encode(self, state: Any, player: int | None, action: Action) -> int:
        """The integer of ``action``; MalformedAction names the field whose value has no number here."""
        kind = self._by_type.get(action.TYPE)
        if kind is None:
            raise MalformedAction("type", f"{action.TYPE!r} has no integer encoding in this configuration")
        ctx = Context(state, player)
        code = 0
        for name, dom in kind.fields:
            v = tuple(getattr(action, x) for x in name) if isinstance(name, tuple) else getattr(action, name)
            i = dom.index(ctx, v)
            if i is None:
                where = ",".join(name) if isinstance(name, tuple) else name
                raise MalformedAction(where, f"{v!r} has no integer encoding in this configuration")
            _store(ctx, name, v)
            code = code * dom.size + i
        return self.offsets[action.TYPE] + code

    def decode(self, state: Any, player: int | None, code: int) -> Action:
        """The action numbered ``code`` (any integer type); MalformedAction when out of range."""
        try:
            c = int(code)
        except (TypeError, ValueError):
            raise MalformedAction("action", f"{code!r} is not an integer") from None
        if c != code or not 0 <= c < self.n:
            raise MalformedAction("action", f"{code!r} is outside [0, {self.n})")
        lo, hi = 0, len(self._starts) - 1
        while lo < hi:  # the last kind starting at or before c
            mid = (lo + hi + 1) // 2
            if self._starts[mid][0] <= c:
                lo = mid
            else:
                hi = mid - 1
        start, kind = self._starts[lo]
        rest = c - start
        digits = []
        for _, dom in reversed(kind.fields):
            rest, d = divmod(rest, dom.size)
            digits.append(d)
        digits.reverse()
        ctx = Context(state, player)
        for (name, dom), d in zip(kind.fields, digits):
            _store(ctx, name, dom.value(ctx, d))
        return kind.cls(**ctx.fields)

    def legal_ints(self, state: Any, player: int) -> list[int]:
        """The sorted integers of ``player``'s legal actions now."""
        return sorted(self.encode(state, player, a) for a in state.legal_actions(player))

    def legal_mask(self, state: Any, player: int) -> list[int]:
        """A list of ``n`` 0/1 entries, 1 exactly at the legal actions' integers."""
        mask = [0] * self.n
        for i in self.legal_ints(state, player):
            mask[i] = 1
        return mask


def _store(ctx: Context, name: str | tuple[str, ...], v: Any) -> None:
    if isinstance(name, tuple):  # one domain over several fields (a hex's q and r): its values are tuples
        for x, y in zip(name, v):
            ctx.fields[x] = y
    else:
        ctx.fields[name] = v


class SpaceCache:
    """Action spaces by configuration key (building one reads the scenario; do it once)."""

    def __init__(self, build: Callable[[Any], ActionSpace]):
        self._build = build
        self._cache: dict[str, ActionSpace] = {}

    def get(self, key: str, arg: Any) -> ActionSpace:
        """The space of configuration ``key``, built from ``arg`` the first time (``arg`` may be a function
        returning the build argument, so that it is only made when needed)."""
        sp = self._cache.get(key)
        if sp is None:
            sp = self._cache[key] = self._build(arg() if callable(arg) else arg)
        return sp


def initial_position_spaces(build: Callable[[Any], ActionSpace], game_id: str,
                            key: Callable[[Any], str] | None = None,
                            options: Callable[[Any], Any] | None = None) -> Callable[[Any], ActionSpace]:
    """``action_space(state)`` for a game whose space is built (by ``build``) from its configuration's initial
    position, so every later state of that configuration numbers alike; cached per configuration. ``key(state)``
    names the configuration (default: the options as JSON), ``options(state)`` the options to start from (default
    ``state.options``). The game is found by id when first needed: its package imports its encoding module, so
    the class cannot be imported there."""
    spaces = SpaceCache(build)
    options_of = options or (lambda state: state.options)
    key_of = key or (lambda state: json.dumps(options_of(state), sort_keys=True, default=str))

    def action_space(state) -> ActionSpace:
        return spaces.get(key_of(state), lambda: get_game(game_id).new_initial_state(options_of(state), 0))

    return action_space


class Encoding:
    """A game's integer-action functions over its ``action_space(state)`` (each encoding module binds these as
    its module-level ``num_distinct_actions``, ``encode``, ``decode``, ``legal_mask``, ``observation_string``)."""

    def __init__(self, action_space: Callable[[Any], ActionSpace]):
        self.action_space = action_space

    def num_distinct_actions(self, state: Any) -> int:
        return self.action_space(state).n

    def encode(self, state: Any, action: Action, player: int | None = None) -> int:
        return self.action_space(state).encode(state, player, action)

    def decode(self, state: Any, code: int, player: int | None = None) -> Action:
        return self.action_space(state).decode(state, player, code)

    def legal_mask(self, state: Any, player: int) -> list[int]:
        return self.action_space(state).legal_mask(state, player)

    @staticmethod
    def observation_string(state: Any, player: int | None) -> str:
        """``view(player)`` as canonical JSON."""
        return canonical_json(state.view(player))


# --- observations ---------------------------------------------------------------------------------------

OBSERVATION_SIZE = 1024  # the hashed sketch alone (hashed_features' default)
SKETCH_SIZE = 256  # the hashed sketch appended to each game's planes


class Features:
    """Builds one fixed-layout float vector: named segments of numbers, flags and one-hots. ``layout`` lists
    ``(name, size)`` per segment (for the docs and for checking that every observation has the same shape)."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self.layout: list[tuple[str, int]] = []
        self._name = ""
        self._start = 0

    def segment(self, name: str) -> Features:
        self._close()
        self._name, self._start = name, len(self.values)
        return self

    def _close(self) -> None:
        if self._name:
            self.layout.append((self._name, len(self.values) - self._start))
            self._name = ""

    def num(self, x: Any, scale: float = 1.0) -> None:
        """``x / scale`` (0 for null or a non-number)."""
        ok = isinstance(x, int | float) and not isinstance(x, bool)
        self.values.append(float(x) / scale if ok else 0.0)

    def flag(self, b: Any) -> None:
        self.values.append(1.0 if b else 0.0)

    def one_hot(self, x: Any, choices: Sequence[Any]) -> None:
        """One entry per choice, 1 at ``x`` (all 0 when ``x`` is not among them)."""
        for c in choices:
            self.values.append(1.0 if x == c else 0.0)

    def zeros(self, k: int) -> None:
        self.values.extend([0.0] * k)

    def done(self) -> list[float]:
        self._close()
        return self.values


def seat(owner: Any, viewer: int | None, n: int) -> int | None:
    """A player index seen from ``viewer`` (the viewer is 0, the next seat 1...; a spectator sees seat order)."""
    if not isinstance(owner, int) or isinstance(owner, bool) or not 0 <= owner < n:
        return None
    return (owner - (viewer or 0)) % n


def canonical_json(view: Any) -> str:
    """A view as canonical JSON text (sorted keys, no spaces): the observation string."""
    import json

    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def hashed_features(view: Any, size: int = OBSERVATION_SIZE) -> list[float]:
    """A fixed-length float vector of a view (the hashing trick): every leaf of the JSON tree adds to one of
    ``size`` buckets chosen by a stable hash (CRC-32) of its path (list positions included): a number adds
    ``sign(x) * log(1 + |x|)`` at its path, a string or boolean adds 1 at its path and value, ``None`` adds
    nothing. Equal views give equal vectors; only the view is read."""
    import math
    import zlib

    out = [0.0] * size
    stack: list[tuple[str, Any]] = [("", view)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, dict):
            stack.extend((f"{path}/{k}", x) for k, x in v.items())
        elif isinstance(v, list | tuple):
            stack.extend((f"{path}/{i}", x) for i, x in enumerate(v))
        elif isinstance(v, bool | str):
            out[zlib.crc32(f"{path}={v}".encode()) % size] += 1.0
        elif isinstance(v, int | float):
            x = float(v)
            if math.isfinite(x):
                out[zlib.crc32(path.encode()) % size] += math.copysign(math.log1p(abs(x)), x)
    return out

"""Checked reading of untrusted JSON into typed Python values, from type annotations.

One reader for every shape a JSON document may have to take: a saved state, a data file, a scenario. Give it
a type (``int``, ``float``, ``str``, ``bool``, ``None``, ``Literal[...]``, unions, ``list[T]``, ``tuple[T, ...]``,
fixed tuples, ``dict[str, T]``, a ``TypedDict`` (closed: no other field; or open, marked with :func:`open_shape`:
its fields checked, any other field kept as it is), a dataclass) and a JSON value; it returns the value converted
(lists of a ``tuple`` type become tuples, objects of a dataclass type become instances) or raises
:class:`ShapeError` with the path of the first bad field and the reason. Bounds ride on ``Annotated``::

    Players = Annotated[int, Range(2, 4)]
    Squares = Annotated[list[int], MaxLen(400)]

Floats must be finite (no NaN or infinity); booleans are never integers; integers are bounded by
:data:`INT_LIMIT` unless a :class:`Range` says otherwise, so a 5000-digit number is refused, not computed with.
Callers turn a ShapeError into their own error (StateError, ScenarioError, MalformedAction) with
:func:`read`'s ``error`` argument.

This module owns the reader only; it knows no game and no file format (parse TOML/JSON before calling it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin

from deltav.core.errors import DeltavError
from deltav.core.jsonin import shown

#: Integers outside +-INT_LIMIT are refused unless a Range allows them (a state never needs more).
INT_LIMIT = 2**64


class ShapeError(DeltavError):
    """A JSON value that does not have the expected shape: ``path`` (``$.players[2].fuel``) and ``reason``."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Range:
    """Inclusive bounds for a number (either side may be None)."""

    lo: float | None = None
    hi: float | None = None


@dataclass(frozen=True)
class MaxLen:
    """The most items a list, tuple, object or string may have."""

    n: int


@dataclass(frozen=True)
class MinLen:
    """The fewest items a list, tuple, object or string may have."""

    n: int


Reader = Callable[[Any, str], Any]


def _fail(path: str, reason: str) -> typing.NoReturn:
    raise ShapeError(path, reason)


def _type_name(tp: Any) -> str:
    if tp is type(None) or tp is None:
        return "null"
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if tp in names:
        return names[tp]
    origin = get_origin(tp)
    if origin is Annotated:  # bounds do not change what kind of value is expected
        return _type_name(get_args(tp)[0])
    if origin in (list, tuple):
        return "a list"
    if origin is dict or typing.is_typeddict(tp) or dataclasses.is_dataclass(tp):
        return "an object"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    return getattr(tp, "__name__", str(tp))


def _sized(inner: Reader, lo: int | None, hi: int | None) -> Reader:
    def read_sized(v: Any, p: str) -> Any:
        n = len(v) if isinstance(v, list | tuple | dict | str) else None
        if n is not None:
            if hi is not None and n > hi:
                _fail(p, f"has {n} items, at most {hi} allowed")
            if lo is not None and n < lo:
                _fail(p, f"has {n} items, at least {lo} needed")
        return inner(v, p)

    return read_sized


def _ranged(inner: Reader, lo: float | None, hi: float | None) -> Reader:
    def read_ranged(v: Any, p: str) -> Any:
        if isinstance(v, int | float) and not isinstance(v, bool):
            if lo is not None and v < lo:
                _fail(p, f"{shown(v)} is below the minimum {lo}")
            if hi is not None and v > hi:
                _fail(p, f"{shown(v)} is above the maximum {hi}")
        return inner(v, p)

    return read_ranged


def _read_int(v: Any, p: str, unbounded: bool = False) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        _fail(p, f"expected an integer, got {shown(v)}")
    if not unbounded and not -INT_LIMIT <= v <= INT_LIMIT:
        _fail(p, "integer out of range")
    return v


def _read_float(v: Any, p: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        _fail(p, f"expected a number, got {shown(v)}")
    if isinstance(v, int):
        if not -INT_LIMIT <= v <= INT_LIMIT:
            _fail(p, "number out of range")
        return float(v)
    if not math.isfinite(v):
        _fail(p, f"{v!r} is not a finite number")
    return v


def _read_str(v: Any, p: str) -> str:
    if not isinstance(v, str):
        _fail(p, f"expected a string, got {shown(v)}")
    return v


def _read_bool(v: Any, p: str) -> bool:
    if not isinstance(v, bool):
        _fail(p, f"expected a boolean, got {shown(v)}")
    return v


def _read_none(v: Any, p: str) -> None:
    if v is not None:
        _fail(p, f"expected null, got {shown(v)}")


def _read_any(v: Any, p: str) -> Any:
    return v


def open_shape(tp: Any) -> Any:
    """Mark a ``TypedDict`` as open: an object with its fields and any others (an action or an event: its ``type``
    and the game's own fields). :func:`read` checks the declared fields and keeps the others unread."""
    tp.__open_shape__ = True
    return tp


def _object_reader(fields: list[tuple[str, Reader, bool]], make: Callable[[dict], Any], open_: bool = False) -> Reader:
    """A reader of a JSON object with these (name, reader, required) fields and no others (``open_``: others are
    kept as they are), built by ``make``."""
    known = {name for name, _, _ in fields}

    def read_object(v: Any, p: str) -> Any:
        if not isinstance(v, dict):
            _fail(p, f"expected an object, got {shown(v)}")
        out = {}
        for k in v:
            if k not in known:
                if not open_:
                    _fail(f"{p}.{k}", f"unknown field (fields: {', '.join(sorted(known))})")
                out[k] = v[k]
        for name, r, required in fields:
            if name not in v:
                if required:
                    _fail(f"{p}.{name}", "missing")
                continue
            out[name] = r(v[name], f"{p}.{name}")
        return make(out)

    return read_object


class Readers:
    """Builds (and caches) a reader per type. ``extra(tp)`` may return a reader for types this module does not
    know (the value classes of :mod:`deltav.core.values`), or None."""

    def __init__(self, extra: Callable[[Any], Reader | None] | None = None):
        self._extra = extra
        self._cache: dict[Any, Reader] = {}

    def __call__(self, tp: Any) -> Reader:
        try:
            return self._cache[tp]
        except (KeyError, TypeError):
            pass
        r = self._build(tp)
        with contextlib.suppress(TypeError):
            self._cache[tp] = r
        return r

    def _build(self, tp: Any) -> Reader:
        if self._extra is not None:
            r = self._extra(tp)
            if r is not None:
                return r
        origin = get_origin(tp)
        if tp is Any:
            return _read_any
        if tp is None or tp is type(None):
            return _read_none
        if tp is bool:
            return _read_bool
        if tp is int:
            return _read_int
        if tp is float:
            return _read_float
        if tp is str:
            return _read_str
        if origin is Annotated:
            base, *marks = get_args(tp)
            r = self(base)
            for m in marks:
                if isinstance(m, Range):
                    if base is int:
                        r = _ranged(lambda v, p: _read_int(v, p, unbounded=True), m.lo, m.hi)
                    else:
                        r = _ranged(r, m.lo, m.hi)
                elif isinstance(m, MaxLen):
                    r = _sized(r, None, m.n)
                elif isinstance(m, MinLen):
                    r = _sized(r, m.n, None)
            return r
        if origin in (Required, NotRequired):
            return self(get_args(tp)[0])
        if origin is Literal:
            allowed = get_args(tp)

            def read_literal(v: Any, p: str) -> Any:
                for a in allowed:  # type() keeps 1 and True apart
                    if type(a) is type(v) and a == v:
                        return a
                _fail(p, f"expected one of {list(allowed)}, got {shown(v)}")

            return read_literal
        if origin is Union or origin is types.UnionType:
            args = get_args(tp)
            options = [self(a) for a in args]
            names = " or ".join(_type_name(a) for a in args)

            def read_union(v: Any, p: str) -> Any:
                first: ShapeError | None = None
                for opt in options:
                    try:
                        return opt(v, p)
                    except ShapeError as exc:
                        if first is None and (exc.path != p or not exc.reason.startswith("expected ")):
                            first = exc  # the value had the right kind but a bad part or value: report that
                if first is not None:
                    raise first
                _fail(p, f"expected {names}, got {shown(v)}")

            return read_union
        if origin is list or tp is list:
            item = self((get_args(tp) or (Any,))[0])

            def read_list(v: Any, p: str) -> list:
                if not isinstance(v, list | tuple):
                    _fail(p, f"expected a list, got {shown(v)}")
                return [item(x, f"{p}[{i}]") for i, x in enumerate(v)]

            return read_list
        if origin is tuple:
            args = get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                item = self(args[0])

                def read_var_tuple(v: Any, p: str) -> tuple:
                    if not isinstance(v, list | tuple):
                        _fail(p, f"expected a list, got {shown(v)}")
                    return tuple(item(x, f"{p}[{i}]") for i, x in enumerate(v))

                return read_var_tuple
            items = [self(a) for a in args]

            def read_fixed_tuple(v: Any, p: str) -> tuple:
                if not isinstance(v, list | tuple) or len(v) != len(items):
                    _fail(p, f"expected a list of {len(items)} items, got {shown(v)}")
                return tuple(r(x, f"{p}[{i}]") for i, (r, x) in enumerate(zip(items, v)))

            return read_fixed_tuple
        if origin is dict or tp is dict:
            kt, vt = get_args(tp) or (str, Any)
            key = self(kt)
            val = self(vt)

            def read_dict(v: Any, p: str) -> dict:
                if not isinstance(v, dict):
                    _fail(p, f"expected an object, got {shown(v)}")
                out = {}
                for k, x in v.items():
                    key(k, f"{p}.{k}")
                    out[k] = val(x, f"{p}.{k}")
                return out

            return read_dict
        if typing.is_typeddict(tp):
            hints = typing.get_type_hints(tp, include_extras=True)
            total = getattr(tp, "__total__", True)

            def is_required(t: Any) -> bool:
                o = get_origin(t)
                return True if o is Required else False if o is NotRequired else total

            return _object_reader([(name, self(t), is_required(t)) for name, t in hints.items()], dict,
                                  getattr(tp, "__open_shape__", False))
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            hints = typing.get_type_hints(tp, include_extras=True)
            specs = []
            for f in dataclasses.fields(tp):
                if not f.init:
                    continue
                has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
                specs.append((f.name, self(hints[f.name]), not has_default))
            cls = tp
            return _object_reader(specs, lambda kw: cls(**kw))
        raise TypeError(f"deltav.core.shape cannot read the type {tp!r}")


_READERS = Readers()


def read(tp: Any, obj: Any, path: str = "$", error: Callable[[str, str], Exception] | None = None) -> Any:
    """``obj`` read as ``tp``. Raises ShapeError(path, reason), or ``error(path, reason)`` when given."""
    try:
        return _READERS(tp)(obj, path)
    except ShapeError as exc:
        if error is None:
            raise
        raise error(exc.path, exc.reason) from None
    except RecursionError:
        reason = "nested too deeply"
        if error is None:
            raise ShapeError(path, reason) from None
        raise error(path, reason) from None

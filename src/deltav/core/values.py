"""Typed values: the actions players send and the events games emit, with their JSON forms.

An action or event is a frozen, slotted dataclass declared with :func:`value`, tagged with a ``type`` string.
Its JSON form is ``{"type": TAG, field: value, ...}``: tuples become lists, nested values become objects.
Values are hashable, so search trees can key on them. Each class's ``to_json`` is compiled from its annotations
on first use (fields of JSON scalar types read as they are, the rest encoded; the same JSON as the generic
field loop, which stays the fallback): sessions encode every action and event they record.

A :class:`Codec` decodes JSON back into values and checks every field against its annotation (int, bool,
str, float, None, unions, ``Literal``, ``tuple[X, ...]``, ``tuple[X, Y]``, nested values), so a malformed
message is rejected with the field and the reason before any game sees it.

Events carry an audience: ``to=None`` is public; ``to=(2,)`` is seen by player 2 only (a secret look at a tile).

This module owns the value machinery only; each game declares its own value classes.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Literal, Union, get_args, get_origin

from deltav.core.errors import MalformedAction
from deltav.core.jsonin import shown
from deltav.core.shape import Reader, Readers, ShapeError

_JSON_SCALARS = (int, float, str, bool, type(None))


class Value:
    """Base of actions and events. Subclasses are made with :func:`value`."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict:
        # the generic form; each class made by value() gets its own compiled one (_compile_to_json)
        return _generic_to_json(self)

    def replace(self, **changes: Any):
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


class Action(Value):
    """A decision a player sends to a game."""

    __slots__ = ()


class Event(Value):
    """Something that happened. ``to`` (set by the game when it builds the event) is None for a public
    event, or the tuple of players who may see it."""

    __slots__ = ()

    def visible_to(self, player: int | None) -> bool:
        to = getattr(self, "to", None)
        return to is None or (player is not None and player in to)


def _encode(v: Any) -> Any:
    if isinstance(v, _JSON_SCALARS):
        return v
    if isinstance(v, Value):
        return v.to_json()
    if isinstance(v, tuple | list):
        return [_encode(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _encode(x) for k, x in v.items()}
    raise TypeError(f"cannot encode {type(v).__name__} in a value")


def _generic_to_json(v: Value) -> dict:
    out: dict[str, Any] = {"type": v.TYPE}
    for f in v.__dataclass_fields__:  # type: ignore[attr-defined]
        out[f] = _encode(getattr(v, f))
    return out


def _is_scalar_type(tp: Any) -> bool:
    """Does the annotation ``tp`` admit only JSON scalars (which encode as themselves)?"""
    if tp in (int, str, bool, float, type(None), None):
        return True
    origin = get_origin(tp)
    if origin is Literal:
        return all(isinstance(a, _JSON_SCALARS) for a in get_args(tp))
    if origin is Union or origin is types.UnionType:
        return all(_is_scalar_type(a) for a in get_args(tp))
    return False


def _compile_to_json(cls: type) -> Callable[[Any], dict] | None:
    """A ``to_json`` built for the fields of the value class ``cls``: one dict display, fields annotated with JSON
    scalar types read as they are, the others through ``_encode`` (the same JSON as the generic loop, without a
    call and a type test per scalar field). None when the annotations cannot be resolved."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an unresolvable annotation: keep the generic loop
        return None
    parts = [f'"type": {cls.TYPE!r}']
    for f in dataclasses.fields(cls):
        read = f"v.{f.name}"
        parts.append(f"{f.name!r}: {read if _is_scalar_type(hints.get(f.name)) else f'_encode({read})'}")
    fn = eval("lambda v: {" + ", ".join(parts) + "}", {"_encode": _encode})  # noqa: S307 (built from field names)
    fn.__name__ = fn.__qualname__ = "to_json"
    return fn


def _lazy_to_json(cls: type) -> Callable[[Any], dict]:
    """``cls.to_json`` until its first call, which compiles the real one (annotations naming classes declared
    later in a module resolve by then) and installs it on ``cls``."""

    def to_json(self) -> dict:
        fn = _compile_to_json(cls) or _generic_to_json
        cls.to_json = fn
        return fn(self)

    return to_json


def value(tag: str) -> Callable[[type], type]:
    """Class decorator: make a frozen slotted dataclass tagged ``tag``.

    Example::

        @value("burn")
        class Burn(Action):
            ship: str
            direction: int | None
    """

    def wrap(cls: type) -> type:
        new = dataclasses.dataclass(frozen=True, slots=True)(cls)
        new.TYPE = tag
        if "to_json" not in cls.__dict__:  # the class declares no encoding of its own
            new.to_json = _lazy_to_json(new)
        return new

    return wrap


# --- decoding -------------------------------------------------------------------------------------------


def _fail(path: str, reason: str) -> typing.NoReturn:
    raise MalformedAction(path, reason)


_INF = float("inf")
_UNSET = object()


def _check_expr(tp: Any, x: str, env: dict[str, Any], codec: Codec, depth: int = 0) -> str:
    """A Python expression testing that the expression ``x`` already has the declared type ``tp``."""
    origin = get_origin(tp)
    if tp is Any:
        return "True"
    if tp is type(None) or tp is None:
        return f"{x} is None"
    if tp is bool:
        return f"({x} is True or {x} is False)"
    if tp is int:
        return f"type({x}) is int"
    if tp is str:
        return f"type({x}) is str"
    if tp is float:
        return f"((type({x}) is float and -_INF < {x} < _INF) or type({x}) is int)"
    if origin is Union or origin is types.UnionType:
        return "(" + " or ".join(_check_expr(a, x, env, codec, depth) for a in get_args(tp)) + ")"
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            y = f"_y{depth}"
            return f"(type({x}) is tuple and all({_check_expr(args[0], y, env, codec, depth + 1)} for {y} in {x}))"
    name = f"_p{len(env)}"  # anything else: the generic predicate
    env[name] = _instance_check(tp, codec)
    return f"{name}({x})"


def _compile_check(cls: type, hints: dict[str, Any], codec: Codec) -> Callable[[Any], bool]:
    """One predicate for a value class: every field has its declared type (the fast path of Codec.check)."""
    env: dict[str, Any] = {"_INF": _INF}
    parts = [_check_expr(hints[f.name], f"a.{f.name}", env, codec) for f in dataclasses.fields(cls)]
    return eval("lambda a: " + (" and ".join(parts) or "True"), env)  # noqa: S307 (source built above from annotations)


def _instance_check(tp: Any, codec: Codec) -> Callable[[Any], bool]:
    """A predicate: does a Python value already have the declared field type ``tp``? (No conversion.)"""
    origin = get_origin(tp)
    if tp is Any:
        return lambda v: True
    if tp is type(None) or tp is None:
        return lambda v: v is None
    if tp is bool:
        return lambda v: v is True or v is False
    if tp is int:
        return lambda v: type(v) is int
    if tp is float:
        return lambda v: (type(v) is float and -_INF < v < _INF) or type(v) is int
    if tp is str:
        return lambda v: type(v) is str
    if origin is Literal:
        allowed = tuple((type(a), a) for a in get_args(tp))
        return lambda v: (type(v), v) in allowed
    if origin is Union or origin is types.UnionType:
        options = tuple(_instance_check(a, codec) for a in get_args(tp))
        return lambda v: any(ok(v) for ok in options)
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _instance_check(args[0], codec)
            return lambda v: type(v) is tuple and all(item(x) for x in v)
        items = tuple(_instance_check(a, codec) for a in args)
        n = len(items)
        return lambda v: type(v) is tuple and len(v) == n and all(ok(x) for ok, x in zip(items, v))
    if isinstance(tp, type) and issubclass(tp, Value):
        def ok_value(v: Any) -> bool:
            if not isinstance(v, tp):
                return False
            try:
                codec.check(v)
            except MalformedAction:
                return False
            return True
        return ok_value
    raise TypeError(f"unsupported field type {tp!r} in a value class")


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v


class Codec:
    """Decodes the JSON forms of a set of value classes (one game's actions, or its events)."""

    def __init__(self, classes: Iterable[type]):
        self.classes: dict[str, type] = {}
        self._readers = Readers(extra=self._reader_for)
        self._fields: dict[str, list[tuple[str, Reader, bool]]] = {}
        self._fast: dict[type, Callable[[Any], bool]] = {}
        self._checks: dict[type, tuple[tuple[str, Callable[[Any], bool]], ...]] = {}
        for cls in classes:
            self.add(cls)

    def add(self, cls: type) -> None:
        tag = cls.TYPE
        if not tag:
            raise TypeError(f"{cls.__name__} has no type tag; declare it with @value(...)")
        if tag in self.classes and self.classes[tag] is not cls:
            raise TypeError(f"two value classes share the tag {tag!r}")
        self.classes[tag] = cls
        hints = typing.get_type_hints(cls)
        specs = []
        for f in dataclasses.fields(cls):
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            specs.append((f.name, self._readers(hints[f.name]), has_default))
        self._fields[tag] = specs
        self._checks[cls] = tuple((f.name, _instance_check(hints[f.name], self)) for f in dataclasses.fields(cls))
        self._fast[cls] = _compile_check(cls, hints, self)

    def check(self, value: Any, path: str = "action") -> None:
        """Raise MalformedAction unless ``value`` is an instance of one of these classes whose every field has
        its declared type (the in-process guard of ``apply_action``). The common case runs one predicate compiled
        from the class's annotations (plain ``type(x) is int`` tests: a few hundred nanoseconds); only a refusal
        walks the fields to name the bad one."""
        fast = self._fast.get(type(value))
        if fast is not None:
            try:
                if fast(value):
                    return
            except Exception:  # a half-built value (an unset slot) or a hostile field: name it below
                pass
        self._explain(value, path)
        _fail(path, f"wrong field types in {shown(value)}")  # the two checks agree (tested): unreachable

    def _explain(self, value: Any, path: str = "action") -> None:
        """Walk ``value``'s fields one by one and raise MalformedAction naming the first bad one (the slow path of
        :meth:`check`; returns when every field is fine)."""
        checks = self._checks.get(type(value))
        if checks is None:
            _fail(path, f"expected one of this game's values ({', '.join(sorted(self.classes))}), got {shown(value)}")
        for name, ok in checks:
            v = getattr(value, name, _UNSET)
            if v is _UNSET:
                _fail(f"{path}.{name}", "missing")
            if not ok(v):
                _fail(f"{path}.{name}", f"wrong type or value {shown(v)}")

    def _reader_for(self, tp: Any) -> Reader | None:
        """The readers :mod:`deltav.core.shape` does not know: free-form fields (frozen) and nested values."""
        if tp is Any:
            return lambda v, p: _freeze(v)
        if isinstance(tp, type) and issubclass(tp, Value):
            return lambda v, p: self._decode(v, p, tp)
        return None

    def decode(self, obj: Any, path: str = "action", expect: type | None = None) -> Any:
        """The value an untrusted JSON form stands for; raises MalformedAction naming the field and the reason."""
        try:
            return self._decode(obj, path, expect)
        except ShapeError as exc:
            raise MalformedAction(exc.path, exc.reason) from None
        except RecursionError:
            raise MalformedAction(path, "nested too deeply") from None

    def _decode(self, obj: Any, path: str, expect: type | None) -> Any:
        if isinstance(obj, Value):
            obj = obj.to_json()
        if not isinstance(obj, dict):
            raise ShapeError(path, f"expected an object, got {shown(obj)}")
        tag = obj.get("type")
        if not isinstance(tag, str):
            raise ShapeError(f"{path}.type", "missing or not a string")
        cls = self.classes.get(tag)
        if cls is None:
            raise ShapeError(f"{path}.type", f"unknown type {tag[:60]!r} (known: {sorted(self.classes)})")
        if expect is not None and not issubclass(cls, expect):
            raise ShapeError(f"{path}.type", f"expected a {expect.TYPE!r} value, got {tag!r}")
        specs = self._fields[tag]
        names = {name for name, _, _ in specs}
        extra = set(obj) - names - {"type"}
        if extra:
            raise ShapeError(f"{path}.{sorted(map(str, extra))[0][:60]}", f"unknown field for {tag!r} (fields: {sorted(names)})")
        kwargs = {}
        for name, read, has_default in specs:
            if name not in obj:
                if has_default:
                    continue
                raise ShapeError(f"{path}.{name}", "missing")
            kwargs[name] = read(obj[name], f"{path}.{name}")
        return cls(**kwargs)

    def names(self) -> list[str]:
        return sorted(self.classes)

"""The one bounded JSON reader for untrusted input, and the one way to show an untrusted value in a message.

Every JSON text that comes from outside is read by :func:`read`, and nothing else parses such text: the
server's HTTP bodies and WebSocket frames (``deltav.server``), the text :meth:`deltav.core.session.Session.submit`
is given (the MCP tools and every remote client reach the server through those two), and match record files
(:func:`deltav.core.records.parse_bytes`). It bounds, before anything is computed with the document:

- its size in bytes (:attr:`Limits.max_bytes`), and strict UTF-8 when it comes as bytes;
- the nesting of arrays and objects (:attr:`Limits.max_depth`; a 100,000-deep array is refused, never a
  ``RecursionError``);
- the digits of every integer (:attr:`Limits.max_digits`; a 5,000-digit integer is refused without being
  converted, never the ``ValueError`` of Python's integer-string limit);
- numbers: ``NaN``, ``Infinity`` and floats that overflow to infinity are refused (they are not JSON);
- strings and keys: a lone surrogate (``"\\ud800"``) is refused (it is no text: it cannot be stored or sent).

Every refusal is a :class:`JSONInputError` naming the field (``message.action.ship``, ``body.seats[2]``; the
root is the name the caller gives) and the reason in words. :func:`check` applies the same bounds to a value
already in memory (a Python caller's dict).

:func:`shown` formats any untrusted value for a message (a refusal, a log line): at most about 60 characters,
and it never fails (a 5,000-digit integer is described, not printed; a hostile ``__repr__``, a cycle or deep
nesting give the type's name). Every refusal that quotes a value a client sent uses it.

This module owns reading untrusted JSON and showing untrusted values; it knows no game, no server and no file.
"""

from __future__ import annotations

import json
import math
import reprlib
from dataclasses import dataclass
from typing import Any

from deltav.core.errors import DeltavError


class JSONInputError(DeltavError):
    """Untrusted JSON refused: ``field`` is the path of the bad part (the root's name for the document as a
    whole), ``reason`` says why in words."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    """The bounds :func:`read` and :func:`check` apply."""

    max_bytes: int = 1024 * 1024  # the UTF-8 size of the whole text
    max_depth: int = 64  # nesting of arrays and objects (the document itself is level 0)
    max_digits: int = 40  # digits of one integer (a 64-bit seed has 20)


#: What a caller gets without asking for other bounds.
DEFAULT = Limits()


class _Marker:
    """A part of the text that parsed but is refused (kept in place so the refusal can name its field)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


def _parse_int(text: str, limit: int) -> Any:
    digits = len(text) - (text[0] == "-")
    if digits > limit:
        return _Marker(f"a {digits}-digit integer (at most {limit} digits)")
    return int(text)


def _parse_float(text: str) -> Any:
    v = float(text)
    if not math.isfinite(v):
        return _Marker(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is too large")
    return v


def _parse_constant(text: str) -> Any:
    return _Marker(f"{text} is not a JSON number")


def read(data: str | bytes | bytearray, what: str = "input", limits: Limits = DEFAULT) -> Any:
    """The JSON document in ``data`` (text, or UTF-8 bytes), within ``limits``; ``what`` names its root in
    refusals (``"body"``, ``"message"``). Raises :class:`JSONInputError`, never anything else."""
    if isinstance(data, bytes | bytearray):
        if len(data) > limits.max_bytes:
            raise JSONInputError(what, f"{len(data)} bytes, more than the {limits.max_bytes} allowed")
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError(what, f"not valid UTF-8 (byte {exc.start})") from None
    elif isinstance(data, str):
        text = data
        if len(text) > limits.max_bytes or len(text.encode("utf-8", "surrogatepass")) > limits.max_bytes:
            raise JSONInputError(what, f"more than the {limits.max_bytes} bytes allowed")
    else:
        raise JSONInputError(what, f"expected JSON text, got {shown(data)}")
    digits = limits.max_digits
    try:
        obj = json.loads(text, parse_int=lambda t: _parse_int(t, digits), parse_float=_parse_float,
                         parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise JSONInputError(what, f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise JSONInputError(what, f"nested too deeply (at most {limits.max_depth} levels)") from None
    check(obj, what, limits)
    return obj


def check(obj: Any, what: str = "input", limits: Limits = DEFAULT) -> None:
    """Refuse anything in ``obj`` that is not plain, bounded JSON: nesting deeper than ``limits.max_depth``,
    integers of more than ``limits.max_digits`` digits, non-finite numbers, keys that are not strings, lone
    surrogates, values of other Python types. Iterative: depth cannot exhaust the stack."""
    int_limit = 10 ** limits.max_digits
    stack: list[tuple[Any, Any, int]] = [(obj, what, 0)]  # (value, its path: text or a (parent, key) pair, depth)
    while stack:
        v, where, depth = stack.pop()
        t = type(v)
        if v is None or t is bool:
            continue
        if t is str:
            if not v.isascii():
                _check_text(v, where)
            continue
        if t is int:
            if not -int_limit < v < int_limit:
                _fail(where, f"an integer of more than {limits.max_digits} digits")
            continue
        if t is float:
            if not math.isfinite(v):
                _fail(where, f"{v!r} is not a finite number")
            continue
        if t is _Marker:
            _fail(where, v.reason)
        if t is list or t is dict:
            if depth >= limits.max_depth:
                _fail(where, f"nested too deeply (at most {limits.max_depth} levels)")
            if t is list:
                stack.extend((x, (where, i), depth + 1) for i, x in enumerate(v))
            else:
                for k, x in v.items():
                    if type(k) is not str:
                        _fail(where, f"the key {shown(k)} is not a string")
                    if not k.isascii():
                        _check_text(k, (where, k))
                    stack.append((x, (where, k), depth + 1))
            continue
        _fail(where, f"{shown(v)} is not a JSON value")


def _check_text(s: str, where: Any) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as exc:
        _fail(where, f"not valid text (a lone surrogate \\u{ord(s[exc.start]):04x} at character {exc.start})")


def path_text(where: Any) -> str:
    """``(("body", "seats"), 2)`` as ``body.seats[2]``."""
    parts: list[str] = []
    while isinstance(where, tuple):
        where, key = where
        if isinstance(key, int):
            parts.append(f"[{key}]")
        elif key.isidentifier():
            parts.append(f".{key}")
        else:
            parts.append(f"[{shown(key)}]")
    parts.append(str(where))
    return "".join(reversed(parts))


def _fail(where: Any, reason: str) -> None:
    raise JSONInputError(path_text(where), reason)


# --- showing untrusted values ----------------------------------------------------------------------------------

#: Integers longer than this many bits are described by their digit count instead of printed.
_BIG_BITS = 200


def digits(v: int) -> int:
    """The decimal digits of ``|v|``, computed without converting it to text."""
    v = abs(v)
    if v < 10:
        return 1
    n = int(v.bit_length() * 0.30102999566398120)  # log10(2): n or n + 1 digits
    return n + 1 if v >= 10**n else n


class _Repr(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxdict, self.maxstring, self.maxlong, self.maxother = 3, 4, 50, 40, 50
        self.maxtuple = self.maxlist = self.maxarray = self.maxset = self.maxfrozenset = self.maxdeque = 6

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > _BIG_BITS:
            return f"<a {digits(x)}-digit integer>"
        return super().repr_int(x, level)


_REPR = _Repr()


def shown(v: Any, limit: int = 60) -> str:
    """``v`` for a message: a short repr of at most ``limit`` characters that never fails."""
    try:
        if type(v) is int and v.bit_length() > _BIG_BITS:
            return f"a {digits(v)}-digit integer"
        text = _REPR.repr(v)
    except Exception:  # a hostile or broken __repr__, a cycle in a custom object, deep nesting
        return f"a {type(v).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."

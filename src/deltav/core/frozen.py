"""Read-only JSON records that views may share: ``Frozen`` (a dict that refuses every change) and ``freeze`` (a
JSON value made read-only all the way down: dicts become ``Frozen``, lists tuples).

Why: a view must be a JSON-ready value nobody can use to change the state. Building every record of every view
afresh is most of what a view costs, although most records do not change from one step to the next (a ship that
did not move, the rules, the options). A game may keep a record it built as a ``Frozen`` and hand the same object
to every view until the values it was made of change: nobody can write through it, so sharing it is safe.

A ``Frozen`` is a real ``dict`` subclass: ``json``, ``orjson``, ``==`` against plain dicts, ``dict(f)``,
iteration, ``in`` and ``get`` behave as for a dict; ``copy``/``deepcopy`` give the object itself (nothing in it
can change) and ``pickle`` gives an equal ``Frozen``. A consumer that wants to edit a record copies it
(``dict(f)``, or ``thaw`` for a whole value). Every mutating method raises ``TypeError`` naming the record.

Determinizers read views back into states; ``read_once`` keeps what was read from each shared record, by the
record's identity, so the views of many steps read an unchanged record once.

This module owns only the record type and that cache; it knows no game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def _refuse(self, *args, **kwargs):
    raise TypeError("a view's record is read-only (shared between views): copy it with dict(...) to change it")


class Frozen(dict):
    """A dict that cannot be changed once built (build it with ``Frozen(mapping)`` or ``Frozen(**fields)``).
    Its values should be immutable too (str, int, float, bool, None, tuples, other ``Frozen``): ``freeze``
    makes them so."""

    __slots__ = ()

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __copy__(self) -> Frozen:
        return self

    def __deepcopy__(self, memo) -> Frozen:
        return self

    def __reduce__(self):
        return (Frozen, (dict(self),))

    def __repr__(self) -> str:
        return f"Frozen({dict.__repr__(self)})"


def freeze(value: Any) -> Any:
    """``value`` (a JSON value) read-only all the way down: dicts as ``Frozen``, lists and tuples as tuples (a
    ``Frozen`` is returned as it is)."""
    if isinstance(value, Frozen):
        return value
    if isinstance(value, dict):
        return Frozen({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain, mutable copy of a JSON value: every dict (``Frozen`` included) a new dict, every list or tuple a
    new list."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def read_once(read: Callable[[Any], T], limit: int) -> Callable[[Any], T]:
    """``read`` (a function of one record) that keeps its answer for each ``Frozen`` record by the record's identity
    (the record is held, so its id is not reused while kept; at most ``limit`` kept, then all dropped): a record is
    shared by every view until its values change, so a reader meets the same one again and again. A plain dict
    may be changed after it was read: it is read afresh every time. The answer is shared: callers must not change
    it (copy it first)."""
    kept: dict[int, tuple] = {}

    def reader(rec: Any) -> T:
        if type(rec) is not Frozen:
            return read(rec)
        hit = kept.get(id(rec))
        if hit is None or hit[0] is not rec:
            if len(kept) >= limit:
                kept.clear()
            hit = kept[id(rec)] = (rec, read(rec))
        return hit[1]

    reader.kept = kept  # type: ignore[attr-defined]  (for tests: what is held)
    return reader

"""The write check for views: a view must be a value nobody can use to change the state. ``scribble`` writes into
every dict and list of a view, depth first, as a careless bot might; every shared read-only record
(``deltav.core.frozen.Frozen``) must refuse with ``TypeError``. Callers then check that the state and later views
are unchanged (the conformance suite does it for every game; the games' own view tests for their positions)."""

from __future__ import annotations

import pytest

from deltav.core.frozen import Frozen


def scribble(value, where: str = "a view") -> None:
    """Write into every dict and list of ``value`` (a view): each key overwritten and one added, each list item
    overwritten; a ``Frozen`` record must refuse a write and a clear; tuples are walked; anything else must be a
    JSON scalar (``where`` names the view in that failure)."""
    if isinstance(value, Frozen):
        for v in value.values():
            scribble(v, where)
        with pytest.raises(TypeError, match="read-only"):
            value["scribbled"] = 1
        with pytest.raises(TypeError, match="read-only"):
            value.clear()
        return
    if isinstance(value, tuple):
        for v in value:
            scribble(v, where)
        return
    if isinstance(value, dict):
        for v in list(value.values()):
            scribble(v, where)
        for k in list(value):
            value[k] = "scribbled"
        value["scribbled"] = 1
        return
    if isinstance(value, list):
        for v in value:
            scribble(v, where)
        for i in range(len(value)):
            value[i] = "scribbled"
        value.append("scribbled")
        return
    assert value is None or isinstance(value, (str, int, float, bool)), f"{where}: {type(value).__name__} in a view"

"""The read-only records views share (deltav.core.frozen): they refuse every change, serialize as plain JSON,
compare equal to plain dicts, and survive copy and pickle."""

from __future__ import annotations

import copy
import json
import pickle

import orjson
import pytest

from deltav.core.frozen import Frozen, freeze, read_once, thaw


def sample():
    return freeze({"id": "s1", "position": [3, -2], "cargo": [{"kind": "ore", "n": 2}], "note": None})


def test_every_mutating_method_refuses_and_changes_nothing():
    f = sample()
    before = json.dumps(f, sort_keys=True)
    attempts = [
        lambda: f.__setitem__("id", "x"), lambda: f.__delitem__("id"), lambda: f.clear(), lambda: f.pop("id"),
        lambda: f.popitem(), lambda: f.setdefault("new", 1), lambda: f.update(id="x"), lambda: f.update({"a": 1}),
    ]
    for attempt in attempts:
        with pytest.raises(TypeError, match="read-only"):
            attempt()
    g = f
    with pytest.raises(TypeError):
        g |= {"id": "x"}
    with pytest.raises(TypeError):
        f["cargo"][0]["n"] = 5  # nested records are read-only too
    with pytest.raises(TypeError):
        f["position"][0] = 1  # lists become tuples  # type: ignore[index]
    assert json.dumps(f, sort_keys=True) == before


def test_json_and_equality_are_a_dicts():
    f = sample()
    plain = {"id": "s1", "position": [3, -2], "cargo": [{"kind": "ore", "n": 2}], "note": None}
    assert json.loads(json.dumps(f)) == plain
    assert json.loads(orjson.dumps(f)) == plain
    assert thaw(f) == plain and type(thaw(f)) is dict and type(thaw(f)["position"]) is list
    assert f == freeze(plain) and f["cargo"][0] == {"kind": "ore", "n": 2}
    assert dict(f) == f and type(dict(f)) is dict  # a copy to edit
    assert (f | {"x": 1})["x"] == 1 and type(f | {"x": 1}) is dict


def test_copy_and_pickle():
    f = sample()
    assert copy.copy(f) is f and copy.deepcopy(f) is f
    back = pickle.loads(pickle.dumps(f))
    assert back == f and type(back) is Frozen
    with pytest.raises(TypeError):
        back["id"] = "x"


def test_freeze_keeps_a_frozen_record_as_it_is():
    f = sample()
    assert freeze(f) is f
    assert freeze([f, f])[0] is f


def test_read_once_keeps_a_reading_per_shared_record_and_reads_plain_dicts_afresh():
    reads = []

    def read(rec):
        reads.append(rec)
        return {"read": rec["id"]}

    reader = read_once(read, limit=2)
    a, b, c = Frozen(id="a"), Frozen(id="b"), Frozen(id="c")
    assert reader(a) is reader(a) and reads == [a]  # one reading per record, shared
    assert reader(Frozen(id="a")) == {"read": "a"} and len(reads) == 2  # an equal but other record: its own
    plain = {"id": "p"}
    reader(plain)
    plain["id"] = "q"
    assert reader(plain) == {"read": "q"} and len(reads) == 4  # a plain dict may change: read every time
    reader(b)
    reader(c)  # over the limit: what was kept is dropped
    assert len(reader.kept) <= 2
    n = len(reads)
    reader(a)
    assert len(reads) == n + 1

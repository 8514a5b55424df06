"""The one bounded JSON reader (deltav.core.jsonin): every bound refused with the field and the reason, never a
raw exception; ``shown`` never fails; ``Session.submit`` reads text through it; every deltav error pickles."""

from __future__ import annotations

import json
import pickle

import pytest

from deltav.core import errors, jsonin
from deltav.core.errors import DeltavError, MalformedAction
from deltav.core.jsonin import JSONInputError, Limits, check, read, shown
from deltav.core.session import Session
from tests.toygame import ToyGame

BIG = "9" * 5000


@pytest.mark.parametrize("text,field,reason", [
    ('{"type": "submit", "id": ' + BIG + "}", "message.id", "5000-digit integer"),
    ('{"a": [1, -' + BIG + "]}", "message.a[1]", "5000-digit integer"),
    ("[" * 8000 + "]" * 8000, "message", "nested too deeply"),
    ("[" * 100_000, "message", "nested too deeply"),
    ('{"a": ' + "[" * 70 + "]" * 70 + "}", "message.a" + "[0]" * 63, "nested too deeply"),
    ('{"name": "\\ud800"}', "message.name", "lone surrogate"),
    ('{"\\udc00x": 1}', "message['\\udc00x']", "lone surrogate"),
    ('{"x": NaN}', "message.x", "NaN is not a JSON number"),
    ('{"x": -Infinity}', "message.x", "-Infinity is not a JSON number"),
    ('{"x": 1e999}', "message.x", "too large"),
    ('{"x": ', "message", "not valid JSON"),
    ("", "message", "not valid JSON"),
])
def test_every_bound_is_refused_with_the_field_and_the_reason(text, field, reason):
    with pytest.raises(JSONInputError) as got:
        read(text, "message")
    assert got.value.field == field and reason in got.value.reason, str(got.value)


def test_size_and_utf8_are_checked_before_parsing():
    with pytest.raises(JSONInputError, match="more than the 10 bytes"):
        read('"' + "é" * 5 + '"', "body", Limits(max_bytes=10))
    with pytest.raises(JSONInputError, match="300 bytes, more than the 100"):
        read(b" " * 300, "body", Limits(max_bytes=100))
    with pytest.raises(JSONInputError, match=r"body: not valid UTF-8 \(byte 1\)"):
        read(b'"\xff"', "body")
    with pytest.raises(JSONInputError, match="expected JSON text"):
        read(5, "body")  # type: ignore[arg-type]


def test_plain_json_within_the_bounds_is_read_as_the_standard_reader_reads_it():
    doc = {"type": "submit", "step": 17, "id": -(10**39), "action": {"x": [1.5, None, True, "é✓"]}, "": {}}
    assert read(json.dumps(doc)) == doc
    assert read(json.dumps(doc).encode()) == doc
    deep = "[" * 64 + "]" * 64
    assert read(deep) == json.loads(deep)


def test_check_bounds_values_already_in_memory_without_recursion():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(JSONInputError, match="nested too deeply"):
        check(deep, "action")
    for bad, reason in [({"x": 10**5000}, "more than 40 digits"), ({"x": float("nan")}, "not a finite number"),
                        ({1: 2}, "is not a string"), ({"x": (1, 2)}, "not a JSON value"),
                        ({"s": "a\udfffb"}, "lone surrogate")]:
        with pytest.raises(JSONInputError, match=reason):
            check(bad, "action")
    check({"x": [1, 2.5, "ok", None, False, {"y": 10**39}]})


class Hostile:
    def __repr__(self):
        raise RuntimeError("no")


def test_shown_never_fails_and_stays_short():
    assert shown(10**5000) == "a 5001-digit integer" and shown(-(10**4999)) == "a 5000-digit integer"
    assert "5000-digit integer" in shown([1, 10**4999 + 1])
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    for v in (nested, Hostile(), "z" * 100_000, {i: i for i in range(10_000)}, b"\xff" * 1000, 2**64, 1.5e308):
        text = shown(v)
        assert isinstance(text, str) and len(text) <= 60, text
    assert "Hostile" in shown(Hostile())
    assert shown("abc") == "'abc'" and shown(12) == "12"
    assert [jsonin.digits(v) for v in (0, 9, 10, 10**40 - 1, 10**40, -(10**5000))] == [1, 1, 2, 40, 41, 5001]


@pytest.mark.parametrize("text,field", [
    ('{"type": "bid", "amount": ' + BIG + "}", "action.amount"),
    ("[" * 100_000, "action"),
    ('{"type": "\\ud800"}', "action.type"),
    (b'{"type": "\xff"}', "action"),
])
def test_session_submit_refuses_hostile_text_as_a_malformed_action(text, field):
    s = Session(ToyGame, {}, 3)
    before = s.state.to_json()
    with pytest.raises(MalformedAction) as got:
        s.submit(s.deciding()[0], text)
    assert got.value.field == field
    assert s.state.to_json() == before and s.step == 0


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


def test_every_deltav_error_pickles_as_itself():
    """A bot's error raised in a worker process comes back to the server: it must pickle (MalformedAction did
    not: its ``__init__`` takes two arguments, so unpickling it broke the server's process pool for good)."""
    import deltav.agents  # noqa: F401 - the agents' errors too
    import deltav.cli  # noqa: F401
    import deltav.client.seat  # noqa: F401
    import deltav.server.clock  # noqa: F401
    from deltav.client.seat import Refused

    samples = {errors.IllegalAction: ("rule.x", "a reason"), MalformedAction: ("a.b", "bad"),
               errors.OptionError: ("scenario", "unknown", ["a"]), errors.ScenarioError: ("f", "r", "src"),
               errors.RecordError: ("differs", 3), errors.StateError: ("$.x", "bad"), JSONInputError: ("body", "r"),
               Refused: ({"type": "error", "code": "bad_json", "message": "m", "field": "x"},)}
    for cls in [DeltavError, *_subclasses(DeltavError)]:
        args = samples.get(cls)
        if args is None:
            try:
                exc = cls("one", "two")
            except TypeError:
                exc = cls("one")
        else:
            exc = cls(*args)
        back = pickle.loads(pickle.dumps(exc))
        assert type(back) is cls and str(back) == str(exc) and back.__dict__ == exc.__dict__, cls

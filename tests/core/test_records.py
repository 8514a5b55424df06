"""Match records verify only if they are exactly what the engine produces, and every unreadable record is
refused with a RecordError naming the field (on the test-only toy game, so no real game is involved)."""

from __future__ import annotations

import json

import pytest

import deltav
from deltav.core.agent import RandomAgent
from deltav.core.errors import RecordError
from deltav.core.match import play_match
from deltav.core.protocol import get_game
from deltav.core.records import MAX_DEPTH, MatchRecord, parse_bytes, replay


def _record_json(seed: int = 5) -> dict:
    record, _, _ = play_match(get_game("toy"), {}, seed, [RandomAgent(), RandomAgent()])
    return json.loads(json.dumps(record.to_json()))


def _replay_json(obj) -> None:
    replay(MatchRecord.from_json(obj))


def test_an_untouched_record_verifies():
    _replay_json(_record_json())


def test_altered_returns_are_caught():
    obj = _record_json()
    obj["returns"] = list(reversed(obj["returns"]))
    with pytest.raises(RecordError, match="returns"):
        _replay_json(obj)


def test_returns_of_another_json_type_are_caught():
    obj = _record_json()
    obj["returns"] = [int(x) for x in obj["returns"]]  # 1 where the engine wrote 1.0
    with pytest.raises(RecordError, match="returns"):
        _replay_json(obj)


def test_missing_returns_are_caught():
    obj = _record_json()
    obj["returns"] = None
    with pytest.raises(RecordError, match="returns"):
        _replay_json(obj)


def test_an_event_integer_turned_boolean_is_caught():
    obj = _record_json()
    i, k = next((i, k) for i, s in enumerate(obj["steps"]) for k, e in enumerate(s["events"])
                if e["type"] == "moved" and e["size"] == 1)
    obj["steps"][i]["events"][k]["size"] = True  # True == 1 in Python: a plain == would let it through
    with pytest.raises(RecordError) as err:
        _replay_json(obj)
    assert err.value.step == i and "event" in str(err.value)


def test_an_action_integer_turned_boolean_or_float_is_caught():
    obj = _record_json()
    i = next(i for i, s in enumerate(obj["steps"]) if s["action"]["type"] == "step" and s["action"]["size"] == 1)
    for bad in (True, 1.0):
        o = json.loads(json.dumps(obj))
        o["steps"][i]["action"]["size"] = bad
        with pytest.raises(RecordError) as err:
            _replay_json(o)
        assert err.value.step == i


def test_a_result_with_another_json_type_is_caught():
    obj = _record_json()
    obj["result"]["winners"] = [True if w == 1 else 0.0 for w in obj["result"]["winners"]]
    with pytest.raises(RecordError, match="result"):
        _replay_json(obj)


@pytest.mark.parametrize("seed", [True, False, 1.0, "5", None, 2**64, -(2**63) - 1])
def test_a_seed_that_is_not_a_64_bit_integer_is_refused(seed):
    obj = _record_json()
    obj["seed"] = seed
    with pytest.raises(RecordError, match=r"\$\.seed"):
        MatchRecord.from_json(obj)


def test_another_engine_version_is_refused_unless_accepted():
    obj = _record_json()
    obj["engine_version"] = "0.0.1"
    with pytest.raises(RecordError, match="engine '0.0.1'"):
        _replay_json(obj)
    replay(MatchRecord.from_json(obj), accept_versions=True)


def test_another_rules_version_is_refused_unless_accepted():
    obj = _record_json()
    obj["rules_version"] = "99"
    with pytest.raises(RecordError, match="toy rules '99'"):
        _replay_json(obj)
    replay(MatchRecord.from_json(obj), accept_versions=True)


def test_options_that_are_not_the_resolved_ones_are_refused():
    obj = _record_json()
    del obj["options"]["scenario"]
    with pytest.raises(RecordError, match="resolved options"):
        _replay_json(obj)


def test_a_seat_count_that_is_not_the_games_is_refused():
    obj = _record_json()
    obj["seats"] = obj["seats"][:1]
    with pytest.raises(RecordError, match="seats"):
        _replay_json(obj)


@pytest.mark.parametrize(
    "field, value, where",
    [
        ("seats", "bot:random", "$.seats"),
        ("seats", [1, 2], "$.seats[0]"),
        ("seats", {"0": "x"}, "$.seats"),
        ("meta", [], "$.meta"),
        ("meta", "x", "$.meta"),
        ("options", [], "$.options"),
        ("options", {"scenario": ["standard"]}, "$.options.scenario"),
        ("steps", {}, "$.steps"),
        ("game", 7, "$.game"),
        ("engine_version", None, "$.engine_version"),
        ("result", [], "$.result"),
        ("returns", ["1"], "$.returns"),
    ],
)
def test_fields_of_the_wrong_type_are_refused_by_name(field, value, where):
    obj = _record_json()
    obj[field] = value
    with pytest.raises(RecordError) as err:
        MatchRecord.from_json(obj)
    assert where in str(err.value)


@pytest.mark.parametrize("field", ["seats", "meta", "returns", "result", "engine_version", "rules_version"])
def test_a_missing_field_is_refused_by_name(field):
    obj = _record_json()
    del obj[field]
    with pytest.raises(RecordError, match=rf"\$\.{field}: missing"):
        MatchRecord.from_json(obj)


def test_a_malformed_step_is_refused_by_path():
    obj = _record_json()
    obj["steps"][2]["player"] = "0"
    with pytest.raises(RecordError, match=r"\$\.steps\[2\]\.player"):
        MatchRecord.from_json(obj)
    obj = _record_json()
    del obj["steps"][3]["events"]
    with pytest.raises(RecordError, match=r"\$\.steps\[3\]\.events: missing"):
        MatchRecord.from_json(obj)


def test_an_option_string_longer_than_any_path_is_refused_by_name():
    obj = _record_json()
    obj["options"]["scenario"] = "s" * 5000  # no file name is that long: the loader would fail with an OSError
    with pytest.raises(RecordError, match=r"\$\.options\.scenario: has 5000 items, at most 4096"):
        MatchRecord.from_json(obj)


def test_an_unknown_top_level_field_is_refused():
    obj = _record_json()
    obj["extra"] = 1
    with pytest.raises(RecordError, match=r"\$\.extra: unknown field"):
        MatchRecord.from_json(obj)


def test_a_lone_surrogate_anywhere_is_refused():
    obj = _record_json()
    obj["options"]["scenario"] = "\ud800"
    with pytest.raises(RecordError, match="surrogate"):
        MatchRecord.from_json(obj)
    text = json.dumps(_record_json()).replace('"random"', '"\\udc00"', 1)
    with pytest.raises(RecordError, match="surrogate"):
        MatchRecord.from_json(parse_bytes(text.encode()))


def test_bytes_that_are_not_utf8_are_refused():
    data = json.dumps(_record_json()).encode().replace(b'"random"', b'"r\xff\xfe"', 1)
    with pytest.raises(RecordError, match="not valid UTF-8"):
        parse_bytes(data)


def test_a_5000_digit_number_is_refused_without_computing_it():
    text = json.dumps(_record_json()).replace('"seed": 5', '"seed": ' + "9" * 5000, 1)
    with pytest.raises(RecordError, match="5000-digit"):
        parse_bytes(text.encode())


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_refused(constant):
    text = json.dumps(_record_json()).replace('"meta": {}', f'"meta": {{"x": {constant}}}', 1)
    with pytest.raises(RecordError, match="not a JSON number"):
        parse_bytes(text.encode())


@pytest.mark.parametrize("depth", [MAX_DEPTH + 5, 100_000])
def test_deep_nesting_is_refused(depth):
    text = json.dumps(_record_json()).replace('"meta": {}', '"meta": {"x": ' + "[" * depth + "]" * depth + "}", 1)
    with pytest.raises(RecordError, match="nested too deeply"):
        MatchRecord.from_json(parse_bytes(text.encode()))


def test_an_unreadable_path_is_a_record_error(tmp_path):
    for path in (tmp_path / "missing.json", tmp_path, "a\x00b", "x" * 5000):
        with pytest.raises(RecordError, match="cannot read"):
            MatchRecord.load(path)


def test_the_record_carries_the_versions_it_is_checked_against():
    obj = _record_json()
    assert obj["engine_version"] == deltav.__version__
    assert obj["rules_version"] == get_game("toy").rules_version


def test_an_unfinished_match_records_null_result_and_returns_and_verifies():
    """A match that stops before its end (a forfeit on the server) records result and returns as null, and a
    forged [0, 0] (what returns() says of an unfinished state) does not verify."""
    import pytest

    from deltav.core.errors import RecordError
    from deltav.core.protocol import get_game
    from deltav.core.records import MatchRecord, replay
    from deltav.core.session import Session
    from deltav.games import load_all

    load_all()
    s = Session(get_game("mining"), {}, 5)
    for _ in range(12):
        seat = s.deciding()[0]
        s.submit(seat, s.legal_actions(seat)[0].to_json())
    assert not s.is_over()
    rec = s.record.to_json()
    assert rec["result"] is None and rec["returns"] is None
    replay(MatchRecord.from_json(rec))
    with pytest.raises(RecordError, match="returns"):
        replay(MatchRecord.from_json({**rec, "returns": [0.0, 0.0]}))

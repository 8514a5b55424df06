"""The checked JSON reader: every shape, every refusal names the path and the reason."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Literal, NotRequired, TypedDict

import pytest

from deltav.core.errors import StateError
from deltav.core.shape import MaxLen, Range, ShapeError, read


class Ship(TypedDict):
    id: str
    fuel: Annotated[int, Range(0, 20)]
    pos: tuple[int, int]
    cargo: NotRequired[list[str]]


class Doc(TypedDict):
    players: Annotated[int, Range(2, 4)]
    ships: Annotated[list[Ship], MaxLen(3)]
    phase: Literal["move", "fire"]
    speed: float | None
    flags: dict[str, bool]


GOOD = {
    "players": 2,
    "ships": [{"id": "a", "fuel": 3, "pos": [1, -1]}, {"id": "b", "fuel": 0, "pos": [0, 0], "cargo": ["ore"]}],
    "phase": "move",
    "speed": 1.5,
    "flags": {"x": True},
}


def test_reads_a_good_document_converting_tuples():
    out = read(Doc, GOOD)
    assert out["ships"][0]["pos"] == (1, -1)
    assert out["ships"][1]["cargo"] == ["ore"]


@pytest.mark.parametrize(
    "patch, path, words",
    [
        ({"players": 5}, "$.players", "above the maximum"),
        ({"players": True}, "$.players", "expected an integer"),
        ({"players": 10**5000}, "$.players", "above the maximum"),
        ({"phase": "dance"}, "$.phase", "expected one of"),
        ({"speed": float("nan")}, "$.speed", "finite"),
        ({"speed": "fast"}, "$.speed", "expected a number or null"),
        ({"ships": [GOOD["ships"][0]] * 4}, "$.ships", "at most 3"),
        ({"ships": [{"id": "a", "fuel": 3}]}, "$.ships[0].pos", "missing"),
        ({"ships": [{"id": "a", "fuel": 30, "pos": [0, 0]}]}, "$.ships[0].fuel", "above the maximum"),
        ({"ships": [{"id": "a", "fuel": 3, "pos": [0, 0, 0]}]}, "$.ships[0].pos", "list of 2"),
        ({"flags": {"x": 1}}, "$.flags.x", "expected a boolean"),
        ({"extra": 1}, "$.extra", "unknown field"),
    ],
)
def test_refusals_name_the_field_and_the_reason(patch, path, words):
    doc = {**GOOD, **patch}
    with pytest.raises(ShapeError) as info:
        read(Doc, doc)
    assert info.value.path == path
    assert words in info.value.reason


def test_a_missing_field_and_a_caller_error_type():
    doc = dict(GOOD)
    del doc["phase"]
    with pytest.raises(StateError) as info:
        read(Doc, doc, error=StateError)
    assert info.value.field == "$.phase"


def test_huge_integers_are_refused_without_a_range():
    with pytest.raises(ShapeError, match="out of range"):
        read(list[int], [10**5000])


def test_deep_nesting_is_a_clear_error():
    deep = json.loads("[" * 50 + "]" * 50)
    with pytest.raises(ShapeError):
        read(list[list[int]], deep)


@dataclass(frozen=True)
class Weapon:
    name: str
    range: Annotated[int, Range(1, 12)]
    tags: tuple[str, ...] = ()


def test_dataclasses_are_built_and_checked():
    assert read(Weapon, {"name": "laser", "range": 9}) == Weapon("laser", 9)
    with pytest.raises(ShapeError, match="unknown field"):
        read(Weapon, {"name": "laser", "range": 9, "rnage": 3})
    with pytest.raises(ShapeError) as info:
        read(list[Weapon], [{"name": "x", "range": 0}])
    assert info.value.path == "$[0].range"


def test_literal_keeps_one_and_true_apart():
    with pytest.raises(ShapeError):
        read(Literal[1, 2], True)
    assert read(Literal[True], True) is True


def test_a_union_with_a_bounded_member_names_the_member_kind():
    with pytest.raises(ShapeError) as err:
        read(Annotated[str, MaxLen(5)] | None, 7)
    assert err.value.reason == "expected a string or null, got 7"


def test_a_union_with_a_bounded_member_names_the_base_type():
    with pytest.raises(ShapeError) as err:
        read(Annotated[int, Range(0)] | Literal["unlimited"], 1.5)
    assert err.value.reason == "expected an integer or one of 'unlimited', got 1.5"

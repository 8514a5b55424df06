"""The one data-file reader: TOML/JSON into frozen dataclasses, every failure a ScenarioError naming the field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import pytest

from deltav.core import datafile
from deltav.core.errors import ScenarioError
from deltav.core.shape import MinLen, Range


@dataclass(frozen=True)
class Ship:
    name: str
    fuel: Annotated[int, Range(0, 50)]
    landed: bool = False


@dataclass(frozen=True)
class Scenario:
    title: str
    ships: Annotated[tuple[Ship, ...], MinLen(1)]


GOOD_TOML = """
title = "Duel"
[[ships]]
name = "corvette"
fuel = 20
[[ships]]
name = "frigate"
fuel = 15
landed = true
"""


def test_toml_reads_into_frozen_records():
    sc = datafile.load(Scenario, GOOD_TOML, "duel.toml")
    assert sc == Scenario("Duel", (Ship("corvette", 20), Ship("frigate", 15, True)))
    with pytest.raises(AttributeError):
        sc.title = "x"  # type: ignore[misc]


def test_json_by_file_name():
    text = '{"title": "Duel", "ships": [{"name": "corvette", "fuel": 3}]}'
    assert datafile.load(Scenario, text, "my/duel.JSON").ships[0].fuel == 3
    assert datafile.load(Scenario, text.encode(), "x", fmt="json").title == "Duel"


@pytest.mark.parametrize(
    ("text", "field", "reason"),
    [
        ('title = "D"\n[[ships]]\nname = "c"\nfuel = 99\n', "ships[0].fuel", "above the maximum 50"),
        ('title = "D"\n[[ships]]\nname = "c"\nfuel = "lots"\n', "ships[0].fuel", "expected an integer"),
        ('title = "D"\n[[ships]]\nname = "c"\n', "ships[0].fuel", "missing"),
        ('title = "D"\n[[ships]]\nname = "c"\nfuel = 1\nspeed = 3\n', "ships[0].speed", "unknown field"),
        ('title = "D"\nships = []\n', "ships", "at least 1"),
        ('title = \n', "(file)", "not valid TOML"),
        ("[1, 2]", "(file)", "expected an object"),
    ],
)
def test_errors_name_the_field_the_reason_and_the_file(text, field, reason):
    source = "scenario.json" if text.startswith("[") else "scenario.toml"
    with pytest.raises(ScenarioError) as e:
        datafile.load(Scenario, text, source)
    assert e.value.field == field
    assert reason in e.value.reason
    assert e.value.source == source
    assert str(e.value).startswith(f"{source}: {field}: ")


def test_bad_bytes_and_huge_files_are_refused_cleanly():
    with pytest.raises(ScenarioError, match="not UTF-8"):
        datafile.load(Scenario, b"title = \xff", "x.toml")
    with pytest.raises(ScenarioError, match="larger than"):
        datafile.parse("#" * (datafile.MAX_BYTES + 1), "x.toml")
    with pytest.raises(ScenarioError, match="nested too deeply"):
        datafile.parse("[" * 100_000 + "]" * 100_000, "x.json")


def test_fail_uses_the_same_form():
    with pytest.raises(ScenarioError) as e:
        datafile.fail("ships[1].hex", "not on the map", "duel.toml")
    assert str(e.value) == "duel.toml: ships[1].hex: not on the map"

"""Scenario names and user component files: every bad name or malformed file is a ScenarioError (issue 18)."""

from __future__ import annotations

import contextlib
import json
import os
import tomllib
from pathlib import Path

import pytest

from deltav.core.errors import ScenarioError
from deltav.core.rng import Rng
from deltav.games.mining import MiningGame
from deltav.games.mining.scenarios import SCENARIO_FILES

DATA = Path(__file__).resolve().parents[2] / "src" / "deltav" / "games" / "mining" / "data"
BAD_NAMES = ("grandtour", "a\x00b", "\ud800", "x" * 5000, "", "/", ".", "/proc/self/mem/x")


@pytest.mark.parametrize("name", BAD_NAMES)
def test_an_unknown_or_bad_scenario_name_says_so_and_lists_the_built_in_ids(name):
    with pytest.raises(ScenarioError) as err:
        MiningGame.new_initial_state({"scenario": name})
    text = str(err.value)
    assert "neither a built-in scenario id nor a readable file" in text
    for sid in SCENARIO_FILES:
        assert sid in text
    assert len(text) < 400


def test_a_directory_or_binary_file_is_not_a_scenario(tmp_path):
    with pytest.raises(ScenarioError, match="neither a built-in"):
        MiningGame.new_initial_state({"scenario": str(tmp_path)})
    binary = tmp_path / "mix.toml"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(ScenarioError, match="not UTF-8"):
        MiningGame.new_initial_state({"scenario": str(binary)})


def test_a_malformed_user_file_names_the_field_and_the_file(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('[scenario]\nid = "x"\n\n[[contracts]]\nid = "K1"\nminerals = ["unobtainium"]\n')
    with pytest.raises(ScenarioError) as err:
        MiningGame.new_initial_state({"scenario": str(f)})
    assert "contracts[0].minerals[0]" in str(err.value) and str(f) in str(err.value)
    f.write_text('[[tiles]]\nkind = "sabotage"\ncount = 1000000000000\n')
    with pytest.raises(ScenarioError, match="count"):
        MiningGame.new_initial_state({"scenario": str(f)})
    g = tmp_path / "deep.json"
    g.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ScenarioError, match="nested too deeply"):
        MiningGame.new_initial_state({"scenario": str(g)})


def _mutate(obj, rng: Rng, depth: int = 0):
    junk = (None, True, 0, -1, 10**12, 1.5, "", "x", [], {}, [1, 2], {"a": 1}, ["omnidium"], "alien_encounter")
    if isinstance(obj, dict) and obj and rng.below(3):
        k = sorted(obj)[rng.below(len(obj))]
        obj[k] = _mutate(obj[k], rng, depth + 1) if rng.below(2) else junk[rng.below(len(junk))]
        return obj
    if isinstance(obj, list) and obj and rng.below(3):
        i = rng.below(len(obj))
        obj[i] = _mutate(obj[i], rng, depth + 1) if rng.below(2) else junk[rng.below(len(junk))]
        return obj
    return junk[rng.below(len(junk))]


def test_random_malformed_component_files_give_scenario_errors_only(tmp_path):
    rng = Rng(5)
    base = tomllib.loads((DATA / "standard.toml").read_text(encoding="utf-8"))
    path = tmp_path / "fuzz.json"
    for _ in range(400):
        data = _mutate(json.loads(json.dumps(base)), rng)
        path.write_text(json.dumps(data))
        with contextlib.suppress(ScenarioError):  # anything else fails the test
            MiningGame.new_initial_state({"scenario": str(path)})
    os.remove(path)

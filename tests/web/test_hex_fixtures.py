"""The hex fixtures the client's tests use (web/fixtures/hex.json) are exactly what deltav.core.hexgrid answers
now: regenerating them gives the committed file, byte for byte."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from deltav.core import hexgrid

SCRIPT = Path(__file__).resolve().parents[2] / "web" / "fixtures" / "make_hex_fixtures.py"


def _load():
    spec = importlib.util.spec_from_file_location("make_hex_fixtures", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_fixtures_equal_a_fresh_generation():
    mod = _load()
    assert mod.FIXTURE.read_text() == mod.render(), "stale: run PYTHONPATH=src python web/fixtures/make_hex_fixtures.py"
    assert mod.main(["--check"]) == 0


def test_fixtures_hold_the_engine_answers():
    data = json.loads(_load().FIXTURE.read_text())
    assert data["format"] == "deltav-hex-fixtures/1"
    assert data["directions"] == [list(d) for d in hexgrid.DIRECTIONS]
    for row in data["line"][:50]:
        assert [list(h) for h in hexgrid.line(tuple(row["a"]), tuple(row["b"]), row["sign"])] == row["out"]
    assert any(row["ambiguous"] for row in data["analyze_line"])
    assert len(data["from_pixel"]) > 1000

"""The words of a mining match (``text.Words``, ``MiningGame.describer``): names, not ids; plurals; and a text
never tells its audience more than its event does."""

from __future__ import annotations

import re

import pytest

from deltav.core.match import play_match
from deltav.games.mining import MiningGame
from deltav.games.mining.bots import ScriptedAgent
from deltav.games.mining.scenarios import KINDS

NAMES = ["Ann", "Ben", "Cleo", "Dev"]
# engine words a player must never read: tile ids, counter ids, 0-based players, audiences, singular plurals
ENGINE_WORDS = re.compile(r"\bt\d\d\b|\bb\d-|[Pp]layer \d|\(to \[|\b1 (tiles|points|rockets)\b|"
                          r"\bsabotage \d|alien_encounter|mineral_scan|rocket_acquisition|pirate_attack|meteor_storm|"
                          r"\b(alphatite|betamite|gammatite|deltamite|omnidium)\b")
MINERAL_FACE = re.compile(r"\b(Alphatite|Betamite|Gammatite|Deltamite|Omnidium) (\d)\b")


def games():
    for players, scenario, seed in ((2, "standard", 4), (3, "variant-b", 21), (4, "standard", 9)):
        opts = {"players": players, "scenario": scenario}
        rec, _st, _ = play_match(MiningGame, opts, seed, [ScriptedAgent(strict=True) for _ in range(players)])
        yield opts, rec


@pytest.mark.parametrize("opts,rec", list(games()), ids=["2p", "3p-variant-b", "4p"])
def test_every_text_names_players_tiles_and_counters_in_words(opts, rec):
    n = opts["players"]
    describe = MiningGame.describer(opts, NAMES[:n])
    cfg = MiningGame.config(opts)
    faces = {cfg.ids[t]: (KINDS[cfg.kinds[t]].capitalize(), str(cfg.values[t])) for t in range(len(cfg.kinds))}
    types = set()
    for step in rec.steps:
        for obj in [step.action] + step.events:
            line = describe(obj)
            types.add(obj["type"])
            assert not ENGINE_WORDS.search(line), (obj, line)
            assert "=" not in line, (obj, line)  # never the generic key=value form
            for field in ("player", "thief", "victim"):
                if isinstance(obj.get(field), int):
                    assert NAMES[obj[field]] in line, (obj, line)
            if obj.get("to") is None and obj["type"] not in ("move", "reveal", "look", "sabotage-move"):
                # a public event names only the tiles it carries itself (a revealed tile, a collected contract)
                allowed = set()
                if obj.get("kind") and obj.get("value"):
                    allowed.add((obj["kind"].capitalize(), str(obj["value"])))
                for t in obj.get("tiles", ()):
                    allowed.add(faces[t])
                assert set(MINERAL_FACE.findall(line)) <= allowed, (obj, line)
    assert {"turn-started", "contract-fulfilled", "tile-revealed", "tile-seen", "looked", "game-ended"} <= types


def test_sentences():
    opts = {"players": 3}
    w = MiningGame.describer(opts, ["Ann", "Ben", "Cleo"])
    sab = next(MiningGame.config(opts).ids[t] for t, k in enumerate(MiningGame.config(opts).kinds) if KINDS[k] == "sabotage")
    assert w({"type": "contract-fulfilled", "player": 1, "contract": "C01", "tiles": [MiningGame.config(opts).ids[0]],
              "points": 1}) == "Ben fulfils contract C01 with 1 tile (Alphatite 1) for 1 point"
    assert w({"type": "stolen", "thief": 0, "victim": 2, "item": "b2-gammatite"}) == "Ann steals Cleo's Gammatite counter"
    assert w({"type": "stolen", "thief": 0, "victim": 2, "item": "b1-gammatite"}) == (
        "Ann steals Ben's Gammatite counter from Cleo")
    assert w({"type": "stolen", "thief": 0, "victim": 2, "item": sab}) == "Ann steals the Sabotage from Cleo"
    assert w({"type": "bribe-spent", "player": 0, "bribe": "b0-alphatite", "purpose": "survey"}) == (
        "Ann spends the Alphatite counter on a satellite survey (−2 points)")
    assert w({"type": "rockets-to-station", "square": 10, "counts": [2, 1, 0]}) == (
        "Ann's 2 rockets and Ben's rocket on r2 c4 return to the station")
    assert w({"type": "game-ended", "reason": "the last contract was fulfilled", "scores": [9, 9, 3],
              "winners": [0, 1]}) == ("Game over: the last contract was fulfilled. Points: Ann 9, Ben 9, Cleo 3; "
                                      "Ann and Ben share the win")
    assert w({"type": "tile-seen", "player": 2, "square": 0, "tile": "t40", "kind": "alien_encounter", "value": 0,
              "to": [2]}) == "Cleo secretly sees an Alien Encounter on r1 c1"
    assert w({"type": "move", "frm": 24, "to": 10, "bump": 1}) == (
        "Move a rocket from the station to r2 c4, bumping Ben's rocket (both go back to the shipyards)")


def test_without_names_or_components():
    """``describe_value`` (no match): seats are "Player 1"..., tiles named from the default components; a describer
    without components leaves a tile id unnamed ("an incident"), never shown."""
    assert MiningGame.describe_value({"type": "turn-started", "player": 0, "turn": 1}) == "Turn 1: Player 1 to play"
    assert MiningGame.describe_value({"type": "stolen", "thief": 1, "victim": 0, "item": "t44"}) == (
        "Player 2 steals the Sabotage from Player 1")
    bare = MiningGame.describer(None, ["Ann", "Ben"])
    assert bare({"type": "stolen", "thief": 1, "victim": 0, "item": "t44"}) == "Ben steals an incident from Ann"
    assert bare({"type": "discard", "incident": "t44"}) == "Play an incident"
    assert MiningGame.describer({"scenario": "/nonexistent/file.toml"}, ["A", "B"])(
        {"type": "turn-started", "player": 1, "turn": 2}) == "Turn 2: B to play"

"""The words of Knight Hawks (text.py, briefing.py, summary.py): every action and event of whole matches in every
scenario is a sentence with ship names and classes, the seats' names and weapons by name, never an engine id
("zgata", "a1-destroyer", "trap-3", "w2", "player 0", a hex "[3,-2]"); a private event says it is secret and no
text tells a viewer a trap it may not know; the briefing and the match summary read the scenario and the match."""

from __future__ import annotations

import re

import pytest

from deltav.core.match import play_match
from deltav.core.protocol import check_briefing, check_summary
from deltav.core.session import Session
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks.bots.scripted import ScriptedCaptain
from deltav.games.knighthawks.scenarios import BUILTIN
from deltav.games.knighthawks.text import generic

NAMES = ["Alice", "Hard bot"]
ENGINE_WORDS = re.compile(r"\btrap-|\b[ab]\d+-[a-z_]+|\bw\d\b|\bd\d\b|player \d|side \d|\[-?\d+, ?-?\d+\]|_")


def played(scenario: str, seed: int = 3):
    rec, state, _ = play_match(KnightHawks, {"scenario": scenario}, seed, [ScriptedCaptain(), ScriptedCaptain()])
    return rec, state


@pytest.mark.parametrize("scenario", BUILTIN)
def test_every_action_and_event_is_a_sentence_without_engine_ids(scenario):
    rec, state = played(scenario)
    d = KnightHawks.describer(rec.options, NAMES)
    ids = {s.id for s in state.ships if s.id != s.name}
    texts = []
    for step in rec.steps:
        texts.append((step.action, d(step.action)))
        texts.extend((e, d(e)) for e in step.events)
    seen = set()
    for value, text in texts:
        seen.add(value["type"])
        assert text != generic(value), text  # not the generic "type field=value" wording
        assert not ENGINE_WORDS.search(text), text
        for sid in ids:
            assert not re.search(rf"\b{re.escape(sid)}\b", text), (sid, text)
    assert {"turn_started", "attack", "damage", "moved", "assign", "course", "step"} <= seen
    started = [t for v, t in texts if v["type"] == "turn_started"]
    assert any("Alice (UPF)" in t for t in started) and any("Hard bot (Sathar)" in t for t in started)


def test_the_escort_in_words():
    d = KnightHawks.describer({"scenario": "escort"}, NAMES)
    assert d({"type": "assign", "ship": "zgata", "weapon": 1, "target": "venomous"}) == (
        "Z'Gata (frigate): fire its laser battery at Venomous (destroyer)")
    assert d({"type": "fired", "player": 0, "attacks": [["zgata", 0, "venomous"]]}) == (
        "Alice (UPF) fires 1 weapon: Z'Gata's laser cannon at Venomous")
    assert d({"type": "fired", "player": 1, "attacks": []}) == "Hard bot (Sathar) holds fire"
    attack = {"type": "attack", "source": "zgata", "weapon": "LB", "target": "venomous", "hex": [0, 0], "range": 3,
              "column": "RH", "chance": 45, "icms": 0, "evade": False, "roll": 37, "hit": True}
    assert d(attack) == ("Z'Gata (frigate) fires its laser battery at Venomous (destroyer): range 3, against its "
                         "reflective hull, 45% to hit; rolls 37: HIT")
    mine = dict(attack, source="trap-1", weapon="M", column="none", icms=2)
    assert d(mine).startswith("A mine pattern attacks Venomous (destroyer): range 3, against no defense, 2 ICMs")
    dmg = {"type": "damage", "ship": "venomous", "source": "zgata", "roll": 73, "modified": 83, "result": "defense",
           "effect": "defense", "system": "MS", "hull": 0, "note": ""}
    assert d(dmg) == "Venomous (destroyer) is hit (d100 73 + 10 = 83): defense hit: its masking screen is destroyed"
    fell = dict(dmg, roll=66, modified=66, result="weapon", effect="hull", system="", hull=9, note="no listed system")
    assert d(fell).endswith("weapon hit, taken as a hull hit (no listed system): 9 hull points")
    double = dict(dmg, roll=5, modified=5, result="hull", effect="hull", system="", hull=14)
    assert d(double).endswith("(d100 5): double hull hit: 14 hull points")
    fire = dict(dmg, source="fire", roll=50, modified=70, result="weapon", effect="weapon", system="LB")
    assert d(fire).startswith("The fire aboard Venomous (destroyer) burns (d100 50 + 20 = 70)")
    assert d({"type": "destroyed", "ship": "gullwind", "cause": "hull destroyed by f1"}) == (
        "Gullwind (freighter) is destroyed: its hull is gone (hit by Sathar fighter 1)")
    assert d({"type": "disengaged", "ship": "gullwind", "hex": [15, -7]}) == (
        "Gullwind (freighter) has left the battle by the east edge")
    assert d({"type": "repair", "ship": "zgata", "target": "w1", "points": 40}) == (
        "Z'Gata (frigate): 40 DCR to repair its laser battery")
    roll = {"type": "repair_roll", "ship": "zgata", "target": "hull", "points": 40, "roll": 12, "outcome": "repaired",
            "restored": 6, "to": [0]}
    assert d(roll) == ("Z'Gata (frigate) repairs its hull with 40 DCR: rolls 12, repaired (+6 hull points) "
                       "(secret: Alice only)")
    over = {"type": "game_over", "winners": [0], "reason": "Gullwind escaped", "scores": [8, 0]}
    assert d(over) == "Game over: Alice (UPF) wins (Gullwind escaped). Points: UPF 8, Sathar 0."
    assert KnightHawks.describe_value({"type": "course", "ship": "x"}).startswith("course")  # malformed: generic


def test_each_seeker_is_named_apart_by_who_dropped_it_and_when():
    """The activate action says which seeker: one placed before the battle by its number, one dropped in play by
    its ship and turn (no two of a decision read alike: tests/conformance/test_action_words.py)."""
    d = KnightHawks.describer({"scenario": "fleet_battle"}, NAMES)
    texts = [d({"type": "activate", "seeker": "trap-4ae817", "layer": "clinton", "turn": 3}),
             d({"type": "activate", "seeker": "trap-e4f354", "layer": "clinton", "turn": 5}),
             d({"type": "activate", "seeker": "trap-e4f355", "layer": "osprey", "turn": 5})]
    assert texts == ["Activate the seeker Admiral Clinton (battleship) dropped on turn 3",
                     "Activate the seeker Admiral Clinton (battleship) dropped on turn 5",
                     "Activate the seeker Osprey (light cruiser) dropped on turn 5"]
    # a record from before the activate action named the ship: the old words
    assert d({"type": "activate", "seeker": "trap-4ae817"}) == "Activate a seeker dropped during the battle"


def test_the_default_names_are_the_seat_names():
    d = KnightHawks.describer({"scenario": "escort"}, None)
    assert d({"type": "turn_started", "turn": 2, "player": 1}) == "Turn 2: Player 2 (Sathar) moves"


def test_no_text_tells_a_viewer_a_trap_it_may_not_know():
    """Along a match with hidden traps, the texts of the events each seat (and a spectator) receives hold none of
    that viewer's secret tokens, and the scenario's traps are never located in words."""
    for scenario in ("station_assault", "fleet_battle", "escort"):
        rec, _ = played(scenario, seed=5)
        s = Session(KnightHawks, rec.options, rec.seed)
        d = KnightHawks.describer(rec.options, NAMES)
        for st in rec.steps:
            s.submit(st.player, st.action)
            for viewer in (0, 1, None):
                secret = s.state.secret_tokens(viewer)
                for e in s.snapshot(viewer, since=s.step - 1)["log"]:
                    text = d(e["event"])
                    assert not any(tok in text for tok in secret), text


def test_skirmish_ships_are_named_by_class():
    state = KnightHawks.new_initial_state({"scenario": "skirmish", "fleet0": "heavy_cruiser,2*fighter"})
    assert [s.name for s in state.ships if s.owner == 0] == ["Heavy cruiser 1", "Fighter 2", "Fighter 3"]


def test_the_briefing_reads_the_scenario_and_hides_the_enemys_traps():
    b = KnightHawks.briefing({"scenario": "station_assault"}, 1, NAMES)
    assert b["title"] == "Assault on Ken'zah Station"
    assert b["objective"] == "Destroy Ken'zah Station (fortified station) within 12 turns."
    assert [x["name"] for x in b["sides"]] == NAMES
    assert b["sides"][1]["goal"] == "Sathar: destroy Ken'zah Station (fortified station) within 12 turns."
    assert "Star Scourge (heavy cruiser)" in b["sides"][1]["forces"]
    assert "UPF fighter A, docked at Ken'zah Station" in b["sides"][0]["forces"]
    assert check_briefing(b, 2) == b
    assert "Sathar win when Ken'zah Station" in b["wins"]
    # the UPF's mines and seeker: counted for the Sathar seat, described for the UPF seat
    assert any("UPF placed 3 hidden traps (mine patterns or seekers)" in n for n in b["notes"])
    own = KnightHawks.briefing({"scenario": "station_assault"}, 0, NAMES)
    assert own["objective"] == "Keep Ken'zah Station (fortified station) alive for 12 turns."
    assert any("Your side placed 2 mine patterns and a seeker" in n for n in own["notes"])
    watcher = KnightHawks.briefing({"scenario": "station_assault", "turn_limit": 5}, None, None)
    assert watcher["sides"][0]["name"] == "Player 1"
    assert "within 5 turns" in watcher["sides"][1]["goal"]
    assert not any("Your side" in n for n in watcher["notes"])


def test_the_match_summary_counts_what_happened():
    rec, state = played("escort")
    events = [e for st in rec.steps for e in st.events]
    s = KnightHawks.match_summary(state, events, NAMES)
    assert check_summary(s, 2) == s
    rows = s["scores"]["rows"]
    assert s["scores"]["columns"] == ["Player", "Side", "Ships destroyed", "Ships driven off", "Points"]
    assert [r[4] for r in rows] == list(state.scores) and [r[0] for r in rows] == NAMES
    stats = {x["label"]: x["values"] for x in s["stats"]}
    attacks = [e for e in events if e["type"] == "attack"]
    assert sum(stats["Shots fired"]) == len(attacks)
    assert sum(stats["Hits"]) == sum(e["hit"] for e in attacks)
    hull = sum(e["hull"] for e in events if e["type"] == "damage")
    assert sum(stats["Hull points dealt"]) == hull
    dead = [e["ship"] for e in events if e["type"] == "destroyed"]
    assert sum(stats["Enemy ships destroyed"]) == len(dead)
    assert "Own ships escaped" in stats  # an exit scenario
    assert s["notes"][0] == "Objective: UPF must get Gullwind off the map by the east edge within 12 turns."
    assert any(state.result().reason in n for n in s["notes"])

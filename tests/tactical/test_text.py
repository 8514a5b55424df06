"""The tactical wording of actions and events (text.py, issue 26.11): every value has its own sentence in words
(players by their seat names, ships by side and class label, places in words, no ids, hex keys or audience
prefixes), the numbers follow the in-game help (burn keys 1-6, penalties off the die), a text never depends on
events its reader could not see, and the events of older records are worded too."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from deltav.core.records import MatchRecord
from deltav.core.rng import Rng
from deltav.core.session import Session
from deltav.games.tactical import text
from deltav.games.tactical.messages import ACTIONS, EVENTS, Order
from deltav.games.tactical.scenarios import SCENARIO_IDS

from .helpers import GAME

NAMES = ["Alice", "Bob"]
# engine words a player must never read: ids, hex keys, audiences, engine seat numbers, a negative zero
ENGINE_WORDS = re.compile(r"\bp[01]s\d|\bp[01]ob\d|\bord\d|-?\d+,-?\d+\b|\(to |[Pp]layer [01]\b|-0\b|None|\bunseen-")


def words(v, names=NAMES, options=None):
    return GAME.describer(GAME.resolve_options(options or {"scenario": "duel"}), names)(v)


def test_every_action_and_event_tag_is_worded():
    source = inspect.getsource(text)
    missing = [cls.TYPE for cls in (*ACTIONS, *EVENTS) if f'"{cls.TYPE}"' not in source]
    assert not missing


def test_orders_name_the_ship_by_side_and_class_and_use_the_helps_direction_keys():
    assert words(Order("p0s0", 0)) == "Alice's frigate: burn 1 E"
    assert words(Order("p1s0", 1, 3)) == "Bob's frigate: burn 2 NE + overload 4 W"
    assert words(Order("p0s0", None)) == "Alice's frigate: coast"
    assert words(Order("p0s0", 5, land=True)) == "Alice's frigate: burn 6 SE, land"
    # describe_value: the default options (Bi-Planetary's corvettes) and seat names
    assert GAME.describe_value(Order("p0s0"), NAMES) == "Alice's corvette: coast"
    assert GAME.describe_value(Order("p0s0")) == "Player 1's corvette: coast"


def test_each_weak_gravity_hex_a_course_may_ignore_reads_apart():
    """Two of Io's weak-gravity hexes both read "Io's weak gravity at 1 hex SE of Jupiter" (measured from the
    nearest body, Jupiter): each is named by its side of the moon (tests/conformance/test_action_words.py)."""
    opts = {"scenario": "interplanetary_war"}
    texts = [words(Order("p1s0", 5, weak=(k,)), options=opts) for k in ("-2,-15", "0,-16", "-2,-14", "-1,-14", "0,-15")]
    assert texts[0] == "Bob's ship 1: burn 6 SE, ignoring Io's weak gravity W of Io"
    assert len(set(texts)) == 5 and not any(ENGINE_WORDS.search(t) for t in texts)


def test_attacks_say_strengths_odds_and_penalties_in_words():
    ev = {"type": "attack_declared", "attackers": ["p0s0", "p0s1", "p0s2"], "target": "p1s0", "strength": 4,
          "defense": 2, "odds": "2:1", "range_mod": 2, "velocity_mod": 1, "heroism": 0}
    assert words(ev, options={"scenario": "convoy"}) == (
        "Alice's liner, tanker and frigate attack Bob's corsair A: strength 4 against 2, odds 2:1 "
        "(range -2, velocity -1)")


def test_private_events_carry_no_audience_prefix_and_places_are_words():
    landed = {"type": "ship_landed", "ship": "p0s0", "hex": "-8,-6", "body": "Mars", "to": [0]}
    assert words(landed, options={"scenario": "biplanetary"}) == "Alice's corvette lands at the NE base of Mars"
    moved = {"type": "ship_moved", "ship": "p1s0", "start": "-1,6", "path": ["-1,6", "0,5"], "destination": "0,5",
             "velocity": [1, -1], "fuel_spent": 0, "fuel": 20, "gravity_queued": [], "to": None}
    assert words(moved) == "Bob's frigate moves from 3 hexes SE of Sol to 2 hexes SW/SE of Mercury, speed 1 NE"


def test_a_move_into_orbit_says_so_and_a_velocity_never_reads_minus_zero():
    moved = {"type": "ship_moved", "ship": "p0s0", "start": "-8,-7", "path": ["-8,-7", "-8,-6"],
             "destination": "-8,-6", "velocity": [0, 1], "fuel_spent": 1, "fuel": 9,
             "gravity_queued": [["-8,-6", 4, False]], "to": None}
    got = words(moved, options={"scenario": "biplanetary"})
    assert got.endswith("speed 1 SE, 1 fuel burnt (9 left), orbiting Mars") and "-0" not in got


def test_a_torpedo_launch_says_how_far_it_is_boosted_and_which_way():
    """The boost is 1 or 2 hexes toward a direction key: both numbers are said (it read "boosted 2 NE" for both)."""
    one = text.describe({"type": "launch", "ship": "p0s0", "kind": "torpedo", "boost": 1, "boost_dir": 1}, False)
    two = text.describe({"type": "launch", "ship": "p0s0", "kind": "torpedo", "boost": 2, "boost_dir": 1}, False)
    assert one == "Player 1's corvette: launch a torpedo, boosted 1 hex toward 2 NE"
    assert two == "Player 1's corvette: launch a torpedo, boosted 2 hexes toward 2 NE"


def test_ordnance_is_named_by_kind_and_launcher_once_a_public_launch_said_so():
    d = GAME.describer(GAME.resolve_options({"scenario": "duel"}), NAMES)
    launch = {"type": "ordnance_launched", "ordnance": "ord1", "ship": "p0s0", "kind": "torpedo", "hex": "3,0",
              "velocity": [-1, 1], "to": None}
    assert d(launch) == "Alice's frigate launches a torpedo at 3 hexes E of Sol, speed 1 SW"
    assert d({"type": "ordnance_removed", "ordnance": "ord1", "reason": "base", "to": None}) == \
        "The torpedo from Alice's frigate hits a base"
    hidden = {"type": "ordnance_launched", "ordnance": "ord2", "ship": None, "kind": "nuke", "hex": "3,0",
              "velocity": [0, 0], "to": None}
    assert d(hidden) == "A nuke is launched at 3 hexes E of Sol by a ship out of sight, stopped"


def test_two_ships_of_a_class_get_letters_and_fleets_get_their_labels_when_they_spawn():
    """Event texts label a fleet once its public ``fleet_spawned`` was worded; action texts once the describer
    was taught it (``learn``, which the session calls with every public event in order); a describer nobody
    taught names a fleet-built ship by its number."""
    d = GAME.describer(GAME.resolve_options({"scenario": "fleet_action"}), NAMES)

    def landed(sid):
        return d({"type": "ship_landed", "ship": sid, "hex": "-8,-6", "body": "Mars", "to": None})

    assert landed("p0s1") == "Alice's ship 2 lands at the NE base of Mars"  # before the fleets spawn
    assert d({"type": "fleet_spawned", "player": 0, "ships": [
        ["p0s0", "corvette", "-8,-6"], ["p0s1", "frigate", "-10,-4"], ["p0s2", "corvette", "-8,-5"]]}) == (
        "Alice's fleet arrives: corvette A at the NE base of Mars; frigate at the SW base of Mars; corvette B at "
        "the E base of Mars")
    assert [landed(f"p0s{k}").split(" lands")[0] for k in range(3)] == [
        "Alice's corvette A", "Alice's frigate", "Alice's corvette B"]
    assert d(Order("p0s1")) == "Alice's ship 2: coast"  # describing an event teaches the action texts nothing
    d.learn({"type": "fleet_spawned", "player": 0, "ships": [
        ["p0s0", "corvette", "-8,-6"], ["p0s1", "frigate", "-10,-4"], ["p0s2", "corvette", "-8,-5"]]})
    assert d(Order("p0s1")) == "Alice's frigate: coast"  # learn() (the session's, in order) does
    assert d.signature() == (((0, (("p0s0", "corvette"), ("p0s1", "frigate"), ("p0s2", "corvette"))),), ())
    escape = GAME.describer(GAME.resolve_options({"scenario": "escape"}), NAMES)
    assert [escape(Order(f"p0s{k}")) for k in range(3)] == [
        "Alice's transport A: coast", "Alice's transport B: coast", "Alice's transport C: coast"]


def test_surrender_is_named_as_the_rules_name_it_and_says_what_follows():
    assert words({"type": "surrender"}).startswith("Surrender: every ship you control strikes its colours")
    assert "stay in play" in words({"type": "surrender"})
    assert "other side wins" in words({"type": "surrender"}, options={"scenario": "duel", "surrender_ends_game": True})


def _playout(scenario, seed, steps=400):
    s = Session(GAME, {"scenario": scenario, "turn_limit": 12}, seed, ["a", "b"], names=NAMES)
    r = Rng(seed)
    texts = []
    for _ in range(steps):
        if s.is_over():
            break
        p = list(s.waiting_for())[0]
        texts += [e["text"] for e in s.snapshot(p)["legal"]]
        legal = [a for a in s.legal_actions(p) if a.TYPE != "surrender"]
        s.submit_action(p, legal[r.below(len(legal))])
    for viewer in (0, 1, None):
        texts += [e["text"] for e in s.log(viewer, 0)]
    return s, texts


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_random_games_read_in_words_with_no_engine_words(scenario):
    for seed in range(2):
        _s, texts = _playout(scenario, seed)
        bad = [t for t in texts if ENGINE_WORDS.search(t) or '="' in t or "=[" in t or "=null" in t]
        assert not bad, bad[:5]
        assert any("Alice" in t or "Bob" in t for t in texts)


@pytest.mark.parametrize("scenario", ["duel", "escape", "convoy", "fleet_action"])
def test_a_public_text_is_the_same_whether_or_not_the_describer_saw_private_events(scenario):
    """The describer remembers only public events: one describer fed every event (a seat's log) and one fed
    only the public ones (the spectator's) write every public event the same."""
    s, _ = _playout(scenario, 4)
    events = [e for rows in (s.log(0, 0), s.log(1, 0)) for e in rows]
    events = sorted({(e["step"], json.dumps(e["event"], sort_keys=True)): e for e in events}.values(),
                    key=lambda e: e["step"])
    everything = GAME.describer(s.options, NAMES)
    public_only = GAME.describer(s.options, NAMES)
    for e in events:
        full = everything(e["event"])
        if not e["event"].get("to"):
            assert public_only(e["event"]) == full


def test_events_of_a_record_made_before_the_new_wording_are_all_worded():
    """A Convoy record written by the engine before issue 26 (tests/tactical/data/record_convoy_before_26.json):
    it replays, and each of its events reads in words."""
    rec = MatchRecord.from_json(json.loads((Path(__file__).parent / "data" / "record_convoy_before_26.json").read_text()))
    s = Session.replay(rec, GAME, names=NAMES)
    d = GAME.describer(s.options, NAMES)
    texts = [d(e) for step in rec.steps for e in step.events]
    assert texts and not [t for t in texts if ENGINE_WORDS.search(t) or "=" in t]


def _fleet_session(seed: int):
    """A Fleet Action session played by random legal actions until both fleets have spawned."""
    s = Session(GAME, {"scenario": "fleet_action"}, seed, ["a", "b"], names=NAMES)
    r = Rng(seed)
    while sum(e["event"]["type"] == "fleet_spawned" for e in s.log(None, 0)) < 2:
        p = list(s.waiting_for())[0]
        legal = [a for a in s.legal_actions(p) if a.TYPE != "surrender"]
        s.submit_action(p, legal[r.below(len(legal))])
    return s


def test_a_fleet_built_ship_is_named_by_its_class_in_the_legal_entries_and_after_new_names():
    """Issue 27's left-alone item: in Fleet Action and Interplanetary War the legal entries said "Alice's ship 3"
    for a ship bought in the fleet phase; the session now teaches the describer the public fleets as they
    spawn, so every later text names the ship by its class, and a describer rebuilt with new names learns them
    again."""
    s = _fleet_session(3)
    seat = s.waiting_for()[0]
    texts = [e["text"] for e in s.snapshot(seat)["legal"]]
    assert texts and not any(re.search(r"'s ship \d", t) for t in texts), texts[:5]
    assert any("corvette" in t or "frigate" in t or "corsair" in t or "transport" in t or "packet" in t
               or "dreadnaught" in t or "torch" in t or "liner" in t for t in texts), texts[:5]
    s.set_names(["Ann", "Ben"])
    again = [e["text"] for e in s.snapshot(seat)["legal"]]
    assert not any(re.search(r"'s ship \d", t) for t in again), again[:5]


def test_two_nukes_in_sight_are_told_apart_by_their_launchers():
    """Issue 26's left-alone item: two enemy nukes both read "fire at the enemy nuke"; a nuke launched in sight
    (a public ``ordnance_launched`` the session taught the describer) is named by its launcher, one launched out
    of sight stays "the enemy nuke"."""
    from deltav.games.tactical.messages import Fire

    d = GAME.describer(GAME.resolve_options({"scenario": "fleet_action"}), NAMES)
    d.learn({"type": "fleet_spawned", "player": 1, "ships": [["p1s0", "corsair", "2,2"], ["p1s1", "frigate", "2,3"]]})
    for oid, ship in (("ord1", "p1s0"), ("ord2", "p1s1")):
        d.learn({"type": "ordnance_launched", "ordnance": oid, "ship": ship, "kind": "nuke", "hex": "2,2",
                 "velocity": [1, 0], "to": None})
    d.learn({"type": "ordnance_launched", "ordnance": "ord3", "ship": None, "kind": "nuke", "hex": "5,5",
             "velocity": [0, 0], "to": None})
    assert d(Fire("ord1")) == "fire at the nuke from Bob's corsair"
    assert d(Fire("ord2", 2)) == "fire at the nuke from Bob's frigate with strength 2"
    assert d(Fire("ord3")) == "fire at the enemy nuke"
    assert d.signature()[1] == (("ord1", "p1s0"), ("ord2", "p1s1"))

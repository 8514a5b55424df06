"""The words of a Deep Space Combat match (``text.Words`` through ``DeepSpaceGame.describer``): seats by their names,
ships by owner and public label, no engine ids, one line per design for its designer only, the generic wording for
malformed values."""

from __future__ import annotations

import random
import re

from deltav.core.protocol import Game
from deltav.core.session import Session
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.messages import (
    Done,
    EndShip,
    NewShip,
    SetStat,
    UseFleet,
    WeaponDamage,
    WeaponTargeting,
)

#: engine words a player must never read: ship ids, 0-based players, axial coordinates, key=value
ENGINE = re.compile(r"\bs\d+-\d+\b|\bplayer \d\b|-?\d+, -?\d+\b|\w=|\bdq\b|\bdr\b|_")


def describer(options, names=None):
    return DeepSpaceGame.describer(DeepSpaceGame.resolve_options(options), names)


def test_every_action_and_event_of_played_games_is_in_words_with_the_seat_names():
    for scenario in ("skirmish", "design-duel", "melee", "outpost"):
        opts = DeepSpaceGame.resolve_options({"scenario": scenario, "round_limit": 6})
        n = DeepSpaceGame.num_players(opts)
        names = [f"Seat{chr(65 + p)}" for p in range(n)]
        sess = Session(DeepSpaceGame, opts, 3, names=names)
        rng = random.Random(3)
        steps = 0
        while not sess.is_over() and steps < 600:
            for p in list(sess.waiting_for()):
                legal = sess.legal_actions(p)
                for a in legal[:4] + legal[-2:]:
                    text = sess.describe(a)
                    assert text and not ENGINE.search(text), text
                sess.submit_action(p, rng.choice(legal))
                steps += 1
        texts = [e["text"] for e in sess.log_full(0)]
        assert texts
        for t in texts:
            assert not ENGINE.search(t), t
            assert not re.search(r"\bPlayer \d\b", t), t  # the seats are named SeatA, SeatB...
        assert any("SeatA" in t for t in texts) and any("SeatB" in t for t in texts)


def test_ships_are_named_by_owner_and_public_label():
    d = describer({"scenario": "duel"})
    assert d({"type": "commissioned", "ship": "s1-0", "player": 1, "size": 8}) == \
        "Player 2's Dreadnought (size 8) joins the battle"
    assert d({"type": "velocity", "ship": "s0-2", "dq": 2, "dr": -1}) == "Player 1's Frigate 3: new velocity 1B+1C (speed 2)"
    shot = {"type": "shot", "ship": "s1-2", "weapon": 0, "target": "s0-0", "range": 7, "hit": True, "hp": 12}
    assert d(shot) == "Player 2's Escort 2 fired weapon 1 at Player 1's Frigate 1, range 7: hit, 12 hit points"
    named = describer({"scenario": "skirmish"}, ["Ann", "Hard bot"])
    assert named({"type": "destroyed", "ship": "s1-1", "cause": "damage"}) == "Hard bot's Raider 2 was destroyed"
    assert named({"type": "game_over", "winners": [0], "reason": "annihilation", "scores": [40, -40]}) == \
        "Game over: Ann wins by destroying the other fleet"
    # a side that designs its fleet: its designs are secret, its ships are numbered
    dd = describer({"scenario": "design-duel"})
    assert dd({"type": "destroyed", "ship": "s0-1", "cause": "self-destruct"}) == \
        "Player 1's ship 2 was destroyed (self-destruct)"
    # under agreed size levels every side designs: the scenario's fleet names are no longer public
    agreed = describer({"scenario": "duel", "size_levels": "12"})
    assert agreed({"type": "withdrew", "ship": "s1-0"}) == "Player 2's ship 1 withdrew from the battle"


def test_places_velocities_and_moves_in_words():
    d = describer({"scenario": "skirmish"})  # Blue's zone: centre (-6, 0)
    assert d({"type": "place", "ship": "s0-0", "q": -6, "r": 0}) == "place Player 1's Raider 1 at the centre of its zone"
    assert d({"type": "place", "ship": "s0-0", "q": -6, "r": -1}) == "place Player 1's Raider 1 1A from the centre of its zone"
    assert d({"type": "placed", "ship": "s0-1", "q": -6, "r": 0, "dq": 0, "dr": 0}) == "Player 1's Raider 2 deployed at rest"
    moved = {"type": "moved", "ship": "s0-0", "q": 1, "r": 2, "dq": 3, "dr": 0, "thrust": 4, "speed_up": 2,
             "slow_down": 0, "turn": 2}
    assert d(moved) == "Player 1's Raider 1 burns 4 thrust: speed +2, turn 2, velocity 3C (speed 3)"
    assert d({**moved, "thrust": 0, "speed_up": 0, "turn": 0}) == "Player 1's Raider 1 drifts, velocity 3C (speed 3)"
    assert d({**moved, "dq": 0, "thrust": 3, "speed_up": 0, "slow_down": 3, "turn": 0}) == \
        "Player 1's Raider 1 stops (3 thrust: speed -3)"


def test_one_line_per_design_for_its_designer_only():
    """Designing a ship is many engine steps, each echoed privately (``design_step``): the log shows one line per
    completed design, to its designer only; nobody reads "designing: size 3, thrust 0..."."""
    sess = Session(DeepSpaceGame, {"scenario": "design-duel"}, 1, names=["Ann", "Ben"])
    sess.submit_action(1, UseFleet("skirmish"))  # the seats design at once: each step waits for both
    sess.submit_action(0, NewShip(2))
    sess.submit_action(1, Done())
    for a in (SetStat("thrust", 3), SetStat("evasion", 10), SetStat("endurance", 8),
              WeaponTargeting(25), WeaponDamage(31), WeaponTargeting(5), WeaponDamage(5), EndShip("Lancer")):
        sess.submit_action(0, a)
    def lines(viewer):  # the log's lines: an entry whose text is empty is no line (the shell shows none)
        return [e["text"] for e in sess.log(viewer, 0) if e["text"]]

    assert lines(0) == ["Ben has designed a fleet", "Ann completed a design (secret until it shows in battle)"]
    assert lines(1) == ["Ben completed a design (secret until it shows in battle)", "Ben has designed a fleet"]
    assert lines(None) == ["Ben has designed a fleet"]
    # every step's event is still in the log for the screen (its text empty: no line)
    assert sum(1 for e in sess.log_full(0) if e["event"]["type"] == "design_step") == 10
    for a in (NewShip(2), SetStat("thrust", 0), SetStat("evasion", 0), SetStat("endurance", 1), EndShip()):
        sess.submit_action(0, a)
    sess.submit_action(0, Done())
    public = lines(None)
    assert public[:3] == ["Ben has designed a fleet", "Ann has designed a fleet", "Ann's ship 1 (size 2) joins the battle"]
    assert "Ann's ship 1 (size 2) joins the battle" in public and "Ben's ship 2 (size 2) joins the battle" in public
    assert sess.describe(EndShip("Lancer")) == "commission the ship as Lancer"


def test_malformed_values_fall_back_to_the_generic_wording():
    d = describer({"scenario": "duel"})
    bad = {"type": "shot", "ship": "s0-0"}
    assert d(bad) == Game.describe_value.__func__(DeepSpaceGame, bad)
    assert d({"type": "destroyed", "ship": "x", "cause": "damage"}) == "a ship was destroyed"
    assert DeepSpaceGame.describer(None, None)({"type": "round", "round": 2}) == "Round 2 begins"

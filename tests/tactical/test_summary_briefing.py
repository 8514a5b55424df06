"""The game-over summary (summary.py) and the scenario briefing (briefing.py) of Delta-V tactical (issue 26):
statistics per seat from every event of a finished match, and the objective, forces, goals, what wins and the
special rules of a scenario, in words."""

from __future__ import annotations

import re

import pytest

from deltav.core.match import play_match
from deltav.core.protocol import check_briefing, check_summary
from deltav.games.tactical.bots import ScriptedBot
from deltav.games.tactical.messages import Order
from deltav.games.tactical.scenarios import SCENARIO_IDS

from .helpers import GAME, FixedDice, end_turn, new_state, place

NAMES = ["Alice", "Bob"]
ENGINE_WORDS = re.compile(r"\bp[01]s\d|\bord\d|-?\d+,-?\d+\b|[Pp]layer [01]\b|None|orbitalBase")


def _stat(summary, label):
    return next(s["values"] for s in summary["stats"] if s["label"] == label)


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_every_scenario_has_a_briefing_in_words(scenario):
    b = check_briefing(GAME.briefing({"scenario": scenario}, 0, NAMES), 2)
    assert b["title"] and b["objective"] and b["wins"] and b["notes"]
    assert [(s["seat"], s["name"]) for s in b["sides"]] == [(0, "Alice"), (1, "Bob")]
    assert all(s["forces"] and s["goal"] for s in b["sides"])
    words = " ".join([b["objective"], b["wins"], *b["notes"], *(" ".join([*s["forces"], s["goal"]]) for s in b["sides"])])
    assert not ENGINE_WORDS.search(words), ENGINE_WORDS.search(words)


def test_the_convoy_briefing_says_who_carries_colonists_and_what_wins():
    b = GAME.briefing({"scenario": "convoy", "turn_limit": 30}, 1, NAMES)
    assert b["sides"][0]["forces"] == ["a liner (120 colonists), landed at the NE base of Mars",
                                       "a tanker, landed at the NE base of Mars", "a frigate, landed at the NE base of Mars"]
    assert b["sides"][1]["forces"][0].startswith("2 corsairs, at ")
    assert "Alice wins by landing a ship with colonists aboard on Venus" in b["wins"]
    assert "after 30 turns" in b["wins"]
    assert any(n.startswith("Transfers") and "colonists" in n for n in b["notes"])
    fleet = GAME.briefing({"scenario": "fleet_action"}, None)["sides"][0]
    assert fleet["name"] == "Player 1" and fleet["forces"] == [
        "a fleet bought with 600 MC: corvettes, corsairs, frigates, dreadnaughts or torches"]


def test_the_summary_counts_fuel_hits_losses_and_launches_per_seat():
    """A Duel worked by hand: Alice burns (1 fuel) and rams Bob's frigate (both roll the ram table: Alice D1,
    Bob eliminated by a D5 on top of 3 disabled turns)."""
    s = new_state("duel")
    s.active_player = s.first_player = 0
    events = []
    place(s, "p0s0", (0, 0), (1, 0), detected=True)
    place(s, "p1s0", (2, 0), (0, 0), detected=True, disabled=3)
    s.ship("p1s0").vel = (0, 1)
    s.rng = FixedDice([3, 6])
    events += s.apply_action(0, Order("p0s0", 0))
    events += end_turn(s, 0)
    assert s.is_terminal()
    summary = check_summary(GAME.match_summary(s, events, NAMES), 2)
    assert summary["scores"] is None
    assert _stat(summary, "Fuel spent") == [1, 0]
    assert _stat(summary, "Hits scored") == [1, 1]
    assert _stat(summary, "Times disabled") == [1, 0]
    assert _stat(summary, "Ships lost") == [0, 1]
    assert _stat(summary, "Ordnance launched") == [0, 0]
    assert summary["notes"][0] == "Alice wins: Fleet eliminated!"
    assert summary["notes"][1:] == ["Alice's ships in play at the end: frigate (disabled 1 turn)",
                                    "Bob's ships in play at the end: none"]


@pytest.mark.parametrize("scenario", ["duel", "grand_tour", "convoy", "fleet_action"])
def test_summaries_of_played_matches_agree_with_the_final_state(scenario):
    record, final, _ = play_match(GAME, {"scenario": scenario, "turn_limit": 25}, 2, [ScriptedBot(), ScriptedBot()])
    events = [e for step in record.steps for e in step.events]
    summary = check_summary(GAME.match_summary(final, events, NAMES), 2)
    turns = [sum(1 for e in events if e["type"] == "turn_started" and e["player"] == p) for p in (0, 1)]
    assert _stat(summary, "Turns played") == turns
    launched = sum(1 for e in events if e["type"] == "ordnance_launched")
    assert sum(_stat(summary, "Ordnance launched")) == launched
    lost = sum(1 for sh in final.ships if sh.destroyed)
    assert sum(_stat(summary, "Ships lost")) == lost
    if final.rules.checkpoints:
        assert _stat(summary, "Checkpoints visited") == [len(pl.visited) for pl in final.players]
    if final.rules.target_requires_passengers:
        assert "Colonists delivered" in [x["label"] for x in summary["stats"]]
    assert all(len(x["values"]) == 2 for x in summary["stats"])
    assert not [n for n in summary["notes"] if ENGINE_WORDS.search(n)]

"""The tactical scorecard (``scorecard.py``, issue 30) and its totals in ``deltav simulate --json``: ending kinds,
fuel stalls on constructed positions, losses by cause and player-turns over real matches replayed from their
records."""

from __future__ import annotations

from deltav.agents import make_agent
from deltav.cli import simulate
from deltav.core.match import play_match
from deltav.games.tactical.messages import EndAstrogation, Order
from deltav.games.tactical.scorecard import ending_kind, fuel_stalls, match_scorecard

from .helpers import GAME, new_state, place


def test_ending_kinds_follow_the_victory_texts():
    assert ending_kind("Landed on Venus with colonists!") == "passengers"
    assert ending_kind("Landed on Mars!") == "landing"
    assert ending_kind("Grand Tour complete! Visited all 8 checkpoints and landed on Luna.") == "grand_tour"
    assert ending_kind("Turn limit: more checkpoints visited (5 to 3).") == "checkpoints_timeout"
    assert ending_kind("Turn limit reached.") == "timeout"
    assert ending_kind("Passenger objective failed: no surviving ship carries colonists.") == "passengers_failed"
    assert ending_kind("The fugitives died, but the Pilgrims won a moral victory.") == "moral_victory"
    assert ending_kind("Fleet eliminated!") == "fleet_eliminated"
    assert ending_kind(None) == "unfinished"


def _own_ship(state, player):
    return next(sh for sh in state.ships if sh.owner == player and not sh.destroyed)


def test_a_ship_at_rest_left_coasting_with_fuel_stalls():
    state = new_state("biplanetary")
    p = state.active_player
    sh = _own_ship(state, p)
    place(state, sh.id, (0, 0), (0, 0), fuel=5)
    assert fuel_stalls(state, p) == [sh.id]
    state.orders = {sh.id: Order(sh.id, burn=1)}  # burning is moving
    assert fuel_stalls(state, p) == []
    state.orders = {}
    place(state, sh.id, (0, 0), (1, 0), fuel=5)  # drifting is moving
    assert fuel_stalls(state, p) == []
    place(state, sh.id, (0, 0), (0, 0), fuel=0)  # nothing to burn
    assert fuel_stalls(state, p) == []
    place(state, sh.id, (0, 0), (0, 0), fuel=5, disabled=2)  # cannot burn
    assert fuel_stalls(state, p) == []


def test_an_armed_ship_without_a_goal_holding_in_close_combat_does_not_stall():
    state = new_state("duel")
    p = state.active_player
    mine, theirs = _own_ship(state, p), _own_ship(state, 1 - p)
    place(state, mine.id, (0, 0), (0, 0), fuel=5)
    place(state, theirs.id, (10, -5), (0, 0))
    assert fuel_stalls(state, p) == [mine.id]
    place(state, theirs.id, (2, 0), (0, 0))
    assert fuel_stalls(state, p) == []


class _Coaster:
    """Gives no order: every ship coasts, every phase ends at once."""

    name = "coaster"

    def act(self, decision):
        for a in decision.legal_actions:
            if isinstance(a, EndAstrogation):
                return a
        return decision.legal_actions[0]

    def observe(self, player, events):
        pass


def test_scorecard_of_real_matches_counts_turns_and_losses_by_cause():
    for scenario, seed in (("duel", 3), ("biplanetary", 4)):
        agents = [make_agent("tactical", "hard"), make_agent("tactical", "normal")]
        record, state, _ = play_match(GAME, {"scenario": scenario}, seed, agents)
        card = match_scorecard(record)
        seats = card["seats"]
        summary = GAME.match_summary(state, [e for s in record.steps for e in s.events], None)
        stat = {s["label"]: s["values"] for s in summary["stats"]}
        assert seats["player_turns"] == stat["Turns played"]
        assert seats["ships_lost"] == stat["Ships lost"]
        for p in (0, 1):
            assert seats["ships_lost"][p] == (seats["lost_to_crash"][p] + seats["lost_to_guns"][p]
                                              + seats["lost_to_ordnance"][p] + seats["lost_other"][p])
            assert seats["crashes_disabled"][p] <= seats["lost_to_crash"][p]
        assert card["game"]["objective"] == ending_kind(record.result["reason"])
        if scenario == "biplanetary":
            assert card["game"]["objective_resolution"] == int(card["game"]["objective"] == "landing")
        else:
            assert card["game"]["objective_resolution"] is None


def test_a_coasting_fleet_stalls_and_its_losses_are_counted():
    """Ships that never get an order: at rest with fuel they stall every turn; every loss is counted by cause."""
    record, state, _ = play_match(GAME, {"scenario": "biplanetary", "turn_limit": 6}, 1, [_Coaster(), _Coaster()])
    card = match_scorecard(record)
    seats = card["seats"]
    assert card["game"]["objective"] == "timeout" and card["game"]["timeout"] == 1
    assert sum(seats["fuel_stalls"]) > 0
    assert seats["ships_lost"] == [sum(1 for sh in state.ships if sh.owner == p and sh.destroyed) for p in (0, 1)]


def test_simulate_sums_the_scorecards_per_entrant():
    out = simulate(GAME, {"scenario": "duel"}, ["bot:hard", "bot:normal"], 2, 1, 1, True, progress=False)
    card = out["scorecard"]
    assert card["games"] == 2 and card["invalid_actions"] == 0 and card["engine_errors"] == 0
    assert sum(card["endings"].values()) == 2
    wins = sum(sum(e["wins_by"].values()) for e in card["per_entrant"])
    assert wins == 2 - out["draws"]
    for e in card["per_entrant"]:
        assert e["player_turns"] > 0 and "bot_cpu_ms_per_player_turn" not in e  # counts only: timings apart
    for e in out["per_entrant"]:
        assert e["bot_cpu_ms_per_player_turn"] > 0


def test_every_cause_of_destruction_has_its_column():
    from typing import get_args

    from deltav.games.tactical import scorecard
    from deltav.games.tactical.state_schema import Cause

    assert set(get_args(Cause)) == {"crash"} | scorecard._GUNS | scorecard._ORDNANCE | scorecard._OTHER

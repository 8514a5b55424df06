"""The size levels the players agree on (option ``size_levels``, rules section Fleets: "The players must agree
beforehand on the number of size levels"; "The number of size levels need not be equal") and the names they give
their designs."""

from __future__ import annotations

import pytest

from deltav.core.errors import OptionError
from deltav.core.match import play_match
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.annotate import annotate
from deltav.games.deepspace.bots import ScriptedBot
from deltav.games.deepspace.messages import Done, EndShip, Fire, NewShip, SetStat, UseFleet
from deltav.games.deepspace.visibility import fleet_prior


def test_the_default_keeps_the_scenarios_fleets_and_levels():
    opts = DeepSpaceGame.resolve_options({"scenario": "duel"})
    assert opts["size_levels"] == ""
    s = DeepSpaceGame.new_initial_state(opts, 1)
    assert s.phase == "deploy" and s.levels == (12, 12)
    assert DeepSpaceGame.new_initial_state({"scenario": "design-duel"}, 1).levels == (4, 4)


def test_agreed_levels_make_every_side_design_within_them():
    s = DeepSpaceGame.new_initial_state({"scenario": "duel", "size_levels": "8"}, 1)
    assert s.phase == "design" and s.levels == (8, 8) and s.current_players() == [0, 1]
    legal = s.legal_actions(0)
    assert NewShip(8) in legal and NewShip(9) not in legal
    assert UseFleet("skirmish") in legal and UseFleet("line") not in legal  # line needs 12 levels
    board = DeepSpaceGame.board({"scenario": "duel", "size_levels": "8"})
    assert [(p["fleet"], p["size_levels"], p["ships"]) for p in board["scenario"]["players"]] == \
        [("design", 8, None), ("design", 8, None)]
    assert DeepSpaceGame.board({"scenario": "duel"})["scenario"]["players"][1]["ships"] == \
        ["Dreadnought", "Escort 1", "Escort 2"]


def test_unequal_levels_one_per_side():
    s = DeepSpaceGame.new_initial_state({"scenario": "design-duel", "size_levels": "6, 3"}, 2)
    assert s.levels == (6, 3)
    assert [p["size_levels"] for p in s.view(None)["players"]] == [6, 3]
    assert max(a.size for a in s.legal_actions(1) if isinstance(a, NewShip)) == 3
    s.apply_action(1, NewShip(3))
    for stat in ("thrust", "evasion", "endurance"):
        s.apply_action(1, SetStat(stat, 10))
    s.apply_action(1, EndShip("Bulwark"))
    assert Done() in s.legal_actions(1)  # 3 of 3 levels used
    assert s.view(1)["mine"]["designs"][0]["name"] == "Bulwark"


@pytest.mark.parametrize("spec, says", [
    ("0", "not between 1 and 120"), ("121", "not between 1 and 120"), ("4,x", "'x' (entry 2) is not a whole number"),
    ("1,2,3", "3 numbers for the scenario's 2 sides"), ("-4", "is not a whole number"), ("4,,4", "an empty entry"),
    ("٣", "not a whole number"), (7, "is not a string"),
])
def test_bad_agreements_are_refused_naming_the_option(spec, says):
    with pytest.raises(OptionError) as err:
        DeepSpaceGame.resolve_options({"scenario": "skirmish", "size_levels": spec})
    assert err.value.option == "size_levels" and says in err.value.reason, err.value


def test_designed_fleets_stay_secret_under_agreed_levels():
    """A side of ``duel`` that designs under agreed levels is not the scenario's public fleet: the opponent's
    odds are estimates, never the scenario design's."""
    opts = {"scenario": "duel", "size_levels": "12"}
    s = DeepSpaceGame.new_initial_state(opts, 4)
    for p in (0, 1):
        s.apply_action(p, UseFleet("line" if p == 0 else "battlegroup"))  # the scenario's own fleets, in secret
    for p in (0, 1):
        s.apply_action(p, Done())
    assert s.phase == "deploy"
    view = s.view(0)
    assert fleet_prior(view) == {}
    assert fleet_prior(DeepSpaceGame.new_initial_state({"scenario": "duel"}, 4).view(0))  # the public fleet
    while s.phase == "deploy":
        for p in s.current_players():
            s.apply_action(p, s.legal_actions(p)[0])
    while s.phase == "plot" and not isinstance(s.legal_actions(0)[0], Fire):
        s.apply_action(0, s.legal_actions(0)[0])
    fire = [a for a in s.legal_actions(0) if isinstance(a, Fire) and a.target]
    notes = annotate(s.view(0), fire)
    assert fire and all(n["basis"] == "estimate" for n in notes)


def test_a_whole_game_with_unequal_agreed_levels():
    record, final, _ = play_match(DeepSpaceGame, {"scenario": "skirmish", "size_levels": "6,3", "round_limit": 6}, 3,
                                  [ScriptedBot(), ScriptedBot()])
    assert final.is_terminal()
    assert [sum(s.size for s in final.ships if s.owner == p) for p in (0, 1)] == [6, 3]

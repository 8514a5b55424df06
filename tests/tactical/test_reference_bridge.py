"""The head-to-head bridge's translation of the reference Delta-V's states (benchmarks/reference_match/translate.py),
checked against fixtures captured from the reference's engine (tests/tactical/fixtures/reference/, made by
benchmarks/reference_match/capture.ts; the reference itself is not needed here):

- every scenario's start, translated for each seat, is our own engine's start of that scenario (with the
  reference's rulings) as that seat sees it: the same ships, types, positions, velocities, fuel, landings, bases;
- in mid-game positions (a ship with velocity, ordnance in flight, a disabled ship, a landed ship, an ordnance
  phase) every legal action of ours turns into an order the reference's engine accepts there, and the hard bot's
  own choice of a whole phase does too;
- the translation reads nothing the seat may not know: changing a field the reference's filter hides from it
  (an enemy's hidden identity) or one the bridge does not read leaves the seat's view unchanged.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest
from benchmarks.reference_match import translate

from deltav.agents import make_agent
from deltav.core.protocol import Decision
from deltav.core.rng import Rng

FIXTURES = Path(__file__).parent / "fixtures" / "reference"
SCENARIOS = sorted(translate.SCENARIOS)
MIDS = sorted(p.stem for p in FIXTURES.glob("mid_*.json"))


def load(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def ships_seen(view: dict) -> list:
    return sorted((s["id"], s["owner"], s["type"], list(s["position"]), list(s["velocity"]), s["fuel"], s["landed"],
                   s["destroyed"], s["passengers"], s["carrying_base"]) for s in view["ships"])


def test_fixtures_cover_every_scenario_and_position():
    assert sorted(p.stem.removeprefix("start_") for p in FIXTURES.glob("start_*.json")) == SCENARIOS
    assert {"mid_velocity", "mid_ordnance", "mid_disabled", "mid_landed", "mid_ordnance_phase"} <= set(MIDS)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_start_translates_to_our_start(scenario):
    doc = load(f"start_{scenario}")
    ours = translate.game().new_initial_state(translate.options_for(scenario), 1)
    for seat in range(2):
        state = translate.state_from_reference(doc["seats"][seat], seat)
        got, want = state.view(seat), ours.view(seat)
        assert got["scenario"] == want["scenario"] == scenario
        assert ships_seen(got) == ships_seen(want), (scenario, seat)
        assert [p["bases"] for p in got["players"]] == [p["bases"] for p in want["players"]]
        assert [(p["home"], p["target"], p["escape_wins"]) for p in got["players"]] == \
            [(p["home"], p["target"], p["escape_wins"]) for p in want["players"]]
        assert got["phase"] == want["phase"]
        assert got["rules"] == want["rules"]


def _reference_key(order: dict, phase: str) -> str:
    if phase == "astrogation":
        return f"{order['shipId']}|{json.dumps(order['burn'])}|{json.dumps(order['overload'])}|" \
               f"{json.dumps(bool(order.get('land')))}"
    return f"{order['shipId']}|{order['ordnanceType']}|{json.dumps(order['torpedoAccel'])}|" \
           f"{json.dumps(order['torpedoAccelSteps'])}"


@pytest.mark.parametrize("name", MIDS)
def test_mid_game_actions_are_orders_the_reference_accepts(name):
    doc = load(name)
    seat = doc["seat"]
    legal_set = set(doc["legal"])
    state = translate.state_from_reference(doc["state"], seat)
    phase = state.phase
    assert state.active_player == seat and phase in ("astrogation", "ordnance")
    kind = "order" if phase == "astrogation" else "launch"
    actions = [a for a in state.legal_actions(seat) if kind == a.TYPE]
    assert actions
    for action in actions:
        ref = translate.to_reference(phase, [(action, [])])
        orders = ref["orders"] if phase == "astrogation" else ref["launches"]
        assert len(orders) == 1
        assert _reference_key(orders[0], phase) in legal_set, (name, action)
    # the hard bot's whole phase, decided on the seat's view and applied in our engine, as the bridge does it
    agent = make_agent("tactical", "hard")
    rng = Rng(7)
    steps = []
    while state.phase == phase and seat in state.current_players():
        legal = list(state.legal_actions(seat))
        action = agent.act(Decision(translate.game(), seat, state.view(seat), legal, rng, state.options))
        steps.append((action, []))
        state.apply_action(seat, action)
    ref = translate.to_reference(phase, steps)
    for order in ref["orders"] if phase == "astrogation" else ref["launches"]:
        assert _reference_key(order, phase) in legal_set, (name, order)


def test_disabled_landed_ships_ordnance_and_paths_translate():
    disabled = load("mid_disabled")
    state = translate.state_from_reference(disabled["state"], disabled["seat"])
    ref_ship = next(s for s in disabled["state"]["ships"] if s["damage"]["disabledTurns"] > 0)
    assert state.view(disabled["seat"])["ships"][[s.id for s in state.ships].index(ref_ship["id"])]["disabled"] == \
        ref_ship["damage"]["disabledTurns"]
    landed = load("mid_landed")
    state = translate.state_from_reference(landed["state"], landed["seat"])
    ids = {s["id"] for s in landed["state"]["ships"] if s["lifecycle"] == "landed"}
    assert ids and all(s.landed for s in state.ships if s.id in ids)
    flying = load("mid_ordnance")
    state = translate.state_from_reference(flying["state"], flying["seat"])
    # the last move's path: guns take their range and line of sight from its closest approach in both engines
    assert {s.id: [list(h) for h in s.path] for s in state.ships} == \
        {s["id"]: [[h["q"], h["r"]] for h in s["lastMovementPath"]] for s in flying["state"]["ships"]}
    assert any(len(s.path) > 1 for s in state.ships)
    items = [o for o in flying["state"]["ordnance"] if o["lifecycle"] != "destroyed"]
    assert [(o.id, o.kind, list(o.pos), list(o.vel), o.turns) for o in state.ordnance] == \
        [(o["id"], o["type"], [o["position"]["q"], o["position"]["r"]], [o["velocity"]["dq"], o["velocity"]["dr"]],
          o["turnsRemaining"]) for o in items]


def test_hidden_identity_does_not_reach_the_view():
    """Escape: the enforcers' view is the same whichever pilgrim ship the reference's (unfiltered) state says
    carries the fugitives, and whether or not the filtered field is there at all."""
    doc = load("start_escape")
    start = {s["id"]: s for s in translate.start_json("escape")["ships"]}
    seat = next(p for p in range(2) if any(s.get("hidden_identity") for s in start.values() if s["owner"] != p))
    seen = doc["seats"][seat]
    hidden = [s["id"] for s in seen["ships"] if s["owner"] != seat and start[s["id"]].get("hidden_identity")]
    assert not any("identity" in s for s in seen["ships"] if s["id"] in hidden)  # the reference's filter strips it
    assert len(hidden) >= 2
    views = []
    for fugitive in [None, *hidden]:
        ref = copy.deepcopy(seen)
        if fugitive is not None:
            for s in ref["ships"]:
                if s["id"] in hidden:
                    s["identity"] = {"hasFugitives": s["id"] == fugitive, "revealed": False}
        views.append(translate.state_from_reference(ref, seat).view(seat))
    assert all(v == views[0] for v in views)


def test_fields_the_bridge_does_not_read_change_nothing():
    doc = load("mid_ordnance")
    seat = doc["seat"]
    base = translate.state_from_reference(doc["state"], seat).view(seat)
    ref = copy.deepcopy(doc["state"])
    for s in ref["ships"]:
        s["killedBy"] = "p9s9"
        s["lastBurnDirection"] = 3
        s["originalOwner"] = 1 - s["owner"]
    ref["gameId"] = "another"
    assert translate.state_from_reference(ref, seat).view(seat) == base
    for key in set(doc["state"]["ships"][0]) - set(translate.SEEN_SHIP_FIELDS):
        assert key in ("originalOwner", "killedBy", "lastBurnDirection"), key


def test_a_tape_replays_the_bridges_answers(tmp_path, monkeypatch, capsys):
    """``DELTAV_BRIDGE_TAPE`` records every request the bridge is sent; ``tape.py`` replays them offline and gives
    the same answers (the check a speed change of the bot must pass), and reports a changed answer."""
    from benchmarks.reference_match import bridge, tape

    requests = []
    for name in MIDS:
        doc = load(name)
        requests.append({"op": "new_game", "seat": doc["seat"], "seed": 3, "spec": "hard"})
        requests.append({"op": "decide", "seat": doc["seat"], "state": doc["state"]})
    tape_file = tmp_path / "run.tape"
    monkeypatch.setenv("DELTAV_BRIDGE_TAPE", str(tape_file))
    out = io.StringIO()
    bridge.serve([json.dumps(r) + "\n" for r in requests], out)
    monkeypatch.delenv("DELTAV_BRIDGE_TAPE")
    live = [json.loads(a) for a in out.getvalue().splitlines()]
    assert len(live) == len(requests) and all("error" not in a for a in live)
    assert [json.loads(x) for x in tape_file.read_text().splitlines()] == requests

    kept = tmp_path / "answers.jsonl"
    assert tape.main([str(tape_file), "--answers", str(kept)]) == 0
    replayed = [json.loads(x) for x in kept.read_text().splitlines()]
    assert replayed == [{k: v for k, v in a.items() if k != "cpu_ms"} for a in live]
    assert tape.main([str(tape_file), "--same", str(kept)]) == 0
    assert f"all {len(live)} answers the same" in capsys.readouterr().out

    changed = copy.deepcopy(replayed)
    decided = next(i for i, a in enumerate(changed) if "action" in a)
    changed[decided]["action"] = {"orders": []}
    kept.write_text("".join(json.dumps(a, sort_keys=True) + "\n" for a in changed))
    assert tape.main([str(tape_file), "--same", str(kept)]) == 1
    assert f"answer {decided} differs" in capsys.readouterr().out

"""Loading saved states: ``state_from_json`` validates before it builds (issue 18), round-trips every state
reachable in play, and no state can poison the config cache of another game."""

from __future__ import annotations

import copy
import json

import pytest

from deltav.core.errors import DeltavError, StateError
from deltav.core.rng import Rng
from deltav.games.mining import MiningGame
from deltav.games.mining.visibility import config_for

SCENARIOS = ("standard", "variant-b")


def playout_states(scenario: str, players: int, seed: int, options=None, limit: int = 400):
    st = MiningGame.new_initial_state({"scenario": scenario, "players": players, **(options or {})}, seed)
    rng = Rng(seed + 100)
    yield st
    for _ in range(limit):
        if st.is_terminal():
            return
        p = st.current_players()[0]
        legal = st.legal_actions(p)
        st.apply_action(p, legal[rng.below(len(legal))])
        yield st


def mid_game(seed: int = 3, players: int = 3, steps: int = 60) -> dict:
    for i, st in enumerate(playout_states("standard", players, seed)):
        if i == steps:
            return st.to_json()
    raise AssertionError("game ended early")


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("players", (2, 3, 4))
def test_every_state_of_random_playouts_round_trips(scenario, players):
    opts = {"mandatory_contract_attempt": players != 3, "bump": "all" if players == 4 else "one",
            "omnidium_bid_up": "reveal_omnidium" if players == 2 else "not_allowed"}
    for seed in range(2):
        for st in playout_states(scenario, players, seed, opts):
            j = json.loads(json.dumps(st.to_json()))
            back = MiningGame.state_from_json(j)
            assert back.to_json() == j
            p = st.current_players()
            if p:
                assert back.legal_actions(p[0]) == st.legal_actions(p[0])


def test_players_ten_million_is_refused_before_any_allocation():
    j = mid_game()
    j["players"] = 10_000_000
    with pytest.raises(StateError) as err:
        MiningGame.state_from_json(j)
    assert err.value.field == "$.players"


@pytest.mark.parametrize("key", sorted(mid_game().keys()))
def test_dropping_any_key_is_refused_naming_it(key):
    j = mid_game()
    del j[key]
    with pytest.raises(StateError) as err:
        MiningGame.state_from_json(j)
    assert err.value.field == f"$.{key}"


WRONG = ("x", 1.5, None, True, [], {}, -1, 2**70, float("nan"))


@pytest.mark.parametrize("key", sorted(mid_game().keys()))
def test_a_wrong_type_or_absurd_value_in_any_key_is_a_state_error(key):
    base = mid_game()
    for bad in WRONG:
        j = copy.deepcopy(base)
        j[key] = bad
        try:
            st = MiningGame.state_from_json(j)
        except StateError as exc:
            assert exc.field.startswith("$.")
        else:  # a value that happens to be valid (moved=None, alien=-1, pirated=True, queue=[]...)
            assert bad in (True, -1, None, [])
            assert st.to_json() == j
            st.legal_actions(st.current_players()[0])


def test_huge_lists_and_counts_are_refused_by_their_bounds():
    base = mid_game()
    cases = {
        ("squares",): [-1] * 1_000_000,
        ("components", "tile_mix", 0, "count"): 10**9,
        ("hands", 0): [[40, 1]] * 100_000,
        ("rockets",): [0] * (49 * 5),
        ("turn",): 10**30,
        ("options", "max_turns"): 10**12,
        ("rng",): "f" * 10_000,
        ("reason",): "x" * 100_000,
    }
    for path, value in cases.items():
        j = copy.deepcopy(base)
        target = j
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = value
        with pytest.raises(StateError):
            MiningGame.state_from_json(j)


def test_inconsistent_states_are_refused_naming_the_field():
    base = mid_game()

    def refused(mutate) -> str:
        j = copy.deepcopy(base)
        mutate(j)
        with pytest.raises(StateError) as err:
            MiningGame.state_from_json(j)
        return err.value.field

    def dup_tile(j):
        s = next(i for i, t in enumerate(j["squares"]) if t >= 0)
        s2 = next(i for i, t in enumerate(j["squares"]) if t >= 0 and i != s)
        j["squares"][s2] = j["squares"][s]

    assert refused(dup_tile).startswith("$.squares")
    assert refused(lambda j: j.update(shipyards=[5] * 3)).startswith("$.rockets")
    assert refused(lambda j: j.update(current=3)) == "$.current"
    assert refused(lambda j: j.update(holders=[0] * 14)) == "$.holders"
    assert refused(lambda j: j.update(phase="bid-up-window", queue=[])) == "$.queue"
    assert refused(lambda j: j.update(phase="reveal", attempt=-1)) == "$.attempt"
    assert refused(lambda j: j.update(attempt=99)) == "$.attempt"
    assert refused(lambda j: j["options"].update(bid_up=1)) == "$.options"
    assert refused(lambda j: j["options"].update(players=4)) == "$.players"
    assert refused(lambda j: j["options"].pop("bump")) == "$.options"
    assert refused(lambda j: j.update(rng="zz")) == "$.rng"
    assert refused(lambda j: j.update(game="tactical")) == "$.game"
    # a phase nobody can act in (a survey with no line left to look at) would leave a game stuck
    assert refused(lambda j: j.update(phase="survey", ret="none", picks=[0, 8])) == "$.phase"


def test_a_state_with_bid_up_1_cannot_affect_another_game():
    """``True == 1``: a config cached under ``bid_up: 1`` must never serve a game with ``bid_up: true``."""
    st = MiningGame.new_initial_state({"players": 2}, 5)
    j = st.to_json()
    bad = copy.deepcopy(j)
    bad["options"]["bid_up"] = 1
    with pytest.raises(StateError):
        MiningGame.state_from_json(bad)
    # even a direct caller of the cache with an untyped option gets its own config
    poisoned = config_for(j["components"], bad["options"], 2)
    assert poisoned.options["bid_up"] == 1
    fresh = MiningGame.new_initial_state({"players": 2}, 6)
    assert fresh.to_json()["options"]["bid_up"] is True
    assert fresh.view(0)["options"]["bid_up"] is True
    assert MiningGame.state_from_json(j).to_json() == j
    assert json.dumps(fresh.to_json()["options"]) == json.dumps(j["options"])


def test_corrupted_states_load_or_are_refused_and_never_crash():
    """Random corruption of saved states: either a StateError, or a state that plays without raw exceptions."""
    rng = Rng(11)
    bases = [mid_game(seed, players, steps) for seed, players, steps in ((1, 2, 30), (2, 3, 80), (4, 4, 120))]
    values = (-1, 0, 1, 2, 3, 5, 24, 48, 49, 2**49, None, True, "", "x", [], [0], {})
    for _ in range(600):
        j = copy.deepcopy(bases[rng.below(len(bases))])
        for _ in range(1 + rng.below(3)):
            key = sorted(j)[rng.below(len(j))]
            v = j[key]
            if isinstance(v, list) and v and rng.below(2):
                v[rng.below(len(v))] = values[rng.below(len(values))]
            else:
                j[key] = values[rng.below(len(values))]
        try:
            st = MiningGame.state_from_json(j)
        except StateError:
            continue
        for _ in range(30):
            if st.is_terminal():
                break
            p = st.current_players()[0]
            legal = st.legal_actions(p)
            assert legal, "a loaded state with nobody able to act"
            st.view(p)
            st.view(None)
            try:
                st.apply_action(p, legal[rng.below(len(legal))])
            except DeltavError:
                raise AssertionError("a listed legal action was refused") from None

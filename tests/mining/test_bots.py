"""The scripted bot (memory, contract choice, never illegal), its forgetting levels, and the heuristics."""

from __future__ import annotations

from deltav.core.agent import RandomAgent
from deltav.core.match import play_match
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.mining import MiningGame
from deltav.games.mining.bots import BOTS
from deltav.games.mining.bots.heuristics import evaluate, evaluate_points, rollout_policy
from deltav.games.mining.bots.scripted import ScriptedAgent
from deltav.games.mining.knowledge import known_tiles, unseen_mix
from deltav.games.mining.messages import BidUp, Declare, Discard, Pass, Prospect, Reveal
from deltav.games.mining.visibility import squares_of
from tests.mining.helpers import give, new, place, play, put_rocket


def decision(st, p, rng_seed=0):
    return Decision(MiningGame, p, st.view(p), st.legal_actions(p), Rng(rng_seed), {})


def test_bots_registry():
    assert BOTS["scripted"] is ScriptedAgent


def test_scripted_bots_play_whole_games_without_illegal_actions():
    for n in (2, 3, 4):
        agents = [ScriptedAgent(strict=True, forget=0.2 * (p % 2)) for p in range(n)]
        rec, st, _ = play_match(MiningGame, {"players": n, "scenario": "variant-b"}, 10 + n, agents)
        assert st.is_terminal() and rec.result["winners"]


def test_scripted_beats_random():
    wins = 0
    for seed in range(6):
        agents = [ScriptedAgent(strict=True), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), ScriptedAgent(strict=True)]
        rec, _, _ = play_match(MiningGame, {"players": 2}, seed, agents)
        wins += (0 if seed % 2 == 0 else 1) in rec.result["winners"]
    assert wins >= 5


def _knows_c01(**options):
    st = new(**options)
    place(st, {10: ("alphatite", 4)})
    put_rocket(st, 0, 10)
    play(st, 0, Prospect())
    play(st, 0, Pass())
    return st


def test_the_bot_declares_a_contract_its_memory_covers_and_reveals_the_known_tile():
    st = _knows_c01()
    bot = ScriptedAgent(strict=True)
    a = bot.act(decision(st, 0))
    assert isinstance(a, Declare) and a.contract in ("C01",)
    play(st, 0, a)
    assert bot.act(decision(st, 0)) == Reveal(10)


def test_without_a_covering_memory_the_bot_does_not_attempt():
    st = new(mandatory_contract_attempt=False)
    play(st, 0, Prospect())
    assert ScriptedAgent(strict=True).act(decision(st, 0)) == Pass()


def test_a_mandatory_attempt_without_a_covering_memory_gambles_on_the_closest_contract():
    st = new()  # the attempt is mandatory by default (rulebook)
    place(st, {10: ("betamite", 3)})
    st.looked[0] |= 1 << 10
    for i in range(4):  # C01..C04 are taken: the known Betamite completes no open contract
        st.contract_owners[i] = 1
    play(st, 0, Prospect())
    assert Pass() not in st.legal_actions(0)
    # C05 (Alphatite, Betamite) misses one tile, every other open contract two or more
    assert ScriptedAgent(strict=True).act(decision(st, 0)) == Declare("C05")


def test_a_forgetful_bot_forgets_what_it_saw():
    st = _knows_c01(mandatory_contract_attempt=False)
    bot = ScriptedAgent(forget=1.0, strict=True)
    assert bot.act(decision(st, 0)) == Pass()  # it saw square 10 but forgot it at once
    assert known_tiles(st.view(0))  # the engine's truth and the view are untouched


def test_the_bot_does_not_bid_up_when_the_fulfiller_holds_the_answer():
    st = new()
    place(st, {10: ("alphatite", 5)})
    play(st, 0, Prospect())
    play(st, 0, Declare("C01"))
    play(st, 0, Reveal(10))
    d = decision(st, 1)
    assert BidUp("b1-alphatite") in d.legal_actions
    assert ScriptedAgent(strict=True).act(d) == Pass()  # player 0 still holds its Alphatite counter


def test_the_bot_plays_rocket_acquisition():
    st = new()
    acq = give(st, 0, "rocket_acquisition")
    assert ScriptedAgent(strict=True).act(decision(st, 0)) == Discard(acq)


def test_heuristics_on_sampled_worlds():
    st = MiningGame.new_initial_state({"players": 3}, 4)
    rng = Rng(4)
    for _ in range(150):
        if st.is_terminal():
            break
        p = st.current_players()[0]
        legal = st.legal_actions(p)
        for q in range(3):
            assert -1.0 <= evaluate(st, q) <= 1.0
        world = st.sample_world(p, rng)
        a = rollout_policy(world, p, world.legal_actions(p), rng)
        assert a in world.legal_actions(p)
        st.apply_action(p, rollout_policy(st, p, legal, rng))
    view = st.view(0)
    mix = unseen_mix(view, known_tiles(view))
    unknown = sum(1 for e in squares_of(view) if e["status"] == "face_down" and e["tile"] is None)
    assert sum(mix.values()) == unknown


def test_evaluation_prefers_a_covered_contract():
    st = new()
    base = evaluate_points(st, 0)
    st2 = _knows_c01()
    st2.current = 0
    assert evaluate_points(st2, 0) > base


def test_two_three_and_four_player_games_finish_from_the_cli(tmp_path, capsys):
    from deltav.cli import main
    from deltav.core.records import MatchRecord, replay

    for n in (2, 3, 4):
        path = tmp_path / f"m{n}.json"
        seats = []
        for p in range(n):
            seats += ["--seat", f"{p}=bot:{'scripted' if p % 2 == 0 else 'scripted-forgetful'}"]
        assert main(["play", "mining", "--players", str(n), "--seed", str(n), "--record", str(path), *seats]) == 0
        rec = MatchRecord.load(path)
        assert rec.result["winners"] and replay(rec).is_terminal()


def test_a_capacity_limited_bot_keeps_only_its_latest_memories():
    st = new()
    place(st, {10: ("alphatite", 4), 11: ("betamite", 4), 12: ("gammatite", 4)})
    for s in (10, 11, 12):
        put_rocket(st, 0, s)
    play(st, 0, Prospect())
    play(st, 0, Pass())
    bot = ScriptedAgent(capacity=1, strict=True)
    bot._memory(decision(st, 0))
    assert len(bot._memory(decision(st, 0))) == 1
    full = ScriptedAgent(strict=True)._memory(decision(st, 0))
    assert set(full) == {10, 11, 12}


def test_a_capacity_limited_bot_plays_whole_games():
    agents = [ScriptedAgent(capacity=4, strict=True), ScriptedAgent(strict=True)]
    rec, st, _ = play_match(MiningGame, {"players": 2}, 3, agents)
    assert st.is_terminal()


def test_every_action_and_event_has_an_english_line():
    from deltav.games.mining import text as txt

    opts = {"players": 3, "scenario": "variant-b"}
    rec, st, _ = play_match(MiningGame, opts, 21, [ScriptedAgent(strict=True) for _ in range(3)])
    describe = MiningGame.describer(opts, None)
    words = txt.Words(MiningGame.config(opts), None)
    seen = set()
    for step in rec.steps:
        for obj in [step.action] + step.events:
            line = words(obj)
            assert line, obj
            seen.add(obj["type"])
            assert describe(obj) == line
    assert {"turn-started", "contract-fulfilled", "tile-revealed", "move", "reveal"} <= seen
    assert txt.square(24) == "the station" and txt.square(10) == "r2 c4"


def test_render_draws_only_what_the_view_shows():
    from deltav.games.mining import text as txt

    st = new()
    place(st, {10: ("alphatite", 4)})
    put_rocket(st, 0, 10)
    play(st, 0, Prospect())
    mine = txt.render(st.view(0))
    theirs = txt.render(st.view(1))
    assert "A4" in mine and "A4" not in theirs and "###" in theirs
    assert len(mine.splitlines()) == 1 + 1 + 7 + 2 + 1


def test_a_forced_attempt_without_a_plan_ends_on_a_tile_everybody_knows():
    """Mandatory attempt, nothing known completes a contract: the bot fails at no cost on a public tile that
    does not fit (the next best thing to a pass) rather than showing the others an unknown tile."""
    st = new()
    place(st, {10: ("alphatite", 1)})
    st.public |= 1 << 10  # flipped back after an earlier attempt: everybody knows it
    for i in range(4):  # C01..C04 taken, so the public Alphatite completes nothing
        st.contract_owners[i] = 1
    play(st, 0, Prospect())
    bot = ScriptedAgent(strict=True)
    a = bot.act(decision(st, 0))
    assert isinstance(a, Declare)
    assert 0 not in st.cfg.contracts[st.cfg.contract_index[a.contract]].minerals  # Alphatite does not fit it
    play(st, 0, a)
    assert bot.act(decision(st, 0)) == Reveal(10)


def test_a_blind_reveal_prefers_squares_the_opponents_already_looked_at():
    st = new()
    st.looked[1] |= 1 << 30
    play(st, 0, Prospect())
    play(st, 0, Declare("C01"))
    assert ScriptedAgent(strict=True).act(decision(st, 0)) == Reveal(30)

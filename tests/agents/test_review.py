"""The game review (deltav.agents.review): every game, determinism, grades, budgets, and that a review uses only what
the reviewed seat knew."""

from __future__ import annotations

import copy

import pytest

from deltav.agents import make_agent
from deltav.agents.review import (
    GOOD,
    ReviewBudget,
    ReviewError,
    decision_points,
    grade,
    point_seed,
    review_record,
)
from deltav.core.match import play_match
from deltav.core.protocol import json_tokens
from deltav.core.records import MatchRecord
from deltav.core.session import Session
from deltav.games import load_all
from tests.secret_check import secret_history

GAMES = load_all()
CHEAP = ReviewBudget(rollouts=3, estimates=4)

# (game, scenario, steps kept: the long games are reviewed over their opening to keep the suite fast)
CASES = [("tactical", "duel", None), ("deepspace", "duel", None), ("knighthawks", "skirmish", 40),
         ("mining", "standard", 60)]


def _record(gid: str, scenario: str, seed: int, keep: int | None, specs=("easy", "normal")) -> MatchRecord:
    game = GAMES[gid]
    opts = game.resolve_options({"scenario": scenario})
    n = game.num_players(opts)
    agents = [make_agent(gid, specs[p % len(specs)]) for p in range(n)]
    record, _, _ = play_match(game, opts, seed, agents)
    if keep is not None and keep < len(record.steps):
        record = MatchRecord.from_json(record.to_json())
        record.steps = record.steps[:keep]
        record.result = record.returns = None
    return record


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def reviewed(request):
    gid, scenario, keep = request.param
    record = _record(gid, scenario, 11, keep)
    progress = []
    review = review_record(record, budget=CHEAP, progress=lambda done, total: progress.append((done, total)))
    return record, review, progress


def test_every_decision_of_every_seat_is_reviewed_in_words(reviewed):
    record, review, progress = reviewed
    game = GAMES[record.game]
    assert review["format"] == "deltav-review/1" and review["reviewed"] == list(range(len(record.seats)))
    assert [d["index"] for d in review["decisions"]] == list(range(len(record.steps)))
    assert progress[-1] == (len(record.steps), len(record.steps)) and len(progress) == len(record.steps)
    for d, st in zip(review["decisions"], record.steps, strict=True):
        assert d["seat"] == st.player and d["played"] == st.action
        game.action_from_json(d["best"])  # bot:hard's choice is an action of the game
        assert d["played_text"] and d["best_text"] and "{" not in d["played_text"]
        assert d["grade"] in {GOOD, "inaccuracy", "mistake", "blunder"}
        if d["same"] or d["forced"]:
            assert d["loss"] is None and d["grade"] == GOOD
        if d.get("valued"):
            assert 0 <= d["value_played"] <= 1 and 0 <= d["value_best"] <= 1 and 1 <= d["rollouts"] <= 3
            assert d["loss"] == pytest.approx(d["value_best"] - d["value_played"], abs=1e-3)
    valued = [d for d in review["decisions"] if d.get("valued")]
    assert len(valued) <= CHEAP.estimates
    for s in review["summary"]:
        mine = [d for d in review["decisions"] if d["seat"] == s["seat"]]
        assert s["decisions"] == len(mine)
        assert s["blunders"] == sum(d["grade"] == "blunder" for d in mine)


def test_the_same_record_and_budget_give_the_same_review(reviewed):
    record, review, _ = reviewed
    again = review_record(MatchRecord.from_json(record.to_json()), budget=CHEAP)
    assert again == review


def test_bot_hards_choice_is_what_bot_hard_plays_in_that_seat():
    """Reviewing bot:hard's own match: the reviewer follows the seat as the match did, so it mostly agrees (its
    seeds differ from the match's, so a searching bot may choose otherwise now and then)."""
    record = _record("tactical", "duel", 3, None, specs=("hard", "normal"))
    review = review_record(record, seats=[0], budget=CHEAP)
    choices = [d for d in review["decisions"] if not d["forced"]]
    assert choices and sum(d["same"] for d in choices) >= 0.8 * len(choices)


def test_a_played_blunder_is_graded_by_its_sure_loss():
    assert grade(None, 0.0) == GOOD
    assert grade(0.5, 0.1) == "blunder"
    assert grade(0.35, 0.1) == "mistake"  # 0.25 sure
    assert grade(0.25, 0.1) == "inaccuracy"
    assert grade(0.15, 0.1) == GOOD  # within noise
    assert grade(-0.4, 0.1) == GOOD  # the player's choice looked better


def test_budget_is_read_and_checked():
    b = ReviewBudget.parse("rollouts=5, estimates=none,horizon=30,seconds=9.5")
    assert (b.rollouts, b.estimates, b.horizon, b.seconds) == (5, None, 30, 9.5)
    for bad in ("rollouts=0", "rollouts=1e9", "rollouts=2.5", "seconds=nan", "seconds=inf", "speed=3", "rollouts",
                "horizon=-1", "x" * 400):
        with pytest.raises(ReviewError):
            ReviewBudget.parse(bad)


def test_a_horizon_scores_the_playouts_with_the_games_evaluation():
    record = _record("tactical", "duel", 5, None)
    review = review_record(record, budget=ReviewBudget(rollouts=2, horizon=2))
    assert any(d.get("valued") for d in review["decisions"])


def test_bad_seats_and_broken_records_are_refused():
    record = _record("tactical", "duel", 5, None)
    with pytest.raises(ReviewError, match="no seat 2"):
        review_record(record, seats=[2], budget=CHEAP)
    broken = MatchRecord.from_json(record.to_json())
    broken.steps[3].events = [{"type": "made up"}]
    with pytest.raises(ReviewError, match="step 3"):
        review_record(broken, budget=CHEAP)
    wrong = MatchRecord.from_json(record.to_json())
    wrong.steps[2].action = {"type": "nonsense"}
    with pytest.raises(ReviewError, match="step 2"):
        review_record(wrong, budget=CHEAP)
    out_of_turn = MatchRecord.from_json(record.to_json())
    out_of_turn.steps[1].player = 1 - out_of_turn.steps[1].player  # a duel: one seat decides at a time
    with pytest.raises(ReviewError, match="step 1: seat . is not to decide here"):
        list(decision_points(out_of_turn))


# --- hidden information ---------------------------------------------------------------------------------------

HIDDEN = [*CASES, ("tactical", "escape", 60), ("deepspace", "design-duel", None)]


@pytest.mark.parametrize("gid,scenario,keep", HIDDEN, ids=[f"{c[0]}-{c[1]}" for c in HIDDEN])
def test_the_reviewer_gets_only_what_the_seat_knew(gid, scenario, keep):
    """Every input of the reviewer (the Decision's view and legal actions, the events the seat saw) holds no token
    the true state calls secret from that seat at that time: mining's face-down tiles and secret looks, the fog of
    war of tactical's Escape, Deep Space Combat's secret designs and plots, Knight Hawks' hidden orders."""
    record = _record(gid, scenario, 7, keep if keep is not None else 60)
    history = secret_history(record, range(len(record.seats)))
    game = GAMES[gid]
    checked = 0
    for point in decision_points(record):
        secret = history[point.step][point.seat]
        shown = json_tokens(point.decision.view) | json_tokens([a.to_json() for a in point.decision.legal_actions])
        assert not shown & secret, (point.index, sorted(shown & secret)[:5])
        for e in point.seen:  # only events the seat was shown
            assert e.visible_to(point.seat)
        told = json_tokens([e.to_json() for e in point.seen])
        assert not told & secret & history[max(0, point.step - 1)][point.seat], (point.index, sorted(told & secret)[:5])
        assert point.decision.view == Session.replay(_prefix(record, point.step)).state.view(point.seat)
        assert point.decision.game is game
        checked += 1
    assert checked


def _prefix(record: MatchRecord, steps: int) -> MatchRecord:
    out = MatchRecord.from_json(record.to_json())
    out.steps = out.steps[:steps]
    out.result = out.returns = None
    return out


def test_a_secret_the_seat_did_not_know_does_not_change_its_review():
    """Deep Space Combat's design duel: both sides pick their fleets in secret at one simultaneous node. Seat 1's
    choice changes; seat 0's review of its decisions until the fleets are revealed stays the same."""
    game = GAMES["deepspace"]
    opts = game.resolve_options({"scenario": "design-duel"})
    reviews = []
    for pick in (0, -1):
        s = Session(game, opts, 4)
        fleets = s.legal_actions(1)
        assert len(fleets) > 1
        s.submit_action(0, s.legal_actions(0)[0])
        s.submit_action(1, fleets[pick])
        s.submit_action(0, s.legal_actions(0)[-1])
        s.submit_action(1, s.legal_actions(1)[-1])
        record = copy.deepcopy(s.record)
        points = list(decision_points(record, [0]))
        assert len(points) == 2
        reviews.append((review_record(record, [0], ReviewBudget(rollouts=4))["decisions"],
                        [point_seed(p) for p in points], fleets[pick]))
    (a, seeds_a, fleet_a), (b, seeds_b, fleet_b) = reviews
    assert fleet_a != fleet_b
    assert seeds_a == seeds_b
    assert a == b

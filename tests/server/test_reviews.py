"""Game reviews on a real server: a bot match played to the end, its review asked for, followed to the end and
equal to the one ``deltav review`` makes (it ran on a real bot-worker process); refusals are clear and change
nothing (docs/server.md, "Game reviews")."""

from __future__ import annotations

import time
import urllib.request

import pytest

from deltav.agents.review import review_record
from deltav.core.records import MatchRecord
from deltav.server.reviews import SERVER_BUDGET
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, http


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("reviews") / "reviews.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=0, bot_workers=1, chosen_seeds="any")) as srv:
        yield srv


def _finished(server, seed: int, game: str = "tactical", options: dict | None = None) -> str:
    status, made = http(server.base, "POST", "/rooms", {"game": game, "options": options or {"scenario": "duel"},
                                                        "seats": ["bot:easy", "bot:normal"], "seed": seed})
    assert status == 201, made
    code = made["code"]
    deadline = time.time() + 120
    while time.time() < deadline:
        status, rec = http(server.base, "GET", f"/rooms/{code}/record?match=1")
        if status == 200:
            return code
        time.sleep(0.2)
    raise AssertionError("the bot match never finished")


def _follow(server, code: str, seen: list) -> dict:
    deadline = time.time() + 300
    while time.time() < deadline:
        status, got = http(server.base, "GET", f"/rooms/{code}/review?match=1")
        assert status == 200, got
        seen.append((got["status"], got["done"], got["total"]))
        if got["status"] in ("done", "failed"):
            return got
        time.sleep(0.6)  # under the review class's 2 a second: a client that polls politely is never refused
    raise AssertionError("the review never finished")


@pytest.mark.parametrize("game,options", [
    ("tactical", {"scenario": "duel"}), ("mining", {"max_turns": 12}), ("deepspace", {"scenario": "design-duel"}),
    ("knighthawks", {"scenario": "skirmish", "turn_limit": 1}),
], ids=["tactical", "mining", "deepspace", "knighthawks"])
def test_a_finished_bot_match_is_reviewed_on_the_workers_as_the_cli_reviews_it(server, game, options):
    """On a worker process (every decision's reviewer, shadow bot:hard included, goes there and back pickled)."""
    code = _finished(server, 21, game, options)
    status, none = http(server.base, "GET", f"/rooms/{code}/review?match=1")
    assert status == 200 and none["status"] == "none"
    status, started = http(server.base, "POST", f"/rooms/{code}/review?match=1", {})
    assert status == 202 and started["status"] in ("queued", "running"), started
    seen: list = []
    got = _follow(server, code, seen)
    assert got["status"] == "done", got
    review = got["review"]
    status, record = http(server.base, "GET", f"/rooms/{code}/record?match=1")
    assert len(review["decisions"]) == len(record["steps"]) == got["total"] == got["done"]
    assert [d for d in review["decisions"] if d.get("failed")] == []
    assert review == review_record(MatchRecord.from_json(record), budget=SERVER_BUDGET)  # deterministic, same words
    assert all(done <= (total or 0) for _, done, total in seen if total is not None)
    status, again = http(server.base, "POST", f"/rooms/{code}/review?match=1", {})
    assert status == 200 and again["status"] == "done" and again["review"] == review  # cached: not reviewed again


def test_review_refusals_are_clear_and_change_nothing(server):
    code = _finished(server, 22)
    status, got = http(server.base, "POST", f"/rooms/{code}/review?match=2", {})
    assert status == 409 and got["error"] == "not_finished"
    status, got = http(server.base, "POST", f"/rooms/{code}/review?match=x", {})
    assert status == 400 and got["error"] == "bad_request" and got["field"] == "match"
    status, got = http(server.base, "POST", "/rooms/QQQQQ/review", {})
    assert status == 404 and got["error"] == "unknown_room"
    status, got = http(server.base, "POST", f"/rooms/{code}/review", [1, 2])
    assert status == 400 and got["error"] == "bad_request"
    big = urllib.request.Request(f"{server.base}/rooms/{code}/review", data=b'{"a": "' + b"x" * 70_000 + b'"}',
                                 method="POST", headers={"content-type": "application/json"})
    try:
        urllib.request.urlopen(big, timeout=10)
        raise AssertionError("a huge body was accepted")
    except urllib.error.HTTPError as exc:
        assert exc.code == 413
    status, got = http(server.base, "GET", f"/rooms/{code}/review?match=1")
    assert status == 200 and got["status"] == "none"  # nothing was started by the refusals


def test_asking_for_reviews_is_rate_limited_per_address(tmp_path):
    from deltav.server.guard import route_class
    from deltav.server.limits import RATES, Limits

    assert route_class("POST", "/rooms/ABCDE/review") == route_class("GET", "/rooms/ABCDE/review") == "review"
    limits = Limits(rates=dict(RATES, review=(0.01, 3)))
    with ThreadServer(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}",
                      Settings(grace_seconds=0, bot_workers=0, chosen_seeds="any", limits=limits)) as srv:
        code = _finished(srv, 23)
        answers = [http(srv.base, "GET", f"/rooms/{code}/review")[0] for _ in range(3)]
        status, got = http(srv.base, "POST", f"/rooms/{code}/review", {})
        assert answers == [200, 200, 200] and status == 429 and got["error"] == "rate_limited", got
        assert "review" in got["message"]


def test_one_review_per_room_at_a_time_and_a_bounded_number_on_the_server():
    """The review module with a real BotRunner (threads): a second review of the same room waits for the first; past
    ``max_active`` a review is refused (review_busy, 503) and nothing is started."""
    import asyncio

    from deltav.agents import make_agent
    from deltav.core.match import play_match
    from deltav.games import load_all
    from deltav.server.bot_workers import BotRunner
    from deltav.server.reviews import ReviewBudget, ReviewRefused, Reviews

    games = load_all()
    game = games["tactical"]
    opts = game.resolve_options({"scenario": "duel"})
    records = [play_match(game, opts, s, [make_agent("tactical", "easy"), make_agent("tactical", "normal")])[0].to_json()
               for s in (1, 2, 4)]

    async def main():
        runner = BotRunner(0)
        reviews = Reviews(runner, games, ReviewBudget(rollouts=2), max_active=2)
        try:
            a = reviews.start("ROOMA", 1, records[0])
            b = reviews.start("ROOMA", 2, records[1])
            assert a["status"] == b["status"] == "queued"
            with pytest.raises(ReviewRefused) as refused:
                reviews.start("ROOMB", 1, records[2])
            assert refused.value.status == 503 and refused.value.code == "review_busy"
            assert reviews.status("ROOMB", 1)["status"] == "none"
            both_running = False
            while {reviews.status("ROOMA", n)["status"] for n in (1, 2)} != {"done"}:
                states = [reviews.status("ROOMA", n)["status"] for n in (1, 2)]
                both_running |= states == ["running", "running"]
                await asyncio.sleep(0.01)
            assert not both_running  # one review per room at a time
            assert reviews.start("ROOMB", 1, records[2])["status"] == "queued"  # room again once they are done
            while reviews.status("ROOMB", 1)["status"] != "done":
                await asyncio.sleep(0.01)
            assert reviews._room_locks == {}  # noqa: SLF001 - nothing kept for rooms with no review running
        finally:
            reviews.close()
            runner.close()

    asyncio.run(main())

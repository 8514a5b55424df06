"""Who chooses a match's seed (issue 32, item 7).

The seed decides every random draw of a match (shuffles, dice, hidden set-ups): whoever knows it and the options
can play the match offline and read every hidden card. Before, ``POST /rooms`` took a ``seed`` for any room, so a
creator reproduced the opponent's private view (mining, tactical Escape, deepspace) and the joiner could not tell.
Now, between people the server draws the seed; a chosen seed is only for rooms whose every seat is the creator's
own or a bot, and it is then in the room's info for everyone to see.
"""

from __future__ import annotations

from tests.server.helpers import room_socket
from tests.server.test_protocol import client, state


def make(c, seats, seed=None, **extra):
    body = {"game": "mining", "seats": seats, **extra}
    if seed is not None:
        body["seed"] = seed
    return c.post("/rooms", json=body)


def test_between_people_a_chosen_seed_is_refused_and_changes_nothing(tmp_path):
    with client(tmp_path, chosen_seeds="solo") as c:
        r = make(c, ["human", "human"], seed=12345)
        assert r.status_code == 400, r.text
        got = r.json()
        assert got["error"] == "bad_seed" and got["field"] == "seed"
        assert "between people the server draws the seed" in got["message"]
        assert c.get("/rooms").json() == []
        drawn = make(c, ["human", "human"], public=True).json()
        assert drawn["room"]["seed"] is None  # drawn by the server, shown to nobody while the match is played


def test_a_chosen_seed_against_bots_is_shown_to_everyone(tmp_path):
    with client(tmp_path, chosen_seeds="solo") as c:
        mine = make(c, ["human", "bot:easy"], seed=12345).json()
        assert mine["room"]["seed"] == 12345
        assert c.get(f"/rooms/{mine['code']}").json()["seed"] == 12345
        with room_socket(c, f"/ws/{mine['code']}") as spectator:
            assert state(spectator)["room"]["seed"] == 12345
        bots = make(c, ["bot:random", "bot:random"], seed=7).json()
        assert bots["room"]["seed"] == 7
        drawn = make(c, ["human", "bot:easy"]).json()
        assert drawn["room"]["seed"] is None


def test_a_server_that_allows_any_chosen_seed_shows_it_to_the_joiner(tmp_path):
    with client(tmp_path, chosen_seeds="any") as c:
        made = make(c, ["human", "human"], seed=99).json()
        joined = c.post(f"/rooms/{made['code']}/join", json={}).json()
        assert joined["room"]["seed"] == 99  # the joiner can tell

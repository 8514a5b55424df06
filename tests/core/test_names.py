"""The seats' names and the one describer of a match: ``Game.describer(options, names)``, the convenience
``Game.describe_value(v, names)``, ``Session(..., names=)`` and ``Session.set_names`` (texts built again), the
record's ``meta.names``, and the CLI reading them back."""

from __future__ import annotations

import json

import pytest

from deltav import cli
from deltav.core.protocol import Game, default_names, generic_text, get_game, player_names
from deltav.core.session import Session
from tests.toygame import BidPlaced, Moved


def play_out(s: Session) -> None:
    while not s.is_over():
        for p in s.deciding():
            s.submit(p, s.snapshot(p)["legal"][0]["action"])


def test_default_names_are_player_1_to_n():
    assert default_names(3) == ["Player 1", "Player 2", "Player 3"]
    assert player_names(None, 2) == ["Player 1", "Player 2"]
    assert player_names(("Ann", "Ben"), 2) == ["Ann", "Ben"]
    with pytest.raises(ValueError):
        player_names(["Ann"], 2)
    with pytest.raises(ValueError):
        player_names(["Ann", 3], 2)


def test_describe_value_is_the_describer_of_the_default_options():
    toy = get_game("toy")
    assert toy.describe_value(BidPlaced(1)) == "Player 2 placed a bid"
    assert toy.describe_value(BidPlaced(1), names=["Ann", "Ben"]) == "Ben placed a bid"
    assert toy.describe_value({"type": "moved", "player": 0, "size": 2, "roll": 6, "position": 3}) == \
        "Player 1 steps 2 (rolled 6) to 3"
    describe = toy.describer(toy.resolve_options({}), ["Ann", "Ben"])
    assert describe(Moved(0, 1, 4, 1)) == "Ann steps 1 (rolled 4) to 1"
    assert describe({"type": "moved", "player": 9}) == generic_text(toy, {"type": "moved", "player": 9})


def test_a_game_that_only_overrides_describe_value_keeps_its_wording():
    class Plain(Game):  # not registered: the base class's defaults
        id = "plain-test"
        events = get_game("toy").events
        actions = get_game("toy").actions

    assert Plain.describer({}, None)(BidPlaced(0)) == "bid_placed player=0" == Plain.describe_value(BidPlaced(0))
    mining = get_game("mining")
    opts = mining.resolve_options({})
    action = mining.new_initial_state(opts, 1).legal_actions(0)[0]
    assert mining.describer(opts, None)(action) == mining.describe_value(action)


def test_a_session_writes_every_text_with_the_seats_names():
    s = Session(get_game("toy"), {}, 3, ["human", "bot:easy"], names=["Ann", "Easy bot"])
    assert s.snapshot(None)["names"] == ["Ann", "Easy bot"]
    s.submit(0, {"type": "bid", "amount": 1})
    assert s.snapshot(0)["submitted"]["text"] == "bid 1"
    s.submit(1, {"type": "bid", "amount": 0})
    texts = [e["text"] for e in s.log(None)]
    assert texts[:2] == ["Ann placed a bid", "Easy bot placed a bid"]
    assert texts[2] == "bids 1 and 0: Ann moves first"
    assert s.record.meta["names"] == ["Ann", "Easy bot"]
    plain = Session(get_game("toy"), {}, 3, ["human", "bot:easy"])
    assert plain.snapshot(None)["names"] == ["Player 1", "Player 2"] and "names" not in plain.record.meta


def test_set_names_writes_the_texts_again_and_keeps_the_match():
    s = Session(get_game("toy"), {}, 3, ["human", "human"])
    s.submit(0, {"type": "bid", "amount": 1})
    s.submit(1, {"type": "bid", "amount": 2})
    mover = s.deciding()[0]
    before = [e["text"] for e in s.log(mover)]
    assert before[0] == "Player 1 placed a bid"
    legal_before = s.snapshot(mover)["legal"]
    state, steps = json.dumps(s.state.to_json()), s.step
    s.set_names(["Ann", "Ben"])
    assert [e["text"] for e in s.log(mover)][:3] == ["Ann placed a bid", "Ben placed a bid", "bids 1 and 2: Ben moves first"]
    assert [e["text"] for e in s.log(None)][0] == "Ann placed a bid"
    assert s.snapshot(mover)["legal"] == legal_before  # actions named no player: the same entries
    assert json.dumps(s.state.to_json()) == state and s.step == steps and s.record.meta["names"] == ["Ann", "Ben"]
    with pytest.raises(ValueError):
        s.set_names(["only one"])
    assert s.names == ["Ann", "Ben"]
    s.set_names(None)
    assert s.log(None)[0]["text"] == "Player 1 placed a bid" and "names" not in s.record.meta


def test_a_record_keeps_the_names_and_its_replay_and_the_cli_use_them(tmp_path, capsys):
    s = Session(get_game("toy"), {}, 5, ["human", "human"], names=["Ann", "Ben"])
    play_out(s)
    again = Session.replay(s.record)
    assert again.names == ["Ann", "Ben"]
    assert [e["text"] for e in again.log(None, 0)] == [e["text"] for e in s.log(None, 0)]
    path = s.record.save(tmp_path / "toy.json")
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ann placed a bid" in out and "Ben placed a bid" in out

"""Landing from orbit between two equally near bases (issue 32.14, ruling 8, option ``landing_tie``): the
ship lands where its burn points, then on its own side's base; ``"reference"`` keeps the reference game's
first-in-hex-order choice (Mercury (0,3) before (2,3), Venus (-5,5) before (-5,7)), whoever owns the base."""

from __future__ import annotations

from deltav.games.tactical.mapdata import default_map
from deltav.games.tactical.messages import Order
from deltav.games.tactical.preview import preview_course

from .helpers import end_turn, new_state, place


def duel_landing(landing_tie="aim"):
    """Duel: player 1's frigate (its base is Mercury's W base (0,3); player 0's is the E base (2,3)) stopped at
    (0,5), two hexes from both bases: one burn NW or NE puts it in Mercury's gravity, in orbit, so it may land."""
    s = new_state("duel", landing_tie=landing_tie)
    s.active_player = s.first_player = 1
    place(s, "p0s0", (8, -8), (0, 0), detected=True)
    place(s, "p1s0", (0, 5), (0, 0), detected=True, fuel=5)
    return s


def test_the_reference_order_puts_mercurys_west_base_and_venus_northeast_base_first():
    m = default_map()
    assert m.reference_bases_of["Mercury"][0] == (0, 3) and m.bases_of["Mercury"][0] == (2, 3)
    assert m.reference_bases_of["Venus"][:2] == ((-5, 5), (-5, 7))
    assert m.reference_bases_of["Mars"][0] == (-8, -6) and m.reference_bases_of["Terra"][0] == (7, -7)


def test_the_duel_frigate_lands_on_the_base_its_burn_points_at_and_is_resupplied_at_its_own():
    s = duel_landing()
    nw, ne = Order("p1s0", 2, land=True), Order("p1s0", 1, land=True)
    assert nw in s.legal_actions(1) and ne in s.legal_actions(1)
    assert preview_course(s, "p1s0", nw).destination == (0, 3)  # toward its own base
    assert preview_course(s, "p1s0", ne).destination == (2, 3)  # toward the enemy's: asked for
    s.apply_action(1, nw)
    events = end_turn(s, 1)
    assert [(e.TYPE, e.hex) for e in events if e.TYPE in ("ship_landed", "ship_resupplied")] == [
        ("ship_landed", "0,3"), ("ship_resupplied", "0,3")]
    assert s.ship("p1s0").fuel == 20


def test_with_the_reference_ruling_every_tied_landing_takes_the_first_base_in_hex_order():
    s = duel_landing("reference")
    for burn in (1, 2):
        assert preview_course(s, "p1s0", Order("p1s0", burn, land=True)).destination == (0, 3)
    s.players[1].bases = ((2, 3),)  # whoever owns it
    assert preview_course(s, "p1s0", Order("p1s0", 1, land=True)).destination == (0, 3)


def test_when_the_burn_points_at_neither_the_ships_own_base_wins():
    """Venus (-9,8), moving NW one hex a turn: braking with a SE burn leaves it on its hex, as near to the
    NW-most base (-9,7) as to (-9,9); it lands on the one its side controls."""
    for own, want in (((-9, 9),), (-9, 9)), (((-9, 7),), (-9, 7)):
        s = new_state("biplanetary")
        s.active_player = 0
        place(s, "p0s0", (-9, 8), (0, -1), fuel=5)
        s.players[0].bases = own
        assert preview_course(s, "p0s0", Order("p0s0", 5, land=True)).destination == want


def test_a_record_made_before_ruling_8_replays_as_it_was_played():
    """A record without ``landing_tie`` (stored before the option existed) is read with the option's legacy value,
    the reference's order it was played with (``Game.stored_options``): Duel seed 47 of two easy bots lands on a tied
    base at step 36, which the new default would put on the other base."""
    from deltav.agents.registry import make_agent
    from deltav.core.match import play_match
    from deltav.core.protocol import get_game
    from deltav.core.records import MatchRecord, replay
    from deltav.core.session import Session
    from deltav.server.replays import build

    game = get_game("tactical")
    record, _, _ = play_match(game, {"scenario": "duel", "landing_tie": "reference"}, 47,
                              [make_agent(game, "easy"), make_agent(game, "easy")])
    old = record.to_json()
    del old["options"]["landing_tie"]  # as a record of the engine before ruling 8 holds them
    as_aim = {**old, "options": {**old["options"], "landing_tie": "aim"}}
    import pytest

    from deltav.core.errors import RecordError
    with pytest.raises(RecordError, match="step 36"):  # the new default plays this match differently
        replay(MatchRecord.from_json(as_aim))
    replay(MatchRecord.from_json(old))  # the CLI's verified replay
    assert Session.replay(MatchRecord.from_json(old)).step == len(record.steps)
    assert build(old, {"tactical": game}).positions[-1] == len(record.steps)  # the server's replays
    steps = [(s.player, s.action) for s in record.steps]
    resumed = Session.resume(game, old["options"], 47, old["seats"], steps)  # a stored room restarted
    assert resumed.record.to_json()["steps"] == record.to_json()["steps"]

"""One item per ship per turn (issue 26.10): a second launch from the same ship is refused with that rule (not
the cargo rule), the legal actions stop offering launches from it, and the ``end_ordnance`` note says why each
allowed kind cannot be launched by each ship."""

from __future__ import annotations

import pytest

from deltav.core.errors import IllegalAction
from deltav.games.tactical.messages import EndAstrogation, EndOrdnance, Launch, Order

from .helpers import GAME, new_state, place


def _ordnance_phase():
    s = new_state("duel")
    s.active_player = s.first_player = 0
    place(s, "p0s0", (0, 0), (1, 0), detected=True)
    place(s, "p1s0", (-5, 5), (0, 0), detected=True)
    s.apply_action(0, Order("p0s0", 0))
    s.apply_action(0, EndAstrogation())
    assert s.phase == "ordnance"
    return s


@pytest.mark.parametrize("kind", ["mine", "torpedo", "nuke"])
def test_a_second_launch_from_one_ship_breaks_one_item_per_ship_per_turn(kind):
    s = _ordnance_phase()
    s.apply_action(0, Launch("p0s0", "mine"))
    assert s.ship("p0s0").free_cargo() >= 20  # the frigate still has room: cargo is not the reason
    with pytest.raises(IllegalAction) as exc:
        s.clone().apply_action(0, Launch("p0s0", kind))
    assert exc.value.rule == "tactical.ordnance.one_per_ship"
    assert "one item per ship per turn" in str(exc.value) and "cargo" not in str(exc.value)
    assert [a.TYPE for a in s.legal_actions(0)] == ["end_ordnance"]


def test_the_end_ordnance_note_gives_the_rule_each_refused_kind_breaks():
    s = _ordnance_phase()
    legal = s.legal_actions(0)
    note = GAME.annotate_legal(s, 0, legal)[legal.index(EndOrdnance())]
    assert note == {"unavailable": []}  # a frigate with a burn may launch all three
    s.apply_action(0, Launch("p0s0", "torpedo"))
    legal = s.legal_actions(0)
    note = GAME.annotate_legal(s, 0, legal)[legal.index(EndOrdnance())]
    assert [(u["ship"], u["kind"], u["rule"]) for u in note["unavailable"]] == [
        ("p0s0", k, "tactical.ordnance.one_per_ship") for k in ("mine", "torpedo", "nuke")]
    assert all("one item per ship per turn" in u["reason"] for u in note["unavailable"])

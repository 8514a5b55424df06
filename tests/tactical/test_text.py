"""The tactical wording of actions and events (text.py): every value has its own sentence, never the generic
``tag key=value`` form, and the numbers follow the in-game help (burn keys 1-6, penalties off the die)."""

from __future__ import annotations

import inspect

from deltav.core.rng import Rng
from deltav.core.session import Session
from deltav.games.tactical import text
from deltav.games.tactical.messages import ACTIONS, EVENTS, Order

from .helpers import GAME


def test_every_action_and_event_tag_is_worded():
    source = inspect.getsource(text)
    missing = [cls.TYPE for cls in (*ACTIONS, *EVENTS) if f'"{cls.TYPE}"' not in source]
    assert not missing


def test_orders_use_the_helps_direction_keys():
    assert GAME.describe_value(Order("p0s0", 0)) == "p0s0: burn 1 E"
    assert GAME.describe_value(Order("p0s0", 1, 3)) == "p0s0: burn 2 NE + overload 4 W"
    assert GAME.describe_value(Order("p0s0", None)) == "p0s0: coast"
    assert GAME.describe_value(Order("p0s0", 5, land=True)) == "p0s0: burn 6 SE, land"


def test_attack_modifiers_are_penalties_and_private_events_name_their_audience():
    ev = {"type": "attack_declared", "attackers": ["p0s0", "p0s1"], "target": "p1s0", "strength": 4, "defense": 2,
          "odds": "2:1", "range_mod": 2, "velocity_mod": 1, "heroism": 0}
    assert GAME.describe_value(ev) == "p0s0, p0s1 attack p1s0: 4 vs 2 = 2:1 (range -2, velocity -1)"
    landed = {"type": "ship_landed", "ship": "p0s0", "hex": "-9,-6", "body": "Mars", "to": [0]}
    assert GAME.describe_value(landed) == "(to player 0) p0s0 lands on Mars at -9,-6"


def test_random_games_never_fall_back_to_the_generic_wording():
    generic = 0
    for sc in ("biplanetary", "duel", "convoy", "fleet_action", "evacuation"):
        s = Session(GAME, {"scenario": sc}, 3, ["a", "b"])
        r = Rng(3)
        for _ in range(400):
            if s.is_over():
                break
            p = list(s.waiting_for())[0]
            legal = s.legal_actions(p)
            a = legal[r.below(len(legal))]
            lines = [GAME.describe_value(a)]
            for applied in s.submit_action(p, a).applied:
                lines += [GAME.describe_value(e) for e in applied.events]
            generic += sum(1 for t in lines if '="' in t or "=[" in t or "=null" in t)
    assert generic == 0


def test_a_torpedo_launch_says_how_far_it_is_boosted_and_which_way():
    """The boost is 1 or 2 hexes toward a direction key: both numbers are said (it read "boosted 2 NE" for both)."""
    one = text.describe({"type": "launch", "ship": "p0s2", "kind": "torpedo", "boost": 1, "boost_dir": 1}, False)
    two = text.describe({"type": "launch", "ship": "p0s2", "kind": "torpedo", "boost": 2, "boost_dir": 1}, False)
    assert one == "p0s2: launch a torpedo, boosted 1 hex toward 2 NE"
    assert two == "p0s2: launch a torpedo, boosted 2 hexes toward 2 NE"
    assert text.describe({"type": "launch", "ship": "p0s2", "kind": "mine", "boost": 0, "boost_dir": None},
                         False) == "p0s2: launch a mine"

"""Typed values: JSON forms and the codec's field checks."""

from __future__ import annotations

from typing import Literal

import pytest

from deltav.core.errors import MalformedAction
from deltav.core.values import Action, Codec, Event, value


@value("order")
class Order(Action):
    ship: str
    burn: int | None
    ignore: tuple[str, ...] = ()


@value("pair")
class Pair(Action):
    at: tuple[int, int]
    kind: Literal["mine", "torpedo"]
    order: Order | None = None


@value("seen")
class Seen(Event):
    square: int
    tile: str
    to: tuple[int, ...] | None = None


CODEC = Codec([Order, Pair])


def test_json_form_and_round_trip():
    o = Order("p0s0", 3, ("1,2",))
    assert o.to_json() == {"type": "order", "ship": "p0s0", "burn": 3, "ignore": ["1,2"]}
    assert CODEC.decode(o.to_json()) == o
    p = Pair((1, -2), "mine", o)
    assert CODEC.decode(p.to_json()) == p
    assert hash(p) == hash(CODEC.decode(p.to_json()))


def test_defaults_may_be_omitted():
    assert CODEC.decode({"type": "order", "ship": "x", "burn": None}) == Order("x", None)


@pytest.mark.parametrize(
    "obj, field",
    [
        ({"type": "nope"}, "action.type"),
        ({"ship": "x"}, "action.type"),
        ({"type": "order", "burn": 1}, "action.ship"),
        ({"type": "order", "ship": 5, "burn": 1}, "action.ship"),
        ({"type": "order", "ship": "x", "burn": "1"}, "action.burn"),
        ({"type": "order", "ship": "x", "burn": True}, "action.burn"),
        ({"type": "order", "ship": "x", "burn": 1, "extra": 0}, "action.extra"),
        ({"type": "order", "ship": "x", "burn": 1, "ignore": "1,2"}, "action.ignore"),
        ({"type": "order", "ship": "x", "burn": 1, "ignore": [1]}, "action.ignore[0]"),
        ({"type": "pair", "at": [1], "kind": "mine"}, "action.at"),
        ({"type": "pair", "at": [1, 2], "kind": "nuke"}, "action.kind"),
        ({"type": "pair", "at": [1, 2], "kind": "mine", "order": {"type": "pair"}}, "action.order"),
        ("text", "action"),
    ],
)
def test_malformed_values_name_the_field(obj, field):
    with pytest.raises(MalformedAction) as err:
        CODEC.decode(obj)
    assert err.value.field.startswith(field)
    assert err.value.rule == "protocol.malformed"


def test_event_audience():
    public = Seen(3, "t1")
    private = Seen(3, "t1", to=(2,))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(2) and not private.visible_to(1) and not private.visible_to(None)
    assert Codec([Seen]).decode(private.to_json()) == private


def test_codec_check_refuses_wrong_instances_and_field_types():
    import pytest

    from deltav.core.errors import MalformedAction
    from deltav.core.values import Action, Codec, value

    @value("probe")
    class Probe(Action):
        n: int
        x: float
        tag: str | None = None

    codec = Codec([Probe])
    codec.check(Probe(1, 2.0))
    codec.check(Probe(1, 2, "a"))
    for bad in (Probe(True, 1.0), Probe(1.5, 1.0), Probe(1, float("nan")), Probe(1, 1.0, 3), "probe", None):
        with pytest.raises(MalformedAction):
            codec.check(bad)


def test_decode_refuses_nan_huge_numbers_and_deep_nesting_with_a_field_path():
    import json

    import pytest

    from deltav.core.errors import MalformedAction
    from deltav.core.values import Action, Codec, value

    @value("probe2")
    class Probe2(Action):
        n: int
        x: float

    codec = Codec([Probe2])
    assert codec.decode({"type": "probe2", "n": 3, "x": 2}) == Probe2(3, 2.0)
    cases = [
        ({"type": "probe2", "n": 3, "x": float("nan")}, "action.x"),
        ({"type": "probe2", "n": 10**5000, "x": 1.0}, "action.n"),
        ({"type": "probe2", "n": json.loads("[" * 900 + "]" * 900), "x": 1.0}, "action.n"),
        ({"type": "probe2", "n": 3, "x": 1.0, "y" * 5000: 1}, None),
    ]
    for obj, field in cases:
        with pytest.raises(MalformedAction) as info:
            codec.decode(obj)
        if field is not None:
            assert info.value.field == field
        assert len(str(info.value)) < 400


def test_codec_check_survives_half_built_values():
    import pytest

    from deltav.core.errors import MalformedAction
    from deltav.core.values import Action, Codec, value

    @value("probe3")
    class Probe3(Action):
        n: int

    codec = Codec([Probe3])
    half = object.__new__(Probe3)  # no field set: repr() itself raises
    with pytest.raises(MalformedAction) as info:
        codec.check(half)
    assert info.value.field == "action.n"


def test_the_compiled_check_agrees_with_the_field_walk_for_every_game():
    """Codec.check's fast path (one predicate compiled from the annotations) accepts exactly what the field-by-field
    walk accepts, for every action class of the four games, on random field values of every type."""
    import dataclasses
    import math

    from deltav.core.errors import MalformedAction
    from deltav.core.protocol import registered_games
    from deltav.core.rng import Rng
    from deltav.games import load_all

    load_all()
    r = Rng(3)
    pool = [None, True, False, 0, 1, -3, 2**70, 1.0, 1.5, math.nan, math.inf, "", "x", "mine", "p0s0", (), ("1,2",),
            ("a", 1), (1, 2), [], ["1,2"], {}, object()]
    checked = 0
    for game in registered_games().values():
        codec = game.actions
        for cls in codec.classes.values():
            names = [f.name for f in dataclasses.fields(cls)]
            for _ in range(400 if names else 1):
                a = cls(**{n: pool[r.below(len(pool))] for n in names})
                fast = codec._fast[cls](a)
                try:
                    codec._explain(a)
                    walk = True
                except MalformedAction:
                    walk = False
                assert fast == walk, a
                checked += 1
    assert checked > 10_000


def test_compiled_encoders_write_the_generic_json_for_every_game():
    """Each value class's compiled ``to_json`` (scalar fields read as they are, the rest through ``_encode``) gives
    exactly the generic field loop's JSON, types included (lists, never tuples), for every action and event met
    in seeded random playouts of every scenario of the four games; and a value class declared here compiles too."""
    import json

    from deltav.core.protocol import registered_games
    from deltav.core.rng import Rng
    from deltav.core.values import _generic_to_json
    from deltav.games import load_all

    assert Pair((1, 2), "mine", Order("s", None)).to_json() == _generic_to_json(Pair((1, 2), "mine", Order("s", None)))
    assert type(Pair((1, 2), "mine").to_json()["at"]) is list
    load_all()
    rng = Rng(11)
    seen: set[str] = set()
    compared = 0
    for game in registered_games().values():
        for scenario in [s.id for s in game.scenarios()] or [None]:
            state = game.new_initial_state(game.resolve_options({"scenario": scenario} if scenario else {}), 5)
            for _ in range(150):
                if state.is_terminal():
                    break
                players = state.current_players()
                p = players[rng.below(len(players))]
                legal = state.legal_actions(p)
                action = legal[rng.below(len(legal))]
                for v in [action, *state.apply_action(p, action)]:
                    if type(v).to_json.__qualname__.endswith(f"{type(v).__name__}.to_json"):
                        continue  # the class writes its own JSON (e.g. deepspace's EndShip leaves out a missing name)
                    got, want = v.to_json(), _generic_to_json(v)
                    assert json.dumps(got) == json.dumps(want) and got == want, (type(v).__name__, got, want)
                    seen.add(f"{game.id}.{v.TYPE}")
                    compared += 1
    assert compared > 2_000 and len(seen) > 60, (compared, len(seen))

"""A state's fields declared once (``deltav.core.fields``): the derived ``clone`` copies or shares each field as
declared, ``to_json`` and the building from JSON round-trip, and the JSON shape is the declaration's (the toy
game and every game's state, each declared with it)."""

from __future__ import annotations

import json
import typing

import pytest

from deltav.core.errors import StateError
from deltav.core.fields import (
    COPY,
    COPY_DICT,
    COPY_OR_NONE,
    COPY_RECORD_OR_NONE,
    DICT,
    LIST,
    LIST_OR_NONE,
    TO_JSON_OR_NONE,
    Field,
    Fields,
)
from deltav.core.shape import read
from deltav.games import load_all
from tests.toygame import FIELDS as TOY_FIELDS
from tests.toygame import STATE_JSON, Bid, ToyGame, ToyState


def test_a_declaration_is_checked():
    with pytest.raises(ValueError, match="twice"):
        Fields(Field("a", int), Field("a", int))
    with pytest.raises(ValueError, match="unknown conversion"):
        Fields(Field("a", list[int], "deep"))
    with pytest.raises(ValueError, match="attribute name"):
        Fields(Field("a-b", int))


def test_the_toy_clone_copies_and_shares_as_declared():
    s = ToyGame.new_initial_state(None, 5)
    s.apply_action(0, Bid(2))
    c = s.clone()
    assert type(c) is ToyState and c.to_json() == s.to_json()
    c.apply_action(1, Bid(0))
    c.pos[0] = 9
    assert s.bids == [2, None] and s.pos == [0, 0] and s.phase == "bid"  # the copied lists are the clone's own
    assert c.options is s.options  # shared, as declared
    assert c.rng is not s.rng and c.rng.to_json() == s.rng.to_json()


def test_the_toy_json_shape_and_loading_follow_the_declaration():
    s = ToyGame.new_initial_state(None, 5)
    doc = s.to_json()
    hints = typing.get_type_hints(STATE_JSON, include_extras=True)
    assert list(hints) == list(doc) == [f.key for f in TOY_FIELDS.saved]
    t = ToyGame.state_from_json(doc)
    assert t.to_json() == doc and t.options == {"scenario": "standard"} and t.num_players == 2
    with pytest.raises(StateError) as exc:
        ToyGame.state_from_json({**doc, "turn": 2})
    assert exc.value.field == "$.turn"


def test_deepspace_is_declared_once():
    game = load_all()["deepspace"]
    cls = type(game.new_initial_state(None, 1))
    from deltav.games.deepspace.state_schema import FIELDS, StateJ

    assert cls.fields is FIELDS and cls.__slots__ == FIELDS.slots
    s = game.new_initial_state({"scenario": "duel"}, 4)
    while s.phase in ("design", "deploy"):
        p = s.current_players()[0]
        s.apply_action(p, s.legal_actions(p)[-1])
    doc = s.to_json()
    hints = typing.get_type_hints(StateJ, include_extras=True)
    assert list(doc) == list(hints) == ["game", *(f.key for f in FIELDS.saved)]
    assert read(StateJ, doc, error=StateError) is not None
    back = game.state_from_json(doc)
    assert back.to_json() == doc and back.index == s.index
    c = s.clone()
    assert c.index is s.index and c.ships[0] is not s.ships[0] and c.waiting is not s.waiting
    twin = {**doc, "ships": [doc["ships"][0], doc["ships"][0], *doc["ships"][2:]]}
    with pytest.raises(StateError) as exc:
        game.state_from_json(twin)
    assert exc.value.field == "$.ships"


def test_an_unsaved_field_gets_its_default_when_loaded():
    class Tiny:
        __slots__ = ("xs", "cache")

    f = Fields(Field("xs", list[int], COPY, LIST, LIST), Field("cache", load_default=None))
    t = f.build(Tiny, {"xs": (1, 2)})
    assert t.xs == [1, 2] and t.cache is None
    assert f.to_json_function(Tiny)(t) == {"xs": [1, 2]}


def test_optional_keys_derived_keys_and_given_fields():
    class Tiny:
        __slots__ = ("n", "seen")

        @property
        def double(self) -> int:
            return 2 * self.n

    f = Fields(Field("n", int), Field("double", int, derived=True), Field("seen", dict[str, int], COPY_DICT, DICT,
                                                                          DICT, missing=dict),
               constants={"game": "tiny"}, optional_constants=True)
    assert f.slots == ("n", "seen")  # a derived key is the class's, not a slot
    shape = f.typed_dict("TinyJ")
    assert shape.__required_keys__ == {"n"} and shape.__optional_keys__ == {"game", "double", "seen"}
    old = f.build(Tiny, {"n": 3})  # a document from before "game", "double" and "seen" were written
    assert old.seen == {} and f.to_json_function(Tiny)(old) == {"game": "tiny", "n": 3, "double": 6, "seen": {}}
    t = f.build(Tiny, {"n": 3, "seen": {"a": 1}})
    c = f.clone_function(Tiny)(t)
    c.seen["b"] = 2
    assert t.seen == {"a": 1}  # copied, not shared
    assert f.build(Tiny, {"n": 3}, seen={"z": 9}).seen == {"z": 9}
    with pytest.raises(ValueError, match="no field"):
        f.build(Tiny, {"n": 3}, double=4)
    with pytest.raises(ValueError, match="derived"):
        Fields(Field("d", int, COPY, derived=True))
    assert read(shape, {"n": 1}, error=StateError) == {"n": 1}
    with pytest.raises(StateError) as exc:
        read(shape, {"game": "tiny"}, error=StateError)
    assert exc.value.field == "$.n"


def test_knighthawks_is_declared_once():
    game = load_all()["knighthawks"]
    cls = type(game.new_initial_state(None, 1))
    from deltav.games.knighthawks.state_schema import FIELDS, StateJson

    assert cls.fields is FIELDS and cls.__slots__ == FIELDS.slots and "mover" not in FIELDS.slots
    s = game.new_initial_state({"scenario": "escort"}, 4)
    for k in range(60):
        p = s.current_players()[0]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[k * 7 % len(acts)])
    assert not s.is_terminal()
    doc = s.to_json()
    hints = typing.get_type_hints(StateJson, include_extras=True)
    assert list(doc) == list(hints) == ["game", *(f.key for f in FIELDS.saved)]
    assert doc["mover"] == s.mover and "result" in doc and not hasattr(s, "res")
    back = game.state_from_json(doc)
    assert back.to_json() == doc
    old = {k: v for k, v in doc.items() if k not in ("game", "mover", "dropped")}  # a record of before they were
    assert game.state_from_json(old).to_json() == {**doc, "dropped": {}}
    c = s.clone()
    assert c.index is s.index and c.ships[0] is not s.ships[0] and c.dropped is not s.dropped


def test_a_required_derived_key_and_a_list_or_none():
    class Tiny:
        __slots__ = ("n", "moved")

        @property
        def double(self) -> int:
            return 2 * self.n

    f = Fields(Field("n", int), Field("double", int, derived=True, required=True),
               Field("moved", list[int] | None, COPY_OR_NONE, LIST_OR_NONE, LIST_OR_NONE))
    shape = f.typed_dict("TinyJ")
    assert shape.__required_keys__ == {"n", "double", "moved"}
    with pytest.raises(StateError) as exc:
        read(shape, {"n": 1, "moved": None}, error=StateError)
    assert exc.value.field == "$.double"
    t = f.build(Tiny, {"n": 1, "double": 2, "moved": None})
    c = f.clone_function(Tiny)(t)
    assert c.moved is None and f.to_json_function(Tiny)(t) == {"n": 1, "double": 2, "moved": None}
    t.moved = [1]
    c = f.clone_function(Tiny)(t)
    c.moved.append(2)
    assert t.moved == [1] and f.to_json_function(Tiny)(c) == {"n": 1, "double": 2, "moved": [1, 2]}


def test_mining_is_declared_once():
    game = load_all()["mining"]
    s = game.new_initial_state({"players": 3}, 5)
    from deltav.games.mining.state_schema import FIELDS, StateJson

    cls = type(s)
    assert cls.fields is FIELDS and cls.__slots__ == FIELDS.slots and "options" not in FIELDS.slots
    for k in range(80):
        if s.is_terminal():
            break
        p = s.current_players()[0]
        acts = s.legal_actions(p)
        s.apply_action(p, acts[k * 7 % len(acts)])
    doc = s.to_json()
    hints = typing.get_type_hints(StateJson, include_extras=True)
    assert list(doc) == list(hints) == ["game", *(f.key for f in FIELDS.saved)]
    assert {"options", "components", "players"} <= StateJson.__required_keys__
    assert doc["players"] == s.num_players == 3 and doc["current"] == s.current and doc["winners"] == list(s.winners)
    back = game.state_from_json(doc)
    assert back.to_json() == doc and back.occ == s.occ and back.tiles == s.tiles
    c = s.clone()
    assert c.cfg is s.cfg and c.rockets is not s.rockets and c.hands[0] is not s.hands[0]
    without = {k: v for k, v in doc.items() if k != "components"}
    with pytest.raises(StateError) as exc:
        game.state_from_json(without)
    assert exc.value.field == "$.components"


def test_a_rebuilt_field_and_a_record_or_none():
    class Rec:
        __slots__ = ("n",)

        def __init__(self, n: int) -> None:
            self.n = n

        def copy(self) -> Rec:
            return Rec(self.n)

        def to_json(self) -> dict:
            return {"n": self.n}

    class Tiny:
        __slots__ = ("xs", "total", "rec")

    f = Fields(Field("xs", list[int], COPY, LIST, LIST), Field("total", rebuild=lambda s: sum(s.xs)),
               Field("rec", dict | None, COPY_RECORD_OR_NONE, TO_JSON_OR_NONE,
                     lambda v, doc: Rec(v["n"]) if v is not None else None))
    assert f.slots == ("xs", "total", "rec") and [x.key for x in f.saved] == ["xs", "rec"]
    t = f.build(Tiny, {"xs": [1, 2], "rec": None})
    assert t.total == 3 and t.rec is None  # rebuilt once loaded
    assert f.build(Tiny, {"xs": [1, 2], "rec": None}, total=7).total == 7  # unless given
    t.rec = Rec(4)
    t.xs.append(5)
    c = f.clone_function(Tiny)(t)
    assert c.total == 8 and c.xs is not t.xs  # rebuilt from the clone's own fields
    assert c.rec is not t.rec and c.rec.n == 4 and f.to_json_function(Tiny)(c) == {"xs": [1, 2, 5], "rec": {"n": 4}}
    with pytest.raises(ValueError, match="rebuilt"):
        Fields(Field("total", int, rebuild=lambda s: 0))
    with pytest.raises(ValueError, match="rebuilt"):
        Fields(Field("total", clone=COPY, rebuild=lambda s: 0))


def test_tactical_is_declared_once():
    game = load_all()["tactical"]
    from deltav.games.tactical.messages import Buy, FleetReady
    from deltav.games.tactical.state_schema import FIELDS, StateJ

    s = game.new_initial_state({"scenario": "fleet_action"}, 3)
    cls = type(s)
    assert cls.fields is FIELDS and cls.__slots__ == FIELDS.slots
    assert {"scenario", "name", "next_ordnance", "first_player", "active_player", "res"} <= set(FIELDS.slots)
    s.apply_action(0, Buy("frigate"))
    c = s.clone()
    c.apply_action(0, Buy("corsair"))
    c.apply_action(1, Buy("corsair"))
    assert len(s.purchases[0]) == 1 and s.purchases[1] == []  # each player's purchases: the clone's own
    doc = s.to_json()
    hints = typing.get_type_hints(StateJ, include_extras=True)
    assert list(doc) == list(hints) == ["format", *(f.key for f in FIELDS.saved)]
    assert "result" in doc and "res" not in doc and read(StateJ, doc, error=StateError) is not None
    back = game.state_from_json(doc)
    assert back.to_json() == doc and json.dumps(back.to_json()) == json.dumps(doc)
    assert back._index == {sh.id: sh for sh in back.ships} and back.gmap is s.gmap and back._opts == {}
    c.apply_action(0, FleetReady())
    c.apply_action(1, FleetReady())
    c2 = c.clone()
    assert c2.ships[0] is not c.ships[0] and c2.ship(c.ships[0].id) is c2.ships[0]  # the index of its own ships
    assert c2.players[0] is not c.players[0] and c2.rng is not c.rng and c2.gmap is c.gmap and c2.orders is c.orders
    assert c2.to_json() == c.to_json() and c2.legal_actions(c2.active_player) == c.legal_actions(c.active_player)


def _read_field_by_field(fields, cls, doc):
    """Fields.build as the declaration reads it, one field at a time (the loop the generated build replaces)."""
    from deltav.core.fields import _LOADERS

    s = object.__new__(cls)
    for f in fields.stored:
        if not f.saved:
            setattr(s, f.name, f.load_default)
        elif f.missing is not None and f.key not in doc:
            setattr(s, f.name, f.missing())
        else:
            v = doc[f.key]
            setattr(s, f.name, f.load(v, doc) if callable(f.load) else _LOADERS[f.load](v) if f.load else v)
    for f in fields.stored:
        if f.rebuild is not None:
            setattr(s, f.name, f.rebuild(s))
    return s


def test_the_generated_build_sets_every_field_as_the_declaration_reads_it():
    from deltav.core.rng import Rng

    games = load_all()
    for gid in ("tactical", "deepspace", "knighthawks", "mining"):
        game = games[gid]
        s = game.new_initial_state({}, 5)
        rng = Rng(3)
        for _ in range(40):  # a position some way into the game: ships moved, orders and events kept
            if s.is_terminal():
                break
            p = s.current_players()[0]
            legal = s.legal_actions(p)
            s.apply_action(p, legal[rng.below(len(legal))])
        cls, doc = type(s), s.to_json()
        fields = cls.fields
        fast = fields.build_function(cls)(doc)
        plain = _read_field_by_field(fields, cls, doc)
        for name in fields.slots:
            assert _plain(getattr(fast, name)) == _plain(getattr(plain, name)), (gid, name)


def _plain(x):
    """A value with every object that has a JSON form replaced by it (type kept), for comparing two loads."""
    if hasattr(x, "to_json"):
        return (type(x).__name__, _plain(x.to_json()))
    if isinstance(x, dict):
        return (type(x).__name__, {k: _plain(v) for k, v in x.items()})
    if isinstance(x, list | tuple):
        return (type(x).__name__, [_plain(v) for v in x])
    return x

"""Views (what a player may know, as plain JSON) and the sampler that rebuilds a full state from a view.

``make_view(state, p)`` shows the public facts (rockets, the alien, face-up and revealed tiles, hands,
collections, bribes, contracts, the turn's phase, and *which* squares each player has looked at) plus the
faces of the face-down tiles ``p`` has seen. The id of a face-down tile appears only when the viewer knows
that tile; ``view(None)`` shows only public facts.

What is fresh and what is shared: the top-level dict of a view and its per-player lists (``tiles``,
``rockets``, ``looked``, ``hands``, ``collected``, ``scores``, ``deciding``) are built on every call; what they
hold, and every other part, is read-only and may be handed to many views: ``Frozen`` records and tuples
(``deltav.core.frozen``; the same JSON as the dicts and lists they stand for). ``_Records`` keeps them, one
table per config: the options, each tile's face, each collected tile as counted, each hand card, and the rows
made of a few state fields (the bribes by holders and spent mask, the contracts by owners, a hand or a
collection by its pairs, the attempt by its fields). A record is looked up by the tuple of the very values it
shows, so it is never stale; the squares' status and index tuples are cached by their bitmasks. The state's
own tuples (``queue``, ``picks``, ``extra``) are handed out as they are; its lists are copied.

``determinize(view, p, rng)`` builds a full state from such a view alone: the tiles the viewer has not seen
(all tile ids less the ids the view shows) are shuffled uniformly over the face-down squares the viewer does
not know. Opponents' knowledge is kept as the public set of squares they looked at, so in the sampled world
they "know" the sampled tiles on those squares. The sampled state gets a fresh RNG.

This module owns the JSON view layout (declared once as ``ViewJson`` and ``BoardJson``, from which the client's
types are generated: web/tools/gen_types.py) and sampling; the rules live in ``state``.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain, compress
from operator import is_
from typing import Any, Literal, TypedDict

from deltav.core.errors import StateError
from deltav.core.frozen import Frozen, freeze
from deltav.core.rng import Rng
from deltav.games.mining import action_cache
from deltav.games.mining import scenarios as comp_mod
from deltav.games.mining.config import Config, fingerprint
from deltav.games.mining.phases import BIT, P_OVER, PHASES, RETURNS
from deltav.games.mining.scenarios import KINDS, MINERALS, SQUARES, STATION
from deltav.games.mining.scoring import score
from deltav.games.mining.state import MiningState, build
from deltav.games.mining.state_schema import PHASE_NAMES, RETURN_NAMES

# --- the JSON shapes (web/src/generated/mining.ts is written from them; tests/web/test_generated_types.py) ------

class TileRunJson(TypedDict):
    kind: str
    value: int
    count: int


class BoardContractJson(TypedDict):
    id: str
    minerals: list[str]


class BoardJson(TypedDict):
    """The static component data of a game (``Game.board(options)``, :func:`board_json`): fetched once."""

    game: Literal["mining"]
    id: str
    title: str
    summary: str
    tile_mix: list[TileRunJson]
    """The tile mix in file order, as runs of equal tiles."""
    contracts: list[BoardContractJson]
    rockets_per_player: int
    fingerprint: str


class TileFaceJson(TypedDict):
    id: str
    kind: str
    value: int


class CountedTileJson(TypedDict):
    """A collected tile, with the mineral it was counted as."""

    id: str
    kind: str
    value: int
    counted_as: str


class BribeJson(TypedDict):
    id: str
    owner: int
    mineral: str
    holder: int
    spent: bool


class HandTileJson(TypedDict):
    id: str
    kind: str
    acquired_turn: int


class ContractJson(TypedDict):
    id: str
    minerals: list[str]
    owner: int | None


class MatchedJson(TypedDict):
    square: int
    tile: str
    counted_as: str


class BidJson(TypedDict):
    bribe: str
    bidder: int


class AttemptJson(TypedDict):
    """The contract attempt in progress."""

    contract: str
    matched: list[MatchedJson]
    extra: list[int]
    mismatch: int | None
    bid: BidJson | None
    bid_done: bool


class ResultJson(TypedDict):
    winners: list[int]
    reason: str
    scores: list[float] | None


class ViewJson(TypedDict):
    """What one viewer may know (:func:`make_view`; docs/mining.md "The view"). The field is by columns, one entry
    per square 0..48; static component data is the board (``BoardJson``), named by ``fingerprint``."""

    game: Literal["mining"]
    viewer: int | None
    players: int
    options: dict[str, bool | int | str]
    fingerprint: str
    """The digest of the component set; the set itself is the board, fetched once."""
    turn: int
    current_player: int
    first_player: int
    phase: PHASE_NAMES
    deciding: list[int]
    status: list[Literal["station", "empty", "face_down", "face_up", "revealed"]]
    tiles: list[TileFaceJson | None]
    """The faces this viewer may see, one per square (null: none)."""
    rockets: list[list[int]]
    """Per player, the rocket count on each square."""
    looked: list[list[int]]
    """Per player, the squares that player looked at (public: where, never what)."""
    public: list[int]
    """The squares whose tile was revealed and flipped back (known to all)."""
    alien: int | None
    aliens_revealed: int
    shipyards: list[int]
    bribes: list[BribeJson]
    hands: list[list[HandTileJson]]
    discarded: list[TileFaceJson]
    collected: list[list[CountedTileJson]]
    contracts: list[ContractJson]
    pirated: bool
    stormed: bool
    queue: list[int]
    moved: list[int] | None
    picks: list[int]
    scan_left: int
    return_to: RETURN_NAMES
    attempt: AttemptJson | None
    sabotage_square: int | None
    scores: list[int]
    result: ResultJson | None


def board_json(cfg: Config) -> dict:
    """The static component data of a game (``Game.board(options)``: clients and bots get it once; the per-turn
    view names it by ``fingerprint``): the scenario's id, title and summary, the tile mix in file order (runs of
    equal tiles), the contracts and the rockets per player. A fresh value on every call."""
    c = cfg.comps_json
    return {
        "game": "mining",
        "id": c["id"], "title": c["title"], "summary": c["summary"],
        "tile_mix": [dict(r) for r in c["tile_mix"]],
        "contracts": [{"id": x["id"], "minerals": list(x["minerals"])} for x in c["contracts"]],
        "rockets_per_player": c["rockets_per_player"],
        "fingerprint": cfg.fingerprint,
    }


# --- per-game tables for fast views (immutable: strings, ints and tuples only) ------------------------------
_NONES = (None,) * SQUARES
_STATUS: dict[tuple[int, int, int], tuple[str, ...]] = {}
_FULL = (1 << SQUARES) - 1
#: the squares of a bitmask, ascending, as a cached tuple (the rules' table)
_mask_squares = action_cache.squares
_FLAGS: dict[tuple[int, int], tuple[bool, ...]] = {}


def _statuses(tiles: int, faceup: int, att_mask: int) -> tuple[str, ...]:
    """Each square's status (station, empty, face_up, revealed, face_down) for these masks (cached)."""
    key = (tiles, faceup, att_mask)
    out = _STATUS.get(key)
    if out is None:
        row = ["face_down"] * SQUARES
        for s in _mask_squares(~tiles & _FULL):
            row[s] = "empty"
        for s in _mask_squares(tiles & att_mask & ~faceup):
            row[s] = "revealed"
        for s in _mask_squares(tiles & faceup):
            row[s] = "face_up"
        row[STATION] = "station"
        if len(_STATUS) > 4096:
            _STATUS.clear()
        out = _STATUS[key] = tuple(row)
    return out


def _flags(mask: int, n: int) -> tuple[bool, ...]:
    """``n`` booleans, bit by bit of ``mask`` (cached)."""
    key = (mask, n)
    out = _FLAGS.get(key)
    if out is None:
        if len(_FLAGS) > 8192:
            _FLAGS.clear()
        out = _FLAGS[key] = tuple(bool(mask >> c & 1) for c in range(n))
    return out


def squares_of(view: Mapping) -> list[dict]:
    """The view's squares as one record each, ``{square, status, tile, rockets, looked_by, public}`` (``rockets``
    per player, ``looked_by`` the players who looked), for readers that go square by square. Built from the
    view's columns on each call; the ``tile`` objects are the view's own."""
    status, tiles, rockets = view["status"], view["tiles"], view["rockets"]
    lookers: list[list[int]] = [[] for _ in range(SQUARES)]
    for q, squares in enumerate(view["looked"]):
        for s in squares:
            lookers[s].append(q)
    public = set(view["public"])
    return [
        {"square": s, "status": status[s], "tile": tiles[s], "rockets": [r[s] for r in rockets],
         "looked_by": lookers[s], "public": s in public}
        for s in range(SQUARES)
    ]


class _Records:
    """The read-only records of one config's views, built once each and handed to every view as they are:
    the options, each tile's face, each collected tile as counted, each card of a hand, and the rows that
    depend on a few state fields (bribes, contracts, a hand, a collection, the attempt), kept by the tuple of
    those fields (bounded tables: cleared when they grow past 4096 entries)."""

    __slots__ = ("cfg", "options", "faces", "counted", "cards", "bribes", "contracts", "hands", "colls", "attempts",
                 "matched")

    def __init__(self, cfg: Config):
        self.cfg = cfg  # held, so the id this is cached under is not reused
        self.options = freeze(cfg.options)
        self.faces = tuple(Frozen(d) for d in cfg.tile_dicts)
        self.counted = {(t, m): Frozen({**f, "counted_as": name})
                        for t, f in enumerate(cfg.tile_dicts) for m, name in enumerate(MINERALS)}
        self.cards: dict[tuple[int, int], Frozen] = {}  # (tile, acquired turn) -> a hand's card
        self.bribes: dict[tuple, tuple] = {}  # (holders, spent mask) -> the bribes rows
        self.contracts: dict[tuple, tuple] = {}  # owners -> the contracts rows
        self.hands: dict[tuple, tuple] = {}  # a hand's (tile, acquired) pairs -> its cards
        self.colls: dict[tuple, tuple] = {}  # a collection's (tile, counted as) pairs -> (its records, values)
        self.attempts: dict[tuple, Frozen] = {}  # the attempt's fields -> its record
        self.matched: dict[tuple[int, int, int], Frozen] = {}  # (square, tile, counted as) -> a matched row

    def bribes_of(self, holder: list, spent: int) -> tuple[tuple, tuple]:
        """The bribes rows and the spent counters each player holds (what scoring charges), for these fields."""
        key = (tuple(holder), spent)
        out = self.bribes.get(key)
        if out is None:
            cfg = self.cfg
            flags = _flags(spent, cfg.counters)
            spent_by = [0] * cfg.n
            for h, x in zip(holder, flags):
                if x and h >= 0:
                    spent_by[h] += 1
            out = (tuple(Frozen(id=i, owner=o, mineral=m, holder=h, spent=x) for (i, o, m), h, x
                         in zip(cfg.bribe_json, holder, flags)), tuple(spent_by))
            _put(self.bribes, key, out)
        return out

    def contracts_of(self, owners: list) -> tuple:
        key = tuple(owners)
        out = self.contracts.get(key)
        if out is None:
            out = tuple(Frozen(id=i, minerals=m, owner=o if o >= 0 else None)
                        for (i, m), o in zip(self.cfg.contract_json, owners))
            _put(self.contracts, key, out)
        return out

    def hand_of(self, hand: list) -> tuple:
        key = tuple(hand)
        out = self.hands.get(key)
        if out is None:
            cards, ids, kinds = self.cards, self.cfg.ids, self.cfg.kinds
            rows = []
            for t, a in key:
                c = cards.get((t, a))
                if c is None:
                    c = cards[(t, a)] = Frozen(id=ids[t], kind=KINDS[kinds[t]], acquired_turn=a)
                rows.append(c)
            out = tuple(rows)
            _put(self.hands, key, out)
        return out

    def coll_of(self, coll: list) -> tuple[tuple, tuple[int, ...]]:
        """A collection's records and its tile values (what scoring adds up)."""
        key = tuple(coll)
        out = self.colls.get(key)
        if out is None:
            values = self.cfg.values
            out = (tuple(map(self.counted.__getitem__, key)), tuple(values[t] for t, _ in key))
            _put(self.colls, key, out)
        return out

    def attempt_of(self, st: MiningState) -> Frozen:
        """The contract attempt in progress (``st.attempt >= 0``) as a record, kept by the fields it shows."""
        bid = st.bid
        key = (st.attempt, st.matched, st.extra, st.mismatch, bid, st.holders[bid] if bid >= 0 else -1, st.bid_done)
        out = self.attempts.get(key)
        if out is None:
            cfg, rows = self.cfg, self.matched
            matched = []
            for x in st.matched:
                row = rows.get(x)
                if row is None:
                    s, t, m = x
                    row = rows[x] = Frozen(square=s, tile=cfg.ids[t], counted_as=MINERALS[m])
                matched.append(row)
            out = Frozen(
                contract=cfg.contracts[st.attempt].id,
                matched=tuple(matched),
                extra=st.extra,
                mismatch=st.mismatch if st.mismatch >= 0 else None,
                bid=Frozen(bribe=cfg.counter_ids[bid], bidder=st.holders[bid]) if bid >= 0 else None,
                bid_done=st.bid_done,
            )
            _put(self.attempts, key, out)
        return out


_NO_COLL = ((), ())  # an empty collection: no records, no values


def _put(cache: dict, key, value) -> None:
    if len(cache) > 4096:  # search visits many states: keep the tables bounded
        cache.clear()
    cache[key] = value


_RECORDS: dict[int, _Records] = {}


def _per_config(table: dict, cfg: Config, make):
    """``make(cfg)`` kept in ``table`` by the identity of ``cfg`` (checked through the kept object's ``cfg``, which
    holds it, so the id is not reused); at most 65 configurations kept."""
    got = table.get(id(cfg))
    if got is None or got.cfg is not cfg:
        if len(table) > 64:
            table.clear()
        got = table[id(cfg)] = make(cfg)
    return got


def _records(cfg: Config) -> _Records:
    """The shared records of ``cfg`` (made on its first view)."""
    return _per_config(_RECORDS, cfg, _Records)


def make_view(st: MiningState, p: int | None) -> dict:
    """The view of ``p`` (None: a spectator): a fresh top-level dict and fresh lists of rows, whose records are
    the shared read-only ones of :class:`_Records` (or immutable tuples). Static component data is not in it:
    see :func:`board_json`."""
    cfg = st.cfg
    rec = _records(cfg)
    sq = st.squares
    faceup, att_mask, pub = st.faceup, st.att_mask, st.public
    known = pub | (st.looked[p] if p is not None else 0)
    shown = (known | faceup | att_mask) & st.tiles
    faces = rec.faces
    tiles: list = list(_NONES)
    for s in _mask_squares(shown):
        tiles[s] = faces[sq[s]]
    rk = st.rockets
    attempt = rec.attempt_of(st) if st.attempt >= 0 else None
    colls = [rec.coll_of(c) if c else _NO_COLL for c in st.collected]
    bribes, spent_by = rec.bribes_of(st.holders, st.spent)
    res = st.result() if st.phase == P_OVER else None
    return {
        "game": "mining",
        "viewer": p,
        "players": st.num_players,
        "options": rec.options,
        "fingerprint": cfg.fingerprint,
        "turn": st.turn,
        "current_player": st.current,
        "first_player": st.first,
        "phase": PHASES[st.phase],
        "deciding": st.current_players(),  # a fresh list on every call
        "status": _statuses(st.tiles, faceup, att_mask),
        "tiles": tiles,
        "rockets": [rk[b:b + SQUARES] for b in range(0, st.num_players * SQUARES, SQUARES)],
        "looked": [_mask_squares(m) for m in st.looked],
        "public": _mask_squares(pub),
        "alien": st.alien if st.alien >= 0 else None,
        "aliens_revealed": st.aliens,
        "shipyards": tuple(st.shipyards),
        "bribes": bribes,
        "hands": [rec.hand_of(h) if h else () for h in st.hands],
        "discarded": tuple(map(faces.__getitem__, st.discarded)),
        "collected": [c for c, _ in colls],
        "contracts": rec.contracts_of(st.contract_owners),
        "pirated": st.pirated,
        "stormed": st.stormed,
        "queue": st.queue,
        "moved": tuple(st.moved) if st.moved is not None else None,
        "picks": st.picks,
        "scan_left": st.scan_left,
        "return_to": RETURNS[st.ret],
        "attempt": attempt,
        "sabotage_square": st.sabotage_square if st.sabotage_square >= 0 else None,
        "scores": list(map(score, [v for _, v in colls], spent_by)),  # as MiningState.scores
        "result": res.to_json() if res else None,
    }


def full_view(st: MiningState) -> dict:
    """What an observer who knows everything sees (a finished match's replay): the spectator's view with the
    face of every tile on the field, face-down ones included (the looks stay as they were: who saw what)."""
    out = make_view(st, None)
    faces, sq = _records(st.cfg).faces, st.squares
    tiles = out["tiles"]
    for s in _mask_squares(st.tiles):
        tiles[s] = faces[sq[s]]
    return out


_CONFIGS: dict[Any, Config] = {}
#: the components JSON of every config built in this process, by content digest (views name them so)
_COMPONENTS: dict[str, dict] = {}
#: configs by (fingerprint, players, options as typed items in the view's order): the sampler's fast path
_BY_VIEW: dict[tuple, Config] = {}
#: (options record, fingerprint, players, config) by the identity of a view's ``Frozen`` options record
_BY_OPTIONS: dict[int, tuple] = {}


def _options_key(options: dict) -> tuple:
    return tuple(sorted((k, type(v).__name__, v) for k, v in options.items()))


def config_for(components_json: dict, options: dict, n: int) -> Config:
    """The (cached) config for embedded components, resolved options and a player count. The cache is keyed by
    the components' content digest and the options with their types (``True == 1`` in Python, and a key without
    types would let one game's ``1`` stand for another's ``true``); a missing or wrong ``fingerprint`` field is
    recomputed, never trusted."""
    opts = _options_key(options)
    fp = components_json.get("fingerprint")
    if fp is not None:
        cfg = _CONFIGS.get((fp, opts, n))
        if cfg is not None:
            return cfg
    real = fingerprint(components_json)
    key = (real, opts, n)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = Config(comp_mod.from_json(components_json), options, n)
        if len(_CONFIGS) > 64:
            _CONFIGS.clear()
        _CONFIGS[key] = cfg
        if len(_COMPONENTS) > 256:
            _COMPONENTS.clear()
        _COMPONENTS[real] = cfg.comps_json
    return cfg  # a forged fingerprint is never cached


def config_of_view(view: Mapping) -> Config:
    """The config a view belongs to, from its ``fingerprint``, options and player count: a config built in this
    process, else the components of the view's ``scenario`` option when their digest is the view's. StateError
    when neither is (a user's component file this process cannot read, or a changed one)."""
    fp = view["fingerprint"]
    options = view["options"]
    n = view["players"]
    if type(options) is Frozen:  # a view's shared options record: the config it was last seen with, by identity
        e = _BY_OPTIONS.get(id(options))
        if e is not None and e[0] is options and e[1] == fp and e[2] == n:
            return e[3]
    fast = (fp, n, tuple((k, v.__class__, v) for k, v in options.items()))  # typed: 1 never stands for true
    cfg = _BY_VIEW.get(fast)
    if cfg is not None:
        return cfg
    cfg = _config_of_view(fp, options, n)
    if len(_BY_VIEW) > 256:
        _BY_VIEW.clear()
    _BY_VIEW[fast] = cfg
    if type(options) is Frozen:
        _put(_BY_OPTIONS, id(options), (options, fp, n, cfg))  # the record is held, so its id is not reused
    return cfg


def _config_of_view(fp: str, options: Mapping, n: int) -> Config:
    cfg = _CONFIGS.get((fp, _options_key(options), n))
    if cfg is not None:
        return cfg
    comps = _COMPONENTS.get(fp)
    if comps is None:
        comps = comp_mod.load(options["scenario"]).to_json()
        if fingerprint(comps) != fp:
            raise StateError("$.fingerprint", f"the view's component set {fp!r} is not the scenario "
                             f"{options['scenario']!r} here (was its file changed?)")
    return config_for(comps, options, n)


def board_of_view(view: Mapping) -> dict:
    """The static component data (:func:`board_json`) of the game a view belongs to."""
    return board_json(config_of_view(view))


_ALL = range(SQUARES)


def _mask_of(squares) -> int:
    m = 0
    for s in squares:
        m |= BIT[s]
    return m


class _Read:
    """What every world drawn from one view shares: a state built from it (the unseen tiles on the squares they
    may be on, in their unshuffled order; a placeholder RNG), those squares (``unknown_squares``) and the draw
    ``plan``: for each step ``i`` of the shuffle, from the last, the square ``unknown_squares[i]``, the bound
    ``i + 1`` of its draw and that bound's rejection threshold (``Rng.below``'s)."""

    __slots__ = ("view", "guard", "base", "unknown", "unknown_squares", "plan")


#: Recently determinized views, by identity (the view is held, so its id is not reused while it is cached): a bot
#: draws its worlds from the view of the decision at hand, so a few are enough.
_READS: dict[int, _Read] = {}
_READS_MAX = 16
_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


def _guard(v: Mapping) -> tuple:
    """A few facts of a view that change with every step (a view changed after it was read is read again)."""
    return (v["turn"], v["current_player"], v["phase"], len(v["queue"] or ()), v["scan_left"], len(v["discarded"]),
            sum(map(len, v["hands"])), sum(map(len, v["collected"])), v["status"].count("face_up"))


def determinize(view: Mapping, player: int, rng: Rng) -> MiningState:
    """A full state consistent with ``view`` (player ``player``'s), the unseen tiles shuffled with ``rng`` over the
    face-down squares the viewer does not know. Reads the view only; never changes it.

    Read once: the first draw from a view reads it into a :class:`_Read` (a base state, the unknown squares and
    the draw plan) kept with the view, by identity, in a small cache (read again if the view changed since).
    Drawn per world: a clone of the base state, its unseen tiles shuffled where they lie (the very draws of
    ``rng.shuffle(unseen tiles)``: Fisher-Yates from the end, ``j = rng.below(i + 1)``, swapping the tiles on
    the ``i``-th and ``j``-th unknown squares), then its own RNG seeded from ``rng.next64()``: the very state,
    and the very ``rng`` afterwards, that a fresh read and build would give."""
    r = _READS.get(id(view))
    if r is None or r.view is not view or r.guard != _guard(view):
        r = _read(view)
        if len(_READS) >= _READS_MAX:
            del _READS[next(iter(_READS))]
        _READS[id(view)] = r
    world = r.base.clone()
    sq = world.squares
    if type(rng) is Rng:
        pos = r.unknown_squares
        s = rng.state
        for a, n, thr in r.plan:  # Rng.shuffle's draws, inlined (with Rng.below's rejection of the short end)
            s = (s + _GOLDEN) & _MASK64
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            m = (z ^ (z >> 31)) * n
            while m & _MASK64 < thr:
                s = (s + _GOLDEN) & _MASK64
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                m = (z ^ (z >> 31)) * n
            b = pos[m >> 64]
            sq[a], sq[b] = sq[b], sq[a]
        rng.state = s
    else:  # another generator: its own shuffle
        unknown = r.unknown[:]
        rng.shuffle(unknown)
        for s, t in zip(r.unknown_squares, unknown):
            sq[s] = t
    world.rng = Rng(rng.next64())
    return world


def _plan(squares: tuple) -> tuple:
    """The draw plan of a shuffle over ``squares`` (see :class:`_Read`)."""
    return tuple((squares[i], i + 1, (1 << 64) % (i + 1)) for i in range(len(squares) - 1, 0, -1))


def _sealed(obj) -> bool:
    """A tuple of ``Frozen`` records (what ``make_view`` hands out): nothing in it can change, so what is read
    from it may be kept by its identity."""
    return type(obj) is tuple and all(type(x) is Frozen for x in obj)


class _Reader:
    """What the reads of one config's views keep from view to view (bounded tables, cleared past 4096 entries):
    the face-down squares and face-up mask of a ``status`` tuple and the bitmask of a tuple of squares, by value;
    what a shared record tuple of ``make_view`` (a hand, a collection, the bribes, the contracts) reads as, by
    the tuple's identity (the tuple is held with it, so its id is not reused); the unseen tiles of a set of
    seen tiles, by its bitmask; the draw plan of a tuple of unknown squares."""

    __slots__ = ("cfg", "status", "masks", "hands", "colls", "bribes", "contracts", "unseen", "plans")

    def __init__(self, cfg: Config):
        self.cfg = cfg  # held, so the id this is cached under is not reused
        self.status: dict[tuple, tuple[int, tuple[int, ...]]] = {}
        self.masks: dict[tuple, int] = {}
        self.hands: dict[int, tuple] = {}
        self.colls: dict[int, tuple] = {}
        self.bribes: dict[int, tuple] = {}
        self.contracts: dict[int, tuple] = {}
        self.unseen: dict[int, tuple[int, ...]] = {}
        self.plans: dict[tuple, tuple] = {}

    def plan_of(self, squares: tuple) -> tuple:
        """The draw plan of the unknown squares ``squares`` (:func:`_plan`), by value."""
        out = self.plans.get(squares)
        if out is None:
            out = _plan(squares)
            _put(self.plans, squares, out)
        return out

    def status_of(self, status) -> tuple[int, tuple[int, ...]]:
        """The face-up squares' bitmask and the face-down squares, ascending."""
        out = self.status.get(status) if type(status) is tuple else None
        if out is None:
            out = (_mask_of(compress(_ALL, map("face_up".__eq__, status))),
                   tuple(compress(_ALL, map("face_down".__eq__, status))))
            if type(status) is tuple:
                _put(self.status, status, out)
        return out

    def mask_of(self, squares) -> int:
        m = self.masks.get(squares) if type(squares) is tuple else None
        if m is None:
            m = _mask_of(squares)
            if type(squares) is tuple:
                _put(self.masks, squares, m)
        return m

    def _kept(self, table: dict, rows, make):
        e = table.get(id(rows))
        if e is not None and e[0] is rows:
            return e[1]
        out = make(rows)
        if _sealed(rows):
            _put(table, id(rows), (rows, out))
        return out

    def hand_of(self, rows) -> tuple[list, int]:
        """A hand's (tile, acquired turn) pairs and the bitmask of its tiles."""
        return self._kept(self.hands, rows, self._hand)

    def _hand(self, rows) -> tuple[list, int]:
        idx = self.cfg.id_index
        pairs = [(idx[x["id"]], x["acquired_turn"]) for x in rows]
        return pairs, _tile_mask(pairs)

    def coll_of(self, rows) -> tuple[list, int]:
        """A collection's (tile, counted as) pairs and the bitmask of its tiles."""
        return self._kept(self.colls, rows, self._coll)

    def _coll(self, rows) -> tuple[list, int]:
        idx = self.cfg.id_index
        pairs = [(idx[x["id"]], MINERALS.index(x["counted_as"])) for x in rows]
        return pairs, _tile_mask(pairs)

    def bribes_of(self, rows) -> tuple[list, int]:
        """Each counter's holder and the spent counters' bitmask."""
        return self._kept(self.bribes, rows, self._bribes)

    def _bribes(self, rows) -> tuple[list, int]:
        counters = self.cfg.counter_index
        holders = [0] * self.cfg.counters
        spent = 0
        for b in rows:
            c = counters[b["id"]]
            holders[c] = b["holder"]
            if b["spent"]:
                spent |= 1 << c
        return holders, spent

    def owners_of(self, rows) -> list:
        """Each contract's owner (-1: none)."""
        return self._kept(self.contracts, rows, _owners)

    def unseen_of(self, seen: int) -> tuple[int, ...]:
        """The tiles not in the bitmask ``seen``, ascending."""
        out = self.unseen.get(seen)
        if out is None:
            out = tuple(t for t in range(len(self.cfg.ids)) if not seen >> t & 1)
            _put(self.unseen, seen, out)
        return out


def _owners(rows) -> list:
    return [c["owner"] if c["owner"] is not None else -1 for c in rows]


def _tile_mask(pairs) -> int:
    m = 0
    for t, _ in pairs:
        m |= 1 << t
    return m


_READERS: dict[int, _Reader] = {}


def _reader(cfg: Config) -> _Reader:
    """The view reader of ``cfg`` (made on its first determinization)."""
    return _per_config(_READERS, cfg, _Reader)


def _read(view: Mapping) -> _Read:
    """A view read once for :func:`determinize` (every field but the unseen tiles' squares). What many views share
    (the squares' status, the looked-at squares, the records of hands, collections, bribes and contracts) is read
    through the config's :class:`_Reader`, once per distinct value or shared record."""
    cfg = config_of_view(view)
    rd = _reader(cfg)
    idx = cfg.id_index
    sq = [-1] * SQUARES
    status, tiles = view["status"], view["tiles"]
    faceup, face_down = rd.status_of(status)
    seen = 0
    for s in compress(_ALL, tiles):
        t = sq[s] = idx[tiles[s]["id"]]
        seen |= 1 << t
    unknown_squares = tuple(compress(face_down, map(is_, map(tiles.__getitem__, face_down), _NONES)))
    rockets = list(chain.from_iterable(view["rockets"]))
    looked = [rd.mask_of(squares) for squares in view["looked"]]
    pub = rd.mask_of(view["public"])
    hands = []
    for h in view["hands"]:
        pairs, m = rd.hand_of(h)
        hands.append(pairs)
        seen |= m
    colls = []
    for c in view["collected"]:
        pairs, m = rd.coll_of(c)
        colls.append(pairs)
        seen |= m
    discarded = [idx[x["id"]] for x in view["discarded"]]
    for t in discarded:
        seen |= 1 << t
    unknown = list(rd.unseen_of(seen))
    if len(unknown) != len(unknown_squares):
        raise ValueError(f"view inconsistent: {len(unknown)} unseen tiles for {len(unknown_squares)} unknown squares")
    holders, spent = rd.bribes_of(view["bribes"])
    counters = cfg.counter_index
    att = view["attempt"]
    att_mask = 0
    if att is not None:
        matched = [(m["square"], idx[m["tile"]], MINERALS.index(m["counted_as"])) for m in att["matched"]]
        for s, _, _ in matched:
            att_mask |= BIT[s]
        for s in att["extra"]:
            att_mask |= BIT[s]
        if att["mismatch"] is not None:
            att_mask |= BIT[att["mismatch"]]
        attempt = cfg.contract_index[att["contract"]]
        bid = counters[att["bid"]["bribe"]] if att["bid"] is not None else -1
        bid_done = att["bid_done"]
        mismatch = att["mismatch"] if att["mismatch"] is not None else -1
        extra = att["extra"]
    else:
        matched, attempt, bid, bid_done, mismatch, extra = [], -1, -1, False, -1, []
    res = view["result"]
    d = {
        "faceup": faceup, "rockets": rockets, "shipyards": view["shipyards"],
        "alien": view["alien"] if view["alien"] is not None else -1, "aliens": view["aliens_revealed"],
        "looked": looked, "public": pub, "holders": holders, "spent": spent,
        "hands": hands,
        "discarded": discarded,
        "collected": colls,
        "contract_owners": rd.owners_of(view["contracts"]),
        "turn": view["turn"], "current": view["current_player"], "first": view["first_player"],
        "phase": view["phase"], "queue": view["queue"], "pirated": view["pirated"], "stormed": view["stormed"],
        "moved": view["moved"], "picks": view["picks"], "scan_left": view["scan_left"], "ret": view["return_to"],
        "attempt": attempt, "matched": matched, "extra": extra, "mismatch": mismatch, "att_mask": att_mask,
        "bid": bid, "bid_done": bid_done,
        "sabotage_square": view["sabotage_square"] if view["sabotage_square"] is not None else -1,
        "reason": res["reason"] if res else "", "winners": res["winners"] if res else [],
    }
    for s, t in zip(unknown_squares, unknown):
        sq[s] = t  # unshuffled: each draw shuffles them again (the squares' occupancy is the same)
    d["squares"] = sq
    r = _Read()
    r.view = view
    r.guard = _guard(view)
    r.base = build(cfg, d, Rng(0))
    r.unknown = unknown
    r.unknown_squares = unknown_squares
    r.plan = rd.plan_of(unknown_squares)
    return r

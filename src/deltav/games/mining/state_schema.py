"""The fields of a mining state declared once (``FIELDS``: types, JSON names, what ``clone`` copies or shares;
``deltav.core.fields``), the JSON shape of a saved state that follows from them (``StateJson``), and the checks
that make an untrusted state safe to load.

``read_state(obj)`` reads the ``MiningState.to_json()`` layout with :func:`deltav.core.shape.read` (types, bounds
and lengths, so nothing is allocated from an absurd number such as ``"players": 10000000``), resolves the
options with the game's own option rules, rebuilds the embedded components, and then checks what a shape
cannot: lengths that follow the player count and the component set, indices and ids that refer to things that
exist, every tile exactly once on the board or in a hand, a discard pile or a collection, every rocket either in
play or in its shipyard, and the fields each phase relies on. Every refusal is ``StateError(field path, reason)``.

This module owns the declaration of the state's fields and the validation of state JSON; it builds no state
(``state.build`` does) and knows no rules beyond the invariants the state machine keeps.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

from deltav.core.errors import DeltavError, StateError
from deltav.core.fields import (
    CLONE,
    COPY,
    COPY_OR_NONE,
    COPY_ROWS,
    DICT,
    LIST,
    LIST_OR_NONE,
    ROWS,
    SHARE,
    TO_JSON,
    TUPLE,
    Field,
    Fields,
)
from deltav.core.rng import Rng
from deltav.core.shape import MaxLen, Range, read
from deltav.games.mining import scenarios as comp_mod
from deltav.games.mining.phases import PHASE_CODES, PHASES, RETURN_CODES, RETURNS
from deltav.games.mining.scenarios import ALIEN, ALIENS_TO_END, BOARD_TILES, OMNIDIUM, SQUARES, STATION

MAX_PLAYERS = 4
MAX_COUNTERS = 5 * MAX_PLAYERS
MAX_CONTRACTS = 64
MAX_TURNS = 5000
MASK = Annotated[int, Range(0, (1 << SQUARES) - 1)]
Square = Annotated[int, Range(0, SQUARES - 1)]
OptSquare = Annotated[int, Range(-1, SQUARES - 1)]
Tile = Annotated[int, Range(0, BOARD_TILES - 1)]
Player = Annotated[int, Range(0, MAX_PLAYERS - 1)]
Turn = Annotated[int, Range(0, MAX_TURNS + 1)]
Text = Annotated[str, MaxLen(200)]

#: the names of phase codes (``phases.PHASES``) and of return codes (``phases.RETURNS``) in JSON
PHASE_NAMES = Literal["pirate-window", "action", "moving", "survey", "scan", "reveal-choice", "sabotage-target",
                      "sabotage-move", "alien-move", "alien-steal", "meteor-window", "attempt", "reveal", "replace",
                      "bid-up-window", "bid-up-reveal", "bid-up-replace", "over"]
RETURN_NAMES = Literal["action", "attempt", "reveal", "after-action", "fail-attempt", "fail-bid-up", "none"]


class TileRun(TypedDict):
    kind: Annotated[str, MaxLen(40)]
    value: Annotated[int, Range(0, 5)]
    count: Annotated[int, Range(1, BOARD_TILES)]


class ContractJson(TypedDict):
    id: Annotated[str, MaxLen(40)]
    minerals: Annotated[list[Annotated[str, MaxLen(40)]], MaxLen(5)]


class ComponentsJson(TypedDict, total=False):
    id: Text
    title: Text
    summary: Annotated[str, MaxLen(2000)]
    tile_mix: Annotated[list[TileRun], MaxLen(BOARD_TILES)]
    contracts: Annotated[list[ContractJson], MaxLen(MAX_CONTRACTS)]
    rockets_per_player: Annotated[int, Range(1, 5)]
    fingerprint: Annotated[str, MaxLen(64)]


def _pairs_json(rows: list) -> list:
    return [[list(x) for x in r] for r in rows]


def _pairs(v: list, doc: dict) -> list:
    return [[(int(a), int(b)) for a, b in r] for r in v]


def _triples(v: list, doc: dict) -> tuple:
    return tuple((a, b, c) for a, b, c in v)


Hands = Annotated[list[Annotated[list[tuple[Tile, Turn]], MaxLen(BOARD_TILES)]], MaxLen(MAX_PLAYERS)]
Collected = Annotated[list[Annotated[list[tuple[Tile, Annotated[int, Range(0, OMNIDIUM)]]], MaxLen(BOARD_TILES)]],
                      MaxLen(MAX_PLAYERS)]
Holder = Annotated[int, Range(-1, MAX_PLAYERS - 1)]

#: The fields of a ``MiningState``, declared once (``deltav.core.fields``): its slots, ``clone``, ``to_json``, the
#: building from JSON and the JSON shape (``StateJson``) follow. In JSON order. ``options`` and ``components`` are
#: written from the state's ``cfg`` (read back by ``read_state``, which rebuilds the ``cfg``); ``occ`` and ``tiles``
#: are rebuilt from ``rockets`` and ``squares`` after loading (``state.build``).
FIELDS = Fields(
    Field("cfg"),  # the resolved options and components (config.Config): given to build
    Field("options", Annotated[dict[str, bool | int | str], MaxLen(64)], dump=DICT, derived=True, required=True),
    Field("num_players", Annotated[int, Range(2, MAX_PLAYERS)], json="players"),  # the protocol's name
    Field("components", ComponentsJson, dump=TO_JSON, derived=True, required=True),
    Field("rng", Annotated[str, MaxLen(32)], CLONE, TO_JSON, lambda v, doc: Rng.from_json(v)),
    Field("squares", Annotated[list[Annotated[int, Range(-1, BOARD_TILES - 1)]], MaxLen(SQUARES)], COPY, LIST, LIST),
    Field("faceup", MASK),
    Field("rockets", Annotated[list[Annotated[int, Range(0, 5)]], MaxLen(SQUARES * MAX_PLAYERS)], COPY, LIST, LIST),
    Field("occ", clone=COPY),  # per player, the squares holding their rockets (from rockets)
    Field("tiles"),  # the squares holding a tile (from squares)
    Field("shipyards", Annotated[list[Annotated[int, Range(0, 5)]], MaxLen(MAX_PLAYERS)], COPY, LIST, LIST),
    Field("alien", OptSquare),
    Field("aliens", Annotated[int, Range(0, ALIENS_TO_END)]),
    Field("looked", Annotated[list[MASK], MaxLen(MAX_PLAYERS)], COPY, LIST, LIST),
    Field("public", MASK),
    Field("holders", Annotated[list[Holder], MaxLen(MAX_COUNTERS)], COPY, LIST, LIST),
    Field("spent", Annotated[int, Range(0, (1 << MAX_COUNTERS) - 1)]),
    Field("hands", Hands, COPY_ROWS, _pairs_json, _pairs),
    Field("discarded", Annotated[list[Tile], MaxLen(BOARD_TILES)], COPY, LIST, LIST),
    Field("collected", Collected, COPY_ROWS, _pairs_json, _pairs),
    Field("contract_owners", Annotated[list[Holder], MaxLen(MAX_CONTRACTS)], COPY, LIST, LIST),
    Field("turn", Annotated[int, Range(1, MAX_TURNS)]),
    Field("current", Player),
    Field("first", Player),
    Field("phase", PHASE_NAMES, SHARE, PHASES.__getitem__, lambda v, doc: PHASE_CODES[v]),
    Field("queue", Annotated[list[Player], MaxLen(MAX_PLAYERS - 1)], SHARE, LIST, TUPLE),
    Field("pirated", bool),
    Field("stormed", bool),
    Field("moved", Annotated[list[Annotated[int, Range(0, 5 * MAX_PLAYERS)]], MaxLen(SQUARES)] | None, COPY_OR_NONE,
          LIST_OR_NONE, LIST_OR_NONE),
    Field("picks", Annotated[list[Square], MaxLen(SQUARES)], SHARE, LIST, TUPLE),
    Field("scan_left", Annotated[int, Range(0, 5)]),
    Field("ret", RETURN_NAMES, SHARE, RETURNS.__getitem__, lambda v, doc: RETURN_CODES[v]),
    Field("attempt", Annotated[int, Range(-1, MAX_CONTRACTS - 1)]),
    Field("matched", Annotated[list[tuple[Square, Tile, Annotated[int, Range(0, OMNIDIUM)]]], MaxLen(BOARD_TILES)],
          SHARE, ROWS, _triples),
    Field("extra", Annotated[list[Square], MaxLen(SQUARES)], SHARE, LIST, TUPLE),
    Field("mismatch", OptSquare),
    Field("att_mask", MASK),
    Field("bid", Annotated[int, Range(-1, MAX_COUNTERS - 1)]),
    Field("bid_done", bool),
    Field("sabotage_square", OptSquare),
    Field("reason", Text),
    Field("winners", Annotated[list[Player], MaxLen(MAX_PLAYERS)], SHARE, LIST, TUPLE),
    Field("_legal"),  # each player's legal list in this phase (core.phases): a cache, None after loading
    constants={"game": "mining"},
)

StateJson = FIELDS.typed_dict("StateJson")


WINDOW_PHASES = ("pirate-window", "meteor-window", "bid-up-window")
ATTEMPT_PHASES = ("reveal", "replace", "bid-up-window", "bid-up-reveal", "bid-up-replace")


def _fail(field: str, reason: str) -> StateError:
    return StateError(field, reason)


def read_state(game: Any, obj: Any) -> tuple[dict, dict, Rng, Any]:
    """Validate a state JSON: returns (the fields, the resolved options, the RNG, the components)."""
    d = read(StateJson, obj, error=StateError)
    n = d["players"]
    try:
        options = game.resolve_options(d["options"])
    except DeltavError as exc:
        raise StateError("$.options", str(exc)) from None
    if options != d["options"]:
        missing = sorted(set(options) - set(d["options"]))
        raise StateError("$.options", f"options are saved resolved; missing {', '.join(missing)}" if missing
                         else "options are saved resolved")
    if options["players"] != n:
        raise StateError("$.players", f"{n} players but the options say {options['players']}")
    try:
        comps = comp_mod.from_json(d["components"])
    except DeltavError as exc:
        raise StateError("$.components", str(exc)) from None
    try:
        rng = Rng.from_json(d["rng"])
    except ValueError as exc:
        raise StateError("$.rng", str(exc)) from None
    _check(d, n, comps)
    return d, options, rng, comps


def _check(d: dict, n: int, comps: Any) -> None:  # noqa: C901 - one flat list of invariants reads best
    tiles = len(comps.kinds)
    kinds = comps.kinds
    ncon = len(comps.contracts)
    counters = 5 * n

    def length(name: str, want: int) -> None:
        if len(d[name]) != want:
            raise _fail(f"$.{name}", f"has {len(d[name])} items, {want} expected")

    length("squares", SQUARES)
    for name in ("shipyards", "looked", "hands", "collected"):
        length(name, n)
    length("rockets", n * SQUARES)
    length("holders", counters)
    length("contract_owners", ncon)
    if d["moved"] is not None and len(d["moved"]) != SQUARES:
        raise _fail("$.moved", f"has {len(d['moved'])} items, {SQUARES} expected")
    if d["spent"] >> counters:
        raise _fail("$.spent", f"names a bribe counter beyond the {counters} in play")
    for name in ("current", "first"):
        if d[name] >= n:
            raise _fail(f"$.{name}", f"player {d[name]} does not exist ({n} players)")
    for field in ("holders", "contract_owners", "queue", "winners"):
        for i, q in enumerate(d[field]):
            if q >= n:
                raise _fail(f"$.{field}[{i}]", f"player {q} does not exist ({n} players)")
    sq = d["squares"]
    if sq[STATION] != -1:
        raise _fail(f"$.squares[{STATION}]", "the station holds no tile")
    # every tile exactly once: on the board, in a hand, discarded or collected
    where: dict[int, str] = {}

    def place(t: int, path: str) -> None:
        if t >= tiles:
            raise _fail(path, f"tile {t} does not exist ({tiles} tiles)")
        if t in where:
            raise _fail(path, f"tile {t} is also at {where[t]}")
        where[t] = path

    board = 0
    for s, t in enumerate(sq):
        if t >= 0:
            place(t, f"$.squares[{s}]")
            board |= 1 << s
    for p, hand in enumerate(d["hands"]):
        for i, (t, _) in enumerate(hand):
            place(t, f"$.hands[{p}][{i}]")
            if kinds[t] <= OMNIDIUM or kinds[t] == ALIEN:
                raise _fail(f"$.hands[{p}][{i}]", "only incident tiles (not Alien Encounters) are held")
    for i, t in enumerate(d["discarded"]):
        place(t, f"$.discarded[{i}]")
        if kinds[t] <= ALIEN:
            raise _fail(f"$.discarded[{i}]", "only incident tiles are discarded")
    for p, coll in enumerate(d["collected"]):
        for i, (t, _) in enumerate(coll):
            place(t, f"$.collected[{p}][{i}]")
            if kinds[t] > OMNIDIUM:
                raise _fail(f"$.collected[{p}][{i}]", "only mineral tiles are collected")
    if len(where) != tiles:
        missing = min(set(range(tiles)) - set(where))
        raise _fail("$.squares", f"tile {missing} is nowhere (every tile is on the board, held, discarded or "
                    "collected)")
    for name in ("faceup", "public", "att_mask"):
        if d[name] & ~board:
            raise _fail(f"$.{name}", "marks a square without a tile")
    for p, m in enumerate(d["looked"]):
        if m & ~board:
            raise _fail(f"$.looked[{p}]", "marks a square without a tile")
    for s in range(SQUARES):
        if d["faceup"] >> s & 1 and kinds[sq[s]] != ALIEN:
            raise _fail("$.faceup", f"square {s}: only Alien Encounters stay face-up")
    if d["faceup"].bit_count() != d["aliens"]:
        raise _fail("$.aliens", f"{d['aliens']} Alien Encounters revealed but {d['faceup'].bit_count()} face-up")
    if d["alien"] == STATION:
        raise _fail("$.alien", "the alien never lands on the station")
    if d["alien"] >= 0 and not d["aliens"]:
        raise _fail("$.alien", "the alien is in play only after an Alien Encounter")
    # every rocket in play or in its shipyard
    rk = d["rockets"]
    for p in range(n):
        row = rk[p * SQUARES:(p + 1) * SQUARES]
        total = sum(row) + d["shipyards"][p]
        if total != comps.rockets_per_player:
            raise _fail(f"$.rockets[{p * SQUARES}]", f"player {p} has {total} rockets, "
                        f"{comps.rockets_per_player} expected (in play plus shipyard)")
        for s, c in enumerate(row):
            if c and s != STATION and sq[s] < 0:
                raise _fail(f"$.rockets[{p * SQUARES + s}]", f"a rocket on square {s}, which holds no tile")
    # the current decision
    phase = d["phase"]
    cp = d["current"]
    if phase in WINDOW_PHASES:
        if not d["queue"]:
            raise _fail("$.queue", f"a {phase} asks someone")
        if cp in d["queue"] or len(set(d["queue"])) != len(d["queue"]):
            raise _fail("$.queue", "a window asks each opponent of the current player at most once")
    att = d["attempt"]
    if att >= ncon:
        raise _fail("$.attempt", f"contract {att} does not exist ({ncon} contracts)")
    if phase in ATTEMPT_PHASES and att < 0:
        raise _fail("$.attempt", f"the {phase} phase needs a contract attempt")
    if att >= 0 and d["contract_owners"][att] >= 0:
        raise _fail("$.attempt", "the contract attempted is already fulfilled")
    mask = 0
    for i, (s, t, _m) in enumerate(d["matched"]):
        if sq[s] != t:
            raise _fail(f"$.matched[{i}]", f"tile {t} is not on square {s}")
        if kinds[t] > OMNIDIUM:
            raise _fail(f"$.matched[{i}]", "only mineral tiles match")
        mask |= 1 << s
    for s in d["extra"]:
        mask |= 1 << s
    if d["mismatch"] >= 0:
        if sq[d["mismatch"]] < 0 or kinds[sq[d["mismatch"]]] > OMNIDIUM:
            raise _fail("$.mismatch", "the mismatch is a revealed mineral tile")
        mask |= 1 << d["mismatch"]
    if mask != d["att_mask"]:
        raise _fail("$.att_mask", "differs from the squares revealed in the attempt")
    if att < 0 and (d["matched"] or d["extra"] or d["mismatch"] >= 0 or d["bid"] >= 0):
        raise _fail("$.attempt", "attempt fields are set without an attempt")
    if phase in ("replace", "bid-up-replace") and d["mismatch"] < 0:
        raise _fail("$.mismatch", f"the {phase} phase needs a mismatched tile")
    bid = d["bid"]
    if bid >= counters:
        raise _fail("$.bid", f"bribe counter {bid} does not exist ({counters} counters)")
    if phase in ("bid-up-reveal", "bid-up-replace") and bid < 0:
        raise _fail("$.bid", f"the {phase} phase needs a bid-up")
    if bid >= 0 and d["holders"][bid] < 0:
        raise _fail("$.bid", "the bid-up counter is out of the game")
    if phase == "sabotage-move" and d["sabotage_square"] < 0:
        raise _fail("$.sabotage_square", "the sabotage-move phase needs the sabotaged square")
    if phase in ("alien-move", "alien-steal") and not d["aliens"]:
        raise _fail("$.aliens", f"the {phase} phase follows an Alien Encounter")
    if phase == "over" and d["reason"] == "":
        raise _fail("$.reason", "a finished game has a reason")
    if phase != "over" and (d["winners"] or d["reason"]):
        raise _fail("$.winners", "only a finished game has winners")
    sub = ("scan", "reveal-choice", "sabotage-target", "sabotage-move", "alien-move", "alien-steal")
    if phase in sub and d["ret"] == "none":
        raise _fail("$.ret", f"the {phase} phase returns somewhere")

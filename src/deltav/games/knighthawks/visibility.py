"""Knight Hawks views, secret tokens and the determinizer: what one seat (or a spectator) may see of a state,
which event tokens stay secret from it, and a full world sampled from one player's view alone, for search
bots.

Owns: :func:`view`, :func:`secret_tokens` (``KHState.view`` / ``KHState.secret_tokens`` delegate here) and
:func:`sample_world` (the JSON of a full state, which ``Game.determinize`` loads). The determinizer must never
read anything but the view; views read the state and never change it.

Views: a fresh JSON-ready dict per call that nobody can use to change the state. What does not change from one
step to the next is built once and shared, read-only (``deltav.core.frozen.Frozen`` records and tuples):

- each ship's record (the owner's, with the shadow's record inside, and the other side's) is kept with the ship
  (``Ship.view_own`` / ``view_pub``, carried over by ``clone``) with the tuple of every value it was made of,
  and made again when one changes (the rules code never clears it); its ``damaged_systems`` record is shared
  by every record with the same five flags;
- the options, the victory conditions and the map are frozen once per game set-up (the state's options dict,
  never mutated and shared by clones), the sides are a tuple; the top-level dict is copied from a per-set-up
  template holding them (cheaper than a literal of 29 keys);
- a shown mine is the state's own tuple (id, owner, kind, hex, moves, facing, layer), a plot the state's own
  ``(speed, facing, turns)`` tuple.

Fresh in every view: the top-level dict and its lists and dicts (``ships``, ``mines``, ``plots``,
``screened``, ``laid``, ``dropped``, ``activated``, ``orbit_new``, ``scores``), and the rarely shown parts as plain JSON
(``plotting``, the declared and pending attacks, the repair allocations, the result). The per-viewer hiding:
the other side's hidden mines are left out (counted in ``hidden_mines`` when placed before play), ``plotting``
and ``declared`` are shown only to the seat deciding, ``laid`` only to the mover, ``allocations`` only to
their own seat, ``dropped`` (the turn each trap was dropped) only to its owner, for its own traps.

The view's JSON shape is declared once, as ``ViewJson`` (the state's records of ``state_schema`` where they are the
same JSON), from which the client's types are written (web/tools/gen_types.py, tests/web/test_generated_types.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal, NotRequired, TypedDict

from deltav.core.frozen import Frozen, freeze
from deltav.core.rng import Rng
from deltav.games.knighthawks.repair import sample_secret_repairs
from deltav.games.knighthawks.ships import STATUS_NAMES, Ship
from deltav.games.knighthawks.state_schema import Hex, MapJson, ResultJson, ShipJson, VictoryJson

# --- the view's JSON shape (web/src/generated/knighthawks.ts is written from it) --------------------------------

class ViewShipJson(ShipJson):
    """A ship's record in a view: the owner's carries ``shadow``, the record the other side has seen of it."""

    shadow: NotRequired[ShipJson | None]


#: A mine or seeker: [id, owner, kind "M"/"S", hex, moves (-1 waiting), facing, layer ("" placed before play)].
TrapJson = tuple[str, int, Literal["M", "S"], Hex, int, int, str]
#: An attack: [source, weapon index, weapon, target, hex, range, head_on, icms (-1 undecided), evade(, layer)].
AttackJson = (tuple[str, int, str, str, Hex, int, bool, int, bool]
              | tuple[str, int, str, str, Hex, int, bool, int, bool, str])


class ViewJson(TypedDict):
    """What one seat (or a spectator) may see (:func:`view`; docs/knighthawks.md "The view")."""

    game: Literal["knighthawks"]
    options: dict[str, Any]
    map: MapJson
    sides: tuple[str, str]
    victory: VictoryJson
    turn_limit: int
    first: int
    turn: int
    half: Literal[0, 1]
    mover: int
    stage: Literal["move", "declare", "intercept", "repair", "over"]
    fire_mode: Literal["", "def", "off"]
    after: Literal["", "combat", "offense", "endturn"]
    ships: list[ViewShipJson]
    mines: list[TrapJson]
    """The mines and seekers this viewer may see."""
    plots: dict[str, tuple[int, int, list[Literal[-1, 0, 1]]]]
    """The plotted moves by ship: (speed, facing, turns)."""
    plotting: tuple[str, int, int, list[Literal[-1, 0, 1]]] | None
    """The plot being made (only to the seat deciding)."""
    screened: list[str]
    laid: list[str]
    dropped: dict[str, int]
    activated: list[str]
    orbit_new: dict[str, bool]
    declared: list[AttackJson]
    """The seat's own declarations so far (the same rows as ``attacks``)."""
    attacks: list[AttackJson]
    repair_player: int
    allocations: list[tuple[int, str, str, int]]
    result: ResultJson | None
    scores: tuple[int, int]
    hidden_mines: int
    """The other side's mines placed before play that this viewer may not see."""
    viewer: int | None



def _key(sh: Ship) -> tuple:
    """Every value of a ship that play may change (the rest: id, name, class, kind, owner, evasive, points, hull,
    ADF/MR/DCR maxima, is set when the ship is made and never changed; ships.py alone assigns it), its live lists of
    weapons and defenses last; not its shadow. ``view`` inlines this very tuple (keep them in step): a tuple built
    in Python from slot reads is cheaper than an ``attrgetter``."""
    return (sh.pos, sh.facing, sh.speed, sh.screen, sh.ms_turns, sh.fire, sh.status, sh.docked, sh.orbit, sh.evading,
            sh.path, sh.dock_turns, sh.attacked, sh.dmg, sh.adf, sh.mr, sh.short, sh.ccs, sh.nav, sh.dch, sh.unrep,
            sh.navdir, sh.weapons, sh.defenses)


def _kept(k: tuple) -> tuple:
    """A key to keep: ``k`` with its two lists copied (a kept key equals the ship's ``_key`` while no value has
    changed: lists compare by their items)."""
    return k[:-2] + (k[-2][:], k[-1][:])


#: ``damaged_systems`` records by their five flags (short, ccs, nav, dc, fire): at most 32, shared by every record.
_SYSTEMS: dict[tuple, Frozen] = {}


def _systems(flags: tuple) -> Frozen:
    got = _SYSTEMS.get(flags)
    if got is None:
        short, ccs, nav, dch, fire = flags
        got = _SYSTEMS[flags] = Frozen(short=short, ccs=ccs, nav=nav, dc=dch, fire=fire)
    return got


def _record(sh: Ship, rec: Ship, shadow: bool, srec: Frozen | None) -> Frozen:
    """The record of ``sh`` with its secret part (damage, ADF, MR, systems, unrepairable items, navigation
    direction, damaged systems but fire) from ``rec`` (the ship, or its shadow for the other side); ``shadow``:
    with the ``shadow`` key (the owner's record), ``srec`` its value."""
    out = {
        "id": sh.id, "name": sh.name, "class": sh.cls, "kind": sh.kind, "owner": sh.owner, "evasive": sh.evasive,
        "points": sh.points, "hex": sh.pos, "facing": sh.facing, "speed": sh.speed,
        "hp": sh.hp, "damage": rec.dmg, "adf_max": sh.adf0, "adf": rec.adf, "mr_max": sh.mr0, "mr": rec.mr,
        "dcr_max": sh.dcr0, "weapons": tuple(rec.weapons), "defenses": tuple(rec.defenses), "screen": sh.screen,
        "masking": sh.ms_turns, "damaged_systems": _systems((rec.short, rec.ccs, rec.nav, rec.dch, sh.fire)),
        "status": STATUS_NAMES[sh.status], "docked": sh.docked, "orbit": sh.orbit,
        "evading": sh.evading, "unrepairable": rec.unrep, "path": sh.path, "navdir": rec.navdir,
        "dock_turns": sh.dock_turns,
    }
    if shadow:
        out["shadow"] = srec
    out["attacked"] = sh.attacked
    return Frozen(out)


def ship_record(sh: Ship, own: bool) -> Frozen:
    """A ship's record in a view: the JSON of ``Ship.to_json()`` (``own``: the owner's view, with the shadow's
    record) or of ``Ship.public_json()`` (the secret part as the other side last saw it, no shadow key), read-only
    (``Frozen``, tuples for hexes, systems, orbit, path and unrepairable items) and shared by every view until one
    of its values changes.

    The ship keeps it (``Ship.view_own`` / ``view_pub``, carried over by ``clone``) with the values it was made of
    (:func:`_key`, paired with the shadow's when it has one): a changed value (a move, a hit, a repair...) makes a
    new record, so the cache needs no invalidation by the rules code."""
    k = _key(sh)
    sd = sh.shadow
    if sd is not None:
        k = (k, _key(sd))  # another shape than a ship's without a shadow: the keys never compare equal
    hit = sh.view_own if own else sh.view_pub
    if hit is not None and hit[0] == k:
        return hit[1]
    if sd is None:
        rec = _record(sh, sh, own, None)
        kept = _kept(k)
    else:
        rec = _record(sh, sh, True, ship_record(sd, True)) if own else _record(sh, sd, False, None)
        kept = (_kept(k[0]), _kept(k[1]))
    if own:
        sh.view_own = (kept, rec)
    else:
        sh.view_pub = (kept, rec)
    return rec


#: The keys of a view, in order.
_KEYS = ("game", "options", "map", "sides", "victory", "turn_limit", "first", "turn", "half", "mover", "stage",
         "fire_mode", "after", "ships", "mines", "plots", "plotting", "screened", "laid", "dropped", "activated",
         "orbit_new", "declared", "attacks", "repair_player", "allocations", "result", "scores", "hidden_mines", "viewer")

#: What a view shows of a game's fixed set-up: ``(options, victory, map, sides, turn_limit, first, top)``, ``top``
#: a view with the set-up's parts (read-only records) and None for the rest, which every view copies; by the
#: identity of the options dict (a state's options, victory conditions, map and sides are never changed; clones
#: share them). The objects are held, so an id is not reused while it is cached.
_STATIC: dict[int, tuple] = {}


def _static(state) -> tuple:
    """What ``state``'s views show of its set-up (``options``, ``map``, ``sides``, ``victory``, ``turn_limit``,
    ``first``), made once per set-up."""
    options, victory, mp, sides = state.options, state.victory, state.map, state.sides
    hit = _STATIC.get(id(options))
    if (hit is None or hit[0] is not options or hit[1] is not victory or hit[2] is not mp or hit[3] is not sides
            or hit[4] != state.turn_limit or hit[5] != state.first):
        if len(_STATIC) >= 1000:
            _STATIC.clear()
        mrec = Frozen(radius=mp.radius, planets=tuple(zip(mp.planet_names, mp.planet_hexes)))
        top = dict.fromkeys(_KEYS)  # every key in the view's order: a copy and assignments beat a literal
        top.update({"game": "knighthawks", "options": freeze(options), "map": mrec, "sides": tuple(sides),
                    "victory": freeze(victory), "turn_limit": state.turn_limit, "first": state.first})
        hit = _STATIC[id(options)] = (options, victory, mp, sides, state.turn_limit, state.first, top)
    return hit


def view(state, player: int | None) -> dict:
    """Everything but the dice and the other side's hidden mines: enemy mine patterns and inert seekers
    are not shown (their count is); see docs/knighthawks.md. The same JSON as the state's record (but the dice),
    a fresh dict whose lists and dicts are fresh but for the read-only parts shared with the state and other views
    (the module's docstring lists them)."""
    seat = player is not None
    mover = state.mover
    hidden = 0
    shown = []
    activated = state.activated
    for mm in state.mines:
        if seat and mm[1] == player or mm[4] >= 0 or mm[0] in activated:
            shown.append(mm)  # the state's tuple, its hex a tuple
        elif mm[6] == "":
            hidden += 1  # placed before play: the scenario says how many there are, not where
        # a trap dropped in play is unknown to the other side (not even counted) until it detonates or,
        # a seeker, is activated
    cur = state.plotting
    declared = state.declared
    # a seat's decision in progress (a plot, declared attacks) is its own business
    deciding = seat and (cur is not None or bool(declared)) and player in state.current_players()
    res = state.result()
    ships = []
    add = ships.append
    for sh in state.ships:
        own = seat and sh.owner == player
        hit = sh.view_own if own else sh.view_pub
        # ship_record's hit inlined: the key is _key(sh), with a shadow (sd) paired with _key(sd)
        if hit is not None:
            k = (sh.pos, sh.facing, sh.speed, sh.screen, sh.ms_turns, sh.fire, sh.status, sh.docked, sh.orbit,
                 sh.evading, sh.path, sh.dock_turns, sh.attacked, sh.dmg, sh.adf, sh.mr, sh.short, sh.ccs, sh.nav,
                 sh.dch, sh.unrep, sh.navdir, sh.weapons, sh.defenses)
            sd = sh.shadow
            if hit[0] == (k if sd is None else (k, (
                    sd.pos, sd.facing, sd.speed, sd.screen, sd.ms_turns, sd.fire, sd.status, sd.docked, sd.orbit,
                    sd.evading, sd.path, sd.dock_turns, sd.attacked, sd.dmg, sd.adf, sd.mr, sd.short, sd.ccs, sd.nav,
                    sd.dch, sd.unrep, sd.navdir, sd.weapons, sd.defenses))):
                add(hit[1])
                continue
        add(ship_record(sh, own))
    plots = state.plots
    orbit_new = state.orbit_new
    attacks = state.attacks
    out = _static(state)[6].copy()
    out["turn"] = state.turn
    out["half"] = state.half
    out["mover"] = mover
    out["stage"] = state.stage
    out["fire_mode"] = state.fire_mode
    out["after"] = state.after
    out["ships"] = ships
    out["mines"] = shown
    out["plots"] = dict(sorted(plots.items())) if plots else {}
    if deciding and cur is not None:
        out["plotting"] = [cur[0], cur[1], cur[2], list(cur[3])]
    out["screened"] = state.screened[:]
    out["laid"] = state.laid[:] if seat and player == mover else []
    dropped = state.dropped
    out["dropped"] = {mm[0]: dropped[mm[0]] for mm in shown if mm[0] in dropped and mm[1] == player} \
        if seat and dropped else {}
    out["activated"] = activated[:]
    out["orbit_new"] = dict(sorted(orbit_new.items())) if orbit_new else {}
    out["declared"] = [_attack_json(a) for a in declared] if deciding else []
    out["attacks"] = [_attack_json(a) for a in attacks] if attacks else []
    out["repair_player"] = state.repair_player
    out["allocations"] = [list(a) for a in state.allocations if a[0] == player] if seat else []
    if res is not None:
        out["result"] = res.to_json()
    out["scores"] = state.scores[:]
    out["hidden_mines"] = hidden
    out["viewer"] = player
    return out

def _attack_json(a: list) -> list:
    """A declared or pending attack as JSON: a new list, with a new list for its hex (index 4)."""
    out = a[:]
    out[4] = list(a[4])
    return out


def full_view(state) -> dict:
    """What an observer who knows everything sees (a finished match's replay): ``view(None)`` with every ship's
    owner record (true damage and systems, with the shadow the other side saw), every mine and seeker, the plot
    being made, the declared attacks, the mines laid and every seat's repair allocations."""
    out = view(state, None)
    out["ships"] = [ship_record(sh, True) for sh in state.ships]
    out["mines"] = list(state.mines)
    out["hidden_mines"] = 0
    cur = state.plotting
    if cur is not None:
        out["plotting"] = [cur[0], cur[1], cur[2], list(cur[3])]
    out["laid"] = state.laid[:]
    out["dropped"] = dict(state.dropped)
    out["declared"] = [_attack_json(a) for a in state.declared]
    out["allocations"] = [list(a) for a in state.allocations]
    return out


def secret_tokens(state, player: int | None) -> set[str]:
    return {mm[0] for mm in state.mines
            if mm[4] < 0 and mm[0] not in state.activated and (player is None or mm[1] != player)}


@lru_cache(maxsize=32)
def _open_cells(radius: int, planets: tuple) -> tuple:
    """The map hexes off planets, in a fixed order (where a hidden trap may lie)."""
    return tuple((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                 if max(abs(q), abs(r), abs(q + r)) <= radius and (q, r) not in planets)


def sample_world(view: Mapping, player: int, rng: Rng) -> dict:
    """The JSON of a full state from ``player``'s view: the other side's hidden traps (their number is in the view)
    are placed at random map hexes off planets, each a mine pattern or a seeker with even odds; once a
    repair turn has passed, each damaged item of an enemy ship may have been repaired in secret (25% each;
    the view's record stays the world's picture of it)."""
    o = {k: v for k, v in view.items() if k not in ("viewer", "hidden_mines", "mover")}
    mines = [list(x) for x in view["mines"]]
    hidden = view.get("hidden_mines", 0)
    if hidden:
        cells = _open_cells(view["map"]["radius"], tuple((h[0], h[1]) for _, h in view["map"]["planets"]))
    for k in range(hidden):
        h = cells[rng.below(len(cells))]
        kind = "M" if rng.below(2) == 0 else "S"
        mines.append([f"trap-sampled-{k + 1}", 1 - player, kind, list(h), -1, 0, ""])
    o["mines"] = mines
    if view["turn"] > 3:  # a repair turn has passed: the enemy may have repaired in secret
        ships = []
        for sj in view["ships"]:
            if sj["owner"] != player and sj["status"] == "active":
                belief = Ship.from_json(sj)
                sj = sample_secret_repairs(belief, rng).to_json()
            ships.append(sj)
        o["ships"] = ships
    o["rng"] = Rng(rng.next64()).to_json()
    return o

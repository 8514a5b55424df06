"""The words of a mining match: one sentence per action or event (the log, legal entries, replays, the CLI), and
`render(view)`, a view drawn as a text grid for terminal play.

`Words(config, names)` is the describer of one match (`MiningGame.describer`): players by their seat names
(`names[p]`, "Player 1", ... by default), tiles and minerals by the rulebook's names ("Alphatite 3", "Mineral
Scan"), bribe counters by their owner and mineral ("Ann's Gammatite counter"), squares as the field labels them
("r2 c4", "the station"), contracts by their card label and minerals. It reads only the event or action itself,
the match's components (which tile id is which incident, which minerals a contract needs: public facts) and the
names; never a state. So a text tells its audience nothing the event does not: a secret look (`tile-seen`) names
the tile only in the event addressed to the looker, public events name only what everybody saw.

This module owns wording only; it must not touch states.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deltav.games.mining.scenarios import GRID, KINDS, MINERALS, STATION
from deltav.games.mining.visibility import squares_of

KIND_NAMES = {
    "alphatite": "Alphatite", "betamite": "Betamite", "gammatite": "Gammatite", "deltamite": "Deltamite",
    "omnidium": "Omnidium", "alien_encounter": "Alien Encounter", "mineral_scan": "Mineral Scan",
    "sabotage": "Sabotage", "rocket_acquisition": "Rocket Acquisition", "pirate_attack": "Pirate Attack",
    "meteor_storm": "Meteor Storm",
}
PURPOSES = {"survey": "a satellite survey", "replacement": "a mineral replacement", "bid-up": "a bid-up"}
FAIL_REASONS = {
    "mismatch": "a tile did not match", "bid-up mismatch": "the bid-up tile did not match",
    "incident": "an incident was revealed", "incident in the bid-up": "an incident was revealed for the bid-up",
    "no tile left to reveal": "no tile was left to reveal", "no tile left for the bid-up": "no tile was left for the bid-up",
}
# what a player declined, by the decision's phase (the "passed" event)
DECLINED = {
    "pirate-window": "does not play a Pirate Attack", "meteor-window": "does not play a Meteor Storm",
    "bid-up-window": "does not bid up", "action": "takes no action (pirates)", "moving": "stops moving rockets",
    "survey": "ends the survey", "scan": "ends the scan", "reveal-choice": "reveals nothing",
    "sabotage-move": "makes no follow-up move", "alien-move": "does not move the alien",
    "alien-steal": "steals nothing", "attempt": "tries no contract", "replace": "pays no bribe",
    "bid-up-replace": "pays no bribe",
}


def is_counter(item: str) -> bool:
    """A bribe counter's id ("b1-gammatite"), not a tile's ("t07")."""
    return item.startswith("b") and "-" in item


def article(word: str) -> str:
    return f"an {word}" if word[:1] in "AEIOU" else f"a {word}"


def kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind, kind.replace("_", " "))


def square(s: Any) -> str:
    """A square as the field labels it: "r2 c4" (1-based row and column), the station by name."""
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < GRID * GRID:
        return "an unknown square"
    if s == STATION:
        return "the station"
    return f"r{s // GRID + 1} c{s % GRID + 1}"


def listing(items: Sequence[str], joiner: str = "and") -> str:
    """ "a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return items[0] if items else "nothing"
    return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Words:
    """The describer of one match: built once from its components (a `Config`, or None when they are not known:
    tile ids then go unnamed) and the seats' names."""

    def __init__(self, cfg=None, names: Sequence[str] | None = None):
        self.names = list(names) if names else []
        self.tiles: dict[str, tuple[str, int]] = {}
        self.contracts: dict[str, tuple[str, ...]] = {}
        if cfg is not None:
            self.tiles = {cfg.ids[t]: (KINDS[cfg.kinds[t]], cfg.values[t]) for t in range(len(cfg.kinds))}
            self.contracts = {cid: tuple(ms) for cid, ms in cfg.contract_json}

    def name(self, p: Any) -> str:
        if not isinstance(p, int) or isinstance(p, bool) or p < 0:
            return "somebody"
        return self.names[p] if p < len(self.names) and self.names[p] else f"Player {p + 1}"

    def counter(self, bribe: Any, holder: Any = None) -> str:
        """ "Ann's Gammatite counter" (a counter id is "b<owner>-<mineral>"); "the Gammatite counter" when
        ``holder`` is its owner."""
        owner, _, mineral = str(bribe).partition("-")
        if owner[:1] == "b" and owner[1:].isdigit() and mineral in MINERALS:
            if int(owner[1:]) == holder:
                return f"the {kind_name(mineral)} counter"
            return f"{self.name(int(owner[1:]))}'s {kind_name(mineral)} counter"
        return "a bribe counter"

    def tile(self, tid: Any) -> str:
        """A tile by what it is ("Alphatite 3", "Mineral Scan"), from the components."""
        got = self.tiles.get(str(tid))
        if got is None:
            return "a tile"
        kind, value = got
        return f"{kind_name(kind)} {value}" if kind in MINERALS else kind_name(kind)

    def face(self, kind: Any, value: Any, an: bool = False) -> str:
        """ "Alphatite 3"; an incident by its name ("an Alien Encounter" with ``an``)."""
        if kind in MINERALS and value:
            return f"{kind_name(kind)} {value}"
        return article(kind_name(str(kind))) if an else kind_name(str(kind))

    def contract(self, cid: Any, minerals: bool = True) -> str:
        need = self.contracts.get(str(cid))
        if minerals and need:
            return f"contract {cid} ({', '.join(kind_name(m) for m in need)})"
        return f"contract {cid}"

    def item(self, item: Any) -> str:
        """A stolen or stealable item: a counter ("Ben's Gammatite counter") or an incident tile ("the Sabotage")."""
        text = str(item)
        if is_counter(text):
            return self.counter(text)
        got = self.tiles.get(text)
        return f"the {kind_name(got[0])}" if got else "an incident"

    def stolen(self, o: Mapping) -> str:
        thief, victim, item = self.name(o["thief"]), self.name(o["victim"]), str(o["item"])
        if is_counter(item) and item[1:].partition("-")[0] == str(o["victim"]):
            return f"{thief} steals {self.item(item)}"
        return f"{thief} steals {self.item(item)} from {victim}"

    def squares(self, xs: Any) -> str:
        return listing([square(s) for s in xs]) if xs else "no square"

    def __call__(self, obj: Mapping) -> str | None:
        """The sentence for a value's JSON form, or None when this module has none for its type."""
        fn = _TEXTS.get(obj.get("type"))
        if fn is None:
            return None
        return fn(self, obj, self.name(obj.get("player")))


def _move(w: Words, o: Mapping, who: str) -> str:
    bump = o.get("bump")
    text = f"Move a rocket from {square(o['frm'])} to {square(o['to'])}"
    return text + (f", bumping {w.name(bump)}'s rocket (both go back to the shipyards)" if bump is not None else "")


def _sabotage_move(w: Words, o: Mapping, who: str) -> str:
    bump = o.get("bump")
    text = f"Move your rocket from {square(o['frm'])} onto the sabotaged square"
    return text + (f", bumping {w.name(bump)}'s rocket" if bump is not None else "")


def _bid_up(w: Words, o: Mapping, who: str) -> str:
    if "player" in o:  # the event
        return (f"{who} bids up the contract with {w.counter(o['bribe'], o['player'])}: one more "
                f"{kind_name(o['mineral'])} tile is needed")
    return f"Bid up with {w.counter(o['bribe'])}"


def _looked(w: Words, o: Mapping, who: str) -> str:
    how = o.get("how")
    if not o["squares"]:
        if how == "prospect":
            return f"{who} prospects, but has no rocket on a face-down tile"
        return f"{who}'s Mineral Scan finds no face-down tile under a rocket" if how == "scan" else f"{who} looks at nothing"
    where = w.squares(o["squares"])
    if how == "prospect":
        return f"{who} prospects: looks secretly at {where}"
    if how == "survey":
        return f"{who} surveys {where} (a secret look)"
    return f"{who} scans {where} (a secret look)"


def _bumped(w: Words, o: Mapping, who: str) -> str:
    victims = listing([f"{w.name(v)}'s" for v in o["victims"]])
    return f"{who}'s rocket bumps {victims} on {square(o['square'])}: both go back to their shipyards"


def _to_station(w: Words, o: Mapping, who: str) -> str:
    counts = o.get("counts") or ()
    whose = [f"{w.name(p)}'s {'rocket' if n == 1 else f'{n} rockets'}" for p, n in enumerate(counts) if n]
    if not whose:
        return f"No rocket was on {square(o['square'])}"
    verb = "returns" if len(whose) == 1 and counts[next(p for p, n in enumerate(counts) if n)] == 1 else "return"
    return f"{listing(whose)} on {square(o['square'])} {verb} to the station"


def _placed(w: Words, o: Mapping, who: str) -> str:
    if o.get("frm") is None:
        return f"{who} places a rocket from the shipyard on {square(o['square'])}"
    return f"{who} moves a rocket from {square(o['frm'])} onto the sabotaged square {square(o['square'])}"


def _failed(w: Words, o: Mapping, who: str) -> str:
    reason = FAIL_REASONS.get(o["reason"], o["reason"])
    flipped = o.get("flipped_back") or ()
    back = (f"; the {'tile' if len(flipped) == 1 else 'tiles'} on {w.squares(flipped)} "
            f"{'is' if len(flipped) == 1 else 'are'} turned face down again") if flipped else ""
    return f"{who} fails {w.contract(o['contract'], False)}: {reason}{back}"


def _fulfilled(w: Words, o: Mapping, who: str) -> str:
    tiles = o["tiles"]
    named = [w.tile(t) for t in tiles]
    what = f" ({', '.join(named)})" if named and "a tile" not in named else ""
    return (f"{who} fulfils {w.contract(o['contract'], False)} with {plural(len(tiles), 'tile')}{what} "
            f"for {plural(o['points'], 'point')}")


def _ended(w: Words, o: Mapping, who: str) -> str:
    scores = ", ".join(f"{w.name(p)} {s}" for p, s in enumerate(o["scores"]))
    winners = list(o["winners"])
    if not winners:
        verdict = "nobody wins (a draw)"
    elif len(winners) == 1:
        verdict = f"{w.name(winners[0])} wins"
    else:
        verdict = f"{listing([w.name(p) for p in winners])} share the win"
    return f"Game over: {o['reason']}. Points: {scores}; {verdict}"


def _discarded(w: Words, o: Mapping, who: str) -> str:
    target = o.get("target")
    return f"{who} plays {kind_name(o['kind'])}" + (f" against {w.name(target)}" if target is not None else "")


def _revealed(w: Words, o: Mapping, who: str) -> str:
    kind = o["kind"]
    what = w.face(kind, o.get("value")) if kind in MINERALS else article(kind_name(kind))
    return f"{who} reveals {what} on {square(o['square'])}"


def _steal(w: Words, o: Mapping) -> str:
    """ "Steal Ben's Mineral Scan", "Steal Ann's Gammatite counter (from Ben)": the victim is named (two opponents'
    tiles of one kind are different choices); a steal recorded without its victim names only the item."""
    item, victim = str(o["item"]), o.get("victim")
    if victim is None:
        return f"Steal {w.item(item)}"
    if is_counter(item):
        owner = item[1:].partition("-")[0]
        return f"Steal {w.counter(item)}" + ("" if owner == str(victim) else f" from {w.name(victim)}")
    got = w.tiles.get(item)
    return f"Steal {w.name(victim)}'s {kind_name(got[0]) if got else 'incident'}"


_TEXTS: dict[str, Callable[[Words, Mapping, str], str]] = {
    # actions (the acting player reads them: "you")
    "move": _move,
    "end-moves": lambda w, o, who: "Stop moving rockets",
    "prospect": lambda w, o, who: "Prospect: look secretly at the tiles under your rockets",
    "survey": lambda w, o, who: f"Satellite survey, paying with {w.counter(o['bribe'])}",
    "look": lambda w, o, who: f"Look at {square(o['square'])}",
    "end-looks": lambda w, o, who: "Stop looking",
    "buy-rocket": lambda w, o, who: "Buy a rocket",
    "discard": lambda w, o, who: f"Play {w.item(o['incident'])}",
    "sabotage": lambda w, o, who: f"Sabotage {w.name(o['victim'])}'s rocket on {square(o['square'])}",
    "sabotage-move": _sabotage_move,
    "reveal-incident": lambda w, o, who: f"Reveal the incident on {square(o['square'])}",
    "move-alien": lambda w, o, who: f"Move the alien to {square(o['square'])}",
    "steal": lambda w, o, who: _steal(w, o),
    "declare": lambda w, o, who: f"Try {w.contract(o['contract'])}",
    "reveal": lambda w, o, who: f"Reveal the tile on {square(o['square'])}",
    "replace": lambda w, o, who: f"Bribe: spend {w.counter(o['bribe'])} so the tile counts as its mineral",
    "bid-up": _bid_up,
    "pass": lambda w, o, who: "Pass",
    # events (everybody in the event's audience reads them)
    "turn-started": lambda w, o, who: f"Turn {o['turn']}: {who} to play",
    "passed": lambda w, o, who: f"{who} {DECLINED.get(o['what'], 'passes')}",
    "rocket-moved": lambda w, o, who: f"{who} moves a rocket from {square(o['frm'])} to {square(o['dest'])}",
    "rockets-bumped": _bumped,
    "rocket-bought": lambda w, o, who: f"{who} buys a rocket",
    "rocket-placed": _placed,
    "rocket-removed": lambda w, o, who: f"{who} sabotages {w.name(o['victim'])}'s rocket on {square(o['square'])}: "
    "it goes back to its shipyard",
    "looked": _looked,
    "tile-seen": lambda w, o, who: f"{who} secretly sees {w.face(o['kind'], o['value'], True)} on {square(o['square'])}",
    "bribe-spent": lambda w, o, who: f"{who} spends {w.counter(o['bribe'], o['player'])} on "
    f"{PURPOSES.get(o['purpose'], o['purpose'])} (−2 points)",
    "tile-revealed": _revealed,
    "rockets-to-station": _to_station,
    "incident-taken": lambda w, o, who: f"{who} takes the {kind_name(o['kind'])} tile",
    "incident-discarded": _discarded,
    "alien-encounter": lambda w, o, who: f"{who} uncovers Alien Encounter {o['number']} of 5 on {square(o['square'])}",
    "alien-moved": lambda w, o, who: f"{who} moves the alien to {square(o['square'])}",
    "stolen": lambda w, o, who: w.stolen(o),
    "contract-declared": lambda w, o, who: f"{who} tries {w.contract(o['contract'])}",
    "mineral-replaced": lambda w, o, who: f"{who} bribes: the tile on {square(o['square'])} counts as "
    f"{kind_name(o['mineral'])}",
    "attempt-failed": _failed,
    "contract-fulfilled": _fulfilled,
    "game-ended": _ended,
}


KIND_CODES = {"alphatite": "A", "betamite": "B", "gammatite": "G", "deltamite": "D", "omnidium": "O",
              "alien_encounter": "AL", "mineral_scan": "MS", "sabotage": "SB", "rocket_acquisition": "RA",
              "pirate_attack": "PA", "meteor_storm": "MT"}


def _cell(e: Mapping, alien: Any) -> str:
    status = e["status"]
    if status == "station":
        body = "STN"
    elif status == "empty":
        body = " . "
    elif e["tile"] is None:
        body = "###"
    else:
        code = KIND_CODES.get(e["tile"]["kind"], "?")
        body = f"{code}{e['tile']['value'] or ''}"[:3].ljust(3)
        if status == "face_up":
            body = "AL!"
    marks = "".join(str(q) * min(c, 2) for q, c in enumerate(e["rockets"]) if c)[:3]
    alien_mark = "*" if e["square"] == alien else " "
    return f"{body}{alien_mark}{marks:<3}"


def render(view: Mapping) -> str:
    """A text picture of a view: the 7x7 grid (tile codes the viewer knows, ``###`` unknown, ``*`` the alien,
    digits for rockets by seat index) and one line per player ("Player 1", ...). Uses only the view."""
    alien = view.get("alien")
    lines = [f"turn {view['turn']}, Player {view['current_player'] + 1} to play; phase {view['phase']}; "
             f"aliens revealed {view['aliens_revealed']}"]
    lines.append("      " + "".join(f"c{c + 1:<7}" for c in range(GRID)))
    squares = squares_of(view)
    for r in range(GRID):
        row = [_cell(squares[r * GRID + c], alien) for c in range(GRID)]
        lines.append(f"r{r + 1}  " + " ".join(row))
    for p in range(view["players"]):
        bribes = " ".join(
            (b["mineral"][:2] if not b["spent"] else "--") for b in view["bribes"] if b["holder"] == p)
        hand = ", ".join(f"{x['kind']}({x['id']})" for x in view["hands"][p]) or "no incidents"
        won = [c["id"] for c in view["contracts"] if c["owner"] == p]
        lines.append(f"Player {p + 1}: {view['scores'][p]} points, contracts {won or '-'}, shipyard "
                     f"{view['shipyards'][p]}, bribes [{bribes}], {hand}")
    open_ = [f"{c['id']}:{'+'.join(KIND_CODES[m] for m in c['minerals'])}" for c in view["contracts"]
             if c["owner"] is None]
    lines.append("open contracts: " + " ".join(open_))
    return "\n".join(lines)

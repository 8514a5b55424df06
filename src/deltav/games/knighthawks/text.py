"""The English of every Knight Hawks action and event (the match log, legal entries, replays, the CLI):
``describer(scenario, names)`` builds, once per match, the function that writes one line for a value's JSON form.

Ships are named by their name and class ("Z'Gata (frigate)"), players by their seat names (``names[p]``) with
their side ("Alice (UPF)"), weapons and defenses by name, damage results in words, places in compass words.
Everything comes from public facts: the scenario (ship names, classes, loadouts, sides) and the event itself.

Owns: wording only. Must not look at states (a text must never tell a viewer more than the event's audience may
know: a trap is "a mine pattern" or "a seeker", never where it lies unless the event says so).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deltav.games.knighthawks.ships import build_systems
from deltav.games.knighthawks.tables import tables

# the six facings as the map draws them (flat-top hexes, north up): facing 0, the engine's "E", points 30 degrees
# below east on the screen
FACING_WORDS = ("east-south-east", "east-north-east", "north", "west-north-west", "west-south-west", "south")
TURN_WORDS = {1: "turn left", -1: "turn right", 0: "go straight on"}
REPAIR_WORDS = {"hull": "its hull", "adf": "1 ADF point", "mr": "1 MR point", "short": "the power short",
                "ccs": "combat control", "nav": "navigation control", "dc": "damage control",
                "fire": "the electrical fire"}
SCREEN_WORDS = {"PS": "switches its proton screen on", "ES": "switches its electron screen on",
                "SS": "switches its stasis screen on", "MS": "releases a masking screen",
                "none": "switches its screens off"}
SCREEN_ORDERS = {"PS": "switch the proton screen on", "ES": "switch the electron screen on",
                 "SS": "switch the stasis screen on", "MS": "release a masking screen", "none": "switch screens off"}
EFFECT_WORDS = {
    "short": "power short circuit: its screens and ICMs stop working",
    "ccs": "combat control hit: -10% to hit with every weapon",
    "nav": "navigation hit: before each move a d10 says which way it must turn",
    "fire": "electrical fire: it burns until put out",
    "dcr": "damage control hit: its DCR is halved",
}
RESULT_WORDS = {"hull": "hull hit", "drive": "drive hit", "steering": "steering hit", "weapon": "weapon hit",
                "short": "power short", "defense": "defense hit", "ccs": "combat control hit",
                "nav": "navigation hit", "fire": "electrical fire", "dcr": "damage control hit",
                "disaster": "disastrous fire"}
DISASTER_PARTS = {"dcr": "DCR halved", "adf": "ADF to 0", "mr": "MR to 0", "ccs": "combat control hit",
                  "fire": "it burns"}
COMPASS = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


def direction_words(h: Sequence[int]) -> str:
    """The compass direction of hex ``h`` from the map's centre as the screen draws it (north up, east to the
    right: flat-top hexes, ``x = 1.5 q``, ``y = sqrt(3) (r + q / 2)`` down the screen)."""
    q, r = h[0], h[1]
    x = 1.5 * q
    y = math.sqrt(3) * (r + q / 2)
    if x == 0 and y == 0:
        return "the centre"
    a = math.degrees(math.atan2(y, x)) % 360
    return COMPASS[int((a + 22.5) // 45) % 8]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith('x') else 's'}"



def _mount(codes: Sequence[Any], index: int, names: Mapping[Any, str]) -> str:
    """The name of mount ``index`` among a ship's ``codes``: numbered where the ship carries two of that system
    ("laser battery 2"), so two mounts never read alike."""
    code = codes[index]
    name = names.get(code, str(code))
    if list(codes).count(code) < 2:
        return name
    return f"{name} {list(codes[: index + 1]).count(code)}"

class Facts:
    """What the scenario says publicly: each ship's name, class and side, and its weapons and defenses by index
    (the order the engine builds them in), the planets, the sides' names and the traps placed before play."""

    def __init__(self, scenario: Any | None) -> None:
        t = tables()
        self.ships: dict[str, tuple[str, str, int]] = {}
        self.weapons: dict[str, list[str]] = {}
        self.defenses: dict[str, list[str]] = {}
        self.sides: tuple[str, str] = ("side A", "side B")
        self.scenario_traps: dict[str, tuple[int, str, int]] = {}  # id -> side, kind, number among that side's
        if scenario is None:
            return
        self.sides = tuple(scenario.sides)
        for sp in scenario.ships:
            k = t.classes.get(sp.cls)
            cname = k.name if k else sp.cls.replace("_", " ")
            self.ships[sp.id] = (sp.name, cname, sp.side)
            if k is not None:
                ws, ds = build_systems(sp.weapons if sp.weapons is not None else k.weapons,
                                       sp.defenses if sp.defenses is not None else k.defenses)
                self.weapons[sp.id] = [w[0] for w in ws]
                self.defenses[sp.id] = [d[0] for d in ds]
        counts: dict[tuple[int, str], int] = {}
        for i, (side, kind, _h) in enumerate(scenario.mines):
            counts[(side, kind)] = counts.get((side, kind), 0) + 1
            self.scenario_traps[f"trap-{i + 1}"] = (side, kind, counts[(side, kind)])


class Describer:
    """``Describer(facts, names)(value)``: one line of English for an action or event (its value or JSON form)."""

    def __init__(self, facts: Facts, names: Sequence[str] | None) -> None:
        self.f = facts
        self.names = list(names) if names else ["Player 1", "Player 2"]
        t = tables()
        self.weapon_names = {c: w.name for c, w in t.weapons.items()}
        self.defense_names = {c: d.name for c, d in t.defenses.items()}

    # --- names ----------------------------------------------------------------------------------------------
    def player(self, p: Any) -> str:
        if isinstance(p, int) and 0 <= p < len(self.names):
            side = self.f.sides[p] if p < len(self.f.sides) else ""
            return f"{self.names[p]} ({side})" if side and side != self.names[p] else self.names[p]
        return str(p)

    def seat(self, p: Any) -> str:
        return self.names[p] if isinstance(p, int) and 0 <= p < len(self.names) else str(p)

    def ship(self, sid: Any) -> str:
        """A ship by name and class ("Z'Gata (frigate)"; the class alone is not repeated: "destroyer 1")."""
        got = self.f.ships.get(sid)
        if got is None:
            return self.trap(sid) if isinstance(sid, str) and sid.startswith("trap-") else str(sid)
        name, cname, _side = got
        return name if cname.lower() in name.lower() else f"{name} ({cname})"

    def short(self, sid: Any) -> str:
        got = self.f.ships.get(sid)
        return got[0] if got else self.ship(sid)

    def trap(self, tid: Any, kind: str | None = None) -> str:
        known = self.f.scenario_traps.get(tid)
        k = kind or (known[1] if known else None)
        return {"M": "a mine pattern", "S": "a seeker"}.get(k or "", "a mine or seeker")

    def weapon(self, code: Any) -> str:
        return self.weapon_names.get(code, str(code))

    def weapon_of(self, sid: Any, index: Any) -> str:
        codes = self.f.weapons.get(sid, [])
        if isinstance(index, int) and 0 <= index < len(codes):
            return _mount(codes, index, self.weapon_names)
        return f"weapon {index}"

    def repair_target(self, sid: Any, target: Any) -> str:
        m = re.fullmatch(r"([wd])(\d+)", str(target))
        if m:
            codes = (self.f.weapons if m[1] == "w" else self.f.defenses).get(sid, [])
            i = int(m[2])
            if i < len(codes):
                names = self.weapon_names if m[1] == "w" else self.defense_names
                return f"its {_mount(codes, i, names)}"
        return REPAIR_WORDS.get(str(target), str(target))

    def column(self, col: Any) -> str:
        return "no defense" if col == "none" else f"its {self.defense_names.get(col, col)}"

    # --- the text -------------------------------------------------------------------------------------------
    def __call__(self, v: Any) -> str:
        """The line of a value or its JSON form; a value this module cannot word (a malformed one) gets the
        generic ``type field=value`` wording."""
        obj = v.to_json() if hasattr(v, "to_json") else dict(v)
        try:
            text = self.line(obj)
        except (TypeError, KeyError, IndexError, AttributeError, ValueError):
            text = None
        if text is None:
            return generic(obj)
        text = text[:1].upper() + text[1:]
        to = obj.get("to")
        if to:
            who = " and ".join(self.seat(p) for p in to)
            return f"{text} (secret: {who} only)"
        return text

    def line(self, o: Mapping) -> str | None:  # noqa: C901 - one branch per message type
        t = o.get("type")
        g = o.get
        s = self.ship
        if t == "screen":
            return f"{s(g('ship'))}: {SCREEN_ORDERS.get(g('screen'), g('screen'))}"
        if t == "lay":
            what = "mines" if g("kind") == "M" else "a seeker"
            at = g("at")
            where = "in the hex it starts from" if at == 0 else f"{_plural(at, 'hex')} along its path"
            return f"{s(g('ship'))}: drop {what} {where}"
        if t == "activate":
            known = self.f.scenario_traps.get(g("seeker"))
            if known:
                return f"activate seeker {known[2]} (placed before the battle)"
            if g("layer"):  # one seeker per ship per movement phase: its ship and turn tell it apart
                return f"activate the seeker {s(g('layer'))} dropped" + (f" on turn {g('turn')}" if g("turn") else "")
            return "activate a seeker dropped during the battle"
        if t == "orbit":
            return f"{s(g('ship'))}: enter orbit, {'clockwise' if g('clockwise') else 'counter-clockwise'}"
        if t == "course":
            sp = g("speed")
            return f"{s(g('ship'))}: speed {sp}, heading {FACING_WORDS[g('facing') % 6]}" + (
                " (stop)" if sp == 0 else "")
        if t == "step":
            return f"enter the next hex, then {TURN_WORDS.get(g('turn'), g('turn'))}"
        if t == "end_movement":
            return "end movement (ships not plotted hold their course)"
        if t == "assign":
            return f"{s(g('ship'))}: fire its {self.weapon_of(g('ship'), g('weapon'))} at {s(g('target'))}"
        if t == "fire":
            return "fire the declared weapons (or hold fire)"
        if t == "intercept":
            n = g("icms")
            return (f"fire {_plural(n, 'ICM')}" if n else "fire no ICMs") + (" and evade" if g("evade") else "")
        if t == "repair":
            return f"{s(g('ship'))}: {g('points')} DCR to repair {self.repair_target(g('ship'), g('target'))}"
        if t == "end_repair":
            return "done allocating repairs"
        return self.event(o)

    def event(self, o: Mapping) -> str | None:  # noqa: C901 - one branch per event type
        t = o.get("type")
        g = o.get
        s = self.ship
        if t == "turn_started":
            return f"Turn {g('turn')}: {self.player(g('player'))} moves"
        if t == "screen_set":
            return f"{s(g('ship'))} {SCREEN_WORDS.get(g('screen'), g('screen'))}"
        if t == "laid":
            what = "mines" if g("kind") == "M" else "a seeker"
            return f"{s(g('ship'))} drops {what} on its way"
        if t == "seeker_activated":
            return "A seeker is activated: it hunts the nearest ship"
        if t == "seeker_moved":
            n = len(g("path")) - 1
            tgt = g("target")
            return f"A seeker moves {_plural(n, 'hex')}" + (
                f" toward {s(tgt)}" if tgt else "")
        if t == "nav_roll":
            return f"{s(g('ship'))}'s navigation is damaged: d10 rolls {g('roll')}, it must turn {g('direction')} this move"
        if t == "plotted":
            turns = [x for x in g("turns") if x]
            how = f"{_plural(len(turns), 'turn')}" if turns else "straight on"
            sp = g("speed")
            return (f"{s(g('ship'))} plots speed {sp}, {how}" if sp else f"{s(g('ship'))} plots a stop") + (
                f", heading {FACING_WORDS[g('facing') % 6]}" if sp == 0 else "")
        if t == "orbit_declared":
            return f"{s(g('ship'))} enters orbit, {'clockwise' if g('clockwise') else 'counter-clockwise'}"
        if t == "breakup_check":
            return (f"{s(g('ship'))} is severely damaged and maneuvers: {g('chance')}% to break apart, rolls "
                    f"{g('roll')}: " + ("it BREAKS APART" if g("broke") else "it holds together"))
        if t == "moved":
            n = len(g("path")) - 1
            end = g("end")
            heading = FACING_WORDS[g("facing") % 6]
            if end == "crash":
                return f"{s(g('ship'))} flies into a planet and crashes"
            if end == "exit":
                return f"{s(g('ship'))} moves {_plural(n, 'hex')} and leaves the battle"
            if end == "orbit":
                return f"{s(g('ship'))} moves one hex round its planet in orbit"
            if n == 0:
                return f"{s(g('ship'))} stays put, heading {heading}"
            return f"{s(g('ship'))} moves {_plural(n, 'hex')}, now heading {heading} at speed {g('speed')}"
        if t == "masking_ended":
            return f"{s(g('ship'))}'s masking screen is gone"
        if t == "docked":
            return f"{s(g('ship'))} docks at {self.short(g('host'))}"
        if t == "rearmed":
            return f"{s(g('ship'))} rearms its assault rockets"
        if t == "attack":
            return self.attack(o)
        if t == "wasted":
            return (f"{self.short(g('source'))}'s {self.weapon(g('weapon'))} shot at {self.short(g('target'))} is "
                    "wasted: the target is already gone")
        if t == "damage":
            return self.damage(o)
        if t == "destroyed":
            return f"{s(g('ship'))} is destroyed: {self.cause(g('cause'))}"
        if t == "disengaged":
            return f"{s(g('ship'))} has left the battle by the {direction_words(g('hex'))} edge"
        if t == "fired":
            shots = g("attacks")
            if not shots:
                return f"{self.player(g('player'))} holds fire"
            each = "; ".join(f"{self.short(a[0])}'s {self.weapon_of(a[0], a[1])} at {self.short(a[2])}" for a in shots)
            return f"{self.player(g('player'))} fires {_plural(len(shots), 'weapon')}: {each}"
        if t == "intercepted":
            n = g("icms")
            what = f"fires {_plural(n, 'ICM')}" if n else "fires no ICMs"
            return f"{s(g('target'))} {what}" + (" and evades" if g("evade") else "")
        if t == "repairs_allocated":
            return f"{self.player(g('player'))} has allocated repairs (in secret)"
        if t == "repair_roll":
            out = g("outcome")
            gain = g("restored")
            target = g("target")
            what = {"repaired": "repaired", "failed": "failed",
                    "unrepairable": "it cannot be repaired in space"}.get(out, out)
            if out == "repaired" and target == "hull" and gain:
                what += f" (+{gain} hull points)"
            return (f"{s(g('ship'))} repairs {self.repair_target(g('ship'), target)} with {g('points')} DCR: "
                    f"rolls {g('roll')}, {what}")
        if t == "repair_turn":
            return f"Repair turn after game turn {g('turn')}: each side allocates its damage control in secret"
        if t == "game_over":
            winners = g("winners")
            sc = g("scores")
            who = " and ".join(self.player(w) for w in winners)
            head = f"Game over: {who} {'wins' if len(winners) == 1 else 'win'}" if winners else "Game over: a draw"
            pts = f" Points: {self.f.sides[0]} {sc[0]}, {self.f.sides[1]} {sc[1]}." if sc else ""
            return f"{head} ({g('reason')}).{pts}"
        return None

    def attack(self, o: Mapping) -> str:
        g = o.get
        src = g("source")
        code = g("weapon")
        if not (isinstance(src, str) and src.startswith("trap-")):
            who = f"{self.ship(src)} fires its {self.weapon(code)} at {self.ship(g('target'))}"
        else:
            who = f"{self.trap(src, code if code in ('M', 'S') else None).capitalize()} attacks {self.ship(g('target'))}"
        extra = []
        if g("icms"):
            extra.append(f"{_plural(g('icms'), 'ICM')} fired at it")
        if g("evade"):
            extra.append("the target evades")
        more = f", {', '.join(extra)}" if extra else ""
        chance = g("chance")
        odds = f"{chance}% to hit" if chance > 5 else f"{chance}% to hit (a roll of 5 or less still hits)"
        return (f"{who}: range {g('range')}, against {self.column(g('column'))}{more}, {odds}; "
                f"rolls {g('roll')}: {'HIT' if g('hit') else 'miss'}")

    def damage(self, o: Mapping) -> str:
        g = o.get
        ship = self.ship(g("ship"))
        roll, modified = g("roll"), g("modified")
        result, effect, system, hull, note = g("result"), g("effect"), g("system"), g("hull"), g("note")
        src = g("source")
        if roll == 0 and modified == 0 and effect == "hull":  # a docked ship or its host destroyed with the other
            return f"{ship} loses {hull} hull points ({note})"
        mod = modified - roll
        dice = f"d100 {roll} {'+' if mod >= 0 else '-'} {abs(mod)} = {modified}" if mod else f"d100 {roll}"
        head = f"{ship} is hit" if src != "fire" else f"The fire aboard {ship} burns"
        row = tables().damage_row(modified) if isinstance(modified, int) else None
        if effect == "hull":
            double = row is not None and row.double and result == "hull"
            what = f"{'double ' if double else ''}hull hit: {hull} hull points"
            if result != "hull":
                what = f"{RESULT_WORDS.get(result, result)}, taken as a hull hit ({note}): {hull} hull points"
        elif effect == "drive":
            amount = row.amount if row else ""
            what = "drive hit: " + {"one": "loses 1 ADF", "half": "loses half its ADF"}.get(amount, "loses all its ADF")
        elif effect == "steering":
            amount = row.amount if row else ""
            what = "steering hit: " + ("loses 1 MR" if amount == "one" else "loses all its MR")
        elif effect == "weapon":
            what = f"weapon hit: its {self.weapon(system)} is destroyed"
        elif effect == "defense":
            what = f"defense hit: its {self.defense_names.get(system, system)} is destroyed"
        elif effect == "disaster":
            what = "disastrous fire: DCR halved, ADF and MR to 0, combat control hit, and it burns"
        else:
            what = EFFECT_WORDS.get(effect, f"{effect}")
        return f"{head} ({dice}): {what}"

    def cause(self, cause: Any) -> str:
        c = str(cause)
        m = re.fullmatch(r"hull destroyed by (.+)", c)
        if m:
            src = m[1]
            if src == "fire":
                return "its hull burnt out"
            return f"its hull is gone ({'hit by ' + self.short(src) if src in self.f.ships else 'a mine or seeker'})"
        m = re.fullmatch(r"destroyed with its host (.+)", c)
        if m:
            return f"it was docked at {self.short(m[1])}, destroyed"
        m = re.fullmatch(r"destroyed with docked (.+)", c)
        if m:
            return f"{self.short(m[1])}, docked in it, was destroyed"
        return c


def generic(obj: Mapping) -> str:
    """The wording of a value nobody wrote a sentence for: its type and fields."""
    parts = [f"{k}={json.dumps(x, separators=(',', ':'))}" for k, x in obj.items() if k not in ("type", "to")]
    return f"{obj.get('type', '?')} " + " ".join(parts)


_FACTS: dict[str, Facts] = {}


def facts_for(scenario_of: Callable[[], Any], key: str) -> Facts:
    """The scenario's public facts, read once per options (``key``); an unreadable scenario gives none."""
    got = _FACTS.get(key)
    if got is None:
        try:
            scen = scenario_of()
        except Exception:  # noqa: BLE001 - a record naming a scenario file that is gone: ids stay as they are
            scen = None
        if len(_FACTS) > 64:
            _FACTS.clear()
        got = _FACTS[key] = Facts(scen)
    return got

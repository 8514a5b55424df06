"""The text of every Delta-V tactical action and event a player reads (the log, the legal entries, replays, the
CLI): ``describer(options, names)``, the game's ``Game.describer``, one per match.

Wording (issue 26.11): players by their seat names (``names[p]``); ships by their side and class label
(``"Alice's frigate"``, ``"Bob's corvette B"``: labels.py, from the scenario's ships and the fleets spawned);
ordnance by its kind and launcher (``"the torpedo from Alice's frigate"``); places, velocities and burns in
words (places.py: ``"the NE base of Mars"``, ``"2 hexes W of Mercury"``, ``"speed 2 NE"``, ``"burn 2 NE"`` with
the help's key 1-6). Never an id, a ``"q,r"`` key or an audience prefix.

A text tells no more than its value: the describer reads the value, the options and the map. An action's text
is a function of the action, the options, the names and the fleets spawned, which the session teaches it as
they are applied (``learn``, public events only; ``signature()`` is what a server keys its shared action texts
by): a fleet-built ship is ``"Alice's corvette B"`` in every text after its fleet arrived (``"Alice's ship 3"``,
its number in the fleet, only where the describer was not taught, e.g. a lone value described out of a match).
An event's text also uses what public events said (the kind and launcher of an item from a public
``ordnance_launched`` or ``ordnance_detected``), so a text written for one viewer never carries another viewer's
secret.
Values of older records are worded too; a value this module cannot read falls back on the generic text.

Owns: wording only. Must not look at a game state.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from deltav.core.protocol import default_names

from .labels import ShipLabels, class_word
from .mapdata import default_map
from .movement import detect_orbit
from .places import direction_words, heading, place, place_key, velocity_words

PHASES = {"fleet_building": "fleet building", "astrogation": "astrogation", "ordnance": "ordnance",
          "combat": "combat", "logistics": "logistics", "game_over": "game over", "over": "game over"}
DESTROYED = {"off_map": "is lost off the map", "gun": "is destroyed by gunfire",
             "counter": "is destroyed by a counterattack", "planetary_defense": "is destroyed by planetary defense",
             "asteroid": "is destroyed in the asteroids", "ram": "is destroyed ramming",
             "mine": "is destroyed by a mine", "torpedo": "is destroyed by a torpedo", "nuke": "is destroyed by a nuke",
             "combat": "is destroyed in combat", "damage": "is destroyed by damage",
             "ordnance": "is destroyed by ordnance"}
REMOVED = {"expired": "burns out", "off_map": "leaves the map", "body": "hits a planet", "asteroid": "hits an asteroid",
           "base": "hits a base", "shot": "is shot down", "nuke": "is caught in a nuclear blast"}
SOURCES = {"gun": "Gunfire", "counter": "Counterattack", "planetary_defense": "Planetary defense",
           "anti_nuke": "Anti-nuke fire", "asteroid": "Asteroids", "ram": "Ram", "mine": "Mine", "torpedo": "Torpedo"}
TRANSFER = {"fuel": "fuel", "cargo": "cargo", "passengers": "colonists"}
_FLEET_ID = re.compile(r"p([01])s([0-9]+)")
_ITEM_ID = re.compile(r"ord[0-9]+")


def direction(d) -> str:
    """A burn direction as the help's key and compass name: ``2 NE``."""
    return direction_words(d)


def _plural(n, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _cap(text: str) -> str:
    """The first letter in upper case (``str.capitalize`` would lower the rest: names)."""
    return text[:1].upper() + text[1:]


def _join(words: Sequence[str]) -> str:
    words = [w for w in words if w]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _scenario_labels(options: Mapping[str, Any]) -> ShipLabels:
    try:
        from .scenarios import get_scenario

        return ShipLabels.for_scenario(get_scenario(options.get("scenario", "biplanetary")))
    except Exception:  # an unreadable scenario file: fleet ships by class once they spawn, else "a ship"
        return ShipLabels()


class _Words:
    """The wording over one set of labels and item facts (see :class:`TacticalText`)."""

    def __init__(self, options: Mapping[str, Any], names: list[str], labels: ShipLabels):
        self.options = options
        self.names = names
        self.gmap = default_map()
        self.labels = labels
        self.items: dict[str, tuple[str | None, int | None, str | None]] = {}  # id -> (kind, owner, launcher)

    # --- words for things ---------------------------------------------------------------------------------
    def player(self, p) -> str:
        if isinstance(p, int) and not isinstance(p, bool) and 0 <= p < len(self.names):
            return self.names[p]
        return "a player"

    def ship(self, sid) -> str:
        sid = str(sid)
        side = self.labels.side(sid)
        if not self.labels.known(sid):
            m = _FLEET_ID.fullmatch(sid)
            if m:
                return f"{self.player(int(m.group(1)))}'s ship {int(m.group(2)) + 1}"
            return "a ship"
        label = self.labels.label(sid)
        return f"{self.player(side)}'s {label}" if side is not None else f"a {label}"

    def ships(self, ids) -> str:
        """Several ships, one side's named once: ``"Alice's frigate and corsair"``."""
        ids = [str(x) for x in ids or ()]
        sides = {self.labels.side(x) for x in ids}
        if len(ids) > 1 and len(sides) == 1 and None not in sides and all(self.labels.known(x) for x in ids):
            return f"{self.player(sides.pop())}'s " + _join([self.labels.label(x) for x in ids])
        return _join([self.ship(x) for x in ids])

    def item(self, oid, kind: str | None = None) -> str:
        known = self.items.get(str(oid))
        k, owner, launcher = known if known is not None else (kind, None, None)
        k = k or kind
        if launcher is not None:
            return f"the {k or 'item'} from {self.ship(launcher)}"
        if owner is not None:
            return f"{self.player(owner)}'s {k or 'ordnance'}"
        return f"a {k}" if k else "an item of ordnance"

    def thing(self, x) -> str:
        """A ship or an item, by its id."""
        x = str(x)
        if _ITEM_ID.fullmatch(x) and not self.labels.known(x):
            return self.item(x)
        return self.ship(x)

    def where(self, key) -> str:
        return place_key(key, self.gmap)

    def weak_hex(self, key, body: str) -> str:
        """A hex of a moon's weak gravity by its side of the moon ("Io's weak gravity NE of Io"): a moon's
        gravity hexes ring it, one on each side, so two of them never read alike (place() measures from the
        nearest body, which may be the planet the moon orbits: "1 hex SE of Jupiter" for two of Io's hexes)."""
        b = self.gmap.bodies.get(body)
        a, c = (int(x) for x in str(key).split(","))
        off = (a - b.center[0], c - b.center[1]) if b is not None else (0, 0)
        if b is None or max(abs(off[0]), abs(off[1]), abs(off[0] + off[1])) != 1:
            return f"{body}'s weak gravity at {self.where(key)}"
        return f"{body}'s weak gravity {heading(off)} of {body}"

    # --- actions ------------------------------------------------------------------------------------------
    def order_words(self, g) -> str:
        burn, over, land = g("burn"), g("overload"), g("land")
        if burn is None:
            words = "coast"
        elif over is not None:
            words = f"burn {direction(burn)} + overload {direction(over)}"
        else:
            words = f"burn {direction(burn)}"
        if land:
            words += ", land"
        weak = list(g("weak") or ())
        if weak:
            bodies = []
            for k in weak:
                try:
                    a, b = str(k).split(",")
                    grav = self.gmap.gravity.get((int(a), int(b)))
                except ValueError:
                    grav = None
                body = grav[1] if grav else None
                bodies.append(self.weak_hex(k, body) if body else f"weak gravity at {self.where(k)}")
            words += ", ignoring " + _join(bodies)
        return words

    def action(self, t, g) -> str | None:
        if t == "order":
            return f"{self.ship(g('ship'))}: {self.order_words(g)}"
        if t == "end_astrogation":
            return "confirm the orders (end astrogation)"
        if t == "surrender":
            if self.options.get("surrender_ends_game", False):
                return "Surrender: every ship you control strikes its colours, and the other side wins"
            return "Surrender: every ship you control strikes its colours (they stay in play)"
        if t == "launch":
            n = g("boost")
            boost = (f", boosted {_plural(n, 'hex', 'hexes')} toward {direction(g('boost_dir'))}"
                     if g("boost_dir") is not None and n else "")
            return f"{self.ship(g('ship'))}: launch a {g('kind')}{boost}"
        if t == "emplace_base":
            return f"{self.ship(g('ship'))}: emplace its orbital base"
        if t == "end_ordnance":
            return "end the ordnance phase"
        if t == "add_attacker":
            return f"{self.ship(g('ship'))} joins the attack"
        if t == "fire":
            strength = f" with strength {g('strength')}" if g("strength") is not None else ""
            target = str(g("target"))
            if _ITEM_ID.fullmatch(target) and not self.labels.known(target):  # a nuke: the only item a gun may target
                if target in self.items:  # its launcher, when a public event said (two nukes read apart)
                    return f"fire at {self.item(target, 'nuke')}{strength}"
                return f"fire at the enemy nuke{strength}"
            return f"attack {self.ship(target)}{strength}"
        if t == "end_combat":
            return "end combat"
        if t == "transfer":
            what = TRANSFER.get(g("kind"), g("kind"))
            return f"transfer {g('amount')} {what} from {self.ship(g('source'))} to {self.ship(g('target'))}"
        if t == "end_logistics":
            return "end logistics"
        if t == "buy":
            return f"buy {self._purchase(g('item'), g('carrier'))}"
        if t == "fleet_ready":
            return "the fleet is ready"
        return None

    def _purchase(self, item, carrier) -> str:
        if item == "orbitalBaseCargo":
            m = _FLEET_ID.fullmatch(str(carrier or ""))
            ship = f"ship {int(m.group(2)) + 1} of the fleet" if m else "a transport or packet"
            return f"an orbital base, carried by {ship}"
        word = class_word(str(item))
        return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"

    # --- events -------------------------------------------------------------------------------------------
    def moved(self, g) -> str:
        start, dest = g("start"), g("destination")
        vel = g("velocity") or (0, 0)
        text = f"{self.ship(g('ship'))} moves from {self.where(start)} to {self.where(dest)}, {velocity_words(vel)}"
        spent = g("fuel_spent") or 0
        if spent and g("fuel") is not None:
            text += f", {spent} fuel burnt ({g('fuel')} left)"
        grav = g("gravity_queued") or ()
        pulls = [x for x in grav if not x[2]]
        bodies = []
        for x in pulls:
            try:
                a, b = str(x[0]).split(",")
                got = self.gmap.gravity.get((int(a), int(b)))
            except ValueError:
                got = None
            if got and got[1] not in bodies:
                bodies.append(got[1])
        try:
            a, b = str(dest).split(",")
            orbit = detect_orbit(self.gmap, (int(a), int(b)), (int(vel[0]), int(vel[1])),
                                 tuple(int(x[1]) for x in pulls), frozenset())
        except (ValueError, TypeError, IndexError):
            orbit = None
        if orbit:
            text += f", orbiting {orbit}"
        elif bodies:
            text += f"; {_join(bodies)}'s gravity pulls it next turn"
        return text

    def event(self, t, g) -> str | None:
        if t == "turn_started":
            return f"Turn {g('turn')}: {self.player(g('player'))} to play"
        if t == "order_given":
            return f"{self.ship(g('ship'))} is ordered: {self.order_words(g)}"
        if t == "phase_changed":
            phase = PHASES.get(g("phase"), str(g("phase")))
            return f"{self.player(g('player'))}: {phase}" + ("" if phase == "game over" else " phase")
        if t == "ship_moved":
            return self.moved(g)
        if t == "ship_landed":
            return f"{self.ship(g('ship'))} lands at {self.where(g('hex'))}"
        if t == "ship_resupplied":
            return f"{self.ship(g('ship'))} is resupplied at {self.where(g('hex'))}: fuel, ordnance and repairs"
        if t == "ship_destroyed":
            cause = g("cause")
            if cause == "crash":
                return f"{self.ship(g('ship'))} crashes into {g('body')}" if g("body") else \
                    f"{self.ship(g('ship'))} crashes at {self.where(g('hex'))}"
            words = DESTROYED.get(cause, f"is destroyed ({cause})")
            at = "" if cause == "off_map" else f" at {self.where(g('hex'))}"
            return f"{self.ship(g('ship'))} {words}{at}"
        if t == "checkpoint_visited":
            return f"{self.player(g('player'))} visits {g('body')} (a Grand Tour checkpoint)"
        if t == "detection_changed":
            if g("detected"):
                return (f"{self.ship(g('ship'))} is detected at {self.where(g('position'))}, "
                        f"{velocity_words(g('velocity'))}")
            return f"{self.ship(g('ship'))} is no longer detected"
        if t == "identity_revealed":
            what = "carries the fugitives" if g("identity") == "fugitives" else "is a decoy"
            return f"{self.ship(g('ship'))} is inspected: it {what}"
        if t == "surrendered":
            return f"{self.player(g('player'))} surrenders: every ship under that side's control strikes its colours"
        if t == "ordnance_launched":
            return self.launched(g)
        if t == "base_emplaced":
            return f"{self.ship(g('ship'))} emplaces an orbital base at {self.where(g('hex'))}"
        if t == "ordnance_moved":
            return f"{_cap(self.item(g('ordnance')))} drifts to {self.where(g('destination'))}"
        if t == "ordnance_detonated":
            targets = [self.thing(x) for x in g("targets") or ()]
            hit = f", hitting {_join(targets)}" if targets else ""
            return f"{_cap(self.item(g('ordnance'), g('kind')))} goes off at {self.where(g('hex'))}{hit}"
        if t == "ordnance_removed":
            words = REMOVED.get(g("reason"), f"is removed ({g('reason')})")
            return f"{_cap(self.item(g('ordnance')))} {words}"
        if t == "ordnance_detected":
            oid = str(g("ordnance"))
            known = self.items.get(oid)
            self.items[oid] = (g("kind"), g("owner"), known[2] if known else None)
            return (f"{self.player(g('owner'))}'s {g('kind')} is detected at {self.where(g('hex'))}, "
                    f"{velocity_words(g('velocity'))}")
        if t == "damage_roll":
            return self.damage(g)
        if t == "attacker_added":
            return f"{self.ship(g('ship'))} joins the attack"
        if t in ("attack_declared", "counterattack"):
            ships = g("attackers") if t == "attack_declared" else g("ships")
            # range and velocity are penalties taken off the die; heroism is a bonus
            mods = [f"range -{g('range_mod')}" if g("range_mod") else "",
                    f"velocity -{g('velocity_mod')}" if g("velocity_mod") else "",
                    f"heroism +{g('heroism')}" if g("heroism") else ""]
            mods_text = ", ".join(m for m in mods if m)
            verb = "attack" if t == "attack_declared" else "counterattack"
            if len(list(ships or ())) == 1:
                verb += "s"
            return (f"{self.ships(ships)} {verb} {self.thing(g('target'))}: strength {g('strength')} against "
                    f"{g('defense')}, odds {g('odds')}" + (f" ({mods_text})" if mods_text else ""))
        if t == "heroism_earned":
            ids = list(g("ships") or ())
            return f"Heroism: {self.ships(ids)} {'earns' if len(ids) == 1 else 'earn'} +1 on every later roll"
        if t == "transferred":
            what = TRANSFER.get(g("kind"), g("kind"))
            return f"{g('amount')} {what} moved from {self.ship(g('source'))} to {self.ship(g('target'))}"
        if t == "ship_captured":
            return f"{self.ship(g('ship'))} is captured by {self.ship(g('by'))}"
        if t == "purchased":
            return (f"{self.player(g('player'))} buys {self._purchase(g('item'), g('carrier'))}, "
                    f"{g('credits_left')} MC left")
        if t == "fleet_ready_declared":
            return f"{self.player(g('player'))}'s fleet is ready"
        if t == "fleet_spawned":
            ships = [tuple(s) for s in g("ships") or ()]
            self.labels.add_fleet(g("player"), [(str(s[0]), str(s[1])) for s in ships])
            where = "; ".join(f"{self.labels.label(str(s[0]))} at {self.where(s[2])}" for s in ships)
            return f"{self.player(g('player'))}'s fleet arrives: {where}"
        if t == "game_over":
            winners = list(g("winners") or ())
            if not winners:
                return f"Game over: a draw ({g('reason')})"
            who = _join([self.player(w) for w in winners])
            return f"Game over: {who} {'wins' if len(winners) == 1 else 'win'} ({g('reason')})"
        return None

    def launched(self, g) -> str:
        oid, kind, launcher = str(g("ordnance")), g("kind"), g("ship")
        public = not g("to")
        if public:  # only a public event teaches the describer (its texts reach every viewer)
            self.items[oid] = (kind, self.labels.side(str(launcher)) if launcher else None, launcher)
        speed = velocity_words(g("velocity"))
        if launcher is None:
            return f"A {kind} is launched at {self.where(g('hex'))} by a ship out of sight, {speed}"
        return f"{self.ship(launcher)} launches a {kind} at {self.where(g('hex'))}, {speed}"

    def damage(self, g) -> str:
        source = SOURCES.get(g("source"), _cap(str(g("source"))))
        target = self.thing(g("target"))
        odds = f" at {g('odds')}" if g("odds") else ""
        mod = g("modifier")
        roll = f"roll {g('roll')}" + (f" {mod:+d}" if isinstance(mod, int) and mod else "")
        result = g("result")
        if g("source") == "anti_nuke":
            effect = "no effect" if result == "-" else "destroyed"
        elif result == "-":
            effect = "no effect"
        elif result == "E":
            effect = "eliminated"
        else:
            total = g("disabled")
            effect = f"{result}: disabled for {_plural(total, 'turn')}" if isinstance(total, int) else str(result)
        return f"{source} on {target}{odds}: {roll}, {effect}"


class TacticalText:
    """The describer of one match (see the module docstring): call it with an action or event, or its JSON.

    An action's text is a function of the action, the options, the names and the fleets :meth:`learn` was
    taught (a server keeps one text per action value for every match with the same options, names and
    :meth:`signature`): its ships are labelled from the scenario and the fleets spawned. An event's text also uses
    what public events taught the describer (the items launched or detected)."""

    def __init__(self, options: Mapping[str, Any] | None, names: Sequence[str] | None):
        opts = dict(options or {})
        names = list(names) if names is not None else default_names(2)
        self.pure = _Words(opts, names, _scenario_labels(opts))
        self.learned = _Words(opts, names, _scenario_labels(opts))
        self._fleets: tuple = ()
        self._items: tuple = ()

    def learn(self, event: Any) -> None:
        """A public event of the match, as it is applied (``Session`` calls this in order): a fleet spawned labels
        its ships in every later text, the actions' too ("Alice's corvette B", not "Alice's ship 3"); an item
        launched in sight is named by its launcher when a gun targets it ("fire at the nuke from Bob's corsair",
        so two nukes read apart)."""
        obj = event.to_json() if hasattr(event, "to_json") else event
        if not isinstance(obj, Mapping):
            return
        if obj.get("type") == "ordnance_launched" and not obj.get("to") and obj.get("ship"):
            before = dict(self.pure.items)
            with contextlib.suppress(TypeError, KeyError, ValueError, AttributeError):
                self.pure.launched(obj.get)  # the item's kind and launcher, for "fire at the nuke from ..."
            if self.pure.items != before:
                self._items += ((str(obj.get("ordnance")), str(obj.get("ship"))),)
            return
        if obj.get("type") != "fleet_spawned":
            return
        try:
            side = obj["player"]
            ships = tuple((str(s[0]), str(s[1])) for s in obj.get("ships") or ())
        except (KeyError, IndexError, TypeError):
            return
        self.pure.labels.add_fleet(side, ships)
        self.learned.labels.add_fleet(side, ships)
        self._fleets += ((side, ships),)

    def signature(self) -> tuple:
        """What the action texts learned besides the options and names: the fleets spawned and the items launched
        in sight (public)."""
        return (self._fleets, self._items)

    def __call__(self, v: Any) -> str:
        from deltav.core.protocol import generic_text, get_game, obj_tag_is_event
        from deltav.core.values import Action, Event

        game = get_game("tactical")
        obj = v.to_json() if hasattr(v, "to_json") else dict(v)
        is_event = isinstance(v, Event) or (not isinstance(v, Action) and obj_tag_is_event(game, obj))
        try:
            t = obj.get("type")
            text = self.learned.event(t, obj.get) if is_event else self.pure.action(t, obj.get)
        except (TypeError, KeyError, IndexError, AttributeError, ValueError):
            text = None  # a malformed value: the generic wording
        return text if text is not None else generic_text(game, obj)


def describer(options: Mapping[str, Any] | None, names: Sequence[str] | None = None) -> TacticalText:
    """The describer of a match with these (resolved) options and seat names (``Game.describer``)."""
    return TacticalText(options, names)


def describe(o: Mapping, is_event: bool, names: Sequence[str] | None = None) -> str | None:
    """The text of one value's JSON form with the default options, or None for a type this module does not word
    (a convenience for tests and tools; a match's texts come from its own :func:`describer`)."""
    d = TacticalText(None, names)
    return d.learned.event(o.get("type"), o.get) if is_event else d.pure.action(o.get("type"), o.get)


__all__ = ["describer", "describe", "direction", "TacticalText", "heading", "place"]

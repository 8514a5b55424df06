"""What can happen to a ship on a course, from its owner's view only: the ``warnings`` of an ``order``'s note
(annotate.py), which a client shows the way it shows a crash (issue 26.3).

For one ship and one previewed course (preview.py), in the order the rules resolve them:

1. ``capture`` (movement step e): the course ends, undamaged and under your control, in the hex of a disabled
   enemy ship with its velocity: you capture it (no ram with it);
2. ``ram`` (step f): the course ends, not landed, in the hex of an enemy ship in play (not captured): both
   ships roll the ram table;
3. ``mine`` / ``torpedo`` / ``nuke``, ``when: "movement"`` (step g): the course enters the hex where an item
   sits (yours or the enemy's; a landed ship meets nukes only), or one of your own items, moving after your
   ships, reaches a hex your course entered; a nuke destroys what *ends* its move in the blast hex;
4. ``mine`` / ``torpedo`` / ``nuke``, ``when: "enemy_movement"``: the enemy's item will cross or stop on the
   hex where the course ends on its next move (the enemy's movement phase: enemy items move then, your ship
   sits still), up to where that move stops it (a body: mines and torpedoes are lost, a nuke goes off in the
   hex before; an asteroid or a base); an item the course already meets in step 3 is not repeated;
5. ``planetary_defense``, ``when: "enemy_combat"``: the course ends, not landed, in the fire zone of an intact
   enemy base (its body's gravity within 1 hex of it); the base fires at 2:1 with no modifier at the end of
   the enemy's combat step (one warning per base).

Each warning: ``kind``, ``when`` (``"movement"``, ``"enemy_movement"`` or ``"enemy_combat"``), ``hex`` (where
it happens), ``ship`` (the enemy ship of a ram or capture), ``ordnance`` (the item), ``base`` (the firing base
hex), ``own`` (the item is yours), ``chances`` (die faces out of 6 of each result for your ship: ``"-"``,
``"D1"``..``"D5"``, ``"E"``), ``hit_chance`` (faces that damage it), ``destroy_chance`` (faces that eliminate
it, with the damage it already has), ``odds`` (``"2:1"`` for planetary defense, else null), ``enemy`` (a ram:
the same three figures for the enemy ship, else null) and ``text`` (the warning in words). A torpedo hits one of
the ships it meets: its figures are those of the roll if your ship is the one it hits. The crash itself stays
the preview's ``outcome``/``crash_hex``: a crashing or lost course has no other warning.

Only what the player sees counts: enemy ships and items in ``hidden`` (``state.secret_tokens(player)``) are left
out, so a warning never tells of a hidden one (tests/tactical/test_course_risks.py). This module reads the
state and the combat tables; it changes nothing.
"""

from __future__ import annotations

from . import combat as cb
from .labels import ShipLabels
from .model import hkey
from .movement import _trace, drift_destination
from .places import place

RESULT_LABELS = ("-", "D1", "D2", "D3", "D4", "D5", "E")
_ITEM_WORDS = {"mine": "mine", "torpedo": "torpedo", "nuke": "nuke"}


def _figures(results, disabled: int) -> tuple[dict, int, int]:
    """(chances by label, damaging faces, eliminating faces) of six die results for a ship with ``disabled``."""
    counts = [0] * 7
    hit = destroy = 0
    for res in results:
        counts[int(res)] += 1
        if res != cb.Damage.NONE:
            hit += 1
            if cb.apply_damage(disabled, res)[1]:
                destroy += 1
    return {RESULT_LABELS[i]: n for i, n in enumerate(counts) if n}, hit, destroy


def table_figures(source: str, disabled: int) -> tuple[dict, int, int]:
    """An Other Damage Table (``ram``, ``mine``, ``torpedo``) for a ship with ``disabled`` turns."""
    return _figures([cb.other_damage(source, die) for die in range(1, 7)], disabled)


def gun_figures(column: int, penalty: int, disabled: int) -> tuple[dict, int, int]:
    """The Gun Combat Results Table at an odds column and a net penalty, for a ship with ``disabled`` turns."""
    return _figures([cb.gun_result(column, die - penalty) for die in range(1, 7)], disabled)


def _nuke_figures(destroyed: bool) -> tuple[dict, int, int]:
    return ({"E": 6}, 6, 6) if destroyed else ({"-": 6}, 0, 0)


def _odds_words(n: int) -> str:
    return "never" if n == 0 else "certain" if n == 6 else f"{n} in 6"


class CourseRisks:
    """The warnings of courses of ``player``'s ships in one position (what is seen is worked out once)."""

    def __init__(self, state, player: int, hidden: set[str]):
        self.state = state
        self.player = player
        gmap = self.gmap = state.gmap
        grazing = state.options["grazing_is_contact"]
        self.labels = ShipLabels.for_state(state)
        ships = state.ships
        # enemy ships that can ram or be captured: in play, seen
        self.enemies_at: dict = {}
        for e in ships:
            if e.owner != player and not e.destroyed and not e.landed and e.control != "captured" \
                    and e.id not in hidden:
                self.enemies_at.setdefault(e.pos, []).append(e)
        items = [o for o in state.ordnance if not o.destroyed and (o.owner == player or o.id not in hidden)]
        self.items_at: dict = {}
        for o in items:
            self.items_at.setdefault(o.pos, []).append(o)
        # each item's next move, up to where it stops: [(item, reachable contact hexes, blast hex of a nuke)]
        self.own_moves = []
        self.enemy_next: dict = {}
        for o in items:
            dest = drift_destination(o.pos, o.vel, o.pending)
            _path, _definite, contact = _trace(o.pos, dest, grazing)
            reach = self._reach(o, contact)
            if o.owner == player:
                self.own_moves.append((o, reach))
            else:
                for h in reach:
                    self.enemy_next.setdefault(h, []).append(o)
        # enemy planetary defense: hex -> bases firing at it
        self.defended: dict = {}
        rules = state.rules
        if rules.combat and rules.planetary_defense:
            for b in state.players[1 - player].bases:
                zone = gmap.fire_zone.get(b)
                if zone is None or b in state.destroyed_bases:
                    continue
                for h in zone:
                    self.defended.setdefault(h, []).append(b)

    def _reach(self, o, contact) -> list:
        """The hexes of an item's move where it can still meet a ship (the flight's checks: a body anywhere on
        the move ends a mine or torpedo at once and sets a nuke off in the hex before it; an asteroid or a base
        stops it)."""
        gmap = self.gmap
        state = self.state
        body_i = next((i for i, h in enumerate(contact) if h in gmap.surface), None)
        if body_i is not None:
            if o.kind != "nuke":
                return []
            return [contact[body_i - 1] if body_i > 0 else o.pos]
        out = []
        for h in contact:
            out.append(h)
            if (h in gmap.asteroids and h not in state.destroyed_asteroids) or \
                    (h in gmap.base and h not in state.destroyed_bases):
                if o.kind != "nuke":
                    out.pop()  # a mine or torpedo is lost there without touching what is in the hex
                break
        return out

    # --- words ------------------------------------------------------------------------------------------
    def _enemy(self, e) -> str:
        return f"the enemy {self.labels.label(e.id)}"

    def _item(self, o) -> str:
        return f"{'your' if o.owner == self.player else 'an enemy'} {_ITEM_WORDS.get(o.kind, o.kind)}"

    def _damage_words(self, hit: int, destroy: int) -> str:
        if hit == 0:
            return "no damage"
        words = f"damaged {_odds_words(hit)}"
        if destroy:
            words += f", eliminated {_odds_words(destroy)}"
        return words

    # --- the warnings -----------------------------------------------------------------------------------
    def warnings(self, sh, pv) -> list[dict]:
        """The warnings of ship ``sh`` on previewed course ``pv`` (a ``preview.CoursePreview``)."""
        if pv.outcome == "crash" or (pv.off_map and not pv.escapes):
            return []
        out: list[dict] = []
        dest = pv.destination
        landed = pv.outcome == "landing"
        entered = pv.contact[1:] if len(pv.contact) >= 2 else ()
        where = entered if entered else (dest,)
        disabled = sh.disabled
        # 1-2. capture and ram, where the course ends
        if not landed and sh.control != "captured":
            for e in self.enemies_at.get(dest, ()):
                if sh.disabled == 0 and sh.control == "own" and e.disabled > 0 and e.vel == pv.velocity:
                    out.append(self._make("capture", "movement", dest, ship=e.id, figures=({"-": 6}, 0, 0),
                                          text=f"Captures {self._enemy(e)}, disabled on this course at "
                                               f"{place(dest, self.gmap)}."))
                    continue
                mine = table_figures("ram", disabled)
                theirs = table_figures("ram", e.disabled)
                out.append(self._make(
                    "ram", "movement", dest, ship=e.id, figures=mine,
                    enemy={"chances": theirs[0], "hit_chance": theirs[1], "destroy_chance": theirs[2]},
                    text=f"Rams {self._enemy(e)} at {place(dest, self.gmap)}: both ships roll the ram table; "
                         f"yours {self._damage_words(mine[1], mine[2])}, "
                         f"{self.labels.label(e.id)} {self._damage_words(theirs[1], theirs[2])}."))
        # 3. items in the hexes the course enters, then own items moving through them
        met = set()
        for h in entered:
            for o in self.items_at.get(h, ()):
                if landed and o.kind != "nuke":
                    continue
                met.add(o.id)
                out.append(self._item_warning(o, h, "movement", disabled, dest, h == dest))
        for o, reach in self.own_moves:
            if landed and o.kind != "nuke":
                continue
            for i, h in enumerate(reach):
                if i == 0 or h not in where:
                    continue
                out.append(self._item_warning(o, h, "movement", disabled, dest, h == dest))
                break
        # 4. enemy items crossing the end hex on their next move (those met already went off, or flew on)
        for o in self.enemy_next.get(dest, ()):
            if o.id in met or (landed and o.kind != "nuke"):
                continue
            out.append(self._item_warning(o, dest, "enemy_movement", disabled, dest, True))
        # 5. enemy planetary defense
        if not landed:
            for b in self.defended.get(dest, ()):
                col = cb.PLANETARY_DEFENSE_ODDS
                fig = gun_figures(col, 0, disabled)
                out.append(self._make(
                    "planetary_defense", "enemy_combat", dest, base=hkey(b), figures=fig,
                    odds=cb.ODDS_LABELS[col],
                    text=f"Ends in the fire of {place(b, self.gmap)} (an enemy base): it fires at "
                         f"{cb.ODDS_LABELS[col]} in the enemy's turn; {self._damage_words(fig[1], fig[2])}."))
        return out

    def _item_warning(self, o, h, when: str, disabled: int, dest, ends_there: bool) -> dict:
        kind = o.kind
        if kind == "nuke":
            fig = _nuke_figures(ends_there)
            effect = ("destroys your ship" if ends_there else
                      "goes off there; it destroys only what ends its move in that hex")
        else:
            fig = table_figures(kind, disabled)
            effect = self._damage_words(fig[1], fig[2])
            if kind == "torpedo":
                effect += " if it hits your ship"
        if when == "enemy_movement":
            lead = f"{self._item(o).capitalize()} crosses {place(h, self.gmap)} on its next move"
        elif o.pos == h:
            lead = f"Runs into {self._item(o)} at {place(h, self.gmap)}"
        else:
            lead = f"{self._item(o).capitalize()} reaches {place(h, self.gmap)} after your move"
        return self._make(kind, when, h, ordnance=o.id, own=o.owner == self.player, figures=fig,
                          text=f"{lead}: {effect}.")

    @staticmethod
    def _make(kind, when, h, *, ship=None, ordnance=None, base=None, own=False, figures, odds=None, enemy=None,
              text) -> dict:
        chances, hit, destroy = figures
        return {"kind": kind, "when": when, "hex": hkey(h), "ship": ship, "ordnance": ordnance, "base": base,
                "own": own, "chances": chances, "hit_chance": hit, "destroy_chance": destroy, "odds": odds,
                "enemy": enemy, "text": text}

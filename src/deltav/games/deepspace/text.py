"""The words of a Deep Space Combat match: one line of plain English per action and event (the browser's log and
legal entries, the terminal's menus, replays), written by ``Words(scenario, names)``, the describer of one match
(``DeepSpaceGame.describer``).

- Players by their seat names (``names[p]``; "Player 1", ... by default), never by the scenario's side names or
  numbers.
- Ships by their owner and a label that is public: a side whose fleet the scenario fixes shows its design names
  (public: the scenario file), numbered within the side when a name repeats ("Player 2's Frigate 3", "Player
  2's Dreadnought"); a side that designs its fleet during play has secret designs, so its ships are "ship 1",
  "ship 2", ... in the order of its designs (``ship_labels``). The screen labels ships the same way (from
  ``board()``, which carries these labels).
- Velocities as the rulebook's directions ("2C+1D", speed 3); places relative to what a player sees (a
  deployment zone's centre), never as axial coordinates.
- The private echo of each design step (``design_step``) says nothing while a ship is under design (the text is
  empty: no line in the log); the echo of a completed design says so once, to its designer only (the event's
  audience). The public ``commissioned`` event then names each ship and its size, which everybody may know.

It reads only the event or action it is given, the scenario (public) and the names; never a state, so a text
tells its audience nothing the event does not. ``text_of`` falls back to the generic wording (None) for what it
does not know; ``DeepSpaceGame.describer`` does that fallback.

This module owns wording only; it must not touch states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deltav.games.deepspace.movement import label, speed


def ship_labels(scenario: Any) -> list[list[str] | None]:
    """Per side, the public labels of its ships in id order (``s<p>-<k>`` is entry ``k``), or None for a side that
    designs its fleet during play (its ships are "ship k")."""
    out: list[list[str] | None] = []
    for side in scenario.players:
        if side.fleet is None:
            out.append(None)
            continue
        names = [d.name for d in side.fleet.ships]
        seen: dict[str, int] = {}
        labels = []
        for n in names:
            seen[n] = seen.get(n, 0) + 1
            labels.append(f"{n} {seen[n]}" if names.count(n) > 1 else n)
        out.append(labels)
    return out


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def listing(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return items[0] if items else "nobody"
    return f"{', '.join(items[:-1])} and {items[-1]}"


def velocity(dq: Any, dr: Any) -> str:
    v = (int(dq), int(dr))
    return "at rest" if v == (0, 0) else f"{label(v)} (speed {speed(v)})"


#: how a winner won, after "wins" / "win" (the result's reasons, flow.finish)
REASONS = {
    "annihilation": "by destroying the other fleet",
    "the enemy left the field": "as the enemy left the field",
    "campaign score (round limit)": "on the campaign points at the round limit",
    "campaign score (battle over)": "on the campaign points when the battle ended",
}
#: why nobody won
DRAWS = {
    "mutual destruction": "both fleets are destroyed",
    "no fleet left on the field": "no fleet is left on the field",
    "campaign score (round limit)": "every fleet has the same campaign points at the round limit",
    "campaign score (battle over)": "every fleet has the same campaign points",
}


class Words:
    """The describer of one match: ``Words(scenario, names)(obj)`` is the line for the JSON form ``obj`` of an
    action or event, or None when it does not know it. ``scenario`` (None: unknown) gives the public ship labels
    and zones."""

    def __init__(self, scenario: Any | None, names: Sequence[str] | None) -> None:
        self.labels = ship_labels(scenario) if scenario is not None else []
        self.zones = [side.zone for side in scenario.players] if scenario is not None else []
        self.names = list(names) if names is not None else []

    # --- nouns -------------------------------------------------------------------------------------------
    def player(self, p: Any) -> str:
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            return "a player"
        return self.names[p] if p < len(self.names) else f"Player {p + 1}"

    def _parts(self, sid: Any) -> tuple[int, int] | None:
        if not isinstance(sid, str) or not sid.startswith("s") or "-" not in sid:
            return None
        a, _, b = sid[1:].partition("-")
        if not (a.isascii() and a.isdigit() and b.isascii() and b.isdigit()) or len(a) > 3 or len(b) > 4:
            return None
        return int(a), int(b)

    def label(self, sid: Any) -> str:
        """A ship's public label without its owner ("Frigate 3", "ship 2")."""
        got = self._parts(sid)
        if got is None:
            return "a ship"
        p, k = got
        side = self.labels[p] if p < len(self.labels) else None
        return side[k] if side is not None and k < len(side) else f"ship {k + 1}"

    def ship(self, sid: Any) -> str:
        """A ship with its owner: "Player 2's Frigate 3"."""
        got = self._parts(sid)
        if got is None:
            return "a ship"
        return f"{self.player(got[0])}'s {self.label(sid)}"

    def stat(self, stat: Any, weapon: Any) -> str:
        return str(stat) if weapon is None else f"weapon {int(weapon) + 1} {stat}"

    def place(self, sid: Any, q: Any, r: Any) -> str:
        got = self._parts(sid)
        zone = self.zones[got[0]] if got is not None and got[0] < len(self.zones) else None
        if zone is None:
            return "in its zone"
        off = (int(q) - zone[0], int(r) - zone[1])
        return "at the centre of its zone" if off == (0, 0) else f"{label(off)} from the centre of its zone"

    # --- lines ---------------------------------------------------------------------------------------------
    def __call__(self, o: Mapping) -> str | None:  # noqa: C901 - one flat table of wordings
        t = o.get("type")
        # actions
        if t == "use_fleet":
            return f"adopt the ready-made fleet {_fleet_title(o['fleet'])}"
        if t == "new_ship":
            return f"start a ship of size {int(o['size'])}"
        if t == "set_stat":
            return f"{o['stat']} {int(o['level'])}"
        if t == "weapon_targeting":
            return f"add a weapon with targeting {int(o['level'])}"
        if t == "weapon_damage":
            return f"the weapon's damage {int(o['level'])}"
        if t == "end_ship":
            name = o.get("name")
            return "commission the ship" + (f" as {str(name).strip()}" if name is not None else "")
        if t == "place":
            return f"place {self.ship(o['ship'])} {self.place(o['ship'], o['q'], o['r'])}"
        if t == "velocity":
            return f"{self.ship(o['ship'])}: new velocity {velocity(o['dq'], o['dr'])}"
        if t == "velocity_column":
            return f"{self.ship(o['ship'])}: a new velocity in column {int(o['dq'])} (its row next)"
        if t == "withdraw":
            return f"{self.ship(o['ship'])} withdraws from the battle"
        if t == "fire":
            head = f"{self.ship(o['ship'])}, weapon {int(o['weapon']) + 1}: "
            return head + ("hold fire" if o["target"] is None else f"fire at {self.ship(o['target'])}")
        if t == "done":
            return "done"
        if t == "allocate":
            return f"{self.ship(o['ship'])}: {plural(int(o['hp']), 'hit point')} on {self.stat(o['stat'], o['weapon'])}"
        if t == "auto_allocate":
            return f"{self.ship(o['ship'])}: the default damage allocation"
        if t == "self_destruct":
            return f"{self.ship(o['ship'])}: " + ("self-destruct" if o["detonate"] else "stand down")
        # events
        if t == "design_step":
            if int(o["size"]) == 0:  # the echo of a completed design (or an adopted fleet): once per design
                return f"{self.player(o['player'])} completed a design (secret until it shows in battle)"
            return ""  # a step of a ship under design: the designer sees it in the designer, not in the log
        if t == "designed":
            return f"{self.player(o['player'])} has designed a fleet"
        if t == "commissioned":
            return f"{self.ship(o['ship'])} (size {int(o['size'])}) joins the battle"
        if t == "deployed":
            return f"{self.player(o['player'])} has deployed"
        if t == "placed":
            v = velocity(o["dq"], o["dr"])
            return f"{self.ship(o['ship'])} deployed " + (v if v == "at rest" else f"with velocity {v}")
        if t == "round":
            return f"Round {int(o['round'])} begins"
        if t == "plotted":
            return f"{self.player(o['player'])} has plotted"
        if t == "moved":
            return self.moved(o)
        if t == "withdrew":
            return f"{self.ship(o['ship'])} withdrew from the battle"
        if t == "shot":
            head = f"{self.ship(o['ship'])} fired weapon {int(o['weapon']) + 1} at {self.ship(o['target'])}, " \
                   f"range {int(o['range'])}: "
            if not o["hit"]:
                return head + "miss"
            hp = int(o["hp"])
            return head + (f"hit, {plural(hp, 'hit point')}" if hp else "hit, but no damage got through")
        if t == "shot_void":
            return (f"{self.ship(o['ship'])}'s weapon {int(o['weapon']) + 1} did not fire: "
                    f"{self.ship(o['target'])} withdrew")
        if t == "stat_lost":
            levels, hp = int(o["levels"]), int(o["hp"])
            what = self.stat(o["stat"], o["weapon"])
            if levels:
                return f"{self.ship(o['ship'])} lost {plural(levels, 'level')} of {what} ({plural(hp, 'hit point')})"
            return f"{self.ship(o['ship'])} took {plural(hp, 'hit point')} on {what} (no level lost)"
        if t == "allocated":
            return f"{self.player(o['player'])} has allocated damage"
        if t == "declared":
            return f"{self.player(o['player'])} has declared"
        if t == "detonated":
            return f"{self.ship(o['ship'])} self-destructs!"
        if t == "blast":
            return f"The explosion of {self.ship(o['ship'])} did {plural(int(o['hp']), 'hit point')} to " \
                   f"{self.ship(o['victim'])}"
        if t == "destroyed":
            return f"{self.ship(o['ship'])} was destroyed" + (
                " (self-destruct)" if o["cause"] == "self-destruct" else "")
        if t == "game_over":
            return self.game_over(o)
        return None

    def moved(self, o: Mapping) -> str:
        who = self.ship(o["ship"])
        spent = int(o["thrust"])
        v = (int(o["dq"]), int(o["dr"]))
        if not spent:
            return f"{who} stays still" if v == (0, 0) else f"{who} drifts, velocity {velocity(*v)}"
        parts = []
        if int(o["speed_up"]):
            parts.append(f"speed +{int(o['speed_up'])}")
        if int(o["slow_down"]):
            parts.append(f"speed -{int(o['slow_down'])}")
        if int(o["turn"]):
            parts.append(f"turn {int(o['turn'])}")
        how = f"{spent} thrust" + (f": {', '.join(parts)}" if parts else "")
        if v == (0, 0):
            return f"{who} stops ({how})"
        return f"{who} burns {how}, velocity {velocity(*v)}"

    def game_over(self, o: Mapping) -> str:
        winners = [self.player(p) for p in o["winners"]]
        reason = str(o["reason"])
        if not winners:
            return f"Game over: a draw, {DRAWS.get(reason, reason)}"
        verb = "wins" if len(winners) == 1 else "win"
        return f"Game over: {listing(winners)} {verb} {REASONS.get(reason, f'({reason})')}"


def _fleet_title(fid: Any) -> str:
    from deltav.core.errors import ScenarioError
    from deltav.games.deepspace.design import builtin_fleet_ids, load_fleet

    if isinstance(fid, str) and fid in builtin_fleet_ids():
        try:
            return load_fleet(fid).title
        except ScenarioError:
            pass
    return str(fid)[:60]

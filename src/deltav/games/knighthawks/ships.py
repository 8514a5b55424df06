"""The ship record: one slotted object per ship or station, with the whole roster of the Advanced Game
(hull damage, current ADF/MR, DCR, weapon and defense systems, the "Damaged Systems" box) and its position.

Owns: the Ship record, its cheap clone and its JSON form, and small read-only queries on it. Must not roll
dice or apply rules (damage.py, repair.py and state.py change ships).

Screens: ``screen`` is the powered screen switched on (PS, ES, SS or None); ``ms_turns`` > 0 while a
released masking screen lasts (a moving ship: until it changes speed or heading; an orbiting ship or station:
that many more of its owner's movement phases).

Shadow: ``shadow`` is None while the ship's record is what the other side has seen; after a private change
(a repair roll, laying a mine or seeker) it holds the record as the other side last saw it, and every later
public change (damage, rounds fired, ICMs, masking charges) is applied to both. Views of the other side show
the shadow's internals.

Systems: ``weapons`` and ``defenses`` are lists of tuples ``(code, count, max, status)``. A non-LTD weapon
mount is one entry with count -1 (G5: each mount is its own system); an LTD weapon (T, AR, RB, M, S) is one
entry whose count is its ammunition; a defense is one entry (RH and powered screens count 1, MS its
charges, ICM its missiles). status: 0 working, 1 destroyed, 2 destroyed and unrepairable in space.

View cache: ``view_own`` / ``view_pub`` hold visibility.py's last read-only record of the ship (the owner's and the
other side's, shared by every view), each with the values it was made of; visibility.py alone reads and sets them, and
a record is checked against the ship's current values before use (the rules code never has to clear them).
"""

from __future__ import annotations

from deltav.games.knighthawks.tables import ShipClass, tables

OK, DESTROYED, LOST = 0, 1, 2  # system status
ACTIVE, DEAD, GONE = 0, 1, 2  # ship status: in play, destroyed, disengaged (left the battle)
STATUS_NAMES = ("active", "destroyed", "disengaged")
LTD = frozenset({"T", "AR", "RB", "M", "S"})


def build_systems(weapons: tuple[tuple[str, int], ...], defenses: tuple[tuple[str, int], ...]):
    ws = []
    for code, n in weapons:
        if code in LTD:
            ws.append((code, n, n, OK))
        else:
            ws.extend((code, -1, -1, OK) for _ in range(n))
    ds = [(code, n, n, OK) for code, n in defenses]
    return ws, ds


class Ship:
    __slots__ = (
        "id", "name", "cls", "kind", "owner", "evasive", "points",
        "pos", "facing", "speed",
        "hp", "dmg", "adf0", "adf", "mr0", "mr", "dcr0",
        "weapons", "defenses",
        "screen", "ms_turns",
        "short", "ccs", "nav", "dch", "fire",
        "status", "docked", "orbit", "evading", "unrep", "path", "navdir", "dock_turns", "shadow", "attacked",
        "view_own", "view_pub",
    )

    def clone(self) -> Ship:
        s = Ship.__new__(Ship)
        s.id = self.id
        s.name = self.name
        s.cls = self.cls
        s.kind = self.kind
        s.owner = self.owner
        s.evasive = self.evasive
        s.points = self.points
        s.pos = self.pos
        s.facing = self.facing
        s.speed = self.speed
        s.hp = self.hp
        s.dmg = self.dmg
        s.adf0 = self.adf0
        s.adf = self.adf
        s.mr0 = self.mr0
        s.mr = self.mr
        s.dcr0 = self.dcr0
        s.weapons = self.weapons[:]
        s.defenses = self.defenses[:]
        s.screen = self.screen
        s.ms_turns = self.ms_turns
        s.short = self.short
        s.ccs = self.ccs
        s.nav = self.nav
        s.dch = self.dch
        s.fire = self.fire
        s.status = self.status
        s.docked = self.docked
        s.orbit = self.orbit
        s.evading = self.evading
        s.unrep = self.unrep
        s.path = self.path
        s.navdir = self.navdir
        s.dock_turns = self.dock_turns
        s.shadow = None if self.shadow is None else self.shadow.clone()
        s.attacked = self.attacked
        s.view_own = self.view_own
        s.view_pub = self.view_pub
        return s

    # --- queries -----------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.status == ACTIVE

    def severe(self) -> bool:
        """More than half the original hull points are gone."""
        return self.dmg > self.hp // 2

    def dcr(self, round_up: bool = True) -> int:
        """Current DCR: halved by a damage control hit (G4: round fractions up)."""
        if not self.dch:
            return self.dcr0
        return (self.dcr0 + 1) // 2 if round_up else self.dcr0 // 2

    def defense_index(self, code: str) -> int:
        for i, d in enumerate(self.defenses):
            if d[0] == code:
                return i
        return -1

    def has_working_defense(self, code: str) -> bool:
        i = self.defense_index(code)
        return i >= 0 and self.defenses[i][3] == OK and self.defenses[i][1] > 0

    def icms_available(self) -> int:
        if self.short:
            return 0
        i = self.defense_index("ICM")
        if i < 0 or self.defenses[i][3] != OK:
            return 0
        return self.defenses[i][1]

    def drifting(self) -> bool:
        return self.adf == 0 and self.mr == 0 and self.kind != "station"

    # --- JSON ----------------------------------------------------------------------------------------
    def to_json(self, shadow: bool = True) -> dict:
        """The ship's record; ``shadow`` False leaves out the other side's picture of it (``"shadow": None``)."""
        return {
            "id": self.id, "name": self.name, "class": self.cls, "kind": self.kind, "owner": self.owner,
            "evasive": self.evasive, "points": self.points,
            "hex": list(self.pos), "facing": self.facing, "speed": self.speed,
            "hp": self.hp, "damage": self.dmg, "adf_max": self.adf0, "adf": self.adf, "mr_max": self.mr0,
            "mr": self.mr, "dcr_max": self.dcr0,
            "weapons": list(map(list, self.weapons)), "defenses": list(map(list, self.defenses)),
            "screen": self.screen, "masking": self.ms_turns,
            "damaged_systems": {"short": self.short, "ccs": self.ccs, "nav": self.nav, "dc": self.dch,
                                "fire": self.fire},
            "status": STATUS_NAMES[self.status], "docked": self.docked,
            "orbit": list(self.orbit) if self.orbit is not None else None,
            "evading": self.evading, "unrepairable": list(self.unrep), "path": list(map(list, self.path)),
            "navdir": self.navdir, "dock_turns": self.dock_turns,
            "shadow": None if self.shadow is None or not shadow else self.shadow.to_json(),
            "attacked": self.attacked,
        }

    def public_json(self) -> dict:
        """The ship as the other side sees it: its record with the secret part (damage, ADF, MR, systems,
        unrepairable items, navigation direction) taken from the shadow when a private change made one, and no
        shadow."""
        out = self.to_json(False)
        del out["shadow"]
        pub = self.shadow
        if pub is not None:
            out["damage"] = pub.dmg
            out["adf"] = pub.adf
            out["mr"] = pub.mr
            out["weapons"] = list(map(list, pub.weapons))
            out["defenses"] = list(map(list, pub.defenses))
            out["unrepairable"] = list(pub.unrep)
            out["navdir"] = pub.navdir
            out["damaged_systems"] = {"short": pub.short, "ccs": pub.ccs, "nav": pub.nav, "dc": pub.dch,
                                      "fire": self.fire}
        return out

    @classmethod
    def from_json(cls, o: dict) -> Ship:
        s = cls.__new__(cls)
        s.id = o["id"]
        s.name = o["name"]
        s.cls = o["class"]
        s.kind = o["kind"]
        s.owner = o["owner"]
        s.evasive = o["evasive"]
        s.points = o["points"]
        s.pos = (o["hex"][0], o["hex"][1])
        s.facing = o["facing"]
        s.speed = o["speed"]
        s.hp = o["hp"]
        s.dmg = o["damage"]
        s.adf0 = o["adf_max"]
        s.adf = o["adf"]
        s.mr0 = o["mr_max"]
        s.mr = o["mr"]
        s.dcr0 = o["dcr_max"]
        s.weapons = [tuple(w) for w in o["weapons"]]
        s.defenses = [tuple(d) for d in o["defenses"]]
        s.screen = o["screen"]
        s.ms_turns = o["masking"]
        ds = o["damaged_systems"]
        s.short, s.ccs, s.nav, s.dch, s.fire = ds["short"], ds["ccs"], ds["nav"], ds["dc"], ds["fire"]
        s.status = STATUS_NAMES.index(o["status"])
        s.docked = o["docked"]
        s.orbit = tuple(o["orbit"]) if o["orbit"] is not None else None
        s.evading = o["evading"]
        s.unrep = tuple(o["unrepairable"])
        s.path = tuple((h[0], h[1]) for h in o["path"])
        s.navdir = o["navdir"]
        s.dock_turns = o["dock_turns"]
        sh = o.get("shadow")
        s.shadow = None if sh is None else Ship.from_json(sh)
        s.attacked = o.get("attacked", 0)
        s.view_own = s.view_pub = None
        return s


def new_ship(
    sid: str,
    klass: ShipClass,
    owner: int,
    pos: tuple[int, int],
    facing: int = 0,
    speed: int = 0,
    name: str | None = None,
    weapons: tuple[tuple[str, int], ...] | None = None,
    defenses: tuple[tuple[str, int], ...] | None = None,
    hp: int | None = None,
    dcr: int | None = None,
) -> Ship:
    """A fresh, undamaged ship of a class (the loadout and hull may be overridden by a scenario)."""
    s = Ship.__new__(Ship)
    s.id = sid
    s.name = name or sid
    s.cls = klass.id
    s.kind = klass.kind
    s.owner = owner
    s.evasive = klass.evasive
    s.points = klass.points
    s.pos = pos
    s.facing = facing % 6
    s.speed = speed
    s.hp = hp if hp is not None else klass.hp
    s.dmg = 0
    s.adf0 = s.adf = klass.adf
    s.mr0 = s.mr = klass.mr
    s.dcr0 = dcr if dcr is not None else klass.dcr
    s.weapons, s.defenses = build_systems(
        weapons if weapons is not None else klass.weapons, defenses if defenses is not None else klass.defenses
    )
    s.screen = None
    s.ms_turns = 0
    s.short = s.ccs = s.nav = s.dch = s.fire = False
    s.status = ACTIVE
    s.docked = None
    s.orbit = None
    s.evading = False
    s.unrep = ()
    s.path = (pos,)
    s.navdir = 0
    s.dock_turns = 0
    s.shadow = None
    s.attacked = 0
    s.view_own = s.view_pub = None
    return s


def ship_of_class(sid: str, class_id: str, owner: int = 0, pos=(0, 0), facing=0, speed=0) -> Ship:
    """Convenience for tests and the skirmish builder."""
    return new_ship(sid, tables().classes[class_id], owner, pos, facing, speed)


def public_count(sh: Ship, which: str, i: int, delta: int) -> None:
    """A public change of a system's count (rounds fired, ICMs, masking charges, rearming) by ``delta``,
    applied to the ship and to the other side's picture of it (``which``: "w" weapons, "d" defenses)."""
    for rec in (sh, sh.shadow):
        if rec is None:
            continue
        lst = rec.weapons if which == "w" else rec.defenses
        c, n, mx, stt = lst[i]
        lst[i] = (c, max(0, min(mx, n + delta)) if n >= 0 else n, mx, stt)


def ensure_shadow(sh: Ship) -> None:
    """Before a private change (a repair roll, a dropped trap): keep the record as the other side knows it."""
    if sh.shadow is None:
        sh.shadow = sh.clone()

"""One ship of Deep Space Combat as the state records it: its design's stat levels as damageable slots (see
:mod:`damage`), position, velocity, status, hit-point bookkeeping and what it has publicly shown. This module
owns the ship record and its JSON only; no rules.
"""

from __future__ import annotations

from deltav.games.deepspace.design import ShipDesign
from deltav.games.deepspace.limits import ALIVE


class Ship:
    """One ship. ``lv`` holds its damageable stat levels as slots (see :mod:`damage`)."""

    __slots__ = (
        "id", "owner", "name", "design", "size", "lv", "partial", "pos", "vel", "status", "hp_taken", "pending",
        "incoming", "seen_thrust", "seen_weapons", "seen_damage",
        "view_rec",  # visibility.py's read-only record of the ship for its owner, with what it was made of (its only user)
    )

    def copy(self) -> Ship:
        s = Ship.__new__(Ship)
        s.id = self.id
        s.owner = self.owner
        s.name = self.name
        s.design = self.design
        s.size = self.size
        s.lv = self.lv[:]
        s.partial = self.partial[:]
        s.pos = self.pos
        s.vel = self.vel
        s.status = self.status
        s.hp_taken = self.hp_taken
        s.pending = self.pending
        s.incoming = self.incoming
        s.seen_thrust = self.seen_thrust
        s.seen_weapons = self.seen_weapons
        s.seen_damage = self.seen_damage
        s.view_rec = self.view_rec
        return s

    @classmethod
    def make(cls, sid: str, owner: int, k: int, d: ShipDesign) -> Ship:
        s = cls.__new__(cls)
        s.id = sid
        s.owner = owner
        s.name = d.name
        s.design = f"d-p{owner}-{k}"
        s.size = d.size
        lv = [d.thrust, d.evasion, d.endurance]
        for t, dm in d.weapons:
            lv += [t, dm]
        s.lv = lv
        s.partial = [0, 0, 0]
        s.pos = None
        s.vel = (0, 0)
        s.status = ALIVE
        s.hp_taken = 0
        s.pending = 0
        s.incoming = 0
        s.seen_thrust = 0
        s.seen_weapons = 0
        s.seen_damage = (0,) * len(d.weapons)
        s.view_rec = None
        return s

    @property
    def thrust(self) -> int:
        return self.lv[0]

    @property
    def evasion(self) -> int:
        return self.lv[1]

    @property
    def endurance(self) -> int:
        return self.lv[2]

    @property
    def num_weapons(self) -> int:
        return (len(self.lv) - 3) // 2

    def weapons(self) -> list[tuple[int, int]]:
        lv = self.lv
        return [(lv[k], lv[k + 1]) for k in range(3, len(lv), 2)]

    def dead(self) -> bool:
        return max(self.lv) <= 0

    # --- JSON --------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "id": self.id, "owner": self.owner, "name": self.name, "design": self.design, "size": self.size,
            "lv": list(self.lv), "partial": list(self.partial),
            "pos": list(self.pos) if self.pos is not None else None, "vel": list(self.vel),
            "status": self.status, "hp_taken": self.hp_taken, "pending": self.pending, "incoming": self.incoming,
            "seen_thrust": self.seen_thrust, "seen_weapons": self.seen_weapons, "seen_damage": list(self.seen_damage),
        }

    @classmethod
    def from_json(cls, o: dict) -> Ship:
        s = cls.__new__(cls)
        s.id = o["id"]
        s.owner = o["owner"]
        s.name = o["name"]
        s.design = o["design"]
        s.size = o["size"]
        s.lv = list(o["lv"])
        s.partial = list(o["partial"])
        s.pos = o["pos"]
        s.vel = o["vel"]
        s.status = o["status"]
        s.hp_taken = o["hp_taken"]
        s.pending = o["pending"]
        s.incoming = o["incoming"]
        s.seen_thrust = o["seen_thrust"]
        s.seen_weapons = o["seen_weapons"]
        s.seen_damage = tuple(o["seen_damage"])
        s.view_rec = None
        return s


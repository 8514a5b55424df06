"""Short labels of ships for the text a player reads: the class in words, with a letter when a side has two or
more ships of that class (``"frigate"``, ``"corvette B"``), and the side that fielded the ship.

The labels come from public facts only, defined once here: the scenario's ships (their ids and types, in the
order the scenario lists them) and the fleets bought in fleet building (public once spawned: the
``fleet_spawned`` event lists every ship with its type, in id order). An orbital base emplaced in play is
labelled by its own id (``p0ob0`` is "orbital base", ``p0ob1`` "orbital base B"). A captured ship keeps its
label and its original side. No label depends on where a ship is, whether it is detected or which transport
carries the fugitives, so a label never tells a viewer more than the id it stands for.

Owns: the labels and the class words. Must not read a live state beyond its ship list, nor change anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

CLASS_WORDS = {"orbitalBase": "orbital base"}
_FLEET_ID = re.compile(r"p([01])s([0-9]+)")
_BASE_ID = re.compile(r"p([01])ob([0-9]+)")


def class_word(ship_type: str) -> str:
    """A ship type in words (``orbitalBase`` -> ``orbital base``)."""
    return CLASS_WORDS.get(ship_type, ship_type)


def letter(k: int) -> str:
    """0 -> A, 1 -> B, ..., 25 -> Z, 26 -> AA."""
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = chr(65 + r) + out
    return out


class ShipLabels:
    """The labels of one match's ships: ``label(id)`` (``"corvette B"``), ``side(id)`` (the seat that fielded
    it) and ``type_of(id)``. Built from the scenario; ``add_fleet`` adds a side's spawned fleet."""

    def __init__(self, sides: Iterable[Iterable[tuple[str, str]]] = ()):
        self._sides: list[list[tuple[str, str]]] = [list(s) for s in sides]
        while len(self._sides) < 2:
            self._sides.append([])
        self._labels: dict[str, str] = {}
        self._side: dict[str, int] = {}
        self._type: dict[str, str] = {}
        self._extra: dict[str, tuple[str, int, str]] = {}
        self._build()

    @classmethod
    def for_scenario(cls, scenario) -> ShipLabels:
        return cls([(s.id, s.type) for s in p.ships] for p in scenario.players)

    @classmethod
    def for_state(cls, state) -> ShipLabels:
        """The labels of a state's ships: its scenario's, and the fleets spawned (every ship that is neither a
        scenario ship nor an emplaced base, by its id's side)."""
        from .scenarios import get_scenario

        try:
            labels = cls.for_scenario(get_scenario(state.options["scenario"]))
        except Exception:  # a scenario file that cannot be read again: every ship by its current side
            labels = cls()
        fleets: dict[int, list[tuple[str, str]]] = {}
        for sh in state.ships:
            if sh.emplaced or sh.id in labels._labels:
                continue
            m = _FLEET_ID.fullmatch(sh.id)
            if m is None:  # not a fleet id (a search bot's placeholder for an unseen ship): its class alone
                labels._extra[sh.id] = (class_word(sh.type.name), sh.owner, sh.type.name)
                continue
            fleets.setdefault(int(m.group(1)), []).append((sh.id, sh.type.name))
        for side, ships in sorted(fleets.items()):
            labels.add_fleet(side, ships)
        return labels

    def add_fleet(self, side: int, ships: Iterable[tuple[str, str]]) -> None:
        """A side's fleet spawned (``(id, type)`` pairs): its ships get labels (letters over the whole side)."""
        if side not in (0, 1):
            return
        known = {sid for sid, _ in self._sides[side]}
        self._sides[side].extend((sid, t) for sid, t in ships if sid not in known)
        self._build()

    def _build(self) -> None:
        self._labels.clear()
        self._side.clear()
        self._type.clear()
        for side, ships in enumerate(self._sides):
            count: dict[str, int] = {}
            for _sid, t in ships:
                count[t] = count.get(t, 0) + 1
            seen: dict[str, int] = {}
            for sid, t in ships:
                k = seen.get(t, 0)
                seen[t] = k + 1
                word = class_word(t)
                self._labels[sid] = f"{word} {letter(k)}" if count[t] > 1 else word
                self._side[sid] = side
                self._type[sid] = t

    def known(self, sid: str) -> bool:
        return sid in self._labels or _BASE_ID.fullmatch(sid) is not None

    def label(self, sid: str) -> str:
        """``"frigate"``, ``"corvette B"``, ``"orbital base"``; a ship not known yet: ``"a ship"``."""
        got = self._labels.get(sid)
        if got is not None:
            return got
        if sid in self._extra:
            return self._extra[sid][0]
        m = _BASE_ID.fullmatch(sid)
        if m:
            k = int(m.group(2))
            return "orbital base" if k == 0 else f"orbital base {letter(k)}"
        return "ship"

    def side(self, sid: str) -> int | None:
        """The seat that fielded the ship (a captured ship keeps it), or None if unknown."""
        got = self._side.get(sid)
        if got is not None:
            return got
        if sid in self._extra:
            return self._extra[sid][1]
        m = _BASE_ID.fullmatch(sid) or _FLEET_ID.fullmatch(sid)
        return int(m.group(1)) if m else None

    def type_of(self, sid: str) -> str | None:
        if sid in self._type:
            return self._type[sid]
        if sid in self._extra:
            return self._extra[sid][2]
        return "orbitalBase" if _BASE_ID.fullmatch(sid) else None

    def as_json(self) -> Mapping[str, dict]:
        """``{id: {"label", "side", "type"}}`` of every known ship."""
        return {sid: {"label": lab, "side": self._side[sid], "type": self._type[sid]}
                for sid, lab in self._labels.items()}

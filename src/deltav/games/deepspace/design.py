"""Ship and fleet designs of Deep Space Combat: costs, budgets, validation, and their data files.

A ship has a size (never damaged), thrust, evasion and endurance (each level costs ``size`` design points) and
any number of weapons with targeting and damage (each level costs 1 point). A ship of size ``s`` has
``60 * s`` design points. A fleet is a list of ships whose sizes total at most the side's agreed size levels.

Fleet files are TOML::

    id = "lancers"
    title = "Three lancers"
    size_levels = 12
    [[ships]]
    name = "Lancer"
    size = 4
    thrust = 5
    evasion = 6
    endurance = 8
    weapons = [{targeting = 20, damage = 30}, {targeting = 20, damage = 30}]

Files are read by :mod:`deltav.core.datafile` into the layout records below (``FleetFile``, ``ShipFile``,
``WeaponFile``: types, bounds, unknown and missing fields); the budgets and the stat cap are then checked by
hand (:func:`check_design`, :func:`check_fleet`). Every failure raises :class:`ScenarioError` with the field
path, the reason (which budget is exceeded) and the file.

This module owns designs and their files only: no positions, no game state, no dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from deltav.core import datafile
from deltav.core.errors import ScenarioError
from deltav.core.jsonin import shown
from deltav.core.shape import MaxLen, MinLen, Range

POINTS_PER_SIZE = 60
#: bounds on data files (and saved states), so that nothing a file says can make the engine allocate without
#: limit: the size levels of one side (and so of one ship), the length of a name
MAX_SIZE_LEVELS = 120
MAX_NAME_LEN = 200
SHIP_STATS = ("thrust", "evasion", "endurance")


@dataclass(frozen=True)
class ShipDesign:
    name: str
    size: int
    thrust: int
    evasion: int
    endurance: int
    weapons: tuple[tuple[int, int], ...]  # (targeting, damage) per weapon

    @property
    def cost(self) -> int:
        return design_cost(self.size, self.thrust, self.evasion, self.endurance, self.weapons)

    @property
    def budget(self) -> int:
        return POINTS_PER_SIZE * self.size

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "size": self.size,
            "thrust": self.thrust,
            "evasion": self.evasion,
            "endurance": self.endurance,
            "weapons": [{"targeting": t, "damage": d} for t, d in self.weapons],
        }


@dataclass(frozen=True)
class Fleet:
    id: str
    title: str
    size_levels: int
    ships: tuple[ShipDesign, ...]

    @property
    def levels_used(self) -> int:
        return sum(s.size for s in self.ships)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "size_levels": self.size_levels,
            "ships": [s.to_json() for s in self.ships],
        }


def design_cost(size: int, thrust: int, evasion: int, endurance: int, weapons) -> int:
    """Design points spent: ``size`` per level of thrust, evasion, endurance; 1 per weapon level."""
    return size * (thrust + evasion + endurance) + sum(t + d for t, d in weapons)


def check_design(d: ShipDesign, path: str = "ship", stat_cap: int = 0) -> None:
    """Raise ScenarioError naming the field and the exceeded budget if ``d`` is not a legal design."""
    if d.size < 1:
        raise ScenarioError(f"{path}.size", f"size must be at least 1, got {shown(d.size)}")
    if d.size > MAX_SIZE_LEVELS:
        raise ScenarioError(f"{path}.size", f"size must be at most {MAX_SIZE_LEVELS}, got {shown(d.size)}")
    if len(d.name) > MAX_NAME_LEN:
        raise ScenarioError(f"{path}.name", f"longer than {MAX_NAME_LEN} characters")
    for stat in SHIP_STATS:
        v = getattr(d, stat)
        if v < 0:
            raise ScenarioError(f"{path}.{stat}", f"must be >= 0, got {shown(v)}")
        if stat_cap and v > stat_cap:
            raise ScenarioError(f"{path}.{stat}", f"{v} exceeds the stat cap {stat_cap}")
    for i, (t, dmg) in enumerate(d.weapons):
        for name, v in (("targeting", t), ("damage", dmg)):
            if v < 0:
                raise ScenarioError(f"{path}.weapons[{i}].{name}", f"must be >= 0, got {shown(v)}")
            if stat_cap and v > stat_cap:
                raise ScenarioError(f"{path}.weapons[{i}].{name}", f"{v} exceeds the stat cap {stat_cap}")
        if t + dmg < 1:
            raise ScenarioError(f"{path}.weapons[{i}]", "a weapon needs at least one level of targeting or damage")
    cost = d.cost
    if cost > d.budget:
        raise ScenarioError(
            path,
            f"design point budget exceeded: costs {cost} points ({d.size} x (thrust {d.thrust} + evasion "
            f"{d.evasion} + endurance {d.endurance}) + weapons {cost - d.size * (d.thrust + d.evasion + d.endurance)})"
            f", budget is {d.budget} (60 x size {d.size})",
        )
    if d.thrust + d.evasion + d.endurance + sum(t + w for t, w in d.weapons) == 0:
        raise ScenarioError(path, "a ship needs at least one stat above zero besides size")


def check_fleet(f: Fleet, path: str = "fleet", stat_cap: int = 0) -> None:
    if f.size_levels < 1:
        raise ScenarioError(f"{path}.size_levels", f"must be at least 1, got {shown(f.size_levels)}")
    if f.size_levels > MAX_SIZE_LEVELS:
        raise ScenarioError(f"{path}.size_levels", f"must be at most {MAX_SIZE_LEVELS}, got {shown(f.size_levels)}")
    if not f.ships:
        raise ScenarioError(f"{path}.ships", "a fleet needs at least one ship")
    if len(f.ships) > f.size_levels:
        raise ScenarioError(
            f"{path}.ships",
            f"size level budget exceeded: {len(f.ships)} ships of size 1 or more, the side has {f.size_levels}",
        )
    for i, s in enumerate(f.ships):
        check_design(s, f"{path}.ships[{i}]", stat_cap)
    if f.levels_used > f.size_levels:
        raise ScenarioError(
            f"{path}.ships",
            f"size level budget exceeded: the ships total {f.levels_used} size levels, the side has {f.size_levels}",
        )


# --- the file layout (read by core.datafile) ------------------------------------------------------------
Level = Annotated[int, Range(0, None)]


@dataclass(frozen=True)
class WeaponFile:
    """One weapon as a file writes it: ``{targeting = 20, damage = 30}``."""

    targeting: Level
    damage: Level


@dataclass(frozen=True)
class ShipFile:
    """One ship design as a file writes it (a ``[[ships]]`` table, an archetype's ``ship``, a saved design)."""

    size: Annotated[int, Range(1, MAX_SIZE_LEVELS)]
    name: Annotated[str, MaxLen(MAX_NAME_LEN)] = "ship"
    thrust: Level = 0
    evasion: Level = 0
    endurance: Level = 0
    weapons: Annotated[tuple[WeaponFile, ...], MaxLen(POINTS_PER_SIZE * MAX_SIZE_LEVELS)] = ()


@dataclass(frozen=True)
class FleetFile:
    """A fleet file: ``size_levels`` defaults to the ships' total."""

    ships: Annotated[tuple[ShipFile, ...], MinLen(1), MaxLen(MAX_SIZE_LEVELS)]
    id: str = "custom"
    title: str = ""
    size_levels: Annotated[int, Range(1, MAX_SIZE_LEVELS)] | None = None


def design_of(f: ShipFile, path: str = "ship", stat_cap: int = 0) -> ShipDesign:
    """The design a file's ship table describes, checked (:func:`check_design`: budget, stat cap, weapons)."""
    d = ShipDesign(f.name, f.size, f.thrust, f.evasion, f.endurance, tuple((w.targeting, w.damage) for w in f.weapons))
    check_design(d, path, stat_cap)
    return d


def design_from_obj(obj: Any, path: str = "ship", stat_cap: int = 0) -> ShipDesign:
    """A design from its parsed form (``ShipDesign.to_json``, a file's ship table); ScenarioError(field path)."""
    return design_of(datafile.read_as(ShipFile, obj, None, path), path, stat_cap)


def fleet_of(f: FleetFile, path: str = "fleet", stat_cap: int = 0) -> Fleet:
    """The fleet a fleet file describes, checked (:func:`check_fleet`)."""
    ships = tuple(design_of(s, f"{path}.ships[{i}]", stat_cap) for i, s in enumerate(f.ships))
    levels = f.size_levels if f.size_levels is not None else sum(s.size for s in ships)
    fleet = Fleet(id=f.id, title=f.title, size_levels=levels, ships=ships)
    check_fleet(fleet, path, stat_cap)
    return fleet


#: the longest path a scenario or fleet reference may have, and the largest data file read
MAX_REF_LEN = 1024
MAX_FILE_BYTES = 1 << 20


def readable_file(ref: object) -> Path | None:
    """``ref`` as the path of a readable regular file, or None: never raises on a bad name (not a string, too
    long, a NUL byte, a lone surrogate, a directory, a missing or unreadable path)."""
    if not isinstance(ref, str | Path):
        return None
    text = str(ref)
    if not text or len(text) > MAX_REF_LEN or "\0" in text:
        return None
    try:
        text.encode("utf-8")
        p = Path(text)
        return p if p.is_file() else None
    except (OSError, ValueError):  # ValueError covers UnicodeEncodeError
        return None


def read_data_file(p: Path, field: str) -> tuple[str, str]:
    """The text and the source name of a data file found by :func:`readable_file`; ScenarioError(field) if it
    cannot be read as UTF-8 text (too big, binary, gone, no permission)."""
    source = str(p)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(field, f"cannot read {source!r}: {exc.strerror or exc}", source) from None
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(field, f"{source!r} is larger than {MAX_FILE_BYTES} bytes", source)
    try:
        return data.decode("utf-8"), source
    except UnicodeDecodeError as exc:
        raise ScenarioError(field, f"{source!r} is not UTF-8 text (byte {exc.start})", source) from None


def _shown(ref: object) -> str:
    text = repr(ref)
    return text if len(text) <= 80 else text[:77] + "..."


def builtin_fleet_ids() -> list[str]:
    root = resources.files(__package__).joinpath("data").joinpath("fleets")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))


def load_fleet(ref: str, stat_cap: int = 0) -> Fleet:
    """A built-in fleet by id, or a fleet file by path."""
    if isinstance(ref, str) and ref in builtin_fleet_ids():
        text = resources.files(__package__).joinpath("data").joinpath("fleets").joinpath(ref + ".toml").read_text()
        source = f"fleets/{ref}.toml"
    else:
        p = readable_file(ref)
        if p is None:
            raise ScenarioError(
                "fleet",
                f"{_shown(ref)} is neither a built-in fleet id nor a readable file (built-in fleet ids: "
                f"{', '.join(builtin_fleet_ids())})",
            )
        text, source = read_data_file(p, "fleet")
    layout = datafile.read_as(FleetFile, datafile.parse(text, source, "toml"), source, "fleet")
    try:
        return fleet_of(layout, "fleet", stat_cap)
    except ScenarioError as exc:
        raise ScenarioError(exc.field, exc.reason, source) from None


def fleet_to_toml(f: Fleet) -> str:
    """The TOML text of a fleet (write it to a file and :func:`load_fleet` reads it back, checking it; the game
    package itself writes no files)."""
    lines = [f"id = {_q(f.id)}", f"title = {_q(f.title)}", f"size_levels = {f.size_levels}"]
    for s in f.ships:
        lines += [
            "",
            "[[ships]]",
            f"name = {_q(s.name)}",
            f"size = {s.size}",
            f"thrust = {s.thrust}",
            f"evasion = {s.evasion}",
            f"endurance = {s.endurance}",
            "weapons = [" + ", ".join(f"{{targeting = {t}, damage = {d}}}" for t, d in s.weapons) + "]",
        ]
    return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

"""Repair turns: what a ship can spend DCR on, the block sizes offered, and the result of one repair roll.

Owns: repair targets, the success/failure/unrepairable reading of a d100 repair roll (90-00 fail, 99/00 can
never be repaired in space) and what each success restores (1 ADF or MR point, 1d10 hull points, or the
whole system or damaged-systems entry). Must not sequence the repair turn (state.py does).

Target keys: "hull", "adf", "mr", "w<i>" (weapon i), "d<i>" (defense i), "short", "ccs", "nav", "dc", "fire".
"""

from __future__ import annotations

from deltav.core.rng import Rng
from deltav.games.knighthawks.ships import DESTROYED, LOST, OK, Ship

MAX_BLOCK = 90  # a block above 89 points cannot raise the chance (90-00 always fails)


def repair_targets(sh: Ship, allocated: list[str]) -> list[str]:
    """Repair targets of a ship that can still take another DCR block this repair turn (each ADF or MR point
    is its own target, so ``adf`` is offered while fewer blocks than missing points are allocated)."""
    out = []
    un = sh.unrep
    if sh.dmg > 0 and "hull" not in un:
        out.append("hull")
    if sh.adf < sh.adf0 and "adf" not in un and allocated.count("adf") < sh.adf0 - sh.adf:
        out.append("adf")
    if sh.mr < sh.mr0 and "mr" not in un and allocated.count("mr") < sh.mr0 - sh.mr:
        out.append("mr")
    for i, w in enumerate(sh.weapons):
        k = f"w{i}"
        if w[3] == DESTROYED and k not in allocated:
            out.append(k)
    for i, d in enumerate(sh.defenses):
        k = f"d{i}"
        if d[3] == DESTROYED and k not in allocated:
            out.append(k)
    for k, flag in (("short", sh.short), ("ccs", sh.ccs), ("nav", sh.nav), ("dc", sh.dch), ("fire", sh.fire)):
        if flag and k not in un and k not in allocated:
            out.append(k)
    return out


def block_sizes(left: int) -> list[int]:
    """DCR blocks offered: multiples of 10 up to 90 that fit, and the whole remainder if smaller than 90."""
    out = list(range(10, min(left, MAX_BLOCK) + 1, 10))
    if left < MAX_BLOCK and left % 10:
        out.append(left)
    return out


def outcome(points: int, roll: int) -> str:
    """A d100 repair roll: 99 or 00 (100) makes the system unrepairable in space; 90-98 fail; otherwise a
    success on a roll at most the points allocated."""
    if roll >= 99:
        return "unrepairable"
    if roll >= 90:
        return "failed"
    return "repaired" if roll <= points else "failed"


def apply_success(sh: Ship, target: str, hull_roll: int = 0) -> int:
    """Restore what one successful repair gives; returns the points restored (hull or ADF/MR) or 1."""
    if target == "hull":
        got = min(hull_roll, sh.dmg)
        sh.dmg -= got
        return got
    if target == "adf":
        sh.adf = min(sh.adf0, sh.adf + 1)
        return 1
    if target == "mr":
        sh.mr = min(sh.mr0, sh.mr + 1)
        return 1
    if target[0] == "w" and target[1:].isdigit():
        i = int(target[1:])
        c, n, mx, _ = sh.weapons[i]
        sh.weapons[i] = (c, n, mx, OK)
        return 1
    if target[0] == "d" and target[1:].isdigit():
        i = int(target[1:])
        c, n, mx, _ = sh.defenses[i]
        sh.defenses[i] = (c, n, mx, OK)
        return 1
    if target == "short":
        sh.short = False
    elif target == "ccs":
        sh.ccs = False
    elif target == "nav":
        sh.nav = False
        sh.navdir = 0
    elif target == "dc":
        sh.dch = False
    elif target == "fire":
        sh.fire = False
    return 1


def still_needed(sh: Ship, target: str) -> bool:
    if target in sh.unrep:
        return False
    return target in repair_targets(sh, [])


def resolve(sh: Ship, target: str, points: int, roll: int, rng: Rng) -> tuple[str, int]:
    """Resolve one allocated block with its d100 ``roll`` (hull successes roll 1d10 with ``rng``)."""
    if not still_needed(sh, target):
        return ("unrepairable" if target in sh.unrep else "not needed", 0)
    res = outcome(points, roll)
    if res == "unrepairable":
        sh.unrep = tuple(sorted(set(sh.unrep) | {target}))
        if target[0] == "w" and target[1:].isdigit():
            i = int(target[1:])
            c, n, mx, _ = sh.weapons[i]
            sh.weapons[i] = (c, n, mx, LOST)
        elif target[0] == "d" and target[1:].isdigit():
            i = int(target[1:])
            c, n, mx, _ = sh.defenses[i]
            sh.defenses[i] = (c, n, mx, LOST)
        return res, 0
    if res == "failed":
        return res, 0
    return res, apply_success(sh, target, rng.d10() if target == "hull" else 0)


REPAIR_PRIOR = 0.25  # chance a determinized world gives each damaged item of an enemy ship a secret repair


def sample_secret_repairs(belief: Ship, rng: Rng, prior: float = REPAIR_PRIOR) -> Ship:
    """A plausible true record for an enemy ship seen as ``belief`` after a repair turn: each repairable
    item is repaired with probability ``prior`` (hull: 1d10 points). The belief becomes its shadow."""
    true = belief.clone()
    for target in repair_targets(belief, []):
        if target == "fire":
            continue  # the fire counter is on the map: never secret
        count = (belief.adf0 - belief.adf) if target == "adf" else (belief.mr0 - belief.mr) if target == "mr" else 1
        for _ in range(count):
            if rng.random() < prior:
                apply_success(true, target, rng.d10() if target == "hull" else 0)
    true.shadow = belief.clone()
    true.shadow.shadow = None
    return true

"""What a mining player knows from its view, and the exact odds of what it does not: the tiles it looked at
(:func:`known_tiles`), the face-down squares, the unseen tile mix (the public mix less every tile the view shows)
and the chance that an unknown square holds each kind (:func:`kind_odds`, the exact marginal of the uniform
posterior of design note 3.1), the squares a player may not reveal or survey (:func:`blocked_for`), and the known
squares that would complete a contract (:func:`plan_contract`).

These follow from the rules and the view alone, so the services that help players (``annotate.py``'s notes) and
the bots (``bots/``) read the same facts. Everything here reads a view only (never a state), so nothing built on
it peeks. This module owns those facts; it must not change views or states, choose actions or score them
(bot-side scoring lives in ``bots/heuristics.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from deltav.games.mining import contracts as cm
from deltav.games.mining.scenarios import MINERALS, OMNIDIUM
from deltav.games.mining.visibility import board_of_view, squares_of

MINERAL_INDEX = {m: i for i, m in enumerate(MINERALS)}


def known_tiles(view: Mapping, forgotten: Iterable[int] = ()) -> dict[int, tuple[str, int]]:
    """Face-down squares whose tile the viewer knows: square -> (kind, value), less ``forgotten`` squares."""
    skip = set(forgotten)
    out = {}
    for e in squares_of(view):
        if e["status"] == "face_down" and e["tile"] is not None and e["square"] not in skip:
            out[e["square"]] = (e["tile"]["kind"], e["tile"]["value"])
    return out


def face_down_squares(view: Mapping) -> list[int]:
    return [e["square"] for e in squares_of(view) if e["status"] == "face_down"]


def unseen_mix(view: Mapping, known: Mapping[int, tuple[str, int]]) -> Counter:
    """How many tiles of each kind lie on the face-down squares outside ``known`` (from the public mix)."""
    total: Counter = Counter()
    for run in board_of_view(view)["tile_mix"]:
        total[run["kind"]] += run["count"]
    for e in squares_of(view):
        if e["status"] != "face_down" and e["tile"] is not None:
            total[e["tile"]["kind"]] -= 1
    for h in view["hands"]:
        for x in h:
            total[x["kind"]] -= 1
    for c in view["collected"]:
        for x in c:
            total[x["kind"]] -= 1
    for x in view.get("discarded", []):
        total[x["kind"]] -= 1
    for kind, _ in known.values():
        total[kind] -= 1
    return +total


def kind_odds(view: Mapping, known: Mapping[int, tuple[str, int]] | None = None) -> dict[str, float]:
    """The chance that any one face-down square the viewer does not know holds each kind: the exact
    marginal of the uniform posterior of design note 3.1 (the same for every unknown square)."""
    known = known_tiles(view) if known is None else known
    mix = unseen_mix(view, known)
    total = sum(mix.values())
    return {k: n / total for k, n in sorted(mix.items())} if total else {}


def blocked_for(view: Mapping, player: int) -> set[int]:
    """Squares ``player`` may not reveal or survey: the alien's and those with an opponent's rocket."""
    out = set()
    for e in squares_of(view):
        if any(c for q, c in enumerate(e["rockets"]) if q != player):
            out.add(e["square"])
    if view["alien"] is not None:
        out.add(view["alien"])
    return out


def plan_contract(need: tuple[int, ...], size: int, matched: list[int],
                  known: Mapping[int, tuple[str, int]], allowed: Iterable[int]) -> list[int] | None:
    """Known squares (among ``allowed``) that complete a contract given minerals ``matched`` so far, choosing
    the most valuable tiles, standard minerals before Omnidium; None when known tiles cannot complete it."""
    cands = sorted(((known[s][1], s) for s in allowed if s in known and known[s][0] in MINERAL_INDEX),
                   reverse=True)
    got = list(matched)
    picked: list[int] = []
    for wild_pass in (False, True):
        for _value, s in cands:
            if s in picked:
                continue
            m = MINERAL_INDEX[known[s][0]]
            if (m == OMNIDIUM) != wild_pass:
                continue
            if cm.fits(need, size, got, m):
                got.append(m)
                picked.append(s)
            if cm.complete(size, got):
                return picked
    return picked if cm.complete(size, got) else None

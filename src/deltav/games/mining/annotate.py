"""Notes on a mining player's legal actions for clients (``MiningGame.annotate_legal``): what the player knows
about the square an action touches, and the odds of what it does not know.

Every note is computed from ``make_view(state, player)`` alone, so a note can only repeat what that player may
know (the tiles it looked at, the public ones) plus odds over the public tile mix; it never names a face-down
tile the player has not seen. Notes:

- ``reveal`` (contract attempt or bid-up): ``square``; ``known`` (``{kind, value}`` when the player knows the
  tile there, else null); ``fits`` (the known tile would count for the contract or the bid) or ``chance`` (the
  exact chance, over the tiles the player has not seen, that the tile there would count).
- ``look`` (survey, scan): ``known`` as above (looking again at a known tile teaches nothing).
- ``declare``: ``need`` (the contract's minerals) and ``plan``: the squares of tiles the player knows that
  would complete it, most valuable first, or null when its known tiles do not.
- ``move`` / ``sabotage-move``: ``freezes`` when the destination holds the alien (the rocket cannot leave).

This module owns the annotations only; it must not change states or decide what is legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict

from deltav.games.mining import contracts as cm
from deltav.games.mining.knowledge import MINERAL_INDEX, blocked_for, kind_odds, known_tiles, plan_contract
from deltav.games.mining.messages import Declare, Look, Move, Reveal, SabotageMove
from deltav.games.mining.scenarios import OMNIDIUM
from deltav.games.mining.visibility import make_view

# --- the notes' JSON shapes (web/tools/gen_types.py writes the client's types from them) -------------------------

class KnownTileJson(TypedDict):
    kind: str
    value: int


class RevealNoteJson(TypedDict):
    """A reveal: the tile there if the player knows it (and whether it would count), else the chance it would."""

    square: int
    known: KnownTileJson | None
    fits: NotRequired[bool]
    chance: NotRequired[float]


class LookNoteJson(TypedDict):
    square: int
    known: KnownTileJson | None


class DeclareNoteJson(TypedDict):
    need: list[str]
    """The contract's minerals."""
    plan: list[int] | None
    """The squares of known tiles that would complete it, most valuable first; null when they do not."""


class MoveNoteJson(TypedDict):
    freezes: bool
    """The destination holds the alien: the rocket cannot leave it."""


NotesJson = TypedDict("NotesJson", {"reveal": RevealNoteJson, "look": LookNoteJson, "declare": DeclareNoteJson,
                                    "move": MoveNoteJson, "sabotage-move": MoveNoteJson})
NotesJson.__doc__ = """The note of each kind of legal action that has one, by the action's ``type`` (``annotate``)."""


def _need(minerals: Sequence[str]) -> tuple[tuple[int, ...], int]:
    idx = [MINERAL_INDEX[m] for m in minerals]
    return tuple(idx.count(m) for m in range(OMNIDIUM)), len(idx)


def _counts(view: Mapping, kind: str) -> bool:
    """Would a revealed tile of ``kind`` count now (the attempt's contract, or the bid-up's mineral)?"""
    att = view["attempt"]
    if att is None or kind not in MINERAL_INDEX:
        return False  # incidents never count
    m = MINERAL_INDEX[kind]
    if att["bid"] is not None and att["bid_done"]:
        bid = att["bid"]["bribe"].split("-", 1)[1]
        return cm.bid_matches(MINERAL_INDEX[bid], m)
    contract = next(c for c in view["contracts"] if c["id"] == att["contract"])
    need, size = _need(contract["minerals"])
    matched = [MINERAL_INDEX[x["counted_as"]] for x in att["matched"]]
    return cm.fits(need, size, matched, m)


def annotate(state, player: int, actions: Sequence, view: Mapping | None = None) -> list[dict | None] | None:
    """One note (or None) per action, in order; None when no action has a note.

    What every note of one call shares is computed once, lazily: the view, the known tiles, the odds over the
    unseen tiles, whether a tile of each kind would count, the squares the player may not use, and each
    contract's need (a player has up to ~50 legal actions, most of them reveals or looks)."""
    if not actions:
        return None
    if view is None:
        view = make_view(state, player)
    tiles = view["tiles"]
    known = known_tiles(view)
    odds: dict[str, float] | None = None
    chance: float | None = None
    counts: dict[str, bool] = {}
    blocked: set[int] | None = None
    contracts = {c["id"]: c for c in view["contracts"]}

    def would_count(kind: str) -> bool:
        hit = counts.get(kind)
        if hit is None:
            hit = counts[kind] = _counts(view, kind)
        return hit

    out: list[dict | None] = []
    for a in actions:
        note: dict | None = None
        if isinstance(a, Reveal):
            tile = tiles[a.square]
            if tile is not None:
                note = {"square": a.square, "known": {"kind": tile["kind"], "value": tile["value"]},
                        "fits": would_count(tile["kind"])}
            else:
                if chance is None:
                    odds = kind_odds(view, known)
                    chance = round(sum(p for k, p in odds.items() if would_count(k)), 4)
                note = {"square": a.square, "known": None, "chance": chance}
        elif isinstance(a, Look):
            tile = tiles[a.square]
            note = {"square": a.square,
                    "known": None if tile is None else {"kind": tile["kind"], "value": tile["value"]}}
        elif isinstance(a, Declare):
            contract = contracts[a.contract]
            need, size = _need(contract["minerals"])
            if blocked is None:
                blocked = blocked_for(view, player)
            allowed = [s for s in known if s not in blocked]
            plan = plan_contract(need, size, [], known, allowed)
            note = {"need": list(contract["minerals"]), "plan": plan}
        elif isinstance(a, Move | SabotageMove):
            dest = a.to if isinstance(a, Move) else view["sabotage_square"]
            if view["alien"] is not None and dest == view["alien"]:
                note = {"freezes": True}
        out.append(note)
    return out if any(n is not None for n in out) else None


__all__ = ["annotate"]

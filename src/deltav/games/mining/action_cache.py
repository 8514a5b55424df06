"""Cached action objects: action values are immutable, so the rules modules hand out the same objects again
(``legal_actions`` stays cheap and ``apply_action`` can recognise its own actions by identity).

This module owns the caches only; it knows no rules.
"""

from __future__ import annotations

from typing import Any

from deltav.games.mining.messages import (
    BuyRocket,
    EndLooks,
    EndMoves,
    Look,
    Move,
    MoveAlien,
    Pass,
    Prospect,
    Reveal,
    RevealIncident,
    Sabotage,
    SabotageMove,
    Steal,
)
from deltav.games.mining.scenarios import SQUARES, STATION

_MOVES: dict[tuple[int, int, int | None], Move] = {}
MOVE_ROW = tuple(tuple(Move(f, t, None) for t in range(SQUARES)) for f in range(SQUARES))
_DESTS: dict[int, tuple[list[int], list[Move]]] = {}
LOOK = tuple(Look(s) for s in range(SQUARES))
REVEAL = tuple(Reveal(s) for s in range(SQUARES))
REVEAL_INC = tuple(RevealIncident(s) for s in range(SQUARES))
MOVE_ALIEN = tuple(MoveAlien(s) for s in range(SQUARES))
SAB_MOVE = tuple(SabotageMove(s) for s in range(SQUARES))
PASS = Pass()
END_MOVES = EndMoves()
END_LOOKS = EndLooks()
PROSPECT = Prospect()
BUY = BuyRocket()
_STR_ACTIONS: dict[tuple[type, str], Any] = {}
_SABOTAGE: dict[tuple[int, int], Sabotage] = {}
_SAB_MOVES: dict[tuple[int, int], SabotageMove] = {}
_STEALS: dict[tuple[str, int], Steal] = {}


def dests(tiles: int) -> tuple[list[int], list[Move]]:
    """The squares of a tile bitmask, ascending, and the station's moves to them (cached: the mask changes
    rarely within a game). Callers must not mutate the lists."""
    d = _DESTS.get(tiles)
    if d is None:
        if len(_DESTS) > 4096:
            _DESTS.clear()
        squares = [s for s in range(SQUARES) if tiles >> s & 1]
        d = _DESTS[tiles] = (squares, [MOVE_ROW[STATION][s] for s in squares])
    return d


class MaskTable:
    """``table(mask)``: the items of the set bits of a square bitmask, ascending, as a cached tuple. Whole masks
    are cached; a new mask is joined from its low and high halves (rows 0-3 and 4-6), each cached too, since
    far fewer halves than masks occur in a game."""

    __slots__ = ("items", "whole", "low", "high")
    SPLIT = 25

    def __init__(self, items):
        self.items = tuple(items)
        self.whole: dict[int, tuple] = {}
        self.low: dict[int, tuple] = {}
        self.high: dict[int, tuple] = {}

    def __call__(self, mask: int) -> tuple:
        d = self.whole.get(mask)
        if d is None:
            if len(self.whole) > 4096:
                self.whole.clear()
            d = self.whole[mask] = self._part(self.low, mask & ((1 << self.SPLIT) - 1), 0) + self._part(
                self.high, mask >> self.SPLIT, self.SPLIT)
        return d

    def _part(self, cache: dict, bits: int, offset: int) -> tuple:
        d = cache.get(bits)
        if d is None:
            if len(cache) > 4096:
                cache.clear()
            items = self.items
            out = []
            m = bits
            while m:
                low = m & -m
                out.append(items[offset + low.bit_length() - 1])
                m ^= low
            d = cache[bits] = tuple(out)
        return d


#: the squares of a bitmask, ascending
squares = MaskTable(range(SQUARES))
#: the Reveal actions of the squares of a bitmask, ascending
reveals = MaskTable(REVEAL)


def move(frm: int, to: int, bump: int | None) -> Move:
    if bump is None:
        return MOVE_ROW[frm][to]
    key = (frm, to, bump)
    a = _MOVES.get(key)
    if a is None:
        a = _MOVES[key] = Move(frm, to, bump)
    return a


def sact(cls: type, text: str) -> Any:
    """The cached ``cls(text)`` (Discard, Survey, Replace, BidUp)."""
    key = (cls, text)
    a = _STR_ACTIONS.get(key)
    if a is None:
        a = _STR_ACTIONS[key] = cls(text)
    return a


def steal(item: str, victim: int) -> Steal:
    """The cached ``Steal(item, victim)``."""
    key = (item, victim)
    a = _STEALS.get(key)
    if a is None:
        a = _STEALS[key] = Steal(item, victim)
    return a


def sab_move(frm: int, bump: int) -> SabotageMove:
    key = (frm, bump)
    a = _SAB_MOVES.get(key)
    if a is None:
        a = _SAB_MOVES[key] = SabotageMove(frm, bump)
    return a


def sab(victim: int, square: int) -> Sabotage:
    a = _SABOTAGE.get((victim, square))
    if a is None:
        a = _SABOTAGE[(victim, square)] = Sabotage(victim, square)
    return a

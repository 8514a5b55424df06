"""Grid lines for the Satellite Survey: which squares may be picked next, and when a pick may stop.

A survey looks at three tiles in one row or column (not necessarily in sequence). Eligible squares hold a
face-down tile without the alien or an opponent's rocket (the caller passes them as a bitmask). Ruling
``survey_short_lines``: when the chosen line has fewer than three eligible tiles the survey may look at all
of them (1 or 2); otherwise exactly three are needed.

This module owns the line geometry only (pure functions over bitmasks); it must not touch game states.
"""

from __future__ import annotations

from collections.abc import Sequence

from deltav.games.mining.scenarios import GRID, SQUARES

ROW_MASKS = tuple(sum(1 << (r * GRID + c) for c in range(GRID)) for r in range(GRID))
COL_MASKS = tuple(sum(1 << (r * GRID + c) for r in range(GRID)) for c in range(GRID))
LINE_MASKS = ROW_MASKS + COL_MASKS
SQUARE_LINES = tuple((ROW_MASKS[s // GRID], COL_MASKS[s % GRID]) for s in range(SQUARES))
SURVEY_SIZE = 3


def _lines_through(picks: Sequence[int]) -> list[int]:
    if not picks:
        return list(LINE_MASKS)
    mask = 0
    for s in picks:
        mask |= 1 << s
    return [line for line in SQUARE_LINES[picks[0]] if line & mask == mask]


def _need(line: int, eligible: int, short_lines: bool) -> int:
    n = (line & eligible).bit_count()
    return min(SURVEY_SIZE, n) if short_lines else SURVEY_SIZE


def candidates(picks: Sequence[int], eligible: int, short_lines: bool) -> list[int]:
    """Squares that may be picked next (ascending)."""
    if len(picks) >= SURVEY_SIZE:
        return []
    taken = 0
    for s in picks:
        taken |= 1 << s
    out = 0
    for line in _lines_through(picks):
        if short_lines or (line & eligible).bit_count() >= SURVEY_SIZE:
            out |= line & eligible & ~taken
    return [s for s in range(SQUARES) if out >> s & 1]


def can_stop(picks: Sequence[int], eligible: int, short_lines: bool) -> bool:
    """May the survey end with these picks? (a whole survey of some line through them)"""
    if not picks:
        return False
    return any(len(picks) == _need(line, eligible, short_lines) for line in _lines_through(picks))


def available(eligible: int, short_lines: bool) -> bool:
    """Is any survey possible at all?"""
    if short_lines:
        return eligible != 0
    return any((line & eligible).bit_count() >= SURVEY_SIZE for line in LINE_MASKS)

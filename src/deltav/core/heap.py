"""The process's heap before a long run (a server, a bot worker, a pool of matches): what start-up made (modules,
game data, tables, the agents' static caches) is moved out of the cyclic garbage collector's reach.

Nearly everything a game or a bot allocates afterwards is freed by reference counting; what the collector then
still walks in every full collection is the start-up heap, which never becomes garbage. ``gc.freeze()`` after
one collection takes it out of every later one (measured on the tactical hard bot, Interplanetary War: about 13%
more games per second, ``docs/bots-tactical.md``). Call it once, at the end of start-up, in a process of its
own (never inside a test run: objects frozen are never collected, even when they become garbage later).

Then the young generation is collected every :data:`YOUNG_THRESHOLD` allocations of tracked objects instead of
CPython's 700: a bot's search allocates tuples by the thousand (memo keys and values, beam entries, courses),
nearly all freed by reference counting or untracked by the first collection that meets them, and at 700 the
collector ran about 110 times per Fleet Action game (and a full collection about once a game), a ninth of the
process's CPU (issue 30, docs/bots-tactical.md "Cost, second pass"). Garbage cycles wait a little longer (at most
that many allocations) before they are freed.

This module owns these two settings; it knows no game.
"""

from __future__ import annotations

import gc

#: allocations of tracked objects between two collections of the young generation after start-up (CPython: 700)
YOUNG_THRESHOLD = 5000


def freeze_startup() -> None:
    """Collect once, then keep every object alive now out of later collections, and collect the young
    generation every :data:`YOUNG_THRESHOLD` allocations (the older generations' thresholds are kept)."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)

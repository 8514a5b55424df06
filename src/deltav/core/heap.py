"""The process's heap before a long run (a server, a bot worker, a pool of matches): what start-up made (modules,
game data, tables, the agents' static caches) is moved out of the cyclic garbage collector's reach.

Nearly everything a game or a bot allocates afterwards is freed by reference counting; what the collector then
still walks in every full collection is the start-up heap, which never becomes garbage. ``gc.freeze()`` after
one collection takes it out of every later one (measured on the tactical hard bot, Interplanetary War: about 13%
more games per second, ``docs/bots-tactical.md``). Call it once, at the end of start-up, in a process of its
own (never inside a test run: objects frozen are never collected, even when they become garbage later).

This module owns that one setting; it knows no game.
"""

from __future__ import annotations

import gc


def freeze_startup() -> None:
    """Collect once, then keep every object alive now out of later collections."""
    gc.collect()
    gc.freeze()

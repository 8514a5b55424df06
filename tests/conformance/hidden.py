"""The two hidden-information rules the conformance suite holds every game to, as plain functions (so the
bite tests in ``tests/core/test_conformance_bites.py`` can run them against deliberately leaky toy games).

- :func:`spectator_leaks`: ``view(None)`` may hold no token of ``secret_tokens(None)``, and for every player p no
  token of ``secret_tokens(p)``: nothing any single player may not see may be shown to a spectator.
- :func:`private_step_leaks`: the private-step rule, documented in ``test_private_steps.py``.
"""

from __future__ import annotations

import json

from deltav.core.protocol import State, json_tokens


def spectator_leaks(state: State) -> set[str]:
    """The secret tokens ``view(None)`` shows (empty when the spectator view is clean)."""
    forbidden = set(state.secret_tokens(None))
    for p in range(state.num_players):
        forbidden |= state.secret_tokens(p)
    if not forbidden:
        return set()
    return forbidden & json_tokens(json.loads(json.dumps(state.view(None))))


def first_change(a, b, path="$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}: {a.get(k, '<absent>')!r:.80} -> {b.get(k, '<absent>')!r:.80}"
            if a[k] != b[k]:
                return first_change(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_change(x, y, f"{path}[{i}]")
    return f"{path}: {a!r:.80} -> {b!r:.80}"


def private_step_leaks(state: State, player: int, action) -> tuple[list, list[str]]:
    """Apply ``action`` for ``player`` to ``state`` and return (events, problems): one line per observer q
    whose view changed although the step was private for q (see ``test_private_steps.py``)."""
    deciders = sorted(state.current_players())
    simultaneous = len(deciders) > 1
    observers = [q for q in range(state.num_players) if q != player] + [None]
    before = {q: state.view(q) for q in observers}
    events = state.apply_action(player, action)
    if sorted(state.current_players()) != deciders:
        return events, []  # the turn passed or a plot was submitted: the others may see that
    problems = []
    for q in observers:
        if any(e.visible_to(q) for e in events):
            continue  # q was told something: its view may change
        if not events and not simultaneous:
            continue  # a silent public step (an order built in the open)
        after = state.view(q)
        if after != before[q]:
            problems.append(
                f"{action.to_json()} by player {player} (events {[e.TYPE for e in events]}, none visible to {q}) "
                f"changed view({q}): {first_change(before[q], after)}"
            )
    return events, problems

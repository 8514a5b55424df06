"""The secret check for anything sent to a viewer: no string that the authoritative state calls secret from
that viewer (``state.secret_tokens(viewer)``) may appear in it.

The current part of a message (view, legal actions, who decides...) is checked against the state at the step
it was sent at. A log entry is history: the event was what the viewer was told when it happened, so it is
checked against the tokens secret both just before and just after its step (a token secret on both sides
would be a leak; a ship the viewer saw and then lost, named by the public event that says it was lost, is
not).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from deltav.core.protocol import get_game, json_tokens
from deltav.core.records import MatchRecord, replay


def secret_history(record: dict | MatchRecord, viewers: Iterable[int | None]) -> list[dict]:
    """``out[k][viewer]``: the secret tokens of ``viewer`` after ``k`` steps of the (finished) record."""
    rec = record if isinstance(record, MatchRecord) else MatchRecord.from_json(record)
    game = get_game(rec.game)
    viewers = list(viewers)
    s0 = game.new_initial_state(game.resolve_options(rec.options), rec.seed)
    out = [{v: s0.secret_tokens(v) for v in viewers}]
    replay(rec, on_step=lambda i, _st, state: out.append({v: state.secret_tokens(v) for v in viewers}))
    return out


def leaks(msg: dict, step: int, viewer: int | None, history: list[dict]) -> list[str]:
    """The secret tokens found in one message (an envelope, or a server message holding one)."""
    msg = copy.deepcopy(msg)
    entries = []
    for holder in (msg, msg.get("snapshot") if isinstance(msg.get("snapshot"), dict) else None):
        if holder is None:
            continue
        for key in ("log", "events"):
            if isinstance(holder.get(key), list):
                entries.extend(holder.pop(key))
    last = len(history) - 1
    found = [f"step {step}: {sorted(b)[:4]}" for b in [json_tokens(msg) & history[min(step, last)][viewer]] if b]
    for e in entries:
        i = min(e["step"], last)
        both = history[i][viewer] & history[min(i + 1, last)][viewer]
        bad = json_tokens(e) & both
        if bad:
            found.append(f"log entry of step {e['step']} (sent at step {step}): {sorted(bad)[:4]}")
    return found

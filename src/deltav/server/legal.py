"""The legal entries of a seat's snapshot, built once per (seat, step), their action JSON and text built once per
action value for the whole process.

A snapshot lists every legal action of the deciding seat as ``{"action": JSON, "text": sentence, "note"?: ...}``.
:class:`~deltav.core.session.Session` already builds that list once per seat and step (every socket of the seat,
reconnects and duplicates read the same list). What it still redoes at every step is the action's JSON and its
sentence (``Game.describe_value``), although consecutive steps offer mostly the same actions (the same moves, the
same bids) and both are pure functions of the action value (a frozen, hashable dataclass). :class:`RoomSession`
keeps them in a per-game table keyed by the action, so each distinct action is described once per process;
the notes (``Game.annotate_legal``) depend on the position and are still computed once per seat and step.

The JSON objects of the table are shared between snapshots: read only (they are encoded, never changed).
This module owns that table only; the session owns the rules, the room owns the sockets.
"""

from __future__ import annotations

from typing import Any

from deltav.core.protocol import Action, Game
from deltav.core.session import Session

#: distinct actions remembered per game before the table starts again (a bound on memory, far above what one
#: game offers: a mining match has a few hundred distinct actions)
TABLE_LIMIT = 50_000

_tables: dict[type[Game], dict[Action, tuple[dict, str]]] = {}


def described(game: type[Game], action: Action) -> tuple[dict, str]:
    """``(action.to_json(), game.describe_value(action))``, each made once per distinct action and game."""
    table = _tables.setdefault(game, {})
    try:
        got = table.get(action)
    except TypeError:  # an unhashable field (never in the shipped games): described each time
        return action.to_json(), game.describe_value(action)
    if got is None:
        if len(table) >= TABLE_LIMIT:
            table.clear()
        got = table[action] = (action.to_json(), game.describe_value(action))
    return got


def table_size(game: type[Game]) -> int:
    return len(_tables.get(game, ()))


class RoomSession(Session):
    """The server's session: :class:`Session` with the legal entries' JSON and text taken from the table above.
    Entries are equal to the plain session's (tested)."""

    def _legal_entries(self, seat: int) -> list[dict]:
        got = self._legal_json.get(seat)
        if got is None:
            actions = self.legal_actions(seat)
            got = []
            for a in actions:
                action_json, text = described(self.game, a)
                got.append({"action": action_json, "text": text})
            notes: Any = self.game.annotate_legal(self.state, seat, actions, view=self.view(seat))
            if notes is not None:
                for entry, note in zip(got, notes, strict=True):
                    if note is not None:
                        entry["note"] = note
            self._legal_json[seat] = got
        return got

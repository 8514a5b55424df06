"""The events a mining game emits (typed values with JSON forms).

Public events have no audience; ``TileSeen`` (what a player saw in a secret look) is private: ``to=(p,)``.
Public events never carry the id of a face-down tile. This module owns the value classes only.
"""

from __future__ import annotations

from deltav.core.values import Codec, Event, value


@value("turn-started")
class TurnStarted(Event):
    player: int
    turn: int


@value("passed")
class Passed(Event):
    """A player declined a decision (``what`` names it: "pirate-window", "bid-up", "attempt", ...)."""

    player: int
    what: str


@value("rocket-moved")
class RocketMoved(Event):
    """A rocket moved from ``frm`` to ``dest`` (the field ``to`` is reserved for an event's audience)."""

    player: int
    frm: int
    dest: int


@value("rockets-bumped")
class RocketsBumped(Event):
    """The mover's rocket and ``victims``' rockets on ``square`` went back to their shipyards."""

    player: int
    square: int
    victims: tuple[int, ...]


@value("rocket-bought")
class RocketBought(Event):
    player: int


@value("looked")
class Looked(Event):
    """Public: ``player`` secretly looked at these squares (``how``: prospect, survey, scan)."""

    player: int
    squares: tuple[int, ...]
    how: str


@value("tile-seen")
class TileSeen(Event):
    """Private: what ``player`` saw on ``square``."""

    player: int
    square: int
    tile: str
    kind: str
    value: int
    to: tuple[int, ...] | None = None


@value("bribe-spent")
class BribeSpent(Event):
    player: int
    bribe: str
    purpose: str


@value("tile-revealed")
class TileRevealed(Event):
    player: int
    square: int
    tile: str
    kind: str
    value: int


@value("rockets-to-station")
class RocketsToStation(Event):
    """Rockets on ``square`` went back to the station (``counts`` per player)."""

    square: int
    counts: tuple[int, ...]


@value("incident-taken")
class IncidentTaken(Event):
    player: int
    tile: str
    kind: str


@value("incident-discarded")
class IncidentDiscarded(Event):
    player: int
    tile: str
    kind: str
    target: int | None = None


@value("alien-encounter")
class AlienEncounter(Event):
    player: int
    square: int
    number: int


@value("alien-moved")
class AlienMoved(Event):
    player: int
    square: int


@value("stolen")
class Stolen(Event):
    thief: int
    victim: int
    item: str


@value("rocket-removed")
class RocketRemoved(Event):
    """Sabotage: ``victim``'s rocket on ``square`` went back to its shipyard."""

    player: int
    victim: int
    square: int


@value("rocket-placed")
class RocketPlaced(Event):
    """A rocket came onto ``square`` without a move action (Rocket Acquisition, Sabotage follow-up)."""

    player: int
    frm: int | None
    square: int


@value("contract-declared")
class ContractDeclared(Event):
    player: int
    contract: str


@value("mineral-replaced")
class MineralReplaced(Event):
    player: int
    square: int
    bribe: str
    mineral: str


@value("bid-up")
class BidUpMade(Event):
    player: int
    bribe: str
    mineral: str


@value("attempt-failed")
class AttemptFailed(Event):
    player: int
    contract: str
    reason: str
    flipped_back: tuple[int, ...]


@value("contract-fulfilled")
class ContractFulfilled(Event):
    player: int
    contract: str
    tiles: tuple[str, ...]
    points: int


@value("game-ended")
class GameEnded(Event):
    reason: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]


EVENTS = Codec([TurnStarted, Passed, RocketMoved, RocketsBumped, RocketBought, Looked, TileSeen,
                BribeSpent, TileRevealed, RocketsToStation, IncidentTaken, IncidentDiscarded, AlienEncounter,
                AlienMoved, Stolen, RocketRemoved, RocketPlaced, ContractDeclared, MineralReplaced, BidUpMade,
                AttemptFailed, ContractFulfilled, GameEnded])

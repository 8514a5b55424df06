"""The messages of a mining game: the actions a player sends and the events the game emits (typed values with
JSON forms).

Squares are numbered 0..48 row by row on the 7x7 grid (square = 7 * row + column); the station is 24.
Tiles are named by their ids ("t07"), bribe counters by "b<owner>-<mineral>" ("b1-gammatite"), contracts by
their ids ("C05"). Which action is legal when is decided by the state machine (``state.py``).

Public events have no audience; ``TileSeen`` (what a player saw in a secret look) is private: ``to=(p,)``.
Public events never carry the id of a face-down tile. This module owns the value classes only.
"""

from __future__ import annotations

from deltav.core.values import Action, Codec, Event, value

# --- actions --------------------------------------------------------------------------------------------


@value("move")
class Move(Action):
    """Move one not-yet-moved rocket of yours from ``frm`` to ``to``. ``bump`` names the opponent whose rocket
    is bumped when ``to`` holds opponents' rockets (None when it holds none)."""

    frm: int
    to: int
    bump: int | None = None


@value("end-moves")
class EndMoves(Action):
    """Stop moving rockets (ends the Move Rockets action)."""


@value("prospect")
class Prospect(Action):
    """The Prospect action: look secretly at every face-down tile under your rockets."""


@value("survey")
class Survey(Action):
    """The Satellite Survey action, paying with this unspent bribe counter; then pick squares with Look."""

    bribe: str


@value("look")
class Look(Action):
    """Pick one square to look at (during a Satellite Survey or a Mineral Scan)."""

    square: int


@value("end-looks")
class EndLooks(Action):
    """Stop picking squares (a survey line with fewer than three eligible tiles, or fewer scan looks)."""


@value("buy-rocket")
class BuyRocket(Action):
    """The Buy a Rocket action: one rocket from your shipyard onto the station."""


@value("discard")
class Discard(Action):
    """Discard a held incident tile for its benefit (Mineral Scan, Sabotage, Rocket Acquisition on your turn;
    Pirate Attack or Meteor Storm in an opponent's reaction window)."""

    incident: str


@value("sabotage")
class Sabotage(Action):
    """Sabotage: remove one of ``victim``'s rockets from ``square`` to its shipyard."""

    victim: int
    square: int


@value("sabotage-move")
class SabotageMove(Action):
    """After a Sabotage: move one of your rockets from ``frm`` to the square the removed rocket left. It is a
    move like any other: ``bump`` names the opponent whose rocket is bumped when that square still holds
    opponents' rockets (None when it holds none, or under the ``bump = "all"`` ruling)."""

    frm: int
    bump: int | None = None


@value("reveal-incident")
class RevealIncident(Action):
    """After a Prospect or Mineral Scan: reveal this incident tile you just saw under one of your rockets."""

    square: int


@value("move-alien")
class MoveAlien(Action):
    """After an Alien Encounter: move the alien onto this asteroid square."""

    square: int


@value("steal")
class Steal(Action):
    """After an Alien Encounter: steal this held incident tile ("t07") or unspent bribe counter ("b1-betamite")
    from ``victim``, the opponent holding it (the engine lists it so the words can name whom; a record from before
    it may leave it out: None)."""

    item: str
    victim: int | None = None

    def to_json(self) -> dict:
        # no "victim" key while None: a steal of a record made before it was listed keeps its JSON form
        if self.victim is None:
            return {"type": "steal", "item": self.item}
        return {"type": "steal", "item": self.item, "victim": self.victim}


@value("declare")
class Declare(Action):
    """Declare an attempt at this unfulfilled contract."""

    contract: str


@value("reveal")
class Reveal(Action):
    """Reveal the tile on this square (in a contract attempt, or to answer a bid-up)."""

    square: int


@value("replace")
class Replace(Action):
    """Mineral Replacement: spend this bribe counter so the revealed mismatching mineral counts as its mineral."""

    bribe: str


@value("bid-up")
class BidUp(Action):
    """Bid up the contract just fulfilled by an opponent with this bribe counter."""

    bribe: str


@value("pass")
class Pass(Action):
    """Decline: let a reaction or bid-up window pass, reveal no incident, leave the alien, steal nothing, make
    no follow-up move, accept a mismatch, make no contract attempt, or end a turn whose action was pirated."""


ACTIONS = Codec([Move, EndMoves, Prospect, Survey, Look, EndLooks, BuyRocket, Discard, Sabotage, SabotageMove,
                 RevealIncident, MoveAlien, Steal, Declare, Reveal, Replace, BidUp, Pass])


# --- events ---------------------------------------------------------------------------------------------
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

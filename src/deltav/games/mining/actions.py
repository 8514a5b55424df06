"""The actions a mining player sends (typed values with JSON forms).

Squares are numbered 0..48 row by row on the 7x7 grid (square = 7 * row + column); the station is 24.
Tiles are named by their ids ("t07"), bribe counters by "b<owner>-<mineral>" ("b1-gammatite"), contracts by
their ids ("C05"). Which action is legal when is decided by the state machine (``state.py``); this module
owns the value classes only.
"""

from __future__ import annotations

from deltav.core.values import Action, Codec, value


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
    """After an Alien Encounter: steal this held incident tile ("t07") or unspent bribe counter ("b1-betamite")."""

    item: str


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

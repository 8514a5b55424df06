"""Why an action is refused (the refusals): the specific rule id and sentence for an action that is not among the legal ones
(``IllegalAction(rule_id, sentence)``). Called by the phase table (``state.PHASE_TABLE``) only after the legal
list rejected the action, which is of a kind its phase takes (the table checked that).

This module owns the rule ids and their wording; it never changes the state.
"""

from __future__ import annotations

from typing import Any

from deltav.core.errors import IllegalAction
from deltav.core.jsonin import shown
from deltav.games.mining.choices import sabotage_targets
from deltav.games.mining.messages import (
    BidUp,
    BuyRocket,
    Declare,
    Discard,
    EndLooks,
    EndMoves,
    Look,
    Move,
    MoveAlien,
    Pass,
    Prospect,
    Replace,
    Reveal,
    RevealIncident,
    Sabotage,
    SabotageMove,
    Steal,
    Survey,
)
from deltav.games.mining.phases import (
    OWN_TURN_INCIDENTS,
    P_ACTION,
    P_ATTEMPT,
    PHASES,
    WINDOWS,
)
from deltav.games.mining.scenarios import ACQUISITION, KINDS, METEOR, OMNIDIUM, PIRATE, SABOTAGE, SQUARES, STATION

#: what an action phase takes (without a pirate attack): the order of its wrong-kind sentence
ACTION_KINDS = (Discard, Move, Prospect, Survey, BuyRocket)


def why(st, p: int, a: Any) -> IllegalAction:
    """The specific rule an action that is not in the legal list breaks (the state is unchanged)."""
    ph = st.phase
    name = PHASES[ph]
    cfg = st.cfg
    t = type(a)
    if ph == P_ACTION:  # the table took the phase's kinds; what the pirate window leaves of them is checked here
        if st.pirated and t is not Discard and t is not Pass:
            return IllegalAction("mining.pirate.no_action", "a Pirate Attack stopped your action this turn")
        if not st.pirated and t is Pass:
            return IllegalAction("mining.action.wrong_kind",
                                 f"now you may only send: {', '.join(c.TYPE for c in ACTION_KINDS)}")
    if t is Discard:
        held = [tt for tt, _ in st.hands[p] if cfg.ids[tt] == a.incident]
        if not held:
            return IllegalAction("mining.incident.not_held", f"you do not hold the incident tile {a.incident!r}")
        acq = [aq for tt, aq in st.hands[p] if cfg.ids[tt] == a.incident][0]
        if not st.usable(acq):
            return IllegalAction("mining.incident.same_turn", "an incident may not be used on the turn it was taken")
        k = cfg.kinds[held[0]]
        if k in OWN_TURN_INCIDENTS and ph in WINDOWS:
            return IllegalAction("mining.incident.own_turn", f"a {KINDS[k]} tile is discarded during your own "
                                 "turn")
        if k in (PIRATE, METEOR) and ph not in WINDOWS:
            return IllegalAction("mining.incident.opponents_turn", f"a {KINDS[k]} tile is discarded during an "
                                 "opponent's turn")
        if k == SABOTAGE and not sabotage_targets(st, p):
            return IllegalAction("mining.sabotage.no_target", "no opponent rocket may be sabotaged")
        if k == ACQUISITION and not st.shipyards[p]:
            return IllegalAction("mining.acquisition.shipyard_empty", "your shipyard has no rocket left")
        return IllegalAction("mining.incident.timing", f"a {KINDS[k]} tile may not be used now")
    if t in (Survey, Replace, BidUp):
        b = cfg.counter_index.get(a.bribe)
        if b is None or st.holders[b] != p:
            return IllegalAction("mining.bribe.not_held", f"you do not hold the bribe counter {a.bribe!r}")
        if st.spent >> b & 1:
            return IllegalAction("mining.bribe.spent", f"the bribe counter {a.bribe!r} is already spent")
        if t is Survey:
            return IllegalAction("mining.survey.no_line", "no row or column has tiles you may survey")
        if t is BidUp:
            if b % 5 == OMNIDIUM and not cfg.omni_bid:
                return IllegalAction("mining.bid_up.omnidium", "an Omnidium bribe counter may not bid up: a "
                                     "bid-up bribe must match a mineral on the contract (option omnidium_bid_up)")
            return IllegalAction("mining.bid_up.mineral", "a bid-up bribe must show a mineral of the contract")
        return IllegalAction("mining.replace.mineral", "that bribe's mineral would not match the contract")
    if t is Move:
        frm, to = a.frm, a.to
        if not (0 <= frm < SQUARES and 0 <= to < SQUARES):
            return IllegalAction("mining.move.square", "no such square (squares are 0..48)")
        if not st.rockets[p * SQUARES + frm]:
            return IllegalAction("mining.move.no_rocket", f"you have no rocket on square {frm}")
        if frm == st.alien:
            return IllegalAction("mining.move.frozen", "rockets on the alien's tile may not move")
        if st.moved is not None and st.moved[frm] >= st.rockets[p * SQUARES + frm]:
            return IllegalAction("mining.move.already_moved", "each rocket moves once per action")
        if to != STATION and st.squares[to] < 0:
            return IllegalAction("mining.move.no_tile", f"square {to} holds no asteroid tile")
        if frm != STATION and to != STATION and not cfg.a2a:
            return IllegalAction("mining.move.via_station", "rockets move between the station and asteroids only")
        if frm == to:
            return IllegalAction("mining.move.same_square", "a move must change square")
        return IllegalAction("mining.move.bump", "name the opponent bumped (only when the tile holds one)")
    if t is Look:
        s = a.square
        if not 0 <= s < SQUARES or not st.face_down(s):
            return IllegalAction(f"mining.{name}.not_face_down", f"square {shown(s)} holds no face-down tile")
        if s == st.alien:
            return IllegalAction(f"mining.{name}.alien", "you may not look at the tile under the alien")
        if st.opponents_at(p, s):
            return IllegalAction(f"mining.{name}.opponent", "you may not look at a tile with an opponent's rocket")
        if s in st.picks:
            return IllegalAction(f"mining.{name}.repeat", f"square {s} was already picked")
        return IllegalAction("mining.survey.line", "a survey looks at up to three tiles in one row or column")
    if t is Reveal:
        s = a.square
        if not 0 <= s < SQUARES or not st.face_down(s):
            return IllegalAction("mining.reveal.not_face_down", f"square {shown(s)} holds no face-down tile")
        if s == st.alien:
            return IllegalAction("mining.reveal.alien", "you may not reveal the tile under the alien")
        return IllegalAction("mining.reveal.opponent", "you may not reveal a tile with an opponent's rocket")
    if t is Declare:
        i = cfg.contract_index.get(a.contract)
        if i is None:
            return IllegalAction("mining.declare.unknown", f"no contract {a.contract!r}")
        if st.contract_owners[i] >= 0:
            return IllegalAction("mining.declare.fulfilled", f"contract {a.contract} is already fulfilled")
        if st.stormed:
            return IllegalAction("mining.meteor.no_attempt", "a Meteor Storm stopped your contract attempt")
        return IllegalAction("mining.declare.no_tile", "no tile is left that you may reveal")
    if t is Pass:
        if ph == P_ATTEMPT:
            return IllegalAction("mining.attempt.mandatory", "you must try to fulfil a contract each turn "
                                 "while one can be declared (option mandatory_contract_attempt)")
        return IllegalAction(f"mining.{name}.no_pass", "you may not pass now")
    if t is EndMoves:
        return IllegalAction("mining.move.none", "move at least one rocket first")
    if t is EndLooks:
        return IllegalAction("mining.survey.incomplete", "a survey looks at three tiles in one row or column "
                             "(fewer only when its line has fewer eligible tiles)")
    if t is BuyRocket:
        return IllegalAction("mining.buy.shipyard_empty", "your shipyard has no rocket left")
    if t is Sabotage:
        q, s = a.victim, a.square
        if q == p:
            return IllegalAction("mining.sabotage.own", "Sabotage removes an opponent's rocket, not your own")
        if not 0 <= q < st.num_players:
            return IllegalAction("mining.sabotage.victim", f"no such player {shown(q)}")
        if not 0 <= s < SQUARES or not st.rockets[q * SQUARES + s]:
            return IllegalAction("mining.sabotage.no_rocket", f"player {q} has no rocket on square {shown(s)}")
        return IllegalAction("mining.sabotage.protected", "rockets on the station or frozen by the alien may "
                             "not be sabotaged (option sabotage_any_rocket)")
    if t is SabotageMove:
        frm = a.frm
        if not 0 <= frm < SQUARES:
            return IllegalAction("mining.move.square", "no such square (squares are 0..48)")
        if frm == st.alien:
            return IllegalAction("mining.move.frozen", "rockets on the alien's tile may not move")
        if not st.rockets[p * SQUARES + frm]:
            return IllegalAction("mining.sabotage.move", f"you have no rocket on square {frm}")
        if frm == st.sabotage_square:
            return IllegalAction("mining.move.same_square", "a move must change square")
        return IllegalAction("mining.move.bump", "name the opponent bumped (only when the tile holds one)")
    if t is MoveAlien:
        s = a.square
        if s == STATION:
            return IllegalAction("mining.alien.station", "the alien may not move onto the space station")
        if s == st.alien:
            return IllegalAction("mining.alien.same_square", "the alien is already there")
        return IllegalAction("mining.alien.square", "the alien moves onto an asteroid tile")
    if t is Steal:
        b = cfg.counter_index.get(a.item)
        if b is not None and st.holders[b] == p or any(cfg.ids[tt] == a.item for tt, _ in st.hands[p]):
            return IllegalAction("mining.alien.steal_own", "steal from an opponent, not from yourself")
        if b is not None and st.spent >> b & 1:
            return IllegalAction("mining.alien.steal_spent", "only an unspent bribe counter may be stolen")
        return IllegalAction("mining.alien.steal", "steal an opponent's incident tile or unspent bribe counter")
    if t is RevealIncident:
        return IllegalAction("mining.prospect.reveal", "reveal only an incident you just saw under your rocket")
    return IllegalAction(f"mining.{name}.illegal", "that action is not legal now")

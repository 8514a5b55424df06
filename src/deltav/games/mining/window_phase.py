"""The out-of-turn windows (design/mining.md 1.5): the Pirate Attack window before the action, the Meteor Storm
window before the attempt, and the bid-up window after a contract's requirements are filled. The opponents in
``state.queue`` are asked one at a time, clockwise; each may discard the incident (bid up) or pass.

This module owns those three decisions; who is queued is ``flow.window``.
"""

from __future__ import annotations

from deltav.games.mining import flow
from deltav.games.mining.action_cache import PASS, sact
from deltav.games.mining.choices import bid_counters
from deltav.games.mining.effects import discard_tile
from deltav.games.mining.messages import BidUp, BidUpMade, Discard, IncidentDiscarded, Pass, Passed
from deltav.games.mining.phases import P_ACTION, P_ATTEMPT, P_BID_REVEAL, P_BIDUP, P_PIRATE, PHASES
from deltav.games.mining.scenarios import KINDS, METEOR, MINERALS, PIRATE


def legal(st, p: int) -> list:
    cfg = st.cfg
    if st.phase == P_BIDUP:
        out = [sact(BidUp, cfg.counter_ids[b]) for b in bid_counters(st, p)]
    else:
        kind = PIRATE if st.phase == P_PIRATE else METEOR
        # tiles of one kind are one choice: the first held is offered (choices.same_choice accepts the others)
        first = next((t for t, acq in st.hands[p] if cfg.kinds[t] == kind and st.usable(acq)), None)
        out = [] if first is None else [sact(Discard, cfg.ids[first])]
    out.append(PASS)
    return out


def apply(st, p: int, a) -> list:
    ev: list = []
    t = type(a)
    if t is Pass:
        ev.append(Passed(p, PHASES[st.phase]))
        st.queue = st.queue[1:]
        if not st.queue:
            if st.phase == P_PIRATE:
                st.phase = P_ACTION
            elif st.phase == P_BIDUP:
                flow.collect(st, ev)
            else:
                st.phase = P_ATTEMPT
    elif t is Discard:  # a Pirate Attack (no action this turn) or a Meteor Storm (no attempt this turn)
        k = discard_tile(st, p, a.incident)
        ev.append(IncidentDiscarded(p, a.incident, KINDS[k], st.current))
        st.queue = ()
        if k == PIRATE:
            st.pirated = True
            st.phase = P_ACTION
        else:
            st.stormed = True
            st.phase = P_ATTEMPT
    elif t is BidUp:
        b = st.cfg.counter_index[a.bribe]
        st.bid = b
        st.bid_done = True
        st.queue = ()
        ev.append(BidUpMade(p, a.bribe, MINERALS[b % 5]))
        st.phase = P_BID_REVEAL
        if not st.eligible_mask(st.current):
            flow.fail_attempt(st, "no tile left for the bid-up", ev)
    else:  # pragma: no cover - only legal actions reach apply
        raise AssertionError(a)
    return ev

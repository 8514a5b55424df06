"""The contract attempt phase (design/mining.md 1.5): own incidents may be discarded, then a contract is declared
(mandatory while one can be, ruling ``mandatory_contract_attempt``) and tiles are revealed one at a time; a
mismatch may be replaced with a bribe counter; after a bid-up the fulfiller reveals (or replaces) one more tile
of the bid mineral. Matching is ``contracts.py``'s.

This module owns the ``attempt``, ``reveal``, ``replace``, ``bid-up-reveal`` and ``bid-up-replace`` decisions;
the bid-up window is ``window_phase``'s, collecting or failing ``flow``'s.
"""

from __future__ import annotations

from deltav.games.mining import contracts as cm
from deltav.games.mining import flow
from deltav.games.mining.action_cache import PASS, reveals
from deltav.games.mining.choices import can_declare, own_discards, replace_options
from deltav.games.mining.incident_phase import discard_own
from deltav.games.mining.messages import (
    BribeSpent,
    ContractDeclared,
    Declare,
    Discard,
    MineralReplaced,
    Pass,
    Passed,
    Replace,
    Reveal,
    TileRevealed,
)
from deltav.games.mining.phases import (
    BIT,
    P_ATTEMPT,
    P_BID_REPLACE,
    P_BID_REVEAL,
    P_REPLACE,
    P_REVEAL,
    PHASES,
    R_BID_FAIL,
    R_FAIL,
)
from deltav.games.mining.scenarios import KINDS, MINERALS, OMNIDIUM


def legal(st, p: int) -> list:
    ph = st.phase
    if ph == P_ATTEMPT:
        cfg = st.cfg
        out = own_discards(st, p)
        can = can_declare(st)
        if can:
            out.extend(cfg.declares[i] for i, o in enumerate(st.contract_owners) if o < 0)
        if not can or not cfg.mandatory:
            out.append(PASS)
        return out
    if ph in (P_REVEAL, P_BID_REVEAL):
        return list(reveals(st.eligible_mask(p)))
    out = replace_options(st, p, st.mismatch)
    out.append(PASS)
    return out


def apply(st, p: int, a) -> list:
    ev: list = []
    t = type(a)
    ph = st.phase
    if t is Reveal:
        if ph == P_REVEAL:
            _reveal(st, p, a.square, ev)
        else:
            _bid_reveal(st, p, a.square, ev)
    elif t is Replace:
        _replace(st, p, a, ev)
    elif t is Declare:
        st.attempt = st.cfg.contract_index[a.contract]
        st.matched = ()
        st.extra = ()
        st.att_mask = 0
        st.mismatch = -1
        st.bid = -1
        st.bid_done = False
        ev.append(ContractDeclared(p, a.contract))
        st.phase = P_REVEAL
    elif t is Discard:
        discard_own(st, p, a.incident, ev)
    elif t is Pass:
        ev.append(Passed(p, PHASES[ph]))
        if ph == P_ATTEMPT:
            flow.end_turn(st, ev)
        elif ph == P_REPLACE:
            flow.fail_attempt(st, "mismatch", ev)
        else:
            flow.fail_attempt(st, "bid-up mismatch", ev)
    else:  # pragma: no cover - only legal actions reach apply
        raise AssertionError(a)
    return ev


def _reveal(st, p: int, s: int, ev: list) -> None:
    cfg = st.cfg
    t = st.squares[s]
    k = cfg.kinds[t]
    if k > OMNIDIUM:
        st.ret = R_FAIL if cfg.incident_ends else P_REVEAL
        flow.resolve_incident(st, p, s, ev)
        return
    ev.append(TileRevealed(p, s, cfg.ids[t], KINDS[k], cfg.values[t]))
    st.att_mask |= BIT[s]
    c = cfg.contracts[st.attempt]
    got = [m for _, _, m in st.matched]
    if cm.fits(c.need, c.size, got, k):
        st.matched = st.matched + ((s, t, k),)
        if cm.complete(c.size, [m for _, _, m in st.matched]):
            flow.fulfilled(st, ev)
        elif not st.eligible_mask(p):
            flow.fail_attempt(st, "no tile left to reveal", ev)
        return
    if cfg.overmatch_ignored and k < OMNIDIUM and c.need[k] > 0:
        st.extra = st.extra + (s,)
        if not st.eligible_mask(p):
            flow.fail_attempt(st, "no tile left to reveal", ev)
        return
    st.mismatch = s
    st.phase = P_REPLACE
    if not replace_options(st, p, s):
        flow.fail_attempt(st, "mismatch", ev)


def _replace(st, p: int, a: Replace, ev: list) -> None:
    cfg = st.cfg
    b = cfg.counter_index[a.bribe]
    m = b % 5
    s = st.mismatch
    t = st.squares[s]
    st.spent |= 1 << b
    ev.append(BribeSpent(p, a.bribe, "replacement"))
    ev.append(MineralReplaced(p, s, a.bribe, MINERALS[m]))
    st.matched = st.matched + ((s, t, m),)
    st.mismatch = -1
    if st.phase == P_BID_REPLACE:
        flow.collect(st, ev)
        return
    c = cfg.contracts[st.attempt]
    if cm.complete(c.size, [x for _, _, x in st.matched]):
        flow.fulfilled(st, ev)
    else:
        st.phase = P_REVEAL
        if not st.eligible_mask(p):
            flow.fail_attempt(st, "no tile left to reveal", ev)


def _bid_reveal(st, p: int, s: int, ev: list) -> None:
    cfg = st.cfg
    t = st.squares[s]
    k = cfg.kinds[t]
    if k > OMNIDIUM:
        st.ret = R_BID_FAIL
        flow.resolve_incident(st, p, s, ev)
        return
    ev.append(TileRevealed(p, s, cfg.ids[t], KINDS[k], cfg.values[t]))
    st.att_mask |= BIT[s]
    if cm.bid_matches(st.bid % 5, k):
        st.matched = st.matched + ((s, t, k),)
        flow.collect(st, ev)
        return
    st.mismatch = s
    st.phase = P_BID_REPLACE
    if not replace_options(st, p, s):
        flow.fail_attempt(st, "bid-up mismatch", ev)

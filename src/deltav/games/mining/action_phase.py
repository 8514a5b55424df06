"""The action phase of a turn (design/mining.md 1.5): own incidents may be discarded, then one action: move
rockets (one at a time, then ``end-moves``; the ``moving`` phase), prospect, start a Satellite Survey with a
bribe counter, or buy a rocket. A pirated player may only discard, then pass.

This module owns the ``action`` and ``moving`` decisions; the survey's looks are ``survey_phase``'s.
"""

from __future__ import annotations

from deltav.games.mining import flow, survey
from deltav.games.mining.action_cache import BUY, END_MOVES, PASS, PROSPECT, sact
from deltav.games.mining.choices import move_actions, own_discards
from deltav.games.mining.effects import bump, see
from deltav.games.mining.incident_phase import discard_own
from deltav.games.mining.messages import (
    BribeSpent,
    BuyRocket,
    Discard,
    EndMoves,
    Looked,
    Move,
    Pass,
    Passed,
    Prospect,
    RocketBought,
    RocketMoved,
    Survey,
)
from deltav.games.mining.phases import P_ACTION, P_LOOKREV, P_MOVING, P_SURVEY, PHASES, R_AFTER_ACTION
from deltav.games.mining.scenarios import SQUARES, STATION


def legal(st, p: int) -> list:
    if st.phase == P_MOVING:
        out = move_actions(st, p)
        out.append(END_MOVES)
        return out
    out = own_discards(st, p)
    if st.pirated:
        out.append(PASS)
        return out
    out.extend(move_actions(st, p))
    out.append(PROSPECT)
    cfg = st.cfg
    if survey.available(st.eligible_mask(p), cfg.short_lines):
        out.extend(sact(Survey, cfg.counter_ids[b]) for b in st.unspent_counters(p))
    if st.shipyards[p]:
        out.append(BUY)
    return out


def apply(st, p: int, a) -> list:
    ev: list = []
    t = type(a)
    if t is Move:
        _move(st, p, a, ev)
    elif t is EndMoves:  # public, like every step: the others see the moves end
        ev.append(Passed(p, PHASES[st.phase]))
        st.moved = None
        flow.after_action(st, ev)
    elif t is Prospect:
        rk = st.rockets
        base = p * SQUARES
        squares = tuple(s for s in range(SQUARES) if s != STATION and rk[base + s] and st.face_down(s))
        ev.append(Looked(p, squares, "prospect"))
        for s in squares:
            see(st, p, s, ev)
        if squares:
            st.picks = squares
            st.ret = R_AFTER_ACTION
            st.phase = P_LOOKREV
        else:
            flow.after_action(st, ev)
    elif t is Survey:
        b = st.cfg.counter_index[a.bribe]
        st.spent |= 1 << b
        ev.append(BribeSpent(p, a.bribe, "survey"))
        st.picks = ()
        st.phase = P_SURVEY
    elif t is BuyRocket:
        st.shipyards[p] -= 1
        st._rk_add(p, STATION, 1)
        ev.append(RocketBought(p))
        flow.after_action(st, ev)
    elif t is Discard:
        discard_own(st, p, a.incident, ev)
    elif t is Pass:  # pirated: the action is skipped
        ev.append(Passed(p, PHASES[P_ACTION]))
        flow.after_action(st, ev)
    else:  # pragma: no cover - only legal actions reach apply
        raise AssertionError(a)
    return ev


def _move(st, p: int, a: Move, ev: list) -> None:
    if st.moved is None:
        st.moved = [0] * SQUARES
    st._rk_add(p, a.frm, -1)
    ev.append(RocketMoved(p, a.frm, a.to))
    to = a.to
    if not bump(st, p, to, a.bump, ev):
        st._rk_add(p, to, 1)
        st.moved[to] += 1
    st.phase = P_MOVING
    if not move_actions(st, p):
        st.moved = None
        flow.after_action(st, ev)

"""Looking at tiles (design/mining.md 1.5): the Satellite Survey's looks (up to three tiles of one row or column,
``survey.py``), a Mineral Scan's extra looks, and the choice after a prospect or a scan to reveal an incident
seen under one of your rockets.

This module owns those three decisions; starting a survey is ``action_phase``'s, starting a scan
``incident_phase``'s.
"""

from __future__ import annotations

from deltav.games.mining import flow, survey
from deltav.games.mining.action_cache import END_LOOKS, LOOK, PASS, REVEAL_INC
from deltav.games.mining.choices import reveal_incident_squares, scan_candidates
from deltav.games.mining.effects import see
from deltav.games.mining.messages import EndLooks, Look, Looked, Pass, Passed, RevealIncident
from deltav.games.mining.phases import P_SCAN, P_SURVEY, PHASES


def legal(st, p: int) -> list:
    ph = st.phase
    if ph == P_SURVEY:
        short = st.cfg.short_lines
        elig = st.eligible_mask(p)
        out = [LOOK[s] for s in survey.candidates(st.picks, elig, short)]
        if survey.can_stop(st.picks, elig, short):
            out.append(END_LOOKS)
        return out
    if ph == P_SCAN:
        out = [LOOK[s] for s in scan_candidates(st, p)]
        out.append(END_LOOKS)
        return out
    out = [REVEAL_INC[s] for s in reveal_incident_squares(st, p)]
    out.append(PASS)
    return out


def apply(st, p: int, a) -> list:
    ev: list = []
    t = type(a)
    ph = st.phase
    if t is Look:
        s = a.square
        ev.append(Looked(p, (s,), "survey" if ph == P_SURVEY else "scan"))
        see(st, p, s, ev)
        st.picks = st.picks + (s,)
        if ph == P_SURVEY:
            elig = st.eligible_mask(p)
            if not survey.candidates(st.picks, elig, st.cfg.short_lines):
                st.picks = ()
                flow.after_action(st, ev)
        else:
            st.scan_left -= 1
            if st.scan_left <= 0 or not scan_candidates(st, p):
                flow.finish_scan(st, p, ev)
    elif t is EndLooks:
        ev.append(Passed(p, PHASES[ph]))
        if ph == P_SURVEY:
            st.picks = ()
            flow.after_action(st, ev)
        else:
            flow.finish_scan(st, p, ev)
    elif t is RevealIncident:
        st.picks = ()
        flow.resolve_incident(st, p, a.square, ev)
    elif t is Pass:
        ev.append(Passed(p, PHASES[ph]))
        st.picks = ()
        flow.resume(st, ev)
    else:  # pragma: no cover - only legal actions reach apply
        raise AssertionError(a)
    return ev

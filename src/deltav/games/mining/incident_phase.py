"""The own-turn incidents and the decisions they open (design/mining.md 1.5): discarding a Mineral Scan,
Sabotage or Rocket Acquisition during the action or attempt phase; choosing the rocket to sabotage and the rocket
that takes its place; after an Alien Encounter, moving the alien and stealing from an opponent.

The looks of a Mineral Scan are ``survey_phase``'s; revealing an incident tile is ``flow.resolve_incident``.
"""

from __future__ import annotations

from deltav.games.mining import flow
from deltav.games.mining.action_cache import MOVE_ALIEN, PASS, SAB_MOVE, sab_move
from deltav.games.mining.choices import sab_move_sources, sabotage_targets, scan_candidates, steal_options
from deltav.games.mining.effects import bump, discard_tile, see
from deltav.games.mining.messages import (
    AlienMoved,
    IncidentDiscarded,
    Looked,
    MoveAlien,
    Pass,
    Passed,
    RocketPlaced,
    RocketRemoved,
    Sabotage,
    SabotageMove,
    Steal,
    Stolen,
)
from deltav.games.mining.phases import P_ALIEN_MOVE, P_SAB_MOVE, P_SAB_TARGET, P_SCAN, PHASES
from deltav.games.mining.scenarios import ACQUISITION, KINDS, SABOTAGE, SQUARES, STATION


def discard_own(st, p: int, incident: str, ev: list) -> None:
    """``p`` discards an own-turn incident in the action or attempt phase (which it returns to)."""
    k = discard_tile(st, p, incident)
    ev.append(IncidentDiscarded(p, incident, KINDS[k], None))
    if k == ACQUISITION:
        st.shipyards[p] -= 1
        st._rk_add(p, STATION, 1)
        ev.append(RocketPlaced(p, None, STATION))
        return
    st.ret = st.phase
    if k == SABOTAGE:
        st.phase = P_SAB_TARGET
        return
    # Mineral Scan: look under your rockets, then up to N more tiles
    rk = st.rockets
    base = p * SQUARES
    squares = tuple(s for s in range(SQUARES) if s != STATION and rk[base + s] and st.face_down(s))
    ev.append(Looked(p, squares, "scan"))
    for s in squares:
        see(st, p, s, ev)
    st.picks = squares
    st.scan_left = st.rockets_in_play(p)
    if st.scan_left > 0 and scan_candidates(st, p):
        st.phase = P_SCAN
    else:
        flow.finish_scan(st, p, ev)


def legal(st, p: int) -> list:
    ph = st.phase
    if ph == P_SAB_TARGET:
        return sabotage_targets(st, p)
    if ph == P_SAB_MOVE:
        to = st.sabotage_square
        victims = st.opponents_at(p, to) if to != STATION and not st.cfg.bump_all else []
        if victims:
            out = [sab_move(s, q) for s in sab_move_sources(st, p) for q in victims]
        else:
            out = [SAB_MOVE[s] for s in sab_move_sources(st, p)]
    elif ph == P_ALIEN_MOVE:
        out = [MOVE_ALIEN[s] for s in range(SQUARES) if st.squares[s] >= 0 and s != st.alien]
    else:
        out = steal_options(st, p)
    out.append(PASS)
    return out


def apply(st, p: int, a) -> list:
    ev: list = []
    t = type(a)
    if t is Pass:
        ev.append(Passed(p, PHASES[st.phase]))
        if st.phase == P_SAB_MOVE:
            st.sabotage_square = -1
            flow.resume(st, ev)
        elif st.phase == P_ALIEN_MOVE:
            flow.to_steal(st, p, ev)
        else:
            flow.resume(st, ev)
    elif t is Sabotage:
        q, s = a.victim, a.square
        st._rk_add(q, s, -1)
        st.shipyards[q] += 1
        ev.append(RocketRemoved(p, q, s))
        st.sabotage_square = s
        if sab_move_sources(st, p):
            st.phase = P_SAB_MOVE
        else:
            st.sabotage_square = -1
            flow.resume(st, ev)
    elif t is SabotageMove:
        s = st.sabotage_square
        st._rk_add(p, a.frm, -1)
        ev.append(RocketPlaced(p, a.frm, s))
        if not bump(st, p, s, a.bump, ev):
            st._rk_add(p, s, 1)
        st.sabotage_square = -1
        flow.resume(st, ev)
    elif t is MoveAlien:
        st.alien = a.square
        ev.append(AlienMoved(p, a.square))
        flow.to_steal(st, p, ev)
    elif t is Steal:
        steal(st, p, a.item, ev)
        flow.resume(st, ev)
    else:  # pragma: no cover - only legal actions reach apply
        raise AssertionError(a)
    return ev


def steal(st, p: int, item: str, ev: list) -> None:
    """``p`` takes an opponent's incident tile or unspent bribe counter (a stolen counter is unusable under
    ``stolen_bribe = "unusable"``)."""
    cfg = st.cfg
    if item in cfg.counter_index:
        b = cfg.counter_index[item]
        victim = st.holders[b]
        st.holders[b] = p if cfg.stolen_usable else -1
    else:
        t = cfg.id_index[item]
        victim = next(q for q in range(st.num_players) if any(tt == t for tt, _ in st.hands[q]))
        st.hands[victim] = [(tt, aq) for tt, aq in st.hands[victim] if tt != t]
        st.hands[p].append((t, st.turn))
    ev.append(Stolen(p, victim, item))

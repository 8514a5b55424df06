"""The candidate lists of the decisions: which rockets may move where, which squares may be revealed or looked
at, which rockets may be sabotaged, which items stolen, which bribe counters may replace or bid up. Several
phases share them (a Sabotage tile is playable in the action and the attempt phase, reveal squares decide when
an attempt fails), so they live below the phase modules.

Two held incident tiles of one kind are the same choice (a tile is only its kind once it is in a hand): a
candidate list offers one of them (the first in the hand), so no two legal actions read alike, and
``same_choice`` accepts the other's id too (a record made before lists lost their duplicates still replays).

Pure queries over the state: this module changes nothing.
"""

from __future__ import annotations

from deltav.games.mining import contracts as cm
from deltav.games.mining.action_cache import MOVE_ROW, dests, move, sab, sact, squares, steal
from deltav.games.mining.messages import Discard, Replace, Steal
from deltav.games.mining.phases import BIT, OWN_TURN_INCIDENTS, P_REPLACE, P_REVEAL
from deltav.games.mining.scenarios import ACQUISITION, OMNIDIUM, SABOTAGE, SQUARES, STATION


def own_discards(st, p: int) -> list:
    """The own-turn incidents (Mineral Scan, Sabotage, Rocket Acquisition) ``p`` may discard now."""
    out = []
    cfg = st.cfg
    seen = set()
    for t, acq in st.hands[p]:
        k = cfg.kinds[t]
        if k not in OWN_TURN_INCIDENTS or not st.usable(acq) or k in seen:
            continue
        seen.add(k)
        if k == SABOTAGE and not sabotage_targets(st, p):
            continue
        if k == ACQUISITION and not st.shipyards[p]:
            continue
        out.append(sact(Discard, cfg.ids[t]))
    return out


def move_actions(st, p: int) -> list:
    """The rocket moves ``p`` may make now (each rocket once per action; bumps name the opponent)."""
    out: list = []
    rk = st.rockets
    base = p * SQUARES
    moved = st.moved
    alien = st.alien
    squares, station_moves = dests(st.tiles)
    others = st.others_mask(p)
    occ = st.occ
    cfg = st.cfg
    bump_all = cfg.bump_all
    m = occ[p]
    while m:
        low = m & -m
        frm = low.bit_length() - 1
        m ^= low
        if frm == alien or (moved is not None and moved[frm] >= rk[base + frm]):
            continue
        row = MOVE_ROW[frm]
        if frm == STATION:
            if bump_all or not others & st.tiles:
                out.extend(station_moves)
                continue
            targets = squares
        else:
            out.append(row[STATION])
            if not cfg.a2a:
                continue
            targets = [s for s in squares if s != frm]
        if bump_all or not others & st.tiles:
            out.extend([row[to] for to in targets])
            continue
        for to in targets:
            if not others >> to & 1:
                out.append(row[to])
            else:
                for q, o in enumerate(occ):
                    if q != p and o >> to & 1:
                        out.append(move(frm, to, q))
    return out


def sabotage_targets(st, p: int) -> list:
    out = []
    rk = st.rockets
    any_rocket = st.cfg.sab_any
    for q in range(st.num_players):
        if q == p:
            continue
        base = q * SQUARES
        for s in range(SQUARES):
            if rk[base + s] and (any_rocket or (s != STATION and s != st.alien)):
                out.append(sab(q, s))
    return out


def sab_move_sources(st, p: int) -> list[int]:
    base = p * SQUARES
    return [s for s in range(SQUARES) if st.rockets[base + s] and s != st.sabotage_square and s != st.alien]


def reveal_squares(st, p: int) -> list[int]:
    return list(squares(st.eligible_mask(p)))


def scan_candidates(st, p: int) -> list[int]:
    m = st.eligible_mask(p)
    for s in st.picks:
        m &= ~BIT[s]
    return list(squares(m))


def reveal_incident_squares(st, p: int) -> list[int]:
    """Squares among the ones just looked at that hold an incident under one of p's rockets."""
    kinds = st.cfg.kinds
    out = []
    for s in st.picks:
        if st.face_down(s) and kinds[st.squares[s]] > OMNIDIUM and st.rockets[p * SQUARES + s]:
            out.append(s)
    return sorted(out)


def replace_options(st, p: int, square: int) -> list:
    cfg = st.cfg
    out = []
    if st.phase in (P_REVEAL, P_REPLACE) and st.bid < 0:
        c = cfg.contracts[st.attempt]
        got = [m for _, _, m in st.matched]
        for b in st.unspent_counters(p):
            if cm.fits(c.need, c.size, got, b % 5):
                out.append(sact(Replace, cfg.counter_ids[b]))
    else:
        want = st.bid % 5
        for b in st.unspent_counters(p):
            if b % 5 == want:
                out.append(sact(Replace, cfg.counter_ids[b]))
    return out


def steal_options(st, p: int) -> list:
    """What ``p`` may steal: each opponent's incident tiles (one per kind and usability) and unspent counters,
    each action naming the victim."""
    cfg = st.cfg
    out = []
    for q in range(st.num_players):
        if q == p:
            continue
        seen = set()
        for t, acq in st.hands[q]:
            key = (cfg.kinds[t], st.usable(acq))
            if key not in seen:
                seen.add(key)
                out.append(steal(cfg.ids[t], q))
        for b in st.unspent_counters(q):
            out.append(steal(cfg.counter_ids[b], q))
    return out


def same_choice(st, p: int, a, legal: list) -> bool:
    """Whether ``a``, not itself in ``legal``, is a listed choice in other words: a discard or steal of a held
    incident tile of the same kind (and usability) from the same hand as a listed one, or a steal that leaves out
    its victim (records from before steals named it)."""
    t = type(a)
    if t is not Discard and t is not Steal:
        return False
    cfg = st.cfg
    item = a.incident if t is Discard else a.item
    if t is Steal and item in cfg.counter_index:
        return a.victim is None and any(type(x) is Steal and x.item == item for x in legal)
    ti = cfg.id_index.get(item)
    if ti is None:
        return False
    holder = p if t is Discard else next((q for q in range(st.num_players) if any(tt == ti for tt, _ in st.hands[q])),
                                         None)
    acq = None if holder is None else next((aq for tt, aq in st.hands[holder] if tt == ti), None)
    if acq is None or t is Steal and a.victim not in (None, holder):
        return False
    key = (cfg.kinds[ti], st.usable(acq))
    for x in legal:
        if type(x) is t and (t is Discard or x.victim == holder):
            other = cfg.id_index[x.incident if t is Discard else x.item]
            oacq = next((aq for tt, aq in st.hands[holder] if tt == other), None)
            if oacq is not None and (cfg.kinds[other], st.usable(oacq)) == key:
                return True
    return False


def bid_counters(st, p: int) -> list[int]:
    c = st.cfg.contracts[st.attempt]
    minerals = set(c.minerals)
    if st.cfg.omni_bid:
        minerals.add(OMNIDIUM)
    return [b for b in st.unspent_counters(p) if b % 5 in minerals]


def can_declare(st) -> bool:
    if st.stormed:
        return False
    if all(o >= 0 for o in st.contract_owners):
        return False
    return st.eligible_mask(st.current) != 0

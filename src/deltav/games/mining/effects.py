"""Small board changes several phases share: a player looks at a tile, a rocket lands on opponents (bump),
the rockets on a square go back to the station, an incident tile leaves a hand for the discard pile.

Each function changes the state and appends its events; none decides what happens next (that is ``flow``).
"""

from __future__ import annotations

from deltav.games.mining.messages import RocketsBumped, RocketsToStation, TileSeen
from deltav.games.mining.phases import BIT
from deltav.games.mining.scenarios import KINDS, SQUARES, STATION


def see(st, p: int, s: int, ev: list) -> None:
    """``p`` looks secretly at the tile on ``s``."""
    t = st.squares[s]
    cfg = st.cfg
    st.looked[p] |= BIT[s]
    ev.append(TileSeen(p, s, cfg.ids[t], KINDS[cfg.kinds[t]], cfg.values[t], (p,)))


def bump(st, p: int, to: int, victim: int | None, ev: list) -> bool:
    """A rocket of ``p`` (already taken off its square) ends its move on ``to``: if opponents' rockets are
    there, it and one of them (``victim``; every one under ``bump = "all"``) go back to their shipyards and
    True is returned; otherwise nothing happens and the caller lands the rocket."""
    victims = st.opponents_at(p, to) if to != STATION else []
    if not victims:
        return False
    rk = st.rockets
    bump_all = st.cfg.bump_all
    if not bump_all:
        victims = [victim]
    removed = []
    for q in victims:
        k = rk[q * SQUARES + to] if bump_all else 1
        st._rk_add(q, to, -k)
        st.shipyards[q] += k
        removed.append(q)
    st.shipyards[p] += 1
    ev.append(RocketsBumped(p, to, tuple(removed)))
    return True


def to_station(st, s: int, ev: list) -> None:
    """Every rocket on ``s`` goes back to the station (one event, only when there are any)."""
    counts = tuple(st.rockets[q * SQUARES + s] for q in range(st.num_players))
    if any(counts):
        for q in range(st.num_players):
            if counts[q]:
                st._rk_add(q, STATION, counts[q])
                st._rk_add(q, s, -counts[q])
        ev.append(RocketsToStation(s, counts))


def discard_tile(st, p: int, incident: str) -> int:
    """The incident tile ``incident`` leaves ``p``'s hand for the discard pile; returns its kind."""
    cfg = st.cfg
    t = cfg.id_index[incident]
    hand = st.hands[p]
    for i, (tt, _) in enumerate(hand):
        if tt == t:
            del hand[i]
            break
    st.discarded.append(t)
    return cfg.kinds[t]

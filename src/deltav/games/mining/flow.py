"""How a turn moves on between decisions: the out-of-turn windows (who is asked), the step after the action,
the return from a sub-decision (``state.ret``), resolving a revealed incident, the end of a contract attempt
(fulfilled, collected or failed), the end of a turn and the end of the game.

The phase modules call these continuations; this module never reads an action.
"""

from __future__ import annotations

from deltav.games.mining import scoring
from deltav.games.mining.choices import bid_counters, steal_options
from deltav.games.mining.effects import to_station
from deltav.games.mining.messages import (
    AlienEncounter,
    AttemptFailed,
    BribeSpent,
    ContractFulfilled,
    GameEnded,
    IncidentTaken,
    TileRevealed,
    TurnStarted,
)
from deltav.games.mining.phases import (
    BIT,
    P_ACTION,
    P_ALIEN_MOVE,
    P_ALIEN_STEAL,
    P_ATTEMPT,
    P_BIDUP,
    P_LOOKREV,
    P_METEOR,
    P_OVER,
    P_PIRATE,
    P_REVEAL,
    R_AFTER_ACTION,
    R_BID_FAIL,
    R_FAIL,
)
from deltav.games.mining.scenarios import ALIEN, ALIENS_TO_END, KINDS, METEOR, PIRATE, SQUARES


def window(st, kind: int) -> tuple[int, ...]:
    """The opponents asked in a window, clockwise: holders of a usable ``kind`` incident (PIRATE, METEOR) or,
    for ``kind == -1``, of a bribe counter that may bid up (everyone, without ``skip_empty_windows``)."""
    cfg = st.cfg
    if cfg.skip_empty and kind != -1 and not any(st.hands):
        return ()
    out = []
    for q in st.clockwise_from(st.current):
        if not cfg.skip_empty:
            out.append(q)
            continue
        if kind == -1:
            if bid_counters(st, q):
                out.append(q)
        elif any(cfg.kinds[t] == kind and st.usable(acq) for t, acq in st.hands[q]):
            out.append(q)
    return tuple(out)


def after_action(st, ev: list) -> None:
    q = window(st, METEOR)
    if q:
        st.queue = q
        st.phase = P_METEOR
    else:
        st.phase = P_ATTEMPT


def resume(st, ev: list) -> None:
    """Return from a sub-decision to ``st.ret``."""
    r = st.ret
    st.ret = -1
    if r in (P_ACTION, P_ATTEMPT):
        st.phase = r
    elif r == R_AFTER_ACTION:
        after_action(st, ev)
    elif r == R_FAIL:
        fail_attempt(st, "incident", ev)
    elif r == R_BID_FAIL:
        fail_attempt(st, "incident in the bid-up", ev)
    elif r == P_REVEAL:
        st.phase = P_REVEAL
        if not st.eligible_mask(st.current):
            fail_attempt(st, "no tile left to reveal", ev)
    else:  # pragma: no cover
        raise AssertionError(f"bad return point {r}")


def finish_scan(st, p: int, ev: list) -> None:
    """The looks of a Mineral Scan are done: offer the incidents seen under p's rockets, or return."""
    st.scan_left = 0
    base = p * SQUARES
    under = tuple(s for s in st.picks if st.rockets[base + s])
    if under:
        st.picks = under
        st.phase = P_LOOKREV
    else:
        st.picks = ()
        resume(st, ev)


def resolve_incident(st, p: int, s: int, ev: list) -> None:
    """An incident tile on ``s`` is revealed by ``p``: rockets go to the station, then the incident."""
    cfg = st.cfg
    t = st.squares[s]
    k = cfg.kinds[t]
    ev.append(TileRevealed(p, s, cfg.ids[t], KINDS[k], 0))
    to_station(st, s, ev)
    st._forget_square(s)
    if k == ALIEN:
        st.faceup |= BIT[s]
        st.aliens += 1
        ev.append(AlienEncounter(p, s, st.aliens))
        if st.aliens >= ALIENS_TO_END:
            game_over(st, "the fifth Alien Encounter was revealed", ev)
            return
        st.phase = P_ALIEN_MOVE
        return
    st._remove_tile(s)
    st.hands[p].append((t, st.turn))
    ev.append(IncidentTaken(p, cfg.ids[t], KINDS[k]))
    resume(st, ev)


def to_steal(st, p: int, ev: list) -> None:
    if steal_options(st, p):
        st.phase = P_ALIEN_STEAL
    else:
        resume(st, ev)


def fulfilled(st, ev: list) -> None:
    """Every requirement of the contract is filled: the bid-up window, or the collection."""
    if st.cfg.bid_up and not st.bid_done:
        q = window(st, -1)
        if q:
            st.queue = q
            st.phase = P_BIDUP
            return
    collect(st, ev)


def collect(st, ev: list) -> None:
    """The contract is fulfilled (after any bid-up): the fulfiller takes the tiles and the contract."""
    cfg = st.cfg
    p = st.current
    if st.bid >= 0:
        st.spent |= 1 << st.bid
        ev.append(BribeSpent(st.holders[st.bid], cfg.counter_ids[st.bid], "bid-up"))
    c = cfg.contracts[st.attempt]
    st.contract_owners[st.attempt] = p
    points = 0
    for s, t, m in st.matched:
        to_station(st, s, ev)
        st.collected[p].append((t, m))
        points += cfg.values[t]
        st._remove_tile(s)
        st._forget_square(s)
    flipped = st.extra
    if cfg.revealed_known:
        for s in flipped:
            st.public |= BIT[s]
    ev.append(ContractFulfilled(p, c.id, tuple(cfg.ids[t] for _, t, _ in st.matched), points))
    clear_attempt(st)
    if all(o >= 0 for o in st.contract_owners):
        game_over(st, "the last contract was fulfilled", ev)
        return
    end_turn(st, ev)


def fail_attempt(st, reason: str, ev: list) -> None:
    cfg = st.cfg
    squares = [s for s, _, _ in st.matched] + list(st.extra)
    if st.mismatch >= 0:
        squares.append(st.mismatch)
    squares = sorted(squares)
    if cfg.revealed_known:
        for s in squares:
            st.public |= BIT[s]
    ev.append(AttemptFailed(st.current, cfg.contracts[st.attempt].id, reason, tuple(squares)))
    clear_attempt(st)
    end_turn(st, ev)


def clear_attempt(st) -> None:
    st.attempt = -1
    st.matched = ()
    st.extra = ()
    st.mismatch = -1
    st.att_mask = 0
    st.bid = -1
    st.bid_done = False
    st.queue = ()


def end_turn(st, ev: list) -> None:
    st.picks = ()
    st.queue = ()
    if st.free_tiles() == 0:
        game_over(st, "no tile is left without a rocket or the alien", ev)
        return
    if st.turn >= st.cfg.max_turns:
        game_over(st, f"the turn limit ({st.cfg.max_turns} turns) was reached", ev)
        return
    st.current = (st.current + 1) % st.num_players
    st.turn += 1
    start_turn(st, ev)


def start_turn(st, ev: list) -> None:
    st.pirated = False
    st.stormed = False
    ev.append(TurnStarted(st.current, st.turn))
    q = window(st, PIRATE)
    if q:
        st.queue = q
        st.phase = P_PIRATE
    else:
        st.phase = P_ACTION


def game_over(st, reason: str, ev: list) -> None:
    if st.attempt >= 0:  # the game ended inside an attempt: its tiles flip back, nothing is scored
        if st.cfg.revealed_known:
            st.public |= st.att_mask
        clear_attempt(st)
    st.phase = P_OVER
    st.reason = reason
    st.queue = ()
    st.picks = ()
    sc = st.scores()
    contracts = [sum(1 for o in st.contract_owners if o == p) for p in range(st.num_players)]
    unspent = [len(st.unspent_counters(p)) for p in range(st.num_players)]
    st.winners = scoring.winners(sc, contracts, unspent, st.cfg.full_tie)
    ev.append(GameEnded(reason, tuple(sc), st.winners))

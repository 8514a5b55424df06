"""Helpers for the mining tests: build states with chosen tiles on chosen squares, and play actions."""

from __future__ import annotations

from deltav.games.mining import MiningGame, flow
from deltav.games.mining.phases import BIT
from deltav.games.mining.scenarios import KIND_INDEX, SQUARES, STATION
from deltav.games.mining.state import MiningState

GAME = MiningGame


def new(players: int = 2, seed: int = 0, **options) -> MiningState:
    """A fresh game whose first player is player 0 (turn 1, action phase)."""
    st = GAME.new_initial_state({"players": players, **options}, seed)
    st.current = 0
    st.first = 0
    st._legal = None
    flow.start_turn(st, [])
    return st


def tile_of(st: MiningState, kind: str, value: int | None = None, exclude=()) -> int:
    cfg = st.cfg
    k = KIND_INDEX[kind]
    for t in range(len(cfg.kinds)):
        if cfg.kinds[t] == k and (value is None or cfg.values[t] == value) and t not in exclude:
            return t
    raise LookupError(f"no {kind} {value}")


def place(st: MiningState, layout: dict[int, tuple]) -> dict[int, int]:
    """Put a tile of each (kind[, value]) on its square by swapping tiles; returns square -> tile index."""
    used: set[int] = set()
    out = {}
    for s, spec in layout.items():
        off_board = set(range(len(st.cfg.kinds))) - set(st.squares)
        t = tile_of(st, *spec, exclude=used | off_board)
        used.add(t)
        other = st.squares.index(t)
        st.squares[other], st.squares[s] = st.squares[s], t
        out[s] = t
    st._legal = None
    return out


def put_rocket(st: MiningState, p: int, square: int, from_station: bool = False) -> None:
    """Add a rocket of p on ``square`` (taken from the shipyard, or from the station)."""
    if from_station:
        st._rk_add(p, STATION, -1)
    else:
        st.shipyards[p] -= 1
    st._rk_add(p, square, 1)
    st._legal = None


def give(st: MiningState, p: int, kind: str, acquired_turn: int = 0) -> str:
    """Take an incident tile of ``kind`` off the board into p's hand; returns its id."""
    t = tile_of(st, kind, exclude={x for h in st.hands for x, _ in h})
    s = st.squares.index(t)
    st._remove_tile(s)
    st._forget_square(s)
    st.hands[p].append((t, acquired_turn))
    st._legal = None
    return st.cfg.ids[t]


def play(st: MiningState, p: int, action) -> list:
    """Apply an action after checking it is listed as legal."""
    legal = st.legal_actions(p)
    assert action in legal, f"{action} not in legal actions {legal}"
    return st.apply_action(p, action)


def types(events) -> list[str]:
    return [e.TYPE for e in events]


def free_square(st: MiningState, exclude=()) -> int:
    """A face-down square without rockets, the alien or a listed exclusion."""
    for s in range(SQUARES):
        if s != STATION and st.squares[s] >= 0 and not st.faceup & BIT[s] and s not in exclude \
                and not st.any_rocket_at(s) and s != st.alien:
            return s
    raise LookupError

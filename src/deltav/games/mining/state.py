"""The mining state: the record of a game in progress, the dispatch of ``legal_actions`` / ``apply_action`` to the
phase modules; its fields (``clone()`` and the JSON form follow) are declared in ``state_schema.FIELDS``.

The state is a handful of flat lists and integers (bitmasks over the 49 squares) so ``clone()`` is cheap.
Knowledge: ``looked[p]`` is the bitmask of squares p looked at secretly (which squares is public, what p saw
is not); ``pub`` holds squares revealed in an attempt and flipped back (everybody saw them). Tiles never move
while face-down, so "p knows square s" is just a bit.

The rules live in the phase modules (one per kind of decision, each with ``legal(state, p)`` and
``apply(state, p, a)``): ``window_phase`` (pirate, meteor and bid-up windows), ``action_phase`` (the action and
its rocket moves), ``survey_phase`` (survey and scan looks, the reveal choice), ``incident_phase`` (own-turn
incidents, sabotage, the alien), ``attempt_phase`` (declaring, revealing, replacing). Below them: ``flow`` (how
the turn moves on), ``choices`` (candidate lists), ``effects`` (shared board changes), ``refusals`` (rule ids for
refused actions), ``phases`` (phase codes), ``action_cache``, ``config``; views and sampling are ``visibility``'s.
This module holds no rules bodies: only the record's small queries and primitives.
"""

from __future__ import annotations

import functools
from itertools import compress
from typing import Any

from deltav.core.errors import IllegalAction
from deltav.core.fields import declare
from deltav.core.phases import Phase, PhaseTable
from deltav.core.protocol import Result, State
from deltav.core.rng import Rng
from deltav.games.mining import (
    action_phase,
    attempt_phase,
    flow,
    incident_phase,
    refusals,
    scoring,
    survey_phase,
    window_phase,
)
from deltav.games.mining.choices import same_choice
from deltav.games.mining.config import Config
from deltav.games.mining.messages import (
    BidUp,
    Declare,
    Discard,
    EndLooks,
    EndMoves,
    Look,
    Move,
    MoveAlien,
    Pass,
    Replace,
    Reveal,
    RevealIncident,
    Sabotage,
    SabotageMove,
    Steal,
)
from deltav.games.mining.phases import (
    BIT,
    P_ACTION,
    P_ALIEN_MOVE,
    P_ALIEN_STEAL,
    P_ATTEMPT,
    P_BID_REPLACE,
    P_BID_REVEAL,
    P_BIDUP,
    P_LOOKREV,
    P_METEOR,
    P_MOVING,
    P_OVER,
    P_PIRATE,
    P_REPLACE,
    P_REVEAL,
    P_SAB_MOVE,
    P_SAB_TARGET,
    P_SCAN,
    P_SURVEY,
    PHASES,
)
from deltav.games.mining.scenarios import SQUARES, STATION
from deltav.games.mining.state_schema import FIELDS


def _current(st) -> list[int]:
    return [st.current]


def _window(st) -> list[int]:
    return [st.queue[0]]


def _wrong(ph: int, kinds: tuple):
    """The error of an action of a kind the phase does not take (``mining.<phase>.wrong_kind``)."""
    rule = f"mining.{PHASES[ph]}.wrong_kind"
    sentence = f"now you may only send: {', '.join(c.TYPE for c in kinds)}"

    def error(st, p: int, a: Any) -> IllegalAction:
        return IllegalAction(rule, sentence)
    return error


def _action_wrong(st, p: int, a: Any) -> IllegalAction:
    if st.pirated:
        return IllegalAction("mining.pirate.no_action", "a Pirate Attack stopped your action this turn")
    return _wrong(P_ACTION, refusals.ACTION_KINDS)(st, p, a)


def _phase(ph: int, module: Any, kinds: tuple, then: tuple, players=_current, wrong=None) -> Phase:
    return Phase(ph, players, module.legal, module.apply, kinds, wrong or _wrong(ph, kinds), then, name=PHASES[ph])


#: The phases of a mining turn (``deltav.core.phases``): who decides (the current player, or the next one in a
#: window's queue), the module owning each decision, the kinds of action it takes and where a decision may lead.
#: The table keeps each player's legal list (``_legal``) and checks an action against it (``refusals.why`` names
#: the rule an unlisted action breaks); an action taken from that list is applied at once.
PHASE_TABLE = PhaseTable("phase", (
    _phase(P_PIRATE, window_phase, (Discard, Pass), (P_PIRATE, P_ACTION), _window),
    _phase(P_ACTION, action_phase, (Discard, Pass) + refusals.ACTION_KINDS[1:],
           (P_ACTION, P_MOVING, P_SURVEY, P_SCAN, P_LOOKREV, P_SAB_TARGET, P_ALIEN_MOVE, P_METEOR, P_ATTEMPT),
           wrong=_action_wrong),
    _phase(P_MOVING, action_phase, (Move, EndMoves), (P_MOVING, P_METEOR, P_ATTEMPT, P_LOOKREV)),
    _phase(P_SURVEY, survey_phase, (Look, EndLooks), (P_SURVEY, P_METEOR, P_ATTEMPT)),
    _phase(P_SCAN, survey_phase, (Look, EndLooks), (P_SCAN, P_LOOKREV, P_METEOR, P_ATTEMPT, P_ACTION)),
    _phase(P_LOOKREV, survey_phase, (RevealIncident, Pass), (P_ACTION, P_METEOR, P_ATTEMPT, P_ALIEN_MOVE, P_ALIEN_STEAL)),
    _phase(P_SAB_TARGET, incident_phase, (Sabotage,), (P_SAB_MOVE, P_ACTION, P_ATTEMPT, P_METEOR)),
    _phase(P_SAB_MOVE, incident_phase, (SabotageMove, Pass), (P_ACTION, P_ATTEMPT, P_METEOR)),
    _phase(P_ALIEN_MOVE, incident_phase, (MoveAlien, Pass), (P_ALIEN_STEAL, P_PIRATE, P_ACTION, P_ATTEMPT, P_METEOR)),
    _phase(P_ALIEN_STEAL, incident_phase, (Steal, Pass), (P_PIRATE, P_ACTION, P_ATTEMPT, P_METEOR)),
    _phase(P_METEOR, window_phase, (Discard, Pass), (P_METEOR, P_ATTEMPT), _window),
    _phase(P_ATTEMPT, attempt_phase, (Discard, Declare, Pass),
           (P_PIRATE, P_ACTION, P_ATTEMPT, P_REVEAL, P_SCAN, P_SAB_TARGET, P_ALIEN_MOVE)),
    _phase(P_REVEAL, attempt_phase, (Reveal,),
           (P_PIRATE, P_ACTION, P_REVEAL, P_REPLACE, P_BIDUP, P_ALIEN_MOVE)),
    _phase(P_REPLACE, attempt_phase, (Replace, Pass), (P_PIRATE, P_ACTION, P_REVEAL, P_BIDUP)),
    _phase(P_BIDUP, window_phase, (BidUp, Pass), (P_PIRATE, P_ACTION, P_BIDUP, P_BID_REVEAL), _window),
    _phase(P_BID_REVEAL, attempt_phase, (Reveal,), (P_PIRATE, P_ACTION, P_BIDUP, P_BID_REPLACE, P_ALIEN_MOVE)),
    _phase(P_BID_REPLACE, attempt_phase, (Replace, Pass), (P_PIRATE, P_ACTION, P_BIDUP)),
), over=P_OVER, cache="_legal", validate=refusals.why, nobody=[])


@functools.cache
def _clockwise(n: int, p: int) -> tuple[int, ...]:
    """The other players after ``p``, clockwise, in an ``n``-player game."""
    return tuple((p + i) % n for i in range(1, n))


class MiningState(State):
    phases = PHASE_TABLE
    __slots__ = FIELDS.slots  # declared once: state_schema.FIELDS (clone and to_json follow, below the class)

    @property
    def options(self) -> dict:
        """The resolved options (written to JSON from ``cfg``)."""
        return self.cfg.options

    @property
    def components(self):
        """The component set (written to JSON from ``cfg``)."""
        return self.cfg.comps

    # --- small queries ------------------------------------------------------------------------------
    def kind_at(self, s: int) -> int:
        return self.cfg.kinds[self.squares[s]]

    def face_down(self, s: int) -> bool:
        return self.squares[s] >= 0 and not (self.faceup | self.att_mask) >> s & 1

    def rockets_at(self, p: int, s: int) -> int:
        return self.rockets[p * SQUARES + s]

    def _rk_add(self, q: int, s: int, d: int) -> None:
        i = q * SQUARES + s
        v = self.rockets[i] = self.rockets[i] + d
        if v:
            self.occ[q] |= BIT[s]
        else:
            self.occ[q] &= ~BIT[s]

    def _remove_tile(self, s: int) -> None:
        self.squares[s] = -1
        self.tiles &= ~BIT[s]

    def opponents_at(self, p: int, s: int) -> list[int]:
        b = BIT[s]
        return [q for q, m in enumerate(self.occ) if q != p and m & b]

    def any_rocket_at(self, s: int) -> bool:
        b = BIT[s]
        return any(m & b for m in self.occ)

    def clockwise_from(self, p: int) -> list[int]:
        n = self.num_players
        return list(_clockwise(n, p))

    def usable(self, acquired: int) -> bool:
        return acquired < self.turn or not self.cfg.cooldown

    def unspent_counters(self, p: int) -> list[int]:
        spent = self.spent
        if not spent:  # nothing spent yet: every held counter
            return [c for c, h in enumerate(self.holders) if h == p]
        return [c for c, h in enumerate(self.holders) if h == p and not spent >> c & 1]

    def tile_mask(self) -> int:
        """Squares holding a tile (face-down, face-up alien, or revealed in the current attempt)."""
        return self.tiles

    def others_mask(self, p: int) -> int:
        """Squares holding at least one rocket of an opponent of ``p``."""
        occ = self.occ
        if len(occ) == 2 and (p == 0 or p == 1):  # the common two-player game: the other one's squares
            return occ[1 - p]
        m = 0
        for q, o in enumerate(occ):
            if q != p:
                m |= o
        return m

    def eligible_mask(self, p: int) -> int:
        """Face-down squares without the alien or an opponent's rocket (survey, scan and reveal targets)."""
        m = self.tiles & ~(self.faceup | self.att_mask | self.others_mask(p))
        if self.alien >= 0:
            m &= ~BIT[self.alien]
        return m

    def rockets_in_play(self, p: int) -> int:
        base = p * SQUARES
        if self.cfg.scan_station:
            return sum(self.rockets[base:base + SQUARES])
        return sum(self.rockets[base + s] for s in range(SQUARES) if s != STATION)

    def scores(self) -> list[int]:
        values = self.cfg.values
        spent_by = [0] * self.num_players
        m = self.spent
        holder = self.holders
        while m:  # only the spent counters: usually a few
            low = m & -m
            h = holder[low.bit_length() - 1]
            if h >= 0:
                spent_by[h] += 1
            m ^= low
        return [scoring.score([values[t] for t, _ in c], k) for c, k in zip(self.collected, spent_by)]

    # --- protocol -----------------------------------------------------------------------------------
    current_players = PHASE_TABLE.current_players
    legal_actions = PHASE_TABLE.legal_actions
    apply_action = PHASE_TABLE.apply_action
    check_turn = PHASE_TABLE.check_turn

    def turn_count(self) -> int:
        """Turns played as the rules count them: each player's turn is one (the turn limit counts the same)."""
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def result(self) -> Result | None:
        if self.phase != P_OVER:
            return None
        return Result(self.winners, self.reason, tuple(self.scores()))

    def same_choice(self, player: int, action: Any) -> bool:
        """State.same_choice: a steal naming no victim, a discard or steal of a tile whose twin is listed
        (``choices.same_choice``)."""
        legal = self.legal_actions(player)
        return action not in legal and same_choice(self, player, action, legal)

    def _forget_square(self, s: int) -> None:
        mask = ~BIT[s]
        self.looked = [m & mask for m in self.looked]
        self.public &= mask

    def free_tiles(self) -> int:
        """Tiles without rockets or the alien (face-down only, unless ``alien_tiles_count_for_end``)."""
        m = self.tiles & ~self.others_mask(-1)
        if not self.cfg.alien_tiles_count:
            m &= ~self.faceup
        if self.alien >= 0:
            m &= ~BIT[self.alien]
        return m.bit_count()


declare(MiningState, FIELDS)


def build(cfg: Config, d: dict, rng: Rng) -> MiningState:
    """A state from plain fields (the ``to_json`` layout, checked; its options, components, players and rng are
    given as ``cfg`` and ``rng``)."""
    s = FIELDS.build(MiningState, d, cfg=cfg, num_players=cfg.n, rng=rng)
    s.occ = [_mask(s.rockets[q * SQUARES:(q + 1) * SQUARES]) for q in range(cfg.n)]
    s.tiles = _mask(map(_NOT_EMPTY, s.squares))
    return s


_ALL = range(SQUARES)
_NOT_EMPTY = (-1).__lt__  # a square's tile index is >= 0


def _mask(flags) -> int:
    """The bitmask of the squares whose flag (a count, a bool) is true."""
    m = 0
    for sqr in compress(_ALL, flags):
        m |= BIT[sqr]
    return m


def new_state(cfg: Config, seed: int) -> tuple[MiningState, list]:
    """Set-up: shuffle the tiles into the grid around the station, one rocket each on the station, random
    first player. Returns the state and the set-up events."""
    rng = Rng(seed)
    n = cfg.n
    order = list(range(len(cfg.kinds)))
    rng.shuffle(order)
    squares = [-1] * SQUARES
    it = iter(order)
    for s in range(SQUARES):
        if s != STATION:
            squares[s] = next(it)
    rockets = [0] * (n * SQUARES)
    for p in range(n):
        rockets[p * SQUARES + STATION] = 1
    first = rng.below(n)
    d = {
        "squares": squares, "faceup": 0, "rockets": rockets, "shipyards": [cfg.rockets - 1] * n, "alien": -1,
        "aliens": 0, "looked": [0] * n, "public": 0, "holders": [c // 5 for c in range(5 * n)], "spent": 0,
        "hands": [[] for _ in range(n)], "discarded": [], "collected": [[] for _ in range(n)],
        "contract_owners": [-1] * len(cfg.contracts), "turn": 1, "current": first, "first": first,
        "phase": "action", "queue": [], "pirated": False, "stormed": False, "moved": None, "picks": [],
        "scan_left": 0, "ret": "none", "attempt": -1, "matched": [], "extra": [], "mismatch": -1, "att_mask": 0,
        "bid": -1, "bid_done": False, "sabotage_square": -1, "reason": "", "winners": [],
    }
    state = build(cfg, d, rng)
    ev: list = []
    flow.start_turn(state, ev)
    return state, ev

"""The mining state machine: whose decision it is, the legal actions, and applying them.

A turn runs: (pirate window) -> action phase -> (meteor window) -> contract attempt phase -> end of turn.
Compound decisions are split into small steps (see docs/mining.md, "Decisions"): rockets move one at a time
then ``end-moves``; a survey picks its bribe then squares one at a time; an attempt declares a contract then
reveals square by square; out-of-turn decisions (Pirate Attack, Meteor Storm, bid-ups) are windows that
ask the opponents one at a time, clockwise.

The state is a handful of flat lists and integers (bitmasks over the 49 squares) so ``clone()`` is cheap.
Knowledge: ``looked[p]`` is the bitmask of squares p looked at secretly (which squares is public, what p saw
is not); ``pub`` holds squares revealed in an attempt and flipped back (everybody saw them). Tiles never move
while face-down, so "p knows square s" is just a bit.

This module owns the rules of play; data loading lives in ``components``, matching in ``contracts``, survey
lines in ``survey``, scoring in ``scoring``, views and sampling in ``view``.
"""

from __future__ import annotations

from typing import Any

from deltav.core.errors import IllegalAction
from deltav.core.protocol import Result, State
from deltav.core.rng import Rng
from deltav.games.mining import contracts as cm
from deltav.games.mining import scoring, survey
from deltav.games.mining.messages import (
    AlienEncounter,
    AlienMoved,
    AttemptFailed,
    BidUp,
    BidUpMade,
    BribeSpent,
    BuyRocket,
    ContractDeclared,
    ContractFulfilled,
    Declare,
    Discard,
    EndLooks,
    EndMoves,
    GameEnded,
    IncidentDiscarded,
    IncidentTaken,
    Look,
    Looked,
    MineralReplaced,
    Move,
    MoveAlien,
    Pass,
    Passed,
    Prospect,
    Replace,
    Reveal,
    RevealIncident,
    RocketBought,
    RocketMoved,
    RocketPlaced,
    RocketRemoved,
    RocketsBumped,
    RocketsToStation,
    Sabotage,
    SabotageMove,
    Steal,
    Stolen,
    Survey,
    TileRevealed,
    TileSeen,
    TurnStarted,
)
from deltav.games.mining.scenarios import (
    ACQUISITION,
    ALIEN,
    ALIENS_TO_END,
    KINDS,
    METEOR,
    MINERALS,
    OMNIDIUM,
    PIRATE,
    SABOTAGE,
    SCAN,
    SQUARES,
    STATION,
    Components,
    bribe_id,
    tile_id,
)

# --- phases ---------------------------------------------------------------------------------------------
(P_PIRATE, P_ACTION, P_MOVING, P_SURVEY, P_SCAN, P_LOOKREV, P_SAB_TARGET, P_SAB_MOVE, P_ALIEN_MOVE,
 P_ALIEN_STEAL, P_METEOR, P_ATTEMPT, P_REVEAL, P_REPLACE, P_BIDUP, P_BID_REVEAL, P_BID_REPLACE, P_OVER) = range(18)
PHASES = ("pirate-window", "action", "moving", "survey", "scan", "reveal-choice", "sabotage-target",
          "sabotage-move", "alien-move", "alien-steal", "meteor-window", "attempt", "reveal", "replace",
          "bid-up-window", "bid-up-reveal", "bid-up-replace", "over")
# where a sub-decision returns to (``ret``): a phase, or one of these continuations
R_AFTER_ACTION, R_FAIL, R_BID_FAIL = 100, 101, 102
RETURNS = {P_ACTION: "action", P_ATTEMPT: "attempt", P_REVEAL: "reveal", R_AFTER_ACTION: "after-action",
           R_FAIL: "fail-attempt", R_BID_FAIL: "fail-bid-up", -1: "none"}
RETURN_CODES = {v: k for k, v in RETURNS.items()}
PHASE_CODES = {v: k for k, v in enumerate(PHASES)}

BIT = tuple(1 << s for s in range(SQUARES))
WINDOWS = (P_PIRATE, P_METEOR, P_BIDUP)
OWN_TURN_INCIDENTS = (SCAN, SABOTAGE, ACQUISITION)

# --- cached action objects (values are immutable; reusing them makes legal_actions cheap) ----------------
_MOVES: dict[tuple[int, int, int | None], Move] = {}
MOVE_ROW = tuple(tuple(Move(f, t, None) for t in range(SQUARES)) for f in range(SQUARES))
_DESTS: dict[int, tuple[list[int], list[Move]]] = {}


def _dests(tiles: int) -> tuple[list[int], list[Move]]:
    """The squares of a tile bitmask, ascending, and the station's moves to them (cached: the mask changes
    rarely within a game). Callers must not mutate the lists."""
    d = _DESTS.get(tiles)
    if d is None:
        if len(_DESTS) > 4096:
            _DESTS.clear()
        squares = [s for s in range(SQUARES) if tiles >> s & 1]
        d = _DESTS[tiles] = (squares, [MOVE_ROW[STATION][s] for s in squares])
    return d
LOOK = tuple(Look(s) for s in range(SQUARES))
REVEAL = tuple(Reveal(s) for s in range(SQUARES))
REVEAL_INC = tuple(RevealIncident(s) for s in range(SQUARES))
MOVE_ALIEN = tuple(MoveAlien(s) for s in range(SQUARES))
SAB_MOVE = tuple(SabotageMove(s) for s in range(SQUARES))
PASS = Pass()
END_MOVES = EndMoves()
END_LOOKS = EndLooks()
PROSPECT = Prospect()
BUY = BuyRocket()
_STR_ACTIONS: dict[tuple[type, str], Any] = {}
_SABOTAGE: dict[tuple[int, int], Sabotage] = {}
_SAB_MOVES: dict[tuple[int, int], SabotageMove] = {}


def _move(frm: int, to: int, bump: int | None) -> Move:
    if bump is None:
        return MOVE_ROW[frm][to]
    key = (frm, to, bump)
    a = _MOVES.get(key)
    if a is None:
        a = _MOVES[key] = Move(frm, to, bump)
    return a


def _sact(cls: type, text: str) -> Any:
    key = (cls, text)
    a = _STR_ACTIONS.get(key)
    if a is None:
        a = _STR_ACTIONS[key] = cls(text)
    return a


def _sab_move(frm: int, bump: int) -> SabotageMove:
    key = (frm, bump)
    a = _SAB_MOVES.get(key)
    if a is None:
        a = _SAB_MOVES[key] = SabotageMove(frm, bump)
    return a


def _sab(victim: int, square: int) -> Sabotage:
    a = _SABOTAGE.get((victim, square))
    if a is None:
        a = _SABOTAGE[(victim, square)] = Sabotage(victim, square)
    return a


class Config:
    """Everything fixed for a whole game: components, options, player count, and lookup tables."""

    __slots__ = ("comps", "options", "n", "kinds", "values", "ids", "id_index", "contracts", "contract_index",
                 "counters", "counter_ids", "counter_index", "rockets", "mandatory", "a2a", "bump_all",
                 "short_lines", "incident_ends", "overmatch_ignored", "omni_bid", "bid_up", "skip_empty",
                 "cooldown", "scan_station", "sab_any", "alien_tiles_count", "stolen_usable",
                 "revealed_known", "full_tie", "max_turns", "declares", "comps_json", "fingerprint", "tile_json")

    def __init__(self, comps: Components, options: dict, n: int):
        self.comps = comps
        self.options = dict(options)
        self.n = n
        self.kinds = comps.kinds
        self.values = comps.values
        self.ids = tuple(tile_id(k) for k in range(len(comps.kinds)))
        self.id_index = {t: k for k, t in enumerate(self.ids)}
        self.contracts = comps.contracts
        self.contract_index = {c.id: i for i, c in enumerate(comps.contracts)}
        self.declares = tuple(Declare(c.id) for c in comps.contracts)
        self.counters = 5 * n  # counter c: owner c // 5, mineral c % 5
        self.counter_ids = tuple(bribe_id(c // 5, c % 5) for c in range(self.counters))
        self.counter_index = {b: c for c, b in enumerate(self.counter_ids)}
        self.rockets = comps.rockets_per_player
        o = options
        self.mandatory = bool(o.get("mandatory_contract_attempt", True))
        self.a2a = bool(o.get("asteroid_to_asteroid", False))
        self.bump_all = o.get("bump", "one") == "all"
        self.short_lines = bool(o.get("survey_short_lines", True))
        self.incident_ends = bool(o.get("incident_ends_attempt", True))
        self.overmatch_ignored = o.get("overmatch", "mismatch") == "ignored"
        self.omni_bid = o.get("omnidium_bid_up", "not_allowed") == "reveal_omnidium"
        self.bid_up = bool(o.get("bid_up", True))
        self.skip_empty = bool(o.get("skip_empty_windows", True))
        self.cooldown = bool(o.get("incident_cooldown", True))
        self.scan_station = bool(o.get("scan_counts_station_rockets", True))
        self.sab_any = bool(o.get("sabotage_any_rocket", True))
        self.alien_tiles_count = bool(o.get("alien_tiles_count_for_end", False))
        self.stolen_usable = o.get("stolen_bribe", "usable") == "usable"
        self.revealed_known = bool(o.get("revealed_tiles_known", True))
        self.full_tie = o.get("full_tie", "shared")
        self.max_turns = int(o.get("max_turns", 400))
        self.comps_json = comps.to_json()
        self.fingerprint = fingerprint(self.comps_json)
        self.tile_json = tuple((self.ids[t], KINDS[self.kinds[t]], self.values[t]) for t in range(len(self.kinds)))


def fingerprint(components_json: dict) -> str:
    """A short digest of a components JSON (without its own fingerprint), to cache configs by content."""
    import hashlib
    import json

    body = {k: v for k, v in components_json.items() if k != "fingerprint"}
    return hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


class MiningState(State):
    __slots__ = ("cfg", "num_players", "rng", "sq", "faceup", "rk", "yard", "alien", "aliens", "looked", "pub",
                 "holder", "spent", "hands", "discarded", "coll", "cowner", "turn", "cp", "first", "phase", "queue",
                 "pirated", "stormed", "moved", "picks", "scan_left", "ret", "att", "matched", "extra",
                 "mismatch", "att_mask", "bid", "bid_done", "sab_sq", "reason", "winners_", "_legal", "occ",
                 "tiles")

    # ------------------------------------------------------------------------------------------------
    def clone(self) -> MiningState:
        s = MiningState.__new__(MiningState)
        s.cfg = self.cfg
        s.num_players = self.num_players
        s.rng = self.rng.clone()
        s.sq = self.sq[:]
        s.faceup = self.faceup
        s.rk = self.rk[:]
        s.occ = self.occ[:]
        s.tiles = self.tiles
        s.yard = self.yard[:]
        s.alien = self.alien
        s.aliens = self.aliens
        s.looked = self.looked[:]
        s.pub = self.pub
        s.holder = self.holder[:]
        s.spent = self.spent
        s.hands = [h[:] for h in self.hands]
        s.discarded = self.discarded[:]
        s.coll = [c[:] for c in self.coll]
        s.cowner = self.cowner[:]
        s.turn = self.turn
        s.cp = self.cp
        s.first = self.first
        s.phase = self.phase
        s.queue = self.queue
        s.pirated = self.pirated
        s.stormed = self.stormed
        s.moved = self.moved[:] if self.moved is not None else None
        s.picks = self.picks
        s.scan_left = self.scan_left
        s.ret = self.ret
        s.att = self.att
        s.matched = self.matched
        s.extra = self.extra
        s.mismatch = self.mismatch
        s.att_mask = self.att_mask
        s.bid = self.bid
        s.bid_done = self.bid_done
        s.sab_sq = self.sab_sq
        s.reason = self.reason
        s.winners_ = self.winners_
        s._legal = self._legal
        return s

    # --- small queries ------------------------------------------------------------------------------
    def kind_at(self, s: int) -> int:
        return self.cfg.kinds[self.sq[s]]

    def face_down(self, s: int) -> bool:
        return self.sq[s] >= 0 and not (self.faceup | self.att_mask) >> s & 1

    def rockets_at(self, p: int, s: int) -> int:
        return self.rk[p * SQUARES + s]

    def _rk_add(self, q: int, s: int, d: int) -> None:
        i = q * SQUARES + s
        v = self.rk[i] = self.rk[i] + d
        if v:
            self.occ[q] |= BIT[s]
        else:
            self.occ[q] &= ~BIT[s]

    def _remove_tile(self, s: int) -> None:
        self.sq[s] = -1
        self.tiles &= ~BIT[s]

    def opponents_at(self, p: int, s: int) -> list[int]:
        b = BIT[s]
        return [q for q, m in enumerate(self.occ) if q != p and m & b]

    def any_rocket_at(self, s: int) -> bool:
        b = BIT[s]
        return any(m & b for m in self.occ)

    def clockwise_from(self, p: int) -> list[int]:
        n = self.num_players
        return [(p + i) % n for i in range(1, n)]

    def usable(self, acquired: int) -> bool:
        return acquired < self.turn or not self.cfg.cooldown

    def unspent_counters(self, p: int) -> list[int]:
        spent = self.spent
        return [c for c, h in enumerate(self.holder) if h == p and not spent >> c & 1]

    def tile_mask(self) -> int:
        """Squares holding a tile (face-down, face-up alien, or revealed in the current attempt)."""
        return self.tiles

    def others_mask(self, p: int) -> int:
        """Squares holding at least one rocket of an opponent of ``p``."""
        m = 0
        for q, o in enumerate(self.occ):
            if q != p:
                m |= o
        return m

    def eligible_mask(self, p: int) -> int:
        """Face-down squares without the alien or an opponent's rocket (survey, scan and reveal targets)."""
        m = self.tile_mask() & ~(self.faceup | self.att_mask | self.others_mask(p))
        if self.alien >= 0:
            m &= ~BIT[self.alien]
        return m

    def rockets_in_play(self, p: int) -> int:
        base = p * SQUARES
        if self.cfg.scan_station:
            return sum(self.rk[base:base + SQUARES])
        return sum(self.rk[base + s] for s in range(SQUARES) if s != STATION)

    def scores(self) -> list[int]:
        cfg = self.cfg
        out = []
        for p in range(self.num_players):
            spent = sum(1 for c, h in enumerate(self.holder) if h == p and self.spent >> c & 1)
            out.append(scoring.score([cfg.values[t] for t, _ in self.coll[p]], spent))
        return out

    # --- protocol -----------------------------------------------------------------------------------
    def current_players(self) -> list[int]:
        ph = self.phase
        if ph == P_OVER:
            return []
        if ph in (P_PIRATE, P_METEOR, P_BIDUP):
            return [self.queue[0]]
        return [self.cp]

    def turn_count(self) -> int:
        """Turns played as the rules count them: each player's turn is one (the turn limit counts the same)."""
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def result(self) -> Result | None:
        if self.phase != P_OVER:
            return None
        return Result(self.winners_, self.reason, tuple(self.scores()))

    def legal_actions(self, player: int) -> list:
        cached = self._legal
        if cached is not None and cached[0] == player:
            return list(cached[1])
        if self.phase == P_OVER or player not in self.current_players():
            return []
        acts = self._legal_for(player)
        self._legal = (player, acts)
        return list(acts)

    def check_turn(self, player: int) -> None:
        ph = self.phase
        if ph != P_OVER and type(player) is int and player == (self.queue[0] if ph in WINDOWS else self.cp):
            return
        State.check_turn(self, player)  # raises the precise error

    def apply_action(self, player: int, action: Any) -> list:
        self.check_turn(player)
        cached = self._legal
        legal = cached[1] if cached is not None and cached[0] == player else self.legal_actions(player)
        for a in legal:
            if a is action:  # the engine's own (cached, well-typed) action: the hot path
                break
        else:
            # anything else is checked first: a non-Action, another game's action, or a field of the wrong type
            # (True or 10.0 would compare equal to a listed square 1 or 10) raises MalformedAction
            self.game.actions.check(action)
            if action not in legal:
                raise self._why_illegal(player, action)
        ev: list = []
        self._legal = None
        self._apply(player, action, ev)
        return ev

    # --- legal actions ------------------------------------------------------------------------------
    def _own_discards(self, p: int) -> list:
        out = []
        cfg = self.cfg
        for t, acq in self.hands[p]:
            k = cfg.kinds[t]
            if k not in OWN_TURN_INCIDENTS or not self.usable(acq):
                continue
            if k == SABOTAGE and not self._sabotage_targets(p):
                continue
            if k == ACQUISITION and not self.yard[p]:
                continue
            out.append(_sact(Discard, cfg.ids[t]))
        return out

    def _move_actions(self, p: int) -> list:
        out: list = []
        rk = self.rk
        base = p * SQUARES
        moved = self.moved
        alien = self.alien
        dests, station_moves = _dests(self.tiles)
        others = self.others_mask(p)
        occ = self.occ
        cfg = self.cfg
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
                if bump_all or not others & self.tiles:
                    out.extend(station_moves)
                    continue
                targets = dests
            else:
                out.append(row[STATION])
                if not cfg.a2a:
                    continue
                targets = [s for s in dests if s != frm]
            if bump_all or not others & self.tiles:
                out.extend([row[to] for to in targets])
                continue
            for to in targets:
                if not others >> to & 1:
                    out.append(row[to])
                else:
                    for q, o in enumerate(occ):
                        if q != p and o >> to & 1:
                            out.append(_move(frm, to, q))
        return out

    def _sabotage_targets(self, p: int) -> list:
        out = []
        rk = self.rk
        any_rocket = self.cfg.sab_any
        for q in range(self.num_players):
            if q == p:
                continue
            base = q * SQUARES
            for s in range(SQUARES):
                if rk[base + s] and (any_rocket or (s != STATION and s != self.alien)):
                    out.append(_sab(q, s))
        return out

    def _reveal_squares(self, p: int) -> list[int]:
        m = self.eligible_mask(p)
        return [s for s in range(SQUARES) if m >> s & 1]

    def _scan_candidates(self, p: int) -> list[int]:
        m = self.eligible_mask(p)
        for s in self.picks:
            m &= ~BIT[s]
        return [s for s in range(SQUARES) if m >> s & 1]

    def _replace_options(self, p: int, square: int) -> list:
        cfg = self.cfg
        out = []
        if self.phase in (P_REVEAL, P_REPLACE) and self.bid < 0:
            c = cfg.contracts[self.att]
            got = [m for _, _, m in self.matched]
            for b in self.unspent_counters(p):
                if cm.fits(c.need, c.size, got, b % 5):
                    out.append(_sact(Replace, cfg.counter_ids[b]))
        else:
            want = self.bid % 5
            for b in self.unspent_counters(p):
                if b % 5 == want:
                    out.append(_sact(Replace, cfg.counter_ids[b]))
        return out

    def _steal_options(self, p: int) -> list:
        cfg = self.cfg
        out = []
        for q in range(self.num_players):
            if q == p:
                continue
            for t, _ in self.hands[q]:
                out.append(_sact(Steal, cfg.ids[t]))
            for b in self.unspent_counters(q):
                out.append(_sact(Steal, cfg.counter_ids[b]))
        return out

    def _bid_counters(self, p: int) -> list[int]:
        c = self.cfg.contracts[self.att]
        minerals = set(c.minerals)
        if self.cfg.omni_bid:
            minerals.add(OMNIDIUM)
        return [b for b in self.unspent_counters(p) if b % 5 in minerals]

    def _can_declare(self) -> bool:
        if self.stormed:
            return False
        if all(o >= 0 for o in self.cowner):
            return False
        return self.eligible_mask(self.cp) != 0

    def _legal_for(self, p: int) -> list:
        ph = self.phase
        cfg = self.cfg
        if ph in (P_PIRATE, P_METEOR):
            kind = PIRATE if ph == P_PIRATE else METEOR
            out = [_sact(Discard, cfg.ids[t]) for t, acq in self.hands[p] if cfg.kinds[t] == kind and self.usable(acq)]
            out.append(PASS)
            return out
        if ph == P_ACTION:
            out = self._own_discards(p)
            if self.pirated:
                out.append(PASS)
                return out
            out.extend(self._move_actions(p))
            out.append(PROSPECT)
            elig = self.eligible_mask(p)
            if survey.available(elig, cfg.short_lines):
                out.extend(_sact(Survey, cfg.counter_ids[b]) for b in self.unspent_counters(p))
            if self.yard[p]:
                out.append(BUY)
            return out
        if ph == P_MOVING:
            out = self._move_actions(p)
            out.append(END_MOVES)
            return out
        if ph == P_SURVEY:
            elig = self.eligible_mask(p)
            out = [LOOK[s] for s in survey.candidates(self.picks, elig, cfg.short_lines)]
            if survey.can_stop(self.picks, elig, cfg.short_lines):
                out.append(END_LOOKS)
            return out
        if ph == P_SCAN:
            out = [LOOK[s] for s in self._scan_candidates(p)]
            out.append(END_LOOKS)
            return out
        if ph == P_LOOKREV:
            out = [REVEAL_INC[s] for s in self._reveal_incident_squares(p)]
            out.append(PASS)
            return out
        if ph == P_SAB_TARGET:
            return self._sabotage_targets(p)
        if ph == P_SAB_MOVE:
            to = self.sab_sq
            victims = self.opponents_at(p, to) if to != STATION and not cfg.bump_all else []
            if victims:
                out = [_sab_move(s, q) for s in self._sab_move_sources(p) for q in victims]
            else:
                out = [SAB_MOVE[s] for s in self._sab_move_sources(p)]
            out.append(PASS)
            return out
        if ph == P_ALIEN_MOVE:
            out = [MOVE_ALIEN[s] for s in range(SQUARES) if self.sq[s] >= 0 and s != self.alien]
            out.append(PASS)
            return out
        if ph == P_ALIEN_STEAL:
            out = self._steal_options(p)
            out.append(PASS)
            return out
        if ph == P_ATTEMPT:
            out = self._own_discards(p)
            can = self._can_declare()
            if can:
                out.extend(cfg.declares[i] for i, o in enumerate(self.cowner) if o < 0)
            if not can or not cfg.mandatory:
                out.append(PASS)
            return out
        if ph in (P_REVEAL, P_BID_REVEAL):
            return [REVEAL[s] for s in self._reveal_squares(p)]
        if ph in (P_REPLACE, P_BID_REPLACE):
            out = self._replace_options(p, self.mismatch)
            out.append(PASS)
            return out
        if ph == P_BIDUP:
            out = [_sact(BidUp, cfg.counter_ids[b]) for b in self._bid_counters(p)]
            out.append(PASS)
            return out
        return []

    def _reveal_incident_squares(self, p: int) -> list[int]:
        """Squares among the ones just looked at that hold an incident under one of p's rockets."""
        kinds = self.cfg.kinds
        out = []
        for s in self.picks:
            if self.face_down(s) and kinds[self.sq[s]] > OMNIDIUM and self.rk[p * SQUARES + s]:
                out.append(s)
        return sorted(out)

    def _sab_move_sources(self, p: int) -> list[int]:
        base = p * SQUARES
        return [s for s in range(SQUARES) if self.rk[base + s] and s != self.sab_sq and s != self.alien]

    # --- why an action is illegal (rule ids) --------------------------------------------------------
    def _why_illegal(self, p: int, a: Any) -> IllegalAction:
        ph = self.phase
        name = PHASES[ph]
        cfg = self.cfg
        t = type(a)
        expected = {
            P_PIRATE: (Discard, Pass), P_METEOR: (Discard, Pass), P_MOVING: (Move, EndMoves),
            P_SURVEY: (Look, EndLooks), P_SCAN: (Look, EndLooks), P_LOOKREV: (RevealIncident, Pass),
            P_SAB_TARGET: (Sabotage,), P_SAB_MOVE: (SabotageMove, Pass), P_ALIEN_MOVE: (MoveAlien, Pass),
            P_ALIEN_STEAL: (Steal, Pass), P_ATTEMPT: (Discard, Declare, Pass), P_REVEAL: (Reveal,),
            P_REPLACE: (Replace, Pass), P_BIDUP: (BidUp, Pass), P_BID_REVEAL: (Reveal,),
            P_BID_REPLACE: (Replace, Pass),
            P_ACTION: (Discard, Pass) if self.pirated else (Discard, Move, Prospect, Survey, BuyRocket),
        }[ph]
        if t not in expected:
            if ph == P_ACTION and self.pirated:
                return IllegalAction("mining.pirate.no_action", "a Pirate Attack stopped your action this turn")
            allowed = ", ".join(c.TYPE for c in expected)
            return IllegalAction(f"mining.{name}.wrong_kind", f"now you may only send: {allowed}")
        if t is Discard:
            held = [tt for tt, _ in self.hands[p] if cfg.ids[tt] == a.incident]
            if not held:
                return IllegalAction("mining.incident.not_held", f"you do not hold the incident tile {a.incident!r}")
            acq = [aq for tt, aq in self.hands[p] if cfg.ids[tt] == a.incident][0]
            if not self.usable(acq):
                return IllegalAction("mining.incident.same_turn", "an incident may not be used on the turn it was taken")
            k = cfg.kinds[held[0]]
            if k in OWN_TURN_INCIDENTS and ph in WINDOWS:
                return IllegalAction("mining.incident.own_turn", f"a {KINDS[k]} tile is discarded during your own "
                                     "turn")
            if k in (PIRATE, METEOR) and ph not in WINDOWS:
                return IllegalAction("mining.incident.opponents_turn", f"a {KINDS[k]} tile is discarded during an "
                                     "opponent's turn")
            if k == SABOTAGE and not self._sabotage_targets(p):
                return IllegalAction("mining.sabotage.no_target", "no opponent rocket may be sabotaged")
            if k == ACQUISITION and not self.yard[p]:
                return IllegalAction("mining.acquisition.shipyard_empty", "your shipyard has no rocket left")
            return IllegalAction("mining.incident.timing", f"a {KINDS[k]} tile may not be used now")
        if t in (Survey, Replace, BidUp):
            b = cfg.counter_index.get(a.bribe)
            if b is None or self.holder[b] != p:
                return IllegalAction("mining.bribe.not_held", f"you do not hold the bribe counter {a.bribe!r}")
            if self.spent >> b & 1:
                return IllegalAction("mining.bribe.spent", f"the bribe counter {a.bribe!r} is already spent")
            if t is Survey:
                return IllegalAction("mining.survey.no_line", "no row or column has tiles you may survey")
            if t is BidUp:
                if b % 5 == OMNIDIUM and not cfg.omni_bid:
                    return IllegalAction("mining.bid_up.omnidium", "an Omnidium bribe counter may not bid up: a "
                                         "bid-up bribe must match a mineral on the contract (option omnidium_bid_up)")
                return IllegalAction("mining.bid_up.mineral", "a bid-up bribe must show a mineral of the contract")
            return IllegalAction("mining.replace.mineral", "that bribe's mineral would not match the contract")
        if t is Move:
            frm, to = a.frm, a.to
            if not (0 <= frm < SQUARES and 0 <= to < SQUARES):
                return IllegalAction("mining.move.square", "no such square (squares are 0..48)")
            if not self.rk[p * SQUARES + frm]:
                return IllegalAction("mining.move.no_rocket", f"you have no rocket on square {frm}")
            if frm == self.alien:
                return IllegalAction("mining.move.frozen", "rockets on the alien's tile may not move")
            if self.moved is not None and self.moved[frm] >= self.rk[p * SQUARES + frm]:
                return IllegalAction("mining.move.already_moved", "each rocket moves once per action")
            if to != STATION and self.sq[to] < 0:
                return IllegalAction("mining.move.no_tile", f"square {to} holds no asteroid tile")
            if frm != STATION and to != STATION and not cfg.a2a:
                return IllegalAction("mining.move.via_station", "rockets move between the station and asteroids only")
            if frm == to:
                return IllegalAction("mining.move.same_square", "a move must change square")
            return IllegalAction("mining.move.bump", "name the opponent bumped (only when the tile holds one)")
        if t is Look:
            s = a.square
            if not 0 <= s < SQUARES or not self.face_down(s):
                return IllegalAction(f"mining.{name}.not_face_down", f"square {s} holds no face-down tile")
            if s == self.alien:
                return IllegalAction(f"mining.{name}.alien", "you may not look at the tile under the alien")
            if self.opponents_at(p, s):
                return IllegalAction(f"mining.{name}.opponent", "you may not look at a tile with an opponent's rocket")
            if s in self.picks:
                return IllegalAction(f"mining.{name}.repeat", f"square {s} was already picked")
            return IllegalAction("mining.survey.line", "a survey looks at up to three tiles in one row or column")
        if t is Reveal:
            s = a.square
            if not 0 <= s < SQUARES or not self.face_down(s):
                return IllegalAction("mining.reveal.not_face_down", f"square {s} holds no face-down tile")
            if s == self.alien:
                return IllegalAction("mining.reveal.alien", "you may not reveal the tile under the alien")
            return IllegalAction("mining.reveal.opponent", "you may not reveal a tile with an opponent's rocket")
        if t is Declare:
            i = cfg.contract_index.get(a.contract)
            if i is None:
                return IllegalAction("mining.declare.unknown", f"no contract {a.contract!r}")
            if self.cowner[i] >= 0:
                return IllegalAction("mining.declare.fulfilled", f"contract {a.contract} is already fulfilled")
            if self.stormed:
                return IllegalAction("mining.meteor.no_attempt", "a Meteor Storm stopped your contract attempt")
            return IllegalAction("mining.declare.no_tile", "no tile is left that you may reveal")
        if t is Pass:
            if ph == P_ATTEMPT:
                return IllegalAction("mining.attempt.mandatory", "you must try to fulfil a contract each turn "
                                     "while one can be declared (option mandatory_contract_attempt)")
            return IllegalAction(f"mining.{name}.no_pass", "you may not pass now")
        if t is EndMoves:
            return IllegalAction("mining.move.none", "move at least one rocket first")
        if t is EndLooks:
            return IllegalAction("mining.survey.incomplete", "a survey looks at three tiles in one row or column "
                                 "(fewer only when its line has fewer eligible tiles)")
        if t is BuyRocket:
            return IllegalAction("mining.buy.shipyard_empty", "your shipyard has no rocket left")
        if t is Sabotage:
            q, s = a.victim, a.square
            if q == p:
                return IllegalAction("mining.sabotage.own", "Sabotage removes an opponent's rocket, not your own")
            if not 0 <= q < self.num_players:
                return IllegalAction("mining.sabotage.victim", f"no such player {q}")
            if not 0 <= s < SQUARES or not self.rk[q * SQUARES + s]:
                return IllegalAction("mining.sabotage.no_rocket", f"player {q} has no rocket on square {s}")
            return IllegalAction("mining.sabotage.protected", "rockets on the station or frozen by the alien may "
                                 "not be sabotaged (option sabotage_any_rocket)")
        if t is SabotageMove:
            frm = a.frm
            if not 0 <= frm < SQUARES:
                return IllegalAction("mining.move.square", "no such square (squares are 0..48)")
            if frm == self.alien:
                return IllegalAction("mining.move.frozen", "rockets on the alien's tile may not move")
            if not self.rk[p * SQUARES + frm]:
                return IllegalAction("mining.sabotage.move", f"you have no rocket on square {frm}")
            if frm == self.sab_sq:
                return IllegalAction("mining.move.same_square", "a move must change square")
            return IllegalAction("mining.move.bump", "name the opponent bumped (only when the tile holds one)")
        if t is MoveAlien:
            s = a.square
            if s == STATION:
                return IllegalAction("mining.alien.station", "the alien may not move onto the space station")
            if s == self.alien:
                return IllegalAction("mining.alien.same_square", "the alien is already there")
            return IllegalAction("mining.alien.square", "the alien moves onto an asteroid tile")
        if t is Steal:
            b = cfg.counter_index.get(a.item)
            if b is not None and self.holder[b] == p or any(cfg.ids[tt] == a.item for tt, _ in self.hands[p]):
                return IllegalAction("mining.alien.steal_own", "steal from an opponent, not from yourself")
            if b is not None and self.spent >> b & 1:
                return IllegalAction("mining.alien.steal_spent", "only an unspent bribe counter may be stolen")
            return IllegalAction("mining.alien.steal", "steal an opponent's incident tile or unspent bribe counter")
        if t is RevealIncident:
            return IllegalAction("mining.prospect.reveal", "reveal only an incident you just saw under your rocket")
        return IllegalAction(f"mining.{name}.illegal", "that action is not legal now")

    # --- applying -----------------------------------------------------------------------------------
    def _apply(self, p: int, a: Any, ev: list) -> None:
        t = type(a)
        ph = self.phase
        cfg = self.cfg
        if t is Pass:
            self._pass(p, ev)
        elif t is Move:
            self._do_move(p, a, ev)
        elif t is EndMoves:  # public, like every step: the others see the moves end
            ev.append(Passed(p, PHASES[ph]))
            self.moved = None
            self._after_action(ev)
        elif t is Prospect:
            rk = self.rk
            base = p * SQUARES
            squares = tuple(s for s in range(SQUARES) if s != STATION and rk[base + s] and self.face_down(s))
            ev.append(Looked(p, squares, "prospect"))
            for s in squares:
                self._see(p, s, ev)
            if squares:
                self.picks = squares
                self.ret = R_AFTER_ACTION
                self.phase = P_LOOKREV
            else:
                self._after_action(ev)
        elif t is Survey:
            b = cfg.counter_index[a.bribe]
            self.spent |= 1 << b
            ev.append(BribeSpent(p, a.bribe, "survey"))
            self.picks = ()
            self.phase = P_SURVEY
        elif t is Look:
            s = a.square
            ev.append(Looked(p, (s,), "survey" if ph == P_SURVEY else "scan"))
            self._see(p, s, ev)
            self.picks = self.picks + (s,)
            if ph == P_SURVEY:
                elig = self.eligible_mask(p)
                if not survey.candidates(self.picks, elig, cfg.short_lines):
                    self.picks = ()
                    self._after_action(ev)
            else:
                self.scan_left -= 1
                if self.scan_left <= 0 or not self._scan_candidates(p):
                    self._finish_scan(p, ev)
        elif t is EndLooks:
            ev.append(Passed(p, PHASES[ph]))
            if ph == P_SURVEY:
                self.picks = ()
                self._after_action(ev)
            else:
                self._finish_scan(p, ev)
        elif t is BuyRocket:
            self.yard[p] -= 1
            self._rk_add(p, STATION, 1)
            ev.append(RocketBought(p))
            self._after_action(ev)
        elif t is Discard:
            self._discard(p, a, ev)
        elif t is Sabotage:
            q, s = a.victim, a.square
            self._rk_add(q, s, -1)
            self.yard[q] += 1
            ev.append(RocketRemoved(p, q, s))
            self.sab_sq = s
            if self._sab_move_sources(p):
                self.phase = P_SAB_MOVE
            else:
                self.sab_sq = -1
                self._resume(ev)
        elif t is SabotageMove:
            s = self.sab_sq
            self._rk_add(p, a.frm, -1)
            ev.append(RocketPlaced(p, a.frm, s))
            if not self._bump(p, s, a.bump, ev):
                self._rk_add(p, s, 1)
            self.sab_sq = -1
            self._resume(ev)
        elif t is RevealIncident:
            self.picks = ()
            self._resolve_incident(p, a.square, ev)
        elif t is MoveAlien:
            self.alien = a.square
            ev.append(AlienMoved(p, a.square))
            self._to_steal(p, ev)
        elif t is Steal:
            self._steal(p, a.item, ev)
            self._resume(ev)
        elif t is Declare:
            self.att = cfg.contract_index[a.contract]
            self.matched = ()
            self.extra = ()
            self.att_mask = 0
            self.mismatch = -1
            self.bid = -1
            self.bid_done = False
            ev.append(ContractDeclared(p, a.contract))
            self.phase = P_REVEAL
        elif t is Reveal:
            if ph == P_REVEAL:
                self._reveal(p, a.square, ev)
            else:
                self._bid_reveal(p, a.square, ev)
        elif t is Replace:
            self._replace(p, a, ev)
        elif t is BidUp:
            b = cfg.counter_index[a.bribe]
            self.bid = b
            self.bid_done = True
            self.queue = ()
            ev.append(BidUpMade(p, a.bribe, MINERALS[b % 5]))
            self.phase = P_BID_REVEAL
            if not self._reveal_squares(self.cp):
                self._fail_attempt("no tile left for the bid-up", ev)
        else:  # pragma: no cover - every legal action type is handled above
            raise AssertionError(a)

    def _pass(self, p: int, ev: list) -> None:
        ph = self.phase
        ev.append(Passed(p, PHASES[ph]))
        if ph in (P_PIRATE, P_METEOR, P_BIDUP):
            self.queue = self.queue[1:]
            if not self.queue:
                if ph == P_PIRATE:
                    self.phase = P_ACTION
                elif ph == P_METEOR:
                    self.phase = P_ATTEMPT
                else:
                    self._collect(ev)
        elif ph == P_ACTION:  # pirated: the action is skipped
            self._after_action(ev)
        elif ph == P_LOOKREV:
            self.picks = ()
            self._resume(ev)
        elif ph == P_SAB_MOVE:
            self.sab_sq = -1
            self._resume(ev)
        elif ph == P_ALIEN_MOVE:
            self._to_steal(p, ev)
        elif ph == P_ALIEN_STEAL:
            self._resume(ev)
        elif ph == P_ATTEMPT:
            self._end_turn(ev)
        elif ph == P_REPLACE:
            self._fail_attempt("mismatch", ev)
        elif ph == P_BID_REPLACE:
            self._fail_attempt("bid-up mismatch", ev)

    def _see(self, p: int, s: int, ev: list) -> None:
        t = self.sq[s]
        cfg = self.cfg
        self.looked[p] |= BIT[s]
        ev.append(TileSeen(p, s, cfg.ids[t], KINDS[cfg.kinds[t]], cfg.values[t], (p,)))

    def _forget_square(self, s: int) -> None:
        mask = ~BIT[s]
        self.looked = [m & mask for m in self.looked]
        self.pub &= mask

    def _do_move(self, p: int, a: Move, ev: list) -> None:
        if self.moved is None:
            self.moved = [0] * SQUARES
        self._rk_add(p, a.frm, -1)
        ev.append(RocketMoved(p, a.frm, a.to))
        to = a.to
        if not self._bump(p, to, a.bump, ev):
            self._rk_add(p, to, 1)
            self.moved[to] += 1
        self.phase = P_MOVING
        if not self._move_actions(p):
            self.moved = None
            self._after_action(ev)

    def _bump(self, p: int, to: int, bump: int | None, ev: list) -> bool:
        """A rocket of ``p`` (already taken off its square) ends its move on ``to``: if opponents' rockets are
        there, it and one of them (``bump``; every one under ``bump = "all"``) go back to their shipyards and
        True is returned; otherwise nothing happens and the caller lands the rocket."""
        victims = self.opponents_at(p, to) if to != STATION else []
        if not victims:
            return False
        rk = self.rk
        bump_all = self.cfg.bump_all
        if not bump_all:
            victims = [bump]
        removed = []
        for q in victims:
            k = rk[q * SQUARES + to] if bump_all else 1
            self._rk_add(q, to, -k)
            self.yard[q] += k
            removed.append(q)
        self.yard[p] += 1
        ev.append(RocketsBumped(p, to, tuple(removed)))
        return True

    def _discard(self, p: int, a: Discard, ev: list) -> None:
        cfg = self.cfg
        t = cfg.id_index[a.incident]
        hand = self.hands[p]
        for i, (tt, _) in enumerate(hand):
            if tt == t:
                del hand[i]
                break
        self.discarded.append(t)
        k = cfg.kinds[t]
        ph = self.phase
        if k == PIRATE:
            ev.append(IncidentDiscarded(p, a.incident, KINDS[k], self.cp))
            self.pirated = True
            self.queue = ()
            self.phase = P_ACTION
            return
        if k == METEOR:
            ev.append(IncidentDiscarded(p, a.incident, KINDS[k], self.cp))
            self.stormed = True
            self.queue = ()
            self.phase = P_ATTEMPT
            return
        ev.append(IncidentDiscarded(p, a.incident, KINDS[k], None))
        if k == ACQUISITION:
            self.yard[p] -= 1
            self._rk_add(p, STATION, 1)
            ev.append(RocketPlaced(p, None, STATION))
            return
        self.ret = ph
        if k == SABOTAGE:
            self.phase = P_SAB_TARGET
            return
        # Mineral Scan: look under your rockets, then up to N more tiles
        rk = self.rk
        base = p * SQUARES
        squares = tuple(s for s in range(SQUARES) if s != STATION and rk[base + s] and self.face_down(s))
        ev.append(Looked(p, squares, "scan"))
        for s in squares:
            self._see(p, s, ev)
        self.picks = squares
        self.scan_left = self.rockets_in_play(p)
        if self.scan_left > 0 and self._scan_candidates(p):
            self.phase = P_SCAN
        else:
            self._finish_scan(p, ev)

    def _finish_scan(self, p: int, ev: list) -> None:
        self.scan_left = 0
        base = p * SQUARES
        under = tuple(s for s in self.picks if self.rk[base + s])
        if under:
            self.picks = under
            self.phase = P_LOOKREV
        else:
            self.picks = ()
            self._resume(ev)

    def _resume(self, ev: list) -> None:
        r = self.ret
        self.ret = -1
        if r in (P_ACTION, P_ATTEMPT):
            self.phase = r
        elif r == R_AFTER_ACTION:
            self._after_action(ev)
        elif r == R_FAIL:
            self._fail_attempt("incident", ev)
        elif r == R_BID_FAIL:
            self._fail_attempt("incident in the bid-up", ev)
        elif r == P_REVEAL:
            self.phase = P_REVEAL
            if not self._reveal_squares(self.cp):
                self._fail_attempt("no tile left to reveal", ev)
        else:  # pragma: no cover
            raise AssertionError(f"bad return point {r}")

    def _resolve_incident(self, p: int, s: int, ev: list) -> None:
        """An incident tile on ``s`` is revealed by ``p``: rockets go to the station, then the incident."""
        cfg = self.cfg
        t = self.sq[s]
        k = cfg.kinds[t]
        ev.append(TileRevealed(p, s, cfg.ids[t], KINDS[k], 0))
        counts = tuple(self.rk[q * SQUARES + s] for q in range(self.num_players))
        if any(counts):
            for q in range(self.num_players):
                if counts[q]:
                    self._rk_add(q, STATION, counts[q])
                    self._rk_add(q, s, -counts[q])
            ev.append(RocketsToStation(s, counts))
        self._forget_square(s)
        if k == ALIEN:
            self.faceup |= BIT[s]
            self.aliens += 1
            ev.append(AlienEncounter(p, s, self.aliens))
            if self.aliens >= ALIENS_TO_END:
                self._game_over("the fifth Alien Encounter was revealed", ev)
                return
            self.phase = P_ALIEN_MOVE
            return
        self._remove_tile(s)
        self.hands[p].append((t, self.turn))
        ev.append(IncidentTaken(p, cfg.ids[t], KINDS[k]))
        self._resume(ev)

    def _to_steal(self, p: int, ev: list) -> None:
        if self._steal_options(p):
            self.phase = P_ALIEN_STEAL
        else:
            self._resume(ev)

    def _steal(self, p: int, item: str, ev: list) -> None:
        cfg = self.cfg
        if item in cfg.counter_index:
            b = cfg.counter_index[item]
            victim = self.holder[b]
            self.holder[b] = p if cfg.stolen_usable else -1
        else:
            t = cfg.id_index[item]
            victim = next(q for q in range(self.num_players) if any(tt == t for tt, _ in self.hands[q]))
            self.hands[victim] = [(tt, aq) for tt, aq in self.hands[victim] if tt != t]
            self.hands[p].append((t, self.turn))
        ev.append(Stolen(p, victim, item))

    def _after_action(self, ev: list) -> None:
        q = self._window(METEOR)
        if q:
            self.queue = q
            self.phase = P_METEOR
        else:
            self.phase = P_ATTEMPT

    def _window(self, kind: int) -> tuple[int, ...]:
        cfg = self.cfg
        if cfg.skip_empty and kind != -1 and not any(self.hands):
            return ()
        out = []
        for q in self.clockwise_from(self.cp):
            if not cfg.skip_empty:
                out.append(q)
                continue
            if kind == -1:
                if self._bid_counters(q):
                    out.append(q)
            elif any(cfg.kinds[t] == kind and self.usable(acq) for t, acq in self.hands[q]):
                out.append(q)
        return tuple(out)

    # --- contract attempts --------------------------------------------------------------------------
    def _reveal(self, p: int, s: int, ev: list) -> None:
        cfg = self.cfg
        t = self.sq[s]
        k = cfg.kinds[t]
        if k > OMNIDIUM:
            self.ret = R_FAIL if cfg.incident_ends else P_REVEAL
            self._resolve_incident(p, s, ev)
            return
        ev.append(TileRevealed(p, s, cfg.ids[t], KINDS[k], cfg.values[t]))
        self.att_mask |= BIT[s]
        c = cfg.contracts[self.att]
        got = [m for _, _, m in self.matched]
        if cm.fits(c.need, c.size, got, k):
            self.matched = self.matched + ((s, t, k),)
            if cm.complete(c.size, [m for _, _, m in self.matched]):
                self._fulfilled(ev)
            elif not self._reveal_squares(p):
                self._fail_attempt("no tile left to reveal", ev)
            return
        if cfg.overmatch_ignored and k < OMNIDIUM and c.need[k] > 0:
            self.extra = self.extra + (s,)
            if not self._reveal_squares(p):
                self._fail_attempt("no tile left to reveal", ev)
            return
        self.mismatch = s
        self.phase = P_REPLACE
        if not self._replace_options(p, s):
            self._fail_attempt("mismatch", ev)

    def _replace(self, p: int, a: Replace, ev: list) -> None:
        cfg = self.cfg
        b = cfg.counter_index[a.bribe]
        m = b % 5
        s = self.mismatch
        t = self.sq[s]
        self.spent |= 1 << b
        ev.append(BribeSpent(p, a.bribe, "replacement"))
        ev.append(MineralReplaced(p, s, a.bribe, MINERALS[m]))
        self.matched = self.matched + ((s, t, m),)
        self.mismatch = -1
        if self.phase == P_BID_REPLACE:
            self._collect(ev)
            return
        c = cfg.contracts[self.att]
        if cm.complete(c.size, [x for _, _, x in self.matched]):
            self._fulfilled(ev)
        else:
            self.phase = P_REVEAL
            if not self._reveal_squares(p):
                self._fail_attempt("no tile left to reveal", ev)

    def _fulfilled(self, ev: list) -> None:
        if self.cfg.bid_up and not self.bid_done:
            q = self._window(-1)
            if q:
                self.queue = q
                self.phase = P_BIDUP
                return
        self._collect(ev)

    def _bid_reveal(self, p: int, s: int, ev: list) -> None:
        cfg = self.cfg
        t = self.sq[s]
        k = cfg.kinds[t]
        if k > OMNIDIUM:
            self.ret = R_BID_FAIL
            self._resolve_incident(p, s, ev)
            return
        ev.append(TileRevealed(p, s, cfg.ids[t], KINDS[k], cfg.values[t]))
        self.att_mask |= BIT[s]
        if cm.bid_matches(self.bid % 5, k):
            self.matched = self.matched + ((s, t, k),)
            self._collect(ev)
            return
        self.mismatch = s
        self.phase = P_BID_REPLACE
        if not self._replace_options(p, s):
            self._fail_attempt("bid-up mismatch", ev)

    def _collect(self, ev: list) -> None:
        """The contract is fulfilled (after any bid-up): the fulfiller takes the tiles and the contract."""
        cfg = self.cfg
        p = self.cp
        if self.bid >= 0:
            self.spent |= 1 << self.bid
            ev.append(BribeSpent(self.holder[self.bid], cfg.counter_ids[self.bid], "bid-up"))
        c = cfg.contracts[self.att]
        self.cowner[self.att] = p
        points = 0
        for s, t, m in self.matched:
            counts = tuple(self.rk[q * SQUARES + s] for q in range(self.num_players))
            if any(counts):
                for q in range(self.num_players):
                    if counts[q]:
                        self._rk_add(q, STATION, counts[q])
                        self._rk_add(q, s, -counts[q])
                ev.append(RocketsToStation(s, counts))
            self.coll[p].append((t, m))
            points += cfg.values[t]
            self._remove_tile(s)
            self._forget_square(s)
        flipped = self.extra
        if cfg.revealed_known:
            for s in flipped:
                self.pub |= BIT[s]
        ev.append(ContractFulfilled(p, c.id, tuple(cfg.ids[t] for _, t, _ in self.matched), points))
        self._clear_attempt()
        if all(o >= 0 for o in self.cowner):
            self._game_over("the last contract was fulfilled", ev)
            return
        self._end_turn(ev)

    def _fail_attempt(self, reason: str, ev: list) -> None:
        cfg = self.cfg
        squares = [s for s, _, _ in self.matched] + list(self.extra)
        if self.mismatch >= 0:
            squares.append(self.mismatch)
        squares = sorted(squares)
        if cfg.revealed_known:
            for s in squares:
                self.pub |= BIT[s]
        ev.append(AttemptFailed(self.cp, cfg.contracts[self.att].id, reason, tuple(squares)))
        self._clear_attempt()
        self._end_turn(ev)

    def _clear_attempt(self) -> None:
        self.att = -1
        self.matched = ()
        self.extra = ()
        self.mismatch = -1
        self.att_mask = 0
        self.bid = -1
        self.bid_done = False
        self.queue = ()

    # --- turns and the end ----------------------------------------------------------------------------
    def free_tiles(self) -> int:
        """Tiles without rockets or the alien (face-down only, unless ``alien_tiles_count_for_end``)."""
        m = self.tiles & ~self.others_mask(-1)
        if not self.cfg.alien_tiles_count:
            m &= ~self.faceup
        if self.alien >= 0:
            m &= ~BIT[self.alien]
        return m.bit_count()

    def _end_turn(self, ev: list) -> None:
        self.picks = ()
        self.queue = ()
        if self.free_tiles() == 0:
            self._game_over("no tile is left without a rocket or the alien", ev)
            return
        if self.turn >= self.cfg.max_turns:
            self._game_over(f"the turn limit ({self.cfg.max_turns} turns) was reached", ev)
            return
        self.cp = (self.cp + 1) % self.num_players
        self.turn += 1
        self._start_turn(ev)

    def _start_turn(self, ev: list) -> None:
        self.pirated = False
        self.stormed = False
        ev.append(TurnStarted(self.cp, self.turn))
        q = self._window(PIRATE)
        if q:
            self.queue = q
            self.phase = P_PIRATE
        else:
            self.phase = P_ACTION

    def _game_over(self, reason: str, ev: list) -> None:
        if self.att >= 0:  # the game ended inside an attempt: its tiles flip back, nothing is scored
            if self.cfg.revealed_known:
                self.pub |= self.att_mask
            self._clear_attempt()
        self.phase = P_OVER
        self.reason = reason
        self.queue = ()
        self.picks = ()
        sc = self.scores()
        contracts = [sum(1 for o in self.cowner if o == p) for p in range(self.num_players)]
        unspent = [len(self.unspent_counters(p)) for p in range(self.num_players)]
        self.winners_ = scoring.winners(sc, contracts, unspent, self.cfg.full_tie)
        ev.append(GameEnded(reason, tuple(sc), self.winners_))

    # --- serialisation ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        cfg = self.cfg
        return {
            "game": "mining",
            "options": dict(cfg.options),
            "players": self.num_players,
            "components": cfg.comps.to_json(),
            "rng": self.rng.to_json(),
            "squares": list(self.sq),
            "faceup": self.faceup,
            "rockets": list(self.rk),
            "shipyards": list(self.yard),
            "alien": self.alien,
            "aliens": self.aliens,
            "looked": list(self.looked),
            "public": self.pub,
            "holders": list(self.holder),
            "spent": self.spent,
            "hands": [[list(x) for x in h] for h in self.hands],
            "discarded": list(self.discarded),
            "collected": [[list(x) for x in c] for c in self.coll],
            "contract_owners": list(self.cowner),
            "turn": self.turn,
            "current": self.cp,
            "first": self.first,
            "phase": PHASES[self.phase],
            "queue": list(self.queue),
            "pirated": self.pirated,
            "stormed": self.stormed,
            "moved": list(self.moved) if self.moved is not None else None,
            "picks": list(self.picks),
            "scan_left": self.scan_left,
            "ret": RETURNS[self.ret],
            "attempt": self.att,
            "matched": [list(x) for x in self.matched],
            "extra": list(self.extra),
            "mismatch": self.mismatch,
            "att_mask": self.att_mask,
            "bid": self.bid,
            "bid_done": self.bid_done,
            "sabotage_square": self.sab_sq,
            "reason": self.reason,
            "winners": list(self.winners_),
        }


def build(cfg: Config, d: dict, rng: Rng) -> MiningState:
    """A state from plain fields (the ``to_json`` layout without components/options/rng)."""
    s = MiningState.__new__(MiningState)
    s.cfg = cfg
    s.num_players = cfg.n
    s.rng = rng
    s.sq = list(d["squares"])
    s.faceup = d["faceup"]
    s.rk = list(d["rockets"])
    s.yard = list(d["shipyards"])
    s.alien = d["alien"]
    s.aliens = d["aliens"]
    s.looked = list(d["looked"])
    s.pub = d["public"]
    s.holder = list(d["holders"])
    s.spent = d["spent"]
    s.hands = [[(int(a), int(b)) for a, b in h] for h in d["hands"]]
    s.discarded = list(d["discarded"])
    s.coll = [[(int(a), int(b)) for a, b in c] for c in d["collected"]]
    s.cowner = list(d["contract_owners"])
    s.turn = d["turn"]
    s.cp = d["current"]
    s.first = d["first"]
    s.phase = PHASE_CODES[d["phase"]]
    s.queue = tuple(d["queue"])
    s.pirated = d["pirated"]
    s.stormed = d["stormed"]
    s.moved = list(d["moved"]) if d["moved"] is not None else None
    s.picks = tuple(d["picks"])
    s.scan_left = d["scan_left"]
    s.ret = RETURN_CODES[d["ret"]]
    s.att = d["attempt"]
    s.matched = tuple((a, b, c) for a, b, c in d["matched"])
    s.extra = tuple(d["extra"])
    s.mismatch = d["mismatch"]
    s.att_mask = d["att_mask"]
    s.bid = d["bid"]
    s.bid_done = d["bid_done"]
    s.sab_sq = d["sabotage_square"]
    s.reason = d["reason"]
    s.winners_ = tuple(d["winners"])
    s._legal = None
    s.occ = [0] * cfg.n
    for i, c in enumerate(s.rk):
        if c:
            s.occ[i // SQUARES] |= BIT[i % SQUARES]
    s.tiles = 0
    for sqr, t in enumerate(s.sq):
        if t >= 0:
            s.tiles |= BIT[sqr]
    return s


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
    state._start_turn(ev)
    return state, ev

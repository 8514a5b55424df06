"""Scripted mining bot: remembers the tiles it has seen (from its view), attempts a contract only when its
known tiles cover it, otherwise prospects or surveys for coverage, bribes and bids up when the odds are good,
and uses its incidents sensibly. It only ever picks from the legal actions it is given.

``ScriptedAgent(forget=p)`` is a weaker, more human bot: each turn it forgets each remembered square with
probability ``p`` (design note 3.1, "human-like difficulty"); it learns a square again when it looks at it again.
``ScriptedAgent(capacity=k)`` remembers only the k squares it saw most recently.
The engine's truth is untouched: forgetting only changes what the bot believes.

Expected coverage: the posterior over unseen tiles is uniform (design note 3.1), so every unknown square has
the same chance of holding a needed mineral; the bot therefore maximises the *number* of new squares it sees
(surveying the line with the most unknown eligible squares, spreading rockets onto unknown squares) and
prefers squares no opponent looked at (an opponent who looked and left probably found nothing useful).

This module owns the scripted bot (and its fixed-memory variant ``scripted-forgetful``); shared reasoning lives
in ``bots/heuristics.py`` and, for what a view tells, the rules-side ``knowledge.py``.
"""

from __future__ import annotations

from deltav.core.agent import Agent, Param
from deltav.core.protocol import Decision
from deltav.core.values import Action, Event
from deltav.games.mining import contracts as cm
from deltav.games.mining import knowledge as kn
from deltav.games.mining.bots import heuristics as h
from deltav.games.mining.messages import (
    BidUp,
    BuyRocket,
    Declare,
    Discard,
    EndLooks,
    EndMoves,
    Look,
    Move,
    MoveAlien,
    Pass,
    Prospect,
    Replace,
    Reveal,
    RevealIncident,
    Sabotage,
    SabotageMove,
    Steal,
    Survey,
)
from deltav.games.mining.scenarios import STATION
from deltav.games.mining.visibility import squares_of

STALL_TURNS = 6  # own turns without an attempt before the bot gambles on unknown tiles
INCIDENT_PRIORITY = {"rocket_acquisition": 5, "mineral_scan": 4, "meteor_storm": 3, "pirate_attack": 3,
                     "sabotage": 2, "alien_encounter": 1}


class ScriptedAgent(Agent):
    name = "scripted"
    #: the spec parameters (``bot:scripted:forget=0.3``) and their bounds
    PARAMS = {
        "forget": Param(float, 0.0, "the chance per turn of forgetting each remembered square", minimum=0.0,
                        maximum=1.0),
        "capacity": Param(int, None, "remember at most this many squares (none: every square seen)", minimum=0,
                          maximum=1000, allow_none=True),
        "strict": Param(bool, False, "re-raise a heuristic's error instead of falling back to a safe action (tests)"),
    }

    def __init__(self, forget: float = 0.0, capacity: int | None = None, strict: bool = False):
        self.forget = forget
        self.capacity = capacity  # remember at most this many squares (the most recently seen ones)
        self.order: list[int] = []  # squares in the order they were (re)learned
        self.idle = 0  # own turns in a row without a contract attempt
        self.strict = strict  # re-raise heuristic errors (tests) instead of falling back to a safe action
        self.forgotten: set[int] = set()
        self.turn_seen = -1
        self.relearn: set[int] = set()

    # --- memory ---------------------------------------------------------------------------------------
    def observe(self, player: int, events: list[Event]) -> None:
        for e in events:
            if e.TYPE in ("tile-seen", "tile-revealed"):
                self.relearn.add(e.square)
                if e.square in self.order:
                    self.order.remove(e.square)  # seen again: it becomes the most recent memory

    def _memory(self, d: Decision) -> dict[int, tuple[str, int]]:
        view = d.view
        if self.forget > 0 and view["turn"] != self.turn_seen:
            self.turn_seen = view["turn"]
            self.forgotten -= self.relearn
            self.relearn.clear()
            for s in sorted(kn.known_tiles(view, self.forgotten)):
                if d.rng.random() < self.forget:
                    self.forgotten.add(s)
        else:
            self.forgotten -= self.relearn
            self.relearn.clear()
        known = kn.known_tiles(view, self.forgotten)
        if self.capacity is not None:
            for s in self.order[:]:
                if s not in known:
                    self.order.remove(s)
            for s in sorted(known):
                if s not in self.order:
                    self.order.append(s)
            while len(self.order) > self.capacity:
                old = self.order.pop(0)
                self.forgotten.add(old)
                known.pop(old, None)
        return known

    # --- the decision ---------------------------------------------------------------------------------
    def act(self, d: Decision) -> Action:
        legal = d.legal_actions
        if len(legal) == 1:
            return legal[0]
        try:
            choice = self._choose(d)
        except Exception:  # never let a heuristic bug become an illegal action or a crash
            if self.strict:
                raise
            choice = None
        if choice is not None and choice in legal:
            return choice
        if Pass() in legal:
            return Pass()
        return legal[0]

    def _choose(self, d: Decision) -> Action | None:
        view = d.view
        me = d.player
        phase = view["phase"]
        legal = d.legal_actions
        known = self._memory(d)
        handler = getattr(self, "_" + phase.replace("-", "_"), None)
        if handler is None:
            return None
        return handler(d, view, me, legal, known)

    # --- helpers --------------------------------------------------------------------------------------
    def _plan(self, view, me, known, matched=None, contract=None, safe=True):
        """The best (value, contract id, squares) completable from known tiles, or None."""
        allowed = set(kn.face_down_squares(view)) - kn.blocked_for(view, me)
        best = None
        threats = {b["mineral"] for b in view["bribes"] if b["holder"] not in (me, -1) and not b["spent"]}
        if view["options"].get("omnidium_bid_up") == "not_allowed" or not view["options"].get("bid_up", True):
            threats.discard("omnidium")
        if not view["options"].get("bid_up", True):
            threats.clear()
        mine = {b["mineral"] for b in view["bribes"] if b["holder"] == me and not b["spent"]}
        for cid, need, size in h.contract_needs(view):
            if contract is not None and cid != contract:
                continue
            plan = kn.plan_contract(need, size, matched or [], known, allowed)
            if plan is None:
                continue
            if safe and not self._bid_safe(view, cid, plan, known, allowed, threats, mine):
                continue
            value = sum(known[s][1] for s in plan) + 0.1 * size
            if best is None or value > best[0]:
                best = (value, cid, plan)
        return best

    def _bid_safe(self, view, cid, plan, known, allowed, threats, mine) -> bool:
        """Could we answer any bid-up an opponent can make on this contract (a spare known tile or our own
        counter of that mineral)? A bidder risks nothing when we cannot, so such attempts only leak tiles."""
        minerals = set(next(c for c in view["contracts"] if c["id"] == cid)["minerals"]) | {"omnidium"}
        spare = {known[s][0] for s in allowed if s in known and s not in plan}
        for m in minerals & threats:
            if m in mine or m in spare or (m != "omnidium" and "omnidium" in spare):
                continue
            return False
        return True

    def _unknown_targets(self, view, me, known) -> list[int]:
        """Face-down squares the bot does not know and may move onto without bumping, best first."""
        blocked = kn.blocked_for(view, me)
        out = []
        for e in squares_of(view):
            s = e["square"]
            if e["status"] != "face_down" or s in known or s in blocked or e["rockets"][me]:
                continue
            out.append((len(e["looked_by"]), s))  # squares nobody looked at first
        out.sort()
        return [s for _, s in out]

    def _useful(self, view, kind: str) -> bool:
        return kind == "omnidium" or h.useful_minerals(view)[kind] > 0

    def _my_score_lead(self, view, me) -> float:
        scores = view["scores"]
        return scores[me] - max(s for q, s in enumerate(scores) if q != me)

    # --- phases ---------------------------------------------------------------------------------------
    def _pirate_window(self, d, view, me, legal, known):
        cp = view["current_player"]
        mine = [a for a in legal if isinstance(a, Discard)]
        if mine and (view["scores"][cp] >= view["scores"][me] or self._threat(view, cp) >= 3):
            return mine[0]
        return Pass()

    def _meteor_window(self, d, view, me, legal, known):
        cp = view["current_player"]
        mine = [a for a in legal if isinstance(a, Discard)]
        if mine and self._threat(view, cp) >= 2:
            return mine[0]
        return Pass()

    def _threat(self, view, p) -> int:
        """How many face-down squares player ``p`` has looked at (a proxy for what it can fulfil)."""
        return sum(1 for e in squares_of(view) if e["status"] == "face_down" and p in e["looked_by"])

    def _own_discard(self, view, me, legal, known, in_attempt: bool):
        hand = {x["id"]: x["kind"] for x in view["hands"][me]}
        for a in legal:
            if not isinstance(a, Discard):
                continue
            kind = hand.get(a.incident)
            if kind == "rocket_acquisition" and not in_attempt:
                return a
            if kind == "mineral_scan" and (in_attempt or len(self._unknown_targets(view, me, known)) > 3) \
                    and self._plan(view, me, known) is None:
                return a
            if kind == "sabotage" and self._pick_sabotage(view, me, [Sabotage(q, s) for q in range(view["players"])
                                                                       for s in range(49)]) is not None:
                return a
        return None

    def _action(self, d, view, me, legal, known):
        a = self._own_discard(view, me, legal, known, in_attempt=False)
        if a is not None:
            return a
        if view["pirated"]:
            return Pass()
        squares = squares_of(view)
        rockets = [e["rockets"][me] for e in squares]
        unknown_under = [e["square"] for e in squares if e["status"] == "face_down" and e["rockets"][me]
                         and e["square"] not in known]
        if unknown_under:
            return Prospect()
        move = self._next_move(view, me, legal, known)
        if move is not None:
            return move
        in_play = sum(rockets)
        if BuyRocket() in legal and in_play < 3:
            return BuyRocket()
        survey = self._survey_choice(d, view, me, legal, known)
        if survey is not None:
            return survey
        if BuyRocket() in legal:
            return BuyRocket()
        return Prospect()

    def _next_move(self, view, me, legal, known):
        moves = [a for a in legal if isinstance(a, Move)]
        if not moves:
            return None
        plan = self._plan(view, me, known)
        keep = set(plan[2]) if plan else set()
        # bring rockets home from squares whose tile is known and not needed
        for a in moves:
            if a.frm != STATION and a.to == STATION and a.frm not in keep:
                kind = known.get(a.frm, ("?", 0))[0]
                if a.frm in known and not (self._useful(view, kind) and known[a.frm][1] >= 3):
                    return a
        targets = self._unknown_targets(view, me, known)
        moved = view["moved"] or [0] * 49
        for s in targets:
            if moved[s]:
                continue
            a = Move(STATION, s)
            if a in legal:
                return a
        return None

    def _moving(self, d, view, me, legal, known):
        move = self._next_move(view, me, legal, known)
        return move if move is not None else EndMoves()

    def _survey_choice(self, d, view, me, legal, known):
        surveys = [a for a in legal if isinstance(a, Survey)]
        if len(surveys) < 4:  # keep most bribes for replacements and bid-ups
            return None
        demand = h.useful_minerals(view)
        surveys.sort(key=lambda a: demand[a.bribe.split("-", 1)[1]])
        return surveys[0]

    def _survey(self, d, view, me, legal, known):
        looks = [a for a in legal if isinstance(a, Look)]
        fresh = [a for a in looks if a.square not in known]
        if not fresh:
            return EndLooks() if EndLooks() in legal else (looks[0] if looks else None)
        if view["picks"]:
            return fresh[0]
        # first pick: the line with the most unknown eligible squares
        unknown = {a.square for a in fresh}

        def line_score(s):
            r, c = divmod(s, 7)
            return max(sum(1 for x in unknown if x // 7 == r), sum(1 for x in unknown if x % 7 == c))

        return max(fresh, key=lambda a: (line_score(a.square), -a.square))

    def _scan(self, d, view, me, legal, known):
        looks = [a for a in legal if isinstance(a, Look) and a.square not in known]
        if not looks:
            return EndLooks()
        order = {s: i for i, s in enumerate(self._unknown_targets(view, me, known))}
        looks.sort(key=lambda a: order.get(a.square, 99))
        return looks[0]

    def _reveal_choice(self, d, view, me, legal, known):
        best = None
        for a in legal:
            if not isinstance(a, RevealIncident):
                continue
            kind = known.get(a.square, ("?", 0))[0]
            if kind == "alien_encounter" and view["aliens_revealed"] >= 4 and self._my_score_lead(view, me) <= 0:
                continue  # revealing the fifth alien would end a game we are not winning
            pri = INCIDENT_PRIORITY.get(kind, 0)
            if kind == "alien_encounter" and view["aliens_revealed"] >= 4:
                pri = 10
            if best is None or pri > best[0]:
                best = (pri, a)
        return best[1] if best else Pass()

    def _alien_move(self, d, view, me, legal, known):
        best = None
        squares = squares_of(view)
        for a in legal:
            if not isinstance(a, MoveAlien):
                continue
            e = squares[a.square]
            theirs = sum(c for q, c in enumerate(e["rockets"]) if q != me)
            if e["rockets"][me]:
                continue
            if theirs and (best is None or theirs > best[0]):
                best = (theirs, a)
        return best[1] if best else Pass()

    def _alien_steal(self, d, view, me, legal, known):
        steals = [a for a in legal if isinstance(a, Steal)]
        kinds = {x["id"]: x["kind"] for hand in view["hands"] for x in hand}
        incident = [a for a in steals if a.item in kinds]
        if incident:
            return max(incident, key=lambda a: INCIDENT_PRIORITY.get(kinds[a.item], 0))
        scores = view["scores"]
        holders = {b["id"]: b["holder"] for b in view["bribes"]}
        if steals:
            return max(steals, key=lambda a: (scores[holders[a.item]], a.item))
        return Pass()

    def _pick_sabotage(self, view, me, legal):
        best = None
        squares = squares_of(view)
        for a in legal:
            if not isinstance(a, Sabotage) or a.victim == me:
                continue
            e = squares[a.square]
            if not e["rockets"][a.victim] or a.square == STATION:
                continue
            score = (a.victim in e["looked_by"], view["scores"][a.victim])
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best else None

    def _sabotage_target(self, d, view, me, legal, known):
        return self._pick_sabotage(view, me, legal) or legal[0]

    def _sabotage_move(self, d, view, me, legal, known):
        s = view["sabotage_square"]
        if s is None or s == STATION:
            return Pass()
        useful = s not in known or self._useful(view, known[s][0])
        if useful and SabotageMove(STATION) in legal:
            return SabotageMove(STATION)
        return Pass()

    def _attempt(self, d, view, me, legal, known):
        a = self._own_discard(view, me, legal, known, in_attempt=True)
        if a is not None:
            return a
        forced = Pass() not in legal  # the attempt is mandatory (the rulebook default)
        plan = self._plan(view, me, known)
        if plan is None and (forced or d.rng.random() < 0.3):
            plan = self._plan(view, me, known, safe=False)  # a gamble now and then keeps the game moving
        if plan is not None and Declare(plan[1]) in legal:
            self.idle = 0
            return Declare(plan[1])
        declares = [a for a in legal if isinstance(a, Declare)]
        if declares and self._ending_square(view, me, known) is not None:
            return declares[0]  # leading: reveal the fifth alien to end the game
        self.idle += 1
        if declares and self.idle > STALL_TURNS:
            self.idle = 0  # nothing known works for a long time: gamble on the contract closest to complete
            return max(declares, key=lambda a: self._closeness(view, me, known, a.contract))
        if not forced:
            return Pass()
        # a mandatory attempt with nothing known to complete: fail at no cost on a tile everybody already knows
        # (the next best thing to a pass), else gamble on the contract closest to complete
        for a in declares:
            if self._public_mismatch(view, me, a.contract) is not None:
                return a
        return max(declares, key=lambda a: self._closeness(view, me, known, a.contract)) if declares else None

    def _public_mismatch(self, view, me, cid) -> int | None:
        """A revealable face-down square whose tile every player knows (flipped back after an attempt, or looked
        at by every opponent and by us) and that does not fit contract ``cid``: revealing it ends a forced
        attempt and tells nobody anything."""
        c = next(c for c in view["contracts"] if c["id"] == cid)
        blocked = kn.blocked_for(view, me)
        others = set(range(view["players"])) - {me}
        for e in squares_of(view):
            if e["status"] != "face_down" or e["tile"] is None or e["square"] in blocked:
                continue
            if not e["public"] and not others <= set(e["looked_by"]):
                continue
            kind = e["tile"]["kind"]
            if kind in kn.MINERAL_INDEX and kind != "omnidium" and kind not in c["minerals"]:
                return e["square"]
        return None

    def _closeness(self, view, me, known, cid) -> tuple:
        """(known tiles usable for this contract minus its size, -size): higher is closer to complete."""
        c = next(c for c in view["contracts"] if c["id"] == cid)
        idx = [kn.MINERAL_INDEX[m] for m in c["minerals"]]
        need = tuple(idx.count(m) for m in range(4))
        allowed = set(kn.face_down_squares(view)) - kn.blocked_for(view, me)
        got: list[int] = []
        for s in sorted(allowed):
            if s in known and known[s][0] in kn.MINERAL_INDEX:
                m = kn.MINERAL_INDEX[known[s][0]]
                if cm.fits(need, len(idx), got, m):
                    got.append(m)
        return (len(got) - len(idx), -len(idx))

    def _attempt_state(self, view):
        att = view["attempt"]
        contract = next(c for c in view["contracts"] if c["id"] == att["contract"])
        idx = [kn.MINERAL_INDEX[m] for m in contract["minerals"]]
        need = tuple(idx.count(m) for m in range(4))
        matched = [kn.MINERAL_INDEX[m["counted_as"]] for m in att["matched"]]
        return contract, need, len(idx), matched

    def _ending_square(self, view, me, known):
        """A known, revealable fifth Alien Encounter while we lead: revealing it ends the game in our favour."""
        if view["aliens_revealed"] != 4 or self._my_score_lead(view, me) <= 0:
            return None
        blocked = kn.blocked_for(view, me)
        for s, (kind, _) in sorted(known.items()):
            if kind == "alien_encounter" and s not in blocked:
                return s
        return None

    def _reveal(self, d, view, me, legal, known):
        reveals = [a for a in legal if isinstance(a, Reveal)]
        end = self._ending_square(view, me, known)
        if end is not None and Reveal(end) in legal:
            return Reveal(end)
        contract, need, size, matched = self._attempt_state(view)
        allowed = {a.square for a in reveals}
        plan = kn.plan_contract(need, size, matched, known, allowed)
        if plan:
            return Reveal(plan[0])
        if not matched and view["options"].get("mandatory_contract_attempt", True):
            # a forced attempt with no plan: end it on a tile everybody knows, if there is one
            s = self._public_mismatch(view, me, contract["id"])
            if s is not None and Reveal(s) in reveals:
                return Reveal(s)
        # no complete plan: reveal a known fitting tile, else gamble on an unknown square
        for a in sorted(reveals, key=lambda a: -known.get(a.square, ("", 0))[1]):
            if a.square in known and known[a.square][0] in kn.MINERAL_INDEX and \
                    cm.fits(need, size, matched, kn.MINERAL_INDEX[known[a.square][0]]):
                return a
        # a blind reveal: every unknown square is as likely to fit, so prefer one the opponents already looked
        # at (a mismatch there, flipped back, tells them least)
        unknown = [a for a in reveals if a.square not in known]
        if not unknown:
            return reveals[0]
        seen_by = {e["square"]: sum(1 for q in e["looked_by"] if q != me) for e in squares_of(view)}
        return max(unknown, key=lambda a: (seen_by[a.square], -a.square))

    def _replace(self, d, view, me, legal, known):
        replaces = [a for a in legal if isinstance(a, Replace)]
        if not replaces:
            return Pass()
        contract, need, size, matched = self._attempt_state(view)
        allowed = set(kn.face_down_squares(view)) - kn.blocked_for(view, me)
        tile_value = view["tiles"][view["attempt"]["mismatch"]]["value"]
        for a in sorted(replaces, key=lambda a: a.bribe.endswith("omnidium")):
            m = kn.MINERAL_INDEX[a.bribe.split("-", 1)[1]]
            after = matched + [m]
            if cm.complete(size, after) or kn.plan_contract(need, size, after, known, allowed) is not None:
                gain = tile_value + sum(view["tiles"][x["square"]]["value"] for x in view["attempt"]["matched"])
                if gain > 2:
                    return a
        return Pass()

    def _bid_up_window(self, d, view, me, legal, known):
        bids = [a for a in legal if isinstance(a, BidUp)]
        if not bids:
            return Pass()
        att = view["attempt"]
        cp = view["current_player"]
        value = sum(view["tiles"][m["square"]]["value"] for m in att["matched"])
        unseen = kn.unseen_mix(view, known)
        unknown_count = len([s for s in kn.face_down_squares(view) if s not in known])
        best = None
        for a in bids:
            mineral = a.bribe.split("-", 1)[1]
            if any(b["holder"] == cp and not b["spent"] and b["mineral"] == mineral for b in view["bribes"]):
                continue  # the fulfiller could answer with its own counter
            fulfiller_known = [s for s, (k, _) in known.items() if k in (mineral, "omnidium")
                               and s in view["looked"][cp]]
            if fulfiller_known:
                continue
            if mineral == "omnidium":
                p_hit = unseen["omnidium"] / unknown_count if unknown_count else 0.0
            else:
                p_hit = h.match_probability(unseen, unknown_count, [mineral])
            # the fulfiller usually knows a few squares we do not: be conservative
            p_hit = min(1.0, p_hit * 1.5)
            ev = (1 - p_hit) * value - p_hit * 2
            if ev > 2 and (best is None or ev > best[0]):
                best = (ev, a)
        return best[1] if best else Pass()

    def _bid_up_reveal(self, d, view, me, legal, known):
        reveals = [a for a in legal if isinstance(a, Reveal)]
        mineral = view["attempt"]["bid"]["bribe"].split("-", 1)[1]
        for a in reveals:
            if known.get(a.square, ("", 0))[0] == mineral:
                return a
        for a in reveals:
            if known.get(a.square, ("", 0))[0] == "omnidium":
                return a
        unknown = [a for a in reveals if a.square not in known]
        return unknown[0] if unknown else reveals[0]

    def _bid_up_replace(self, d, view, me, legal, known):
        replaces = [a for a in legal if isinstance(a, Replace)]
        att = view["attempt"]
        value = sum(view["tiles"][m["square"]]["value"] for m in att["matched"])
        return replaces[0] if replaces and value > 2 else Pass()


class ForgetfulAgent(ScriptedAgent):
    """The scripted bot that forgets each remembered square with probability 0.15 per turn."""

    name = "scripted-forgetful"
    PARAMS: dict = {}  # the scripted bot forgetting 0.15 per turn, nothing to set

    def __init__(self) -> None:
        super().__init__(forget=0.15)

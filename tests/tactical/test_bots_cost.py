"""The hard tactical bot's cost cuts of issue 30 change no decision: launches whose flight meets no enemy are
skipped before our ships' courses are worked out (``tactics.meets_enemy``), ``attack_plan`` asks each ship's
targets once, the enemy records already read at a stamp are skipped (``LevelBot._remember``), and previews are
built without the frozen dataclass's ``__init__``; each checked against the plain computation it replaces, in
real matches."""

from __future__ import annotations

from deltav.core.agent import Agent
from deltav.core.frozen import Frozen
from deltav.core.match import play_match
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.tactical import visibility
from deltav.games.tactical.bots import heuristics, intercept, routes
from deltav.games.tactical.bots.level_bot import LevelBot, tactics_key
from deltav.games.tactical.bots.tactics import Tactics, enemy_hexes, launch_value, meets_enemy
from deltav.games.tactical.combat import VELOCITY_FREE
from deltav.games.tactical.combat_phase import _free_attackers, ship_targets
from deltav.games.tactical.courses import course_for
from deltav.games.tactical.messages import Launch, Order
from deltav.games.tactical.movement import CRASH, LANDING, compute_course
from deltav.games.tactical.ordnance_tables import launch_velocity
from deltav.games.tactical.preview import CoursePreview, _preview

from .helpers import GAME


def _all_launches(world, d: Decision):
    """The launch of the best value over every legal launch (the evaluation before the enemy filter)."""
    launches = [a for a in d.legal_actions if isinstance(a, Launch)]
    if not launches:
        return None
    own_paths = {}
    for s in world.ships:
        if s.owner == d.player and not s.destroyed:
            c = course_for(world, s, world.orders.get(s.id) or Order(s.id))
            own_paths[s.id] = (tuple(c.contact), c.destination)
    best = None
    for a in launches:
        sh = world.ship(a.ship)
        v = launch_value(world, d.player, sh, a.kind, launch_velocity(sh.vel, a.boost_dir, a.boost), own_paths)
        if v > 1.0 and (best is None or v > best[0]):
            best = (v, a)
    return None if best is None else best[1]


def _plain_attack_plan(world, player, nearest):
    """heuristics.attack_plan as it was: every free ship's targets asked again for every target."""
    cs = world.combat
    group = tuple(cs.group) if cs is not None else ()
    free = _free_attackers(world)
    if group:
        targets = ship_targets(world, group)
    else:
        seen: dict = {}
        for sh in free:
            for t in ship_targets(world, (sh.id,)):
                seen.setdefault(t.id, t)
        targets = list(seen.values())
    best = None
    for t in targets:
        ids = group + tuple(sh.id for sh in free if sh.id not in group and t in ship_targets(world, (sh.id,)))
        for sub in (heuristics.attack_groups(world, group, ids, t) if nearest else (ids,)):
            gain, loss = heuristics.attack_value(world, [world.ship(x) for x in sub], t, split=True)
            v = gain - loss
            if gain > 0 and gain >= 0.9 * loss and (best is None or v > best[0] or (v == best[0] and t.id < best[1])):
                best = (v, t.id, sub)
    return None if best is None else (best[1], best[2])


class Checker(Agent):
    """Plays the hard bot; at every ordnance and combat decision asks the plain computations the same question
    on the same world (a clone of the rng) and counts where they disagree."""

    def __init__(self):
        self.bot = LevelBot("hard", strict=True)
        self.name = "checker"
        self.launch_phases = self.skipped = self.launches = self.attacks = self.differ = 0

    def act(self, d: Decision):
        phase = d.view.get("phase")
        if phase in ("ordnance", "combat"):
            world = d.sample_world(d.rng.clone())
            if phase == "ordnance" and any(isinstance(a, Launch) for a in d.legal_actions):
                self.launch_phases += 1
                for a in d.legal_actions:
                    if isinstance(a, Launch):
                        sh = world.ship(a.ship)
                        vel = launch_velocity(sh.vel, a.boost_dir, a.boost)
                        met = meets_enemy(world, d.player, sh, a.kind, vel)
                        # the set of the enemies' hexes asked once per decision answers as every ship asked
                        assert met == meets_enemy(world, d.player, sh, a.kind, vel,
                                                  enemy_hexes(world, d.player, a.kind))
                        if not met:
                            self.skipped += 1
                mine = LevelBot("hard", strict=True)._exact_launch(
                    Decision(d.game, d.player, d.view, d.legal_actions, d.rng.clone(), d.options))
                plain = _all_launches(world, d)
                self.launches += plain is not None
                self.differ += mine != plain
            elif phase == "combat" and world.combat is not None and not world.combat.allocated:
                for nearest in (False, True):
                    plan = heuristics.attack_plan(world, d.player, nearest)
                    self.attacks += plan is not None
                    self.differ += plan != _plain_attack_plan(world, d.player, nearest)
        return self.bot.act(d)


def test_skipped_launches_and_attack_plans_decide_as_the_plain_evaluation():
    seats = []
    for scenario, seed, limit in (("duel", 3, 12), ("fleet_action", 1, 8), ("interplanetary_war", 2, 8)):
        pair = [Checker(), Checker()]
        play_match(GAME, {"scenario": scenario, "turn_limit": limit}, seed, pair)
        seats += pair
    assert sum(s.launch_phases for s in seats) >= 20
    assert sum(s.skipped for s in seats) >= 100  # the filter had work to do
    assert sum(s.launches for s in seats) >= 5  # and launches worth taking were found through it
    assert sum(s.attacks for s in seats) >= 5
    assert sum(s.differ for s in seats) == 0


def test_a_launch_whose_flight_meets_no_enemy_is_worth_at_most_0():
    checked = 0

    class Values(Agent):
        name = "values"

        def __init__(self):
            self.bot = LevelBot("hard", strict=True)

        def act(self, d: Decision):
            nonlocal checked
            if d.view.get("phase") == "ordnance":
                world = d.sample_world(d.rng.clone())
                own = {}
                for s in world.ships:
                    if s.owner == d.player and not s.destroyed:
                        c = course_for(world, s, world.orders.get(s.id) or Order(s.id))
                        own[s.id] = (tuple(c.contact), c.destination)
                for a in d.legal_actions:
                    if isinstance(a, Launch):
                        sh = world.ship(a.ship)
                        vel = launch_velocity(sh.vel, a.boost_dir, a.boost)
                        if not meets_enemy(world, d.player, sh, a.kind, vel):
                            assert launch_value(world, d.player, sh, a.kind, vel, own) <= 0.0
                            checked += 1
            return self.bot.act(d)

    play_match(GAME, {"scenario": "fleet_action", "turn_limit": 6}, 4, [Values(), Values()])
    assert checked >= 50


def _view(stamp_turn, position):
    rec = Frozen(id="e1", owner=1, position=position, velocity=(1, 0), pending_gravity=(), fuel=5, type="frigate",
                 disabled=0, landed=False, passengers=0, hidden_identity=False, destroyed=False)
    return {"phase": "astrogation", "turn": stamp_turn, "active_player": 0, "ships": [rec]}


def test_remember_reads_a_changed_enemy_record_within_the_same_player_turn():
    bot = LevelBot("hard")
    first = _view(3, (1, 2))
    bot._remember(first, 0)
    assert bot.seen["e1"][1] == (1, 2)
    bot._remember(first, 0)  # the same record again: kept as read
    assert bot.seen["e1"][1] == (1, 2)
    bot._remember(_view(3, (4, 5)), 0)  # a new record at the same stamp (the ship moved): read again
    assert bot.seen["e1"][1] == (4, 5)
    again = _view(4, (4, 5))
    bot._remember(again, 0)
    assert bot.seen["e1"][0] == (4, 0)
    gone = _view(4, (4, 5))
    gone["ships"] = [Frozen({**gone["ships"][0], "destroyed": True})]
    bot._remember(gone, 0)
    assert "e1" not in bot.seen
    bot._remember(again, 0)  # the earlier record after the destroyed one: read again, as without the skip
    assert bot.seen["e1"][1] == (4, 5)
    plain = {**again, "ships": [dict(again["ships"][0], position=(7, 7))]}  # a plain dict: always read
    bot._remember(plain, 0)
    bot._remember({**plain, "ships": [dict(plain["ships"][0], position=(8, 8))]}, 0)
    assert bot.seen["e1"][1] == (8, 8)


def test_previews_built_directly_equal_the_dataclass():
    base = ("s1", ((0, 0), (1, 0)), ((0, 0), (1, 0)), (1, 0), (1, 0), 1, 5, (), (), "normal", None, None, False,
            False, None)
    for outcome in ("normal", CRASH, LANDING):
        for off, escapes in ((False, False), (True, False), (True, True)):
            values = list(base)
            values[9], values[12], values[13] = outcome, off, escapes
            a, b = CoursePreview(*values), _preview(*values)
            assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
            assert (a.lands, a.crashes) == (b.lands, b.crashes)
            assert a.lands == (outcome == LANDING)
            assert a.crashes == (outcome == CRASH or (off and not escapes))


def test_torpedo_hexes_warm_equal_a_cold_union_of_every_boost():
    from deltav.games.tactical import ordnance_tables as ot
    from deltav.games.tactical.bots import tactics
    from deltav.games.tactical.mapdata import default_map

    gmap = default_map()
    cases = [((q, r), (vq, vr)) for q in (-9, -2, 0, 5) for r in (-6, 0, 3) for vq in (-2, 0, 1) for vr in (-1, 0, 2)]
    warm = [tactics.torpedo_hexes(gmap, p, v) for p, v in cases]
    tactics._MEMOS.clear()
    for (p, v), got in zip(cases, warm):
        cold = set()
        for d, k in ot.torpedo_boost_options():
            cold.update(tactics.flight(gmap, p, ot.launch_velocity(v, d, k)))
        assert got == frozenset(cold) == tactics.torpedo_hexes(gmap, p, v)


def test_shot_chance_with_inlined_distances_and_memoised_sight_equals_the_plain_one():
    from deltav.games.tactical import combat as cb
    from deltav.games.tactical.bots import intercept
    from deltav.games.tactical.mapdata import default_map
    from deltav.games.tactical.movement import compute_course

    def dist(a, b):
        q, r = a[0] - b[0], a[1] - b[1]
        return max(abs(q), abs(r), abs(q + r))

    def plain(gmap, path, pos, vel, column, target, target_vel):
        best = None
        origin = pos
        for h in path or (pos,):
            d = dist(h, target)
            if best is None or d < best:
                best, origin = d, h
        pen = best + max(0, dist(vel, target_vel) - cb.VELOCITY_FREE)
        if pen >= 8:
            return 0.0
        p = intercept._hit_table(column)[pen]
        if p <= 0.0 or (best > 0 and not cb.line_of_sight(origin, target, gmap.surface.__contains__)):
            return 0.0
        return p

    gmap = default_map()
    checked = hits = 0
    for start in ((-6, 4), (0, -3), (3, 2), (-2, -1)):
        for vel in ((0, 0), (2, -1), (-1, 2), (3, 0)):
            for burn in (None, 0, 2, 4):
                c = compute_course(gmap, start, vel, 5, (), False, False, burn)
                for target in ((0, 0), (-4, 3), (2, 2), (5, -4), tuple(c.destination)):
                    for tvel in ((0, 0), (1, 1), (-2, 0)):
                        for column in (1, 3, 5):
                            args = (gmap, tuple(c.contact), c.destination, c.velocity, column, target, tvel)
                            got = intercept.shot_chance(*args)
                            assert got == plain(*args)
                            checked += 1
                            hits += got > 0
    assert checked > 2000 and hits > 100


# --- third pass (2026-12-08): what one phase's decisions share ---------------------------------------------------


class Fresh(LevelBot):
    """The hard bot with nothing kept between decisions: a new ``Tactics`` every decision, no ``attack_plan``
    memo, every view read whole (the plain computation the phase caches replace)."""

    def _tactics_of(self, d, world):
        return Tactics(world, d.player)

    def _combat_memo(self, d):
        return None

    def act(self, d):
        visibility._LAST[0] = None
        return super().act(d)


class StaleTactics(LevelBot):
    """A deliberately stale cache: the first ``Tactics`` of the game kept for good, whoever moved since."""

    def _tactics_of(self, d, world):
        if self._tac is None:
            self._tac = (None, Tactics(world, d.player))
        return self._tac[1]


class StaleCombat(LevelBot):
    """A deliberately stale cache: one ``attack_plan`` memo for the whole game, whatever moved or was hit."""

    def _combat_memo(self, d):
        if self._attack_memo is None:
            self._attack_memo = (None, {})
        return self._attack_memo[1]


class Pair(Agent):
    """Plays ``bot``; at every decision also asks ``plain`` (its own copy of the rng, a copy of the view read
    whole) and counts the decisions where they disagree, and the decisions whose world ``bot`` made from the last
    one read (``visibility._reread``), each checked to be the state that reading the whole view gives."""

    name = "pair"

    def __init__(self, bot, plain):
        self.bot, self.plain = bot, plain
        self.decisions = self.differ = self.reread = 0

    def act(self, d: Decision):
        self.decisions += 1
        prev = visibility._LAST[0]
        rng = d.rng.clone()
        a = self.bot.act(d)
        mine = visibility._WORLDS.get(id(d.view))
        view = dict(d.view)  # another object: read whole by the plain bot
        visibility._WORLDS.clear()
        b = self.plain.act(Decision(d.game, d.player, view, d.legal_actions, rng, d.options))
        self.differ += a != b
        if mine is not None and prev is not None and mine.base.ships is prev.base.ships:
            self.reread += 1
            whole = visibility._WORLDS[id(view)]
            assert mine.base.to_json() == whole.base.to_json()
        return a


def _pairs(bot_cls, plain_cls, games=(("fleet_action", 1, 20), ("fleet_action", 2, 20), ("fleet_action", 3, 20),
                                       ("interplanetary_war", 1, 20), ("interplanetary_war", 2, 20)), strict=True):
    seats = []
    for scenario, seed, limit in games:
        pair = [Pair(bot_cls("hard", strict=strict), plain_cls("hard", strict=True)) for _ in range(2)]
        play_match(GAME, {"scenario": scenario, "turn_limit": limit}, seed, pair)
        seats += pair
    return seats


def test_the_phase_caches_decide_as_the_fresh_computation():
    """The Tactics kept over a phase (``LevelBot._tactics_of``), the attack memo kept until a shot
    (``ScriptedBot._combat_memo``), and the worlds made from the last view read (``visibility._reread``): every
    decision of real fleet battles the same as with nothing kept, each reread world the state of a whole read."""
    seats = _pairs(LevelBot, Fresh)
    assert sum(s.decisions for s in seats) >= 900
    assert sum(s.reread for s in seats) >= 350
    assert sum(s.differ for s in seats) == 0


def test_a_stale_cache_decides_differently():
    """The check above finds a cache that outlives what it read: a Tactics or an attack memo kept for the whole
    game."""
    assert sum(s.differ for s in _pairs(StaleTactics, Fresh, strict=False)) > 0
    assert sum(s.differ for s in _pairs(StaleCombat, Fresh, strict=False)) > 0  # (or names a ship now gone)


def test_tactics_key_and_the_attack_memo_follow_what_the_view_says():
    st = GAME.new_initial_state({"scenario": "duel", "fog_of_war": False}, 1)
    view = st.view(st.active_player)
    p = st.active_player
    key = tactics_key(view, p)
    assert tactics_key(st.view(p), p) == key  # a new view of the same position
    enemy = next(sh for sh in st.ships if sh.owner != p)
    enemy.pos = (enemy.pos[0] + 1, enemy.pos[1])
    assert tactics_key(st.view(p), p) != key  # an enemy moved
    mine = next(sh for sh in st.ships if sh.owner == p)
    enemy.pos = (enemy.pos[0] - 1, enemy.pos[1])
    assert tactics_key(st.view(p), p) == key
    mine.pos = (mine.pos[0] + 1, mine.pos[1])
    assert tactics_key(st.view(p), p) == key  # our own ships enter Tactics only as arguments
    bot = LevelBot("hard")
    d = Decision(GAME, p, st.view(p), [], Rng(1), {})
    memo = bot._combat_memo(d)
    assert bot._combat_memo(Decision(GAME, p, st.view(p), [], Rng(1), {})) is memo
    mine.disabled = 1  # damage: every value may change
    assert bot._combat_memo(Decision(GAME, p, st.view(p), [], Rng(1), {})) is not memo


def test_reread_worlds_only_where_the_views_differ_in_orders_or_combat():
    st = GAME.new_initial_state({"scenario": "duel", "fog_of_war": False}, 1)
    p = st.active_player
    first = st.view(p)
    visibility._LAST[0] = None
    GAME.determinize(first, p, Rng(1))
    prev = visibility._LAST[0]
    assert visibility._reread(prev, {**first}, p) is not None  # the same view again
    assert visibility._reread(prev, {**first}, 1 - p) is None  # another player's
    sid = next(sh.id for sh in st.ships if sh.owner == p)
    changed = {**first, "orders": {sid: {"ship": sid, "burn": 2, "overload": None, "land": False, "weak": []}}}
    w = visibility._reread(prev, changed, p)
    assert w is not None and w.base.orders[sid] == Order(sid, 2)
    assert w.base.ships is prev.base.ships
    moved = {**first, "ships": [dict(r) for r in first["ships"]]}
    moved["ships"][0]["position"] = [9, 9]
    assert visibility._reread(prev, moved, p) is None  # a ship differs: read whole
    assert visibility._reread(prev, {**first, "turn": first["turn"] + 1}, p) is None
    assert visibility._reread(prev, first, p) is None  # the very view read last: the cache by identity's
    first["turn"] += 1  # the view read last, changed in place after it was read: never a source again
    assert visibility._reread(prev, {**first}, p) is None


def _intercept_plain(gmap, pos, vel, pending, fuel, can_overload, column, targets, horizon, beam, destroyed_bases,
               grazing, hazard_cost, ram_ok):
    """intercept._intercept's beam as first written: every child checked for safety (``safe``) as it is met."""
    best_first: dict = {}
    moves = intercept._moves_table(gmap, destroyed_bases, grazing)
    # frontier entries: (rank, pos, vel, pending, fuel, miss, value, first, hazard cost so far)
    frontier = [(0.0, pos, vel, pending, fuel, 1.0, 0.0, None, 0.0)]
    steps = min(horizon, len(targets))
    table = intercept._hit_table(column)
    for k in range(steps):
        tpos, tvel = targets[k]
        nxt_target = targets[k + 1] if k + 1 < len(targets) else None
        if nxt_target is not None:
            (nq, nr), (nvq, nvr) = nxt_target
        disc = intercept.DISCOUNT ** k
        disc_next = intercept.DISCOUNT ** (k + 1)
        nxt: dict = {}
        for _rank, p, v, pend, f, miss, _val, first, hzc in frontier:
            over = k == 0 and can_overload and (f is None or f >= 2)
            fk = f if f is None or f < 2 else 2
            mkey = (p, v, pend, fk, over)
            children = moves.get(mkey)
            if children is None:
                children = moves[mkey] = intercept._moves(gmap, p, v, pend, fk, over, destroyed_bases, grazing)
            for b, o, cdest, cvel, cpend, spent, contact, _hz in children:
                if not ram_ok and cdest == tpos:
                    continue
                nf = None if f is None else f - spent
                if not routes.safe(gmap, cdest, cvel, cpend, nf, 3, destroyed_bases, grazing):
                    continue
                ph = intercept.shot_chance(gmap, contact, cdest, cvel, column, tpos, tvel) * disc
                nmiss = miss * (1.0 - ph)
                nhzc = hzc
                if hazard_cost:
                    hz = routes.hazard_weight(routes.hazard_count(gmap, p, cdest))
                    if hz:
                        nhzc += hazard_cost * hz * disc
                nval = 1.0 - nmiss - nhzc
                fm = first if first is not None else (b, o)
                if nval > best_first.get(fm, -1.0):
                    best_first[fm] = nval
                # potential: how well placed for the next shot (drift hex against the quarry's next hex)
                rank = nval
                if nxt_target is not None:
                    # gap = max(0, dist(drift, quarry's next hex) - 1) + max(0, dist(velocities) - free - 1),
                    # the distances inlined
                    q = cdest[0] + cvel[0] - nq
                    r = cdest[1] + cvel[1] - nr
                    d = q + r
                    if d < 0:
                        d = -d
                    if q < 0:
                        q = -q
                    if r < 0:
                        r = -r
                    if q > d:
                        d = q
                    if r > d:
                        d = r
                    gap = d - 1 if d > 1 else 0
                    q = cvel[0] - nvq
                    r = cvel[1] - nvr
                    d = q + r
                    if d < 0:
                        d = -d
                    if q < 0:
                        q = -q
                    if r < 0:
                        r = -r
                    if q > d:
                        d = q
                    if r > d:
                        d = r
                    d -= VELOCITY_FREE + 1
                    if d > 0:
                        gap += d
                    pen = gap if gap < 7 else 7
                    rank += nmiss * disc_next * table[pen] - 0.01 * gap
                key = (cdest, cvel, cpend)
                old = nxt.get(key)
                if old is not None and old[0] >= rank:
                    continue
                nxt[key] = (rank, cdest, cvel, cpend, nf, nmiss, nval, fm, nhzc)
        if not nxt:
            break
        frontier = sorted(nxt.values(), key=lambda x: (-x[0], x[1], x[2], str(x[7])))[:beam]
    return tuple(sorted(best_first.items(), key=lambda kv: str(kv[0])))


def test_the_lazy_intercept_beam_equals_the_plain_one_in_real_chases():
    """intercept._intercept checks a child's safety only where it can change the answer: on every intercept the
    hard bot asked in real chases (Escape, Blockade, Convoy), and with narrower and wider beams (where the cut and
    its ties bite), its answer is the plain beam's."""
    asked = []
    lazy = intercept._intercept

    def record(*args):
        asked.append(args)
        return lazy(*args)

    intercept._intercept = record
    try:
        for scenario, seed, limit in (("escape", 1, 8), ("blockade", 2, 4), ("convoy", 3, 4)):
            play_match(GAME, {"scenario": scenario, "turn_limit": limit}, seed,
                       [LevelBot("hard", strict=True), LevelBot("hard", strict=True)])
    finally:
        intercept._intercept = lazy
    asked = list(dict.fromkeys(asked))
    assert len(asked) >= 8
    compared = 0
    for args in asked:
        for beam in (args[9], 1, 4, 12, 200):
            a = args[:9] + (beam,) + args[10:]
            got = lazy.__wrapped__(*a)
            assert got == _intercept_plain(*a)
            compared += bool(got)
    assert compared >= 20


def test_nearest_distance_memo_of_large_goal_sets_is_never_stale():
    """routes.nearest_distance memoises large immutable goal sets per object: its answers are the plain minimum,
    a goal set built anew in the same memory (the same id, other hexes) is not answered from the old one's memo,
    and a mutable goal set is never memoised."""
    from deltav.core.hexgrid import distance
    from deltav.games.tactical.bots import routes
    from deltav.games.tactical.mapdata import default_map

    def plain(h, goals):
        return min(distance(h, g) for g in goals)

    hexes = [(q, r) for q in range(-12, 13, 3) for r in range(-14, 15, 4)]
    reused = 0
    ids = set()
    for i in range(300):  # more goal sets than the memo keeps: emptied, their memory is reused by later ones
        row = i % 41 - 20
        goals = tuple((q, row) for q in range(-15 + i % 7, 16))
        reused += id(goals) in ids
        ids.add(id(goals))
        for h in hexes:
            assert routes.nearest_distance(h, goals) == plain(h, goals)
        del goals
    assert reused  # the case the memo must not be fooled by happened
    goals = [(q, 0) for q in range(-15, 16)]
    assert routes.nearest_distance((0, 5), goals) == 5
    goals[:] = [(q, 4) for q in range(-15, 16)]
    assert routes.nearest_distance((0, 5), goals) == 1
    gmap = default_map()
    assert routes.edge_row(gmap, 3) is routes.edge_row(gmap, 3)


def test_previews_of_legal_orders_unchecked_equal_the_checked_ones():
    """The hard bot previews its legal orders without validating them again (preview_courses(..., legal=True)):
    in real matches every such order passes the check on the bot's sampled world, and the previews are the
    checked ones."""
    from deltav.games.tactical.preview import preview_courses

    compared = 0

    class Previews(Agent):
        name = "previews"

        def __init__(self):
            self.bot = LevelBot("hard", strict=True)

        def act(self, d: Decision):
            nonlocal compared
            orders = [a for a in d.legal_actions if isinstance(a, Order)]
            if orders:
                world = d.sample_world(d.rng.clone())
                for sid in sorted({o.ship for o in orders}):
                    mine = [o for o in orders if o.ship == sid]
                    assert preview_courses(world, sid, mine, legal=True) == preview_courses(world, sid, mine)
                    compared += len(mine)
            return self.bot.act(d)

    for scenario, limit in (("duel", 6), ("grand_tour", 6), ("escape", 4)):
        play_match(GAME, {"scenario": scenario, "turn_limit": limit}, 2, [Previews(), Previews()])
    assert compared >= 500


def test_hazard_count_skips_lines_far_from_asteroids_with_the_same_count():
    """routes.hazard_count answers 0 without tracing a line whose start is farther from every asteroid than the
    move is long: the same count as the traced line, on the map's belt and around it."""
    from deltav.games.tactical.combat import asteroid_hazards
    from deltav.games.tactical.mapdata import default_map
    from deltav.games.tactical.movement import speed

    gmap = default_map()
    assert gmap.asteroids
    routes._HAZARDS.clear()
    belt = sorted(gmap.asteroids)
    starts = belt[::7] + [(q + 3, r - 2) for q, r in belt[::11]] + [(0, 0), (-5, 9), (12, -20)]
    counted = hits = 0
    for s in starts:
        for dq in range(-5, 6):
            for dr in range(-5, 6):
                d = (s[0] + dq, s[1] + dr)
                plain = 0 if speed((dq, dr)) <= 1 else len(asteroid_hazards(s, d, gmap.asteroids.__contains__))
                assert routes.hazard_count(gmap, s, d) == plain
                counted += 1
                hits += plain > 0
    assert counted > 2000 and hits > 100, (counted, hits)


def _plain_safe(gmap, pos, vel, pending, fuel, depth):
    """routes.safe without a memo: some sequence of ``depth`` coasts or single burns neither crashes nor leaves
    the map (a landing ends the danger)."""
    if depth <= 0:
        return True
    for b in (None, 0, 1, 2, 3, 4, 5) if (fuel is None or fuel > 0) else (None,):
        c = compute_course(gmap, pos, vel, fuel, pending, False, False, b)
        if c.outcome == CRASH or gmap.off_map(c.destination):
            continue
        if c.outcome == LANDING:
            return True
        if _plain_safe(gmap, c.destination, c.velocity, c.pending, None if fuel is None else fuel - c.fuel_spent,
                       depth - 1):
            return True
    return False


def test_safe_settled_by_a_smaller_depth_equals_the_plain_search():
    """routes.safe answers "unsafe" from a smaller depth's known "unsafe" (the first moves of a safe sequence are
    one): asked shallow first and then deeper, near bodies and the map's edges, every answer is the plain
    search's (an "unsafe" settled wrongly as "safe" fails it)."""
    from deltav.games.tactical.mapdata import default_map

    gmap = default_map()
    routes._SAFE.clear()
    lo_q, hi_q, lo_r, hi_r = gmap.bounds
    spots = [(0, 0), (1, 4), (3, -1), (-4, 6), (lo_q + 1, 0), (hi_q - 1, -3), (2, lo_r + 1), (-3, hi_r - 1)]
    checked = unsafe = 0
    for q, r in spots:
        for dq in (-1, 0, 1):
            for vel in ((0, 0), (2, -1), (-2, 1), (0, 3), (3, 0), (-1, -2)):
                for fuel in (0, 1, 5, None):
                    pos = (q + dq, r - dq)
                    for depth in (1, 3, 2):
                        got = routes.safe(gmap, pos, vel, (), fuel, depth)
                        assert got == _plain_safe(gmap, pos, vel, (), fuel, depth), (pos, vel, fuel, depth)
                        checked += 1
                        unsafe += not got
    assert checked > 1000 and unsafe > 50


def _refuel_beams(scenario: str, seed: int) -> set[tuple[int, int]]:
    """The (beam, depth) of every route search hard made for a way back to a base in one hard-vs-hard match."""
    seen = set()
    plan = LevelBot._plan

    def record(self, world, sh, goals, why):
        if why == "refuel":
            calls = []
            search = routes.plan_route

            def spy(*args):
                calls.append(args[12:14])
                return search(*args)

            routes.plan_route = spy
            try:
                return plan(self, world, sh, goals, why)
            finally:
                routes.plan_route = search
                seen.update(calls)
        return plan(self, world, sh, goals, why)

    LevelBot._plan = record
    try:
        play_match(GAME, {"scenario": scenario}, seed, [LevelBot("hard", strict=True), LevelBot("hard", strict=True)])
    finally:
        LevelBot._plan = plan
    return seen


def test_a_retreat_to_a_base_is_searched_with_the_narrow_beam_only_where_there_is_combat():
    """Knob ``combat_refuel_beam`` (issue 30, fourth pass): hard's route back to a base is searched with a beam
    of 12 in a scenario with combat (a Duel of check_bots' seeds that retreats), and with the beam of
    ``refuel_beam`` (32) in Grand Tour, a race without combat, where the narrow beam made the tour longer."""
    from deltav.games.tactical.bots.levels import LEVELS

    hard = LEVELS["hard"]
    assert (hard.combat_refuel_beam, hard.refuel_beam, hard.refuel_depth) == (12, 32, 12)
    assert LEVELS["normal"].combat_refuel_beam == 48  # the default: no narrowing for a bot that does not plan
    assert _refuel_beams("duel", 12658624888124806606) == {(12, 12)}
    assert _refuel_beams("grand_tour", 2391768275935125900) == {(32, 12)}

"""Determinization by reuse (``view.determinize``): every world drawn from a view, the first and the later ones,
is the very state the reference determinization (each world read afresh from the view, as before the reuse)
gives after the same draws from the same RNG; and no world shares what another world or the view can change."""

from __future__ import annotations

import json

import pytest

from deltav.core.hexgrid import distance
from deltav.core.protocol import Result
from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace import visibility as V
from deltav.games.deepspace.design import ShipDesign
from deltav.games.deepspace.limits import ALIVE, DESIGN_STAGES, STATUS_NAMES
from deltav.games.deepspace.scenarios import builtin_ids
from deltav.games.deepspace.ship import Ship
from deltav.games.deepspace.state import DeepSpaceState

from .helpers import walk


def _fresh(view: dict, player: int, rng: Rng):
    """The determinization of 2026-12 (every world read afresh from the view): the reference."""
    s = DeepSpaceState.__new__(DeepSpaceState)
    rng = Rng(rng.next64())
    players = view["players"]
    n = len(players)
    s.num_players = n
    s.rng = Rng(rng.next64())
    s.opts = dict(view["options"])
    s.names = tuple(pl["name"] for pl in players)
    s.levels = tuple(pl["size_levels"] for pl in players)
    s.zones = tuple(tuple(pl["zone"]) for pl in players)
    s.round_limit = view["round_limit"]
    s.phase = view["phase"]
    s.sub = view["step"]
    s.round = view["round"]
    s.inflicted = [pl["inflicted"] for pl in players]
    s.received = [pl["received"] for pl in players]
    s.waiting = [pl["waiting"] for pl in players]
    s.report = tuple(view["report"])
    s._result = Result.from_json(view["result"]) if view["result"] else None
    mine = view.get("mine", {})

    shots = tuple(tuple(x) for x in view["shots"])
    s.shots = shots
    known = V._prior(view)
    own = {}
    for sv in view["ships"]:
        if "design" in sv:
            lv = [sv["thrust"], sv["evasion"], sv["endurance"]]
            for t, d in sv["weapons"]:
                lv += [t, d]
            own[sv["id"]] = lv
    ships = []
    for sv in view["ships"]:
        x = Ship.__new__(Ship)
        x.id = sv["id"]
        x.owner = sv["owner"]
        x.size = sv["size"]
        x.status = STATUS_NAMES.index(sv["status"])
        x.pos = tuple(sv["pos"]) if sv["pos"] is not None else None
        x.vel = tuple(sv["vel"]) if sv["vel"] is not None else (0, 0)
        x.hp_taken = sv["hp_taken"]
        x.incoming = sv["incoming"]
        seen = sv["seen"]
        x.seen_thrust = seen["thrust"]
        x.seen_weapons = seen["weapons"]
        if "design" in sv:
            x.name = sv["name"]
            x.design = sv["design"]
            lv = [sv["thrust"], sv["evasion"], sv["endurance"]]
            for t, d in sv["weapons"]:
                lv += [t, d]
            x.partial = list(sv["partial"])
            x.pending = sv["pending"]
        else:
            x.name = "unknown"
            x.design = f"d-p{x.owner}-{x.id.rsplit('-', 1)[-1]}"
            if x.status == ALIVE:
                lv = _sample_enemy(x, tuple(seen["damage"]), rng, own, shots, known.get(x.id))
            else:
                lv = [0, 0, 0] + [0, 0] * max(1, x.seen_weapons)
            x.partial = [0, 0, 0]
            x.pending = 0
        x.lv = lv
        x.view_rec = None
        nw = (len(lv) - 3) // 2
        x.seen_damage = tuple(seen["damage"]) + (0,) * (nw - len(seen["damage"]))
        ships.append(x)
    s.ships = ships
    s.index = {x.id: i for i, x in enumerate(ships)}
    s.plan = [None] * len(ships)
    s.order = [() for _ in range(n)]
    s.cur = [0] * n
    s.col = [None] * n
    s.designs = [() for _ in range(n)]
    s.drafts = [(0, 0, 0, 0, (), 0, 0) for _ in range(n)]
    s._vships = s._vplayers = None

    ph = s.phase
    if ph == "design":
        for q in range(n):
            if q == player:
                continue
            if not s.waiting[q]:
                s.designs[q] = V.sample_fleet(s.levels[q], rng)
        s.designs[player] = tuple(
            ShipDesign(d["name"], d["size"], d["thrust"], d["evasion"], d["endurance"],
                       tuple((w["targeting"], w["damage"]) for w in d["weapons"]))
            for d in mine["designs"]
        )  # the viewer's own designs, as the view shows them (``ShipDesign.to_json``)
        dr = mine["draft"]
        s.drafts[player] = (
            dr["size"], dr["thrust"], dr["evasion"], dr["endurance"], tuple(tuple(w) for w in dr["weapons"]),
            DESIGN_STAGES.index(dr["stage"]), dr["targeting"],
        )
    elif ph in ("deploy", "plot", "allocate", "destruct"):
        orders = V._orders(s.ships, n, ph)
        for q in range(n):
            if q == player:
                s.order[q] = tuple(s.index[sid] for sid in mine["order"])
                c = mine["cursor"]
                s.cur[q] = tuple(c) if isinstance(c, list) else c
                s.col[q] = mine.get("column")
                continue
            s.order[q] = tuple(orders[q])
            if s.waiting[q]:
                s.cur[q] = {"deploy": (0, 0), "plot": (0, -1)}.get(ph, 0)
                if ph == "allocate":
                    for i in s.order[q]:
                        ships[i].pending = ships[i].incoming
                continue
            if ph == "deploy":
                s.cur[q] = (len(s.order[q]), 0)
                zq, zr, rad = s.zones[q]
                for i in s.order[q]:
                    while True:
                        h = (zq + rng.below(2 * rad + 1) - rad, zr + rng.below(2 * rad + 1) - rad)
                        if distance(h, (zq, zr)) <= rad:
                            break
                    s.plan[i] = (h[0], h[1], 0, 0)
            elif ph == "plot":
                s.cur[q] = (len(s.order[q]), -1)
                for i in s.order[q]:
                    s.plan[i] = (ships[i].vel, _nearest_shots(s, ships[i]))
            elif ph == "destruct":
                s.cur[q] = len(s.order[q])
                for i in s.order[q]:
                    s.plan[i] = False
            else:
                s.cur[q] = len(s.order[q])
        for sid, e in mine.get("plans", {}).items():
            i = s.index[sid]
            if ph == "deploy":
                s.plan[i] = (e["pos"][0], e["pos"][1], e["vel"][0], e["vel"][1])
            elif ph == "plot":
                shots = tuple((w, s.index[t] if t is not None else -1) for w, t in e["shots"])
                s.plan[i] = (tuple(e["vel"]) if e["vel"] is not None else None, shots)
            elif ph == "destruct":
                s.plan[i] = e["detonate"]
    return s




def _sample_enemy(x: Ship, seen_damage: tuple[int, ...], rng: Rng, own: dict, shots,
                  public: tuple[int, ...] | None = None) -> list[int]:
    sid = x.id
    relevant = [sh for sh in shots if (sh[0] == sid and sh[2] in own) or (sh[2] == sid and sh[0] in own)]
    if public is not None:
        # the design is public (the scenario's fleet); only the allocation of the hit points taken is hidden
        seen = tuple((sh, tuple(own[sh[2] if sh[0] == sid else sh[0]])) for sh in relevant)
        cands, weights = V._public_candidates(
            x.size, public, x.hp_taken, x.seen_thrust, x.seen_weapons, seen_damage, sid, seen
        )
        if cands:
            if weights is None:
                return list(cands[rng.below(len(cands))])
            return list(V._weighted(cands, weights, rng))
    first = V.sample_levels(x.size, rng, x.hp_taken, x.seen_thrust, x.seen_weapons, seen_damage)
    if not relevant:
        return first
    cands = [first] + [
        V.sample_levels(x.size, rng, x.hp_taken, x.seen_thrust, x.seen_weapons, seen_damage)
        for _ in range(V.CANDIDATES - 1)
    ]
    return V._weighted(cands, [V.shot_likelihood(c, x.id, own, relevant) for c in cands], rng)



def _nearest_shots(s, x: Ship) -> tuple[tuple[int, int], ...]:
    best = V._nearest(s.ships, x)
    lv = x.lv
    return tuple((w, best) for w in range((len(lv) - 3) // 2) if lv[3 + 2 * w] + lv[4 + 2 * w] > 0)


def _text(s) -> str:
    return json.dumps(s.to_json(), sort_keys=True)


@pytest.mark.parametrize("scenario", builtin_ids())
def test_worlds_drawn_by_reuse_are_the_fresh_reads(scenario):
    for seed in (1, 2):
        for i, (s, p, a) in enumerate(walk(scenario, seed, {}, 300)):
            if i % 5 == 0:
                for q in range(s.num_players):
                    view = s.view(q)
                    text = json.dumps(view)
                    for k in range(3):  # the first draw reads the view; the next reuse what it read
                        got = DeepSpaceGame.determinize(view, q, Rng(100 * i + k))
                        want = _fresh(view, q, Rng(100 * i + k))
                        assert _text(got) == _text(want), (scenario, seed, i, q, k)
                        assert got.view(q) == view
                        for x in got.ships:  # a world played on changes neither the view nor the next world
                            x.lv[:] = [0] * len(x.lv)
                            x.partial[:] = [7] * len(x.partial)
                        got.plan[:] = [None] * len(got.plan)
                        got.inflicted[0] = 99
                    assert json.dumps(view) == text
            s.apply_action(p, a)


def test_a_changed_view_is_read_again():
    s = DeepSpaceGame.new_initial_state({"scenario": "duel"}, 3)
    rng = Rng(3)
    while s.phase != "plot":
        p = rng.choice(s.current_players())
        legal = s.legal_actions(p)
        s.apply_action(p, legal[rng.below(len(legal))])
    view = s.view(0)
    DeepSpaceGame.determinize(view, 0, Rng(1))
    view["ships"] = [dict(sv) for sv in view["ships"]]
    view["ships"][1]["hp_taken"] = 5
    got = DeepSpaceGame.determinize(view, 0, Rng(2))
    assert _text(got) == _text(_fresh(view, 0, Rng(2)))

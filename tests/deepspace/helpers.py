"""Builders for Deep Space Combat test states: custom fleets and scenarios written as data files, and seeded random
walks through a scenario."""

from __future__ import annotations

from pathlib import Path

from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.messages import Done, Place, SelfDestruct, SetVelocity


def ship_toml(name, size, thrust, evasion, endurance, weapons) -> str:
    ws = ", ".join(f"{{targeting = {t}, damage = {d}}}" for t, d in weapons)
    return (
        f'[[ships]]\nname = "{name}"\nsize = {size}\nthrust = {thrust}\nevasion = {evasion}\n'
        f"endurance = {endurance}\nweapons = [{ws}]\n"
    )


def write_scenario(tmp: Path, sides, round_limit=30, name="test") -> str:
    """``sides``: list of (ships, (q, r, radius)) where ships is a list of ship_toml() args tuples, or
    ("design", levels, zone)."""
    lines = [f'id = "{name}"', f'title = "{name}"', f"round_limit = {round_limit}", ""]
    for i, side in enumerate(sides):
        if side[0] == "design":
            _, levels, (q, r, rad) = side
            lines += ["[[players]]", f'name = "P{i}"', 'fleet = "design"', f"size_levels = {levels}",
                      f"zone = {{q = {q}, r = {r}, radius = {rad}}}", ""]
            continue
        ships, (q, r, rad) = side
        fleet = tmp / f"{name}-fleet{i}.toml"
        levels = sum(s[1] for s in ships)
        fleet.write_text(
            f'id = "f{i}"\ntitle = "fleet {i}"\nsize_levels = {levels}\n\n' + "\n".join(ship_toml(*s) for s in ships)
        )
        lines += ["[[players]]", f'name = "P{i}"', f'fleet = "{fleet.name}"',
                  f"zone = {{q = {q}, r = {r}, radius = {rad}}}", ""]
    path = tmp / f"{name}.toml"
    path.write_text("\n".join(lines))
    return str(path)


def new_state(tmp: Path, sides, seed=0, **options):
    path = write_scenario(tmp, sides, options.pop("round_limit", 30))
    return DeepSpaceGame.new_initial_state({"scenario": path, **options}, seed)


def deploy_all(state, placements=None):
    """Deploy every ship at its zone centre (or ``placements[ship_id] = (q, r, dq, dr)``) and confirm."""
    events = []
    for p in range(state.num_players):
        q, r, _ = state.zones[p]
        for i in state.order[p]:
            s = state.ships[i]
            pq, pr, dq, dr = (placements or {}).get(s.id, (q, r, 0, 0))
            events += state.apply_action(p, Place(s.id, pq, pr))
            if state.opts["initial_velocity"] != "rest":
                events += state.apply_action(p, SetVelocity(s.id, dq, dr))
        events += state.apply_action(p, Done())
    return events


def rng_for_rolls(wanted: list[int]):
    """An Rng whose next 2d6 sums (each two below(6) draws) are ``wanted``: found by search over seeds."""
    from deltav.core.rng import Rng

    for seed in range(2_000_000):
        r = Rng(seed)
        probe = r.clone()
        if all(probe.below(6) + probe.below(6) + 2 == w for w in wanted):
            return r
    raise AssertionError(f"no seed rolls {wanted}")


def declare_none(state):
    """Pass a destruction phase: every waiting player declares no self-destruct for each of its ships."""
    events = []
    while state.phase == "destruct":
        p = state.current_players()[0]
        events += state.apply_action(p, SelfDestruct(state.ships[state.order[p][state.cur[p]]].id, False))
    return events


def walk(scenario, seed, options, limit=500):
    """A seeded random playout of ``scenario``: ``(state, player, action)`` before each step (the state is the live
    one: read it before the next item)."""
    s = DeepSpaceGame.new_initial_state({"scenario": scenario, **options}, seed)
    rng = Rng(seed)
    steps = 0
    while not s.is_terminal() and steps < limit:
        p = rng.choice(s.current_players())
        legal = s.legal_actions(p)
        yield s, p, legal[rng.below(len(legal))]
        steps += 1

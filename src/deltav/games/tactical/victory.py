"""Victory conditions of Delta-V tactical (design/tactical.md 1.13), checked after orders, movement, combat and
logistics, in the order of the design note; plus the turn-limit ending (our addition: the engine has none) and
the surrender ending (ruling 9's option ``surrender_ends_game`` true: the astrogation phase ends the game with it
when a player surrenders).

This module reads the state and returns a ``Result`` (or None); it only writes the Escape moral-victory flag.
"""

from __future__ import annotations

from deltav.core.protocol import Result

from .bases import is_friendly_base


def _landed_on(state, sh, body: str) -> bool:
    g = state.gmap
    return sh.landed and (g.base.get(sh.pos) == body or g.surface.get(sh.pos) == body)


def check(state) -> Result | None:
    rules = state.rules
    ships = state.ships
    players = state.players
    # Escape: moral-victory flag (some enforcer destroyed or with >= 2 disabled turns)
    if rules.hidden_identity and not state.moral:
        for sh in ships:
            if not players[sh.owner].escape_wins and (sh.destroyed or sh.disabled >= 2):
                state.moral = True
                break
    # 1. Grand Tour
    if rules.checkpoints:
        need = set(rules.checkpoints)
        for sh in ships:
            if sh.destroyed or not sh.landed:
                continue
            pl = players[sh.owner]
            if pl.home and need <= set(pl.visited) and _landed_on(state, sh, pl.home):
                return Result((sh.owner,), f"Grand Tour complete! Visited all {len(need)} checkpoints and landed "
                                           f"on {pl.home}.")
    # 2. target landing
    for sh in ships:
        if sh.destroyed or not sh.landed:
            continue
        pl = players[sh.owner]
        if pl.target and _landed_on(state, sh, pl.target):
            if rules.target_requires_passengers:
                if sh.passengers > 0:
                    return Result((sh.owner,), f"Landed on {pl.target} with colonists!")
            else:
                return Result((sh.owner,), f"Landed on {pl.target}!")
    # 3. escape (ruling 1: a move ending north of the map)
    if state.escaped:
        sid, decisive = state.escaped
        owner = state.ship(sid).owner
        return Result((owner,), "Escaped! " + ("Decisive victory." if decisive else "Marginal victory."))
    # 4. Escape: the fugitive
    if rules.hidden_identity:
        for sh in ships:
            if not sh.fugitive:
                continue
            pilgrims = next((p for p, pl in enumerate(players) if pl.escape_wins), 0)
            enforcers = 1 - pilgrims
            if sh.destroyed:
                if state.moral:
                    return Result((pilgrims,), "The fugitives died, but the Pilgrims won a moral victory.")
                return Result((enforcers,), "Fugitives destroyed: Enforcers marginal victory.")
            if (sh.control == "captured" and sh.landed and sh.owner == enforcers
                    and is_friendly_base(state, enforcers, sh.pos)):
                if state.moral:
                    return Result((pilgrims,), "Fugitives captured, but the Pilgrims won a moral victory.")
                return Result((enforcers,), "Fugitives captured and brought to base: Enforcers decisive victory.")
        return None
    # 5. passengers
    if rules.target_requires_passengers:
        for p, pl in enumerate(players):
            if pl.target and not any(s.owner == p and not s.destroyed and s.passengers > 0 for s in ships):
                return Result((1 - p,), "Passenger objective failed: no surviving ship carries colonists.")
    # 6. fleet elimination
    alive = [False, False]
    for sh in ships:
        if not sh.destroyed:
            alive[sh.owner] = True
    if not alive[0] and not alive[1]:
        return Result((1 - state.active_player,), "Mutual destruction: last attacker loses!")
    for p in (0, 1):
        if not alive[p]:
            return Result((1 - p,), "Fleet eliminated!")
    return None


def turn_limit_result(state) -> Result:
    """The game reached ``turn_limit``: a draw, except in Grand Tour where more checkpoints visited wins."""
    if state.rules.checkpoints:
        a, b = (len(pl.visited) for pl in state.players)
        if a != b:
            w = 0 if a > b else 1
            return Result((w,), f"Turn limit: more checkpoints visited ({max(a, b)} to {min(a, b)}).",
                          (float(a), float(b)))
    return Result((), "Turn limit reached.")


def surrender_result(player: int) -> Result:
    """``player`` surrendered every ship under its control (``surrender_ends_game``): the other player wins."""
    return Result((1 - player,), "Fleet surrendered!")

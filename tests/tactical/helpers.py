"""Test helpers: build tactical states from a shipped scenario and place ships exactly (forcing positions,
velocities, pending gravity and fuel the way the worked examples of design/tactical.md state them)."""

from __future__ import annotations

from deltav.games import load_all

GAME = load_all()["tactical"]


def new_state(scenario: str = "biplanetary", seed: int = 0, **options):
    return GAME.new_initial_state({"scenario": scenario, **options}, seed)


def place(state, sid, pos, vel=(0, 0), pending=(), fuel=None, landed=False, **fields):
    sh = state.ship(sid)
    sh.pos = tuple(pos)
    sh.vel = tuple(vel)
    sh.pending = tuple(pending)
    if fuel is not None:
        sh.fuel = fuel
    sh.landed = landed
    for k, v in fields.items():
        setattr(sh, k, v)
    state._opts = {}
    return sh


def act(state, player, action):
    return state.apply_action(player, action)


def end_turn(state, player):
    """End astrogation (and any later phase) for ``player`` until play passes to the other player."""
    from deltav.games.tactical.messages import EndAstrogation, EndCombat, EndLogistics, EndOrdnance

    events = []
    enders = {"astrogation": EndAstrogation(), "ordnance": EndOrdnance(), "combat": EndCombat(),
              "logistics": EndLogistics()}
    while not state.is_terminal() and state.active_player == player and state.phase in enders:
        events.extend(state.apply_action(player, enders[state.phase]))
    return events


class FixedDice:
    """A stand-in for the state's Rng that rolls the given d6 faces in order (and never shuffles), so worked
    examples can force their dice. Raises if the rules roll more dice than scripted."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.rolled = []

    def d6(self):
        if not self.faces:
            raise AssertionError(f"an unexpected die roll (rolled so far: {self.rolled})")
        f = self.faces.pop(0)
        self.rolled.append(f)
        return f

    def shuffle(self, seq):
        pass

    def clone(self):
        c = FixedDice(self.faces)
        c.rolled = list(self.rolled)
        return c

    def to_json(self):
        return "0" * 16

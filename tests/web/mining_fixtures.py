"""Snapshots of real mining games for the mining screen's browser tests: scripted bots play seeded games on a
`Session`, and the envelope of the deciding seat is kept the first time each decision phase comes up (plus a
spectator's envelope and the final one). Nothing here is hand-written: every snapshot is the server's own."""

from __future__ import annotations

from deltav.core import Rng, get_game
from deltav.core.rng import derive_seed
from deltav.core.session import Session
from deltav.games import load_all
from deltav.games.mining.bots import ScriptedAgent

# the labels kept besides the phases: a reveal choice with an incident to reveal, the alien moved a second time
EXTRA = ("bump", "reveal-choice-incident", "alien-move-again")
PHASES = ("action", "moving", "survey", "scan", "reveal-choice", "sabotage-target", "sabotage-move", "alien-move",
          "alien-steal", "pirate-window", "meteor-window", "attempt", "reveal", "replace", "bid-up-window",
          "bid-up-reveal", "bid-up-replace")


def play(players: int, seed: int, keep: dict, options: dict | None = None) -> Session:
    load_all()
    game = get_game("mining")
    opts = {"players": players, **(options or {})}
    session = Session(game, opts, seed, [f"s{p}" for p in range(players)])
    agents = [ScriptedAgent() for _ in range(players)]
    rngs = [Rng(derive_seed(seed, "seat", p)) for p in range(players)]
    while not session.is_over():
        p = list(session.deciding())[0]
        env = session.snapshot(p)
        phase = env["view"]["phase"]
        if phase not in keep:
            keep[phase] = {"label": phase, "snapshot": env, "events": env["log"][-3:]}
        types = {e["action"]["type"] for e in env["legal"]}
        # the same phase with other offers: an incident to reveal, the alien already on the field
        if phase == "reveal-choice" and "reveal-incident" in types and "reveal-choice-incident" not in keep:
            keep["reveal-choice-incident"] = {"label": "reveal-choice-incident", "snapshot": env, "events": env["log"][-3:]}
        if phase == "alien-move" and env["view"]["alien"] is not None and "alien-move-again" not in keep:
            keep["alien-move-again"] = {"label": "alien-move-again", "snapshot": env, "events": env["log"][-3:]}
        if "bump" not in keep and any(e["action"]["type"] == "move" and e["action"]["bump"] is not None
                                      for e in env["legal"]):
            keep["bump"] = {"label": "bump", "snapshot": env, "events": []}
        if "spectator" not in keep and env["view"]["turn"] >= 6 and phase == "action":
            spec = session.snapshot(None)
            keep["spectator"] = {"label": "spectator", "snapshot": spec, "events": []}
        action = agents[p].act(session.decision(p, rngs[p]))
        out = session.submit_action(p, action)
        for applied in out.applied:
            for q in range(players):
                ev = applied.events_for(q)
                if ev:
                    agents[q].observe(q, ev)
    return session


def fixtures(players: int = 3) -> list[dict]:
    keep: dict = {}
    last = None
    for seed in range(12):
        last = play(players, seed, keep, {"incident_cooldown": False})
        if all(p in keep for p in PHASES if p != "bid-up-replace") and all(x in keep for x in EXTRA):
            break
    assert last is not None
    keep["over"] = {"label": "over", "snapshot": last.snapshot(0), "events": last.snapshot(0)["log"][-3:]}
    return list(keep.values())


if __name__ == "__main__":
    import json
    import sys

    out = fixtures(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    print(sorted(f["label"] for f in out), file=sys.stderr)
    print(json.dumps(out))

"""Is hard's early ram in Convoy a good choice? (issue 30; run on demand, never as a test). Reads the records of a
Convoy series where ``bot:hard`` plays the pirates (player 1), takes each game's position where the pirates give
their first order on ``--turn`` (default 2), and plays the game to its end from there on ``--seeds`` dice seeds
with the real engine and bots (the other seat as recorded), once with hard as it is and once with an alternative:

- in the games where the pirates rammed a convoy ship early (the first 60 steps), hard forbidden on that turn to
  end a course in an enemy's hex (``no_ram``);
- in the others, hard made to ram a colonist carrier whenever a course reaches one on that turn (``force_ram``).

    deltav simulate tactical --scenario convoy -n 100 --seat 0=bot:hard --seat 1=bot:normal --jobs 1 --records DIR
    python benchmarks/convoy_ram.py DIR --seeds 8

Prints the pirates' wins per position and in total for both. The rollouts reseed the cloned state's dice and the
bots' rngs per seed (``derive_seed``), the same seeds for both variants. This module owns measurement only; it
decides no move.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from deltav.agents import make_agent  # noqa: E402
from deltav.core import records  # noqa: E402
from deltav.core.protocol import Decision  # noqa: E402
from deltav.core.records import MatchRecord  # noqa: E402
from deltav.core.rng import Rng, derive_seed  # noqa: E402
from deltav.games import load_all  # noqa: E402
from deltav.games.tactical.bots.level_bot import LevelBot  # noqa: E402
from deltav.games.tactical.messages import Order  # noqa: E402

GAME = load_all()["tactical"]


class Variant(LevelBot):
    """Hard, with every course ending in an enemy's hex on ``turn`` scored ``bonus`` more (carriers only if
    ``carriers``): -5000 forbids the ram, +5000 forces it where one is in reach."""

    def __init__(self, turn: int, bonus: float, carriers: bool):
        super().__init__("hard")
        self.v_turn, self.v_bonus, self.v_carriers = turn, bonus, carriers

    def _tactics(self, world, player, sh, tac, previews, scores):
        super()._tactics(world, player, sh, tac, previews, scores)
        if world.turn != self.v_turn:
            return
        hexes = {e.pos for e in tac.enemies if e.passengers or not self.v_carriers}
        for o, pv in previews:
            if not pv.lands and pv.destination in hexes and scores[o] > -10_000:
                scores[o] += self.v_bonus


def play(state, agents, seed: int) -> list[float]:
    rngs = [Rng(derive_seed(seed, "seat", p)) for p in range(2)]
    while not state.is_terminal():
        for p in list(state.current_players()):
            a = agents[p].act(Decision(GAME, p, state.view(p), state.legal_actions(p), rngs[p]))
            events = state.apply_action(p, a)
            for q in range(2):
                seen = [e for e in events if e.visible_to(q)]
                if seen:
                    agents[q].observe(q, seen)
            if state.is_terminal():
                break
    return state.returns()


def rammed_early(rec: MatchRecord) -> bool:
    return any(e.get("type") == "damage_roll" and e.get("source") == "ram" and s.player == 1
               and str(e.get("target", "")).startswith("p0") for s in rec.steps[:60] for e in s.events)


def position(rec: MatchRecord, turn: int):
    state = records.start_state(rec)
    for step in rec.steps:
        a = GAME.action_from_json(step.action)
        if state.turn == turn and step.player == 1 and isinstance(a, Order):
            return state
        state.apply_action(step.player, a)
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records")
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--turn", type=int, default=2)
    ap.add_argument("--positions", type=int, default=0, help="at most this many positions of each kind (0: all)")
    args = ap.parse_args()
    totals = {"as_is": [0, 0], "no_ram": [0, 0], "as_is ": [0, 0], "force_ram": [0, 0]}
    counts = {True: 0, False: 0}
    for f in sorted(Path(args.records).glob("*.json")):
        rec = MatchRecord.load(f)
        if rec.seats[1] != "bot:hard" or rec.options.get("scenario") != "convoy":
            continue
        ram = rammed_early(rec)
        if args.positions and counts[ram] >= args.positions:
            continue
        state = position(rec, args.turn)
        if state is None:
            continue
        counts[ram] += 1
        names = ("as_is", "no_ram") if ram else ("as_is ", "force_ram")
        row = []
        for name in names:
            wins = 0
            for k in range(args.seeds):
                s = state.clone()
                s.rng = Rng(derive_seed(rec.seed, "roll", k))
                if name.strip() == "as_is":
                    bot = LevelBot("hard")
                else:
                    bot = Variant(args.turn, -5000.0 if ram else 5000.0, not ram)
                other = make_agent("tactical", rec.seats[0].split(":", 1)[1])
                wins += play(s, [other, bot], derive_seed(rec.seed, "bots", k))[1] > 0
            totals[name][0] += wins
            totals[name][1] += args.seeds
            row.append(f"{name.strip()} {wins}/{args.seeds}")
        print(f"{f.name}: {'rammed' if ram else 'no ram'}: " + ", ".join(row), flush=True)
    print(f"rammed ({counts[True]} positions): as is {totals['as_is'][0]}/{totals['as_is'][1]}, "
          f"no ram {totals['no_ram'][0]}/{totals['no_ram'][1]}")
    print(f"no ram ({counts[False]} positions): as is {totals['as_is '][0]}/{totals['as_is '][1]}, "
          f"forced ram {totals['force_ram'][0]}/{totals['force_ram'][1]}")


if __name__ == "__main__":
    main()

"""Side-by-side A/B of a game's bots in one process (run on demand, never as a test): an older source tree (a
copy of ``deltav`` renamed ``deltav_base``) and the current one play the same seeded matches in lockstep; every
decision is timed for both, alternating which goes first, and both must choose the same action (the run stops
at the first that differs). On a shared machine the two sides then see the same load, so their ratio holds
where two separate runs drift apart.

    git archive main src | tar -x -C /tmp/base
    python benchmarks/ab_bots.py --base /tmp/base/src tactical duel:20 fleet_action:3 --nogc
    python benchmarks/ab_bots.py --base /tmp/base/src mining standard:4 --players 4 --nogc

Each ``scenario:games`` prints the bots' CPU ms per player-turn (``time.process_time``) for the base and the
current tree. ``--nogc`` turns the cyclic collector off for the run (a full collection lands on whichever side
happens to allocate, so it is noise here; measure it with ``bench_hard.py``). This module owns measurement only;
it decides no move.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "src"
#: how the renamed copy's imports of ``deltav`` are rewritten (module paths in code and in strings)
RENAMES = ((re.compile(r"\bfrom deltav(\.| import)"), r"from deltav_base\1"),
           (re.compile(r"\bimport deltav\b"), "import deltav_base"),
           (re.compile(r"\"deltav\."), "\"deltav_base."),
           (re.compile(r"\bdeltav\.__version__"), "deltav_base.__version__"))


def renamed_copy(base_src: Path, into: Path) -> None:
    """Copy ``base_src/deltav`` to ``into/deltav_base`` with its imports rewritten to the new name."""
    dst = into / "deltav_base"
    shutil.copytree(base_src / "deltav", dst, ignore=shutil.ignore_patterns("__pycache__"))
    for f in dst.rglob("*.py"):
        text = f.read_text()
        for pattern, repl in RENAMES:
            text = pattern.sub(repl, text)
        f.write_text(text)


def sides(root: str):
    """(make_agent, Decision, Rng, Session, game registry) of package ``root`` (``deltav`` or ``deltav_base``)."""
    mods = {name: __import__(f"{root}.{name}", fromlist=["x"])
            for name in ("agents", "core.protocol", "core.rng", "core.session", "games")}
    return (mods["agents"].make_agent, mods["core.protocol"].Decision, mods["core.rng"].Rng,
            mods["core.session"].Session, mods["games"].load_all())


def lockstep(game_id: str, scenario: str, seed: int, level: str, a, b,
             players: int | None = None) -> tuple[float, float, int]:
    """One match played by both sides; returns (base CPU s, current CPU s, player-turns)."""
    from deltav.core.rng import derive_seed

    specs = [f"bot:{level}"] * (players or 2)
    options: dict = {"scenario": scenario}
    if players:
        options["players"] = players
    runs = []
    for make_agent, decision_cls, rng_cls, session_cls, registry in (a, b):
        game = registry[game_id]
        session = session_cls(game, options, seed, specs)
        runs.append((game, session, [make_agent(game_id, level) for _ in specs],
                     [rng_cls(derive_seed(seed, "seat", p)) for p in range(len(specs))], decision_cls))
    spent = [0.0, 0.0]
    clock = time.process_time
    player_turns = k = 0
    last = None
    while not runs[1][1].is_over():
        for p in list(runs[1][1].deciding()):
            decisions = [cls(g, p, s.state.view(p), list(s.legal_actions(p)), rngs[p], s.options)
                         for g, s, _agents, rngs, cls in runs]
            chosen = [None, None]
            k += 1
            for i in ((0, 1) if k % 2 else (1, 0)):
                t0 = clock()
                chosen[i] = runs[i][2][p].act(decisions[i])
                spent[i] += clock() - t0
            if json.dumps(chosen[0].to_json(), sort_keys=True) != json.dumps(chosen[1].to_json(), sort_keys=True):
                raise SystemExit(f"{scenario} seed {seed} decision {k}: base {chosen[0]} != current {chosen[1]}")
            for (_g, s, agents, _r, _c), action in zip(runs, chosen):
                for applied in s.submit_action(p, action).applied:
                    for q in range(len(specs)):
                        seen = applied.events_for(q)
                        if seen:
                            agents[q].observe(q, seen)
            if p != last:
                player_turns += 1
                last = p
    return spent[0], spent[1], player_turns


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("runs", nargs="+", help="scenario:games, e.g. duel:20")
    ap.add_argument("--base", required=True, help="a source directory holding the older deltav package")
    ap.add_argument("--level", default="hard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nogc", action="store_true", help="turn the cyclic garbage collector off")
    ap.add_argument("--players", type=int, help="seats (games with a player count, e.g. mining); default 2")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="ab_bots_"))
    try:
        renamed_copy(Path(args.base), tmp)
        sys.path.insert(0, str(HERE))
        sys.path.insert(0, str(tmp))
        from deltav.core.rng import derive_seed

        a, b = sides("deltav_base"), sides("deltav")
        if args.nogc:
            gc.disable()
        for run in args.runs:
            scenario, _, n = run.partition(":")
            base = cur = 0.0
            pts = 0
            for i in range(int(n or 1)):
                x, y, p = lockstep(args.game, scenario, derive_seed(args.seed, "bench_hard", i), args.level, a, b,
                                   args.players)
                base += x
                cur += y
                pts += p
            pts = max(1, pts)
            print(f"{scenario:20} games={n or 1:3} player-turns={pts:5} bot ms/pt base {1000 * base / pts:7.3f} "
                  f"current {1000 * cur / pts:7.3f} ratio {cur / base if base else 0.0:.3f}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

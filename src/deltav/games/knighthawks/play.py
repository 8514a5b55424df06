"""Play Knight Hawks bot against bot from the command line and print what happened (a stand-in until the
project's ``deltav`` command exists).

Usage: ``python -m deltav.games.knighthawks.play [--scenario escort] [--seed 1] [--bots scripted,random]
[--option name=value ...] [--record match.json] [--quiet]``. Owns nothing the game uses.
"""

from __future__ import annotations

import argparse

from deltav.core.agent import RandomAgent
from deltav.core.match import play_match
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks.bots import BOTS


def _agent(name: str):
    if name == "random":
        return RandomAgent()
    return BOTS[name]()


def _line(e) -> str | None:
    if e.TYPE in ("plotted", "nav_roll", "screen_set", "masking_ended", "seeker_activated", "orbit_declared"):
        return None
    return KnightHawks.describe_value(e)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenario", default="skirmish")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="scripted,scripted")
    ap.add_argument("--option", action="append", default=[], help="name=value (repeatable)")
    ap.add_argument("--record", help="save the match record to this file")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    opts: dict = {"scenario": args.scenario}
    for kv in args.option:
        k, _, v = kv.partition("=")
        opts[k] = v
    names = args.bots.split(",")
    agents = [_agent(n) for n in names]

    def show(_i, _state, events):
        if not args.quiet:
            for e in events:
                if e.visible_to(None):
                    line = _line(e)
                    if line:
                        print(line)

    record, state, stats = play_match(KnightHawks, opts, args.seed, agents, seats=names, on_step=show)
    res = state.result()
    print(f"{args.scenario}: winners {list(res.winners)} - {res.reason}; points {res.scores}; "
          f"{len(record.steps)} decisions, {state.turn - 1} game turns")
    if args.record:
        record.save(args.record)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

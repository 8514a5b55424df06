"""The JSON wire cost of actions and views: the project's ``Codec`` against msgspec (run on demand, never as a test).

Collects the real actions and views of seeded scripted-bot matches of every game, then times per item:

- actions, decode + check: ``json.loads`` then ``Codec.decode`` (type tag, unknown fields, every field's
  type and bounds) against ``msgspec.json.decode`` then ``msgspec.convert`` into the same frozen dataclass
  (msgspec checks the field types but not our ``Range`` bounds and ignores unknown fields);
- actions, encode: ``json.dumps(action.to_json())`` against ``msgspec.json.encode(action.to_json())``;
- views (plain JSON documents), encode and decode: ``json`` against ``msgspec.json``.

Usage: ``PYTHONPATH=src python benchmarks/bench_codec.py [--matches 2] [--msgspec-path DIR]`` (``DIR``: where
msgspec is installed when it is not in the environment, e.g. ``pip install --target DIR msgspec``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def collect(games, matches: int):
    from deltav.agents.registry import make_agent
    from deltav.core.match import play_match

    out = {}
    for gid, game in games.items():
        actions, views = [], []
        for seed in range(1, matches + 1):
            opts = game.resolve_options({})
            n = game.num_players(opts)
            agents = [make_agent(gid, "scripted") for _ in range(n)]

            def on_step(_i, state, _events, views=views):
                if len(views) < 400:
                    views.append(state.view(None))

            rec, _final, _ = play_match(game, {}, seed, agents, on_step=on_step)
            actions += [s.action for s in rec.steps]
        out[gid] = (actions, views)
    return out


def per_item(fn, items, reps: int = 5) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.process_time()
        for x in items:
            fn(x)
        best = min(best, time.process_time() - t0)
    return best / max(1, len(items)) * 1e6  # microseconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--msgspec-path")
    args = ap.parse_args()
    if args.msgspec_path:
        sys.path.insert(0, args.msgspec_path)
    import msgspec

    from deltav.games import load_all

    games = load_all()
    data = collect(games, args.matches)
    mdec = msgspec.json.Decoder()
    menc = msgspec.json.Encoder()
    print(f"msgspec {msgspec.__version__}; CPU microseconds per item (best of 5)")
    print(f"{'game':12} {'items':>6} {'codec dec':>10} {'msgspec dec':>12} {'json enc':>9} {'msgspec enc':>12} "
          f"{'view json dec':>14} {'view msgspec dec':>17} {'view json enc':>14} {'view msgspec enc':>17}")
    for gid, (actions, views) in data.items():
        codec = games[gid].actions
        raw = [json.dumps(a).encode() for a in actions]
        typed = [codec.decode(a) for a in actions]
        classes = codec.classes

        def ms_decode(b, classes=classes):
            obj = mdec.decode(b)
            return msgspec.convert(obj, classes[obj["type"]])

        for b, t in zip(raw, typed, strict=True):  # the same values either way
            assert ms_decode(b) == t, (b, t)
        vraw = [json.dumps(v).encode() for v in views]
        row = (
            per_item(lambda b, codec=codec: codec.decode(json.loads(b)), raw),
            per_item(ms_decode, raw),
            per_item(lambda t: json.dumps(t.to_json()), typed),
            per_item(lambda t: menc.encode(t.to_json()), typed),
            per_item(json.loads, vraw),
            per_item(mdec.decode, vraw),
            per_item(json.dumps, views),
            per_item(menc.encode, views),
        )
        print(f"{gid:12} {len(raw):>6} " + " ".join(f"{x:>{w}.2f}" for x, w in zip(row, (10, 12, 9, 12, 14, 17, 14, 17),
                                                                              strict=True)))


if __name__ == "__main__":
    main()

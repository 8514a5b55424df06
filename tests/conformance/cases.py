"""Which (game, options) configurations the conformance suite plays: every scenario of every registered
game, at every player count the scenario supports (capped to keep the default suite fast)."""

from __future__ import annotations

from deltav.core.protocol import Game
from deltav.games import load_all


def configurations() -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = []
    for gid, game in sorted(load_all().items()):
        scenarios = game.scenarios()
        names = {o.name for o in game.options}
        if not scenarios:
            out.append((gid, {}))
            continue
        for sc in scenarios:
            counts = sc.players if "players" in names else (None,)
            for n in counts:
                opts: dict = {"scenario": sc.id}
                if n is not None:
                    opts["players"] = n
                out.append((gid, opts))
    return out


def case_id(case: tuple[str, dict]) -> str:
    gid, opts = case
    parts = [gid] + [f"{k}={v}" for k, v in sorted(opts.items())]
    return "-".join(str(p) for p in parts)


def game_of(gid: str) -> type[Game]:
    return load_all()[gid]

"""The ``deltav`` command: list games, play a match, simulate many, replay a record, run the demo, serve.

This module owns argument parsing and printing; rules live in the games, agents in ``deltav.agents``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import deltav
from deltav import sweep
from deltav.core.agent import Agent
from deltav.core.errors import DeltavError, OptionError, RecordError
from deltav.core.match import play_match
from deltav.core.protocol import Game, get_game
from deltav.core.records import MatchRecord, replay, version_mismatch
from deltav.core.rng import derive_seed
from deltav.core.session import recorded_names
from deltav.core.values import Event
from deltav.games import load_all
from deltav.stats import binomial_one_sided_p, wilson_interval

console = Console(highlight=False, emoji=False)
err_console = Console(stderr=True, highlight=False, emoji=False)


class UsageError(DeltavError):
    """A bad command-line argument."""


# --- shared helpers ----------------------------------------------------------------------------------------


def _game(game_id: str) -> type[Game]:
    games = load_all()
    if game_id not in games:
        raise UsageError(f"unknown game {game_id!r} (allowed: {', '.join(sorted(games))})")
    return games[game_id]


def _options(game: type[Game], args: argparse.Namespace) -> dict[str, Any]:
    raw: dict[str, Any] = {}
    if getattr(args, "scenario", None) is not None:
        raw["scenario"] = args.scenario
    if getattr(args, "players", None) is not None:
        if "players" not in {o.name for o in game.options}:
            raise UsageError(f"{game.id} has a fixed player count; --players is not allowed")
        raw["players"] = args.players
    for item in getattr(args, "option", None) or []:
        if "=" not in item:
            raise UsageError(f"--option needs NAME=VALUE, got {item!r}")
        name, value = item.split("=", 1)
        raw[name.strip()] = value
    return game.resolve_options(raw)


def make_seat_agent(game_id: str, spec: str) -> Agent:
    """An agent for a seat spec such as ``bot:random`` or ``bot:hard`` (``human`` plays at the terminal)."""
    if spec == "human":
        return TerminalHuman()
    if not spec.startswith("bot:"):
        raise UsageError(f"seat spec {spec!r} must be 'bot:NAME' or 'human'")
    from deltav.agents import make_agent

    try:
        return make_agent(game_id, spec[4:])
    except DeltavError as exc:
        raise UsageError(str(exc)) from None


def _seat_specs(args: argparse.Namespace, n: int, default: str) -> list[str]:
    specs = [default] * n
    for item in args.seat or []:
        if "=" not in item:
            raise UsageError(f"--seat needs INDEX=SPEC (e.g. 0=bot:random), got {item!r}")
        idx, spec = item.split("=", 1)
        try:
            i = int(idx)
        except ValueError:
            raise UsageError(f"--seat index {idx!r} is not a number (allowed: 0..{n - 1})") from None
        if not 0 <= i < n:
            raise UsageError(f"--seat index {i} is out of range (allowed: 0..{n - 1})")
        specs[i] = spec
    return specs


def safe_text(text: str) -> str:
    """Text from a file or a game made safe for one terminal line: rich markup escaped, control characters
    and lone surrogates shown as escapes (so a seat name like ``[/red]`` or ``a\nb`` prints as written)."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    text = "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)
    return escape(text)


def log_shows_now(specs: Sequence[str]) -> Callable[[Event], bool]:
    """Which events ``deltav play --log`` prints as they happen: those every human seat may see (so with only
    bots, every event; with one human seat, what that seat may see; with several humans at one terminal,
    only what all of them may see). A human seat's other private events wait for its own turn."""
    humans = [i for i, s in enumerate(specs) if s == "human"]
    return lambda e: all(e.visible_to(h) for h in humans)


class TerminalHuman(Agent):
    """A human at the terminal: shows the view and the numbered legal actions, reads a number. With a
    ``deferred`` predicate (``deltav play --log`` with several humans), it collects the events of its seat
    that the shared log did not print and shows them at its next turn, under its own heading."""

    name = "human"

    def __init__(self) -> None:
        self.deferred: Callable[[Event], bool] | None = None
        self.pending: list[Event] = []
        self.describe: Callable[[Any], str] | None = None  # the match's describer (set by ``deltav play``)

    def observe(self, player: int, events: list[Event]) -> None:
        if self.deferred is not None:
            self.pending.extend(e for e in events if self.deferred(e))

    def act(self, decision):
        console.rule(f"player {decision.player} to act")
        if self.describe is None:
            self.describe = decision.game.describer(decision.options, None)
        describe = self.describe
        if self.pending:
            console.print(f"private events of player {decision.player} since its last turn:")
            for e in self.pending:
                if text := describe(e):  # an empty text is no line (a game's private echo)
                    console.print(f"  {safe_text(text)}")
            self.pending = []
        picture = decision.game.render_view(decision.view)
        if picture:
            console.print(picture, markup=False)
        else:
            console.print_json(json.dumps(decision.view))
        for i, a in enumerate(decision.legal_actions):
            console.print(f"  [{i}] {safe_text(describe(a))}")
        while True:
            try:
                text = input("your choice (number, or a JSON action): ").strip()
            except EOFError:
                raise SystemExit("no input: the game stops here") from None
            if text.isdigit() and int(text) < len(decision.legal_actions):
                return decision.legal_actions[int(text)]
            try:
                action = decision.game.action_from_json(json.loads(text))
            except (json.JSONDecodeError, DeltavError) as exc:
                console.print(f"[red]{safe_text(str(exc))}[/red]")
                continue
            if action in decision.legal_actions:
                return action
            console.print("[red]that action is not legal now[/red]")


# --- commands ----------------------------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    games = load_all()
    if args.json:
        print(json.dumps([g.describe() for g in games.values()], indent=2))
        return 0
    for gid, game in sorted(games.items()):
        d = game.describe()
        players = d["players"]
        console.rule(f"[bold]{gid}[/bold]: {game.title}")
        console.print(f"players: {players[0]}" + (f" to {players[1]}" if players[1] != players[0] else ""))
        table = Table("scenario", "players", "summary", show_edge=False)
        for s in d["scenarios"]:
            table.add_row(s["id"], ", ".join(map(str, s["players"])), s["summary"] or s["title"])
        console.print(table)
        table = Table("option", "type", "default", "allowed", "doc", show_edge=False)
        for o in game.options:
            table.add_row(
                o.name + (" (ruling)" if o.ruling else ""),
                o.kind.__name__,
                json.dumps(o.default),
                o.describe_allowed(),
                o.doc,
            )
        console.print(table)
    return 0


def _print_result(game: type[Game], record: MatchRecord, path: Path | None, seconds: float) -> None:
    res = record.result or {}
    winners = res.get("winners", [])
    who = ", ".join(f"seat {w} ({safe_text(record.seats[w])})" for w in winners) if winners else "nobody (draw)"
    scen = safe_text(str(record.options.get("scenario", "")))
    console.print(
        f"[bold]{game.id}[/bold] {scen}: {len(record.steps)} decisions in {seconds:.2f}s; winner: {who}; "
        f"reason: {safe_text(str(res.get('reason', '?')))}"
        + (f"; scores {res.get('scores')}" if res.get("scores") is not None else "")
    )
    if path is not None:
        console.print(f"  record: {safe_text(str(path))}")


def cmd_play(args: argparse.Namespace) -> int:
    game = _game(args.game)
    opts = _options(game, args)
    n = game.num_players(opts)
    specs = _seat_specs(args, n, "bot:random")
    agents = [make_seat_agent(game.id, s) for s in specs]
    shows_now = log_shows_now(specs)
    describe = game.describer(opts, None)  # the match's one describer (seats named "Player 1", ...)
    for a in agents:
        if isinstance(a, TerminalHuman):
            a.describe = describe
            if args.log:
                a.deferred = lambda e: not shows_now(e)

    def show(i, state, events):
        if args.log:
            for e in events:
                if shows_now(e) and (text := describe(e)):
                    console.print(f"  #{i} {safe_text(text)}")

    t0 = time.perf_counter()
    record, state, _ = play_match(game, opts, args.seed, agents, specs, on_step=show)
    dt = time.perf_counter() - t0
    path = record.save(args.record) if args.record else None
    _print_result(game, record, path, dt)
    return 0


def simulate(
    game: type[Game],
    opts: dict,
    specs: list[str],
    n: int,
    seed: int,
    jobs: int,
    swap: bool,
    record_dir: str | None = None,
    progress: bool = True,
    backend: str = "local",
    address: str | None = None,
) -> dict:
    """Play ``n`` matches (in ``jobs`` processes, or on Ray with ``backend="ray"``) and summarise them. With
    ``swap`` the entrants rotate through the seats game by game, so seat order is balanced."""
    k = len(specs)
    work = []
    for i in range(n):
        shift = i % k if swap else 0
        order = [(e + shift) % k for e in range(k)]  # order[seat] = entrant index
        seat_specs = [specs[order[s]] for s in range(k)]
        work.append(((game.id, opts, derive_seed(seed, "game", i), seat_specs, record_dir, i), order))
    t0 = time.perf_counter()
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err_console, disable=not progress, transient=True,
    ) as bar:
        task = bar.add_task(f"{game.id} {opts.get('scenario', '')}", total=n)
        got = sweep.run([job for job, _ in work], jobs, backend, address, on_done=lambda r: bar.advance(task))
        results = [(r, order) for r, (_, order) in zip(got, work)]
    wall = time.perf_counter() - t0
    results.sort(key=lambda r: r[0]["index"])
    ok = [(r, o) for r, o in results if "error" not in r]
    errors = [r for r, _ in results if "error" in r]
    seat_wins = [0.0] * k
    entrant_wins = [0.0] * k
    draws = 0
    for r, order in ok:
        w = r["winners"]
        if not w:
            draws += 1
            continue
        for s in w:
            seat_wins[s] += 1 / len(w)
            entrant_wins[order[s]] += 1 / len(w)
    m = len(ok)

    def rate(x: float) -> dict:
        lo, hi = wilson_interval(x, m)
        return {"wins": x, "win_rate": x / m if m else 0.0, "ci95": [lo, hi]}

    decisions = [sum(r["decisions"][s] for r, _ in ok) for s in range(k)]
    think = [sum(r["think"][s] for r, _ in ok) for s in range(k)]
    # the same per entrant (entrants rotate through the seats, so per-seat figures mix entrants)
    e_decisions, e_think, e_max = [0] * k, [0.0] * k, [0.0] * k
    e_cpu, e_turns = [0.0] * k, [0] * k  # bot CPU seconds, player-turns (where the game's scorecard counts them)
    for r, order in ok:
        turns_of = ((r.get("scorecard") or {}).get("seats") or {}).get("player_turns")
        for s in range(k):
            e = order[s]
            e_decisions[e] += r["decisions"][s]
            e_think[e] += r["think"][s]
            e_max[e] = max(e_max[e], r["max_think"][s])
            e_cpu[e] += r.get("think_cpu", [0.0] * k)[s]
            if turns_of:
                e_turns[e] += turns_of[s]
    turns = [r["turns"] for r, _ in ok if r["turns"] is not None]
    return {
        "game": game.id,
        "options": opts,
        "matches": n,
        "completed": m,
        "seed": seed,
        "entrants": specs,
        "seat_order_balanced": swap,
        "per_seat": [{"seat": s, **rate(seat_wins[s])} for s in range(k)],
        "per_entrant": [
            {
                "entrant": e,
                "spec": specs[e],
                **rate(entrant_wins[e]),
                "decisions_per_second": e_decisions[e] / e_think[e] if e_think[e] > 0 else None,
                "max_decision_seconds": e_max[e],
                "bot_cpu_ms_per_player_turn": 1000 * e_cpu[e] / e_turns[e] if e_turns[e] else None,
            }
            for e in range(k)
        ],
        "draws": draws,
        # two entrants: the chance that entrant 0 does at least this well among decided games if both were equal
        "p_entrant0_better": (
            binomial_one_sided_p(round(entrant_wins[0]), round(entrant_wins[0] + entrant_wins[1]))
            if k == 2 and entrant_wins[0] + entrant_wins[1] > 0
            else None
        ),
        "avg_decisions": sum(r["steps"] for r, _ in ok) / m if m else 0.0,
        "avg_turns": sum(turns) / len(turns) if turns else None,
        "reasons": dict(Counter(r["reason"] for r, _ in ok).most_common()),
        "decisions_per_second": [decisions[s] / think[s] if think[s] > 0 else None for s in range(k)],
        "max_decision_seconds": [max((r["max_think"][s] for r, _ in ok), default=0.0) for s in range(k)],
        "engine_seconds_per_decision": (sum(r["engine_seconds"] for r, _ in ok) / max(1, sum(r["steps"] for r, _ in ok))),
        "wall_seconds": wall,
        "errors": errors,
        "scorecard": _scorecard(ok, errors, specs),
    }


def _scorecard(ok: list, errors: list, specs: list[str]) -> dict | None:
    """The series' scorecard from each match's ``Game.scorecard`` (None if the game has none): per-game counters
    summed (each with its share of the matches; ``objective`` counted by kind), per-entrant counters summed (seat
    values gathered by entrant; wins by kind of ending), rejected bot actions and engine errors, player 0's share
    of decided games. Counts only: the bots' CPU per player-turn is a timing (``per_entrant`` of the summary)."""
    cards = [(r["scorecard"], r, order) for r, order in ok if r.get("scorecard")]
    if not cards:
        return None
    k = len(specs)
    games = len(cards)
    kinds: Counter = Counter()
    totals: dict[str, float] = {}
    unknown: set[str] = set()
    entrants = [{"spec": specs[e], "wins_by": Counter()} for e in range(k)]
    p0 = decided = 0
    for card, r, order in cards:
        for key, v in card.get("game", {}).items():
            if key == "objective":
                kinds[v] += 1
            elif v is None:
                unknown.add(key)
            else:
                totals[key] = totals.get(key, 0) + v
        w = r["winners"]
        if w:
            decided += 1
            p0 += 1 if w == [0] else 0
            if len(w) == 1:
                entrants[order[w[0]]]["wins_by"][card.get("game", {}).get("objective", "?")] += 1
        for key, values in card.get("seats", {}).items():
            for s, v in enumerate(values):
                entrants[order[s]][key] = entrants[order[s]].get(key, 0) + v
    for ent in entrants:
        ent["wins_by"] = dict(ent["wins_by"].most_common())
    out: dict = {"games": games, "endings": dict(kinds.most_common())}
    for key, v in totals.items():
        out[key] = v
        out[key + "_share"] = v / games
    for key in unknown - set(totals):
        out[key] = None
    out["invalid_actions"] = sum(1 for e in errors if str(e.get("error", "")).startswith("rejected bot action"))
    out["engine_errors"] = len(errors) - out["invalid_actions"]
    out["player0_decided_rate"] = p0 / decided if decided else None
    out["per_entrant"] = entrants
    return out


def cmd_simulate(args: argparse.Namespace) -> int:
    game = _game(args.game)
    opts = _options(game, args)
    k = game.num_players(opts)
    specs = _seat_specs(args, k, "bot:random")
    for s in set(specs):  # fail fast on a bad spec, before starting processes
        make_seat_agent(game.id, s)
    if args.n < 1:
        raise UsageError("-n must be at least 1")
    if args.address and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    summary = simulate(game, opts, specs, args.n, args.seed, jobs, not args.no_swap, args.records, not args.json,
                       args.backend, args.address)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        _print_summary(summary)
    return 1 if summary["errors"] else 0


def _print_summary(s: dict) -> None:
    console.print(
        f"[bold]{s['game']}[/bold] {s['options'].get('scenario', '')}: {s['completed']}/{s['matches']} matches, "
        f"{s['draws']} draws, {s['avg_decisions']:.1f} decisions per match"
        + (f", {s['avg_turns']:.1f} turns" if s["avg_turns"] is not None else "")
        + f", {s['wall_seconds']:.1f}s"
    )
    t = Table("entrant", "wins", "win rate", "95% CI", "decisions/s", "slowest decision", show_edge=False)
    for e in s["per_entrant"]:
        lo, hi = e["ci95"]
        dps = e["decisions_per_second"]
        t.add_row(
            f"{e['entrant']}: {e['spec']}", f"{e['wins']:g}", f"{e['win_rate']:.1%}", f"{lo:.1%} to {hi:.1%}",
            f"{dps:,.0f}" if dps else "-", f"{e['max_decision_seconds'] * 1000:.1f} ms",
        )
    console.print(t)
    t = Table("seat", "wins", "win rate", "95% CI", "decisions/s", "slowest decision", show_edge=False)
    for p in s["per_seat"]:
        lo, hi = p["ci95"]
        dps = s["decisions_per_second"][p["seat"]]
        t.add_row(
            str(p["seat"]), f"{p['wins']:g}", f"{p['win_rate']:.1%}", f"{lo:.1%} to {hi:.1%}",
            f"{dps:,.0f}" if dps else "-", f"{s['max_decision_seconds'][p['seat']] * 1000:.1f} ms",
        )
    console.print(t)
    if s["p_entrant0_better"] is not None:
        console.print(f"p (entrant 0 no better than entrant 1, one-sided binomial on decided games): "
                      f"{s['p_entrant0_better']:.3g}")
    console.print("results: " + ", ".join(f"{r or '?'} x{c}" for r, c in s["reasons"].items()))
    for e in s["errors"]:
        console.print(f"[red]match {e['index']} (seed {e['seed']}, seats {e['specs']}): {e['error']}[/red]")


def cmd_replay(args: argparse.Namespace) -> int:
    record = MatchRecord.load(args.file)
    load_all()
    try:
        game = get_game(record.game)
    except OptionError as exc:
        raise RecordError(f"$.game: {exc}") from None
    console.print(
        f"[bold]{safe_text(record.game)}[/bold] {safe_text(str(record.options.get('scenario', '')))}, seed "
        f"{record.seed}, seats {safe_text(', '.join(f'{i}={s}' for i, s in enumerate(record.seats)))}, "
        f"engine {safe_text(record.engine_version)}, rules {safe_text(record.rules_version)}"
    )
    if args.accept_version_mismatch:
        why = version_mismatch(record)
        if why:
            err_console.print(f"deltav: warning: {safe_text(why)}; replaying anyway (--accept-version-mismatch)",
                              soft_wrap=True)

    try:
        describe = game.describer(game.resolve_options(game.stored_options(record.options)), recorded_names(record))
    except DeltavError as exc:
        raise RecordError(f"bad options: {exc}") from None

    def show(i, step, state):
        if args.quiet:
            return
        console.print(f"#{i} P{step.player}: {safe_text(describe(step.action))}")
        for e in step.events:
            if text := describe(e):
                console.print(f"     {safe_text(text)}")

    replay(record, on_step=show, accept_versions=args.accept_version_mismatch)
    res = record.result or {}
    console.print(f"[green]verified[/green]: {len(record.steps)} steps replay exactly; result: "
                  f"{safe_text(str(res.get('reason')))} (winners {safe_text(str(res.get('winners')))})")
    ending = record.ending or _legacy_forfeit(record)
    if ending is not None:
        names = recorded_names(record) or [f"Player {p + 1}" for p in range(len(record.seats))]

        def who(seats: Any) -> str:
            if not isinstance(seats, list):
                return "?"
            return ", ".join(names[p] if isinstance(p, int) and 0 <= p < len(names) else str(p) for p in seats) or "nobody"

        console.print(f"ended by {safe_text(str(ending.get('kind')))} at step {safe_text(str(ending.get('step')))}: "
                      f"{safe_text(who(ending.get('seats')))} lost, {safe_text(who(ending.get('winners')))} won "
                      f"({safe_text(str(ending.get('reason')))})")
    return 0


def _legacy_forfeit(record: MatchRecord) -> dict | None:
    """A forfeit as older servers kept it (``meta.forfeit``, the result left null), shaped as an ending."""
    f = record.meta.get("forfeit") if isinstance(record.meta, dict) else None
    if not isinstance(f, dict):
        return None
    seats = f.get("seats", [f.get("seat")])
    return {"kind": "forfeit", "seats": seats, "winners": f.get("winners"), "step": f.get("step"),
            "reason": f.get("reason")}


def cmd_review(args: argparse.Namespace) -> int:
    from deltav.agents.review import ReviewBudget, names, review_record

    record = MatchRecord.load(args.file)
    load_all()
    budget = ReviewBudget.parse(args.budget or "")
    seats = None if args.seat is None else [args.seat]
    if not args.json and sys.stderr.isatty():
        with Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err_console, transient=True) as bar:
            task = bar.add_task("review", total=None)
            review = review_record(record, seats, budget, lambda done, total: bar.update(task, completed=done, total=total))
    else:
        review = review_record(record, seats, budget)
    if args.json:
        print(json.dumps(review, separators=(",", ":")))
        return 0
    for line in review_lines(review, names(record)):
        console.print(safe_text(line), soft_wrap=True)
    return 0


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _pct(v: float | None) -> str:
    return "?" if v is None else f"{round(v * 100)}%"


def review_lines(review: dict, names: list[str]) -> list[str]:
    """A review in words (``deltav review``): the summary of each seat, then each decision where it chose
    otherwise than the reviewer, with both values and the grade."""
    res = review.get("result") or {}
    winners = res.get("winners")
    won = ("won by " + ", ".join(names[p] for p in winners)) if winners else "no winner"
    vs = " vs ".join(f"{names[p]} ({s})" for p, s in enumerate(review["seats"]))
    b = review["budget"]
    out = [f"Review of {review['game']} (seed {review['seed']}): {vs}; {won}.",
           f"Each choice compared with {review['reviewer']}; a value is the chance to win in {b['rollouts']} playouts "
           f"of {review['rollout']} from worlds sampled from what the player knew."]
    for s in review["summary"]:
        p = s["seat"]
        out.append(f"{names[p]}: {s['choices']} choices, {s['same_as_reviewer']} as {review['reviewer']} would play; "
                   f"{_count(s['inaccuracies'], 'inaccuracy', 'inaccuracies')}, {_count(s['mistakes'], 'mistake')}, "
                   f"{_count(s['blunders'], 'blunder')}.")
        for d in review["decisions"]:
            if d["seat"] != p or d["same"] or d["forced"]:
                continue
            turn = f" (turn {d['turn']})" if d.get("turn") is not None else ""
            if d.get("valued"):
                values = (f" Chance to win: {_pct(d['value_played'])} as played, {_pct(d['value_best'])} with "
                          f"{review['reviewer']}'s choice (+-{_pct(d['se'])}).")
            else:
                values = " Not valued (the review's budget was spent)."
            out.append(f"  step {d['step']}{turn}, {d['grade']}: played {d['played_text']}; {review['reviewer']} "
                       f"would play {d['best_text']}.{values}")
    return out


def cmd_demo(args: argparse.Namespace) -> int:
    games = load_all()
    out = Path(args.records)
    console.print(f"[bold]deltav {deltav.__version__}[/bold]: one bot-vs-bot match of each game\n")
    for gid, game in sorted(games.items()):
        opts = game.resolve_options({})
        n = game.num_players(opts)
        levels = [b.strip() for b in args.bots.split(",") if b.strip()]
        specs = [levels[p % len(levels)] for p in range(n)]
        agents = [make_seat_agent(gid, s) for s in specs]
        t0 = time.perf_counter()
        record, state, _ = play_match(game, opts, args.seed, agents, specs)
        dt = time.perf_counter() - t0
        path = record.save(out / f"{gid}-{args.seed}.json")
        _print_result(game, record, path, dt)
    console.print(f"\nreplay one with: deltav replay {out}/<file>.json")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from deltav.server.rooms import Settings
        from deltav.server.run import serve
        from deltav.server.store import default_url
    except ImportError as exc:
        raise UsageError(f"the server needs its extra packages: pip install -e '.[server]' ({exc})") from None
    if args.grace < 0:
        raise UsageError("--grace must be 0 or more seconds")
    if args.lease_seconds <= 0:
        raise UsageError("--lease-seconds must be more than 0")
    if args.bus and not args.bus.startswith(("redis://", "rediss://", "unix://")):
        raise UsageError("--bus must be a redis:// URL")
    if args.bus and (args.db or default_url()).startswith("sqlite"):
        raise UsageError("--bus needs a database every process shares: --db postgresql+asyncpg://...")
    if not 0 <= args.quick_match_wait <= 3600:
        raise UsageError("--quick-match-wait must be 0 to 3600 seconds")
    if not 0 < args.bot_seconds <= 3600:
        raise UsageError("--bot-seconds must be more than 0 and at most 3600")
    if args.db_pool is not None and not 1 <= args.db_pool <= 1000:
        raise UsageError("--db-pool must be 1 to 1000 connections")
    workers = args.bot_workers if args.bot_workers >= 0 else max(1, (os.cpu_count() or 2) - 1)
    from deltav.agents.review import ReviewBudget, ReviewError
    from deltav.server.limits import Limits

    try:
        ReviewBudget.parse(args.review_budget)
    except ReviewError as exc:
        raise UsageError(f"--review-budget: {exc}") from None

    settings = Settings(grace_seconds=args.grace, bot_workers=workers, bot_seconds=args.bot_seconds,
                        trusted_proxies=tuple(args.trusted_proxy or ()),
                        allowed_origins=tuple(o.rstrip("/") for o in args.allow_origin or ()),
                        limits=Limits.for_load_tests() if args.no_client_limits else Limits(),
                        chosen_seeds=args.chosen_seeds, review_budget=args.review_budget,
                        queue_offer_seconds=args.quick_match_wait, db_pool=args.db_pool)
    serve(args.host, args.port, args.db or default_url(), settings,
          log_level=args.log_level, deflate=args.deflate, web_dir=args.web_dir, log_format=args.log_format,
          bus=args.bus, advertise=args.advertise, lease_seconds=args.lease_seconds)
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from deltav import tournament

    game = _game(args.game)
    entrants = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(set(entrants)) != len(entrants):
        raise UsageError("--bots lists an entrant twice")
    for spec in entrants:
        make_seat_agent(game.id, spec)  # a bad spec fails before any match
    if args.rounds < 1:
        raise UsageError("--rounds must be at least 1")
    if args.address and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    scenarios = []
    for sid in args.scenario or [None]:
        ns = argparse.Namespace(scenario=sid, players=args.players, option=args.option)
        scenarios.append(_options(game, ns))
    seats = {game.num_players(o) for o in scenarios}
    if len(seats) != 1:
        raise UsageError("every scenario of a tournament must have the same number of seats")
    n = seats.pop()
    if len(entrants) < n:
        raise UsageError(f"{game.id} has {n} seats: give at least {n} entrants in --bots")
    out = Path(args.out)
    records = out / "records"
    records.mkdir(parents=True, exist_ok=True)
    matches = tournament.schedule(game, scenarios, entrants, args.format, args.rounds, args.seed, str(records))
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, disable=args.json, transient=True) as bar:
        task = bar.add_task(f"{game.id} {args.format}", total=len(matches))
        results = sweep.run([m["job"] for m in matches], jobs, args.backend, args.address,
                            on_done=lambda r: bar.advance(task))
    ratings = tournament.rate(entrants, matches, results)
    summary = {
        "game": game.id, "format": args.format, "entrants": entrants, "rounds": args.rounds, "seed": args.seed,
        "scenarios": scenarios, "ratings": ratings,
        "matches": [{"index": r["index"], "scenario": m["scenario"], "seed": r["seed"], "specs": r["specs"],
                     **({"error": r["error"]} if "error" in r else {
                         "winners": r["winners"], "returns": r["returns"], "steps": r["steps"],
                         "record": str(Path(r["record"]).relative_to(out)) if r.get("record") else None})}
                    for m, r in zip(matches, results)],
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        t = Table("#", "entrant", "rating", "RD" if ratings["system"] == "glicko2" else "sigma", "95% interval",
                  "games", "wins", show_edge=False)
        for i, row in enumerate(ratings["table"], 1):
            lo, hi = row["interval"]
            unc = row.get("rd", row.get("sigma"))
            t.add_row(str(i), escape(row["name"]) + (" (provisional)" if row["provisional"] else ""),
                      f"{row['rating']:.1f}", f"{unc:.1f}", f"{lo:.0f} to {hi:.0f}", str(row["games"]),
                      f"{row['wins']:g}")
        console.print(f"[bold]{game.id}[/bold] {args.format}, {len(matches)} matches, "
                      f"{ratings['system']} ratings; records and summary.json in {out}")
        console.print(t)
        for e in ratings["errors"]:
            console.print(f"[red]match {e['index']} ({', '.join(e['specs'])}): {escape(e['error'])}[/red]")
    return 1 if ratings["errors"] else 0


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        from deltav.client.mcptools import DEFAULT_CANDIDATES, run_stdio
    except ImportError as exc:
        raise UsageError(f"the MCP server needs its extra packages: pip install -e '.[mcp]' ({exc})") from None
    cands = tuple(c.strip() for c in args.candidates.split(",") if c.strip()) if args.candidates is not None \
        else DEFAULT_CANDIDATES
    run_stdio(args.server, cands)
    return 0


def cmd_agent(args: argparse.Namespace) -> int:
    try:
        from deltav.client.agent import run_agent, take_seat
        from deltav.client.players import BotPlayer, CommandPlayer
    except ImportError as exc:
        raise UsageError(f"the client needs its extra packages: pip install -e '.[client]' ({exc})") from None
    token = args.token
    if args.join:
        joined = take_seat(args.server, args.room, args.seat, args.name)
        token = joined["token"]
        err_console.print(f"joined room {joined['code']} as seat {joined['seat']}; token {token}", soft_wrap=True)
    elif not token:
        raise UsageError("give --token TOKEN (a seat you hold) or --join (take a free seat)")
    if args.bot:
        from deltav.agents.spec import parse_spec

        parse_spec(args.bot[4:] if args.bot.startswith("bot:") else args.bot)  # a malformed spec fails here
        player = BotPlayer(args.bot, args.seed)
    else:
        player = CommandPlayer(args.command)
    candidates = [c.strip() for c in args.candidates.split(",") if c.strip()] if args.candidates else []

    def show(msg: dict) -> None:
        if not args.quiet:
            for e in msg.get("events") or []:
                console.print(f"  {e['step']:>4}  {safe_text(e['text'])}", soft_wrap=True)

    final = run_agent(args.server, args.room, token, player, candidates, show)
    snap, room = final["snapshot"], final["room"]
    result = snap.get("result")
    if room.get("ending"):
        e = room["ending"]
        console.print(f"ended by {e['kind']} of seats {e['seats']} ({safe_text(str(e['reason']))}); winners {e['winners']}")
    elif room.get("forfeit"):
        f = room["forfeit"]
        console.print(f"forfeit by seat {f['seat']} ({f['reason']}); winners {f['winners']}")
    elif result is not None:
        console.print(f"match over after {snap['step']} steps: winners {result.get('winners')} "
                      f"({safe_text(str(result.get('reason', '')))}); seat {snap['seat']} returns "
                      f"{snap['returns'][snap['seat']] if snap.get('returns') else None}")
    console.print(f"{player.decisions} decisions by seat {snap['seat']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="deltav", description="Four space tabletop games: engines, AI, records.")
    p.add_argument("--version", action="version", version=f"deltav {deltav.__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    g = sub.add_parser("games", help="list the registered games, their scenarios and rules options")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=cmd_games)

    def backend_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--backend", choices=sweep.BACKENDS, default="local",
                        help="where the matches run: local processes, or a Ray cluster (pip install -e '.[ray]')")
        sp.add_argument("--address", help="with --backend ray: the cluster's address (default: start a local one)")

    def game_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("game")
        sp.add_argument("--scenario", help="scenario id (see 'deltav games') or a scenario file path")
        sp.add_argument("--players", type=int, help="player count, for games where it varies")
        sp.add_argument("--option", action="append", metavar="NAME=VALUE", help="a rules option (repeatable)")
        sp.add_argument("--seat", action="append", metavar="INDEX=SPEC", help="e.g. 0=bot:hard, 1=human (repeatable)")
        sp.add_argument("--seed", type=int, default=1)

    pl = sub.add_parser("play", help="play one match")
    game_args(pl)
    pl.add_argument("--record", help="save the match record to this file")
    pl.add_argument(
        "--log", action="store_true",
        help="print the events as they happen: with only bots, every event (private ones too); with human "
        "seats, only the events every human seat may see (a human's other private events are shown at its turn)",
    )
    pl.set_defaults(func=cmd_play)

    si = sub.add_parser("simulate", help="play many matches in parallel and report win rates")
    game_args(si)
    si.add_argument("-n", type=int, default=20, help="number of matches")
    si.add_argument("--jobs", type=int, default=0, help="worker processes (0 = one per core)")
    si.add_argument("--no-swap", action="store_true", help="keep seats fixed instead of rotating entrants")
    si.add_argument("--records", help="save every match record in this folder")
    si.add_argument("--json", action="store_true")
    backend_args(si)
    si.set_defaults(func=cmd_simulate)

    rp = sub.add_parser("replay", help="verify a match record and print it as a log")
    rp.add_argument("file")
    rp.add_argument("--quiet", action="store_true", help="only verify")
    rp.add_argument(
        "--accept-version-mismatch", action="store_true",
        help="replay a record made by another engine or rules version (with a warning) instead of refusing it",
    )
    rp.set_defaults(func=cmd_replay)

    rv = sub.add_parser("review", help="review a match record: each seat's decisions against bot:hard's, graded")
    rv.add_argument("file")
    rv.add_argument("--seat", type=int, default=None, help="review this seat only (its number, from 0)")
    rv.add_argument("--json", action="store_true", help="print the review as JSON (docs/review.md)")
    rv.add_argument("--budget", default="", metavar="NAME=VALUE,...",
                    help="rollouts (per choice, default 8), estimates (decisions valued, default all), horizon, "
                         "decision_seconds, seconds (CPU-time safety nets)")
    rv.set_defaults(func=cmd_review)

    de = sub.add_parser("demo", help="a bot-vs-bot match of every game, with its saved record")
    de.add_argument("--bots", default="bot:hard,bot:normal", help="seat specs, cycled over the seats")
    de.add_argument("--seed", type=int, default=1)
    de.add_argument("--records", default="records")
    de.set_defaults(func=cmd_demo)

    tn = sub.add_parser("tournament", help="a round robin or gauntlet of bots, rated (Glicko-2 / openskill)")
    tn.add_argument("game")
    tn.add_argument("--bots", required=True, help="entrant specs, comma-separated (gauntlet: the first is the champion)")
    tn.add_argument("--scenario", action="append", help="a scenario id (repeatable; default the game's default)")
    tn.add_argument("--players", type=int, help="player count, for games where it varies")
    tn.add_argument("--option", action="append", metavar="NAME=VALUE", help="a rules option (repeatable)")
    tn.add_argument("--format", choices=("round-robin", "gauntlet"), default="round-robin")
    tn.add_argument("--rounds", type=int, default=1, help="times every seat rotation of every group is played")
    tn.add_argument("--seed", type=int, default=1)
    tn.add_argument("--jobs", type=int, default=0, help="worker processes (0 = one per core)")
    tn.add_argument("--out", default="tournament", help="folder for records/ and summary.json")
    tn.add_argument("--json", action="store_true", help="print summary.json")
    backend_args(tn)
    tn.set_defaults(func=cmd_tournament)

    mc = sub.add_parser("mcp", help="an MCP server (stdio) for LLM agents playing on a deltav server")
    mc.add_argument("--server", required=True, help="the deltav server's URL, e.g. http://127.0.0.1:8000")
    mc.add_argument("--candidates",
                    help="bots whose choices come with each observation (default bot:easy,bot:normal; '' for none)")
    mc.set_defaults(func=cmd_mcp)

    ag = sub.add_parser("agent", help="play a seat of a server's room with a built-in bot or any program")
    ag.add_argument("--server", required=True, help="the server's URL, e.g. http://127.0.0.1:8000")
    ag.add_argument("--room", required=True, help="the room code")
    who = ag.add_mutually_exclusive_group()
    who.add_argument("--token", help="the token of a seat you hold")
    who.add_argument("--join", action="store_true", help="take a free human seat (its token is printed)")
    ag.add_argument("--seat", type=int, help="with --join: which seat")
    ag.add_argument("--name", help="with --join: the seat's name")
    what = ag.add_mutually_exclusive_group(required=True)
    what.add_argument("--bot", metavar="SPEC", help="a built-in bot, e.g. bot:hard")
    what.add_argument("--command", metavar="PROG", help="a program reading snapshots and writing actions as JSON lines")
    ag.add_argument("--seed", type=int, default=0, help="the bot's RNG seed")
    ag.add_argument("--candidates", metavar="SPECS", help="ask the server for these bots' choices, e.g. bot:easy,bot:normal")
    ag.add_argument("--quiet", action="store_true", help="do not print the events")
    ag.set_defaults(func=cmd_agent)

    sv = sub.add_parser("serve", help="run the online game server (rooms, WebSockets; see docs/server.md)")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8000, help="0 picks a free port (printed)")
    sv.add_argument("--db", help="database URL (default sqlite+aiosqlite:///deltav.db; or postgresql+asyncpg://...)")
    sv.add_argument("--grace", type=float, default=60.0,
                    help="seconds a dropped player has to come back before the others may claim the win (0: no claims)")
    sv.add_argument("--bot-workers", type=int, default=-1, help="processes for bot decisions (0: threads; default cores-1)")
    sv.add_argument("--bot-seconds", type=float, default=5.0,
                    help="CPU seconds a bot decision may take (searches stop there; a bot still deciding at twice "
                         "that is stopped and its seat plays a random legal move)")
    sv.add_argument("--log-level", default="warning", choices=("debug", "info", "warning", "error"))
    sv.add_argument("--deflate", action="store_true", help="compress WebSocket messages (CPU for bandwidth)")
    sv.add_argument("--web-dir", help="serve the browser client built into this folder (default: the package's build)")
    sv.add_argument("--log-format", default="text", choices=("text", "json"), help="json: one JSON object a line")
    sv.add_argument("--db-pool", type=int, metavar="N",
                    help="PostgreSQL: the most database connections this process holds (default 15: 5 kept, 10 more "
                         "under load); size it so processes x N stays under the server's max_connections")
    sv.add_argument("--bus", help="redis://HOST:PORT: one of several processes on one PostgreSQL (docs/server.md)")
    sv.add_argument("--advertise", help="with --bus: the base URL clients reach this process at (default http://HOST:PORT)")
    sv.add_argument("--lease-seconds", type=float, default=10.0,
                    help="with --bus: a dead process's rooms are taken over after at most this long")
    sv.add_argument("--trusted-proxy", action="append", metavar="IP",
                    help="a reverse proxy whose X-Forwarded-For names the client (repeatable; default: none)")
    sv.add_argument("--no-client-limits", action="store_true",
                    help="no rate or socket limit per address (load tests from one machine; never for strangers)")
    sv.add_argument("--chosen-seeds", choices=("solo", "any"), default="solo",
                    help="solo: a room's creator chooses a seed only when every other seat is a bot (default); any: in "
                         "every room, shown to all (tests, tournaments among people who agree)")
    sv.add_argument("--review-budget", default="", metavar="NAME=VALUE,...",
                    help="the budget of a game review (docs/review.md; default rollouts=8,estimates=80)")
    sv.add_argument("--allow-origin", action="append", metavar="URL",
                    help="another origin (https://host[:port]) whose pages may create and join rooms here (repeatable)")
    sv.add_argument("--quick-match-wait", type=float, default=30.0, metavar="SECONDS",
                    help="a player waiting for a quick match is offered a bot after this long (default 30)")
    sv.set_defaults(func=cmd_serve)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (UsageError, OptionError) as exc:
        err_console.print(f"deltav: error: {safe_text(str(exc))}", soft_wrap=True)
        return 2
    except DeltavError as exc:  # a record that does not verify, a bad scenario file...: one line, exit 1
        err_console.print(f"deltav: {safe_text(str(exc))}", soft_wrap=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())

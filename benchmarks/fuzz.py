"""Fuzz every game's entry points with bad input and count the faults (run on demand, never as a test).

At random decision points of seeded random playouts of every scenario it throws at the game:

- ``apply_json``: random JSON of every shape, and legal actions mutated (each field replaced by values of other
  types, out-of-range and huge numbers, NaN, long strings, unknown and missing fields), another seat's legal
  action, another game's action, bad player numbers;
- ``apply_action``: legal action instances with a field replaced by a wrong-typed value (``dataclasses.replace``,
  bypassing the codec), and objects that are not this game's actions;
- ``state_from_json``: the state's ``to_json()`` with one part mutated (a dropped key, a swapped type, an absurd
  size); a state that loads is then used (views, legal actions, ``to_json``);
- records: the playout's record with bit flips, truncations, swapped fields and mutated values, read with
  ``parse_bytes`` + ``MatchRecord.from_json`` and ``replay``ed.

It counts, per game: ``raw_exception`` (anything that is not a DeltavError), ``accepted_illegal`` (an input
accepted though its action, compared as canonical JSON, is not in ``legal_actions(p)``), ``changed_after_refusal``
(``to_json()`` differs after a refused input), ``clone_leak`` (a probe on a clone changed the original),
``private_view_change`` (a step whose events other seats cannot
see changed their view, the rule of ``tests/conformance/test_private_steps.py``), ``record_verified`` (a corrupted
record, changed outside its free-text ``seats`` and ``meta`` and its seed, still verified; swapped steps that
verify are commuting submissions, another valid record) and ``guard_tripped`` (a state
probe that ran out of its time or memory allowance: a hang or an allocation bomb, stopped and reported). For
each kind it prints the first example with a reproducer (game, options, playout seed, step, input); replay one
with ``--repro``. Every probe runs on a clone, so the playout itself is never disturbed, and the playout's
choices come from their own generator, so ``--repro`` rebuilds the exact position.

``--server`` fuzzes a real ``deltav serve`` instead: every HTTP route and WebSocket message type with malformed
input (``benchmarks/fuzz_server.py``).

Usage::

    PYTHONPATH=src python benchmarks/fuzz.py --seconds 60 --games tactical mining
    PYTHONPATH=src python benchmarks/fuzz.py --server --seconds 120                # the server (fuzz_server.py)
    PYTHONPATH=src python benchmarks/fuzz.py --probes 2000 --seed 3          # a fixed amount of work per game
    PYTHONPATH=src python benchmarks/fuzz.py --repro '{"game": ..., "options": ..., "seed": ..., "step": ...,
        "probe": "apply_json", "player": 0, "input": ...}'

State probes run under a guard (a 2-second timer and an address-space limit of 1 GiB above the current size,
both restored after the probe), and generated sizes are capped (lists of at most 1000 items, strings of at most
10000 characters, integers used as counts of at most 10**7), so a bomb is reported instead of eating the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import resource
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from deltav.core.errors import DeltavError
from deltav.core.protocol import Game, State
from deltav.core.records import MatchRecord, Step, canonical, parse_bytes, record_for, replay
from deltav.core.rng import Rng, derive_seed
from deltav.core.values import Action
from deltav.games import load_all

KINDS = (
    "raw_exception",
    "clone_leak",
    "accepted_illegal",
    "changed_after_refusal",
    "private_view_change",
    "record_verified",
    "guard_tripped",
)
PROBE_TIME = 2.0  # seconds a state probe may take
PROBE_MEMORY = 1 << 30  # bytes of address space a state probe may add
MAX_STEPS = 3000  # decisions per playout (long games are cut, not finished)


# --- reports -----------------------------------------------------------------------------------------------


@dataclass
class Fault:
    kind: str
    probe: str
    detail: str
    repro: dict

    def line(self) -> str:
        return f"{self.probe}: {self.detail}"


@dataclass
class Report:
    game: str
    probes: dict[str, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    first: dict[tuple[str, str], Fault] = field(default_factory=dict)  # (kind, probe) -> first example
    by_probe: dict[tuple[str, str], int] = field(default_factory=dict)
    playouts: int = 0
    steps: int = 0
    seconds: float = 0.0

    def fault(self, f: Fault) -> None:
        self.counts[f.kind] += 1
        self.by_probe[(f.kind, f.probe)] = self.by_probe.get((f.kind, f.probe), 0) + 1
        self.first.setdefault((f.kind, f.probe), f)

    def probe(self, name: str) -> None:
        self.probes[name] = self.probes.get(name, 0) + 1

    @property
    def total(self) -> int:
        return sum(self.probes.values())

    def summary(self) -> str:
        lines = [
            f"{self.game}: {self.total} probes ({', '.join(f'{k} {v}' for k, v in sorted(self.probes.items()))}), "
            f"{self.playouts} playouts, {self.steps} steps, {self.seconds:.1f}s"
        ]
        for kind in KINDS:
            n = self.counts[kind]
            lines.append(f"  {kind:<22} {n:>7}")
            for (k, probe), c in sorted(self.by_probe.items()):
                if k != kind:
                    continue
                f = self.first[(k, probe)]
                lines.append(f"      {probe} {c}, first: {_clip(f.detail, 400)}")
                lines.append(f"        repro: {_clip(json.dumps(f.repro, default=repr), 600)}")
        return "\n".join(lines)


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


# --- configurations and playouts ---------------------------------------------------------------------------


def configurations(game: type[Game]) -> list[dict]:
    """Every scenario at every player count it supports (as the conformance suite plays them)."""
    names = {o.name for o in game.options}
    out = []
    for sc in game.scenarios() or []:
        for n in sc.players if "players" in names else (None,):
            opts: dict = {"scenario": sc.id}
            if n is not None:
                opts["players"] = n
            out.append(opts)
    return out or [{}]


def playout(game: type[Game], opts: dict, seed: int) -> Iterator[tuple[int, State]]:
    """The positions of one seeded random playout (yields (step, state) before each action; the caller must not
    change the state). The choices use their own generator, so (options, seed, step) names a position."""
    state = game.new_initial_state(game.resolve_options(opts), seed)
    rng = Rng(derive_seed(seed, "fuzz-play"))
    step = 0
    while not state.is_terminal() and step < MAX_STEPS:
        yield step, state
        players = list(state.current_players())
        p = players[rng.below(len(players))]
        state.apply_action(p, rng.choice(state.legal_actions(p)))
        step += 1
    yield step, state


def position(game: type[Game], opts: dict, seed: int, step: int) -> State:
    for k, s in playout(game, opts, seed):
        if k == step:
            return s.clone()
    raise SystemExit(f"the playout ends before step {step}")


# --- random values -----------------------------------------------------------------------------------------

_ODD_STRINGS = ("", "x", "0", "1,2", "none", "a,b", "1,2,3", "\x00", "\ud800", "é✓", "[/red]", "-1", "nan", "true")
_ODD_NUMBERS = (0, -1, 1, 2, 7, 99, 10**9, 2**63, -(2**64), 10**30, 10**4000, 0.5, -0.0, 1.5, 1e308,
                float("nan"), float("inf"), float("-inf"))


def random_json(rng: Rng, depth: int = 0, tokens: list[str] | None = None) -> Any:
    k = rng.below(9 if depth < 3 else 6)
    if k == 0:
        return None
    if k == 1:
        return rng.below(2) == 0
    if k == 2:
        return rng.choice(_ODD_NUMBERS)
    if k == 3:
        return rng.randint(-20, 20)
    if k == 4:
        return rng.choice(_ODD_STRINGS) if not tokens or rng.below(2) else rng.choice(tokens)
    if k == 5:
        return "z" * rng.choice((100, 10_000))
    if k in (6, 7):
        return [random_json(rng, depth + 1, tokens) for _ in range(rng.below(4))]
    keys = ["type", "ship", "player", "x", ""] + (tokens[:20] if tokens else [])
    return {rng.choice(keys): random_json(rng, depth + 1, tokens) for _ in range(rng.below(4))}


def _other_type_values(v: Any, rng: Rng, tokens: list[str]) -> list[Any]:
    pool: list[Any] = [None, True, False, 0, -1, 1, 2**63, 10**30, 1.5, float("nan"), float("inf"), "", "x",
                       "z" * 10_000, "\x00", [], [1], {}, {"type": "x"}]
    if tokens:
        pool.append(rng.choice(tokens))
    try:
        if isinstance(v, bool):
            pool += [0, 1]
        elif isinstance(v, int):
            small = abs(v) < 10**100  # huge ints (from an earlier mutation) have no float and a long text
            pool += [v + 1, v - 1, -v - 1, v * 1000, float(v) if small else 1e308, str(v) if small else "9" * 100]
        elif isinstance(v, float):
            pool += [int(v), v + 0.5, -v, str(v)]
        elif isinstance(v, str):
            pool += [v + "x", v[:-1], v.upper(), [v], v * 50]
        elif isinstance(v, list):
            pool += [v[:-1], v + v[-1:], v * 40, [v], list(reversed(v)), [None] * len(v),
                     [rng.choice(_ODD_STRINGS)], [rng.choice(_ODD_NUMBERS)], [rng.choice(tokens)] if tokens else ["x"]]
    except (ValueError, OverflowError):  # NaN or infinity from an earlier mutation
        pass
    return [x for x in pool if canonical_or_none(x) != canonical_or_none(v)]


def canonical_or_none(v: Any) -> str | None:
    try:
        return canonical(v)
    except (TypeError, ValueError):
        return None


def mutate_action_json(obj: dict, rng: Rng, tokens: list[str]) -> dict | Any:
    keys = [k for k in obj if k != "type"]
    r = rng.below(6)
    if r == 0 or not keys:
        return {**obj, rng.choice(("extra", "to", "player", "type2")): random_json(rng, 1, tokens)}
    k = rng.choice(keys)
    if r == 1:
        return {kk: vv for kk, vv in obj.items() if kk != k}
    if r == 2:
        return {**obj, "type": rng.choice(("", "x", f"{obj.get('type')}x", None, 1))}
    if r == 3:  # nested values: mutate one part
        return {**obj, k: _mutate_deep(obj[k], rng, tokens)}
    return {**obj, k: rng.choice(_other_type_values(obj[k], rng, tokens))}


def _mutate_deep(v: Any, rng: Rng, tokens: list[str]) -> Any:
    if isinstance(v, list) and v:
        i = rng.below(len(v))
        return v[:i] + [_mutate_deep(v[i], rng, tokens)] + v[i + 1:]
    if isinstance(v, dict) and v:
        k = rng.choice(sorted(v))
        return {**v, k: _mutate_deep(v[k], rng, tokens)}
    choices = _other_type_values(v, rng, tokens)
    return rng.choice(choices) if choices else None


def _paths(obj: Any, limit: int = 4000) -> list[tuple]:
    out: list[tuple] = []
    stack: list[tuple[Any, tuple]] = [(obj, ())]
    while stack and len(out) < limit:
        v, p = stack.pop()
        out.append(p)
        if isinstance(v, dict):
            stack.extend((x, p + (k,)) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, p + (i,)) for i, x in enumerate(v))
    return out


def _get(obj: Any, path: tuple) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def _set(obj: Any, path: tuple, value: Any, drop: bool = False) -> None:
    parent = _get(obj, path[:-1])
    if drop:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value


def mutate_document(doc: Any, rng: Rng, tokens: list[str]) -> tuple[Any, str]:
    """A deep copy of ``doc`` with one part broken, and a description of the change."""
    new = json.loads(json.dumps(doc))
    paths = [p for p in _paths(new) if p]
    if not paths:
        return random_json(rng, 0, tokens), "replaced the document"
    shallow = [p for p in paths if len(p) == 1]
    path = rng.choice(shallow if shallow and rng.below(4) == 0 else paths)  # top-level counts matter most
    old = _get(new, path)
    r = rng.below(5)
    if r == 0 and isinstance(_get(new, path[:-1]), dict):
        _set(new, path, None, drop=True)
        return new, f"dropped {_path_text(path)}"
    if r == 1 and isinstance(old, int) and not isinstance(old, bool):
        big = rng.choice((-1, -(10**7), 10**7, 2**64, 10**30))
        _set(new, path, big)
        return new, f"{_path_text(path)} = {big}"
    if r == 2 and isinstance(old, list) and old:
        _set(new, path, (old * (1000 // len(old) + 1))[:1000])
        return new, f"{_path_text(path)} repeated to 1000 items"
    value = rng.choice(_other_type_values(old, rng, tokens))
    _set(new, path, value)
    return new, f"{_path_text(path)} = {_clip(repr(value), 60)}"


def _path_text(path: tuple) -> str:
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)


def wrong_instance(action: Action, rng: Rng, tokens: list[str], foreign: list[Any]) -> Any:
    """``action`` with one field replaced by a wrong-typed Python value, or something that is not an action."""
    fields = [f.name for f in dataclasses.fields(action)]  # type: ignore[arg-type]
    if not fields or rng.below(6) == 0:
        return rng.choice([None, "pass", 3, {"type": action.TYPE}, action.to_json(), object()] + foreign)
    name = rng.choice(fields)
    v = getattr(action, name)
    pool: list[Any] = [None, True, 1.5, float("nan"), 10**30, -1, "x", (), (1, 2), [1], {}, object(), action]
    if isinstance(v, bool):
        pool += [1, 0, "true"]
    elif isinstance(v, int):
        pool += [float(v), str(v), True if v == 1 else False if v == 0 else v + 0.5]
    elif isinstance(v, float):
        pool += [float("inf"), str(v)]
    elif isinstance(v, tuple):
        pool += [list(v), v + (None,), tuple(str(x) for x in v)]
    elif isinstance(v, str):
        pool += [v.encode(), [v], (v,)]
    pool = [x for x in pool if not (type(x) is type(v) and x == v)]
    return dataclasses.replace(action, **{name: rng.choice(pool)})  # type: ignore[type-var]


# --- the guard ---------------------------------------------------------------------------------------------


class _TimeUp(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _TimeUp


def _address_space() -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


@contextlib.contextmanager
def guard(seconds: float = PROBE_TIME):
    """Run a probe with a timer and an address-space allowance; both are restored afterwards."""
    old_handler = signal.signal(signal.SIGALRM, _on_alarm)
    old_limit = resource.getrlimit(resource.RLIMIT_AS)
    size = _address_space()
    if size is not None:
        soft = size + PROBE_MEMORY
        if old_limit[1] != resource.RLIM_INFINITY:
            soft = min(soft, old_limit[1])
        resource.setrlimit(resource.RLIMIT_AS, (soft, old_limit[1]))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        resource.setrlimit(resource.RLIMIT_AS, old_limit)
        signal.signal(signal.SIGALRM, old_handler)


# --- the fuzzer --------------------------------------------------------------------------------------------


def _action_key(action: Any) -> str | None:
    try:
        return canonical(action.to_json())
    except Exception:  # a wrong-typed instance may not even encode: then it is not a legal action
        return None


class Fuzzer:
    """Fuzz one game. ``seconds`` bounds the run by time, ``probes`` by work (deterministic given ``seed``)."""

    def __init__(self, gid: str, seed: int = 1, seconds: float | None = None, probes: int | None = None,
                 rate: float = 0.2, guarded: bool = True, probe_time: float = PROBE_TIME):
        games = load_all()
        self.game = games[gid]
        self.seed = seed
        self.seconds = seconds
        self.max_probes = probes
        self.rate = rate
        self.guarded = guarded
        self.probe_time = probe_time  # a loaded machine may want more (the tests allow 10 s)
        self.report = Report(gid)
        self.foreign_json: list[dict] = []
        self.foreign: list[Any] = []
        for other_id, other in sorted(games.items()):
            if other_id == gid:
                continue
            s = other.new_initial_state(other.resolve_options(configurations(other)[0]), 0)
            ps = list(s.current_players())
            if ps:
                a = s.legal_actions(ps[0])[0]
                self.foreign.append(a)
                self.foreign_json.append(a.to_json())
        self._t0 = 0.0

    def _done(self) -> bool:
        if self.max_probes is not None and self.report.total >= self.max_probes:
            return True
        return self.seconds is not None and time.perf_counter() - self._t0 >= self.seconds

    def run(self) -> Report:
        self._t0 = time.perf_counter()
        configs = configurations(self.game)
        k = 0
        while not self._done():
            opts = configs[k % len(configs)]
            self._playout(opts, derive_seed(self.seed, "playout", k))
            k += 1
            if self.seconds is None and self.max_probes is None:
                break
        self.report.seconds = time.perf_counter() - self._t0
        return self.report

    # -- one playout
    def _playout(self, opts: dict, seed: int) -> None:
        game, rep = self.game, self.report
        rng = Rng(derive_seed(seed, "fuzz-probe"))
        options = game.resolve_options(opts)
        record = record_for(game, options, seed, [f"seat{p}" for p in range(game.num_players(options))])
        state = game.new_initial_state(options, seed)
        play = Rng(derive_seed(seed, "fuzz-play"))
        step = 0
        rep.playouts += 1
        while not state.is_terminal() and step < MAX_STEPS and not self._done():
            players = list(state.current_players())
            ctx = {"game": game.id, "options": opts, "seed": seed, "step": step}
            try:
                if rng.random() < self.rate:
                    state = self._probe_point(state, players, rng, ctx)
                p = players[play.below(len(players))]
                action = play.choice(state.legal_actions(p))
            except Exception as exc:  # noqa: BLE001 (e.g. a module cache poisoned by an earlier probe)
                self._playout_failed(exc, ctx)
                return
            check = rng.random() < 0.5
            if check:
                observers = [q for q in range(state.num_players) if q != p] + [None]
                before = {q: state.view(q) for q in observers}
                deciders = sorted(state.current_players())
                several = len(players) > 1
            try:
                events = state.apply_action(p, action)
            except Exception as exc:  # noqa: BLE001
                self._playout_failed(exc, ctx)
                return
            record.steps.append(Step(p, action.to_json(), [e.to_json() for e in events]))
            if check:
                rep.probe("private_step")
                changed = sorted(state.current_players()) != deciders
                for q in observers:
                    if any(e.visible_to(q) for e in events) or not (events or several) or changed:
                        continue
                    if state.view(q) != before[q]:
                        rep.fault(Fault("private_view_change", "private_step",
                                        f"{action.to_json()} by {p} (events {[e.TYPE for e in events]}) "
                                        f"changed view({q}): {_first_change(before[q], state.view(q))}",
                                        {**ctx, "probe": "private_step", "player": p, "observer": q,
                                         "input": action.to_json()}))
            step += 1
            rep.steps += 1
        if state.is_terminal() and not self._done():
            record.result = state.result().to_json() if state.result() else None
            record.returns = state.returns()
            self._record_probes(record, rng, {"game": game.id, "options": opts, "seed": seed, "step": step})

    def _playout_failed(self, exc: Exception, ctx: dict) -> None:
        """A legal step of the playout itself failed: a state or module cache an earlier probe poisoned."""
        self.report.fault(Fault("raw_exception", "playout",
                                f"a legal step of the playout failed after earlier probes: {_exc(exc)}",
                                {**ctx, "probe": "playout"}))

    # -- probes at one decision point
    def _probe_point(self, state: State, players: list[int], rng: Rng, ctx: dict) -> State:
        """Probe on clones; returns the state to continue with (a restored copy when a probe on a clone
        changed the original: a ``clone_leak``, after which this point's other probes are skipped)."""
        before = canonical(state.to_json())
        tokens = sorted(t for t in _tokens(state.view(players[0])) if len(t) < 40)[:200]
        legal = {p: state.legal_actions(p) for p in range(state.num_players)}
        for name, p, inp, call in self._inputs(state, players, legal, rng, tokens):
            self._apply_probe(name, state, before, p, inp, ctx, call, legal)
            if canonical(state.to_json()) != before:
                self.report.fault(Fault("clone_leak", name, f"a probe on a clone changed the original state: "
                                        f"player {p!r}, {_clip(repr(inp), 200)}",
                                        {**ctx, "probe": name, "player": p, "input": _jsonable(inp)}))
                return self.game.state_from_json(json.loads(before))
        if rng.below(3) == 0:
            self._state_probe(state, rng, tokens, ctx)
        return state

    def _inputs(self, state: State, players: list[int], legal: dict, rng: Rng, tokens: list[str]):
        n = state.num_players
        for _ in range(6):
            p = rng.choice(players) if rng.below(8) else rng.choice(
                [q for q in range(n) if q not in players] or [n, -1, True])
            mine = legal.get(p, []) if not isinstance(p, bool) else []
            r = rng.below(10)
            if r < 5 and mine:
                obj = mutate_action_json(rng.choice(mine).to_json(), rng, tokens)
                if rng.below(3) == 0 and isinstance(obj, dict):  # two faults at once reach deeper checks
                    obj = mutate_action_json(obj, rng, tokens)
            elif r == 5 and mine:
                obj = json.loads(json.dumps(rng.choice(mine).to_json()))  # a legal action, for the baseline
            elif r == 6:
                src = [a for q in players if q != p for a in legal[q]] or [
                    a for q in range(n) if q != p for a in legal[q]]
                obj = rng.choice(src).to_json() if src else random_json(rng, 0, tokens)
            elif r == 7 and self.foreign_json:
                obj = rng.choice(self.foreign_json)
            else:
                obj = random_json(rng, 0, tokens)
            yield "apply_json", p, obj, lambda s, p=p, obj=obj: s.apply_json(p, obj)
        for _ in range(3):
            p = rng.choice(players)
            bad = wrong_instance(rng.choice(legal[p]), rng, tokens, self.foreign)
            yield "apply_action", p, bad, lambda s, p=p, bad=bad: s.apply_action(p, bad)

    def _apply_probe(self, name: str, state: State, before: str, p: Any, inp: Any, ctx: dict, call,
                     legal_now: dict) -> None:
        rep = self.report
        rep.probe(name)
        twin = state.clone()
        repro = {**ctx, "probe": name, "player": p, "input": _jsonable(inp)}
        try:
            call(twin)
        except DeltavError as exc:
            try:
                after = canonical(twin.to_json())
            except Exception as exc2:  # noqa: BLE001 (the fuzzer counts every raw exception)
                rep.fault(Fault("raw_exception", name, f"to_json after a refusal: {_exc(exc2)}", repro))
                return
            if after != before:
                rep.fault(Fault("changed_after_refusal", name,
                                f"refused ({_clip(str(exc), 120)}) but the state changed", repro))
            return
        except _TimeUp:
            raise
        except Exception as exc:  # noqa: BLE001
            rep.fault(Fault("raw_exception", name, f"{_exc(exc)} for {_clip(repr(inp), 200)}", repro))
            return
        # accepted: it must be one of the legal actions, compared type-strictly
        if name == "apply_json":
            try:
                action = self.game.action_from_json(inp)
            except DeltavError:
                action = None
        else:
            action = inp
        key = _action_key(action) if action is not None else None
        mine = [] if isinstance(p, bool) else legal_now.get(p, [])
        legal = {canonical(a.to_json()) for a in mine}
        if key is not None and key not in legal and state.same_choice(p, action):
            return  # another name of a listed choice (State.same_choice: an older record's form)
        if key is None or key not in legal or (name == "apply_action" and not _same_types(action, mine)):
            rep.fault(Fault("accepted_illegal", name, f"player {p!r} accepted {_clip(repr(inp), 200)}", repro))

    def _state_probe(self, state: State, rng: Rng, tokens: list[str], ctx: dict) -> None:
        rep = self.report
        rep.probe("state_from_json")
        doc, change = mutate_document(state.to_json(), rng, tokens)
        repro = {**ctx, "probe": "state_from_json", "change": change}
        where = "state_from_json"
        try:
            with guard(self.probe_time) if self.guarded else contextlib.nullcontext():
                loaded = self.game.state_from_json(doc)
                where = "using the loaded state"
                for q in list(range(loaded.num_players)) + [None]:
                    loaded.view(q)
                for q in loaded.current_players():
                    loaded.legal_actions(q)
                loaded.to_json()
                loaded.is_terminal()
        except DeltavError:
            return
        except (_TimeUp, MemoryError) as exc:
            rep.fault(Fault("guard_tripped", "state_from_json",
                            f"{change}: {'out of time' if isinstance(exc, _TimeUp) else 'out of memory'} in {where}",
                            repro))
        except Exception as exc:  # noqa: BLE001
            rep.fault(Fault("raw_exception", "state_from_json", f"{change}: {_exc(exc)} in {where}", repro))

    def _record_probes(self, record: MatchRecord, rng: Rng, ctx: dict) -> None:
        rep = self.report
        original = record.to_json()
        text = json.dumps(original, separators=(",", ":")).encode()
        fixed = _core(original)
        tokens = [s for s in record.seats]
        for _ in range(4):
            rep.probe("record")
            r = rng.below(4)
            if r == 0:
                data = bytearray(text)
                for _ in range(1 + rng.below(3)):
                    i = rng.below(len(data))
                    data[i] ^= 1 << rng.below(8)
                change, source = "bit flips", bytes(data)
            elif r == 1:
                change, source = "truncated", text[: rng.below(len(text))]
            elif r == 2:
                doc = json.loads(text)
                change = _swap(doc, rng)
                source = json.dumps(doc).encode()
            else:
                doc, change = mutate_document(json.loads(text), rng, tokens)
                try:
                    source = json.dumps(doc).encode("utf-8", "surrogatepass")
                except ValueError:
                    continue
            repro = {**ctx, "probe": "record", "change": change}
            try:
                doc2 = parse_bytes(source)
                rec = MatchRecord.from_json(doc2)
                replay(rec)
            except DeltavError:
                continue
            except Exception as exc:  # noqa: BLE001
                rep.fault(Fault("raw_exception", "record", f"{change}: {_exc(exc)}", repro))
                continue
            if change.startswith("swapped steps"):
                continue  # two steps that commute (two seats' submissions) make another valid record
            if canonical(_core(doc2)) != canonical(fixed):
                rep.fault(Fault("record_verified", "record", f"{change}: the corrupted record verified "
                                f"({_first_change(fixed, _core(doc2))})", repro))


def _core(doc: dict) -> dict:
    """What a record must keep: all but its free text (seats, meta) and its seed (another seed that plays the
    same match, as in a short game without dice, makes another valid record)."""
    return {k: v for k, v in doc.items() if k not in ("seats", "meta", "seed")}


def _swap(doc: dict, rng: Rng) -> str:
    steps = doc["steps"]
    r = rng.below(3)
    if r == 0 and len(steps) > 1:
        i, j = rng.below(len(steps)), rng.below(len(steps))
        steps[i], steps[j] = steps[j], steps[i]
        return f"swapped steps {i} and {j}"
    if r == 1 and len(steps) > 1:
        i, j = rng.below(len(steps)), rng.below(len(steps))
        steps[i]["events"], steps[j]["events"] = steps[j]["events"], steps[i]["events"]
        return f"swapped the events of steps {i} and {j}"
    keys = sorted(doc)
    a, b = rng.choice(keys), rng.choice(keys)
    doc[a], doc[b] = doc[b], doc[a]
    return f"swapped fields {a} and {b}"


def _same_types(action: Any, legal: list) -> bool:
    """A directly applied instance is accepted correctly only if it equals a legal action field for field with
    the same Python types (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    for a in legal:
        if type(a) is type(action) and all(
            type(getattr(a, f.name)) is type(getattr(action, f.name)) and getattr(a, f.name) == getattr(action, f.name)
            for f in dataclasses.fields(a)
        ):
            return True
    return False


def _tokens(obj: Any) -> set[str]:
    out: set[str] = set()
    stack = [obj]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            out.update(k for k in v if isinstance(k, str))
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def _first_change(a: Any, b: Any, path: str = "$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b or a[k] != b[k]:
                if k in a and k in b:
                    return _first_change(a[k], b[k], f"{path}.{k}")
                return f"{path}.{k}: {_clip(repr(a.get(k, '<absent>')), 80)} -> {_clip(repr(b.get(k, '<absent>')), 80)}"
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_change(x, y, f"{path}[{i}]")
    return f"{path}: {_clip(repr(a), 80)} -> {_clip(repr(b), 80)}"


def _exc(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {_clip(str(exc), 160)}"


def _jsonable(v: Any) -> Any:
    if isinstance(v, Action):
        try:
            return {"instance": v.to_json()}
        except Exception:  # noqa: BLE001
            return {"instance": repr(v)}
    if canonical_or_none(v) is None:
        return {"python": _clip(repr(v), 300)}
    return v


# --- reproducing one finding ------------------------------------------------------------------------------


def reproduce(spec: dict) -> str:
    """Rebuild the position of a reproducer and run its input once; returns what happened."""
    game = load_all()[spec["game"]]
    state = position(game, spec["options"], spec["seed"], spec["step"])
    probe = spec["probe"]
    if probe == "apply_json":
        call = lambda: state.apply_json(spec["player"], spec["input"])  # noqa: E731
    elif probe == "private_step":
        q = spec["observer"]
        before = state.view(q)
        events = state.apply_json(spec["player"], spec["input"])
        after = state.view(q)
        change = "unchanged" if after == before else "changed: " + _first_change(before, after)
        return f"events {[e.to_json() for e in events]}; view({q}) {change}"
    else:
        return f"{probe} reproducers are described by their 'change'; rerun the fuzzer with the same seed"
    try:
        return f"accepted: {call()}"
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--server" in argv:  # every HTTP route and WebSocket message of a real deltav serve (fuzz_server.py)
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from benchmarks.fuzz_server import main as server_main

        return server_main(argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", help="game ids (default: every registered game)")
    ap.add_argument("--seconds", type=float, default=None, help="time per game")
    ap.add_argument("--probes", type=int, default=None, help="probes per game (deterministic amount of work)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    ap.add_argument("--repro", help="a reproducer printed by a run (JSON)")
    args = ap.parse_args(argv)
    if args.repro:
        print(reproduce(json.loads(args.repro)))
        return 0
    if args.seconds is None and args.probes is None:
        args.seconds = 10.0
    games = args.games or sorted(load_all())
    out = {}
    for gid in games:
        rep = Fuzzer(gid, args.seed, args.seconds, args.probes).run()
        out[gid] = {"probes": rep.probes, "counts": rep.counts, "playouts": rep.playouts, "steps": rep.steps}
        if not args.json:
            print(rep.summary(), flush=True)
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The layers of docs/architecture.md, checked on the source: imports only point down, and no module imports
itself round a circle.

Every ``import``/``from ... import`` statement of every module under ``src/deltav`` counts, wherever it stands
(module level, inside a function, under ``if TYPE_CHECKING:``): a function-level import that closes a circle is
still a circle, only hidden. ``from package import submodule`` is an edge to the submodule (not to the
package's ``__init__``); ``from package import name`` is an edge to the package.

Layers, lowest first (a module may import its own layer's modules where said, and any lower layer):

0. ``deltav`` (the version), ``deltav.core``, ``deltav.stats``, ``deltav.ratings`` (Glicko-2, openskill): know no
   game.
1. ``deltav.games`` (the registry loader and ``actionspace``, shared by every game) and each game package
   ``deltav.games.<id>``: a game imports core, the shared ``deltav.games`` modules and itself, never another game.
2. ``deltav.agents``: generic search, presets and the bot registry.
3. ``deltav.client`` (the server protocol's client; its remote agents use the bots), ``deltav.sweep`` (running
   many matches, locally or on Ray), ``deltav.tournament``: siblings, none imports another.
4. ``deltav.server``, ``deltav.adapters``: siblings, neither imports the other (the server mounts the client's MCP
   tools); ``deltav.web_static`` (the built browser client, files only) beside them.
5. ``deltav.cli``: the command, on top of everything.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
SIBLINGS_3 = ("client", "sweep", "tournament")
SIBLINGS_4 = ("server", "adapters")


def _modules() -> dict[str, tuple[Path, bool]]:
    mods = {}
    for f in sorted((SRC / "deltav").rglob("*.py")):
        parts = list(f.relative_to(SRC).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        mods[".".join(parts)] = (f, is_pkg)
    return mods


MODULES = _modules()


def _known(name: str) -> str | None:
    """The deepest module of ours that ``name`` names (``deltav.a.b.Thing`` -> ``deltav.a.b``), or None."""
    while name not in MODULES:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name


def _targets(module: str, is_pkg: bool, node: ast.Import | ast.ImportFrom) -> set[str]:
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".") if is_pkg else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            src = ".".join(base + ([node.module] if node.module else []))
        else:
            src = node.module or ""
        subs = [f"{src}.{a.name}" for a in node.names if f"{src}.{a.name}" in MODULES]
        names = subs if len(subs) == len(node.names) else [*subs, src]
    found = {_known(n) for n in names if n == "deltav" or n.startswith("deltav.")}
    found.discard(None)
    found.discard(module)
    return found  # type: ignore[return-value]


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports, anywhere in its body."""
    graph = {}
    for name, (path, is_pkg) in MODULES.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                deps |= _targets(name, is_pkg, node)
        graph[name] = deps
    return graph


def layer(module: str) -> tuple[int, str | None]:
    """(layer number, the group within the layer that may not import its siblings: a game id, or a layer-3
    package)."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("core", "stats", "ratings"):
        return 0, None
    if parts[1] == "games":
        return 1, parts[2] if len(parts) > 2 and (SRC / "deltav" / "games" / parts[2]).is_dir() else None
    if parts[1] == "agents":
        return 2, None
    if parts[1] in SIBLINGS_3:
        return 3, parts[1]
    if parts[1] in SIBLINGS_4:
        return 4, parts[1]
    if parts[1] == "web_static":
        return 4, None
    if parts[1] == "cli":
        return 5, None
    raise AssertionError(f"{module}: no layer assigned in tests/test_layering.py (add it to the docstring too)")


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for mod, deps in sorted(graph.items()):
        lm, gm = layer(mod)
        for dep in sorted(deps):
            ld, gd = layer(dep)
            if ld > lm:
                bad.append(f"{mod} -> {dep} (layer {lm} imports layer {ld})")
            elif ld == lm and gd is not None and gm != gd:
                bad.append(f"{mod} -> {dep} (a sibling: {gm or 'shared'} imports {gd})")
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return sorted(found)


GRAPH = import_graph()


def test_every_module_has_a_layer():
    for mod in MODULES:
        layer(mod)


def test_no_upward_or_sideways_import():
    assert upward_imports(GRAPH) == []


def test_no_import_cycle():
    assert cycles(GRAPH) == []


# --- the checker itself -------------------------------------------------------------------------------------
def test_checker_sees_function_level_and_type_checking_imports(tmp_path):
    code = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from deltav.agents.mcts import MCTSAgent\n"
        "def f():\n    from deltav.cli import main\n"
    )
    deps = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            deps |= _targets("deltav.games.tactical.state", False, node)
    assert deps == {"deltav.agents.mcts", "deltav.cli"}
    assert len(upward_imports({"deltav.games.tactical.state": deps, "deltav.agents.mcts": set(),
                               "deltav.cli": set()})) == 2


def test_checker_resolves_relative_imports_and_submodules():
    body = ast.parse("from . import hexgrid as hx\nfrom .errors import IllegalAction\nfrom .. import core\n").body
    deps = set().union(*(_targets("deltav.core.session", False, n) for n in body))
    assert deps == {"deltav.core.hexgrid", "deltav.core.errors", "deltav.core"}


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set()}, []),
])
def test_checker_finds_cycles(graph, expected):
    assert cycles(graph) == expected


def test_checker_refuses_a_game_importing_another():
    bad = upward_imports({"deltav.games.mining.bots": {"deltav.games.tactical.hexes"},
                          "deltav.games.tactical.hexes": set()})
    assert bad and "sibling" in bad[0]

"""Issue 29, "AI apart from rules", for every game: each game's AI lives in its ``bots/`` package (the bots, their
heuristics, look-ahead and opponent models), and no rules module, nor a service that helps players, imports
any of it, except through the game's documented AI interface ``bots/assist.py`` from the services listed in
:data:`INTERFACE_USERS` (the tactical assistant's course, Deep Space Combat's guess of a secret ship's stats for
its notes). The rules may therefore be read, tested and changed without the AI, and the AI's files moved behind
the interface. The presets find a game's search hooks in ``bots/`` only (``deltav.agents.presets.heuristic``).
Tactical's own checks of its services: ``tests/tactical/test_ai_apart.py``."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from deltav.agents.presets import heuristic

GAMES = ("tactical", "mining", "deepspace", "knighthawks")
#: the modules beside the rules allowed to import the game's AI interface ``bots.assist``, and nothing else of bots/
INTERFACE_USERS = {"tactical": {"advise.py"}, "deepspace": {"annotate.py"}}
#: names that mean AI: a module of that name beside the rules is AI out of its place
AI_NAMES = {"heuristics", "planner", "opponent", "tactics", "intercept", "routes", "lookahead", "hard_policy",
            "fire_exchange", "move_scores", "escort", "planet_safety"}


def package(game: str) -> Path:
    return Path(importlib.import_module(f"deltav.games.{game}").__file__).parent


def imported(path: Path, game: str) -> set[str]:
    """The modules of the game's package that ``path`` imports, relative to the package (``movement``,
    ``bots.assist``, ``bots``), whether written absolute or relative, at the top or inside a function."""
    here = path.parent.relative_to(package(game)).parts  # () for a rules module, ("bots",) for an AI module
    return imports_of(path.read_text(encoding="utf-8"), game, here)


def imports_of(text: str, game: str, here: tuple[str, ...]) -> set[str]:
    """:func:`imported` of a module's source ``text`` in the folder ``here`` of the game's package."""
    base = f"deltav.games.{game}"
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = list(here[:len(here) - (node.level - 1)] if node.level > 1 else here)
                mod = ".".join(parts + ([node.module] if node.module else []))
            elif node.module and (node.module == base or node.module.startswith(base + ".")):
                mod = node.module[len(base) + 1:]
            else:
                continue
            if mod:
                out.add(mod)
            # ``from deltav.games.mining import bots`` / ``from .bots import assist`` name modules too
            out.update(f"{mod}.{a.name}" if mod else a.name for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name[len(base) + 1:] for a in node.names if a.name.startswith(base + "."))
    return out


def rules_modules(game: str) -> list[Path]:
    """Every module of the game outside its AI package ``bots/`` (the rules and the services on top of them)."""
    return sorted(p for p in package(game).rglob("*.py") if "bots" not in p.relative_to(package(game)).parts)


@pytest.mark.parametrize("game", GAMES)
def test_the_ai_lives_in_bots(game):
    pkg = package(game)
    assert (pkg / "bots" / "__init__.py").is_file() and (pkg / "bots" / "heuristics.py").is_file()
    misplaced = sorted(p.name for p in rules_modules(game) if p.stem in AI_NAMES)
    assert not misplaced, f"{game}: AI modules beside the rules: {misplaced} (they belong in bots/)"


@pytest.mark.parametrize("game", GAMES)
def test_no_rules_module_imports_the_ai(game):
    pkg = package(game)
    for path in rules_modules(game):
        mods = imported(path, game)
        ai = {m for m in mods if m == "bots" or m.startswith("bots.")}
        if path.name in INTERFACE_USERS.get(game, set()):  # ``from .bots import assist``, ``.bots.assist import f``
            ai = {m for m in ai if m != "bots" and m != "bots.assist" and not m.startswith("bots.assist.")}
        bad = ai
        assert not bad, f"{game}: {path.relative_to(pkg)} imports the AI: {sorted(bad)}"


@pytest.mark.parametrize("game", sorted(INTERFACE_USERS))
def test_the_documented_interface_users_use_it(game):
    """The interface exists and its listed users import it (a stale entry of :data:`INTERFACE_USERS` fails)."""
    pkg = package(game)
    assert (pkg / "bots" / "assist.py").is_file()
    for name in INTERFACE_USERS[game]:
        assert "bots.assist" in imported(pkg / name, game), f"{game}: {name} no longer uses bots/assist.py"


def test_the_import_reader_sees_every_form():
    """The check reads absolute, relative and function-level imports alike (so it cannot pass by blindness)."""
    text = ("from .bots import heuristics\n"
            "def f():\n    from deltav.games.mining.bots.hard_policy import policy\n"
            "import deltav.games.mining.bots.scripted\n"
            "from deltav.games.mining import bots\n")
    got = imports_of(text, "mining", ())
    assert {"bots.heuristics", "bots.hard_policy", "bots.scripted", "bots"} <= got
    assert imports_of("from . import heuristics\n", "mining", ("bots",)) >= {"bots.heuristics"}


def test_the_presets_look_in_bots_only():
    """A search hook is found in the game's AI package and never in a rules module of the same name."""
    from deltav.games.mining import knowledge
    from deltav.games.mining.bots import hard_policy

    assert heuristic("mining", "hard_policy.policy") is hard_policy.policy
    assert callable(knowledge.kind_odds) and heuristic("mining", "knowledge.kind_odds") is None
    for game in GAMES:
        assert heuristic(game, "evaluate") is not None, game

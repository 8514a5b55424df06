"""Every game package has the shape docs/architecture.md describes ("One shape for a game"): the same module
names for the same jobs, a ``bots/`` package whose ``__init__`` only assembles ``BOTS`` and ``PRESETS``, and the
same mechanisms: every state runs on the core phase table (``deltav.core.phases``); and one meaning per module name
across the codebase (issue 29: no ``planner.py`` meaning four things, no ``view.py`` beside ``State.view``, no
``legal``/``illegal`` modules, "bots" only the games' AI packages)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from deltav.core.phases import PhaseTable
from deltav.games import GAME_PACKAGES, load_all

GAMES = Path(__file__).resolve().parents[1] / "src" / "deltav" / "games"
REQUIRED = ("__init__.py", "rulings.py", "messages.py", "scenarios.py", "state.py", "state_schema.py",
            "visibility.py", "bots/__init__.py", "bots/scripted.py", "bots/heuristics.py")
SRC = GAMES.parent
CLIENT = SRC.parents[1] / "web" / "src"
#: module names that meant several things (issue 29) and the names that replaced them
RETIRED = {
    "planner": "a name for what it plans: tactical bots/routes.py, mining bots/hard_policy.py, deepspace "
               "bots/lookahead.py, knighthawks bots/fire_exchange.py",
    "view": "visibility.py (views, secret tokens, the determinizer; the method State.view keeps the protocol's word)",
    "legal": "server/legal_entries.py (the cache of a snapshot's legal entries)",
    "illegal": "mining/refusals.py (why an action is refused)",
    "bots": "server/bot_workers.py (the process pool); 'bots' is each game's AI package only",
    "exchange": "knighthawks bots/move_scores.py",
    "fleet": "tactical's rules module fleet.py only (knighthawks' doom check is bots/planet_safety.py)",
}


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_the_game_has_the_documented_modules(game):
    pkg = GAMES / game
    assert [name for name in REQUIRED if not (pkg / name).is_file()] == []
    assert (pkg / "data").is_dir() and any((pkg / "data").iterdir())
    assert not (pkg / "bots.py").exists() and not (pkg / "play.py").exists()


def test_module_names_mean_one_thing():
    """No module or client file carries a retired name (each meant several things); ``bots`` is only a game's AI
    package, and ``fleet`` only tactical's rules module."""
    found = []
    for path in [*SRC.rglob("*.py"), *CLIENT.rglob("*.ts")]:
        rel = path.relative_to(SRC if path.suffix == ".py" else CLIENT)
        stem = path.stem
        if stem == "fleet" and rel.as_posix() == "games/tactical/fleet.py":
            continue
        if stem in RETIRED:
            found.append(f"{rel}: {RETIRED[stem]}")
    for path in SRC.rglob("bots"):
        rel = path.relative_to(SRC).parts
        if not (path.is_dir() and len(rel) == 3 and rel[0] == "games" and rel[1] in GAME_PACKAGES):
            found.append(f"{'/'.join(rel)}: {RETIRED['bots']}")
    assert found == []


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_bots_init_only_assembles_the_registry(game):
    tree = ast.parse((GAMES / game / "bots" / "__init__.py").read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.Import | ast.ImportFrom):
            continue
        assert isinstance(node, ast.Assign | ast.AnnAssign), f"{game}/bots/__init__.py: {ast.dump(node)[:80]}"
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names |= {t.id for t in targets if isinstance(t, ast.Name)}
    assert names == {"BOTS", "PRESETS"}


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_no_main_blocks_in_game_packages(game):
    for path in (GAMES / game).rglob("*.py"):
        assert "__main__" not in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("game", [*GAME_PACKAGES, "toy"])
def test_the_state_runs_on_the_core_phase_table(game):
    """Who decides, the legal actions, applying one and the turn check are the phase table's functions, not a
    game's own dispatch; every phase names the kinds of action it takes and where a decision may lead."""
    cls = type(load_all()[game].new_initial_state(None, 1))
    table = cls.phases
    assert isinstance(table, PhaseTable) and table.phases
    for method in ("current_players", "legal_actions", "apply_action", "check_turn"):
        assert getattr(cls, method) is getattr(table, method), f"{game}: {method} is not the phase table's"
    for ph in table.phases.values():
        assert ph.kinds and ph.wrong_kind, f"{game}: phase {ph.title} declares no kinds of action"
        assert ph.then, f"{game}: phase {ph.title} declares no transitions"

"""Every game package has the shape docs/architecture.md describes ("One shape for a game"): the same module
names for the same jobs, a ``bots/`` package whose ``__init__`` only assembles ``BOTS`` and ``PRESETS``, and the
same mechanisms: every state runs on the core phase table (``deltav.core.phases``) and is declared once with
``deltav.core.fields``."""

from __future__ import annotations

import ast
from pathlib import Path
from types import MemberDescriptorType

import pytest

from deltav.core.fields import Fields
from deltav.core.phases import PhaseTable
from deltav.games import GAME_PACKAGES, load_all

GAMES = Path(__file__).resolve().parents[1] / "src" / "deltav" / "games"
REQUIRED = ("__init__.py", "rulings.py", "messages.py", "scenarios.py", "state.py", "state_schema.py", "view.py",
            "bots/__init__.py", "bots/scripted.py")


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_the_game_has_the_documented_modules(game):
    pkg = GAMES / game
    assert [name for name in REQUIRED if not (pkg / name).is_file()] == []
    assert (pkg / "data").is_dir() and any((pkg / "data").iterdir())
    assert not (pkg / "bots.py").exists() and not (pkg / "play.py").exists()


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


@pytest.mark.parametrize("game", [*GAME_PACKAGES, "toy"])
def test_the_state_is_declared_once_with_core_fields(game):
    """The state's slots, ``clone`` and ``to_json`` are those its one ``Fields`` declaration gives (compiled by
    ``deltav.core.fields``, not written by hand), and its JSON document has exactly the declared keys."""
    state = load_all()[game].new_initial_state(None, 1)
    cls = type(state)
    fields = cls.fields
    assert isinstance(fields, Fields) and cls.__slots__ == fields.slots
    assert cls.clone.__code__.co_filename == f"<clone of {cls.__name__}>"
    assert cls.to_json.__code__.co_filename == f"<to_json of {cls.__name__}>"
    assert list(state.to_json()) == [*fields.constants, *(f.key for f in fields.saved)]
    assert all(isinstance(vars(cls)[n], MemberDescriptorType) for n in fields.slots), f"{game}: a slot is shadowed"

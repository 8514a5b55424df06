"""Issue 29, "AI apart from rules", for tactical: the modules that serve players (the assistant, the reach shadow,
the notes on legal actions, the previews) import no AI module; the assistant asks the AI through its documented
interface, ``bots/assist.py`` (the one the server's ``suggest`` reaches through ``TacticalGame.advise``). That every
game's AI lives in ``bots/`` and no rules module imports it: ``tests/conformance/test_ai_apart.py``."""

from __future__ import annotations

import ast
from pathlib import Path

import deltav.games.tactical as tactical

PKG = Path(tactical.__file__).parent
SERVICES = ("advise.py", "reach.py", "annotate.py", "preview.py", "course_risks.py", "courses.py", "labels.py",
            "places.py", "summary.py", "briefing.py")


def imported(path: Path) -> set[str]:
    """The modules of the tactical package ``path`` imports, relative to it (``movement``, ``bots.assist``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level == 1:
                out |= {mod} if mod else {a.name for a in node.names}
            elif mod.startswith("deltav.games.tactical."):
                out.add(mod.removeprefix("deltav.games.tactical."))
        elif isinstance(node, ast.Import):
            out |= {a.name.removeprefix("deltav.games.tactical.") for a in node.names
                    if a.name.startswith("deltav.games.tactical.")}
    return out


def test_player_services_reach_the_ai_only_through_its_interface():
    for name in SERVICES:
        mods = imported(PKG / name)
        bad = {m for m in mods if m.startswith("bots") and m != "bots.assist"}
        assert not bad, f"{name} imports the AI directly: {sorted(bad)}"
    assert "bots.assist" in imported(PKG / "advise.py")


def test_the_assistant_plans_through_the_interface():
    from deltav.core.protocol import get_game
    from deltav.games import load_all
    from deltav.games.tactical.advise import advise

    load_all()
    game = get_game("tactical")
    state = game.new_initial_state(game.resolve_options({"scenario": "biplanetary"}), 1)
    plan = advise(state.view(0), 0, {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}})
    assert plan["found"] and plan["turns"] >= 5 and plan["steps"][0]["order"]["ship"] == "p0s0"

"""Every rule id a game's engine raises starts with the game's id (``IllegalAction("mining.survey.line", ...)``),
so a client or a log line names the game and the rule without context (issue 12: knighthawks used ``kh.``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from deltav.games import GAME_PACKAGES

GAMES = Path(__file__).resolve().parents[1] / "src" / "deltav" / "games"


RULE_ID = re.compile(r"^[a-z]+(\.[a-z_0-9]+)+$")


def rule_ids(game: str) -> list[tuple[str, str]]:
    """(file:line, rule id) of every string-literal rule id passed to ``IllegalAction`` in the game package, and of
    every rule-id-shaped string opening a returned or yielded tuple (the ``(rule, reason)`` pairs some checks
    return for the caller to raise)."""
    found = []
    for path in sorted((GAMES / game).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Return | ast.Yield) and isinstance(node.value, ast.Tuple) and node.value.elts:
                first = node.value.elts[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and RULE_ID.match(first.value):
                    found.append((f"{path.name}:{node.lineno}", first.value))
                continue
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name != "IllegalAction":
                continue
            first = node.args[0]
            if isinstance(first, ast.JoinedStr) and first.values and isinstance(first.values[0], ast.Constant):
                first = first.values[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((f"{path.name}:{node.lineno}", first.value))
    return found


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_rule_ids_start_with_the_game_id(game):
    ids = rule_ids(game)
    assert ids, f"no IllegalAction rule ids found in {game}"
    # ``protocol.*``: the rules of the protocol itself (a player who may not act, a finished game), shared by all
    assert [(where, r) for where, r in ids if not r.startswith((f"{game}.", "protocol."))] == []

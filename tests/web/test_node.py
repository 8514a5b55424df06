"""The client's own checks, run from pytest so `make test` runs them: `npm test` (the hex maths against the
engine's fixtures, with node --test) and `npm run typecheck` (tsc --noEmit, strict)."""

from __future__ import annotations

import re

from .conftest import run_node


def test_node_tests_pass():
    proc = run_node(["npm", "test", "--silent"])
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    passed = re.search(r"^# pass (\d+)$", out, re.M)
    failed = re.search(r"^# fail (\d+)$", out, re.M)
    assert passed and int(passed.group(1)) >= 10, out
    assert failed and int(failed.group(1)) == 0, out


def test_typecheck_is_clean():
    proc = run_node(["npm", "run", "typecheck", "--silent"])
    assert proc.returncode == 0, proc.stdout + proc.stderr

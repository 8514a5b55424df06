"""The examples of docs/research.md for remote agents and ratings run as printed (against a real server)."""

from __future__ import annotations

import re
import sys

import pytest

from deltav.client import create_room, room_record
from deltav.core.records import MatchRecord, replay
from tests.client.test_remote_agent import agent
from tests.server.helpers import ROOT, ProcessServer

DOC = (ROOT / "docs" / "research.md").read_text()


def block_after(marker: str) -> str:
    """The first python code block after ``marker`` in docs/research.md."""
    at = DOC.index(marker)
    m = re.compile(r"```python\n(.*?)```", re.S).search(DOC, at)
    return m.group(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("docs") / "docs.db"
    srv = ProcessServer(f"sqlite+aiosqlite:///{db}", "--bot-workers", "0", "--grace", "0")
    yield srv
    srv.stop()


def test_the_ten_line_example_bot(server, tmp_path):
    code = block_after("A complete bot")
    assert len(code.strip().splitlines()) <= 10
    bot = tmp_path / "bot.py"
    bot.write_text(code)
    room = create_room(server.base, "mining", ["human", "bot:easy"], {"scenario": "standard"}, seed=1)
    out = agent(server, room["code"], "--token", room["token"], "--command", f"{sys.executable} {bot}")
    assert out.returncode == 0, out.stderr
    replay(MatchRecord.from_json(room_record(server.base, room["code"])))


def test_the_python_client_example(server, capsys):
    code = block_after("**The Python client**").replace("http://127.0.0.1:8000", server.base)
    exec(compile(code, "docs/research.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "'winners'" in printed


def test_the_ratings_example(capsys):
    exec(compile(block_after("## Ratings"), "docs/research.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "r=1464.05" in printed and "bot:hard" in printed

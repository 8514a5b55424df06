"""The client's layout check (`web/tools/check_layout.mjs`, docs/web.md "The toolkit and the file names"): the sources
have no import circle, every game folder has one file per kind under one name, a stylesheet lives in a game's
styles.ts and no module writes its own element builder. The check runs on the real tree, then on copies broken
one way each, which it must refuse with a sentence naming what is wrong."""

from __future__ import annotations

import shutil
from pathlib import Path

from .conftest import WEB, run_node


def _check(src: Path | None = None):
    args = ["node", "tools/check_layout.mjs"] + (["--src", str(src)] if src else [])
    proc = run_node(args)
    return proc.returncode, proc.stdout + proc.stderr


def _copy(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    shutil.copytree(WEB / "src", src)
    return src


def test_the_client_sources_pass_the_layout_check():
    rc, out = _check()
    assert rc == 0, out
    assert "no import circle" in out and "game folders deepspace, knighthawks, mining, tactical" in out, out


def test_an_import_circle_is_refused(tmp_path):
    src = _copy(tmp_path)
    start = src / "lobby" / "start.ts"
    # The circle issue 29 broke: the set-up dialog's shared part importing the lobby back.
    start.write_text('import { startLobby } from "./lobby";\nexport const again = startLobby;\n' + start.read_text())
    rc, out = _check(src)
    assert rc == 1, out
    assert "import circle: lobby/lobby.ts -> " in out and "lobby/start.ts -> lobby/lobby.ts" in out, out


def test_a_type_only_circle_is_refused_too(tmp_path):
    src = _copy(tmp_path)
    screen = src / "shell" / "screen.ts"
    screen.write_text('import type { Guide } from "./guide";\nexport type G = Guide;\n' + screen.read_text())
    rc, out = _check(src)
    assert rc == 1, out
    assert "import circle: shell/screen.ts -> shell/guide.ts -> shell/screen.ts" in out, out


def test_a_game_file_named_another_way_is_refused(tmp_path):
    src = _copy(tmp_path)
    (src / "knighthawks" / "board.ts").rename(src / "knighthawks" / "map.ts")
    screen = src / "knighthawks" / "screen.ts"
    screen.write_text(screen.read_text().replace('from "./board"', 'from "./map"'))
    rc, out = _check(src)
    assert rc == 1, out
    assert "knighthawks/: no board.ts" in out and "knighthawks/map.ts: name it board.ts" in out, out


def test_a_stylesheet_outside_styles_ts_and_an_own_el_are_refused(tmp_path):
    src = _copy(tmp_path)
    help_ts = src / "mining" / "help.ts"
    help_ts.write_text(help_ts.read_text() + '\nconst el = (t: string) => document.createElement(t);\n'
                       'export const sheet = () => { document.head.append(document.createElement("style")); return el; };\n')
    rc, out = _check(src)
    assert rc == 1, out
    assert "mining/help.ts: injects a stylesheet; a game's stylesheet is its styles.ts" in out, out
    assert "mining/help.ts: defines its own el; build elements with shell/dom.ts's el" in out, out

"""Build hook: a wheel carries the built browser client.

Everything else about the package is in pyproject.toml. Before setuptools copies the package files, this hook
builds the client (web/, TypeScript -> src/deltav/web_static/) with Node: `npm ci` when web/node_modules is
missing, then `node build.mjs`. Without Node, an existing build is used; with neither, the wheel build stops
with the command to run. A pip user installing the wheel needs no Node. See docs/web.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
STATIC = ROOT / "src" / "deltav" / "web_static"


def _built() -> bool:
    return (STATIC / "index.html").is_file() and (STATIC / "build-info.json").is_file()


def build_client() -> None:
    if not (WEB / "package.json").is_file():  # an sdist without the sources: the build it carries is used
        if not _built():
            raise SystemExit("deltav: no web/ sources and no built client in src/deltav/web_static")
        return
    if shutil.which("node") is None or shutil.which("npm") is None:
        if _built():
            print("deltav: Node not found, packaging the existing client build", file=sys.stderr)
            return
        raise SystemExit("deltav: building the browser client needs Node.js and npm (or run `make setup` "
                         "on a machine that has them first)")
    env = {**os.environ, "PYTHON": sys.executable}
    if not (WEB / "node_modules" / "esbuild").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=WEB, env=env, check=True)
    subprocess.run(["node", "build.mjs"], cwd=WEB, env=env, check=True)


class BuildPyWithClient(build_py):
    def run(self):
        build_client()
        self.__dict__.pop("data_files", None)  # list the freshly built files
        super().run()


setup(cmdclass={"build_py": BuildPyWithClient})

"""Real services for the scale-out tests and the benchmark: a scratch PostgreSQL and a scratch Redis on free
loopback ports in a temporary directory (never a mock, never a shared standard port).

PostgreSQL: ``initdb`` (as the ``postgres`` user when we are root: the server refuses to run as root), then
``pg_ctl`` with ``listen_addresses=127.0.0.1``. Redis: ``redis-server --port P --bind 127.0.0.1 --save ''``.
:func:`missing` says which binaries are absent (the tests skip only then, and say why).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def _pg_bin(name: str) -> str | None:
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(f"{d}/{name}", os.X_OK):
            return f"{d}/{name}"
    return shutil.which(name)


def missing() -> list[str]:
    out = [n for n in ("initdb", "pg_ctl") if _pg_bin(n) is None]
    if shutil.which("redis-server") is None:
        out.append("redis-server")
    return out


def required_or_skipped():
    """The ``pytestmark`` of a test module that needs PostgreSQL and Redis: skipped on a developer's machine
    without their binaries; on CI (``CI`` set) a missing binary fails the whole module instead of hiding it."""
    import pytest

    absent = missing()
    if absent and os.environ.get("CI"):
        raise RuntimeError(f"CI needs PostgreSQL and Redis binaries (missing: {', '.join(absent)}); "
                           "scripts/system-deps.sh installs them")
    return pytest.mark.skipif(bool(absent), reason=f"needs PostgreSQL and Redis binaries (missing: "
                                                     f"{', '.join(absent)})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, timeout: float = 30.0) -> None:
    t0 = time.time()
    while time.time() - t0 < timeout:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port}")


class Postgres:
    """A scratch PostgreSQL cluster; ``url`` is its SQLAlchemy URL (database ``postgres``, trust auth)."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="deltav-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        as_root = os.geteuid() == 0
        self.prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
        if as_root:
            shutil.chown(self.dir, "postgres")
        env = {**os.environ, "LC_ALL": "C"}
        subprocess.run([*self.prefix, _pg_bin("initdb"), "-D", str(self.data), "--auth=trust", "-U", "postgres",
                        "-E", "UTF8"], check=True, capture_output=True, env=env)
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off -c max_connections=200"
        subprocess.run([*self.prefix, _pg_bin("pg_ctl"), "-D", str(self.data), "-o", opts, "-l",
                        str(self.dir / "log"), "-w", "start"], check=True, capture_output=True, env=env)
        _wait_port(self.port)
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def new_database(self, name: str) -> str:
        """A fresh empty database in this cluster; its URL."""
        subprocess.run([*self.prefix, _pg_bin("psql") or "psql", "-h", "127.0.0.1", "-p", str(self.port), "-U",
                        "postgres", "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        subprocess.run([*self.prefix, _pg_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_port(self.port)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

"""Reading a game's data files (maps, ship tables, scenarios, a user's own scenario) into typed records.

One reader for every data file in every game: the text is parsed as TOML or JSON, then read into the given type
(a frozen dataclass, usually) by :mod:`deltav.core.shape`, from the type's annotations. Every failure, a syntax
error or a field of the wrong kind, raises :class:`~deltav.core.errors.ScenarioError` with the field path
(``ships[0].fuel``), the reason and the file, so a user's own scenario file gets the same clear errors in every
game. Checks that span several fields (a ship placed on a hex the map does not have) stay in the game, which
raises ``ScenarioError`` through :func:`fail` with the same path style.

This module owns parsing and the error form only; it knows no game, opens no file (callers pass the text, read
with ``importlib.resources`` for shipped data or from a path a user named) and builds nothing game-specific.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any, Literal, NoReturn, TypeVar

from deltav.core.errors import ScenarioError
from deltav.core.shape import read

T = TypeVar("T")

Format = Literal["toml", "json"]

#: The largest data file accepted (a user's scenario is untrusted input; the shipped map is about 60 KB).
MAX_BYTES = 4 * 1024 * 1024


def field_path(path: str) -> str:
    """A :mod:`deltav.core.shape` path (``$.ships[0].fuel``) in the data-file style (``ships[0].fuel``)."""
    if path == "$":
        return "(file)"
    if path.startswith("$."):
        return path[2:]
    if path.startswith("$"):
        return path[1:]
    return path


def fail(field: str, reason: str, source: str | None = None) -> NoReturn:
    """Raise the data-file error for ``field`` (a path in the file) with ``reason``."""
    raise ScenarioError(field, reason, source)


def format_of(source: str) -> Format:
    """The format a file name implies: ``.json`` is JSON, anything else TOML."""
    return "json" if source.lower().endswith(".json") else "toml"


def parse(text: str | bytes, source: str, fmt: Format | None = None) -> Any:
    """The parsed document (TOML or JSON, by ``fmt`` or the file name), or ScenarioError naming the problem."""
    fmt = fmt or format_of(source)
    if len(text) > MAX_BYTES:
        fail("(file)", f"larger than {MAX_BYTES} bytes", source)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            fail("(file)", f"not UTF-8 text ({exc.reason} at byte {exc.start})", source)
    try:
        return json.loads(text) if fmt == "json" else tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        fail("(file)", f"not valid TOML: {exc}", source)
    except RecursionError:
        fail("(file)", "nested too deeply", source)
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        fail("(file)", f"not valid JSON: {exc}", source)


def read_as(tp: type[T] | Any, obj: Any, source: str | None = None, path: str = "$") -> T:
    """An already-parsed value ``obj`` read as ``tp``; a bad field raises ScenarioError(field, reason, source)."""
    return read(tp, obj, path, error=lambda p, r: ScenarioError(field_path(p), r, source))


def load(tp: type[T] | Any, text: str | bytes, source: str, fmt: Format | None = None) -> T:
    """The text of a data file, parsed and read as ``tp`` (see :func:`parse` and :func:`read_as`)."""
    return read_as(tp, parse(text, source, fmt), source)

"""Write the client's TypeScript types from the Python side's declared JSON shapes: ``web/src/generated/*.ts``.

Usage (from the repository): ``PYTHONPATH=src python web/tools/gen_types.py`` writes the files; ``--check`` writes
nothing and fails (exit 1, naming the stale files) when a checked-in file differs from a fresh generation
(``tests/web/test_generated_types.py`` runs it, so a change on one side that breaks the other fails the build).

The shapes are the ``TypedDict``\\ s the Python modules read JSON with (``deltav.core.shape``): each module that owns
a JSON document declares its shape next to the code that writes it (the snapshot envelope in ``core/session.py``,
the socket's messages in ``server/match.py`` and ``server/rooms.py``, the HTTP answers the client reads, each
game's view in its ``visibility.py``), and
``TARGETS`` below lists which go to which file. A TypedDict becomes an ``interface`` named as it is without its
``Json`` (or ``J``) suffix or leading underscore (a TypeScript global's name gets ``Doc`` after it), its docstring and each
field's docstring (a string right after the field) its TSDoc; ``NotRequired`` fields are optional, ``Literal``
values unions of literals, ``tuple`` fixed tuples, an open shape (``core.shape.open_shape``) gets an index
signature, ``Annotated`` bounds are dropped (the Python reader checks them). A TypedDict a root refers to is
written into the same file. A root that is a union of shapes (``ServerMessageJson = WelcomeJson | ...``) becomes a
``type`` alias, its ``#:`` comment its TSDoc.

Owns the translation and the list of targets only; it defines no shape.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import re
import sys
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin

OUT = Path(__file__).resolve().parents[1] / "src" / "generated"

#: file stem -> [(module, [root TypedDict names])], in the order they are written.
TARGETS: dict[str, list[tuple[str, list[str]]]] = {
    "protocol": [
        ("deltav.core.session", ["SnapshotJson", "LegalEntryJson", "LogEntryJson", "ResultJson"]),
        ("deltav.server.match", ["StateMessageJson", "RoomJson", "ServerErrorJson"]),
        ("deltav.server.rooms", ["ServerMessageJson"]),
    ],
    "api": [
        ("deltav.server.app", ["GameEntryJson"]),
        ("deltav.core.protocol", ["BriefingJson"]),
        ("deltav.server.store", ["RoomListEntryJson"]),
        ("deltav.server.hub", ["SeatGrantJson"]),
    ],
    "mining": [("deltav.games.mining.visibility", ["ViewJson", "BoardJson"]), ("deltav.games.mining.annotate", ["NotesJson"])],
    "knighthawks": [("deltav.games.knighthawks.visibility", ["ViewJson"]), ("deltav.games.knighthawks.board", ["BoardJson"]),
                    ("deltav.games.knighthawks.annotate", ["NotesJson"])],
    "deepspace": [("deltav.games.deepspace.visibility", ["ViewJson"]), ("deltav.games.deepspace.board", ["BoardJson"]),
                  ("deltav.games.deepspace.annotate", ["NotesJson"])],
    "tactical": [("deltav.games.tactical.visibility", ["ViewJson"]), ("deltav.games.tactical.board", ["BoardJson"]),
                 ("deltav.games.tactical.annotate", ["NotesJson"])],
}


#: Names of TypeScript's globals: a shape that would take one gets "Doc" after it (``MapJson`` -> ``MapDoc``).
TS_GLOBALS = frozenset({"Array", "Date", "Document", "Element", "Error", "Event", "Function", "Map", "Node", "Object",
                        "Promise", "Range", "Record", "Set", "Symbol", "Text", "Window"})


def ts_name(tp: Any) -> str:
    name = (tp if isinstance(tp, str) else tp.__name__).lstrip("_")
    name = name[:-4] if name.endswith("Json") and len(name) > 4 else name
    name = name[:-1] if name.endswith("J") and name[-2:-1].islower() else name  # deepspace's state_schema: WeaponJ
    return f"{name}Doc" if name in TS_GLOBALS else name


@functools.cache
def _class_docs(module: str) -> dict[str, dict[str, str]]:
    """Per top-level class of ``module``, the docstrings written right after its fields (``name: T`` then
    ``\"\"\"words\"\"\"``): the module's source parsed once."""
    path = getattr(sys.modules.get(module), "__file__", None)
    if path is None:
        return {}
    out: dict[str, dict[str, str]] = {}
    for cls in ast.parse(Path(path).read_text()).body:
        if not isinstance(cls, ast.ClassDef):
            continue
        docs = out[cls.name] = {}
        for a, b in zip(cls.body, cls.body[1:], strict=False):
            if (isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name) and isinstance(b, ast.Expr)
                    and isinstance(b.value, ast.Constant) and isinstance(b.value.value, str)):
                docs[a.target.id] = b.value.value
    return out


def _alias_doc(module: str, name: str) -> str | None:
    """The ``#:`` comment lines right above ``name = ...`` at the top of ``module``."""
    lines = Path(sys.modules[module].__file__ or "").read_text().splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"{name} = ") or line.startswith(f"{name}: "):
            doc = []
            while i > 0 and lines[i - 1].startswith("#:"):
                i -= 1
                doc.insert(0, lines[i][2:].strip())
            return " ".join(doc) or None
    return None


def _field_docs(tp: Any) -> dict[str, str]:
    """The field docstrings of ``tp`` and of the TypedDicts it extends (its own first)."""
    docs: dict[str, str] = {}
    for base in getattr(tp, "__orig_bases__", ()):  # a TypedDict's __mro__ is (it, dict, object)
        if typing.is_typeddict(base):
            docs.update(_field_docs(base))
    docs.update(_class_docs(tp.__module__).get(tp.__name__, {}))
    return docs


def _top_level_union(t: str) -> bool:
    """Whether a TypeScript type is a union at its top level (``A | B``, not ``(A | B)[]``)."""
    depth = 0
    for i, c in enumerate(t):
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "|" and depth == 0 and t[i - 1:i + 2] == " | ":
            return True
    return False


def _doc(text: str | None, indent: str) -> list[str]:
    if not text:
        return []
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text).replace("``", "`")
    lines = inspect.cleandoc(text).splitlines()
    if len(lines) == 1:
        return [f"{indent}/** {lines[0]} */"]
    return [f"{indent}/**", *[f"{indent} * {x}".rstrip() for x in lines], f"{indent} */"]


class Writer:
    """Translates types; collects the TypedDicts met on the way, to be written after the roots. ``elsewhere``: the
    TypedDicts an earlier file of ``TARGETS`` writes (imported from it, not written again)."""

    def __init__(self, elsewhere: dict[Any, str] | None = None) -> None:
        self.order: list[Any] = []
        self.names: dict[str, Any] = {}
        self.elsewhere = elsewhere or {}
        self.imports: dict[str, set[str]] = {}

    def need(self, tp: Any) -> str:
        name = ts_name(tp)
        stem = self.elsewhere.get(tp)
        if stem is not None:
            self.imports.setdefault(stem, set()).add(name)
            return name
        other = self.names.get(name)
        if other is not None and other is not tp:
            raise TypeError(f"two shapes would be named {name}: {other.__module__}.{other.__qualname__} and "
                            f"{tp.__module__}.{tp.__qualname__}")
        if other is None:
            self.names[name] = tp
            self.order.append(tp)
        return name

    def ts(self, tp: Any) -> str:
        origin = get_origin(tp)
        if tp is Any or tp is object:
            return "unknown"
        if tp is None or tp is type(None):
            return "null"
        if tp is bool:
            return "boolean"
        if tp in (int, float):
            return "number"
        if tp is str:
            return "string"
        if origin is Annotated or origin in (Required, NotRequired):
            return self.ts(get_args(tp)[0])
        if origin is Literal:
            return " | ".join(json.dumps(a) for a in get_args(tp))
        if origin is Union or origin is types.UnionType:
            parts: list[str] = []
            for a in get_args(tp):
                t = self.ts(a)
                if t not in parts:
                    parts.append(t)
            return " | ".join(parts)
        if origin is list or tp is list or origin is typing.Sequence or origin is tuple and get_args(tp)[1:] == (...,):
            item = self.ts((get_args(tp) or (Any,))[0])
            return f"({item})[]" if _top_level_union(item) else f"{item}[]"
        if origin is tuple:
            return "[" + ", ".join(self.ts(a) for a in get_args(tp)) + "]"
        if origin is dict or tp is dict or origin is typing.Mapping:
            _, vt = get_args(tp) or (str, Any)
            return f"Record<string, {self.ts(vt)}>"
        if typing.is_typeddict(tp):
            return self.need(tp)
        raise TypeError(f"gen_types cannot write the type {tp!r}")

    def interface(self, tp: Any) -> list[str]:
        hints = typing.get_type_hints(tp, include_extras=True)
        total = getattr(tp, "__total__", True)
        docs = _field_docs(tp)
        own_doc = tp.__doc__ if tp.__dict__.get("__doc__") else None
        out = [*_doc(own_doc, ""), f"export interface {ts_name(tp)} {{"]
        for name, t in hints.items():
            o = get_origin(t)
            required = True if o is Required else False if o is NotRequired else total
            key = name if name.isidentifier() else json.dumps(name)
            out += _doc(docs.get(name), "  ")
            out.append(f"  {key}{'' if required else '?'}: {self.ts(t)};")
        if getattr(tp, "__open_shape__", False):
            out.append("  [field: string]: unknown;")
        out.append("}")
        return out


def _write(stem: str, elsewhere: dict[Any, str]) -> tuple[str, list[Any]]:
    """The text of ``stem``'s file and the TypedDicts it writes."""
    w = Writer(elsewhere)
    sources = []
    blocks: list[list[str]] = []
    for module, roots in TARGETS[stem]:
        mod = importlib.import_module(module)
        sources.append(module)
        for root in roots:
            tp = getattr(mod, root)
            if typing.is_typeddict(tp):
                w.need(tp)
            else:  # a union of shapes (the socket's messages): a type alias, its ``#:`` comment its TSDoc
                blocks.append([*_doc(_alias_doc(module, root), ""), f"export type {ts_name(root)} = {w.ts(tp)};"])
    i = 0
    while i < len(w.order):  # the list grows while interfaces are written
        blocks.append(w.interface(w.order[i]))
        i += 1
    head = [
        f"// Generated by web/tools/gen_types.py from {', '.join(sources)}: do not edit.",
        "// Run `PYTHONPATH=src python web/tools/gen_types.py` after changing a shape there (docs/web.md).",
        "",
    ]
    for other, names in sorted(w.imports.items()):
        head.insert(-1, f'import type {{ {", ".join(sorted(names))} }} from "./{other}";')
    return "\n".join(head + ["\n".join(b) + "\n" for b in blocks]).rstrip("\n") + "\n", w.order


def render_all() -> dict[str, str]:
    """The text of every file of ``TARGETS``: the TypedDicts an earlier file writes are imported from it."""
    elsewhere: dict[Any, str] = {}
    out = {}
    for stem in TARGETS:
        out[stem], written = _write(stem, elsewhere)
        for tp in written:
            elsewhere[tp] = stem
    return out


def render(stem: str) -> str:
    """The text of ``stem``'s file."""
    return render_all()[stem]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for stem, text in render_all().items():
        path = OUT / f"{stem}.ts"
        if path.exists() and path.read_text() == text:
            continue
        if check:
            stale.append(str(path))
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path}")
    extra = sorted(p.name for p in OUT.glob("*.ts") if p.stem not in TARGETS) if OUT.exists() else []
    if check and (stale or extra):
        for s in stale:
            print(f"stale: {s} (run PYTHONPATH=src python web/tools/gen_types.py)")
        for e in extra:
            print(f"not generated: {OUT / e} (remove it or add it to TARGETS)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

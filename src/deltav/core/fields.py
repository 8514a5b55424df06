"""A state's fields declared once: from one :class:`Fields` declaration follow the state's ``__slots__``, its
``clone()``, its ``to_json()``, the building of a state from its (checked) JSON document, and the JSON shape that
document is checked against (a ``TypedDict`` for :mod:`deltav.core.shape`).

Each :class:`Field` says:

- ``name``: the attribute, which is also the JSON key (no renames between memory and JSON); ``json`` only where
  the attribute cannot carry the JSON name (``result``: the protocol's ``result()`` method owns that name);
- ``type``: the JSON type (a ``core.shape`` annotation: ``Annotated`` bounds, TypedDicts, tuples); None for a field
  that is not saved (a cache, or one rebuilt from others after loading: ``load_default``);
- ``clone``: what ``clone()`` does with it: ``SHARE`` (immutable, or replaced and never changed in place), ``COPY``
  (a flat list: ``x[:]``), ``COPY_DICT`` (``x.copy()``), ``COPY_OR_NONE`` (``x[:]`` or None), ``CLONE``
  (``x.clone()``), ``CLONE_EACH`` (``[e.clone() for e in x]``), ``COPY_EACH`` (a list of records: ``[e.copy() for e
  in x]``), ``COPY_RECORD_OR_NONE`` (one record or None: ``x.copy()`` or None), ``COPY_ROWS`` (a list of lists:
  ``[r[:] for r in x]``), or a function;
- ``dump``: how the value becomes JSON: None (as it is: scalars), ``LIST`` (``list(x)``), ``LIST_OR_NONE`` (or
  None), ``ROWS`` (``[list(r) for r in x]``), ``DICT`` (``dict(x)``), ``TO_JSON`` (``x.to_json()``),
  ``TO_JSON_OR_NONE``, ``EACH_TO_JSON`` (``[e.to_json() for e in x]``), or a function;
- ``load``: how the checked JSON value becomes the field's value: None (as it is), ``LIST``, ``LIST_OR_NONE``,
  ``TUPLE``, ``ROW_TUPLES`` (``[tuple(r) for r in x]``), ``DICT``, or a function of ``(value, doc)`` (``doc``: the
  whole checked document);
- ``missing``: for a key older documents may lack (``NotRequired`` in the shape), a function giving the value of a
  loaded state without it (``dict``: "none known");
- ``rebuild``: for a field that is not saved, a function of the state giving its value from the state's other
  fields, both in a clone (from the clone's own, after every other field is set) and after loading (tactical's
  ``_index`` of the cloned ships by id);
- ``derived``: a key written to JSON from a read-only attribute of the class (a property computed from other
  fields: Knight Hawks' ``mover``), neither a slot nor cloned nor loaded; ``NotRequired`` in the shape (the game's
  ``state_schema`` checks it agrees with the fields it comes from), unless ``required``: a key every document has,
  which the game reads itself before building (mining's ``options`` and ``components``, written from its ``cfg``).

The generated ``clone`` and ``to_json`` are compiled from source once per class, one line per field, so they cost
what the hand-written ones did (the search's hot path). ``constants`` are JSON keys with one fixed value (``"game":
"deepspace"``), written first; ``optional_constants`` makes them ``NotRequired`` in the shape (documents from before
they were written).

This module owns the declaration and what is derived from it; it knows no game and checks nothing itself (the
shape is checked by :mod:`deltav.core.shape`, consistency by each game's ``state_schema``).
"""

from __future__ import annotations

import linecache
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

SHARE, COPY, CLONE, COPY_EACH, COPY_ROWS = "share", "copy", "clone", "copy_each", "copy_rows"
COPY_DICT, CLONE_EACH, COPY_OR_NONE = "copy_dict", "clone_each", "copy_or_none"
COPY_RECORD_OR_NONE = "copy_record_or_none"
LIST, ROWS, DICT, TUPLE, ROW_TUPLES = "list", "rows", "dict", "tuple", "row_tuples"
LIST_OR_NONE = "list_or_none"
TO_JSON, TO_JSON_OR_NONE, EACH_TO_JSON = "to_json", "to_json_or_none", "each_to_json"

_CLONE = {SHARE: "self.{n}", COPY: "self.{n}[:]", CLONE: "self.{n}.clone()", COPY_DICT: "self.{n}.copy()",
          CLONE_EACH: "[e.clone() for e in self.{n}]", COPY_OR_NONE: "self.{n}[:] if self.{n} is not None else None",
          COPY_EACH: "[e.copy() for e in self.{n}]", COPY_ROWS: "[r[:] for r in self.{n}]",
          COPY_RECORD_OR_NONE: "self.{n}.copy() if self.{n} is not None else None"}
_DUMP = {None: "self.{n}", LIST: "list(self.{n})", LIST_OR_NONE: "list(self.{n}) if self.{n} is not None else None",
         ROWS: "[list(r) for r in self.{n}]", DICT: "dict(self.{n})",
         TO_JSON: "self.{n}.to_json()", TO_JSON_OR_NONE: "self.{n}.to_json() if self.{n} is not None else None",
         EACH_TO_JSON: "[e.to_json() for e in self.{n}]"}
_LOAD = {None: "v", LIST: "list(v)", LIST_OR_NONE: "list(v) if v is not None else None", TUPLE: "tuple(v)",
         ROW_TUPLES: "[tuple(r) for r in v]", DICT: "dict(v)"}


def compile_source(source: str, name: str) -> Any:
    """Compile generated ``source`` under ``name``, kept in ``linecache`` so tracebacks show its lines."""
    linecache.cache[name] = (len(source), None, source.splitlines(keepends=True), name)
    return compile(source, name, "exec")


@dataclass(frozen=True)
class Field:
    """One field of a state (see the module docstring)."""

    name: str
    type: Any = None
    clone: str | Callable[[Any], Any] = SHARE
    dump: str | Callable[[Any], Any] | None = None
    load: str | Callable[[Any, dict], Any] | None = None
    json: str = ""
    load_default: Any = None  # the value of an unsaved field in a loaded state (rebuilt later by the game)
    missing: Callable[[], Any] | None = None  # the key may be absent (NotRequired): the value then
    derived: bool = False  # JSON only, from the class's read-only attribute of that name (not a slot)
    required: bool = False  # a derived key every document has (required in the shape)
    rebuild: Callable[[Any], Any] | None = None  # an unsaved field computed from the state (in a clone, once loaded)

    @property
    def key(self) -> str:
        """The JSON key."""
        return self.json or self.name

    @property
    def saved(self) -> bool:
        return self.type is not None


class Fields:
    """The declaration of a state's fields, in JSON order (see the module docstring)."""

    def __init__(self, *fields: Field, constants: dict[str, Any] | None = None,
                 optional_constants: bool = False) -> None:
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"a field is declared twice in {names}")
        for f in fields:
            if not f.name.isidentifier():
                raise ValueError(f"{f.name!r} is not an attribute name")
            for kind, table in ((f.clone, _CLONE), (f.dump, _DUMP), (f.load, _LOAD)):
                if isinstance(kind, str) and kind not in table:
                    raise ValueError(f"field {f.name}: unknown conversion {kind!r}")
            if f.derived and (not f.saved or f.clone != SHARE or f.load is not None or f.missing is not None):
                raise ValueError(f"field {f.name}: a derived field has a type and is neither cloned nor loaded")
            if f.rebuild is not None and (f.saved or f.clone != SHARE or f.load_default is not None):
                raise ValueError(f"field {f.name}: a rebuilt field is not saved, and only rebuilt")
        self.fields = fields
        self.stored = tuple(f for f in fields if not f.derived)
        self.constants = dict(constants or {})
        self.optional_constants = optional_constants
        self._builders: dict[type, Callable[[dict], Any]] = {}  # build_function per class, made when first used

    @property
    def slots(self) -> tuple[str, ...]:
        """The ``__slots__`` of the state class (every field but the derived ones)."""
        return tuple(f.name for f in self.stored)

    @property
    def saved(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.saved)

    def typed_dict(self, name: str) -> type:
        """The JSON document's shape: a ``TypedDict`` of every constant (a ``Literal``) and saved field (``NotRequired``
        where the key may be absent: ``missing``, ``derived``, ``optional_constants``)."""
        annotations: dict[str, Any] = {k: NotRequired[Literal[v]] if self.optional_constants else Literal[v]
                                       for k, v in self.constants.items()}
        annotations.update((f.key, NotRequired[f.type] if (f.derived and not f.required) or f.missing is not None
                            else f.type)
                           for f in self.saved)
        return TypedDict(name, annotations)  # type: ignore[operator]

    def _namespace(self) -> dict[str, Any]:
        ns: dict[str, Any] = {}
        for f in self.fields:
            for kind, prefix in ((f.clone, "clone"), (f.dump, "dump"), (f.load, "load"), (f.rebuild, "rebuild")):
                if callable(kind):
                    ns[f"_{prefix}_{f.name}"] = kind
        return ns

    def clone_function(self, cls: type) -> Callable[[Any], Any]:
        """``cls.clone``: a new instance, each field shared or copied as declared, then the rebuilt ones."""
        lines = ["def clone(self):", "    s = new(cls)"]
        for f in self.stored:
            if f.rebuild is not None:
                continue
            expr = f"_clone_{f.name}(self.{f.name})" if callable(f.clone) else _CLONE[f.clone].format(n=f.name)
            lines.append(f"    s.{f.name} = {expr}")
        lines.extend(f"    s.{f.name} = _rebuild_{f.name}(s)" for f in self.stored if f.rebuild is not None)
        lines.append("    return s")
        ns = {"new": object.__new__, "cls": cls, **self._namespace()}
        exec(compile_source("\n".join(lines), f"<clone of {cls.__name__}>"), ns)  # noqa: S102 - our own source
        fn = ns["clone"]
        fn.__qualname__ = f"{cls.__name__}.clone"
        fn.__doc__ = "A copy sharing what the field declaration shares (deltav.core.fields)."
        return fn

    def to_json_function(self, cls: type) -> Callable[[Any], dict]:
        """``cls.to_json``: the constants, then every saved field under its JSON key, converted as declared."""
        lines = ["def to_json(self):", "    return {"]
        for k, v in self.constants.items():
            lines.append(f"        {k!r}: {v!r},")
        for f in self.saved:
            expr = f"_dump_{f.name}(self.{f.name})" if callable(f.dump) else _DUMP[f.dump].format(n=f.name)
            lines.append(f"        {f.key!r}: {expr},")
        lines.append("    }")
        ns = self._namespace()
        exec(compile_source("\n".join(lines), f"<to_json of {cls.__name__}>"), ns)  # noqa: S102 - our own source
        fn = ns["to_json"]
        fn.__qualname__ = f"{cls.__name__}.to_json"
        fn.__doc__ = "The state's JSON document (deltav.core.fields)."
        return fn

    def build_function(self, cls: type) -> Callable[[dict], Any]:
        """:meth:`build` of a ``cls`` with nothing ``given``, as one generated function: the same fields set in the
        same order from the same loaders, without reading the declaration again (a determinizing bot reads a
        view into a state for every decision)."""
        lines = ["def build(doc):", "    s = new(cls)"]
        ns = {"new": object.__new__, "cls": cls, **self._namespace()}
        for f in self.stored:
            if not f.saved:
                ns[f"_default_{f.name}"] = f.load_default
                lines.append(f"    s.{f.name} = _default_{f.name}")
                continue
            expr = f"_load_{f.name}(v, doc)" if callable(f.load) else _LOAD[f.load]
            pad = "    "
            if f.missing is not None:
                ns[f"_missing_{f.name}"] = f.missing
                lines.append(f"    if {f.key!r} not in doc:")
                lines.append(f"        s.{f.name} = _missing_{f.name}()")
                lines.append("    else:")
                pad = "        "
            lines.append(f"{pad}v = doc[{f.key!r}]")
            lines.append(f"{pad}s.{f.name} = {expr}")
        lines.extend(f"    s.{f.name} = _rebuild_{f.name}(s)" for f in self.stored if f.rebuild is not None)
        lines.append("    return s")
        exec(compile_source("\n".join(lines), f"<build of {cls.__name__}>"), ns)  # noqa: S102 - our own source
        fn = ns["build"]
        fn.__qualname__ = f"{cls.__name__}.build"
        fn.__doc__ = "A new instance from a checked JSON document (deltav.core.fields, Fields.build)."
        return fn

    def build(self, cls: type, doc: dict, **given: Any) -> Any:
        """A new ``cls`` from a JSON document already checked against :meth:`typed_dict`: every saved field
        loaded as declared (``missing()`` where its key is absent), every other set to its ``load_default`` (the
        game rebuilds those after) or, once all are set, to its ``rebuild(state)``. ``given``: fields a caller has
        already read from this document (taken as they are)."""
        if not given:
            fn = self._builders.get(cls)
            if fn is None:
                fn = self._builders[cls] = self.build_function(cls)
            return fn(doc)
        unknown = set(given) - set(self.slots)
        if unknown:
            raise ValueError(f"no field {sorted(unknown)} to give")
        s = object.__new__(cls)
        for f in self.stored:
            if f.name in given:
                setattr(s, f.name, given[f.name])
                continue
            if not f.saved:
                setattr(s, f.name, f.load_default)
                continue
            if f.missing is not None and f.key not in doc:
                setattr(s, f.name, f.missing())
                continue
            v = doc[f.key]
            load = f.load
            if callable(load):
                v = load(v, doc)
            elif load is not None:
                v = _LOADERS[load](v)
            setattr(s, f.name, v)
        for f in self.stored:
            if f.rebuild is not None and f.name not in given:
                setattr(s, f.name, f.rebuild(s))
        return s

    def count(self) -> int:
        """How many fields are declared (each is listed once: here)."""
        return len(self.fields)


_LOADERS: dict[str, Callable[[Any], Any]] = {
    LIST: list, LIST_OR_NONE: lambda v: list(v) if v is not None else None, TUPLE: tuple, DICT: dict,
    ROW_TUPLES: lambda v: [tuple(r) for r in v],
}


def declare(cls: type, fields: Fields) -> type:
    """Give ``cls`` the ``clone`` and ``to_json`` derived from ``fields`` and remember the declaration as
    ``cls.fields`` (``__slots__`` must be ``fields.slots``, set in the class body)."""
    cls.fields = fields
    cls.clone = fields.clone_function(cls)
    cls.to_json = fields.to_json_function(cls)
    return cls

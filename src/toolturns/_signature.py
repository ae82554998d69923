"""``Tool.from_function``: a Python function read once, as a Tool and as a way to call it.

``Signature`` reads the parameters (``inspect.signature``), their type hints
(``typing.get_type_hints``) and the docstring, and builds two things from one
walk over the types: the JSON Schema of the arguments, and for each value
JSON cannot carry as the function wants it (an Enum member, a dataclass, a
tuple, an int written ``1.0``) a converter that ``bind`` applies.

Nested classes (dataclasses, TypedDicts) are written inline where they are
used: every provider and model reads an inline schema, not all follow
``$ref``. A class that contains itself is the exception: it goes to ``$defs``
once, and each use is a ``$ref`` to it.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import re
import types
from collections.abc import Callable, Mapping, Sequence
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from ._errors import InvalidArguments, InvalidTool, describe
from ._json import JSON, join_key, owned
from ._schema import Check, Violation, compile_schema
from ._tool import Tool

__all__ = ["Signature"]

#: Turns a validated JSON value into the Python value the function takes; raises ``Violation``.
Convert = Callable[[Any], Any]

_NO_FORM = "has no JSON schema form"


class Signature:
    """What a Python function takes, read once: its Tool and how to call it."""

    tool: Tool

    def __init__(
        self, fn: Callable[..., object], *, name: str | None = None, description: str | None = None
    ) -> None:
        if not callable(fn):
            raise InvalidTool("", "must be a function (callable)", describe(fn))
        target = _annotated(fn)
        try:
            parameters = inspect.signature(fn).parameters
        except (TypeError, ValueError) as error:
            raise InvalidTool("", "must have a signature inspect can read", describe(str(error))) from None
        hints = _hints(target, "parameters")
        summary, documented = _docstring(inspect.getdoc(target) or "")
        reader = _Reader()
        properties: dict[str, Any] = {}
        required: list[str] = []
        self._converters: dict[str, Convert | None] = {}
        self._nullable: list[str] = []
        for key, parameter in parameters.items():
            path = f"parameters.{key}"
            _check_kind(parameter, path)
            if key not in hints:
                raise InvalidTool(path, "must have a type annotation (its JSON schema comes from it)")
            schema, convert = reader.form(hints[key], path)
            if key in documented and "description" not in schema:
                schema = {**schema, "description": documented[key]}
            if parameter.default is not inspect.Parameter.empty:
                schema = _with_default(schema, parameter.default)
            elif _is_optional(hints[key]):
                self._nullable.append(key)  # left out, it is passed as None
            else:
                required.append(key)
            properties[key] = schema
            self._converters[key] = convert
        self._required = tuple(required)
        root: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            root["required"] = required
        root["additionalProperties"] = False  # fn takes no other keyword
        if reader.defs:
            root["$defs"] = reader.defs
        reader.root = root
        self.tool = Tool(
            _name(fn) if name is None else name,
            summary if description is None else description,
            root,
        )

    def bind(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments for fn from decoded JSON arguments that passed tool.validate:
        None for each left-out `T | None` parameter without default; values converted to the
        annotated Python types where JSON cannot carry them: Enum members from their values,
        dataclass instances from objects (recursively), tuples from arrays, nested inside
        list/dict/Optional too. Raises InvalidArguments(path, rule, got) if a value cannot be
        converted (e.g. a dataclass __post_init__ raising); never anything else."""
        if not isinstance(arguments, Mapping):
            raise InvalidArguments("", "must be an object (the arguments by name)", describe(arguments))
        try:
            return self._bound(arguments)
        except Violation as violation:
            raise violation.error() from None
        except RecursionError:
            raise InvalidArguments("", "is nested too deeply to convert", "dict") from None

    def _bound(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        converters = self._converters
        bound: dict[str, Any] = {}
        for key, value in arguments.items():
            if key not in converters:
                raise Violation(
                    f"is not a parameter (parameters: {_listed(converters)})", describe(value), [key]
                )
            convert = converters[key]
            bound[key] = value if convert is None else _at(key, convert, value)
        for key in self._nullable:
            bound.setdefault(key, None)
        for key in self._required:
            if key not in bound:
                raise Violation("is required", None, [key])
        return bound


def _listed(keys: Mapping[str, object]) -> str:
    return ", ".join(map(repr, keys)) or "none"


def _at(key: str | int, convert: Convert, value: object) -> Any:
    """``convert(value)``, a violation's path starting with ``key``."""
    try:
        return convert(value)
    except Violation as violation:
        violation.keys.append(key)
        raise


# -- the function --------------------------------------------------------------------


def _annotated(fn: Callable[..., object]) -> Any:
    """The function whose annotations and docstring describe ``fn``'s parameters."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    if not (inspect.isfunction(fn) or inspect.ismethod(fn) or inspect.isbuiltin(fn)):
        return type(fn).__call__  # an instance with __call__
    return fn


def _name(fn: Callable[..., object]) -> str:
    while isinstance(fn, functools.partial):
        fn = fn.func
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str):
        raise InvalidTool("name", "is required: the callable has no __name__ (pass name=...)", describe(fn))
    return name


def _hints(owner: object, path: str) -> dict[str, Any]:
    try:
        return get_type_hints(owner, include_extras=True)
    except Exception as error:  # NameError, TypeError...: whatever evaluating a hint raised
        raise InvalidTool(path, "must have type hints that resolve", describe(str(error))) from None


_REFUSED_KINDS: dict[Any, str] = {
    inspect.Parameter.VAR_POSITIONAL: "must not be *args (a tool's arguments are named)",
    inspect.Parameter.VAR_KEYWORD: "must not be **kwargs (a tool's arguments are each declared)",
    inspect.Parameter.POSITIONAL_ONLY: "must not be positional-only (the arguments are passed by name)",
}


def _check_kind(parameter: inspect.Parameter, path: str) -> None:
    refused = _REFUSED_KINDS.get(parameter.kind)
    if refused is not None:
        raise InvalidTool(path, refused)


def _is_optional(hint: object) -> bool:
    """Whether ``hint`` is ``T | None`` (``Annotated`` around it or not)."""
    while get_origin(hint) is Annotated:
        hint = get_args(hint)[0]
    return get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)


def _with_default(schema: dict[str, Any], default: object) -> dict[str, Any]:
    """``schema`` with ``"default"`` when the default is JSON; one that is not is simply not shown."""
    if isinstance(default, enum.Enum):
        default = default.value
    try:
        value: JSON = owned(default, "default", InvalidTool)
    except InvalidTool:
        return schema
    return {**schema, "default": value}


# -- docstrings ------------------------------------------------------------------------

_GOOGLE_HEADERS = frozenset(
    {"args:", "arguments:", "parameters:", "params:", "keyword args:", "keyword arguments:"}
)
# Google's other sections: one ends the first paragraph when no blank line does.
_GOOGLE_SECTIONS = frozenset(
    f"{name}:"
    for name in (
        "Returns",
        "Return",
        "Raises",
        "Yields",
        "Yield",
        "Examples",
        "Example",
        "Note",
        "Notes",
        "Attributes",
        "See Also",
        "Warning",
        "Warnings",
        "Todo",
        "References",
    )
)
_NUMPY_HEADERS = frozenset({"parameters", "other parameters", "keyword arguments"})
_GOOGLE_ENTRY = re.compile(r"\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)")
_SPHINX_ENTRY = re.compile(
    r":(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*\s)?\*{0,2}(\w+)\s*:\s*(.*)"
)
_NUMPY_RULE = re.compile(r"-{3,}")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _is_section_start(lines: list[str], index: int) -> bool:
    line = lines[index].strip()
    following = lines[index + 1].strip() if index + 1 < len(lines) else ""
    return (
        line.startswith(":")
        or line.lower() in _GOOGLE_HEADERS
        or line in _GOOGLE_SECTIONS
        or bool(_NUMPY_RULE.fullmatch(following))
    )


def _docstring(doc: str) -> tuple[str, dict[str, str]]:
    """The first paragraph, and each parameter's description from a Google, NumPy or Sphinx section."""
    lines = inspect.cleandoc(doc).splitlines()
    summary = []
    for index, line in enumerate(lines):
        if not line.strip() or _is_section_start(lines, index):
            break
        summary.append(line.strip())
    described: dict[str, str] = {}
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.lower() in _GOOGLE_HEADERS:
            described.update(_google(lines, index))
        elif (
            stripped.lower() in _NUMPY_HEADERS
            and index + 1 < len(lines)
            and _NUMPY_RULE.fullmatch(lines[index + 1].strip())
        ):
            described.update(_numpy(lines, index))
        elif (entry := _SPHINX_ENTRY.match(stripped)) is not None:
            described[entry[1]] = _continued(entry[2], lines, index, _indent(line))
    return " ".join(summary), described


def _continued(first: str, lines: list[str], index: int, indent: int) -> str:
    """An entry's text: its first line's and the lines after it indented deeper, as one line."""
    parts = [first.strip()] if first.strip() else []
    for line in lines[index + 1 :]:
        if line.strip() and _indent(line) <= indent:
            break
        if line.strip():
            parts.append(line.strip())
    return " ".join(parts)


def _google(lines: list[str], header: int) -> dict[str, str]:
    described: dict[str, str] = {}
    depth = _indent(lines[header])
    entry_indent = None
    for index in range(header + 1, len(lines)):
        line = lines[index]
        if not line.strip():
            continue
        indent = _indent(line)
        if indent <= depth:
            break  # the next section
        if entry_indent is None:
            entry_indent = indent
        if indent == entry_indent and (entry := _GOOGLE_ENTRY.fullmatch(line.strip())) is not None:
            described[entry[1]] = _continued(entry[2], lines, index, indent)
    return described


def _numpy(lines: list[str], header: int) -> dict[str, str]:
    described: dict[str, str] = {}
    depth = _indent(lines[header])
    for index in range(header + 2, len(lines)):
        line = lines[index]
        if not line.strip() or _indent(line) > depth:
            continue  # a description line, read with its entry
        if index + 1 < len(lines) and _NUMPY_RULE.fullmatch(lines[index + 1].strip()):
            break  # the next section
        names, _, _kind = line.strip().partition(":")
        text = _continued("", lines, index, depth)
        for each in names.split(","):
            described[each.strip().lstrip("*")] = text
    return described


# -- types -------------------------------------------------------------------------------


def _type_name(hint: object) -> str:
    name = getattr(hint, "__name__", None)
    return name if isinstance(name, str) and get_origin(hint) is None else repr(hint)


def _to_int(value: Any) -> Any:
    # JSON Schema's integer includes 1.0; the function annotated int gets 1.
    return int(value) if type(value) is float and value.is_integer() else value


def _to_float(value: Any) -> Any:
    if type(value) is int:
        try:
            return float(value)
        except OverflowError:
            raise Violation("must be a number a float can hold", describe(value)) from None
    return value


_SCALARS: dict[object, tuple[dict[str, Any], Convert | None]] = {
    str: ({"type": "string"}, None),
    bool: ({"type": "boolean"}, None),
    int: ({"type": "integer"}, _to_int),
    float: ({"type": "number"}, _to_float),
    type(None): ({"type": "null"}, None),
    None: ({"type": "null"}, None),
    Any: ({}, None),
}
_LISTS = (list, Sequence)
_MAPS = (dict, Mapping)
_LITERAL_TYPES = {str: "string", bool: "boolean", int: "integer", type(None): "null"}


class _Reader:
    """One walk over a function's types: each type's schema and converter, nested classes once."""

    def __init__(self) -> None:
        self.root: dict[str, Any] = {}  # the finished schema, for the matchers of unions
        self.defs: dict[str, Any] = {}
        self.building: set[type] = set()
        self.recurring: dict[type, str] = {}  # class -> its name in $defs
        self.converters: dict[type, Convert | None] = {}

    def form(self, hint: Any, path: str) -> tuple[dict[str, Any], Convert | None]:
        scalar = _SCALARS.get(hint) if _hashable(hint) else None
        if scalar is not None:
            return dict(scalar[0]), scalar[1]
        origin = get_origin(hint)
        if origin is Annotated:
            return self.annotated(hint, path)
        if origin in (Union, types.UnionType):
            return self.union(get_args(hint), path)
        if origin is Literal:
            return _literal(hint, path)
        if hint in _LISTS or origin in _LISTS:
            return self.array(get_args(hint), path)
        if hint is tuple or origin is tuple:
            return self.fixed(hint, path)
        if hint in _MAPS or origin in _MAPS:
            return self.mapping(hint, path)
        supertype = getattr(hint, "__supertype__", None)  # a NewType
        if supertype is not None:
            return self.form(supertype, path)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return _enum(hint, path)
        if isinstance(hint, type) and (is_typeddict(hint) or dataclasses.is_dataclass(hint)):
            return self.named(hint, path)
        raise InvalidTool(path, _NO_FORM, _type_name(hint))

    def annotated(self, hint: Any, path: str) -> tuple[dict[str, Any], Convert | None]:
        schema, convert = self.form(get_args(hint)[0], path)
        notes = [note for note in hint.__metadata__ if isinstance(note, str)]
        if notes:
            schema = {**schema, "description": notes[0]}
        return schema, convert

    def union(self, members: tuple[Any, ...], path: str) -> tuple[dict[str, Any], Convert | None]:
        forms = [self.form(member, path) for member in members]
        schema = {"anyOf": [each for each, _ in forms]}
        converters = [convert for _, convert in forms]
        if all(convert is None for convert in converters):
            return schema, None
        if len(members) == 2 and type(None) in members:
            (inner,) = [convert for convert in converters if convert is not None]
            return schema, lambda value: None if value is None else inner(value)
        return schema, self.chooser(forms)

    def chooser(self, forms: list[tuple[dict[str, Any], Convert | None]]) -> Convert:
        """The converter of a union: that of the first member whose schema the value matches."""
        compiled: list[list[Check] | None] = [None]  # compiled on first use: the root is finished by then

        def convert(value: object) -> Any:
            matchers = compiled[0]
            if matchers is None:  # two threads may both compile: each gets a whole list
                matchers = compiled[0] = [compile_schema(self.root, schema) for schema, _ in forms]
            for matches, (_, member) in zip(matchers, forms, strict=True):
                try:
                    matches(value)
                except Violation:
                    continue
                return value if member is None else member(value)
            raise Violation("must match one of the types of the union", describe(value))

        return convert

    def array(self, items: tuple[Any, ...], path: str) -> tuple[dict[str, Any], Convert | None]:
        if not items:
            return {"type": "array"}, None
        schema, inner = self.form(items[0], path)
        if inner is None:
            return {"type": "array", "items": schema}, None
        return {"type": "array", "items": schema}, _items(list, [], inner)

    def fixed(self, hint: Any, path: str) -> tuple[dict[str, Any], Convert | None]:
        """A tuple: ``tuple[T, ...]`` as an array of T, ``tuple[A, B]`` as an array of exactly A then B."""
        items = get_args(hint)
        if hint is tuple:
            return {"type": "array"}, _items(tuple, [], _same)
        if not items:  # tuple[()]
            return {"type": "array", "maxItems": 0}, _items(tuple, [], _same)
        if len(items) == 2 and items[1] is Ellipsis:
            schema, inner = self.form(items[0], path)
            return {"type": "array", "items": schema}, _items(tuple, [], inner or _same)
        forms = [self.form(item, path) for item in items]
        schema = {
            "type": "array",
            "prefixItems": [each for each, _ in forms],
            "minItems": len(items),
            "maxItems": len(items),
        }
        return schema, _items(tuple, [convert or _same for _, convert in forms], None)

    def mapping(self, hint: Any, path: str) -> tuple[dict[str, Any], Convert | None]:
        args = get_args(hint)
        if not args:
            return {"type": "object"}, None
        if args[0] is not str:
            raise InvalidTool(path, _NO_FORM + " (a JSON object's keys are strings)", _type_name(hint))
        schema, inner = self.form(args[1], path)
        return {"type": "object", "additionalProperties": schema}, None if inner is None else _values(inner)

    def named(self, cls: type, path: str) -> tuple[dict[str, Any], Convert | None]:
        """A dataclass or TypedDict: inline, or a ``$ref`` when it contains itself."""
        if cls in self.recurring or cls in self.building:
            return {"$ref": f"#/$defs/{self.def_name(cls)}"}, self.converters[cls]
        self.building.add(cls)
        cell: list[Convert | None] = []
        self.converters[cls] = lambda value: cell[0](value) if cell[0] is not None else value
        try:
            schema, convert = self.fields_of(cls, path)
        finally:
            self.building.discard(cls)
        cell.append(convert)
        if cls in self.recurring:
            self.defs[self.recurring[cls]] = schema
            return {"$ref": f"#/$defs/{self.recurring[cls]}"}, self.converters[cls]
        self.converters[cls] = convert
        return schema, convert

    def def_name(self, cls: type) -> str:
        if cls not in self.recurring:
            name = cls.__name__
            taken = set(self.recurring.values())
            number = 1
            while name in taken:
                number += 1
                name = f"{cls.__name__}{number}"
            self.recurring[cls] = name
        return self.recurring[cls]

    def fields_of(self, cls: type, path: str) -> tuple[dict[str, Any], Convert | None]:
        hints = _hints(cls, path)
        fields = _fields(cls, hints)
        properties: dict[str, Any] = {}
        required: list[str] = []
        converters: dict[str, Convert | None] = {}
        nullable: list[str] = []
        for key, (hint, is_required, default) in fields.items():
            schema, converters[key] = self.form(hint, join_key(path, key))
            if default is not _MISSING:
                schema = _with_default(schema, default)
            if is_required and _is_optional(hint):
                nullable.append(key)
            elif is_required:
                required.append(key)
            properties[key] = schema
        schema = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        make: Callable[..., Any] = cls if dataclasses.is_dataclass(cls) else dict
        if make is dict and not nullable and all(convert is None for convert in converters.values()):
            return schema, None
        return schema, _builder(cls, make, converters, nullable)


_MISSING: Any = object()


def _same(value: Any) -> Any:
    return value


def _items(make: Callable[[list[Any]], Any], each: list[Convert], rest: Convert | None) -> Convert:
    """The converter of an array: ``each[n]`` for the first items, ``rest`` for the others, into ``make``."""

    def convert(value: object) -> Any:
        if not isinstance(value, (list, tuple)):
            raise Violation("must be an array", describe(value))
        if rest is None and len(value) != len(each):
            raise Violation(f"must have {len(each)} items", f"{len(value)} items")
        converted = []
        for index, item in enumerate(value):
            convert_item = each[index] if index < len(each) else rest
            assert convert_item is not None
            converted.append(_at(index, convert_item, item))
        return make(converted)

    return convert


def _values(inner: Convert) -> Convert:
    def convert(value: object) -> Any:
        if not isinstance(value, Mapping):
            raise Violation("must be an object", describe(value))
        return {key: _at(key, inner, item) for key, item in value.items()}

    return convert


def _hashable(hint: object) -> bool:
    try:
        hash(hint)
    except TypeError:
        return False
    return True


def _fields(cls: type, hints: dict[str, Any]) -> dict[str, tuple[Any, bool, object]]:
    """Each key of a TypedDict or init field of a dataclass: its hint, whether required, its default."""
    if not dataclasses.is_dataclass(cls):
        fields = {}
        for key, hint in hints.items():
            is_required = key in cls.__required_keys__  # type: ignore[attr-defined]
            # Where the hint spells Required/NotRequired, it says so itself.
            while get_origin(hint) in (Required, NotRequired):
                is_required = get_origin(hint) is Required
                hint = get_args(hint)[0]
            fields[key] = (hint, is_required, _MISSING)
        return fields
    result = {}
    for field in dataclasses.fields(cls):
        if field.init:
            has_default = field.default is not dataclasses.MISSING
            no_default = not has_default and field.default_factory is dataclasses.MISSING
            result[field.name] = (hints[field.name], no_default, field.default if has_default else _MISSING)
    return result


def _builder(
    cls: type,
    make: Callable[..., Any],
    converters: dict[str, Convert | None],
    nullable: list[str],
) -> Convert:
    def build(value: object) -> Any:
        if not isinstance(value, Mapping):
            raise Violation("must be an object", describe(value))
        fields: dict[str, Any] = {}
        for key, item in value.items():
            convert = converters.get(key)
            fields[key] = item if convert is None else _at(key, convert, item)
        for key in nullable:
            fields.setdefault(key, None)
        if make is dict:
            return fields
        try:
            return make(**fields)
        except Exception as error:  # __init__ or __post_init__ refused the values
            raise Violation(f"cannot be made a {cls.__name__}: {error}", describe(value)) from None

    return build


def _literal(hint: Any, path: str) -> tuple[dict[str, Any], Convert | None]:
    values = get_args(hint)
    kinds = {type(value) for value in values}
    if not kinds <= set(_LITERAL_TYPES):
        raise InvalidTool(
            path, _NO_FORM + " (Literal values must be str, int, bool or None)", _type_name(hint)
        )
    schema: dict[str, Any] = {"enum": list(values)}
    if len(kinds) == 1:
        schema = {"type": _LITERAL_TYPES[kinds.pop()], **schema}
    return schema, (_to_int if int in {type(value) for value in values} else None)


def _enum(cls: type[enum.Enum], path: str) -> tuple[dict[str, Any], Convert | None]:
    members = list(cls)
    kinds = {type(member.value) for member in members}
    if kinds not in ({str}, {int}):
        raise InvalidTool(path, _NO_FORM + " (an Enum's values must all be str or all int)", cls.__name__)
    values = [member.value for member in members]
    rule = f"must be one of {', '.join(map(repr, values))}"
    by_value = {member.value: member for member in members}

    def convert(value: object) -> enum.Enum:
        # A bool is not an int here (JSON's true is not 1); an unhashable value is no member.
        member = (
            by_value.get(value)
            if isinstance(value, (str, int, float)) and not isinstance(value, bool)
            else None
        )
        if member is None:
            raise Violation(rule, describe(value))
        return member

    return {"type": "string" if kinds == {str} else "integer", "enum": values}, convert

"""``Tool.validate``: decoded arguments checked against the JSON Schema subset tool parameters use.

A schema is compiled once into a tree of small checks (one per keyword that
constrains something), cached by the tool's schema text: a Tool is immutable,
so validating many calls of one tool compiles its schema once. A check raises
``Violation`` at the first value that breaks a rule; each container on the
way out adds its key, so no path is built unless something fails.

JSON Schema's own semantics, not Python's: a boolean is neither a number nor
an integer, ``1.0`` is an integer, ``enum`` and ``const`` compare JSON values
(``true`` is not ``1``, ``1`` is ``1.0``), ``oneOf`` means exactly one branch.
A keyword not listed in ``_HANDLERS`` is not checked (docs/tools.md lists
them): ignored, never guessed at.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._errors import InvalidArguments, InvalidTool, describe
from ._json import decode, join_key

__all__ = ["Check", "Violation", "check_schema", "compile_schema", "validate"]

#: A compiled schema: returns when the value matches, raises ``Violation`` when it does not.
Check = Callable[[Any], None]


class Violation(Exception):
    """The first rule a value breaks; ``keys`` is its path, innermost first, grown as it unwinds."""

    def __init__(
        self, rule: str, got: str | None, keys: list[str | int] | None = None, *, kinds: Sequence[str] = ()
    ) -> None:
        super().__init__(rule)
        self.rule = rule
        self.got = got
        self.keys: list[str | int] = [] if keys is None else keys
        self.kinds = kinds  # a type check's: the types it wanted ("an integer", "null")

    def path(self) -> str:
        path = ""
        for key in reversed(self.keys):
            path = join_key(path, key)  # a key that is not JSON (a tuple) as join_key shows it
        return path

    def error(self) -> InvalidArguments:
        return InvalidArguments(self.path(), self.rule, self.got)


# -- the cache -------------------------------------------------------------------

# Compiled checks by schema text. Bounded: a program that makes tools without
# end (one per request) must not keep every schema it ever saw.
_CACHE: dict[str, Check] = {}
_CACHE_SIZE = 256
_CACHE_LOCK = threading.Lock()  # for writers only: readers find a check, or compile one


def validate(schema_text: str, arguments: object) -> None:
    """Raise ``InvalidArguments`` for the first rule ``arguments`` breaks of the schema ``schema_text`` spells."""
    check_arguments(compiled(schema_text), arguments)


def compiled(schema_text: str) -> Check:
    """The check of the schema ``schema_text`` spells, compiled once (``InvalidTool`` if it is not one)."""
    check = _CACHE.get(schema_text)
    if check is None:
        check = compile_schema(decode(schema_text))
        with _CACHE_LOCK:
            if len(_CACHE) >= _CACHE_SIZE:
                del _CACHE[next(iter(_CACHE))]  # the oldest
            _CACHE[schema_text] = check
    return check


def check_schema(schema_text: str) -> None:
    """Raise ``InvalidTool`` where a keyword of the schema ``schema_text`` spells holds what JSON Schema
    says it cannot: what ``Tool`` refuses.

    A keyword this module checks must hold what JSON Schema says it holds
    (``required`` an array of strings, ``properties`` an object of schemas,
    ``type`` a type's name...): a provider that validates a tool's schema
    answers 400 to one that breaks this ("Invalid schema for function
    'ai-sfn': None is not of type 'array'.", OpenAI's, seen at
    https://github.com/yomorun/yomo/pull/860; Anthropic's "JSON schema is
    invalid. It must match JSON Schema draft 2020-12"). Two things are left
    to ``validate``, which needs them: a ``pattern`` string is not compiled
    (JSON Schema's patterns are ECMA-262's, some of which Python's ``re``
    does not read), and a ``$ref`` string is not followed. The schemas of
    ``$defs`` are checked, and the values of the keywords this module ignores
    are not. A schema whose objects and arrays nest more than ``_SHAPE_DEPTH``
    levels deep gets no verdict (nor one made from a stack within a few
    hundred frames of Python's recursion limit). Accepted
    texts are remembered, so that a program making one tool many times
    checks it once.
    """
    if schema_text in _SHAPES:
        return
    root = decode(schema_text)
    if _deeper_than(root, _SHAPE_DEPTH):
        return  # no verdict, whatever the stack and the keys' order: validate says what it finds
    try:
        _Compiler(root, shape_only=True).schema(root, "parameters")
    except RecursionError:  # a stack within a few hundred frames of its limit: no verdict
        return
    with _CACHE_LOCK:
        if len(_SHAPES) >= _CACHE_SIZE:
            del _SHAPES[next(iter(_SHAPES))]  # the oldest
        _SHAPES[schema_text] = None


# The schema texts check_schema accepted: a dict for its order (the oldest goes first).
_SHAPES: dict[str, None] = {}

# How many levels of objects and arrays a schema check_schema judges may nest: far beyond
# any tool's, and few enough that the compiler's frames (a few hundred) fit in any stack but
# one already near its limit, so that the verdict does not depend on where the Tool is made.
_SHAPE_DEPTH = 64


def _deeper_than(value: object, limit: int) -> bool:
    """Whether the decoded JSON ``value`` has objects and arrays nested more than ``limit`` deep
    (the top one is the first level); iterative, and looking only at containers."""
    pending: list[tuple[Any, int]] = [(value, 1)]  # dicts and lists only, as decoded
    while pending:
        node, depth = pending.pop()
        if depth > limit:
            return True
        for child in node.values() if type(node) is dict else node:
            if type(child) is dict or type(child) is list:
                pending.append((child, depth + 1))
    return False


def validator(schema_text: str) -> Callable[[object], None]:
    """``validate`` for one schema, compiled now: ``InvalidTool`` at once if it is not one."""
    check = compiled(schema_text)
    return lambda arguments: check_arguments(check, arguments)


def check_arguments(check: Check, arguments: object) -> None:
    """Raise ``InvalidArguments`` for the first rule ``arguments`` breaks of the compiled schema ``check``."""
    if type(arguments) is not dict and not isinstance(arguments, Mapping):
        raise InvalidArguments("", "must be an object (the arguments by name)", describe(arguments))
    try:
        check(arguments)
    except Violation as violation:
        raise violation.error() from None
    except RecursionError:
        raise InvalidArguments("", "is nested too deeply to check", "dict") from None


def compile_schema(root: object, node: object | None = None, *, path: str = "parameters") -> Check:
    """The check of ``node`` (by default the root), its ``$ref`` resolved in ``root``.

    Raises ``InvalidTool`` for a schema that is not one (a keyword holding the
    wrong kind of value, a ``$ref`` to nothing, ``$ref`` loops that never reach
    into the value), with the path in the schema (``parameters.properties.days.minimum``).
    """
    try:
        return _Compiler(root).schema(root if node is None else node, path)
    except RecursionError:
        raise InvalidTool(path, "is nested too deeply to compile") from None


# -- JSON values -------------------------------------------------------------------


def _is_number(value: object) -> bool:
    kind = type(value)
    if kind is int:
        return True
    if kind is bool:
        return False
    if isinstance(value, float):
        return math.isfinite(value)  # NaN and infinities are not JSON
    return isinstance(value, int) and not isinstance(value, bool)


def _is_integer(value: object) -> bool:
    # 1.0 is an integer in JSON Schema, whatever its spelling.
    return type(value) is int or (_is_number(value) and (not isinstance(value, float) or value.is_integer()))


def _is_array(value: object) -> bool:
    return isinstance(value, (list, tuple))


def _json_kind(value: object) -> str | None:
    """The JSON type of a value for equality: numbers are one kind whatever their Python type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if _is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    if _is_array(value):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return None


def json_equal(left: object, right: object) -> bool:
    """JSON Schema's equality: ``true`` is not ``1``, ``1`` is ``1.0``, objects ignore key order."""
    kind = _json_kind(left)
    if kind is None or kind != _json_kind(right):
        return False
    if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
        return len(left) == len(right) and all(map(json_equal, left, right))
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        return left.keys() == right.keys() and all(json_equal(left[key], right[key]) for key in left)
    return bool(left == right)


_TYPES: dict[str, tuple[str, Callable[[object], bool]]] = {
    # The exact-type test first: an isinstance of an ABC costs several times more.
    "string": ("a string", lambda value: type(value) is str or isinstance(value, str)),
    "integer": ("an integer", _is_integer),
    "number": ("a number", _is_number),
    "boolean": ("a boolean", lambda value: isinstance(value, bool)),
    "object": ("an object", lambda value: type(value) is dict or isinstance(value, Mapping)),
    "array": ("an array", _is_array),
    "null": ("null", lambda value: value is None),
}


def _alternatives(words: Sequence[str]) -> str:
    """``a string``, ``a string or null``, ``an integer, a string or null``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def shown(value: object) -> str:
    """A schema value in a rule: as ``describe`` shows scalars, containers by ``repr``."""
    return describe(value) if value is None or isinstance(value, (str, int, float)) else repr(value)


# -- the compiler ------------------------------------------------------------------


def _accept(value: object) -> None:
    return None


def _refuse(value: object) -> None:
    raise Violation("is not allowed (the schema is false)", describe(value))


def _all_of(checks: list[Check]) -> Check:
    if not checks:
        return _accept
    if len(checks) == 1:
        return checks[0]

    def check(value: object) -> None:
        for each in checks:
            each(value)

    return check


class _Compiler:
    """Compiles one root schema; ``$ref`` targets once each, cycles through a lazy cell."""

    def __init__(self, root: object, *, shape_only: bool = False) -> None:
        self.root = root
        # Only what check_schema checks: a pattern not compiled, a $ref not followed.
        self.shape_only = shape_only
        self.refs: dict[str, Check] = {}
        # The pointers entered since the last keyword that reaches into the value:
        # meeting one again means a loop that would check the same value forever.
        self.in_place: set[str] = set()

    def schema(self, node: object, path: str) -> Check:
        if node is True:
            return _accept
        if node is False:
            return _refuse
        if not isinstance(node, Mapping):
            raise InvalidTool(path, "must be a schema (an object or a boolean)", describe(node))
        checks = []
        for keys, handler in _HANDLERS:
            if any(key in node for key in keys):
                check = handler(self, node, path)
                if check is not None:
                    checks.append(check)
        return _all_of(checks)

    def inside(self, node: object, path: str) -> Check:
        """The check of a subschema applied to a part of the value (a property, an item)."""
        saved, self.in_place = self.in_place, set()
        try:
            return self.schema(node, path)
        finally:
            self.in_place = saved

    def schemas(self, node: Mapping[str, Any], key: str, path: str) -> list[Check]:
        branches = node[key]
        if not isinstance(branches, list) or not branches:
            raise InvalidTool(join_key(path, key), "must be a non-empty array of schemas", describe(branches))
        return [
            self.schema(branch, f"{join_key(path, key)}[{number}]") for number, branch in enumerate(branches)
        ]

    def ref(self, pointer: str, path: str) -> Check:
        if pointer in self.in_place:
            raise InvalidTool(
                path, "must not loop back to itself without reaching into the value", describe(pointer)
            )
        found = self.refs.get(pointer)
        if found is not None:
            return found
        target = _resolve(self.root, pointer, path)
        cell: list[Check] = []
        self.refs[pointer] = lambda value: cell[0](value)  # a cycle reaches the target through the cell
        self.in_place.add(pointer)
        try:
            cell.append(self.schema(target, path))
        finally:
            self.in_place.discard(pointer)
        self.refs[pointer] = cell[0]
        return cell[0]


def _resolve(root: object, pointer: str, path: str) -> object:
    """The schema a local JSON pointer (``#/$defs/City``) names in ``root``."""
    node = root
    if pointer != "#":
        if "%" in pointer:
            from urllib.parse import unquote  # rare: only a pointer with escaped characters

            pointer = unquote(pointer)
        for part in pointer[2:].split("/"):
            key = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                raise InvalidTool(path, "must point to a schema in this one", describe(pointer))
    return node


def _natural(node: Mapping[str, Any], key: str, path: str) -> int:
    value = node[key]
    if not _is_integer(value) or value < 0:
        raise InvalidTool(join_key(path, key), "must be a non-negative integer", describe(value))
    return int(value)


def _number(node: Mapping[str, Any], key: str, path: str) -> float | int:
    value = node[key]
    if not _is_number(value):
        raise InvalidTool(join_key(path, key), "must be a number", describe(value))
    number: float | int = value
    return number


# -- the keywords ------------------------------------------------------------------


def _type(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    names = node["type"]
    listed = names if isinstance(names, list) else [names]
    if not listed or any(not isinstance(name, str) or name not in _TYPES for name in listed):
        raise InvalidTool(
            join_key(path, "type"),
            f"must be one of {', '.join(map(repr, _TYPES))}, or a list of them",
            shown(names),
        )
    kinds = [_TYPES[name][0] for name in listed]
    rule = f"must be {_alternatives(kinds)}"
    tests = [_TYPES[name][1] for name in listed]
    if len(tests) == 1:
        (test,) = tests

        def check(value: object) -> None:
            if not test(value):
                raise Violation(rule, describe(value), kinds=kinds)

        return check

    def check_any(value: object) -> None:
        for each in tests:
            if each(value):
                return
        raise Violation(rule, describe(value), kinds=kinds)

    return check_any


def _enum(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    values = node["enum"]
    if not isinstance(values, list):
        raise InvalidTool(join_key(path, "enum"), "must be an array", describe(values))
    if compiler.shape_only:
        return _accept  # any array: its rule, which shows every value, is validate's to make
    rule = (
        f"must be one of {', '.join(map(shown, values))}"
        if values
        else "must be one of no value (enum is empty)"
    )
    if values and all(type(value) is str for value in values):
        strings = frozenset(values)  # the common case: one set lookup

        def check_strings(value: object) -> None:
            if not (isinstance(value, str) and value in strings):
                raise Violation(rule, describe(value))

        return check_strings

    def check(value: object) -> None:
        if not any(json_equal(value, allowed) for allowed in values):
            raise Violation(rule, describe(value))

    return check


def _const(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    if compiler.shape_only:
        return _accept  # any JSON value is a const
    expected = node["const"]
    rule = f"must be {shown(expected)}"

    def check(value: object) -> None:
        if not json_equal(value, expected):
            raise Violation(rule, describe(value))

    return check


def _bounds(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check | None:
    tests: list[tuple[Callable[[Any], bool], str]] = []
    # Draft 4 (and OpenAPI 3.0, Gemini's Schema) spell an exclusive bound as a
    # boolean beside minimum/maximum; later drafts as a number of its own.
    low_open = node.get("exclusiveMinimum") is True
    high_open = node.get("exclusiveMaximum") is True
    if "minimum" in node:
        low = _number(node, "minimum", path)
        tests.append(
            (lambda v: v > low, f"must be > {low}") if low_open else (lambda v: v >= low, f"must be >= {low}")
        )
    if "maximum" in node:
        high = _number(node, "maximum", path)
        tests.append(
            (lambda v: v < high, f"must be < {high}")
            if high_open
            else (lambda v: v <= high, f"must be <= {high}")
        )
    if type(node.get("exclusiveMinimum", True)) is not bool:
        above = _number(node, "exclusiveMinimum", path)
        tests.append((lambda v: v > above, f"must be > {above}"))
    if type(node.get("exclusiveMaximum", True)) is not bool:
        below = _number(node, "exclusiveMaximum", path)
        tests.append((lambda v: v < below, f"must be < {below}"))
    if not tests:
        return None

    def check(value: object) -> None:
        if _is_number(value):  # bounds say nothing of other kinds of value
            for test, rule in tests:
                if not test(value):
                    raise Violation(rule, describe(value))

    return check


def _string(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    low = _natural(node, "minLength", path) if "minLength" in node else 0
    high = _natural(node, "maxLength", path) if "maxLength" in node else None
    pattern = None
    source: Any = node.get("pattern")
    # Only its type for check_schema: any string may be an ECMA-262 pattern, which validate compiles.
    if "pattern" in node and not (compiler.shape_only and isinstance(source, str)):
        try:
            pattern = re.compile(source)
        except (re.error, TypeError, ValueError, OverflowError, RecursionError):
            raise InvalidTool(
                join_key(path, "pattern"),
                "must be a regular expression Python's re compiles",
                describe(source),
            ) from None

    def check(value: object) -> None:
        if isinstance(value, str):
            size = len(value)  # in code points, as JSON Schema counts
            if size < low:
                raise Violation(f"must be at least {low} characters long", describe(value))
            if high is not None and size > high:
                raise Violation(f"must be at most {high} characters long", describe(value))
            if pattern is not None and pattern.search(value) is None:
                raise Violation(f"must match the pattern {pattern.pattern!r}", describe(value))

    return check


def _array(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    low = _natural(node, "minItems", path) if "minItems" in node else 0
    high = _natural(node, "maxItems", path) if "maxItems" in node else None
    items = node.get("items", True)
    # Before 2020-12, "items" as an array was what "prefixItems" is now, and
    # "additionalItems" the schema of the items after those.
    if isinstance(items, list):
        first = [compiler.inside(each, f"{join_key(path, 'items')}[{n}]") for n, each in enumerate(items)]
        rest_key = "additionalItems"
        rest = compiler.inside(node.get(rest_key, True), join_key(path, rest_key))
    else:
        first = []
        if "prefixItems" in node:
            prefix = node["prefixItems"]
            if not isinstance(prefix, list):
                raise InvalidTool(
                    join_key(path, "prefixItems"), "must be an array of schemas", describe(prefix)
                )
            first = [
                compiler.inside(each, f"{join_key(path, 'prefixItems')}[{n}]")
                for n, each in enumerate(prefix)
            ]
        rest_key = "items"
        rest = compiler.inside(items, join_key(path, "items"))
    count = len(first)
    rest_refused = node.get(rest_key) is False

    def check(value: object) -> None:
        if not _is_array(value):
            return
        assert isinstance(value, (list, tuple))
        size = len(value)
        if size < low:
            raise Violation(f"must have at least {low} items", f"{size} items")
        if high is not None and size > high:
            raise Violation(f"must have at most {high} items", f"{size} items")
        for index, item in enumerate(value):
            try:
                if index < count:
                    first[index](item)
                elif rest_refused:
                    raise Violation(f"is not allowed (the array has {count} items)", describe(item))
                else:
                    rest(item)
            except Violation as violation:
                violation.keys.append(index)
                raise

    return check


def _object(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    required = node.get("required", [])
    if not isinstance(required, list) or any(not isinstance(key, str) for key in required):
        raise InvalidTool(join_key(path, "required"), "must be an array of strings", describe(required))
    properties = node.get("properties", {})
    if not isinstance(properties, Mapping):
        raise InvalidTool(join_key(path, "properties"), "must be an object of schemas", describe(properties))
    checks = {
        key: compiler.inside(schema, join_key(join_key(path, "properties"), key))
        for key, schema in properties.items()
    }
    extra = node.get("additionalProperties", True)
    other = compiler.inside(extra, join_key(path, "additionalProperties"))
    closed = extra is False
    allowed = ", ".join(map(repr, checks)) or "none"

    def check(value: object) -> None:
        if type(value) is not dict and not isinstance(value, Mapping):
            return
        for key in required:
            if key not in value:
                raise Violation("is required", None, [key])
        for key, item in value.items():
            each = checks.get(key)
            try:
                if each is not None:
                    each(item)
                elif closed:
                    raise Violation(f"is not allowed (allowed: {allowed})", describe(item))
                else:
                    other(item)
            except Violation as violation:
                violation.keys.append(key)
                raise

    return check


def _described(violation: Violation) -> str:
    path = violation.path()
    return f"at {path}: {violation.rule}" if path else violation.rule


def _wrong_kind(violation: Violation) -> bool:
    """Whether a branch failed on the value's type itself (an integer where null was wanted)."""
    return not violation.keys and bool(violation.kinds)


def _any_of(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    branches = compiler.schemas(node, "anyOf", path)

    def check(value: object) -> None:
        failures = []
        for branch in branches:
            try:
                branch(value)
            except Violation as violation:
                failures.append(violation)
            else:
                return
        raise _none_matched(failures, "at least one", value)

    return check


def _none_matched(failures: list[Violation], how_many: str, value: object) -> Violation:
    """What to say when no branch matches: what a model can act on."""
    kinds = [failure for failure in failures if not _wrong_kind(failure)]
    if not kinds:
        # A choice of types: "must be an integer or null".
        wanted = [kind for failure in failures for kind in failure.kinds]
        return Violation(f"must be {_alternatives(wanted)}", describe(value), kinds=wanted)
    if len(kinds) == 1:
        # One branch is of the value's type (a list where list[int] | None is
        # wanted): its own violation says what is wrong, where (hours[1]).
        return kinds[0]
    reasons = "; ".join(f"[{number}] {_described(failure)}" for number, failure in enumerate(failures))
    return Violation(f"must match {how_many} of the schemas ({reasons})", describe(value))


def _one_of(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    branches = compiler.schemas(node, "oneOf", path)

    def check(value: object) -> None:
        failures = []
        matched = []
        for number, branch in enumerate(branches):
            try:
                branch(value)
            except Violation as violation:
                failures.append(violation)
            else:
                matched.append(number)
        if not matched:
            raise _none_matched(failures, "exactly one", value)
        if len(matched) > 1:
            raise Violation(
                f"must match exactly one of the schemas (matches {_alternatives([f'[{n}]' for n in matched])})",
                describe(value),
            )

    return check


def _all_of_keyword(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check:
    return _all_of(compiler.schemas(node, "allOf", path))


def _definitions(compiler: _Compiler, node: Mapping[str, Any], path: str) -> None:
    """For check_schema only: each schema of ``$defs`` (and draft-07's ``definitions``), where
    generated schemas keep their nested models; validate compiles those a ``$ref`` reaches."""
    if not compiler.shape_only:
        return
    for key in ("$defs", "definitions"):
        if key in node:
            schemas = node[key]
            here = join_key(path, key)
            if not isinstance(schemas, Mapping):
                raise InvalidTool(here, "must be an object of schemas", describe(schemas))
            for name, schema in schemas.items():
                compiler.inside(schema, join_key(here, name))


def _ref(compiler: _Compiler, node: Mapping[str, Any], path: str) -> Check | None:
    pointer = node["$ref"]
    here = join_key(path, "$ref")
    if not isinstance(pointer, str):
        raise InvalidTool(here, "must be a string", describe(pointer))
    if compiler.shape_only or (pointer != "#" and not pointer.startswith("#/")):
        return None  # not a local pointer (docs/tools.md), or only the shape checked: not followed
    return compiler.ref(pointer, here)


# Where schemas are kept for $ref, not a keyword a value meets: walked by check_schema only.
_DEFINITIONS = frozenset({"$defs", "definitions"})

# The keywords checked, in the order a value meets them: the first violation
# is the first of these a value breaks. Keywords one loop checks together
# (an object's properties, an array's items) share a handler.
_Handler = Callable[[_Compiler, Mapping[str, Any], str], "Check | None"]
_HANDLERS: tuple[tuple[tuple[str, ...], _Handler], ...] = (
    (("type",), _type),
    (("enum",), _enum),
    (("const",), _const),
    (("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"), _bounds),
    (("minLength", "maxLength", "pattern"), _string),
    (("items", "prefixItems", "minItems", "maxItems"), _array),
    (("properties", "required", "additionalProperties"), _object),
    (("allOf",), _all_of_keyword),
    (("anyOf",), _any_of),
    (("oneOf",), _one_of),
    (("$ref",), _ref),
    (("$defs", "definitions"), _definitions),
)

#: The keywords ``validate`` checks (docs/tools.md lists the others, which it ignores).
CHECKED = frozenset(key for keys, _ in _HANDLERS for key in keys if key not in _DEFINITIONS) | {
    "additionalItems"
}

"""Hypothesis strategies shared by the property tests.

Three families:

- JSON: values (unicode with astral characters and lone surrogates, ints up to
  Python's 4300-digit ``str`` limit, finite floats, nesting ~50 levels deep via
  ``deep_json``), argument mappings, and raw argument *texts* rendered with odd
  white space, key order, escapes and number spellings.
- Valid value objects: ``tool_calls()`` and ``chat_messages()`` for every role.
- Fuzz input: ``arbitrary_json()``, near-valid ``message_dicts()`` and
  ``tool_call_dicts()`` built from the real keys, ``mutated()`` wire dicts, and
  ``hostile_values()`` (Python values that are not JSON at all).

Strategy factories are cached (``functools.cache``) and build their parts once:
building hypothesis strategies is costly, and doing it inside every draw made
the suite several times slower. Choices that depend on a drawn value (where to
put white space, which key to mutate) come from a ``random.Random`` seeded by
one draw, for the same reason.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from decimal import Decimal
from typing import Any, TypeAlias, TypeVar, cast

from hypothesis import strategies as st

from toolturns import ChatMessage, MessageError, Role, ToolCall
from toolturns.providers._stream import Assembler

__all__ = [
    "ALL_KEYS",
    "CALL_POSITION",
    "CALL_RESERVED",
    "HUGE_INT",
    "JSON",
    "MAX_INT_DIGITS",
    "MESSAGE_RESERVED",
    "TOO_LONG_INT",
    "arbitrary_json",
    "argument_mappings",
    "carries_nothing",
    "chat_messages",
    "deep_json",
    "empty_argument_texts",
    "hostile_values",
    "json_ints",
    "json_leaves",
    "json_objects",
    "json_texts",
    "json_values",
    "malformed_argument_texts",
    "message_dicts",
    "message_extras",
    "mutated",
    "non_object_json_texts",
    "provider_datas",
    "raw_argument_texts",
    "reordered",
    "small_chat_messages",
    "small_tool_calls",
    "tool_call_dicts",
    "tool_call_extras",
    "tool_calls",
    "unicode_text",
    "valid_object_texts",
]

#: A decoded JSON value, as ``json.loads`` returns it.
JSON: TypeAlias = bool | int | float | str | list["JSON"] | dict[str, "JSON"] | None

#: The most digits Python turns into text (and so into JSON) by default.
MAX_INT_DIGITS = sys.get_int_max_str_digits() or 4300
#: The largest int that still has a JSON text.
HUGE_INT: int = 10**MAX_INT_DIGITS - 1

#: Keys ChatMessage models, so they can never be extra keys of a message, and ``parsed``, which
#: reading drops as the openai SDK's copy of the content (``_message._DERIVED``).
MESSAGE_RESERVED = frozenset({"role", "content", "name", "tool_calls", "tool_call_id", "is_error", "parsed"})
#: Keys ToolCall models at the top of its wire dict.
CALL_RESERVED = frozenset({"id", "type", "function"})

# Keys real payloads carry beyond the modelled ones (responses, fine-tuning
# data, streaming, other servers).
_MESSAGE_OTHER_KEYS = ("refusal", "annotations", "audio", "weight", "reasoning_content", "function_call")
_CALL_OTHER_KEYS = ("thought_signature",)
#: A call's position in tool_calls, as the openai SDK's stream accumulator (and
#: Ollama, in function) leaves it: read and dropped, so never an extra key.
CALL_POSITION = "index"
MESSAGE_KEYS = (*sorted(MESSAGE_RESERVED), *_MESSAGE_OTHER_KEYS)
CALL_KEYS = (*sorted(CALL_RESERVED), *_CALL_OTHER_KEYS)
FUNCTION_KEYS = ("name", "arguments")
#: Every key a message or call dict really carries.
ALL_KEYS = (*MESSAGE_KEYS, *CALL_KEYS, CALL_POSITION, *FUNCTION_KEYS)

_ROLE_SPELLINGS = (
    *(role.value for role in Role),
    "USER",
    "User",
    "user ",
    " assistant",
    "moderator",
    "function",
    "",
)

# JSON white space (RFC 8259): the only characters allowed between tokens.
_JSON_WHITESPACE = " \t\n\r"

# Characters that JSON must escape or that tempt a wrong strip()/escape.
_TRICKY = '"\\/\b\f\n\r\t\x00\x1f\x7f\x85\u00a0\u2028\u2029\ufeff '

# One draw that seeds every value-dependent choice of a composite.
_SEEDS = st.integers(0, 2**32 - 1)
_BOOLEANS = st.booleans()
_T = TypeVar("_T")
_PRESENT = st.integers(0, 4).map(bool)  # a real key is there four times in five
_THREE = st.integers(0, 2)


# -- text -------------------------------------------------------------------------------


def _lone_surrogates(text: str) -> str:
    # A high surrogate followed by a low one is a pair: JSON reads its escapes
    # back as one astral character, so no JSON round trip could keep it.
    # Keep surrogates lone by putting a space between such neighbours.
    return _SURROGATE_PAIR.sub(lambda pair: pair[0][0] + " " + pair[0][1], text)


# Escapes the re module reads: no surrogate characters in this file's text.
_SURROGATE_PAIR = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")


@functools.cache
def unicode_text(*, min_size: int = 0, max_size: int = 12) -> st.SearchStrategy[str]:
    """Text of any code points: plain, astral-heavy, JSON-tricky, with lone surrogates."""
    astral = st.characters(min_codepoint=0x10000, max_codepoint=sys.maxunicode)
    mixed = st.one_of(st.characters(), astral, st.sampled_from(_TRICKY))
    # Lone surrogates are valid in Python text and in JSON escapes ("\\ud800"),
    # so a model's output can carry them. st.text() drops them, so join a list.
    surrogates = st.lists(
        st.one_of(st.characters(), st.characters(categories=["Cs"])), min_size=min_size, max_size=max_size
    ).map("".join)
    return st.one_of(
        st.text(min_size=min_size, max_size=max_size),
        st.text(mixed, min_size=min_size, max_size=max_size),
        st.text(astral, min_size=min_size, max_size=max_size),
        surrogates,
    ).map(_lone_surrogates)


_KEYS = st.one_of(unicode_text(max_size=8), st.sampled_from(ALL_KEYS))
_IDS = unicode_text(min_size=1, max_size=10)


# -- JSON values ------------------------------------------------------------------------


def _largest(sign: int) -> int:
    return sign * HUGE_INT


def _huge(digits: int, offset: int, negative: bool) -> int:
    number = 10 ** (digits - 1) + offset if digits > 7 else offset
    return -number if negative else number


@functools.cache
def json_ints() -> st.SearchStrategy[int]:
    """Ints, including ones thousands of digits long (but within the str limit)."""
    # Built from a digit count, not drawn bit by bit: a 4300-digit draw would
    # use most of an example's entropy budget.
    huge = st.builds(_huge, st.integers(1, MAX_INT_DIGITS), st.integers(0, 10**6), _BOOLEANS)
    edges = st.sampled_from([0, -1, 2**53, 2**53 + 1, -(2**63), 2**64])
    # Mapped, so that the strategy's repr does not hold 4300 digits.
    return st.one_of(st.integers(), huge, edges, st.sampled_from([1, -1]).map(_largest))


@functools.cache
def json_leaves() -> st.SearchStrategy[JSON]:
    """JSON scalars: null, booleans, ints, finite floats, strings."""
    return st.one_of(
        st.none(),
        _BOOLEANS,
        json_ints(),
        st.floats(allow_nan=False, allow_infinity=False),
        unicode_text(),
    )


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=4)


# The pieces of the levels of deep values.
_DEEP_KEYS = ("k", "", "role", "arguments", "\U0001f600", "a b", "\u2028")
_DEEP_SIBLINGS: tuple[JSON, ...] = (None, True, 0, -1.5, "", "x", "\U0001f600", [], {})


@st.composite
def _deep(draw: st.DrawFn, depths: st.SearchStrategy[int]) -> JSON:
    value: JSON = draw(json_leaves())
    depth = draw(depths)
    shape = random.Random(draw(_SEEDS))
    for _ in range(depth):
        kind, key, sibling = shape.randrange(4), shape.choice(_DEEP_KEYS), shape.choice(_DEEP_SIBLINGS)
        if kind == 0:
            value = [value]
        elif kind == 1:
            value = [sibling, value]
        elif kind == 2:
            value = {key: value}
        else:
            value = {key + "_sibling": sibling, key: value}
    return value


@functools.cache
def deep_json(*, min_depth: int = 45, max_depth: int = 55) -> st.SearchStrategy[JSON]:
    """A JSON value nested ``min_depth``..``max_depth`` levels deep.

    Every level is a list or an object, sometimes with a sibling beside the
    nested value, so deep paths mix indices and keys.
    """
    return _deep(st.integers(min_depth, max_depth))


@functools.cache
def json_values(*, deep: bool = True, max_leaves: int = 10) -> st.SearchStrategy[JSON]:
    """Any JSON value; with ``deep``, one draw in four is ~50 levels deep."""
    shallow: st.SearchStrategy[JSON] = st.recursive(json_leaves(), _containers, max_leaves=max_leaves)
    if not deep:
        return shallow
    return st.one_of(shallow, shallow, shallow, deep_json())


def carries_nothing(value: object) -> bool:
    """Whether an extra value is dropped: null and empty str/list/object."""
    return value is None or (isinstance(value, (str, list, tuple, Mapping)) and not value)


# Built, not filtered: null and empty values are too common to filter out.
_NONEMPTY_JSON: st.SearchStrategy[JSON] = st.one_of(
    _BOOLEANS,
    json_ints(),
    st.floats(allow_nan=False, allow_infinity=False),
    unicode_text(min_size=1),
    st.lists(json_values(deep=False), min_size=1, max_size=3),
    st.dictionaries(_KEYS, json_values(deep=False), min_size=1, max_size=3),
    deep_json(),
)


@functools.cache
def json_objects(*, deep: bool = True) -> st.SearchStrategy[dict[str, JSON]]:
    """JSON objects (str keys), sometimes holding a ~50-level-deep value."""
    flat = st.dictionaries(_KEYS, json_values(deep=False), max_size=5)
    if not deep:
        return flat
    nested = st.builds(lambda key, value: {key: value}, _KEYS, deep_json())
    return st.one_of(flat, flat, flat, nested)


#: Mappings accepted as tool-call arguments.
argument_mappings = json_objects


@st.composite
def reordered(draw: st.DrawFn, value: _T) -> _T:
    """The same JSON value, copied, with the keys of every object in a random order."""
    order = random.Random(draw(_SEEDS))

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            items = list(node.items())
            order.shuffle(items)
            return {key: walk(child) for key, child in items}
        if isinstance(node, list):
            return [walk(child) for child in node]
        return node

    return cast(_T, walk(value))


# -- JSON texts -------------------------------------------------------------------------


def _float_spellings(number: float) -> list[str]:
    # Every spelling decodes to exactly ``number``: trailing zeros after the
    # point change neither the decimal value nor the nearest float.
    text = repr(number)
    mantissa, mark, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    spellings = [text, mantissa + "000" + mark + exponent]
    if mark:
        spellings.append(text.replace("e", "E"))
        spellings.append(text.replace("e+", "e"))
    return spellings


_SPACES = st.lists(st.text(st.sampled_from(_JSON_WHITESPACE), max_size=3), min_size=1, max_size=4)


@st.composite
def json_texts(draw: st.DrawFn, value: JSON) -> str:
    """``value`` as JSON text in a random layout.

    Random JSON white space between tokens, object keys in random order,
    strings with or without ``\\uXXXX`` escapes (and ``\\/``), floats with
    trailing zeros or ``E``. The text always decodes to ``value`` exactly.
    """
    spaces = draw(_SPACES)
    layout = random.Random(draw(_SEEDS))
    parts: list[str] = []

    def space() -> None:
        parts.append(layout.choice(spaces))

    def string(text: str) -> None:
        rendered = json.dumps(text, ensure_ascii=layout.random() < 0.5)
        if layout.random() < 0.5:
            rendered = rendered.replace("/", "\\/")
        parts.append(rendered)

    def render(node: JSON) -> None:
        space()
        if isinstance(node, dict):
            items = list(node.items())
            layout.shuffle(items)
            parts.append("{")
            for index, (key, child) in enumerate(items):
                if index:
                    parts.append(",")
                space()
                string(key)
                space()
                parts.append(":")
                render(child)
            if not items:
                space()
            parts.append("}")
        elif isinstance(node, list):
            parts.append("[")
            for index, child in enumerate(node):
                if index:
                    parts.append(",")
                render(child)
            if not node:
                space()
            parts.append("]")
        elif isinstance(node, str):
            string(node)
        elif isinstance(node, float):
            parts.append(layout.choice(_float_spellings(node)))
        else:  # None, bool, int
            parts.append(json.dumps(node))
        space()

    render(value)
    return "".join(parts)


@functools.cache
def valid_object_texts() -> st.SearchStrategy[str]:
    """JSON object texts in odd layouts (white space, key order, escapes)."""
    return json_objects().flatmap(json_texts)


@functools.cache
def non_object_json_texts() -> st.SearchStrategy[str]:
    """Valid JSON texts whose value is not an object (nor a bare ``null``)."""
    not_object = json_values().filter(lambda value: value is not None and not isinstance(value, dict))
    return not_object.flatmap(json_texts)


def _concatenate(*parts: str) -> str:
    return "".join(parts)


@functools.cache
def empty_argument_texts() -> st.SearchStrategy[str]:
    """Texts that mean "no arguments": empty, JSON white space, ``null``."""
    space = st.text(st.sampled_from(_JSON_WHITESPACE), max_size=4)
    return st.builds(_concatenate, space, st.sampled_from(["", "null"]), space)


@st.composite
def _truncated(draw: st.DrawFn) -> str:
    text = draw(valid_object_texts())
    return text[: random.Random(draw(_SEEDS)).randrange(max(len(text), 1))]


@functools.cache
def malformed_argument_texts() -> st.SearchStrategy[str]:
    """Texts that are not JSON: truncated objects, Python reprs, NaN, stray text."""
    known = st.sampled_from(
        [
            "{'a': 1}",
            '{"a": NaN}',
            '{"a": Infinity}',
            '{"a": -Infinity}',
            "NaN",
            '{"a": 1,}',
            '{"a" 1}',
            "{a: 1}",
            '{"a": 01}',
            '{"a": "\x01"}',
            '{"a": 1}}',
            '{"a": 1} x',
            "\u00a0",
            "\u00a0null",
            "\ufeff{}",
            "nul",
            "None",
            "{",
            "}",
            "[",
            '"',
            '{"a": "\\x"}',
        ]
    )
    return st.one_of(_truncated(), known, unicode_text(max_size=20))


@functools.cache
def raw_argument_texts() -> st.SearchStrategy[str]:
    """Raw argument text as a model may send it: valid, malformed, non-object or empty."""
    return st.one_of(
        valid_object_texts(),
        valid_object_texts(),
        malformed_argument_texts(),
        non_object_json_texts(),
        empty_argument_texts(),
    )


# -- valid value objects ----------------------------------------------------------------


def _extras(reserved: frozenset[str], other_keys: tuple[str, ...]) -> st.SearchStrategy[dict[str, JSON]]:
    # Other objects' modelled keys are ordinary extra keys here: a message may
    # carry "id", a call may carry "role".
    keys = st.one_of(unicode_text(max_size=8), st.sampled_from((*other_keys, *ALL_KEYS))).filter(
        lambda key: key not in reserved
    )
    return st.dictionaries(keys, _NONEMPTY_JSON, min_size=1, max_size=3)


@functools.cache
def message_extras() -> st.SearchStrategy[dict[str, JSON]]:
    """Non-empty extra mappings of a message: unmodelled keys, non-empty JSON values."""
    return _extras(MESSAGE_RESERVED, _MESSAGE_OTHER_KEYS)


@functools.cache
def tool_call_extras() -> st.SearchStrategy[dict[str, JSON]]:
    """Non-empty extra mappings of a tool call: keys other than id/type/function and index."""
    return _extras(CALL_RESERVED | {CALL_POSITION}, _CALL_OTHER_KEYS)


@functools.cache
def provider_datas() -> st.SearchStrategy[dict[str, JSON]]:
    """Non-empty provider_data mappings: provider name to that provider's JSON."""
    providers = st.one_of(
        st.sampled_from(["anthropic", "gemini", "ollama", "openai"]), unicode_text(max_size=8)
    )
    return st.dictionaries(providers, _NONEMPTY_JSON, min_size=1, max_size=2)


@functools.cache
def message_provider_datas() -> st.SearchStrategy[dict[str, JSON]]:
    """A message's provider_data: as ``provider_datas``, but its "openai" entry is what the
    OpenAI wire keeps on a message, which ``to_wire`` writes back (a refusal part, first)."""
    others = st.dictionaries(
        st.one_of(st.sampled_from(["anthropic", "gemini", "ollama"]), unicode_text(max_size=8)).filter(
            lambda provider: provider != "openai"
        ),
        _NONEMPTY_JSON,
        min_size=1,
        max_size=2,
    )
    refusal = st.builds(
        lambda text: {"openai": {"items": [[0, {"type": "refusal", "refusal": text}]]}}, unicode_text()
    )
    return st.one_of(others, st.builds(lambda data, kept: {**data, **kept}, st.just({}) | others, refusal))


def _call(
    call_id: str,
    name: str,
    arguments: Any,
    extra: dict[str, JSON] | None,
    provider_data: dict[str, JSON] | None,
) -> ToolCall:
    if provider_data is None:
        return ToolCall(call_id, name, arguments, extra=extra)
    return ToolCall(call_id, name, arguments, extra=extra, provider_data=provider_data)


@functools.cache
def tool_calls(
    *,
    ids: st.SearchStrategy[str] = _IDS,
    names: st.SearchStrategy[str] = _IDS,
    arguments: st.SearchStrategy[Any] | None = None,
    extra: st.SearchStrategy[dict[str, JSON] | None] | None = None,
    with_provider_data: bool = False,
) -> st.SearchStrategy[ToolCall]:
    """Valid ToolCalls: arguments as a mapping, raw text or None; with or without extra.

    With ``with_provider_data``, some carry provider_data, which the OpenAI
    wire never emits (so those calls do not round-trip through it).
    """
    if arguments is None:
        arguments = st.one_of(st.none(), json_objects(), raw_argument_texts())
    if extra is None:
        extra = st.none() | tool_call_extras()
    provider_data = st.none() | provider_datas() if with_provider_data else st.none()
    return st.builds(_call, ids, names, arguments, extra, provider_data)


_NAMED: dict[Role, Callable[..., ChatMessage]] = {
    Role.SYSTEM: ChatMessage.system,
    Role.DEVELOPER: ChatMessage.developer,
    Role.USER: ChatMessage.user,
    Role.ASSISTANT: ChatMessage.assistant,
}


@st.composite
def _messages(
    draw: st.DrawFn,
    roles: st.SearchStrategy[Role],
    call_lists: st.SearchStrategy[list[ToolCall]],
    text: st.SearchStrategy[str],
    names: st.SearchStrategy[str | None],
    extra: st.SearchStrategy[dict[str, JSON] | None],
    provider_data: st.SearchStrategy[dict[str, JSON] | None],
    allow_is_error: bool,
) -> ChatMessage:
    role = draw(roles)
    spelled: Role | str = role if draw(_BOOLEANS) else role.value
    content = draw(text)
    extra_value = draw(extra)
    data = draw(provider_data)
    # The named constructors take neither extra nor provider_data.
    plain = not extra_value and not data and draw(_BOOLEANS)
    more: dict[str, Any] = (
        {"extra": extra_value} if data is None else {"extra": extra_value, "provider_data": data}
    )
    if role is Role.TOOL:
        call_id = draw(_IDS)
        is_error = allow_is_error and draw(_BOOLEANS)
        if plain:
            return ChatMessage.tool_result(call_id, content, is_error=is_error)
        return ChatMessage(spelled, content, tool_call_id=call_id, is_error=is_error, **more)
    name = draw(names)
    if role is Role.ASSISTANT and draw(_BOOLEANS):
        chosen = draw(call_lists)
        sequence = chosen if draw(_BOOLEANS) else tuple(chosen)
        if plain:
            optional = (None, "", content)[draw(_THREE)]
            return ChatMessage.assistant_tool_calls(sequence, optional, name=name)
        return ChatMessage(spelled, content, tool_calls=sequence, name=name, **more)
    if plain:
        return _NAMED[role](content, name=name)
    return ChatMessage(spelled, content, name=name, **more)


# Assistant turns come in two kinds (text, tool calls): draw them more often.
_ROLES = st.sampled_from([*Role, Role.ASSISTANT, Role.ASSISTANT])
_CONTENT = unicode_text(max_size=20)


@functools.cache
def chat_messages(
    *,
    roles: st.SearchStrategy[Role] = _ROLES,
    calls: st.SearchStrategy[ToolCall] | None = None,
    text: st.SearchStrategy[str] = _CONTENT,
    names: st.SearchStrategy[str] = _IDS,
    extra: st.SearchStrategy[dict[str, JSON] | None] | None = None,
    allow_is_error: bool = True,
    with_provider_data: bool = False,
) -> st.SearchStrategy[ChatMessage]:
    """Valid ChatMessages of every role, through the constructor or a named constructor.

    Assistant turns are text only or carry 1-3 tool calls with unique ids
    (given as a list or a tuple); tool turns answer an id and may be errors
    (unless ``allow_is_error`` is false); the others may have a name; any may
    have extra keys (``extra``: a strategy of mappings or None). With
    ``with_provider_data``, messages and their calls may carry provider_data,
    which the OpenAI wire never emits, but a message's "openai" entry
    (``message_provider_datas``).
    """
    if calls is None:
        calls = tool_calls(with_provider_data=with_provider_data)
    call_lists = st.lists(calls, min_size=1, max_size=3, unique_by=lambda call: call.id)
    if extra is None:
        extra = st.none() | message_extras()
    provider_data = st.none() | message_provider_datas() if with_provider_data else st.none()
    return _messages(roles, call_lists, text, st.none() | names, extra, provider_data, allow_is_error)


@functools.cache
def small_tool_calls() -> st.SearchStrategy[ToolCall]:
    """Tool calls from a tiny domain, so that two draws are often equal."""
    tiny = st.sampled_from(["a", "b"])
    value: st.SearchStrategy[JSON] = st.sampled_from([0, 1, 1.0, -0.0, True, False, "1", None, [], {}])
    mapping = st.dictionaries(tiny, value, max_size=2)
    arguments = st.one_of(st.none(), mapping, mapping.flatmap(json_texts), st.sampled_from(["", "{", "[1]"]))
    extra = st.none() | st.dictionaries(
        st.just("x"), value.filter(lambda v: not carries_nothing(v)), max_size=1
    )
    return tool_calls(ids=tiny, names=tiny, arguments=arguments, extra=extra)


@functools.cache
def small_chat_messages() -> st.SearchStrategy[ChatMessage]:
    """Messages from a tiny domain, so that two draws are often equal."""
    tiny = st.sampled_from(["a", "b"])
    value: st.SearchStrategy[JSON] = st.sampled_from(
        [0, 1, 1.0, True, "1", [1], {"a": 1}, {"a": 1, "b": 2}, {"b": 2, "a": 1}]
    )
    extra = st.none() | st.dictionaries(st.just("x"), value, max_size=1)
    return chat_messages(
        roles=st.sampled_from([Role.USER, Role.ASSISTANT, Role.TOOL]),
        calls=small_tool_calls(),
        text=st.sampled_from(["", "a"]),
        names=tiny,
        extra=extra,
    )


# -- fuzz input -------------------------------------------------------------------------


@functools.cache
def arbitrary_json(*, max_leaves: int = 10) -> st.SearchStrategy[Any]:
    """Any JSON value (NaN-free), object keys often the real wire keys."""
    leaves = st.one_of(
        st.none(),
        _BOOLEANS,
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        unicode_text(),
        st.sampled_from(_ROLE_SPELLINGS),
    )
    return st.recursive(
        leaves,
        lambda children: st.lists(children, max_size=3) | st.dictionaries(_KEYS, children, max_size=4),
        max_leaves=max_leaves,
    )


@st.composite
def _near_valid_dicts(
    draw: st.DrawFn,
    plan: tuple[tuple[str, st.SearchStrategy[Any], st.SearchStrategy[bool]], ...],
    other_keys: st.SearchStrategy[list[Any]],
    other_values: st.SearchStrategy[Any],
) -> dict[Any, Any]:
    result: dict[Any, Any] = {}
    for key, values, present in plan:
        if draw(present):
            result[key] = draw(values)
    for key in draw(other_keys):
        result[key] = draw(other_values)
    return result


@functools.cache
def _function_dicts(junk: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[Any, Any]]:
    plan = (
        ("name", st.one_of(_IDS, junk), _PRESENT),
        ("arguments", st.one_of(raw_argument_texts(), json_objects(deep=False), junk), _PRESENT),
    )
    return _near_valid_dicts(plan, st.lists(_KEYS, max_size=2), st.none() | junk)


@functools.cache
def tool_call_dicts(*, junk: st.SearchStrategy[Any] | None = None) -> st.SearchStrategy[dict[Any, Any]]:
    """Near-valid tool-call dicts: mostly the real keys, plausible or junk values."""
    if junk is None:
        junk = arbitrary_json()
    plan = (
        ("id", st.one_of(_IDS, st.just(""), junk), _PRESENT),
        ("type", st.one_of(st.just("function"), st.sampled_from(["custom", "Function"]), junk), _PRESENT),
        ("function", st.one_of(_function_dicts(junk), _function_dicts(junk), st.none(), junk), st.just(True)),
        (CALL_POSITION, st.one_of(st.integers(0, 3), junk), _PRESENT),
    )
    return _near_valid_dicts(plan, st.lists(_KEYS, max_size=2), junk)


@functools.cache
def message_dicts(*, junk: st.SearchStrategy[Any] | None = None) -> st.SearchStrategy[dict[Any, Any]]:
    """Near-valid message dicts: random subsets of the real keys with plausible or junk values."""
    if junk is None:
        junk = arbitrary_json()
    parts = st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": unicode_text()}), max_size=2)
    calls = st.one_of(
        st.lists(tool_call_dicts(junk=junk), max_size=3),
        st.lists(tool_calls().map(ToolCall.to_wire), max_size=3),
        st.none(),
        junk,
    )
    plan = (
        ("role", st.one_of(st.sampled_from(Role).map(str), st.sampled_from(_ROLE_SPELLINGS), junk), _PRESENT),
        ("content", st.one_of(unicode_text(), st.none(), parts, junk), _PRESENT),
        ("name", st.one_of(_IDS, st.none(), st.just(""), junk), _BOOLEANS),
        ("tool_calls", calls, _BOOLEANS),
        ("tool_call_id", st.one_of(_IDS, st.none(), junk), _BOOLEANS),
        ("is_error", st.one_of(_BOOLEANS, st.none(), junk), _BOOLEANS),
    )
    other_keys = st.lists(st.one_of(st.sampled_from(_MESSAGE_OTHER_KEYS), _KEYS), max_size=3)
    return _near_valid_dicts(plan, other_keys, junk)


def _walk_containers(root: Any) -> Iterator[dict[Any, Any] | list[Any]]:
    # Each container once: an earlier edit may have put a circular value in.
    pending, seen = [root], set()
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            yield node
            pending.extend(node.values())
        elif isinstance(node, list):
            yield node
            pending.extend(node)


@st.composite
def _mutated(draw: st.DrawFn, wires: st.SearchStrategy[Any], junk: st.SearchStrategy[Any]) -> Any:
    wire = copy.deepcopy(draw(wires))
    edits = random.Random(draw(_SEEDS))
    for _ in range(edits.randint(1, 3)):
        containers = list(_walk_containers(wire))
        if not containers:
            break
        target = edits.choice(containers)
        action = edits.choice(["set", "null", "delete"])
        if isinstance(target, dict):
            key = edits.choice(list(target)) if target and edits.random() < 0.8 else draw(_KEYS)
            if action == "delete":
                target.pop(key, None)
            else:
                target[key] = None if action == "null" else draw(junk)
        elif target and action != "set":
            index = edits.randrange(len(target))
            if action == "delete":
                del target[index]
            else:
                target[index] = None
        elif target and edits.random() < 0.5:
            target[edits.randrange(len(target))] = draw(junk)
        else:
            target.append(draw(junk))
    return wire


@functools.cache
def mutated(
    wires: st.SearchStrategy[Any], *, junk: st.SearchStrategy[Any] | None = None
) -> st.SearchStrategy[Any]:
    """Dicts from ``wires`` with 1-3 random edits anywhere inside them.

    An edit sets a key or item to junk or null, deletes it, or adds one, so
    the result is mostly valid with a mistake deep inside.
    """
    return _mutated(wires, arbitrary_json() if junk is None else junk)


class TooLongInt(int):
    """An int longer than Python's str limit, with a repr that does not raise.

    ``repr()`` of the plain int raises ValueError, which would break printing
    a failing example; everything toolturns does with it (``str``, JSON
    encoding, ``bit_length``) behaves as for a plain int.
    """

    def __repr__(self) -> str:
        return f"TooLongInt(<{self.bit_length()} bits>)"


#: An int one digit past the str limit: not encodable as JSON text.
TOO_LONG_INT = TooLongInt(10**MAX_INT_DIGITS)


def _nest(value: Any, depth: int) -> Any:
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    return value


def _circular_list() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


def _circular_dict() -> dict[str, Any]:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    return loop


@functools.cache
def hostile_values(*, max_leaves: int = 8) -> st.SearchStrategy[Any]:
    """Python values that are not JSON, mixed into JSON-shaped containers.

    NaN and infinities, ints past the str limit, bytes, sets, Decimal,
    complex, arbitrary objects, non-str keys, tuples, read-only mappings,
    structures nested past any sane depth, and circular structures.
    """
    oddities = st.one_of(
        st.sampled_from([float("nan"), float("inf"), float("-inf"), TOO_LONG_INT, TooLongInt(-TOO_LONG_INT)]),
        st.binary(max_size=4),
        st.frozensets(st.integers(), max_size=2),
        st.sets(st.integers(), max_size=2),
        st.complex_numbers(),
        st.builds(object),
        st.builds(Decimal, st.sampled_from(["1.5", "NaN"])),
        st.builds(_nest, st.none(), st.integers(480, 1200)),
        st.builds(_circular_list),
        st.builds(_circular_dict),
    )
    leaves = st.one_of(json_leaves(), oddities)
    # Keys JSON has and has no text for: a path must name each (bytes and frozensets once raised TypeError).
    keys = st.one_of(
        _KEYS,
        st.integers(),
        st.none(),
        _BOOLEANS,
        st.tuples(st.integers()),
        st.binary(max_size=2),
        st.frozensets(st.integers(), max_size=2),
    )
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.lists(children, max_size=3).map(tuple),
            st.dictionaries(keys, children, max_size=3),
            st.dictionaries(_KEYS, children, max_size=3).map(types.MappingProxyType),
        ),
        max_leaves=max_leaves,
    )


def feed_expecting_only_message_errors(assembler: Assembler, items: Iterable[Any]) -> None:
    """Feed ``items``, with a snapshot after each, then ask for the message.

    The invariant of every stream assembler: whatever the items, each step
    either works or raises a MessageError; any other exception fails the test.
    """
    try:
        for item in items:
            assembler.feed(item)
            assembler.snapshot()
        assembler.message()
    except MessageError as error:
        assert type(error.path) is str, f"the path of {error!r} is a {type(error.path).__name__}"  # noqa: PT017

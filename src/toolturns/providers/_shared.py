"""What every provider codec shares: checking its inputs, placing errors,
arguments as objects, and ids for calls that came without one.

What a wire carries that the model does not (``provider_data``) has its own
module, ``_native``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from .._arguments import Inexact, decode_arguments_exactly, encode_arguments
from .._content import ContentPart
from .._errors import (
    InvalidArguments,
    InvalidMessage,
    InvalidTool,
    MessageError,
    at,
    describe,
    join_path,
    renamed,
)
from .._extra import EMPTY
from .._json import join_key
from .._message import ChatMessage, Role
from .._sdk import dumped
from .._tool import Tool
from .._tool_call import ToolCall
from ._rule import OBJECT_ARGUMENTS, Carries, Rule

__all__ = [
    "RAW_ARGUMENTS_KEY",
    "OpenCalls",
    "arguments_for_object_wire",
    "arguments_from_object_wire",
    "arguments_text_from_object_wire",
    "at",
    "check_messages",
    "check_tool",
    "check_tools",
    "function_tool_definition",
    "generated_id",
    "messages_unsupported",
    "native_name",
    "read_function_tools",
    "refuse_parts",
    "refuse_unsupported",
    "tool_unsupported",
    "unsupported",
    "unsupported_reason",
]

#: The key that carries malformed argument text through a provider whose wire
#: wants an object, when the caller opts in with ``keep_invalid_arguments``.
RAW_ARGUMENTS_KEY = "_toolturns_raw_arguments"


def check_messages(messages: object) -> Sequence[ChatMessage]:
    """The caller's messages: a list or tuple of ChatMessage, else InvalidMessage."""
    if not isinstance(messages, (list, tuple)):
        raise InvalidMessage("messages", "must be a list or tuple of ChatMessage", describe(messages))
    for index, message in enumerate(messages):
        if not isinstance(message, ChatMessage):
            raise InvalidMessage(
                f"messages[{index}]",
                "must be a ChatMessage (read dicts with ChatMessage.from_dict)",
                describe(message),
            )
    return messages


def check_tools(tools: object, provider: str, *, drop: bool = False) -> Sequence[Tool]:
    """The caller's tools: None, or a list or tuple of Tool with unique names ``provider`` accepts.

    ``drop``: leave out what the wire cannot carry instead of refusing it.
    """
    if tools is None:
        return ()
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be a list or tuple of Tool", describe(tools))
    seen: set[str] = set()
    checked: list[Tool] = []
    for index, tool in enumerate(tools):
        checked.append(check_tool(tool, provider, path=f"tools[{index}]", drop=drop))
        if tool.name in seen:
            raise InvalidTool(f"tools[{index}].name", "must be unique among the tools", repr(tool.name))
        seen.add(tool.name)
    return checked


def check_tool(tool: object, provider: str, *, path: str = "", drop: bool = False) -> Tool:
    """``tool`` if it is a Tool ``provider`` can send, else InvalidTool at ``path``.

    Its name must match the provider's pattern, and it must hold nothing the
    wire cannot carry (``strict``, ``extra``) unless the caller asked to ``drop`` it.
    """
    if not isinstance(tool, Tool):
        raise InvalidTool(path, "must be a Tool (read dicts with Tool.from_dict)", describe(tool))
    from . import PROVIDERS  # the registry imports no codec; a codec imports it when it checks a tool

    pattern = PROVIDERS[provider].rules.TOOL_NAME
    if pattern is not None and not pattern.fullmatch(tool.name):
        raise InvalidTool(
            join_path(path, "name"), f"must match ^{pattern.pattern}$ for {provider}", repr(tool.name)
        )
    if tool.extra or tool.strict is not None:
        for key, what in tool_unsupported(tool, provider):
            if not drop:
                raise InvalidTool(join_key(path, key), unsupported_reason(what, provider) + _DROP)
            # The same tool without what the wire cannot carry, for the codec to write.
            strict = tool.strict if _carries(provider).strict else None
            return Tool(tool.name, tool.description, tool.parameters, strict=strict)
    return tool


def unsupported(
    messages: Sequence[ChatMessage], tools: Sequence[Tool], provider: str
) -> list[tuple[str, str]]:
    """What ``provider``'s request cannot carry, as (path, what): lost if sent.

    The wire's rules say what it carries (``rules.CARRIES``); content parts
    are not here: a part a wire cannot carry is refused, never dropped
    (``refuse_parts``).
    """
    found = messages_unsupported(enumerate(messages), _carries(provider), provider)
    for number, tool in enumerate(tools):
        found.extend(
            (join_key(f"tools[{number}]", key), what) for key, what in tool_unsupported(tool, provider)
        )
    return found


def messages_unsupported(
    messages: Iterable[tuple[int, ChatMessage]], carries: Carries, provider: str
) -> list[tuple[str, str]]:
    """``unsupported`` of (index, message) pairs (the messages of a transcript that read),
    given ``provider``'s ``rules.CARRIES``."""
    found: list[tuple[str, str]] = []
    names: dict[str, str] = {}  # call id -> the function it names, for the results' names
    # Identity tests against EMPTY, not len(): this runs for every message of
    # every request and of every transcript checked with a target.
    for index, message in messages:
        if message.tool_calls and not (carries.name and carries.extra):
            _calls_unsupported(message.tool_calls, index, carries, names, found)
        if (
            message.name is not None
            and not carries.name
            and names.get(message.tool_call_id or "") != message.name
        ):
            found.append((f"messages[{index}].name", f"the name {message.name!r}"))
        if message.extra is not EMPTY and not carries.extra:
            found.extend(
                (join_key(f"messages[{index}]", key), f"the key {describe(key)}") for key in message.extra
            )
        if message.provider_data is not EMPTY:
            elsewhere = _kept_elsewhere(message, provider)
            if elsewhere:  # rare: most kept data goes back to the wire that read it
                found.extend((f"messages[{index}].{path}", what) for path, what in elsewhere)
    return found


def _kept_elsewhere(message: ChatMessage, provider: str) -> list[tuple[str, str]]:
    """What another wire kept in ``message`` that only that wire can replay (a built-in tool
    call or a message the Responses wire kept whole: what the model did or said), as its
    rules' optional ``kept_for_this_wire_only`` says; ``provider`` cannot send it."""
    found: list[tuple[str, str]] = []
    for other in message.provider_data:
        if other == provider:  # the common case: what this wire read, going back to it
            continue
        from . import PROVIDERS  # the registry imports no codec; a codec imports it when it writes

        only_there = (
            getattr(PROVIDERS[other].rules, "kept_for_this_wire_only", None) if other in PROVIDERS else None
        )
        if only_there is not None:
            found.extend(only_there(message.provider_data))
    return found


def refuse_unsupported(
    messages: Sequence[ChatMessage], carries: Carries, provider: str, *, drop: bool
) -> None:
    """Raise at the first thing of the messages ``provider`` (whose ``rules.CARRIES`` is
    ``carries``) cannot carry, unless the caller asked to ``drop`` them (``check_tool``
    refuses a tool's)."""
    from . import PROVIDERS  # the registry imports no codec; a codec imports it when it writes

    refuse_parts(messages, PROVIDERS[provider].rules.check_part)
    if drop:
        return
    for path, what in messages_unsupported(enumerate(messages), carries, provider):
        raise InvalidMessage(path, unsupported_reason(what, provider) + _DROP)


_DROP = "; drop_unsupported=True drops it"


def refuse_parts(
    messages: Sequence[ChatMessage], check_part: Callable[[Role, ContentPart], tuple[Rule, str] | None]
) -> None:
    """Raise at the first content part a wire cannot carry where it stands, in the words of
    its rules' ``check_part``. A part is never dropped, whatever ``drop_unsupported`` says."""
    for index, message in enumerate(messages):
        content = message.content
        if type(content) is not tuple:  # text: every wire carries it
            continue
        for position, part in enumerate(content):
            refused = check_part(message.role, part)
            if refused is not None:
                rule, why = refused
                raise InvalidMessage(f"messages[{index}].content[{position}]", f"{why} ({rule.says})")


def _carries(provider: str) -> Carries:
    from . import PROVIDERS  # the registry imports no codec; a codec imports it when it writes

    return PROVIDERS[provider].rules.CARRIES


def tool_unsupported(tool: Tool, provider: str) -> list[tuple[str, str]]:
    """What of ``tool`` ``provider``'s tool definition cannot carry, as (key, what)."""
    found = [(key, f"the tool key {key!r}") for key in tool.extra]
    if tool.strict is not None and not _carries(provider).strict:
        found.insert(0, ("strict", f"strict={tool.strict!r}"))
    return found


def unsupported_reason(what: str, provider: str) -> str:
    """Why ``what`` (an item of ``unsupported``) cannot go to ``provider``, in its own words."""
    from . import PROVIDERS

    entry = PROVIDERS[provider]
    return f"{entry.title} cannot carry {what} ({entry.rules.CARRIES.unsupported.says})"


def _calls_unsupported(
    calls: Sequence[ToolCall],
    index: int,
    carries: Carries,
    names: dict[str, str],
    found: list[tuple[str, str]],
) -> None:
    for position, call in enumerate(calls):
        names[call.id] = call.name
        if call.extra is not EMPTY and not carries.extra:
            found.extend(
                (join_key(f"messages[{index}].tool_calls[{position}]", key), f"the call key {describe(key)}")
                for key in call.extra
            )


def arguments_for_object_wire(call: ToolCall, *, provider: str, keep_invalid: bool) -> dict[str, Any]:
    """A call's arguments for a wire that carries them as an object.

    Text that is not a JSON object cannot be sent as one, and must never
    silently become ``{}``; text the object would not say exactly (a repeated
    key, a number a double changes: ``_arguments.decode_arguments_exactly``)
    must never silently become another. Either raises, or with
    ``keep_invalid`` travels wrapped as ``{RAW_ARGUMENTS_KEY: text}`` and
    reads back as the same text.

    A genuine object of exactly the wrapper's shape (``{RAW_ARGUMENTS_KEY:
    "x"}``) would read back as the text ``x``: it always travels wrapped
    itself, as its own JSON text, and so reads back as the same object.
    """
    text = call.arguments_json
    try:
        arguments = decode_arguments_exactly(text, call_id=call.id, name=call.name)
    except InvalidArguments as error:
        if keep_invalid:
            return {RAW_ARGUMENTS_KEY: text}
        raise InvalidArguments(
            error.path,
            f"{error.rule}, to be sent as {provider}'s arguments object "
            f"(keep_invalid_arguments=True sends the text wrapped as {{{RAW_ARGUMENTS_KEY!r}: text}})",
            error.got,
            call_id=error.call_id,
            name=error.name,
            raw=error.raw,
        ) from None
    if isinstance(arguments, Inexact):
        if keep_invalid:
            return {RAW_ARGUMENTS_KEY: text}
        raise InvalidArguments(
            arguments.path,
            f"{arguments.rule}: {provider} {OBJECT_ARGUMENTS} (keep_invalid_arguments=True sends the text "
            f"exactly, wrapped as {{{RAW_ARGUMENTS_KEY!r}: text}})",
            describe(text),
            call_id=call.id,
            name=call.name,
            raw=text,
        )
    if arguments_from_object_wire(arguments) is not arguments:  # the wrapper's shape
        return {RAW_ARGUMENTS_KEY: text}
    return arguments


def arguments_from_object_wire(value: object) -> object:
    """Undo ``arguments_for_object_wire``: the wrapped raw text, or the object."""
    if isinstance(value, Mapping) and len(value) == 1:
        raw = value.get(RAW_ARGUMENTS_KEY)
        if isinstance(raw, str):
            return raw
    return value


def arguments_text_from_object_wire(value: object, *, path: str, call_id: str | None, name: str) -> str:
    """The argument text of a call read from a wire that carries arguments as an object.

    ``value`` is the object, the text ``arguments_for_object_wire`` wrapped, or
    ``None``; the caller has checked its type. A value that is not JSON raises
    InvalidArguments at ``path``, the native name of the arguments.
    """
    with native_name("arguments", path):
        return encode_arguments(arguments_from_object_wire(value), call_id=call_id, name=name)


@contextmanager
def native_name(core: str, native: str) -> Iterator[None]:
    """Errors raised inside name a field as the wire does (``input_schema``), not as the core does (``parameters``)."""
    try:
        yield
    except MessageError as error:
        raise renamed(error, core, native) from None


def generated_id(provider: str, *seed: object) -> str:
    """A deterministic call id for a provider that sent none.

    The same seed (what the call is and where it stands) always gives the same
    id, so reading the same response twice gives equal messages.
    """
    try:
        text = json.dumps([provider, *seed], sort_keys=True, default=str)
    except Exception:
        # A seed JSON cannot write even by str() (a circular id, an int past the digit limit,
        # keys that do not sort, a __str__ that raises): described instead, which never fails.
        text = json.dumps([provider, *map(describe, seed)])
    digest = hashlib.sha256(text.encode()).hexdigest()
    return f"call_{digest[:24]}"


def function_tool_definition(tool: Tool, provider: str) -> dict[str, Any]:
    """The OpenAI shape of a tool, which Ollama shares: ``{"type": "function", "function": {...}}``.

    A tool without parameters declares ``{"type": "object", "properties": {}}``
    (Ollama answers 400 to ``[]``).
    """
    check_tool(tool, provider)
    function: dict[str, Any] = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    if tool.strict is not None:  # check_tool refused it where the wire does not carry it
        function["strict"] = tool.strict
    return {"type": "function", "function": function}


# The keys of an OpenAI (and Ollama) tool definition a Tool carries.
_TOOL_KEYS = frozenset({"type", "function"})
_FUNCTION_KEYS = frozenset({"name", "description", "parameters"})


def read_function_tools(tools: object, provider: str) -> list[Tool]:
    """Tools in the OpenAI shape, which Ollama shares: ``{"type": "function", "function": {...}}``.

    The reverse of ``function_tool_definition``: it reads what the wire
    carries (``strict`` where ``provider`` takes it). Any other key is an
    error, not a silent loss, as when reading Anthropic's and Gemini's tools.
    """
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be an array of tool definitions", describe(tools))
    function_keys = _FUNCTION_KEYS | {"strict"} if _carries(provider).strict else _FUNCTION_KEYS
    result = []
    for number, item in enumerate(tools):
        with at(f"tools[{number}]"):
            item = dumped(item)
            tool = Tool.from_dict(item)  # refuses anything that is not a mapping
            assert isinstance(item, Mapping)
            if "function" in item:
                _refuse_other_keys(item, _TOOL_KEYS, "")
                _refuse_other_keys(item["function"], function_keys, "function")
            else:  # the bare {name, description, parameters} from_dict also reads
                _refuse_other_keys(item, function_keys | {"type"}, "")
            result.append(tool)
    return result


def _refuse_other_keys(mapping: Mapping[Any, Any], carried: frozenset[str], where: str) -> None:
    for key in mapping:
        if key not in carried:
            raise InvalidTool(
                join_key(where, key),
                f"is not a key of a tool toolturns carries ({', '.join(sorted(carried))})",
                describe(mapping[key]),
            )


class OpenCalls:
    """The calls of the latest assistant turn read, and which have a result yet.

    Gemini's ``functionResponse`` and Ollama's tool message may come without
    the call's id: such a result answers the first unanswered call of its
    name, in call order (how both providers' own examples pair parallel
    results). Each lookup costs the same however many calls the turn has.
    """

    def __init__(self) -> None:
        self._unanswered_ids: set[str] = set()
        # name -> the ids of that name's unanswered calls, in call order (reversed, to pop the first).
        self._by_name: dict[str, list[str]] = {}

    def open(self, calls: Sequence[ToolCall]) -> None:
        """A new assistant turn: its calls are the ones results answer (none: no turn to answer)."""
        self._unanswered_ids = {call.id for call in calls}
        by_name: dict[str, list[str]] = {}
        for call in reversed(calls):
            by_name.setdefault(call.name, []).append(call.id)
        self._by_name = by_name

    def answer_id(self, call_id: str) -> None:
        """A result gave its call's id: that call, if it is of this turn, is answered."""
        self._unanswered_ids.discard(call_id)

    def answer_name(self, name: str) -> str | None:
        """The id of the first unanswered call named ``name``, now answered; None when there is none."""
        ids = self._by_name.get(name)
        while ids:
            call_id = ids.pop()
            if call_id in self._unanswered_ids:
                self._unanswered_ids.discard(call_id)
                return call_id
        return None

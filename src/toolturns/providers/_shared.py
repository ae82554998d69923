"""What every provider codec shares: checking its inputs, placing errors,
arguments as objects, and ids for calls that came without one.

What a wire carries that the model does not (``provider_data``) has its own
module, ``_native``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from .._arguments import Inexact, decode_arguments_exactly, encode_arguments
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
from .._message import ChatMessage
from .._tool import Tool
from .._tool_call import ToolCall
from ._rule import OBJECT_ARGUMENTS

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
    "native_name",
    "read_function_tools",
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


def check_tools(tools: object, provider: str) -> Sequence[Tool]:
    """The caller's tools: None, or a list or tuple of Tool with unique names ``provider`` accepts."""
    if tools is None:
        return ()
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be a list or tuple of Tool", describe(tools))
    seen: set[str] = set()
    for index, tool in enumerate(tools):
        check_tool(tool, provider, path=f"tools[{index}]")
        if tool.name in seen:
            raise InvalidTool(f"tools[{index}].name", "must be unique among the tools", repr(tool.name))
        seen.add(tool.name)
    return tools


def check_tool(tool: object, provider: str, *, path: str = "") -> Tool:
    """``tool`` if it is a Tool whose name ``provider`` accepts, else InvalidTool at ``path``."""
    if not isinstance(tool, Tool):
        raise InvalidTool(path, "must be a Tool (read dicts with Tool.from_dict)", describe(tool))
    from . import PROVIDERS  # the registry imports no codec; a codec imports it when it checks a tool

    pattern = PROVIDERS[provider].rules.TOOL_NAME
    if pattern is not None and not pattern.fullmatch(tool.name):
        raise InvalidTool(
            join_path(path, "name"), f"must match ^{pattern.pattern}$ for {provider}", repr(tool.name)
        )
    return tool


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
    digest = hashlib.sha256(json.dumps([provider, *seed], sort_keys=True, default=str).encode()).hexdigest()
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
    return {"type": "function", "function": function}


# The keys of an OpenAI (and Ollama) tool definition a Tool carries.
_TOOL_KEYS = frozenset({"type", "function"})
_FUNCTION_KEYS = frozenset({"name", "description", "parameters"})


def read_function_tools(tools: object) -> list[Tool]:
    """Tools in the OpenAI shape, which Ollama shares: ``{"type": "function", "function": {...}}``.

    The reverse of ``function_tool_definition``.

    A key a Tool cannot carry (``strict``) is an error, not a silent loss, as
    when reading Anthropic's and Gemini's tools.
    """
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be an array of tool definitions", describe(tools))
    result = []
    for number, item in enumerate(tools):
        with at(f"tools[{number}]"):
            tool = Tool.from_dict(item)  # refuses anything that is not a mapping
            if "function" in item:
                _refuse_other_keys(item, _TOOL_KEYS, "")
                _refuse_other_keys(item["function"], _FUNCTION_KEYS, "function.")
            else:  # the bare {name, description, parameters} from_dict also reads
                _refuse_other_keys(item, _FUNCTION_KEYS | {"type"}, "")
            result.append(tool)
    return result


def _refuse_other_keys(mapping: Mapping[str, Any], carried: frozenset[str], where: str) -> None:
    for key in mapping:
        if key not in carried:
            raise InvalidTool(
                f"{where}{key}",
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

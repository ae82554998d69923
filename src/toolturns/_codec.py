"""What every provider codec shares: checking its inputs, placing errors,
arguments as objects, and ids for calls that came without one."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ._errors import InvalidArguments, InvalidMessage, MessageError, describe
from ._message import ChatMessage
from ._tool import Tool
from ._tool_call import ToolCall

__all__ = [
    "RAW_ARGUMENTS_KEY",
    "arguments_for_object_wire",
    "arguments_from_object_wire",
    "at",
    "check_messages",
    "check_tools",
    "generated_id",
    "is_generated_id",
    "mark_generated_id",
]

#: The key that carries malformed argument text through a provider whose wire
#: wants an object, when the caller opts in with ``keep_invalid_arguments``.
RAW_ARGUMENTS_KEY = "_toolturns_raw_arguments"


@contextmanager
def at(prefix: str) -> Iterator[None]:
    """Prefix the path of any MessageError raised inside with ``prefix``."""
    try:
        yield
    except MessageError as error:
        raise error.with_prefix(prefix) from None


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


def check_tools(tools: object) -> Sequence[Tool]:
    """The caller's tools: None, or a list or tuple of Tool with unique names."""
    if tools is None:
        return ()
    if not isinstance(tools, (list, tuple)):
        raise InvalidMessage("tools", "must be a list or tuple of Tool", describe(tools))
    seen: set[str] = set()
    for index, tool in enumerate(tools):
        if not isinstance(tool, Tool):
            raise InvalidMessage(
                f"tools[{index}]", "must be a Tool (read dicts with Tool.from_dict)", describe(tool)
            )
        if tool.name in seen:
            raise InvalidMessage(f"tools[{index}].name", "must be unique among the tools", repr(tool.name))
        seen.add(tool.name)
    return tools


def arguments_for_object_wire(call: ToolCall, *, provider: str, keep_invalid: bool) -> dict[str, Any]:
    """A call's arguments for a wire that carries them as an object.

    Text that is not a JSON object cannot be sent as one, and must never
    silently become ``{}``: it raises, or with ``keep_invalid`` travels
    wrapped as ``{RAW_ARGUMENTS_KEY: text}`` and reads back as the same text.
    """
    try:
        return call.arguments
    except InvalidArguments as error:
        if keep_invalid:
            return {RAW_ARGUMENTS_KEY: call.arguments_json}
        raise InvalidArguments(
            error.path,
            f"{error.rule}, to be sent as {provider}'s arguments object "
            f"(keep_invalid_arguments=True sends the text wrapped as {{{RAW_ARGUMENTS_KEY!r}: text}})",
            error.got,
            call_id=error.call_id,
            name=error.name,
            raw=error.raw,
        ) from None


def arguments_from_object_wire(value: object) -> object:
    """Undo ``arguments_for_object_wire``: the wrapped raw text, or the object."""
    if isinstance(value, Mapping) and len(value) == 1:
        raw = value.get(RAW_ARGUMENTS_KEY)
        if isinstance(raw, str):
            return raw
    return value


def generated_id(provider: str, *seed: object) -> str:
    """A deterministic call id for a provider that sent none.

    The same seed (what the call is and where it stands) always gives the same
    id, so reading the same response twice gives equal messages.
    """
    digest = hashlib.sha256(json.dumps([provider, *seed], sort_keys=True, default=str).encode()).hexdigest()
    return f"call_{digest[:24]}"


def mark_generated_id(provider: str) -> dict[str, Any]:
    """The provider_data of a call whose id toolturns made up: never sent back."""
    return {provider: {"generated_id": True}}


def is_generated_id(call: ToolCall, provider: str) -> bool:
    """Whether toolturns made up this call's id when reading ``provider``'s wire."""
    data = call.provider_data.get(provider)
    return isinstance(data, dict) and data.get("generated_id") is True

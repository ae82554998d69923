"""The shape of Gemini's JSON: fields in either spelling, parts, and the text a part adds."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..._errors import InvalidMessage, MessageError, describe
from ..._sdk import dumped

# The API takes a field's snake_case name as well as its camelCase one (proto
# JSON): the REST samples send system_instruction, SDK dumps function_call.
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def parts_of(content: Mapping[Any, Any]) -> list[object]:
    parts = content.get("parts")
    if parts is None:
        return []
    if isinstance(parts, Mapping):
        return [parts]
    if not isinstance(parts, (list, tuple)):
        raise InvalidMessage("parts", "must be an array of parts", describe(parts))
    return list(parts)


def fields(value: object, what: str, error: type[MessageError] = InvalidMessage) -> dict[Any, Any]:
    """An object's fields by their camelCase names, without the null ones ("not set" in proto JSON).

    Only field names are respelled, never the keys of ``args`` or ``response``.
    """
    if not isinstance(value, Mapping) and not isinstance(value := dumped(value), Mapping):
        raise error("", f"must be {what}", describe(value))
    fields: dict[Any, Any] = {}
    for key, item in value.items():
        if item is None:
            continue
        name = camel(key)
        if name in fields:
            raise error(
                key,
                f"names the field {name!r} a second time (snake_case and camelCase spell the same field)",
                describe(item),
            )
        fields[name] = item
    return fields


def camel(key: object) -> object:
    if not isinstance(key, str) or not _SNAKE.fullmatch(key):
        return key
    head, *words = key.split("_")
    return head + "".join(word[0].upper() + word[1:] for word in words)


def keys_of(part: Mapping[Any, Any]) -> str:
    return describe(", ".join(key if isinstance(key, str) else describe(key) for key in part) or "no keys")


def answer_text(part: Mapping[str, Any]) -> str | None:
    """The text a part adds to the message's content: not a thought summary's."""
    text = part.get("text")
    return text if isinstance(text, str) and part.get("thought") is not True else None

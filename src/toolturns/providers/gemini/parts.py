"""The shape of Gemini's JSON: fields in either spelling, parts, and the text a part adds."""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from typing import Any

from ..._errors import InvalidMessage, MessageError, describe
from ..._json import join_key
from ..._sdk import dumped

# The API takes a field's snake_case name as well as its camelCase one (proto
# JSON): the REST samples send system_instruction. google-genai's model_dump()
# spells every field so (function_call, thought_signature, usage_metadata),
# gives None for each field not set, bytes for the bytes fields and enum
# members for enums; json mode gives URL-safe base64 text. Reading takes all
# of it; what is kept and written back is the REST spelling the reference
# documents: camelCase names, standard base64 text, plain strings.
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")

#: The fields the readers read themselves, in the REST spelling: found so, a
#: key is taken as it is, and plain REST JSON takes no other step.
READ = frozenset(
    {
        "candidates",
        "content",
        "contents",
        "description",
        "finishReason",
        "functionDeclarations",
        "index",
        "name",
        "parameters",
        "parametersJsonSchema",
        "parts",
        "promptFeedback",
        "responseId",
        "role",
        "systemInstruction",
        "usageMetadata",
    }
)

#: Of a part, a ``functionCall``, a ``functionResponse``, ``usageMetadata``:
#: the fields taken as they are (modelled, read and checked by the reader; or
#: counts). Every other field of these objects is kept (a call's in
#: ``provider_data["gemini"]["nested"]``, written back where it came from), so
#: its value is respelled the REST way all the way down (``kept_value``).
PART = frozenset({"text", "thought", "functionCall", "functionResponse"})
CALL = frozenset({"name", "args", "id"})
RESPONSE = frozenset({"name", "response", "parts", "id"})
#: Of a function response's part: none; its inlineData or fileData is
#: respelled the REST way (bytes as base64 text) like every kept value.
MEDIA = frozenset[str]()
USAGE = frozenset(
    {
        "promptTokenCount",
        "candidatesTokenCount",
        "totalTokenCount",
        "thoughtsTokenCount",
        "cachedContentTokenCount",
        "toolUsePromptTokenCount",
    }
)

# Fields whose value is the caller's own JSON (a google.protobuf.Struct): its
# keys are data, never respelled, and a null in it is a value, not "not set".
_STRUCTS = frozenset({"args", "response", "partMetadata"})
# The bytes fields of Gemini's contents (Part.thoughtSignature, Blob.data):
# base64 text in REST JSON.
_BASE64 = frozenset({"thoughtSignature", "data"})
# URL-safe base64 (json mode of the SDK's dumps) to the standard alphabet,
# which the REST API sends; the bytes are the same.
_STANDARD = str.maketrans("-_", "+/")


def parts_of(content: Mapping[Any, Any]) -> list[object]:
    parts = content.get("parts")
    if parts is None:
        return []
    if isinstance(parts, Mapping):
        return [parts]
    if not isinstance(parts, (list, tuple)):
        raise InvalidMessage("parts", "must be an array of parts", describe(parts))
    return list(parts)


def fields(
    value: object,
    what: str,
    error: type[MessageError] = InvalidMessage,
    *,
    as_is: frozenset[str] | None = None,
) -> dict[Any, Any]:
    """An object's fields by their camelCase names, without the null ones ("not set" in proto JSON).

    Only field names are respelled, never the keys of ``args`` or ``response``.
    ``as_is`` is given for an object whose other fields are kept (a part, a
    function object, usage): the fields taken as they are; the value of
    every other field is kept, and so respelled the REST way all the way down.
    """
    if not isinstance(value, Mapping) and not isinstance(value := dumped(value), Mapping):
        raise error("", f"must be {what}", describe(value))
    known = READ if as_is is None else as_is
    fields: dict[Any, Any] = {}
    respelled = False  # whether a key so far was snake_case, so that its camelCase twin may follow
    for key, item in value.items():
        if item is None:
            continue
        if key in known:
            if respelled and key in fields:
                raise twice(error, key, key, item)
            fields[key] = item
            continue
        name = camel(key)
        if name in fields:
            raise twice(error, key, name, item)
        respelled = respelled or name != key
        if as_is is not None and name not in as_is:
            try:
                item = kept_value(item, name, error)
            except MessageError as problem:
                raise problem.with_prefix(key_path(name)) from None
        fields[name] = item
    return fields


def kept_value(value: object, field: object, error: type[MessageError] = InvalidMessage) -> object:
    """The value of a kept field, as REST JSON spells it.

    Field names in camelCase, null fields left out, bytes as standard base64
    text (as are URL-safe base64 texts of the bytes fields), enum members as
    their plain names; the keys and nulls of ``args``, ``response`` and
    ``partMetadata`` are the caller's data and stay. Anything else is left as
    it is, for the JSON check of the kept value to judge.
    """
    try:
        return _rest(value, field, error)
    except RecursionError:  # circular or absurdly deep: the JSON check says so, with its path
        return value


def _rest(value: object, field: object, error: type[MessageError]) -> object:
    if field in _STRUCTS:
        return value
    if isinstance(value, Mapping):
        rest: dict[Any, Any] = {}
        for key, item in value.items():
            if item is None:
                continue
            name = camel(key)
            if name in rest:
                raise twice(error, key, name, item)
            try:
                rest[name] = _rest(item, name, error)
            except MessageError as problem:
                raise problem.with_prefix(key_path(name)) from None
        return rest
    if isinstance(value, (list, tuple)):
        items = []
        for index, item in enumerate(value):
            try:
                items.append(_rest(item, field, error))
            except MessageError as problem:
                raise problem.with_prefix(f"[{index}]") from None
        return items
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, str):
        text = plain(value)
        if field in _BASE64 and ("-" in text or "_" in text):
            return text.translate(_STANDARD)
        return text
    return value


def plain(value: str) -> str:
    """A string as a plain ``str``: an SDK enum member (``FinishReason.STOP``) is its name, ``'STOP'``."""
    return value if type(value) is str else str.__str__(value)


def twice(error: type[MessageError], key: object, name: object, item: object) -> MessageError:
    return error(
        key_path(key),
        f"names the field {name!r} a second time (snake_case and camelCase spell the same field)",
        describe(item),
    )


def key_path(key: object) -> str:
    return join_key("", key) if isinstance(key, str) else describe(key)


def camel(key: object) -> object:
    if not isinstance(key, str) or "_" not in key or not _SNAKE.fullmatch(key):
        return key
    head, *words = key.split("_")
    return head + "".join(word[0].upper() + word[1:] for word in words)


def keys_of(part: Mapping[Any, Any]) -> str:
    return describe(", ".join(key if isinstance(key, str) else describe(key) for key in part) or "no keys")


def answer_text(part: Mapping[str, Any]) -> str | None:
    """The text a part adds to the message's content: not a thought summary's."""
    text = part.get("text")
    return text if isinstance(text, str) and part.get("thought") is not True else None

"""Gemini generateContent's rules: what the API refuses that the message model allows."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from ..._content import ContentPart
from ..._message import ChatMessage, Role
from ..._tool_call import ToolCall
from .._rule import PARTS_NOT_YET, Carries, Findings, Rule, require_conversation

__all__ = [
    "CALL_TURN_ORDER",
    "CARRIES",
    "INVALID_TOOL_NAME",
    "NO_CONVERSATION",
    "RESULT_COUNT",
    "SCHEMA_FIELDS",
    "SCHEMA_TYPES",
    "TOOL_NAME",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
]

_LINK = "https://ai.google.dev/gemini-api/docs/function-calling"

#: Function names, in declarations and calls: "Must start with a letter or an
#: underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and
#: dashes, with a maximum length of 64" (FunctionDeclaration.name).
TOOL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}")
INVALID_TOOL_NAME = Rule(
    "invalid_tool_name", "Invalid function name", "https://ai.google.dev/api/caching#FunctionDeclaration"
)

#: A Content is {role, parts} and a function declaration has no strict:
#: Gemini answers 400 to any other field, e.g. "Invalid JSON payload received.
#: Unknown name \"thought\" at 'contents[0].parts[0]': Cannot find field."
#: (https://github.com/flyun/chatAir/issues/108).
CARRIES = Carries(
    name=False,
    extra=False,
    strict=False,
    images=False,
    unsupported=Rule(
        "unsupported",
        "Invalid JSON payload received. Unknown name ...: Cannot find field.",
        "https://ai.google.dev/api/caching#Content",
    ),
)

#: Which field of a function declaration carries a tool's JSON Schema. Google's
#: words (google-genai's types.FunctionDeclaration and types.Schema; the REST
#: reference, https://ai.google.dev/api/caching#FunctionDeclaration, says the
#: same): ``parameters`` "Describes the parameters to this function in JSON Schema
#: Object format. Reflects the Open API 3.03 Parameter Object", its ``Schema``
#: being "a select subset of an OpenAPI 3.0 schema object"; while
#: ``parametersJsonSchema`` "Describes the parameters to the function in JSON
#: Schema format. The schema must describe an object where the properties are
#: the parameters to the function. [...] This field is mutually exclusive with
#: ``parameters``." A schema goes as ``parameters`` when that subset says all of
#: it: every keyword, at every depth, is a field of the Gemini API's ``Schema``
#: (google.ai.generativelanguage.v1beta.Schema: google-genai's types.Schema
#: without ``additionalProperties``, ``ref`` and ``defs``, which are Vertex AI's:
#: the SDK itself refuses "additionalProperties is only supported in Gemini
#: Enterprise Agent Platform mode, [...] not in Gemini Developer API mode"),
#: with a value of the kind that
#: field holds; any other schema (``additionalProperties``, ``$ref``,
#: ``$defs``, ``oneOf``, ``allOf``, ``not``, ``const``, ``if``, a list of types,
#: a boolean schema, ...) goes as ``parametersJsonSchema``, unchanged.
#:
#: Each field's kind: ``schema``, ``schemas`` (a list), ``named schemas`` (an
#: object of them), ``type`` (one of ``SCHEMA_TYPES``), ``string``,
#: ``strings``, ``integer``, ``number``, ``boolean``, ``value`` (any JSON but
#: null, which proto JSON reads as "not set").
SCHEMA_FIELDS: Mapping[str, str] = MappingProxyType(
    {
        "type": "type",
        "format": "string",
        "title": "string",
        "description": "string",
        "nullable": "boolean",
        "enum": "strings",
        "maxItems": "integer",
        "minItems": "integer",
        "properties": "named schemas",
        "required": "strings",
        "minProperties": "integer",
        "maxProperties": "integer",
        "minLength": "integer",
        "maxLength": "integer",
        "pattern": "string",
        "example": "value",
        "anyOf": "schemas",
        "propertyOrdering": "strings",
        "default": "value",
        "items": "schema",
        "minimum": "number",
        "maximum": "number",
    }
)
#: The JSON Schema type names that name a type of Gemini's ``Schema``, whose
#: ``Type`` spells them in capitals (``STRING``, ``OBJECT``): reading a
#: ``parameters`` schema gives them in JSON Schema's lower case.
SCHEMA_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object"})

#: One function response part per function call part, in the content right
#: after the call turn.
RESULT_COUNT = Rule(
    "result_count_mismatch",
    "Please ensure that the number of function response parts is equal to the number of "
    "function call parts of the function call turn.",
    _LINK,
)
#: A call turn comes right after a user turn or results (system messages go apart).
CALL_TURN_ORDER = Rule(
    "misplaced_call_turn",
    "Please ensure that function call turn comes immediately after a user turn or after a function "
    "response turn.",
    _LINK,
)
#: System messages go apart (``systemInstruction``): ``contents`` must not be empty.
NO_CONVERSATION = Rule("no_conversation", "contents is not specified", _LINK)


def check(findings: Findings) -> None:
    """A conversation besides the system messages; call turns placed and answered as Gemini needs."""
    require_conversation(findings, NO_CONVERSATION)
    _call_turn_order(findings)


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """Nothing beyond the function name, which every call is checked for."""


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """As many function responses right after a call turn as it has calls."""
    calls = len(turn.tool_calls or ())
    if results != calls:
        findings.add(
            index,
            f"messages[{index}]",
            RESULT_COUNT,
            f"has {_count(calls, 'call')} but {_count(results, 'tool result')} "
            f"{'follows' if results == 1 else 'follow'} it; "
            "Gemini needs exactly one function response per function call",
        )


def _call_turn_order(findings: Findings) -> None:
    conversation = findings.conversation
    for position, (index, turn) in enumerate(conversation):
        if not (isinstance(turn, ChatMessage) and turn.tool_calls):
            continue
        previous = conversation[position - 1][1]
        if position == 0:
            after = "as the first turn"
        elif previous is None:
            continue  # after a message that does not read, which may well be the user turn
        elif previous.role in (Role.USER, Role.TOOL):
            continue
        else:
            after = "right after an assistant turn"
        findings.add(
            index,
            f"messages[{index}]",
            CALL_TURN_ORDER,
            f"a tool-call turn {after}; Gemini needs it right after a user turn or tool results",
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """No part yet: the content-parts work gives this wire its parts (text goes as a string)."""
    return PARTS_NOT_YET, f"this wire does not carry content parts yet, got {type(part).__name__}"

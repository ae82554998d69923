"""Gemini generateContent's rules: what the API refuses that the message model allows."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from ..._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ..._message import ASSISTANT, DEVELOPER, SYSTEM, TOOL, USER, ChatMessage, Role
from ..._tool_call import ToolCall
from .._rule import Carries, Findings, Rule, require_conversation

__all__ = [
    "CALL_TURN_ORDER",
    "CARRIES",
    "FILE_ID",
    "IMAGE_DETAIL",
    "IMAGE_MEDIA_TYPE",
    "IMAGE_MEDIA_TYPES",
    "IMAGE_WITHOUT_MEDIA_TYPE",
    "INVALID_TOOL_NAME",
    "MODEL_PARTS",
    "NO_CONVERSATION",
    "PARTS",
    "RESULT_COUNT",
    "RESULT_MEDIA_TYPE",
    "RESULT_MEDIA_TYPES",
    "SCHEMA_FIELDS",
    "SCHEMA_TYPES",
    "SYSTEM_PARTS",
    "TOOL_NAME",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
    "schema_refuses",
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


# What Gemini's ``Schema`` refuses though each of its fields holds what it
# holds, in Google's words: an array without its items ("*
# GenerateContentRequest.tools[0].function_declarations[3].parameters.properties[tags].items:
# missing field.", https://github.com/kkrishnan90/gemini-desktop/pull/7), an
# object without properties ("...parameters.properties: should be non-empty
# for OBJECT type", https://github.com/agno-agi/agno/pull/2113), a required
# name no property has ("...parameters.required[0]: property is not
# defined", https://github.com/iBUHub/AIStudioToAPI/issues/154), a schema
# without a type ("...properties[commit_hash].type: must be specified when not
# using one_of, any_of or all_of fields", https://github.com/danny-avila/LibreChat/issues/6971).
# Each is valid JSON Schema: a schema with one, at any depth, goes as
# ``parametersJsonSchema``.
def schema_refuses(node: Mapping[str, object]) -> bool:
    """Whether Gemini's ``Schema`` refuses the one schema ``node`` (its subschemas aside)."""
    kind = node.get("type")
    properties = node.get("properties")
    if kind is None and "anyOf" not in node:
        return (
            True  # "...properties[x].type: must be specified when not using one_of, any_of or all_of fields"
        )
    if (kind == "array" and "items" not in node) or (kind == "object" and not properties):
        return True
    required = node.get("required")
    named = properties if isinstance(properties, Mapping) else {}
    return isinstance(required, list) and any(
        not isinstance(name, str) or name not in named for name in required
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
        elif previous.role in (USER, TOOL):
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


# -- content parts -------------------------------------------------------------------------

#: The part classes each role may carry on Gemini, before the checks of each
#: part (its media type, its source): the system instruction and model turns
#: text, user turns any part, tool results text (in ``response``) and images
#: and files (in ``functionResponse.parts``).
PARTS: Mapping[Role, frozenset[type[ContentPart]]] = MappingProxyType(
    {
        SYSTEM: frozenset({TextPart}),
        DEVELOPER: frozenset({TextPart}),
        USER: frozenset({TextPart, ImagePart, FilePart, AudioPart}),
        ASSISTANT: frozenset({TextPart}),
        TOOL: frozenset({TextPart, ImagePart, FilePart}),
    }
)

#: The system instruction is text (GenerateContentRequest.systemInstruction).
SYSTEM_PARTS = Rule(
    "unsupported_part",
    "Optional. Developer set system instruction(s). Currently, text only.",
    "https://ai.google.dev/api/generate-content#request-body",
)
#: A model turn's images and files are the model's own: Gemini sends them with
#: a signature, which reading keeps with the turn (provider_data["gemini"]);
#: one built by hand has none, and Gemini 3 refuses the request.
MODEL_PARTS = Rule(
    "unsupported_part",
    "Image part is missing a thought_signature in content position 3, part position 1. Please refer to "
    "https://ai.google.dev/gemini-api/docs/thought-signatures#model-behavior for more details.",
    "https://github.com/archestra-ai/archestra/issues/2548",
)

_FUNCTION_CALLING = "https://ai.google.dev/gemini-api/docs/function-calling#multimodal"
_RESULT_MEDIA_WORDS = (
    "The following MIME types are supported for multimodal content in function responses: "
    "Images: image/png, image/jpeg, image/webp; Documents: application/pdf, text/plain"
)
#: What a function response's ``parts`` may hold (Gemini 3 models; earlier
#: models answer 400 "Multimodal function responses are not supported for this
#: model" to any, which no rule of the request can see).
RESULT_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"})
#: Audio in a tool result: no MIME type of it is among those listed.
RESULT_PARTS = Rule("unsupported_part", _RESULT_MEDIA_WORDS, _FUNCTION_CALLING)
RESULT_MEDIA_TYPE = Rule("unsupported_media_type", _RESULT_MEDIA_WORDS, _FUNCTION_CALLING)

#: "Gemini supports the following image format MIME types: PNG - image/png,
#: JPEG - image/jpeg, WEBP - image/webp, HEIC - image/heic, HEIF - image/heif"
#: (https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats).
IMAGE_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"})
IMAGE_MEDIA_TYPE = Rule(
    "unsupported_media_type",
    "Unsupported MIME type: image/jpg",
    "https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats",
)
#: A URL image goes as ``fileData``, where only ``mimeType`` says it is an
#: image: without one it would read back as a file, and google-genai itself
#: refuses a URI whose type it cannot tell (FunctionResponsePart.from_uri,
#: Part.from_uri).
IMAGE_WITHOUT_MEDIA_TYPE = Rule(
    "missing_media_type",
    "Failed to determine mime type for file: {file_uri}",
    "https://github.com/googleapis/python-genai/blob/main/google/genai/types.py",
)
#: OpenAI's ``detail`` has no field on Gemini's parts (the nearest is the
#: part's ``mediaResolution``, which a caller may set in provider_data).
IMAGE_DETAIL = Rule(
    "unsupported_field",
    "Invalid JSON payload received. Unknown name ...: Cannot find field.",
    "https://ai.google.dev/api/caching#Blob",
)
#: A file Gemini holds is named by its URI (``fileData.fileUri``), not by an id:
#: another provider's file id names nothing on Gemini.
FILE_ID = Rule("unsupported_source", "Required. URI.", "https://ai.google.dev/api/caching#FileData")

_ROLE_RULES = MappingProxyType(
    {
        SYSTEM: SYSTEM_PARTS,
        DEVELOPER: SYSTEM_PARTS,
        ASSISTANT: MODEL_PARTS,
        TOOL: RESULT_PARTS,
    }
)
_ROLE_CARRIES = MappingProxyType(
    {
        SYSTEM: "the system instruction is text only",
        DEVELOPER: "the system instruction is text only",
        ASSISTANT: "a model turn carries text (its images are Gemini's own, kept with the turn it sent)",
        TOOL: "a function response carries text, images and documents",
    }
)


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """Why Gemini cannot carry ``part`` in a ``role`` turn (``PARTS``, then the part's own rules); None if it can."""
    kind = type(part)
    if kind is TextPart:
        return None  # every role carries text
    if kind not in PARTS[role]:
        return _ROLE_RULES[role], f"{_ROLE_CARRIES[role]}, got {kind.__name__}"
    if isinstance(part, FilePart) and part.file_id is not None:
        return FILE_ID, (
            f"Gemini names a file by its URI (fileData.fileUri), not by an id, got the file id {part.file_id!r}"
        )
    media_type = part.media_type if isinstance(part, (ImagePart, FilePart)) else None
    if isinstance(part, ImagePart):
        if part.detail is not None:
            return IMAGE_DETAIL, (
                f"Gemini has no image detail, got detail={part.detail!r} (its nearest is the part's "
                "mediaResolution, which provider_data['gemini']['keys'] can set)"
            )
        if media_type is None:
            return IMAGE_WITHOUT_MEDIA_TYPE, (
                "an image URL goes as fileData, whose mimeType alone says it is an image: set media_type"
            )
    if role is TOOL:
        if media_type not in RESULT_MEDIA_TYPES:
            listed = ", ".join(sorted(RESULT_MEDIA_TYPES))
            return RESULT_MEDIA_TYPE, f"a function response carries {listed}, got {media_type!r}"
    elif isinstance(part, ImagePart) and media_type not in IMAGE_MEDIA_TYPES:
        listed = ", ".join(sorted(IMAGE_MEDIA_TYPES))
        return IMAGE_MEDIA_TYPE, f"Gemini takes images of {listed}, got {media_type!r}"
    return None

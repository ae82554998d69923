"""OpenAI Chat Completions' rules: what the API refuses that the message model allows.

The OpenAI codec writes toolturns' own wire, which OpenAI-compatible servers
(vLLM, OpenRouter, Ollama's /v1, ...) share; they differ on these limits, so
the codec sends what it is given, and ``check_transcript(target="openai")``
reports what OpenAI itself would refuse.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ..._json import join_key
from ..._message import ASSISTANT, DEVELOPER, SYSTEM, TOOL, USER, ChatMessage, Role
from ..._tool import Tool
from ..._tool_call import ToolCall
from .._rule import Carries, Findings, Rule, top_level_keywords

__all__ = [
    "ARRAY_WITHOUT_ITEMS",
    "AUDIO_FORMAT",
    "AUDIO_FORMATS",
    "CALL_ID_MAX",
    "CARRIES",
    "DETAILS",
    "FILE_MEDIA_TYPES",
    "FILE_TYPE",
    "ID_TOO_LONG",
    "IMAGE_MEDIA_TYPES",
    "IMAGE_NOT_IN_USER_TURN",
    "IMAGE_TYPE",
    "INVALID_DETAIL",
    "INVALID_NAME",
    "INVALID_TOOL_NAME",
    "MAX_TOOLS",
    "MISSING_FILENAME",
    "NAME",
    "NOT_CARRIED",
    "NO_FILE_URL",
    "PARTS",
    "SCHEMA_TOP_LEVEL",
    "STRICT_CLOSED",
    "STRICT_REQUIRED",
    "TEXT_PARTS_ONLY",
    "TOOL_NAME",
    "TOO_MANY_TOOLS",
    "TOP_LEVEL_KEYWORDS",
    "arrays_without_items",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
    "check_tool",
    "items_problems",
    "not_carried",
    "part_value_problem",
    "schemas_in",
    "strict_problems",
]

_LINK = "https://platform.openai.com/docs/api-reference/chat/create"

#: Tool names, in definitions and calls: "Must be a-z, A-Z, 0-9, or contain
#: underscores and dashes, with a maximum length of 64" (ChatCompletionTool
#: function.name).
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
INVALID_TOOL_NAME = Rule("invalid_tool_name", "string does not match pattern", _LINK)

#: OpenAI's messages carry every key of the wire toolturns reads them from
#: (to_wire writes ChatMessage.extra back). A tool definition's function has
#: name, description, parameters and strict, and OpenAI refuses any other key
#: ("Unknown parameter: 'messages[1].tool_calls[0].index'.", seen at
#: https://github.com/songquanpeng/one-api/issues/1319); another provider's
CARRIES = Carries(
    name=True,
    extra=True,
    strict=True,
    unsupported=Rule("unsupported", "Unknown parameter: '...'.", _LINK),
)


#: The longest call id OpenAI takes; ids made by other providers or frameworks often are longer.
CALL_ID_MAX = 40
ID_TOO_LONG = Rule(
    "id_too_long",
    "Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum length 40",
    _LINK,
)

#: A message's participant name.
NAME = re.compile(r"[a-zA-Z0-9_-]+")
INVALID_NAME = Rule(
    "invalid_name",
    "Invalid 'messages[1].name': string does not match pattern. "
    "Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    _LINK,
)

#: The most tool definitions one request may carry.
MAX_TOOLS = 128
TOO_MANY_TOOLS = Rule(
    "too_many_tools", "Invalid 'tools': array too long. Expected an array with maximum length 128", _LINK
)


#: An array schema, anywhere in a tool's parameters, must say its items: OpenAI
#: answers 400 to one that does not, strict or not, on Chat Completions and
#: Responses alike (JSON Schema itself takes ``{"type": "array"}``, and so do
#: Anthropic, Gemini and OpenAI-compatible servers: the codec sends it, and
#: ``check_transcript(target="openai")`` reports it). ``"items": {}`` is
#: enough (https://github.com/langchain4j/langchain4j/pull/3452 tests it).
ARRAY_WITHOUT_ITEMS = Rule(
    "array_without_items",
    "Invalid schema for function 'kafka_admin_topics': In context=('properties', 'configs'), "
    "array schema missing items.",
    "https://github.com/streamnative/streamnative-mcp-server/issues/26",
)


def arrays_without_items(schema: object, path: str = "parameters") -> Iterator[str]:
    """Where ``schema`` holds an array schema (``type`` ``"array"``, or a list naming it) without
    ``items``, in the order the schema's text has them: ``parameters.properties.tags``.

    Every place a schema holds schemas is looked in (``properties``, ``items``,
    ``anyOf``..., ``$defs``), as OpenAI's context (``('properties', 'values',
    'items')``) shows it does. Iterative: a schema may nest as deep as JSON may.
    """
    for node, where in schemas_in(schema, path):
        if _names(node.get("type"), "array") and "items" not in node:
            yield where


def schemas_in(schema: object, path: str = "parameters") -> Iterator[tuple[Mapping[str, Any], str]]:
    """Every schema object in ``schema``, itself first, with its path, in the order the schema's
    text has them (booleans and what is no schema passed over). Iterative: a schema may nest as
    deep as JSON may."""
    pending: list[tuple[object, str]] = [(schema, path)]
    while pending:
        node, where = pending.pop()
        if not isinstance(node, Mapping):
            continue  # true, false, or what Tool refused already
        yield node, where
        pending.extend(reversed(list(_subschemas(node, where))))


def _names(kind: object, name: str) -> bool:
    """Whether a schema's ``type`` names ``name``: it, or a list holding it."""
    return kind == name or (isinstance(kind, list) and name in kind)


def _subschemas(node: Mapping[str, Any], where: str) -> Iterator[tuple[object, str]]:
    """The schemas ``node`` holds, with their paths, in its keys' order."""
    for key, value in node.items():
        here = join_key(where, key)
        if key in _ONE_SCHEMA or (key == "items" and not isinstance(value, list)):
            yield value, here
        elif key in _SCHEMA_LISTS or key == "items":  # items as a list: before 2020-12's prefixItems
            if isinstance(value, list):
                yield from ((each, f"{here}[{number}]") for number, each in enumerate(value))
        elif key in _SCHEMA_MAPS and isinstance(value, Mapping):
            yield from ((each, join_key(here, name)) for name, each in value.items())


# The keywords that hold a schema, a list of them, an object of them (JSON Schema 2020-12's,
# and draft-07's additionalItems, definitions and dependencies, whose names can hold lists of
# names: not schemas, passed over).
_ONE_SCHEMA = frozenset(
    {
        "additionalProperties",
        "additionalItems",
        "not",
        "contains",
        "if",
        "then",
        "else",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)
_SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)


#: The top of a tool's parameters is a plain object schema: none of these beside
#: its ``type`` and ``properties`` (MCP servers' generated schemas often put a
#: choice of arguments there), on Chat Completions and Responses alike.
TOP_LEVEL_KEYWORDS = ("oneOf", "anyOf", "allOf", "enum", "not")
SCHEMA_TOP_LEVEL = Rule(
    "schema_top_level",
    "Invalid schema for function 'update-event': schema must have type 'object' and not have "
    "'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.",
    "https://github.com/nspady/google-calendar-mcp/issues/39",
)


#: A strict tool's every object schema is closed and requires each of its
#: properties (OpenAI's Structured Outputs; an optional argument is one whose
#: type allows null): on Chat Completions and Responses alike.
STRICT_CLOSED = Rule(
    "strict_schema",
    "Invalid schema for function 'next_dispatch_note': 'additionalProperties' is required to be "
    "supplied and to be false.",
    "https://github.com/AreevAI/areev/pull/244",
)
STRICT_REQUIRED = Rule(
    "strict_schema",
    "Invalid schema for function 'mysql_execute': In context=(), 'required' is required to be "
    "supplied and to be an array including every key in properties. Missing 'params'.",
    "https://github.com/kevinwatt/mysql-mcp/issues/5",
)


def check_tool(tool: Tool) -> Sequence[tuple[str, Rule, str]]:
    """The top of the parameters (``SCHEMA_TOP_LEVEL``), every array schema in them with its items
    (``ARRAY_WITHOUT_ITEMS``), and a strict tool's object schemas (``STRICT_CLOSED``, ``STRICT_REQUIRED``)."""
    top = top_level_keywords(tool, TOP_LEVEL_KEYWORDS, SCHEMA_TOP_LEVEL, "OpenAI")
    return top + items_problems(tool, ARRAY_WITHOUT_ITEMS) + strict_problems(tool)


def strict_problems(tool: Tool) -> list[tuple[str, Rule, str]]:
    """For a tool with ``strict=True``: each object schema (its ``type`` names ``object``, or it has
    ``properties``) without ``"additionalProperties": false``, or with a property ``required``
    does not list. Nothing for any other tool: OpenAI checks these in strict mode only."""
    if tool.strict is not True:
        return []
    found: list[tuple[str, Rule, str]] = []
    for node, where in schemas_in(tool.parameters):
        if not (_names(node.get("type"), "object") or "properties" in node):
            continue
        if node.get("additionalProperties") is not False:
            found.append(
                (
                    join_key(where, "additionalProperties"),
                    STRICT_CLOSED,
                    'a strict tool\'s objects are closed: OpenAI requires "additionalProperties": false here',
                )
            )
        properties = node.get("properties")
        required = node.get("required")
        listed = set(required) if isinstance(required, list) else set()
        missing = [key for key in properties if key not in listed] if isinstance(properties, Mapping) else []
        if missing:
            found.append(
                (
                    join_key(where, "required"),
                    STRICT_REQUIRED,
                    f"a strict tool requires every property; OpenAI refuses this object without "
                    f"{', '.join(map(repr, missing))} in required (an optional one allows null instead)",
                )
            )
    return found


def items_problems(tool: Tool, rule: Rule) -> list[tuple[str, Rule, str]]:
    """``check_tool``'s problems of ``tool``'s array schemas without items, as ``rule`` (the
    Responses wire's rules give theirs)."""
    return [
        (
            where,
            rule,
            'array schema has no items; OpenAI requires an items schema for every array (an empty one, "items": {}, takes any item)',
        )
        for where in arrays_without_items(tool.parameters)
    ]


# -- content parts ------------------------------------------------------------------------
#
# Two kinds of part rule. What the wire cannot carry in a role, or at all, is
# ``check_part``'s: the codec refuses it (``_shared.refuse_parts``), whatever
# ``drop_unsupported`` says. What OpenAI refuses of a part's values (a media
# type, a detail, a missing file name) is ``part_value_problem``'s: the codec
# sends it as given, because OpenAI-compatible servers (vLLM, OpenRouter,
# Ollama's /v1) take other values, and ``check_transcript(target="openai")``
# reports it, as it reports a call id over 40 characters.

#: The part classes each role's message carries. A system, developer and tool
#: message's array "only type `text` is supported"; an assistant's holds text
#: (its ``refusal`` parts are kept data of the message, not parts); a user's
#: "Can contain text, image, or audio inputs" and files.
PARTS: Mapping[Role, frozenset[type[ContentPart]]] = MappingProxyType(
    {
        SYSTEM: frozenset({TextPart}),
        DEVELOPER: frozenset({TextPart}),
        USER: frozenset({TextPart, ImagePart, FilePart, AudioPart}),
        ASSISTANT: frozenset({TextPart}),
        TOOL: frozenset({TextPart}),
    }
)

#: An image anywhere but in a user turn: OpenAI's 400, as seen in a tool loop
#: whose tool returned a screenshot.
IMAGE_NOT_IN_USER_TURN = Rule(
    "unsupported_part",
    "Invalid 'messages[234]'. Image URLs are only allowed for messages with role 'user', "
    "but this message with role 'tool' contains an image URL.",
    "https://github.com/OpenHands/OpenHands/issues/7700",
)
#: Audio or a file outside a user turn: the API reference's words on each role's array of parts.
TEXT_PARTS_ONLY: Mapping[Role, Rule] = MappingProxyType(
    {
        role: Rule(
            "unsupported_part",
            f"An array of content parts with a defined type. For {role.value} messages, "
            "only type `text` is supported.",
            _LINK,
        )
        for role in (SYSTEM, DEVELOPER, TOOL)
    }
    | {
        ASSISTANT: Rule(
            "unsupported_part",
            "An array of content parts with a defined type. Can be one or more of type `text`, "
            "or exactly one of type `refusal`.",
            _LINK,
        )
    }
)
#: A part field the wire has no place for (a media type beside an image's URL):
#: sent, it would be an unknown key of the part.
NOT_CARRIED = Rule("unsupported_field", "Unknown parameter: '...'.", _LINK)
#: A source the wire has no place for: a file part holds file_data or a file_id, not a URL.
NO_FILE_URL = Rule("unsupported_source", "Unknown parameter: '...'.", _LINK)

#: The images OpenAI takes: "PNG (.png), JPEG (.jpeg and .jpg), WEBP (.webp),
#: Non-animated GIF (.gif)" (https://platform.openai.com/docs/guides/images-vision,
#: "Image input requirements"). Media types are compared without case (RFC
#: 6838); whether a GIF is animated its media type does not say.
IMAGE_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/gif"})
IMAGE_TYPE = Rule(
    "unsupported_media_type",
    "You uploaded an unsupported image. Please make sure your image has of one the following formats: "
    "['png', 'jpeg', 'gif', 'webp'].",
    "https://github.com/marketing-factory/ai-filemetadata/issues/19",
)
#: A Chat Completions file's data must be a PDF (other types go to the Responses API).
FILE_MEDIA_TYPES = frozenset({"application/pdf"})
FILE_TYPE = Rule(
    "unsupported_media_type",
    "Invalid file data: 'messages[3].content[2].file.file_data'. Expected a base64-encoded data URL with "
    "an application/pdf MIME type (e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ=='), but got "
    "unsupported MIME type 'text/markdown'.",
    "https://github.com/trpc-group/trpc-agent-go/issues/1816",
)
#: ``input_audio.format``: "Currently supports "wav" and "mp3"." (the API reference).
AUDIO_FORMATS = frozenset({"wav", "mp3"})
AUDIO_FORMAT = Rule(
    "unsupported_media_type",
    'The format of the encoded audio data. Currently supports "wav" and "mp3".',
    _LINK,
)
#: ``image_url.detail``, spelled exactly: "low", "high" and "auto", and
#: "original" since GPT-5.4 (the openai SDK's ``ImageURL.detail``).
DETAILS = frozenset({"low", "high", "auto", "original"})
INVALID_DETAIL = Rule(
    "invalid_detail",
    "Invalid value: 'LOW'. Supported values are: 'low', 'high', and 'auto'.",
    "https://github.com/quarkiverse/quarkus-langchain4j/issues/412",
)
#: A file sent as data needs its name; OpenAI's 400 names the other source.
MISSING_FILENAME = Rule(
    "missing_filename",
    "Missing required parameter: 'messages[1].content[1].file.file_id'.",
    "https://github.com/openai/openai-agents-python/pull/1513",
)


def _kind(part: ContentPart) -> type:
    """The part class ``part`` is (a subclass stands for its class)."""
    for kind in (ImagePart, FilePart, AudioPart):
        if isinstance(part, kind):
            return kind
    return TextPart


_WHAT = {ImagePart: "an image", AudioPart: "audio", FilePart: "a file"}


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """Why a ``role`` message on this wire cannot carry ``part``: a part its role does not
    take (``PARTS``), or a field the wire has no place for (``not_carried``)."""
    kind = _kind(part)
    if kind not in PARTS[role]:
        if kind is ImagePart:
            why = f"OpenAI takes images in user messages only, not in {role.value} messages"
            if role is TOOL:
                why += (
                    "; to_request(..., tool_parts_to_user=True) sends a tool result's images and files "
                    "in a user message right after the results"
                )
            return IMAGE_NOT_IN_USER_TURN, why
        return TEXT_PARTS_ONLY[role], f"{role.value} messages carry text parts only, not {_WHAT[kind]}"
    missing = not_carried(part)
    if missing is not None:
        field, what = missing
        return NO_FILE_URL if field == "url" else NOT_CARRIED, f"OpenAI's parts cannot carry {what}"
    return None


def not_carried(part: ContentPart) -> tuple[str, str] | None:
    """What of ``part`` OpenAI's part shapes have no place for, as (the part's field, what):
    an ``image_url`` holds a URL and a detail, a ``file`` holds ``file_data`` (a data URL,
    which says the media type), ``file_id`` and ``filename``."""
    if isinstance(part, ImagePart):
        if part.url is not None and part.media_type is not None:
            return "media_type", f"a media type beside an image's URL ({part.media_type!r})"
    elif isinstance(part, FilePart):
        if part.url is not None:
            return "url", "a file's URL (a file part holds file_data or a file_id)"
        if part.file_id is not None and part.media_type is not None:
            return "media_type", f"a media type beside a file id ({part.media_type!r})"
    return None


def part_value_problem(part: ContentPart) -> tuple[Rule, str] | None:
    """What OpenAI refuses of ``part``'s values, though the wire can carry them."""
    if isinstance(part, ImagePart):
        if part.media_type is not None and part.media_type.lower() not in IMAGE_MEDIA_TYPES:
            return IMAGE_TYPE, f"OpenAI takes PNG, JPEG, WebP and GIF images, not {part.media_type!r}"
        if part.detail is not None and part.detail not in DETAILS:
            listed = ", ".join(repr(detail) for detail in sorted(DETAILS))
            return INVALID_DETAIL, f"an image's detail is one of {listed}, not {part.detail!r}"
    elif isinstance(part, AudioPart):
        if part.format not in AUDIO_FORMATS:
            return AUDIO_FORMAT, f"OpenAI takes 'wav' and 'mp3' audio, not {part.format!r}"
    elif isinstance(part, FilePart) and part.data is not None:
        media_type = part.media_type or ""  # FilePart requires one with data
        if media_type.lower() not in FILE_MEDIA_TYPES:
            return FILE_TYPE, f"OpenAI takes a file's data as a PDF only, not {media_type!r}"
        if part.filename is None:
            return MISSING_FILENAME, "OpenAI needs a filename beside a file's data"
    return None


def check(findings: Findings) -> None:
    """Participant names, the number of tools, and the values OpenAI refuses in parts."""
    for index, turn in findings.readable:
        if turn.name is not None and not NAME.fullmatch(turn.name):
            findings.add(
                index,
                f"messages[{index}].name",
                INVALID_NAME,
                f"name {turn.name!r} does not match ^{NAME.pattern}$, which OpenAI requires",
            )
        content = turn.content
        if type(content) is tuple:
            for position, part in enumerate(content):
                problem = part_value_problem(part)
                if problem is not None:
                    findings.add(index, f"messages[{index}].content[{position}]", *problem)
    if findings.tool_count > MAX_TOOLS:
        findings.add(
            None,
            "tools",
            TOO_MANY_TOOLS,
            f"has {findings.tool_count} tools; OpenAI takes at most {MAX_TOOLS}",
        )


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """A call id of at most 40 characters."""
    if len(call.id) > CALL_ID_MAX:
        findings.add(
            index,
            f"messages[{index}].tool_calls[{position}].id",
            ID_TOO_LONG,
            f"call id has {len(call.id)} characters; OpenAI refuses ids over {CALL_ID_MAX}",
        )


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target."""

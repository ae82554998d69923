"""Anthropic Messages' rules: what the API refuses that the message model allows."""

from __future__ import annotations

import binascii
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ..._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart, image_media_type
from ..._message import ASSISTANT, DEVELOPER, SYSTEM, SYSTEM_ROLES, TOOL, USER, ChatMessage, Role
from ..._tool import Tool
from ..._tool_call import ToolCall
from .._rule import Carries, Findings, Rule, require_conversation, top_level_keywords

__all__ = [
    "ASSISTANT_TEXT_ONLY",
    "CALL_ID",
    "CARRIES",
    "DOCUMENT_MEDIA_TYPES",
    "EMPTY_TEXT",
    "IMAGE_MEDIA_TYPES",
    "IMAGE_MISMATCH",
    "INVALID_CALL_ID",
    "INVALID_TOOL_NAME",
    "NOT_TEXT",
    "NO_AUDIO",
    "NO_CONVERSATION",
    "ORPHAN_RESULT",
    "PARTS",
    "SCHEMA_TOP_LEVEL",
    "SYSTEM_TEXT_ONLY",
    "TOOL_NAME",
    "TOP_LEVEL_KEYWORDS",
    "TRAILING_WHITESPACE",
    "UNSIGNED_THINKING",
    "UNSUPPORTED_DOCUMENT_TYPE",
    "UNSUPPORTED_FIELD",
    "UNSUPPORTED_IMAGE_TYPE",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
    "check_tool",
]

_LINK = "https://docs.anthropic.com/en/api/messages"

#: Tool names, in definitions and calls (64 characters until mid 2025).
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,128}")
INVALID_TOOL_NAME = Rule(
    "invalid_tool_name", "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'", _LINK
)

#: A Messages API message is {role, content}: Anthropic answers 400 "Extra
#: inputs are not permitted" to any other key. Tools take ``strict``.
CARRIES = Carries(
    name=False,
    extra=False,
    strict=True,
    unsupported=Rule(
        "unsupported", "Extra inputs are not permitted", "https://docs.anthropic.com/en/api/messages"
    ),
)


#: tool_use.id, and so tool_result.tool_use_id. The codec escapes other ids
#: reversibly (``ids.wire_id``); anything else that sends them gets the 400.
CALL_ID = re.compile(r"[a-zA-Z0-9_-]+")
INVALID_CALL_ID = Rule(
    "invalid_call_id", "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'", _LINK
)

#: Text blocks must hold text. The codec sends no block for an empty text
#: (an empty system message, a call turn without text, an empty result).
EMPTY_TEXT = Rule(
    "empty_text",
    "messages: text content blocks must be non-empty; text content blocks must contain non-whitespace text",
    _LINK,
)
#: A prefill (the final assistant text) may not end in whitespace.
TRAILING_WHITESPACE = Rule(
    "trailing_whitespace", "final assistant content cannot end with trailing whitespace", _LINK
)
#: System messages go apart (the top-level ``system``): the rest must not be empty.
NO_CONVERSATION = Rule("no_conversation", "messages: at least one message is required", _LINK)
#: Results go in the user turn right after the call turn.
ORPHAN_RESULT = Rule(
    "orphan_result",
    "Each tool_result block must have a corresponding tool_use block in the previous message",
    "https://docs.anthropic.com/en/docs/build-with-claude/tool-use",
)


#: A thinking block goes back with the signature Anthropic gave it; an empty
#: one (a stream cut before its signature_delta) cannot be replayed. The codec
#: refuses such a kept block, which check_transcript reports as not_convertible.
UNSIGNED_THINKING = Rule(
    "not_convertible",
    "messages.1.content.0: Invalid `signature` in `thinking` block",
    "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking",
)


# -- content parts ------------------------------------------------------------------------

_VISION = "https://platform.claude.com/docs/en/build-with-claude/vision"
_PDF = "https://platform.claude.com/docs/en/build-with-claude/pdf-support"

#: The part classes each role may carry (before the checks of each part:
#: media types, an image's bytes). A system prompt is text blocks; an
#: assistant turn is read back as its text, calls and kept blocks; user turns
#: and tool results take images and documents.
PARTS: Mapping[Role, frozenset[type[ContentPart]]] = MappingProxyType(
    {
        SYSTEM: frozenset({TextPart}),
        DEVELOPER: frozenset({TextPart}),
        USER: frozenset({TextPart, ImagePart, FilePart}),
        ASSISTANT: frozenset({TextPart}),
        TOOL: frozenset({TextPart, ImagePart, FilePart}),
    }
)

#: The top-level ``system`` is a string or text blocks (Anthropic's own type for it).
SYSTEM_TEXT_ONLY = Rule(
    "unsupported_part",
    "system: Union[str, Iterable[TextBlockParam]]",
    "https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/types/message_create_params.py",
)
#: Images and documents go in user turns and tool results, not in what the model said.
ASSISTANT_TEXT_ONLY = Rule(
    "unsupported_part",
    "Claude API supports images in user turns but not in model/assistant turns",
    "https://github.com/google/adk-python/pull/3286",
)
#: The Messages API has no audio block (text, image, document, search_result, ...).
NO_AUDIO = Rule(
    "unsupported_part",
    "Currently the API accepts text and images (JPEG, PNG, GIF, WebP) but not raw audio.",
    "https://github.com/anthropics/anthropic-sdk-python/issues/1198",
)

#: A part's field Anthropic's block has no place for (OpenAI's ``detail``, a media type
#: beside a URL or file source, which Anthropic reads from the file).
UNSUPPORTED_FIELD = Rule("unsupported_field", "Extra inputs are not permitted", _LINK)

#: The media types of a base64 image source, exactly as Anthropic spells them.
IMAGE_MEDIA_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
UNSUPPORTED_IMAGE_TYPE = Rule(
    "unsupported_media_type",
    "messages.36.content.2.image.source.base64.media_type: Input should be "
    "'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    "https://github.com/anthropics/claude-code/issues/8184",
)
#: A document's data: a PDF (a base64 source) or plain text (a text source).
PDF, PLAIN_TEXT = "application/pdf", "text/plain"
DOCUMENT_MEDIA_TYPES = frozenset({PDF, PLAIN_TEXT})
UNSUPPORTED_DOCUMENT_TYPE = Rule(
    "unsupported_media_type",
    "document.source.base64.media_type: Input should be 'application/pdf'",
    _PDF,
)
#: A plain-text document travels as text (a JSON string), so its bytes must be UTF-8.
NOT_TEXT = Rule(
    "unsupported_media_type",
    "PlainTextSource: data: str, media_type: 'text/plain', type: 'text'",
    "https://platform.claude.com/docs/en/build-with-claude/citations",
)
#: Anthropic reads an image's format from its bytes and refuses a declared type that differs.
IMAGE_MISMATCH = Rule(
    "media_type_mismatch",
    "messages.18.content.1.image.source.base64.data: Image does not match the provided media type image/png",
    "https://github.com/anthropics/claude-code/issues/13131",
)


def plain_text(data: str) -> str | None:
    """The text a plain-text document's base64 data holds, or None when its bytes are not UTF-8."""
    try:
        return binascii.a2b_base64(data).decode("utf-8")
    except UnicodeDecodeError:
        return None


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """Why Anthropic cannot take ``part`` in a ``role`` turn, or None (most parts: one test)."""
    kind = type(part)
    if kind not in PARTS[role]:
        if kind is AudioPart:
            return NO_AUDIO, "Anthropic's Messages API has no audio block: send a transcript as text"
        rule = ASSISTANT_TEXT_ONLY if role is ASSISTANT else SYSTEM_TEXT_ONLY
        return rule, f"Anthropic takes only text in a {role} turn, got {kind.__name__}"
    if kind is ImagePart:
        return _image_problem(part)  # type: ignore[arg-type]  # kind is ImagePart
    if kind is FilePart:
        return _file_problem(part)  # type: ignore[arg-type]  # kind is FilePart
    return None


def _image_problem(image: ImagePart) -> tuple[Rule, str] | None:
    if image.detail is not None:
        return UNSUPPORTED_FIELD, (
            f"Anthropic's image block has no detail, got {image.detail!r}: build the part without it"
        )
    if image.data is None:
        if image.media_type is not None:
            return UNSUPPORTED_FIELD, _NO_MEDIA_TYPE.format(source="a url", media_type=image.media_type)
        return None
    if image.media_type not in IMAGE_MEDIA_TYPES:
        return UNSUPPORTED_IMAGE_TYPE, (
            f"Anthropic takes {_listed(IMAGE_MEDIA_TYPES)} images, got {image.media_type!r}"
        )
    found = image_media_type(image.data)
    if found != image.media_type:
        what = "none of JPEG, PNG, GIF or WebP" if found is None else found
        return IMAGE_MISMATCH, f"the image is declared {image.media_type} but its bytes are {what}"
    return None


def _file_problem(file: FilePart) -> tuple[Rule, str] | None:
    if file.data is None:
        if file.media_type is not None:
            source = "a url" if file.file_id is None else "a file"
            return UNSUPPORTED_FIELD, _NO_MEDIA_TYPE.format(source=source, media_type=file.media_type)
        return None
    if file.media_type not in DOCUMENT_MEDIA_TYPES:
        return UNSUPPORTED_DOCUMENT_TYPE, (
            f"Anthropic's documents are PDF (application/pdf) or plain text (text/plain), got {file.media_type!r}"
        )
    if file.media_type == PLAIN_TEXT and plain_text(file.data) is None:
        return NOT_TEXT, "a text/plain document goes as text, and these bytes are not UTF-8"
    return None


_NO_MEDIA_TYPE = (
    "Anthropic's {source} source carries no media type (Anthropic reads it from the file), "
    "got {media_type!r}: build the part without media_type"
)


def _listed(media_types: frozenset[str]) -> str:
    return ", ".join(sorted(media_types))


# -- the transcript -----------------------------------------------------------------------


def check(findings: Findings) -> None:
    """A conversation besides the system messages; no empty or whitespace-only text."""
    require_conversation(findings, NO_CONVERSATION)
    last = findings.conversation[-1][0] if findings.conversation else -1
    for index, turn in findings.readable:
        final = index == last
        if type(turn.content) is tuple:
            _check_text_parts(findings, index, turn, final)
            continue
        text = turn.text
        if turn.role is TOOL:
            continue  # an empty result is sent without content, which Anthropic accepts
        if text.strip():
            if final and turn.role is ASSISTANT and not turn.tool_calls and text != text.rstrip():
                _trailing_whitespace(findings, index, f"messages[{index}].content")
            continue
        if not text and (
            turn.role in SYSTEM_ROLES
            or turn.tool_calls
            or (turn.role is ASSISTANT and final)
            or _keeps_blocks(turn)
        ):
            # Sent as no text block: the codec drops an empty system message, a call
            # turn has its calls, Anthropic allows an empty final assistant turn, and
            # a user turn read with blocks toolturns keeps (search_result) sends those.
            continue
        findings.add(
            index,
            f"messages[{index}].content",
            EMPTY_TEXT,
            f"{turn.role} text {text!r} is empty or only whitespace, which Anthropic refuses",
        )


def _check_text_parts(findings: Findings, index: int, turn: ChatMessage, final: bool) -> None:
    """Each text part is a text block of its own: none may be blank, and a prefill's last may
    not end in whitespace."""
    content: tuple[ContentPart, ...] = turn.content  # type: ignore[assignment]  # the caller tested it
    for position, part in enumerate(content):
        if type(part) is TextPart and not part.text.strip():
            findings.add(
                index,
                f"messages[{index}].content[{position}]",
                EMPTY_TEXT,
                f"a {turn.role} text part {part.text!r} is empty or only whitespace, which Anthropic refuses",
            )
    end = content[-1]
    prefill = final and turn.role is ASSISTANT and not turn.tool_calls
    if prefill and type(end) is TextPart and end.text.strip() and end.text != end.text.rstrip():
        _trailing_whitespace(findings, index, f"messages[{index}].content[{len(content) - 1}]")


def _trailing_whitespace(findings: Findings, index: int, path: str) -> None:
    findings.add(
        index,
        path,
        TRAILING_WHITESPACE,
        "the final assistant text ends in whitespace, which Anthropic refuses",
    )


def _keeps_blocks(turn: ChatMessage) -> bool:
    """Whether a turn holds blocks Anthropic's codec read and keeps (a user turn's search_result)."""
    entry = turn.provider_data.get("anthropic")
    return isinstance(entry, Mapping) and bool(entry.get("items"))


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """A call id Anthropic accepts as it is."""
    if not CALL_ID.fullmatch(call.id):
        findings.add(
            index,
            f"messages[{index}].tool_calls[{position}].id",
            INVALID_CALL_ID,
            f"call id {call.id!r} is outside ^{CALL_ID.pattern}$, which Anthropic requires of tool_use ids "
            "(toolturns.anthropic.to_request escapes such ids; other senders get a 400)",
        )


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target."""


#: The top of a tool's ``input_schema`` is a plain object schema: no choice of
#: schemas there (MCP servers' generated schemas often put one).
TOP_LEVEL_KEYWORDS = ("oneOf", "allOf", "anyOf")
SCHEMA_TOP_LEVEL = Rule(
    "schema_top_level",
    "tools.73.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level",
    "https://github.com/anthropics/claude-code/issues/5319",
)


def check_tool(tool: Tool) -> Sequence[tuple[str, Rule, str]]:
    """The top of the schema (``SCHEMA_TOP_LEVEL``)."""
    return top_level_keywords(tool, TOP_LEVEL_KEYWORDS, SCHEMA_TOP_LEVEL, "Anthropic")

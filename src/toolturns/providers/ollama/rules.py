"""Ollama /api/chat's rules: the tool exchanges, arguments as an object, and what a message's images can say.

Ollama documents no id or name patterns and no limits
(https://github.com/ollama/ollama/blob/main/docs/api.md); a call's arguments
travel as an object, which ``check_transcript`` checks for every such wire.

A message is one ``content`` string and one ``images`` list of base64 image
bytes, with no media type, URL or detail beside them, and the server puts the
images before the text: which parts each role may carry (``PARTS``) and what
each part must be to travel (``check_part``, ``PART_ORDER``) follow from that.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from ..._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart, image_media_type
from ..._message import ASSISTANT, DEVELOPER, SYSTEM, TOOL, USER, ChatMessage, Role
from ..._tool_call import ToolCall
from .._rule import Carries, Findings, Rule

__all__ = [
    "CARRIES",
    "IMAGE_DETAIL",
    "IMAGE_MEDIA_TYPE",
    "IMAGE_MISMATCH",
    "INVALID_TOOL_NAME",
    "MISPLACED_IMAGE",
    "PARTS",
    "PART_ORDER",
    "SYSTEM_IMAGE",
    "TOOL_NAME",
    "UNSUPPORTED_PART",
    "URL_IMAGE",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
    "image_media_type",
    "misplaced_image",
]

_TYPES = "https://github.com/ollama/ollama/blob/main/api/types.go"

#: Any name a ``Tool`` takes.
TOOL_NAME: re.Pattern[str] | None = None
INVALID_TOOL_NAME = Rule("invalid_tool_name", "", "https://github.com/ollama/ollama/blob/main/docs/api.md")

#: Ollama's server decodes a message into its Go struct (role, content,
#: thinking, images, tool_calls, tool_name, tool_call_id) and a tool into
#: {type, function: {name, description, parameters}}: Go's encoding/json
#: ignores any other key, so it would be lost without an error. (``images``
#: is read as content parts: no Ollama message keeps them in provider_data
#: any more, so ``images`` here changes nothing.)
CARRIES = Carries(
    name=False,
    extra=False,
    strict=False,
    unsupported=Rule(
        "unsupported",
        "(no error: Go's encoding/json ignores a key the struct does not have, and the value is lost)",
        _TYPES,
    ),
)


# -- content parts ------------------------------------------------------------------------

#: The part classes each role may carry on Ollama, before the per-part checks
#: of ``check_part``. Every Ollama message has ``images`` (api/types.go,
#: Message.Images; the Python SDK's ``Message.images`` on any role) and the
#: server hands the model every message's images (server/prompt.go): the
#: renderers show them in user, assistant and tool turns (Gemma 4 renders a
#: tool response's images). A system turn carries text only: the renderers
#: build it from the system message's content alone (``SYSTEM_IMAGE``).
PARTS: Mapping[Role, frozenset[type[ContentPart]]] = MappingProxyType(
    {
        SYSTEM: frozenset({TextPart}),
        DEVELOPER: frozenset({TextPart}),
        USER: frozenset({TextPart, ImagePart}),
        ASSISTANT: frozenset({TextPart, ImagePart}),
        TOOL: frozenset({TextPart, ImagePart}),
    }
)

#: A file or audio: an Ollama message has text and images only (api/types.go,
#: Message), and Go's encoding/json ignores any other key.
UNSUPPORTED_PART = Rule(
    "unsupported_part",
    'Message is a single message in a chat sequence. The message contains the role ("system", '
    '"user", or "assistant"), the content and an optional list of images.',
    _TYPES,
)
#: An image in a system or developer turn: Ollama takes it, and its renderers
#: lose it (Gemma 4's and Qwen3-VL's system turn is ``messages[0].Content``).
SYSTEM_IMAGE = Rule(
    "unsupported_part",
    "(no error: the renderers build the system turn from the system message's content alone, "
    "systemMessage = messages[0].Content, and its images are lost)",
    "https://github.com/ollama/ollama/blob/main/model/renderers/gemma4.go",
)
#: An image by URL: the wire holds the image's bytes.
URL_IMAGE = Rule(
    "unsupported_source",
    "SDKs accept file paths, URLs or raw bytes while the REST API expects base64-encoded image data.",
    "https://github.com/ollama/ollama/blob/main/docs/capabilities/vision.mdx",
)
#: OpenAI's ``detail``: an Ollama image is its bytes and nothing else.
IMAGE_DETAIL = Rule(
    "unsupported_field",
    "ImageData represents the raw binary data of an image file.",
    _TYPES,
)
#: The wire carries no media type, so reading takes it from the image's first
#: bytes (``image_media_type``): a part whose media type those bytes do not
#: say would come back as another part.
IMAGE_MEDIA_TYPE = Rule(
    "unsupported_media_type",
    "ImageData represents the raw binary data of an image file. (no media type travels with it)",
    _TYPES,
)
#: A media type the image's first bytes contradict would read back as the one they say.
IMAGE_MISMATCH = Rule(
    "media_type_mismatch",
    "ImageData represents the raw binary data of an image file. (no media type travels with it)",
    _TYPES,
)
#: Text, then an image: the server puts a message's images before its content
#: (server/prompt.go prepends their tags; model/renderers/image_tags.go "only
#: prepend[s] tags for any remaining images without placeholders").
PART_ORDER = Rule(
    "part_order",
    "This assumes all images are at the front of the message - same assumption as ollama/ollama/runner.go",
    "https://github.com/ollama/ollama/blob/main/model/renderers/qwen3vl.go",
)


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """Why Ollama cannot carry ``part`` in a ``role`` turn, or None (see ``PARTS``)."""
    if isinstance(part, TextPart):  # every role carries text
        return None
    if not isinstance(part, ImagePart) or ImagePart not in PARTS[role]:
        return _not_carried(part)
    if part.data is None:
        return URL_IMAGE, (
            "is an image by URL; Ollama takes images as base64 data only, so fetch it and send its bytes"
        )
    if part.detail is not None:
        return IMAGE_DETAIL, (
            f"has detail={part.detail!r}; Ollama's images are their bytes alone and carry no detail"
        )
    read_back = image_media_type(part.data)
    if read_back is None:
        return IMAGE_MEDIA_TYPE, (
            f"is {part.media_type}; Ollama's images carry no media type, and toolturns reads it back "
            "from the first bytes only for PNG, JPEG, GIF and WebP"
        )
    if read_back != part.media_type:
        return IMAGE_MISMATCH, (
            f"says {part.media_type}, but its first bytes are {read_back}'s; Ollama's images carry "
            f"no media type, so it would read back as {read_back}"
        )
    return None


def _not_carried(part: ContentPart) -> tuple[Rule, str]:
    if isinstance(part, FilePart):
        return UNSUPPORTED_PART, "is a file; an Ollama message carries text and images only"
    if isinstance(part, AudioPart):
        return UNSUPPORTED_PART, "is audio; an Ollama message carries text and images only"
    return SYSTEM_IMAGE, "a system or developer turn carries text only"  # PARTS: no image there


def misplaced_image(parts: tuple[ContentPart, ...]) -> int | None:
    """The position of the first image after (non-empty) text, or None: Ollama puts a message's
    images before its text, so such an image cannot keep its place (``PART_ORDER``)."""
    text = False
    for position, part in enumerate(parts):
        if isinstance(part, TextPart):
            text = text or part.text != ""
        elif text and isinstance(part, ImagePart):
            return position
    return None


#: What the codec and check_transcript say of a misplaced image.
MISPLACED_IMAGE = (
    "is an image after text; Ollama puts a message's images before its text, so it cannot keep "
    "its place: put the images first"
)


def check(findings: Findings) -> None:
    """Each image that comes after text (``PART_ORDER``); the tool exchanges are checked for every target."""
    for index, message in findings.readable:
        content = message.content
        if type(content) is tuple:
            position = misplaced_image(content)
            if position is not None:
                findings.add(index, f"messages[{index}].content[{position}]", PART_ORDER, MISPLACED_IMAGE)


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """Nothing: arguments are checked for every object wire."""


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target."""

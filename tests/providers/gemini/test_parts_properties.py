"""Properties of content parts on the Gemini wire.

- transcripts mixing text and image, file and audio parts in user turns and
  images and documents in tool results come back from a Gemini round trip as
  they were (up to the wire's documented normalisations, which none of these
  transcripts meets), and what toolturns writes is a google-genai Content;
- OpenAI wire -> Gemini -> OpenAI wire keeps every part, its bytes or URL, and
  its order;
- arbitrary JSON where parts go raises nothing but MessageError.
"""

from __future__ import annotations

import base64
import contextlib
from typing import Any

from google.genai import types
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.property import strategies as s
from tests.providers.gemini.test_properties import (
    RESULT_TEXTS,
    TEXT,
    calls,
    result_text_read_back,
    through_json,
)
from toolturns import (
    AudioPart,
    ChatMessage,
    ContentPart,
    FilePart,
    ImagePart,
    MessageError,
    Role,
    TextPart,
    ToolCall,
    gemini,
)
from toolturns.providers.gemini import rules

DATA = st.binary(min_size=1, max_size=9).map(lambda raw: base64.b64encode(raw).decode())
URLS = st.sampled_from(
    ["gs://bucket/a", "https://generativelanguage.googleapis.com/v1beta/files/x1", "https://e.x/y"]
)
NAMES = st.none() | st.sampled_from(["a.pdf", "report final.txt", "ü.png"])
RESOLUTION = {"mediaResolution": {"level": "MEDIA_RESOLUTION_HIGH"}}


def _kept(keys: dict[str, Any] | None, nested: tuple[str, dict[str, Any]] | None) -> dict[str, Any] | None:
    entry: dict[str, Any] = {}
    if keys:
        entry["keys"] = keys
    if nested:
        entry["nested"] = {nested[0]: nested[1]}
    return {"gemini": entry} if entry else None


@st.composite
def images(draw: st.DrawFn, media_types: frozenset[str] = rules.IMAGE_MEDIA_TYPES) -> ImagePart:
    media_type = draw(st.sampled_from(sorted(media_types)))
    keys = draw(st.none() | st.just(RESOLUTION))
    if draw(st.booleans()):
        label = draw(st.none() | st.just({"displayName": "chart.png"}))
        data = _kept(keys, None if label is None else ("inlineData", label))
        return ImagePart(data=draw(DATA), media_type=media_type, provider_data=data)
    return ImagePart(url=draw(URLS), media_type=media_type, provider_data=_kept(keys, None))


@st.composite
def files(
    draw: st.DrawFn, media_types: tuple[str, ...] = ("application/pdf", "text/plain", "video/mp4")
) -> FilePart:
    """Files of these types; a URL one of the user's may leave its type out (Files API URIs)."""
    media_type = draw(st.sampled_from(media_types))
    if draw(st.booleans()):
        return FilePart(data=draw(DATA), media_type=media_type, filename=draw(NAMES))
    untyped = "video/mp4" in media_types and draw(st.booleans())
    return FilePart(url=draw(URLS), media_type=None if untyped else media_type, filename=draw(NAMES))


AUDIO = st.builds(AudioPart, data=DATA, format=st.sampled_from(["wav", "mp3", "aiff", "aac", "ogg", "flac"]))
TEXT_PARTS = st.builds(TextPart, TEXT)


@st.composite
def user_parts(draw: st.DrawFn) -> list[ContentPart]:
    """Text, images, files and audio in any order, at least one of them not text."""
    media = draw(st.lists(st.one_of(images(), files(), AUDIO), min_size=1, max_size=3))
    parts: list[ContentPart] = [*media, *draw(st.lists(TEXT_PARTS, max_size=2))]
    return draw(st.permutations(parts))


@st.composite
def result_parts(draw: st.DrawFn) -> list[ContentPart]:
    """A tool result's text (first, if any) and its images and documents."""
    media: list[ContentPart] = draw(
        st.lists(
            st.one_of(
                images(rules.RESULT_MEDIA_TYPES & rules.IMAGE_MEDIA_TYPES),
                files(("application/pdf", "text/plain")),
            ),
            min_size=1,
            max_size=3,
        )
    )
    text = draw(RESULT_TEXTS)
    return [TextPart(text), *media] if text else media


def add_users(draw: st.DrawFn, messages: list[ChatMessage], users: list[ChatMessage]) -> None:
    """Append the user turns, after an assistant turn where one with parts would share a content
    with another user turn (reading back as one: the documented normalisation these transcripts avoid)."""
    last = messages[-1] if messages else None
    if last is not None and last.role is Role.USER and tuple in {type(last.content), type(users[0].content)}:
        messages.append(ChatMessage.assistant(draw(TEXT)))
    messages.extend(users)


@st.composite
def transcripts(draw: st.DrawFn) -> list[ChatMessage]:
    """Tool loops whose user turns and tool results carry parts, each user turn with parts a turn of its own."""
    messages: list[ChatMessage] = [ChatMessage.system(draw(TEXT)) for _ in range(draw(st.integers(0, 1)))]
    for _ in range(draw(st.integers(1, 3))):
        users = (
            [ChatMessage.user(draw(user_parts()))]
            if draw(st.booleans())
            else [ChatMessage.user(draw(TEXT)) for _ in range(draw(st.integers(1, 2)))]
        )
        add_users(draw, messages, users)
        for _ in range(draw(st.integers(0, 2))):
            turn = draw(calls())
            messages.append(ChatMessage.assistant_tool_calls(turn, draw(TEXT)))
            results = [
                ChatMessage.tool_result(
                    call.id,
                    draw(result_parts()) if draw(st.booleans()) else draw(RESULT_TEXTS),
                    is_error=draw(st.booleans()),
                )
                for call in turn
            ]
            messages.extend(draw(st.permutations(results)))
        if draw(st.booleans()):
            messages.append(ChatMessage.assistant(draw(TEXT)))
    return messages


def read_back(message: ChatMessage) -> ChatMessage:
    """A tool result as it reads back: its text as Gemini's response gives it (compact JSON)."""
    content = message.content
    text = result_text_read_back(message.text, message.is_error)
    if isinstance(content, tuple):
        media = [part for part in content if not isinstance(part, TextPart)]
        return ChatMessage.tool_result(
            message.tool_call_id or "", [TextPart(text), *media] if text else media, is_error=message.is_error
        )
    return ChatMessage.tool_result(message.tool_call_id or "", text, is_error=message.is_error)


def expected(transcript: list[ChatMessage]) -> list[ChatMessage]:
    """``transcript`` after a Gemini round trip: system first, results in call order, result text compact."""
    system = [m for m in transcript if m.role is Role.SYSTEM]
    out: list[ChatMessage] = []
    order: dict[str, int] = {}
    run: list[ChatMessage] = []
    for message in [*transcript, None]:
        if message is not None and message.role is Role.TOOL:
            run.append(read_back(message))
            continue
        out.extend(sorted(run, key=lambda m: order[m.tool_call_id or ""]))
        run = []
        if message is None or message.role is Role.SYSTEM:
            continue
        if message.tool_calls:
            order = {call.id: position for position, call in enumerate(message.tool_calls)}
        out.append(message)
    return system + out


@given(transcripts())
@settings(max_examples=150)
def test_a_round_trip_keeps_every_part(transcript: list[ChatMessage]) -> None:
    """from_request(to_request(T)) == T (system first, call order, compact JSON results), and the SDK takes the body."""
    body = through_json(gemini.to_request(transcript, keep_invalid_arguments=True))
    for content in body["contents"]:
        types.Content.model_validate(content)
    assert gemini.from_request(body) == expected(transcript)


# -- OpenAI wire -> Gemini -> OpenAI wire ----------------------------------------------------

OPENAI_IMAGES = ("image/png", "image/jpeg", "image/webp")
OPENAI_USER_PARTS = st.one_of(
    st.builds(ImagePart, data=DATA, media_type=st.sampled_from(OPENAI_IMAGES)),
    st.builds(FilePart, data=DATA, media_type=st.just("application/pdf"), filename=NAMES),
    st.builds(AudioPart, data=DATA, format=st.sampled_from(["wav", "mp3"])),
)


@st.composite
def openai_transcripts(draw: st.DrawFn) -> list[ChatMessage]:
    """What the OpenAI wire carries and Gemini too: data images, files and audio in user turns, data images in results."""
    messages: list[ChatMessage] = []
    for _ in range(draw(st.integers(1, 3))):
        media = draw(st.lists(OPENAI_USER_PARTS, min_size=1, max_size=3))
        parts = draw(st.permutations([*media, *draw(st.lists(TEXT_PARTS, max_size=2))]))
        add_users(
            draw, messages, [ChatMessage.user(parts) if draw(st.booleans()) else ChatMessage.user(draw(TEXT))]
        )
        for _ in range(draw(st.integers(0, 1))):
            turn = [ToolCall(call.id, call.name, call.arguments_json) for call in draw(calls())]
            messages.append(ChatMessage.assistant_tool_calls(turn, draw(TEXT)))
            for call in turn:
                screenshots = draw(
                    st.lists(
                        st.builds(ImagePart, data=DATA, media_type=st.sampled_from(OPENAI_IMAGES)), max_size=2
                    )
                )
                text = draw(TEXT.filter(lambda t: not t.lstrip().startswith("{")))
                content: Any = [TextPart(text), *screenshots] if text and screenshots else screenshots or text
                messages.append(ChatMessage.tool_result(call.id, content))
        if draw(st.booleans()):
            messages.append(ChatMessage.assistant(draw(TEXT)))
    return messages


def part_facts(messages: list[ChatMessage]) -> list[list[tuple[str, str | None, str | None]]]:
    """Each message's parts in order: kind, bytes (base64) or URL, and media type or format."""

    def fact(part: ContentPart) -> tuple[str, str | None, str | None]:
        if isinstance(part, TextPart):
            return ("text", part.text, None)
        if isinstance(part, AudioPart):
            return ("audio", part.data, part.format)
        return (type(part).__name__, part.data or part.url, part.media_type)

    return [[fact(part) for part in m.content] if isinstance(m.content, tuple) else [] for m in messages]


@given(openai_transcripts())
@settings(max_examples=100)
def test_openai_to_gemini_to_openai_keeps_every_part_its_bytes_and_its_order(
    transcript: list[ChatMessage],
) -> None:
    """The OpenAI wire's parts go through Gemini and back to the OpenAI wire unchanged, part for part."""
    wire = through_json([message.to_wire() for message in transcript])
    read = [ChatMessage.from_dict(item) for item in wire]
    assert read == transcript
    back = gemini.from_request(through_json(gemini.to_request(read, keep_invalid_arguments=True)))
    returned = [ChatMessage.from_dict(item) for item in through_json([m.to_wire() for m in back])]
    assert returned == expected(read)
    assert part_facts(returned) == part_facts(expected(transcript))


# -- only MessageError escapes ----------------------------------------------------------------

PART_KEYS = st.sampled_from(
    [
        "text",
        "inlineData",
        "inline_data",
        "fileData",
        "file_data",
        "mimeType",
        "mime_type",
        "data",
        "fileUri",
        "file_uri",
        "displayName",
        "display_name",
        "thoughtSignature",
        "videoMetadata",
        "mediaResolution",
        "functionResponse",
        "name",
        "response",
        "parts",
    ]
)
PART_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    TEXT,
    DATA,
    st.sampled_from(
        ["image/png", "audio/wav", "audio/x-wav", "application/pdf", "image", "gs://x", "not base64"]
    ),
    st.binary(max_size=4),
)
PART_JSON = st.recursive(
    PART_VALUES,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(PART_KEYS, children, max_size=4),
    max_leaves=10,
)
ANY_PART = st.one_of(s.arbitrary_json(max_leaves=6), PART_JSON, s.hostile_values(max_leaves=4))


def read(data: Any) -> None:
    with contextlib.suppress(MessageError):
        gemini.from_request(data)
    with contextlib.suppress(MessageError):
        gemini.from_response(data)


def _model() -> dict[str, Any]:
    return {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}


@given(ANY_PART, st.sampled_from(["part", "inlineData", "fileData", "response part", "response inlineData"]))
@settings(max_examples=400)
def test_arbitrary_json_where_parts_go_raises_only_message_errors(value: Any, where: str) -> None:
    """A user part, its inlineData or fileData, a function response's part or its inlineData: anything, or MessageError."""
    if where == "part":
        part: Any = value
    elif where in ("inlineData", "fileData"):
        part = {where: value}
    else:
        media = value if where == "response part" else {"inlineData": value}
        part = {"functionResponse": {"name": "f", "response": {}, "parts": [media]}}
    read([{"role": "user", "parts": [{"text": "go"}]}, _model(), {"role": "user", "parts": [part]}])
    read({"candidates": [{"content": {"role": "model", "parts": [part]}}]})


_WITH_PARTS = [
    gemini.to_request(transcript)
    for transcript in (
        [
            ChatMessage.user(
                [
                    TextPart("a"),
                    ImagePart(
                        data="aGk=", media_type="image/png", provider_data={"gemini": {"keys": RESOLUTION}}
                    ),
                ]
            )
        ],
        [
            ChatMessage.user(
                [TextPart("Go"), FilePart(url="gs://x", media_type="application/pdf", filename="x.pdf")]
            ),
            ChatMessage.assistant_tool_calls([ToolCall("c1", "f")]),
            ChatMessage.tool_result("c1", [TextPart("x"), ImagePart(data="aGk=", media_type="image/png")]),
        ],
    )
]


@given(s.mutated(st.sampled_from(_WITH_PARTS), junk=PART_JSON))
@settings(max_examples=300)
def test_mutated_bodies_with_parts_raise_only_message_errors(data: Any) -> None:
    """Near-valid bodies with parts, a value anywhere replaced by junk: a transcript, or MessageError."""
    read(data)

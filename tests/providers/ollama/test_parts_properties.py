"""Property tests of content parts on the Ollama wire: transcripts with images round trip
exactly (and through OpenAI), the codec converts exactly what ``check_transcript`` finds clean,
and arbitrary JSON where content and images go gives nothing but MessageError."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import ollama as ollama_sdk
from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
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
    check_transcript,
    ollama,
    openai,
)

# The first bytes of each format toolturns names, with the media type they say.
_SIGNATURES = [
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"RIFF\x00\x10\x00\x00WEBP", "image/webp"),
]
_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/PNG"]
_TEXT = s.unicode_text(max_size=10)
_NONEMPTY_TEXT = s.unicode_text(min_size=1, max_size=10)


def _encoded(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


#: Images the wire carries: a known signature, then any bytes.
IMAGES = st.builds(
    lambda signature, tail: ImagePart(data=_encoded(signature[0] + tail), media_type=signature[1]),
    st.sampled_from(_SIGNATURES),
    st.binary(max_size=40),
)


@st.composite
def carried_contents(draw: st.DrawFn) -> str | tuple[ContentPart, ...]:
    """Content exactly as the Ollama wire says it: text, or 1-3 images then their text (none when empty)."""
    text = draw(_TEXT)
    if draw(st.booleans()):
        return text
    images = draw(st.lists(IMAGES, min_size=1, max_size=3))
    return (*images, TextPart(text)) if text else tuple(images)


@st.composite
def loops_with_images(draw: st.DrawFn, *, only_users: bool = False) -> list[ChatMessage]:
    """system?, then rounds of a user turn, a call turn and its results, and an assistant answer;
    user turns, and unless ``only_users`` (what OpenAI Chat carries) results and answers, may carry images."""
    elsewhere = _TEXT if only_users else carried_contents()
    messages = [ChatMessage.system(draw(_TEXT))] if draw(st.booleans()) else []
    for round_number in range(draw(st.integers(1, 2))):
        messages.append(ChatMessage.user(draw(carried_contents())))
        calls = [
            ToolCall(f"call_{round_number}_{n}", "look", {"n": n}) for n in range(draw(st.integers(1, 2)))
        ]
        messages.append(ChatMessage.assistant_tool_calls(calls, draw(_TEXT)))
        messages.extend(ChatMessage.tool_result(call.id, draw(elsewhere)) for call in calls)
        messages.append(ChatMessage.assistant(draw(elsewhere)))
    return messages


def _sent(messages: list[ChatMessage]) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(json.dumps(ollama.to_request(messages)))
    return body


def _sdk_images(message: dict[str, Any]) -> list[str]:
    """The images of a message as the ollama SDK's Message model takes and sends them."""
    images = [ollama_sdk.Image(value=data) for data in message.get("images", ())]
    dumped = ollama_sdk.Message.model_validate({**message, "images": images or None}).model_dump()
    return list(dumped["images"] or ())


# -- 1. exact round trips -----------------------------------------------------------------


@given(loops_with_images())
def test_transcripts_with_images_round_trip_exactly(messages: list[ChatMessage]) -> None:
    """from_request(to_request(T)) == T, through JSON text; every image travels as its own base64
    text, which the SDK's Message takes as it is; and such a transcript is clean for Ollama."""
    body = _sent(messages)
    assert ollama.from_request(body) == messages
    for message, wire in zip(messages, body["messages"], strict=True):
        expected = [part.data for part in message.content if isinstance(part, ImagePart)]
        assert wire.get("images", []) == expected
        assert _sdk_images(wire) == expected
    assert check_transcript(messages, target="ollama") == []


@given(loops_with_images(only_users=True))
def test_openai_to_ollama_to_openai_keeps_every_image_and_its_place(messages: list[ChatMessage]) -> None:
    """Read from the OpenAI wire, sent to Ollama and read back: every part, its bytes, media type
    and order, and the OpenAI wire it gives is the same."""
    from_openai = openai.from_request(json.loads(json.dumps(openai.to_request(messages))))
    assert from_openai == messages
    back = ollama.from_request(_sent(from_openai))
    assert back == from_openai
    assert openai.to_request(back) == openai.to_request(from_openai)


# -- 2. clean for Ollama means the codec converts -------------------------------------------


_ANY_IMAGES = st.one_of(
    IMAGES,
    st.builds(
        lambda image, media_type: ImagePart(data=image.data, media_type=media_type),
        IMAGES,
        st.sampled_from(_MEDIA_TYPES),
    ),
    st.builds(
        lambda image, detail: ImagePart(data=image.data, media_type=image.media_type, detail=detail),
        IMAGES,
        st.sampled_from(["low", "high", "auto"]),
    ),
    st.just(ImagePart(data="Qk0+AAAA", media_type="image/bmp")),
    st.just(ImagePart(url="https://example.com/cat.png")),
)
_ANY_PARTS = st.lists(
    st.one_of(
        st.builds(TextPart, _TEXT),
        _ANY_IMAGES,
        st.just(FilePart(data="JVBERi0=", media_type="application/pdf")),
        st.just(FilePart(file_id="file-1")),
        st.just(AudioPart(data="UklGRg==", format="wav")),
    ),
    min_size=1,
    max_size=4,
)


@st.composite
def turns_with_any_parts(draw: st.DrawFn) -> list[ChatMessage]:
    """One turn of any role holding any parts (a tool result after the call it answers)."""
    parts = draw(_ANY_PARTS)
    role = draw(st.sampled_from(list(Role)))
    if role is Role.TOOL:
        call = ToolCall("call_1", "look")
        return [ChatMessage.assistant_tool_calls([call]), ChatMessage.tool_result(call.id, parts)]
    return [ChatMessage(role, parts)]


@given(turns_with_any_parts())
def test_the_codec_converts_exactly_what_check_transcript_finds_clean(messages: list[ChatMessage]) -> None:
    """Each part problem is reported where the part stands, with its rule's code, and to_request
    raises exactly when check_transcript reports one; what it sends reads back with the same text
    (as JSON carries it: text parts are joined, and two halves of a surrogate pair so joined are
    one character) and the same images."""
    problems = check_transcript(messages, target="ollama")
    for problem in problems:
        assert problem.path.startswith(f"messages[{problem.index}].content[")
        assert problem.code in {
            "unsupported_part",
            "unsupported_source",
            "unsupported_field",
            "unsupported_media_type",
            "media_type_mismatch",
            "part_order",
        }
    try:
        body = _sent(messages)
    except MessageError:
        assert problems
        return
    assert problems == []
    back = ollama.from_request(body)
    for before, after in zip(messages, back, strict=True):
        assert after.text == json.loads(json.dumps(before.text))
        assert [p for p in after.content if isinstance(p, ImagePart)] == [
            p for p in before.content if isinstance(p, ImagePart)
        ]


# -- 3. only MessageError escapes ----------------------------------------------------------


def _base64_mutations(draw: st.DrawFn) -> str:
    """A valid image's base64 text with a few characters changed, cut or added."""
    data = draw(IMAGES).data
    assert data is not None
    chars = list(data)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(chars)))
        action = draw(st.sampled_from(["replace", "delete", "insert"]))
        char = draw(st.sampled_from(["=", "!", " ", "\n", "é", "A", "-", "_"]))
        if action == "insert" or at == len(chars):
            chars.insert(at, char)
        elif action == "delete":
            del chars[at]
        else:
            chars[at] = char
    return "".join(chars)


_JUNK = s.arbitrary_json(max_leaves=4)
_IMAGE_VALUES = st.one_of(IMAGES.map(lambda part: part.data), st.composite(_base64_mutations)(), _JUNK)


@given(
    st.fixed_dictionaries(
        {"role": st.sampled_from(["system", "developer", "user", "assistant"])},
        optional={
            "content": st.one_of(_TEXT, st.none(), _JUNK),
            "images": st.one_of(st.lists(_IMAGE_VALUES, max_size=3), _JUNK),
        },
    )
)
def test_any_json_as_content_or_images_gives_only_message_error(message: dict[str, Any]) -> None:
    """Whatever stands where content and images go, reading either works or raises a MessageError;
    what was read sends again, and sending that again is stable (developer goes as system)."""
    for body in ([message], {"message": {**message, "role": "assistant"}}):
        read = ollama.from_request if isinstance(body, list) else ollama.from_response
        try:
            result = read(copy.deepcopy(body))
        except MessageError:
            continue
        sent = _sent(result if isinstance(result, list) else [result])
        assert _sent(ollama.from_request(sent)) == sent

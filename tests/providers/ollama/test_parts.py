"""Content parts on the Ollama ``/api/chat`` wire: a message's ``images`` read as ``ImagePart``s
and written back, the media type read from the image's own first bytes, and each part the wire
cannot carry refused where it stands (by ``to_request`` and ``check_transcript`` alike)."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import ollama as ollama_sdk
import pytest

from tests.conftest import DATA
from toolturns import (
    AudioPart,
    ChatMessage,
    FilePart,
    ImagePart,
    InvalidMessage,
    MessageError,
    Role,
    TextPart,
    ToolCall,
    check_transcript,
    ollama,
    openai,
)
from toolturns.providers.ollama import rules

GOLDEN = json.loads((DATA / "ollama" / "images.json").read_text("utf-8"))
#: The PNG of Ollama's "Chat request (with images)" example.
PIG = GOLDEN["request"]["messages"][0]["images"][0]


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


# The first bytes of each format toolturns tells apart, and a few bytes more.
JPEG = b64(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01")
GIF87 = b64(b"GIF87a\x01\x00\x01\x00\x80\x00\x00")
GIF89 = b64(b"GIF89a\x01\x00\x01\x00\x80\x00\x00")
WEBP = b64(b"RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00")
BMP = b64(b"BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00")

IMAGE = ImagePart(data=PIG, media_type="image/png")
CALL = ToolCall("call_1", "screenshot")


def image(data: str = PIG, media_type: str = "image/png", **more: Any) -> ImagePart:
    return ImagePart(data=data, media_type=media_type, **more)


def raises(text: str) -> Any:
    """``pytest.raises`` for an InvalidMessage with this exact message."""
    return pytest.raises(InvalidMessage, match="^" + re.escape(text) + "$")


def problems(messages: list[ChatMessage]) -> list[tuple[int | None, str, str]]:
    return [(p.index, p.path, p.code) for p in check_transcript(messages, target="ollama")]


def sdk_content(wire: dict[str, Any]) -> dict[str, Any]:
    """A message's content and images as the ollama SDK's own ``Message`` model takes them (each
    image an ``Image``, as its client wraps them) and dumps them for the request."""
    images = [ollama_sdk.Image(value=data) for data in wire.get("images", ())]
    sdk = ollama_sdk.Message.model_validate({**wire, "images": images or None})
    return sdk.model_dump(include={"content", "images"}, exclude_none=True)


def content_of(wire: dict[str, Any]) -> dict[str, Any]:
    return {key: wire[key] for key in ("content", "images") if key in wire}


# -- the documented example ------------------------------------------------------------------


def test_the_documented_image_request_reads_as_an_image_then_its_text() -> None:
    """Ollama's own example: its image is an ImagePart with the media type its bytes say, before
    the text (Ollama puts a message's images before its content), and writing gives the body back."""
    messages = ollama.from_request(GOLDEN["request"])
    assert messages == [ChatMessage.user([IMAGE, TextPart("what is in this image?")])]
    assert messages[0].provider_data == {}  # the image is content now, not kept data
    written = ollama.to_request(messages)
    assert written == {"messages": GOLDEN["request"]["messages"]}
    assert [sdk_content(m) for m in written["messages"]] == [content_of(m) for m in written["messages"]]


def test_the_documented_responses_with_null_images_read_as_text() -> None:
    """``"images": null`` on a response message, whole or streamed, carries nothing."""
    turn = ollama.from_response(GOLDEN["response"])
    assert turn == ChatMessage.assistant(GOLDEN["response"]["message"]["content"])
    stream = ollama.StreamAssembler()
    stream.feed(GOLDEN["stream_item"])
    assert stream.message() == ChatMessage.assistant("The")


def test_an_image_read_from_ollama_reaches_the_openai_wire() -> None:
    """The loss the issue names is closed: Ollama's images go to another wire as images, with
    the media type their bytes say, and come back to Ollama unchanged."""
    [turn] = ollama.from_request(GOLDEN["request"])
    assert turn.to_wire()["content"] == [
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PIG}"}},
        {"type": "text", "text": "what is in this image?"},
    ]
    through_openai = openai.from_request(json.loads(json.dumps(openai.to_request([turn]))))
    assert ollama.to_request(through_openai) == {"messages": GOLDEN["request"]["messages"]}


# -- reading: media types from the image's bytes ----------------------------------------------


@pytest.mark.parametrize(
    ("data", "media_type"),
    [
        (PIG, "image/png"),
        (JPEG, "image/jpeg"),
        ("/9j/", "image/jpeg"),  # three bytes are enough to say JPEG
        (GIF87, "image/gif"),
        (GIF89, "image/gif"),
        (WEBP, "image/webp"),
    ],
)
def test_the_media_type_is_read_from_the_first_bytes(data: str, media_type: str) -> None:
    """PNG, JPEG, GIF and WebP are told apart by their signatures; the data is kept as given."""
    [message] = ollama.from_request([{"role": "user", "content": "", "images": [data]}])
    assert message.content == (ImagePart(data=data, media_type=media_type),)
    image = message.content[0]
    assert isinstance(image, ImagePart)
    assert image.data is data  # not copied


def test_only_a_short_prefix_is_decoded() -> None:
    """The media type comes from the first 16 characters: a megabyte of image is not decoded
    to find it (the rest is checked as base64 text, in slices, by ImagePart)."""
    assert rules.image_media_type(PIG[:16] + "!" * 1000) == "image/png"
    assert rules.image_media_type(PIG[:15]) is None  # not base64 on its own


@pytest.mark.parametrize(
    ("images", "error"),
    [
        (
            [BMP],
            "messages[0].images[0]: must be a PNG, JPEG, GIF or WebP image (Ollama's images carry no "
            f"media type: toolturns reads it from the image's first bytes), got {BMP!r}",
        ),
        (
            ["aGk="],
            "messages[0].images[0]: must be a PNG, JPEG, GIF or WebP image (Ollama's images carry no "
            "media type: toolturns reads it from the image's first bytes), got 'aGk='",
        ),
        (
            [PIG, "not base64"],
            "messages[0].images[1]: must be base64 text (the standard alphabet A-Z a-z 0-9 + /, padded "
            "with =, no whitespace), got 'not base64' (10 characters, not a multiple of 4)",
        ),
        (
            [PIG[:16] + "!!!!"],
            "messages[0].images[0]: must be base64 text (the standard alphabet A-Z a-z 0-9 + /, padded "
            f"with =, no whitespace), got {PIG[:16] + '!!!!'!r} ('!' at 16)",
        ),
        (
            ["ébcd"],
            "messages[0].images[0]: must be base64 text (the standard alphabet A-Z a-z 0-9 + /, padded "
            "with =, no whitespace), got 'ébcd' (not ASCII)",
        ),
        ([5], "messages[0].images[0]: must be non-empty base64 text, got 5"),
        ([""], "messages[0].images[0]: must be non-empty base64 text, got ''"),
        (
            [{"url": "https://example.com/a.png"}],
            "messages[0].images[0]: must be non-empty base64 text, got dict",
        ),
        ("iVBORw0K", "messages[0].images: must be an array of base64 images, got 'iVBORw0K'"),
        ({"0": PIG}, "messages[0].images: must be an array of base64 images, got dict"),
    ],
)
def test_images_that_cannot_be_read_are_errors_where_they_stand(images: Any, error: str) -> None:
    """An image that is not base64, or whose bytes are no format toolturns can name, is refused
    at ``messages[i].images[k]``: a part without its media type is not one."""
    with raises(error):
        ollama.from_request([{"role": "user", "content": "look", "images": images}])


@pytest.mark.parametrize("images", [None, []])
def test_no_images_is_text(images: Any) -> None:
    """``images`` missing, null or empty: the content stays a string."""
    assert ollama.from_request([{"role": "user", "content": "hi", "images": images}]) == [
        ChatMessage.user("hi")
    ]


def test_images_without_text_read_as_images_only() -> None:
    """Empty content beside images adds no empty text part, so the round trip is exact."""
    body = [{"role": "user", "content": "", "images": [PIG, JPEG]}]
    messages = ollama.from_request(body)
    assert messages == [ChatMessage.user([IMAGE, image(JPEG, "image/jpeg")])]
    assert ollama.to_request(messages)["messages"] == body
    assert ollama.from_request([{"role": "user", "images": [PIG]}]) == [ChatMessage.user([IMAGE])]


def test_images_in_tool_results_and_assistant_turns() -> None:
    """Every Ollama message carries images (api.Message.Images): a tool result's screenshot and an
    assistant turn's image read as parts and are written back where they were."""
    body = [
        {"role": "user", "content": "Take a screenshot."},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "call_1", "function": {"name": "screenshot", "arguments": {}}}],
        },
        {
            "role": "tool",
            "content": "the screen",
            "images": [PIG],
            "tool_name": "screenshot",
            "tool_call_id": "call_1",
        },
        {"role": "assistant", "content": "Here it is again.", "images": [PIG]},
    ]
    messages = ollama.from_request(body)
    assert messages[2] == ChatMessage.tool_result("call_1", [IMAGE, TextPart("the screen")])
    assert messages[3] == ChatMessage.assistant([IMAGE, TextPart("Here it is again.")])
    written = ollama.to_request(messages)["messages"]
    assert written == body
    assert [sdk_content(m) for m in written] == [content_of(m) for m in written]
    assert problems(messages) == []


def test_a_system_message_with_images_is_refused_when_read() -> None:
    """System and developer turns carry text only: Ollama's renderers build the system turn from
    its content alone, so its images would be lost. Reading says so at the image."""
    for role in ("system", "developer"):
        with raises(
            f"messages[0].images[0]: a system or developer turn carries text only ({rules.SYSTEM_IMAGE.says})"
        ):
            ollama.from_request([{"role": role, "content": "Be brief.", "images": [PIG]}])


def test_a_list_content_is_openai_s_shape_not_ollama_s() -> None:
    """OpenAI's list of parts on the Ollama wire is refused saying what it is."""
    with raises(
        "messages[0].content: must be a string: Ollama's content is text and its images go in "
        "'images'; a list of parts is OpenAI's shape (read it with toolturns.openai or "
        "ChatMessage.from_dict), got list"
    ):
        ollama.from_request([{"role": "user", "content": [{"type": "text", "text": "hi"}]}])
    with raises(
        "message.content: must be a string (Ollama's content is text and its images go in 'images'), got 5"
    ):
        ollama.from_response({"message": {"role": "assistant", "content": 5}})


def test_a_str_subclass_is_text() -> None:
    """Content of a str subclass (an enum's member, a templating library's markup) is text."""

    class Markup(str):
        pass

    [message] = ollama.from_request([{"role": "user", "content": Markup("hi"), "images": [PIG]}])
    assert message.content == (IMAGE, TextPart("hi"))


# -- writing -------------------------------------------------------------------------------


def test_images_are_written_before_the_text_and_not_copied() -> None:
    """Image parts go to ``images`` (the base64 text itself, not a copy), text parts to ``content``,
    joined as ``ChatMessage.text`` joins them."""
    turn = ChatMessage.user([IMAGE, image(GIF89, "image/gif"), TextPart("What "), TextPart("changed?")])
    [wire] = ollama.to_request([turn])["messages"]
    assert wire == {"role": "user", "content": "What changed?", "images": [PIG, GIF89]}
    assert wire["images"][0] is PIG
    assert list(wire) == ["role", "content", "images"]


def test_text_parts_only_are_written_as_text() -> None:
    """A list of text parts (OpenAI's ``[{"type": "text", ...}]``) is sent as its text; Ollama has
    no list, so it reads back as the string (the same text)."""
    turn = ChatMessage.from_dict(
        {"role": "user", "content": [{"type": "text", "text": "hi "}, {"type": "text", "text": "there"}]}
    )
    assert ollama.to_request([turn])["messages"] == [{"role": "user", "content": "hi there"}]
    assert ollama.from_request(ollama.to_request([turn])) == [ChatMessage.user("hi there")]
    assert ollama.to_request([ChatMessage.user([IMAGE, TextPart("")])])["messages"] == [
        {"role": "user", "content": "", "images": [PIG]}
    ]


CAN_NOT = [
    (
        ChatMessage.user([ImagePart(url="https://example.com/cat.png")]),
        "unsupported_source",
        "is an image by URL; Ollama takes images as base64 data only, so fetch it and send its bytes",
        "URL_IMAGE",
    ),
    (
        ChatMessage.user([image(detail="low")]),
        "unsupported_field",
        "has detail='low'; Ollama's images are their bytes alone and carry no detail",
        "IMAGE_DETAIL",
    ),
    (
        ChatMessage.user([image(PIG, "image/jpeg")]),
        "media_type_mismatch",
        "says image/jpeg, but its first bytes are image/png's; Ollama's images carry no media type, "
        "so it would read back as image/png",
        "IMAGE_MISMATCH",
    ),
    (
        ChatMessage.user([image(BMP, "image/bmp")]),
        "unsupported_media_type",
        "is image/bmp; Ollama's images carry no media type, and toolturns reads it back from the first "
        "bytes only for PNG, JPEG, GIF and WebP",
        "IMAGE_MEDIA_TYPE",
    ),
    (
        ChatMessage.user([FilePart(data="JVBERi0=", media_type="application/pdf")]),
        "unsupported_part",
        "is a file; an Ollama message carries text and images only",
        "UNSUPPORTED_PART",
    ),
    (
        ChatMessage.user([AudioPart(data="UklGRg==", format="wav")]),
        "unsupported_part",
        "is audio; an Ollama message carries text and images only",
        "UNSUPPORTED_PART",
    ),
    (
        ChatMessage.system([IMAGE]),
        "unsupported_part",
        "a system or developer turn carries text only",
        "SYSTEM_IMAGE",
    ),
    (
        ChatMessage.developer([IMAGE]),
        "unsupported_part",
        "a system or developer turn carries text only",
        "SYSTEM_IMAGE",
    ),
]


@pytest.mark.parametrize(("turn", "code", "why", "rule_name"), CAN_NOT)
def test_parts_the_wire_cannot_carry_are_refused_and_reported_where_they_stand(
    turn: ChatMessage, code: str, why: str, rule_name: str
) -> None:
    """The codec refuses the part, drop_unsupported or not (a part is never dropped), in the rule's
    words; check_transcript reports it at the same place with the rule's code."""
    rule = getattr(rules, rule_name)
    messages = [ChatMessage.user("hi"), turn]
    position = len(turn.content) - 1
    assert rule.code == code
    for drop in (False, True):
        with raises(f"messages[1].content[{position}]: {why} ({rule.says})"):
            ollama.to_request(messages, drop_unsupported=drop)
    assert problems(messages) == [(1, f"messages[1].content[{position}]", code)]


@pytest.mark.parametrize(
    "content",
    [
        [TextPart("Look: "), IMAGE],
        [IMAGE, TextPart("and"), image(JPEG, "image/jpeg")],
    ],
)
def test_text_before_an_image_is_refused(content: list[Any]) -> None:
    """Ollama puts a message's images before its text: an image after text cannot keep its place
    (the rule is the same for the codec and check_transcript, which reports the image)."""
    messages = [ChatMessage.user(content)]
    position = len(content) - 1
    with raises(
        f"messages[0].content[{position}]: is an image after text; Ollama puts a message's images "
        f"before its text, so it cannot keep its place: put the images first ({rules.PART_ORDER.says})"
    ):
        ollama.to_request(messages)
    assert problems(messages) == [(0, f"messages[0].content[{position}]", "part_order")]


def test_empty_text_before_an_image_keeps_the_order() -> None:
    """Empty text says nothing, so it has no place to keep: the image may follow it."""
    messages = [ChatMessage.user([TextPart(""), IMAGE])]
    assert problems(messages) == []
    assert ollama.to_request(messages)["messages"] == [{"role": "user", "content": "", "images": [PIG]}]


def test_part_provider_data_for_ollama_is_refused_and_others_are_not_sent() -> None:
    """The Ollama codec keeps nothing on a part: an 'ollama' entry there is a mistake; another
    provider's (Anthropic's cache_control) is not sent, as on messages."""
    kept = TextPart("hi", provider_data={"ollama": {"keys": {"x": 1}}})
    with raises(
        "messages[0].content[1].provider_data.ollama.keys: is not data the Ollama codec writes "
        "(it writes none here), got dict"
    ):
        ollama.to_request([ChatMessage.user([IMAGE, kept])])
    assert problems([ChatMessage.user([IMAGE, kept])]) == [
        (0, "messages[0].content[1].provider_data.ollama.keys", "not_convertible")
    ]
    cached = TextPart("hi", provider_data={"anthropic": {"keys": {"cache_control": {"type": "ephemeral"}}}})
    assert ollama.to_request([ChatMessage.user([IMAGE, cached])])["messages"] == [
        {"role": "user", "content": "hi", "images": [PIG]}
    ]


def test_images_kept_in_provider_data_by_earlier_versions_are_refused() -> None:
    """``images`` is a key the codec writes itself now: kept there (as toolturns did before), it
    is refused instead of overwriting the parts."""
    old = ChatMessage("user", "look", provider_data={"ollama": {"keys": {"images": [PIG]}}})
    with raises(
        "messages[0].provider_data.ollama.keys.images: is a key the Ollama codec writes itself, "
        "not a kept key, got list"
    ):
        ollama.to_request([old])


def test_the_parts_table() -> None:
    """Which parts each role may carry on Ollama, before the per-part checks."""
    assert dict(rules.PARTS) == {
        Role.SYSTEM: frozenset({TextPart}),
        Role.DEVELOPER: frozenset({TextPart}),
        Role.USER: frozenset({TextPart, ImagePart}),
        Role.ASSISTANT: frozenset({TextPart, ImagePart}),
        Role.TOOL: frozenset({TextPart, ImagePart}),
    }
    for role, kinds in rules.PARTS.items():
        for part in (
            TextPart("x"),
            IMAGE,
            FilePart(file_id="file-1"),
            AudioPart(data="UklGRg==", format="wav"),
        ):
            assert (rules.check_part(role, part) is None) == (type(part) in kinds)


# -- streams ---------------------------------------------------------------------------------


def test_a_streamed_image_is_checked_on_the_item_that_brings_it() -> None:
    """Images on a streamed message are read as from_response reads them, and a broken one is
    reported on its item."""
    item = {"message": {"role": "assistant", "content": "", "images": [PIG]}, "done": True}
    stream = ollama.StreamAssembler()
    stream.feed(item)
    assert stream.message() == ollama.from_response(item) == ChatMessage.assistant([IMAGE])
    broken = ollama.StreamAssembler()
    with pytest.raises(MessageError, match=r"^item\[0\]\.message\.images\[0\]: must be a PNG, JPEG"):
        broken.feed({"message": {"role": "assistant", "content": "", "images": [BMP]}})

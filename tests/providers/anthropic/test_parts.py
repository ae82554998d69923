"""Anthropic's content parts: text, image and document blocks in user turns and tool results, both ways.

The goldens are the examples of Anthropic's docs (``tests/data/anthropic/content_parts.json``
says where each comes from). Every body toolturns writes is validated against the
anthropic SDK's own ``MessageParam`` (extra keys forbidden), and the properties hold
the round trips exact both ways, OpenAI -> Anthropic -> OpenAI keeping every part.
"""

from __future__ import annotations

import base64
import contextlib
import json
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pydantic
import pytest
from anthropic import types as anthropic_types
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DATA
from tests.property import strategies as s
from toolturns import (
    AudioPart,
    ChatMessage,
    ContentPart,
    FilePart,
    ImagePart,
    InvalidMessage,
    MessageError,
    Role,
    TextPart,
    ToolCall,
    anthropic,
    check_transcript,
)
from toolturns._content import image_media_type
from toolturns.providers._rule import Rule
from toolturns.providers.anthropic import rules

GOLDENS: list[dict[str, Any]] = json.loads((DATA / "anthropic" / "content_parts.json").read_text("utf-8"))
_BY_ID: dict[str, dict[str, Any]] = {golden["id"]: golden["body"] for golden in GOLDENS}
#: The search_result block of the docs' example.
_SEARCH: dict[str, Any] = _BY_ID["search-result-blocks"]["messages"][0]["content"][0]

# The SDK's request types, strict: a key Anthropic does not define is an error
# (Anthropic answers "Extra inputs are not permitted").
_MESSAGE = pydantic.TypeAdapter(anthropic_types.MessageParam, config=pydantic.ConfigDict(extra="forbid"))
_SYSTEM = pydantic.TypeAdapter(
    list[anthropic_types.TextBlockParam], config=pydantic.ConfigDict(extra="forbid")
)

PNG = "iVBORw0KGgo="  # the 8 bytes of PNG's signature
JPEG = "/9j/4AAQSkZJRgABAQAAAQABAAD/2Q=="  # a JFIF header
PDF = "JVBERi0xLjQK"  # "%PDF-1.4\n"
CACHE = {"anthropic": {"keys": {"cache_control": {"type": "ephemeral"}}}}


def sdk_valid(body: dict[str, Any]) -> None:
    """Every message (and system block) of ``body`` is what the SDK's own request types allow.

    The SDK's ``Iterable`` fields validate lazily: walking the result runs them.
    """
    for message in body["messages"]:
        _walk(_MESSAGE.validate_python(message))
    _walk(_SYSTEM.validate_python(body.get("system", [])))


def _walk(value: Any) -> None:
    if isinstance(value, dict):
        for item in value.values():
            _walk(item)
    elif isinstance(value, (list, tuple, Iterator)):
        for item in value:
            _walk(item)


def parts_of(message: ChatMessage) -> tuple[ContentPart, ...]:
    """A message's content, which the test knows to be parts."""
    assert isinstance(message.content, tuple)
    return message.content


def through_json(body: Any) -> Any:
    return json.loads(json.dumps(body))


def user_turn(*content: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": list(content)}]}


# -- the docs' examples --------------------------------------------------------------------


@pytest.mark.parametrize("golden", GOLDENS, ids=[golden["id"] for golden in GOLDENS])
def test_each_docs_example_reads_and_is_written_back_exactly(golden: dict[str, Any]) -> None:
    """Every example of Anthropic's docs reads, and to_request gives the body back; the SDK's types accept it."""
    messages = anthropic.from_request(golden["body"])
    written = anthropic.to_request(messages)
    assert written == golden["body"]
    sdk_valid(written)
    assert anthropic.from_request(through_json(written)) == messages


def test_the_docs_examples_read_as_these_parts() -> None:
    """What each kind of block becomes: an image's data and URL, a PDF, a plain-text document's
    text as base64 of its UTF-8, a Files API document, a result's image."""
    base64_image, url_image, files_image, _, pdf_url, pdf, pdf_file, cached, cited, *_ = GOLDENS
    assert anthropic.from_request(base64_image["body"]) == [
        ChatMessage.user([ImagePart(data=JPEG, media_type="image/jpeg"), TextPart("Describe this image.")])
    ]
    (url_turn,) = anthropic.from_request(url_image["body"])
    assert url_turn.content[0] == ImagePart(
        url=url_image["body"]["messages"][0]["content"][0]["source"]["url"]
    )
    (files_turn,) = anthropic.from_request(files_image["body"])
    assert files_turn.content == (TextPart("Describe this image."),)  # the Files API image is kept whole
    assert files_turn.provider_data["anthropic"]["items"] == [
        [0, files_image["body"]["messages"][0]["content"][0]]
    ]
    (pdf_url_turn,) = anthropic.from_request(pdf_url["body"])
    assert pdf_url_turn.content[0] == FilePart(
        url=pdf_url["body"]["messages"][0]["content"][0]["source"]["url"]
    )
    (pdf_turn,) = anthropic.from_request(pdf["body"])
    assert pdf_turn.content[0] == FilePart(
        data=pdf["body"]["messages"][0]["content"][0]["source"]["data"], media_type="application/pdf"
    )
    (file_turn,) = anthropic.from_request(pdf_file["body"])
    assert file_turn.content[0] == FilePart(file_id="file_011CNha8iCJcU1wXNR6q4V8w")
    (cached_turn,) = anthropic.from_request(cached["body"])
    assert parts_of(cached_turn)[0].provider_data == CACHE
    (cited_turn,) = anthropic.from_request(cited["body"])
    assert cited_turn.content[0] == FilePart(
        data=base64.b64encode(b"The grass is green. The sky is blue.").decode(),
        media_type="text/plain",
        filename="My Document",
        provider_data={
            "anthropic": {
                "keys": {"context": "This is a trustworthy document.", "citations": {"enabled": True}}
            }
        },
    )
    _, _, result = anthropic.from_request(_BY_ID["tool-result-with-images"])
    assert result == ChatMessage.tool_result(
        "toolu_01A09q90qw90lq917835lq9",
        [TextPart("15 degrees"), ImagePart(data=JPEG, media_type="image/jpeg")],
    )
    _, _, empty = anthropic.from_request(_BY_ID["tool-result-empty"])
    assert empty.content == ""


def test_a_search_result_is_kept_in_place_and_goes_back_only_to_anthropic() -> None:
    """A search_result block is no part: the user message keeps it where it was, and no other wire sends it."""
    (turn,) = anthropic.from_request(_BY_ID["search-result-blocks"])
    assert turn.text == "Based on these search results, how do I configure the timeout settings?"
    assert [position for position, _ in turn.provider_data["anthropic"]["items"]] == [0]
    assert "search_result" not in json.dumps(turn.to_wire())


# -- reading: the shapes -------------------------------------------------------------------


def test_a_string_reads_as_a_string_and_blocks_as_parts() -> None:
    """The content's form is kept: a string is a string, one text block is a tuple of one part."""
    body = {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "yes?"},
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        ]
    }
    first, _, third = anthropic.from_request(body)
    assert first.content == "hi"
    assert third.content == (TextPart("hi"),)
    assert anthropic.to_request([first, _, third]) == body


def test_cache_control_on_a_user_text_block_is_kept_and_replayed() -> None:
    """Today's loss fixed: a user text block's cache_control reads onto its part and is written back."""
    block = {"type": "text", "text": "Long context.", "cache_control": {"type": "ephemeral", "ttl": "1h"}}
    (turn,) = anthropic.from_request(user_turn(block))
    assert turn.content == (
        TextPart(
            "Long context.", provider_data={"anthropic": {"keys": {"cache_control": block["cache_control"]}}}
        ),
    )
    assert anthropic.to_request([turn]) == user_turn(block)


def test_source_keys_toolturns_does_not_model_are_kept_on_the_source() -> None:
    """A source's other key (a newer field) is kept in nested["source"] and written back on the source."""
    block = {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png", "detail_hint": 1}}
    (turn,) = anthropic.from_request(user_turn(block))
    assert parts_of(turn)[0].provider_data == {"anthropic": {"nested": {"source": {"detail_hint": 1}}}}
    assert anthropic.to_request([turn]) == user_turn(block)


def test_blocks_that_are_no_parts_are_kept_where_they_were() -> None:
    """An image from the Files API, a document of content blocks and a newer block type are kept whole, in place."""
    files_image = {"type": "image", "source": {"type": "file", "file_id": "file_1"}}
    content_document = {"type": "document", "source": {"type": "content", "content": "Some text."}}
    newer = {"type": "browser_state", "url": "https://x.test"}
    body = user_turn(
        {"type": "text", "text": "a"}, files_image, content_document, {"type": "text", "text": "b"}, newer
    )
    (turn,) = anthropic.from_request(body)
    assert turn.content == (TextPart("a"), TextPart("b"))
    assert turn.provider_data["anthropic"]["items"] == [[1, files_image], [2, content_document], [4, newer]]
    assert anthropic.to_request([turn]) == body


def test_a_turn_of_kept_blocks_only_has_no_text_and_is_written_as_its_blocks() -> None:
    """Only blocks toolturns keeps: the message's content is "" and to_request writes the blocks back."""
    search = _SEARCH
    (turn,) = anthropic.from_request(user_turn(search))
    assert turn.content == ""
    assert anthropic.to_request([turn]) == user_turn(search)
    assert check_transcript([turn], target="anthropic") == []


def test_a_plain_text_document_is_held_as_base64_of_its_utf8_and_written_back_as_text() -> None:
    """The text source's text, any script, is the part's data as base64 of UTF-8, and the same text on the way back."""
    text = "Grüße, 世界 \U0001f600\n"
    block = {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": text}}
    (turn,) = anthropic.from_request(user_turn(block))
    (part,) = parts_of(turn)
    assert isinstance(part, FilePart)
    assert base64.b64decode(part.data or "").decode("utf-8") == text
    assert anthropic.to_request([turn]) == user_turn(block)


@pytest.mark.parametrize(
    ("block", "error"),
    [
        (
            {"type": "image"},
            "messages[0].content[0].source: must be an object (the block's source), got None",
        ),
        (
            {"type": "image", "source": {"type": "url"}},
            "messages[0].content[0].source.url: is required in a url source",
        ),
        (
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "not base64"}},
            "messages[0].content[0].source.data: must be base64 text (the standard alphabet A-Z a-z 0-9 + /, "
            "padded with =, no whitespace), got 'not base64' (10 characters, not a multiple of 4)",
        ),
        (
            {"type": "image", "source": {"type": "base64", "media_type": "application/pdf", "data": PNG}},
            "messages[0].content[0].source.media_type: must be an image/* media type for this part, "
            "got 'application/pdf'",
        ),
        (
            {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png", "data": PNG}},
            "messages[0].content[0].source.data: is not a key of a url source, got 'iVBORw0KGgo='",
        ),
        (
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": ""}},
            "messages[0].content[0].source.data: must be a non-empty string (the document's text), got ''",
        ),
        (
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "a\ud800"}},
            "messages[0].content[0].source.data: must be text UTF-8 can encode (no lone surrogate), "
            "got 'a\\ud800' (surrogates not allowed)",
        ),
        (
            {"type": "document", "source": {"type": "url", "url": "https://x.test/a.pdf"}, "title": ""},
            "messages[0].content[0].title: must be a non-empty string or null, got ''",
        ),
        (
            {"type": "document", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            "messages[0].content[0].source.media_type: must not be an image's: an image is an ImagePart, "
            "got 'image/png'",
        ),
        (
            {"type": "text", "text": "x", "cache_control": float("nan")},
            "messages[0].content[0].cache_control: must be a finite number, got nan",
        ),
        (
            {"type": "tool_use", "id": "t", "name": "f", "input": {}},
            "messages[0].content[0].type: must not be 'tool_use' in a user turn (calls go in an assistant turn), "
            "got 'tool_use'",
        ),
    ],
)
def test_malformed_part_blocks_are_refused_at_their_native_path(block: dict[str, Any], error: str) -> None:
    """A block that would read as something it is not raises InvalidMessage naming where in the body."""
    with pytest.raises(InvalidMessage) as caught:
        anthropic.from_request(user_turn(block))
    assert str(caught.value) == error


def test_a_tool_results_blocks_are_read_with_their_native_path() -> None:
    """A malformed block inside a tool result is named inside it."""
    body = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "image"}]}],
        },
    ]
    with pytest.raises(InvalidMessage) as caught:
        anthropic.from_request(body)
    assert caught.value.path == "messages[1].content[0].content[0].source"


# -- the blocks after tool results ---------------------------------------------------------


def _after_results(*blocks: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}, *blocks],
        },
    ]


def test_one_text_block_after_results_is_the_string_a_user_message_is_written_as() -> None:
    """to_request writes a user message's string after the results as one text block, which reads back
    as that string; any other blocks there read as parts."""
    messages = anthropic.from_request(_after_results({"type": "text", "text": "Thanks."}))
    assert messages[-1] == ChatMessage.user("Thanks.")
    assert anthropic.to_request(messages)["messages"] == _after_results({"type": "text", "text": "Thanks."})
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    messages = anthropic.from_request(_after_results({"type": "text", "text": "And this?"}, image))
    assert messages[-1] == ChatMessage.user(
        [TextPart("And this?"), ImagePart(data=PNG, media_type="image/png")]
    )
    assert anthropic.to_request(messages)["messages"] == _after_results(
        {"type": "text", "text": "And this?"}, image
    )


def test_a_lone_plain_text_part_after_results_is_the_one_form_that_reads_back_otherwise() -> None:
    """The documented inexact case: ChatMessage.user([TextPart(t)]) right after results reads back as "t"."""
    history = [
        ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "f")]),
        ChatMessage.tool_result("toolu_1", "ok"),
        ChatMessage.user([TextPart("Thanks.")]),
    ]
    body = anthropic.to_request(history)
    assert body["messages"] == _after_results({"type": "text", "text": "Thanks."})
    assert anthropic.from_request(body)[-1] == ChatMessage.user("Thanks.")
    # With anything else on it (a kept key), the part stays a part.
    history[-1] = ChatMessage.user([TextPart("Thanks.", provider_data=CACHE)])
    assert anthropic.from_request(anthropic.to_request(history))[-1] == history[-1]


def test_kept_blocks_after_results_join_the_results_turn() -> None:
    """A user message of kept blocks only (content "") right after results is written in that turn, in place."""
    search = _SEARCH
    body = _after_results(search)
    messages = anthropic.from_request(body)
    assert messages[-1].content == ""
    assert anthropic.to_request(messages)["messages"] == body


# -- writing -------------------------------------------------------------------------------


def test_an_image_in_a_tool_result_is_an_image_block_inside_it() -> None:
    """A screenshot answer: the result's content is its blocks, image included, as Anthropic's docs show."""
    history = [
        ChatMessage.user("What is on the screen?"),
        ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "screenshot")]),
        ChatMessage.tool_result(
            "toolu_1", [TextPart("Here it is."), ImagePart(data=PNG, media_type="image/png")]
        ),
    ]
    body = anthropic.to_request(history)
    assert body["messages"][2] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "toolu_1",
                "content": [
                    {"type": "text", "text": "Here it is."},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
                ],
            }
        ],
    }
    sdk_valid(body)
    assert anthropic.from_request(body) == history


def test_the_base64_text_is_not_copied_on_the_way_in_or_out() -> None:
    """A large image's data is the same string object in the native body, the part, and the body written."""
    data = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(300_000)).decode()
    body = user_turn({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}})
    (turn,) = anthropic.from_request(body)
    (image,) = parts_of(turn)
    assert isinstance(image, ImagePart)
    assert image.data is data
    assert anthropic.to_request([turn])["messages"][0]["content"][0]["source"]["data"] is data


def test_a_text_user_message_takes_the_fast_path_unchanged() -> None:
    """Text-only turns are written as before: the content string itself, also beside another provider's data."""
    turn = ChatMessage.user("hi")
    assert anthropic.to_request([turn])["messages"][0]["content"] is turn.content
    other = ChatMessage("user", "hi", provider_data={"gemini": {"keys": {"x": 1}}})
    assert anthropic.to_request([other])["messages"] == [{"role": "user", "content": "hi"}]


def test_system_parts_are_text_blocks_each_with_its_keys() -> None:
    """A system message of text parts is one system block per part, each with its own kept keys."""
    system = ChatMessage.system([TextPart("Long instructions.", provider_data=CACHE), TextPart("Be brief.")])
    body = anthropic.to_request([system, ChatMessage.user("hi")])
    assert body["system"] == [
        {"type": "text", "text": "Long instructions.", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "Be brief."},
    ]
    sdk_valid(body)
    # Read back, each block is a system message of its own: the system prompt reads as text.
    assert anthropic.from_request(body)[:2] == [
        ChatMessage("system", "Long instructions.", provider_data=CACHE),
        ChatMessage.system("Be brief."),
    ]


def test_a_system_message_of_parts_keeps_no_block_keys_of_its_own() -> None:
    """The keys of one system block cannot go on several: such provider_data is refused, where it is."""
    system = ChatMessage("system", [TextPart("a")], provider_data=CACHE)
    with pytest.raises(InvalidMessage) as caught:
        anthropic.to_request([system, ChatMessage.user("hi")])
    assert caught.value.path == "messages[0].provider_data.anthropic.keys"


def test_assistant_text_parts_are_text_blocks_and_read_back_as_the_turns_text() -> None:
    """An assistant turn of text parts is one text block each (kept keys on them), before its calls;
    it reads back as the one text an assistant turn holds, joined."""
    turn = ChatMessage.assistant_tool_calls(
        [ToolCall("toolu_1", "f")], [TextPart("Let me ", provider_data=CACHE), TextPart("check.")]
    )
    body = anthropic.to_request([ChatMessage.user("hi"), turn])
    assert body["messages"][1]["content"] == [
        {"type": "text", "text": "Let me ", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "check."},
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
    ]
    sdk_valid(body)
    assert anthropic.from_request(body)[1] == ChatMessage.assistant_tool_calls(
        [ToolCall("toolu_1", "f")], "Let me check."
    )
    # Parts with no Anthropic keys are the text they read back as: the body reads back to itself.
    answer = ChatMessage.assistant([TextPart("Do"), TextPart("ne.", provider_data={"responses": {}})])
    body = anthropic.to_request([ChatMessage.user("hi"), answer])
    assert body["messages"][1] == {"role": "assistant", "content": "Done."}
    assert anthropic.to_request(anthropic.from_request(body)) == body
    calls = ChatMessage.assistant_tool_calls(
        [ToolCall("toolu_1", "f")], [TextPart("Let me "), TextPart("see.")]
    )
    assert anthropic.to_request([ChatMessage.user("hi"), calls])["messages"][1]["content"][0] == {
        "type": "text",
        "text": "Let me see.",
    }


def test_a_part_keeps_its_keys_and_another_providers_data_stays_home() -> None:
    """A part's Anthropic keys go on its block; a part's data for another provider is never sent."""
    part = ImagePart(
        data=PNG,
        media_type="image/png",
        provider_data={
            "anthropic": {"keys": {"cache_control": {"type": "ephemeral"}}},
            "gemini": {"keys": {"x": 1}},
        },
    )
    (block,) = anthropic.to_request([ChatMessage.user([part])])["messages"][0]["content"]
    assert block == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": PNG},
        "cache_control": {"type": "ephemeral"},
    }


@pytest.mark.parametrize(
    ("part", "path"),
    [
        (TextPart("a", provider_data={"anthropic": {"keys": {"text": "b"}}}), "keys.text"),
        (
            ImagePart(url="https://x.test/a.png", provider_data={"anthropic": {"keys": {"source": {}}}}),
            "keys.source",
        ),
        (
            FilePart(
                url="https://x.test/a.pdf", provider_data={"anthropic": {"nested": {"source": {"url": "y"}}}}
            ),
            "nested.source.url",
        ),
        (FilePart(url="https://x.test/a.pdf", provider_data={"anthropic": {"items": []}}), "items"),
    ],
)
def test_a_parts_provider_data_that_reading_never_writes_is_refused_where_it_is(
    part: ContentPart, path: str
) -> None:
    """A kept key the codec writes itself, or an entry reading never makes, is an error at the part."""
    with pytest.raises(InvalidMessage) as caught:
        anthropic.to_request([ChatMessage.user([part])])
    assert caught.value.path == f"messages[0].content[0].provider_data.anthropic.{path}"


def test_a_user_message_that_keeps_blocks_is_written_with_them_around_its_text() -> None:
    """A user message holding kept blocks and a string: the string is one text block among them."""
    search = _SEARCH
    turn = ChatMessage("user", "Question?", provider_data={"anthropic": {"items": [[0, search]]}})
    assert anthropic.to_request([turn])["messages"][0]["content"] == [
        search,
        {"type": "text", "text": "Question?"},
    ]
    result = ChatMessage(
        Role.TOOL, "", tool_call_id="toolu_1", provider_data={"anthropic": {"items": [[0, search]]}}
    )
    history = [ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "f")]), result]
    (block,) = anthropic.to_request(history)["messages"][1]["content"]
    assert block == {"type": "tool_result", "tool_use_id": "toolu_1", "content": [search]}
    assert anthropic.from_request(anthropic.to_request(history)) == history


# -- the rules: check_part, check_transcript, and the codec agreeing -----------------------


def _parts_problems(part: ContentPart, role: Role = Role.USER) -> list[tuple[int | None, str, str]]:
    history = _in_role(part, role)
    return [(p.index, p.path, p.code) for p in check_transcript(history, target="anthropic")]


def _in_role(part: ContentPart, role: Role) -> list[ChatMessage]:
    if role is Role.TOOL:
        return [
            ChatMessage.user("Look."),
            ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "f")]),
            ChatMessage.tool_result("toolu_1", [TextPart("Seen."), part]),
        ]
    if role is Role.ASSISTANT:
        return [
            ChatMessage.user("Look."),
            ChatMessage(role, [TextPart("Seen."), part]),
            ChatMessage.user("ok"),
        ]
    if role in (Role.SYSTEM, Role.DEVELOPER):
        return [ChatMessage(role, [TextPart("Seen."), part]), ChatMessage.user("Look.")]
    return [ChatMessage.user("Look."), ChatMessage.user([TextPart("Seen."), part])]


_INDEX = {Role.USER: 1, Role.TOOL: 2, Role.ASSISTANT: 1, Role.SYSTEM: 0, Role.DEVELOPER: 0}
_GIF = "R0lGODlhAQABAAAAACw="
_WEBP = base64.b64encode(b"RIFF\x00\x00\x00\x00WEBPVP8 ").decode()

REFUSED = [
    (AudioPart(data="UklGRg==", format="wav"), Role.USER, "unsupported_part", rules.NO_AUDIO),
    (AudioPart(data="UklGRg==", format="wav"), Role.TOOL, "unsupported_part", rules.NO_AUDIO),
    (ImagePart(data=PNG, media_type="image/png"), Role.SYSTEM, "unsupported_part", rules.SYSTEM_TEXT_ONLY),
    (FilePart(file_id="file_1"), Role.DEVELOPER, "unsupported_part", rules.SYSTEM_TEXT_ONLY),
    (ImagePart(url="https://x.test/a.png"), Role.ASSISTANT, "unsupported_part", rules.ASSISTANT_TEXT_ONLY),
    (
        ImagePart(data=PNG, media_type="image/heic"),
        Role.USER,
        "unsupported_media_type",
        rules.UNSUPPORTED_IMAGE_TYPE,
    ),
    (
        ImagePart(data=JPEG, media_type="image/jpg"),
        Role.TOOL,
        "unsupported_media_type",
        rules.UNSUPPORTED_IMAGE_TYPE,
    ),
    (ImagePart(data=JPEG, media_type="image/png"), Role.USER, "media_type_mismatch", rules.IMAGE_MISMATCH),
    (ImagePart(data=PNG, media_type="image/webp"), Role.TOOL, "media_type_mismatch", rules.IMAGE_MISMATCH),
    (
        ImagePart(data="AAAAAAAA", media_type="image/gif"),
        Role.USER,
        "media_type_mismatch",
        rules.IMAGE_MISMATCH,
    ),
    (
        ImagePart(data=PNG, media_type="image/png", detail="high"),
        Role.USER,
        "unsupported_field",
        rules.UNSUPPORTED_FIELD,
    ),
    (
        ImagePart(url="https://x.test/a", media_type="image/png"),
        Role.USER,
        "unsupported_field",
        rules.UNSUPPORTED_FIELD,
    ),
    (
        FilePart(data=PDF, media_type="text/csv"),
        Role.USER,
        "unsupported_media_type",
        rules.UNSUPPORTED_DOCUMENT_TYPE,
    ),
    (FilePart(data="/w==", media_type="text/plain"), Role.TOOL, "unsupported_media_type", rules.NOT_TEXT),
    (
        FilePart(url="https://x.test/a.pdf", media_type="application/pdf"),
        Role.USER,
        "unsupported_field",
        rules.UNSUPPORTED_FIELD,
    ),
    (
        FilePart(file_id="file_1", media_type="application/pdf"),
        Role.TOOL,
        "unsupported_field",
        rules.UNSUPPORTED_FIELD,
    ),
]


@pytest.mark.parametrize(("part", "role", "code", "rule"), REFUSED)
def test_each_part_rule_is_reported_where_the_part_stands_and_refused_by_the_codec(
    part: ContentPart, role: Role, code: str, rule: Rule
) -> None:
    """check_transcript reports the rule's code at messages[i].content[1]; to_request refuses the same part
    there, in the rule's words; the rule carries Anthropic's words and a link."""
    index = _INDEX[role]
    assert _parts_problems(part, role) == [(index, f"messages[{index}].content[1]", code)]
    refused = rules.check_part(role, part)
    assert refused is not None
    assert refused[0] is rule
    assert rule.says
    assert rule.link.startswith("https://")
    with pytest.raises(InvalidMessage) as caught:
        anthropic.to_request(_in_role(part, role))
    assert caught.value.path == f"messages[{index}].content[1]"
    assert rule.says in str(caught.value)


CARRIED = [
    (ImagePart(data=PNG, media_type="image/png"), Role.USER),
    (ImagePart(data=JPEG, media_type="image/jpeg"), Role.TOOL),
    (ImagePart(data=_GIF, media_type="image/gif"), Role.USER),
    (ImagePart(data=_WEBP, media_type="image/webp"), Role.TOOL),
    (ImagePart(url="https://x.test/a.png"), Role.USER),
    (FilePart(data=PDF, media_type="application/pdf", filename="a.pdf"), Role.USER),
    (FilePart(data=base64.b64encode("é".encode()).decode(), media_type="text/plain"), Role.TOOL),
    (FilePart(url="https://x.test/a.pdf"), Role.TOOL),
    (FilePart(file_id="file_1"), Role.USER),
    (TextPart("More."), Role.SYSTEM),
    (TextPart("More."), Role.ASSISTANT),
]


@pytest.mark.parametrize(("part", "role"), CARRIED)
def test_what_the_rules_accept_the_codec_sends_and_the_sdk_accepts(part: ContentPart, role: Role) -> None:
    """Clean for Anthropic means the codec converts: each carried part gives no problem and a valid body."""
    assert _parts_problems(part, role) == []
    body = anthropic.to_request(_in_role(part, role))
    sdk_valid(body)


def test_the_parts_table_says_what_each_role_carries() -> None:
    """PARTS is the table check_part starts from: text everywhere, images and files in user turns and results."""
    assert rules.PARTS[Role.USER] == rules.PARTS[Role.TOOL] == {TextPart, ImagePart, FilePart}
    assert (
        rules.PARTS[Role.SYSTEM] == rules.PARTS[Role.DEVELOPER] == rules.PARTS[Role.ASSISTANT] == {TextPart}
    )
    assert all(AudioPart not in carried for carried in rules.PARTS.values())


@pytest.mark.parametrize(
    ("messages", "problems"),
    [
        (
            [ChatMessage.user([TextPart(" "), ImagePart(data=PNG, media_type="image/png")])],
            [(0, "messages[0].content[0]", "empty_text")],
        ),
        (
            [
                ChatMessage.user("Look."),
                ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "f")]),
                ChatMessage.tool_result(
                    "toolu_1", [TextPart(""), ImagePart(data=PNG, media_type="image/png")]
                ),
            ],
            [(2, "messages[2].content[0]", "empty_text")],
        ),
        (
            [ChatMessage.user("Hi"), ChatMessage.assistant([TextPart("Sure, "), TextPart("here: ")])],
            [(1, "messages[1].content[1]", "trailing_whitespace")],
        ),
        (
            [ChatMessage.system([TextPart("")]), ChatMessage.user("Hi")],
            [(0, "messages[0].content[0]", "empty_text")],
        ),
        ([ChatMessage.user("Hi"), ChatMessage.assistant([TextPart("Sure.")])], []),
        ([ChatMessage.user([ImagePart(data=PNG, media_type="image/png")])], []),
        (
            [
                ChatMessage.user("Hi"),
                ChatMessage.assistant([TextPart("a "), ImagePart(url="https://x.test")]),
            ],
            None,
        ),
    ],
)
def test_text_parts_are_text_blocks_for_the_text_rules(
    messages: list[ChatMessage], problems: list[tuple[int, str, str]] | None
) -> None:
    """Each text part is a block: a blank one is empty_text where it stands, a prefill's last one may not
    end in whitespace; a turn of images only needs no text."""
    found = [(p.index, p.path, p.code) for p in check_transcript(messages, target="anthropic")]
    if problems is None:  # the image is the problem; the trailing text is not the last block
        assert found == [(1, "messages[1].content[1]", "unsupported_part")]
    else:
        assert found == problems


def test_image_format_reads_only_the_first_bytes() -> None:
    """Checking a 4 MB image's media type decodes 16 characters, not the data: it allocates next to nothing."""
    part = ImagePart(
        data=base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(3_000_000)).decode(), media_type="image/png"
    )
    tracemalloc.start()
    try:
        assert rules.check_part(Role.USER, part) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10_000
    assert [image_media_type(data) for data in (PNG, JPEG, _GIF, _WEBP, PDF)] == [
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        None,
    ]


# -- properties: round trips both ways -----------------------------------------------------

_SIGNATURES = {
    "image/png": b"\x89PNG\r\n\x1a\n",
    "image/jpeg": b"\xff\xd8\xff",
    "image/gif": b"GIF89a",
    "image/webp": b"RIFF\x00\x00\x00\x00WEBP",
}
_URLS = st.builds("https://x.test/{}".format, st.text("abcdefgh0123456789./", min_size=1, max_size=12))
_KEPT = st.sampled_from([None, CACHE])
_DOCUMENT_KEPT = st.sampled_from(
    [None, CACHE, {"anthropic": {"keys": {"context": "From the handbook.", "citations": {"enabled": True}}}}]
)
_TITLES = st.none() | s.unicode_text(min_size=1, max_size=8)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@st.composite
def images(draw: st.DrawFn) -> ImagePart:
    provider_data = draw(_KEPT)
    if draw(st.booleans()):
        return ImagePart(url=draw(_URLS), provider_data=provider_data)
    media_type = draw(st.sampled_from(sorted(_SIGNATURES)))
    data = _b64(_SIGNATURES[media_type] + draw(st.binary(max_size=24)))
    return ImagePart(data=data, media_type=media_type, provider_data=provider_data)


@st.composite
def files(draw: st.DrawFn) -> FilePart:
    """A document Anthropic carries: a PDF, plain text, a URL or a file id; a title maybe."""
    title, provider_data = draw(_TITLES), draw(_DOCUMENT_KEPT)
    kind = draw(st.sampled_from(["pdf", "text", "url", "file"]))
    if kind == "pdf":
        return FilePart(
            data=_b64(b"%PDF-" + draw(st.binary(max_size=24))),
            media_type="application/pdf",
            filename=title,
            provider_data=provider_data,
        )
    if kind == "text":
        text = draw(st.text(min_size=1, max_size=12))
        return FilePart(
            data=_b64(text.encode()), media_type="text/plain", filename=title, provider_data=provider_data
        )
    if kind == "url":
        return FilePart(url=draw(_URLS), filename=title, provider_data=provider_data)
    return FilePart(file_id=draw(st.from_regex(r"file_[A-Za-z0-9]{1,12}", fullmatch=True)), filename=title)


_TEXT_PARTS = st.builds(TextPart, s.unicode_text(max_size=10), provider_data=_KEPT)
_USER_PARTS = st.lists(st.one_of(_TEXT_PARTS, images(), files()), min_size=1, max_size=4)
_RESULT_PARTS = st.lists(st.one_of(_TEXT_PARTS, images(), files()), min_size=1, max_size=3)
_TEXT = s.unicode_text(max_size=10)


@st.composite
def part_loops(draw: st.DrawFn) -> list[ChatMessage]:
    """Tool loops whose user turns mix text, images and documents, and whose results hold images and documents."""
    messages: list[ChatMessage] = []
    if draw(st.booleans()):
        messages.append(ChatMessage.system(draw(s.unicode_text(min_size=1, max_size=10))))
    messages.append(ChatMessage.user(draw(_TEXT | _USER_PARTS)))
    for round_ in range(draw(st.integers(0, 2))):
        ids = [f"toolu_{round_}_{n}" for n in range(draw(st.integers(1, 3)))]
        messages.append(
            ChatMessage.assistant_tool_calls([ToolCall(i, "f", {"n": 1}) for i in ids], draw(_TEXT))
        )
        for call_id in ids:
            content = draw(_TEXT | _RESULT_PARTS)
            messages.append(ChatMessage.tool_result(call_id, content, is_error=draw(st.booleans())))
        for _ in range(draw(st.integers(0, 2))):
            messages.append(ChatMessage.user(draw(_TEXT | _USER_PARTS)))
    if draw(st.booleans()):
        messages.append(ChatMessage.assistant(draw(_TEXT)))
    return messages


def read_back(messages: list[ChatMessage]) -> list[ChatMessage]:
    """``messages`` as they read back: the one documented change is a lone plain text part with text
    right after tool results, written as the text block a string is written as, which reads back as
    the string."""
    expected = []
    for position, message in enumerate(messages):
        content = message.content
        after_results = position and messages[position - 1].role is Role.TOOL
        if message.role is Role.USER and after_results and type(content) is tuple and len(content) == 1:
            (part,) = content
            if type(part) is TextPart and part.text and not part.provider_data:
                message = ChatMessage.user(part.text)
        expected.append(message)
    return expected


@settings(max_examples=150)
@given(part_loops())
def test_transcripts_with_parts_read_back_exactly(messages: list[ChatMessage]) -> None:
    """from_request(to_request(T)) == T for text, images and documents in user turns and results (also
    through JSON), but the one documented case; the SDK's types accept every message written."""
    body = anthropic.to_request(messages)
    sdk_valid(body)
    assert anthropic.from_request(through_json(body)) == read_back(messages)


def _text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


@st.composite
def native_blocks(draw: st.DrawFn) -> dict[str, Any]:
    """One block of a user turn or a tool result, as Anthropic's docs write them, with kept keys here and there."""
    part = draw(st.one_of(_TEXT_PARTS, images(), files()))
    block: dict[str, Any] = anthropic.to_request([ChatMessage.user([part])])["messages"][0]["content"][0]
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return {"type": "image", "source": {"type": "file", "file_id": "file_1"}}
    if kind == 1:
        return _SEARCH
    return block


@st.composite
def native_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """Request bodies of user turns of blocks, calls, and results of blocks followed by other blocks."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": draw(st.one_of(_TEXT, st.lists(native_blocks(), min_size=1, max_size=4)))}
    ]
    for round_ in range(draw(st.integers(0, 2))):
        ids = [f"toolu_{round_}_{n}" for n in range(draw(st.integers(1, 2)))]
        messages.append(
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": i, "name": "f", "input": {}} for i in ids],
            }
        )
        results: list[dict[str, Any]] = []
        for call_id in ids:
            result: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id}
            content = draw(
                st.none()
                | s.unicode_text(min_size=1, max_size=8)
                | st.lists(native_blocks(), min_size=1, max_size=3)
            )
            if content is not None:
                result["content"] = content
            results.append(result)
        after = draw(st.lists(native_blocks(), max_size=3))
        messages.append({"role": "user", "content": results + after})
    return {"messages": messages}


@settings(max_examples=150)
@given(native_bodies())
def test_native_bodies_with_parts_are_written_back_exactly(body: dict[str, Any]) -> None:
    """to_request(from_request(body)) == body for bodies in the form Anthropic's docs write them."""
    messages = anthropic.from_request(through_json(body))
    assert anthropic.to_request(messages) == body


def _parts_seen_by_openai(message: ChatMessage) -> list[tuple[Any, ...]]:
    """A message's parts as the OpenAI wire holds them: the kind, the bytes or URL, the media type."""
    content = message.content
    parts = content if isinstance(content, tuple) else ((TextPart(content),) if content else ())
    seen: list[tuple[Any, ...]] = []
    for part in parts:
        if isinstance(part, TextPart):
            seen.append(("text", part.text))
        elif isinstance(part, ImagePart):
            seen.append(("image", part.data, part.url, part.media_type))
        else:
            assert isinstance(part, FilePart)
            seen.append(("file", part.data, part.file_id, part.media_type, part.filename))
    return seen


_OPENAI_FILES = st.one_of(
    st.builds(
        lambda data, name: FilePart(data=_b64(b"%PDF-" + data), media_type="application/pdf", filename=name),
        st.binary(max_size=16),
        st.none() | st.just("report.pdf"),
    ),
    st.builds(
        lambda text: FilePart(data=_b64(text.encode()), media_type="text/plain", filename="notes.txt"),
        st.text(min_size=1, max_size=10),
    ),
    st.builds(lambda name: FilePart(file_id="file-abc123", filename=name), st.none() | st.just("a.pdf")),
)
_OPENAI_IMAGES = st.one_of(
    st.builds(lambda url: ImagePart(url=url), _URLS),
    st.sampled_from(sorted(_SIGNATURES)).flatmap(
        lambda media_type: st.builds(
            lambda tail: ImagePart(data=_b64(_SIGNATURES[media_type] + tail), media_type=media_type),
            st.binary(max_size=16),
        )
    ),
)
_OPENAI_TEXT = st.builds(TextPart, s.unicode_text(max_size=8))


@st.composite
def openai_part_loops(draw: st.DrawFn) -> list[ChatMessage]:
    """OpenAI transcripts: user turns of text, images and files; tool results of text and images."""
    user_parts = st.lists(st.one_of(_OPENAI_TEXT, _OPENAI_IMAGES, _OPENAI_FILES), min_size=1, max_size=4)
    messages = [ChatMessage.user(draw(user_parts))]
    for round_ in range(draw(st.integers(0, 2))):
        ids = [f"call_{round_}_{n}" for n in range(draw(st.integers(1, 2)))]
        messages.append(ChatMessage.assistant_tool_calls([ToolCall(i, "f") for i in ids]))
        for call_id in ids:
            parts = st.lists(st.one_of(_OPENAI_TEXT, _OPENAI_IMAGES), min_size=1, max_size=3)
            messages.append(ChatMessage.tool_result(call_id, draw(_TEXT | parts)))
        if draw(st.booleans()):
            messages.append(ChatMessage.user(draw(_TEXT | user_parts)))
    return messages


def _openai_wire(messages: list[ChatMessage]) -> list[ChatMessage]:
    """Through OpenAI's wire (ChatMessage.to_wire / from_dict) and JSON."""
    return [ChatMessage.from_dict(through_json(message.to_wire())) for message in messages]


@settings(max_examples=150)
@given(openai_part_loops())
def test_openai_to_anthropic_to_openai_keeps_every_part_its_bytes_and_its_order(
    messages: list[ChatMessage],
) -> None:
    """Every part of every turn comes back from Anthropic as OpenAI sent it: kind, base64 text or URL,
    media type, file id, filename, in order."""
    first = _openai_wire(messages)
    native = through_json(anthropic.to_request(first))
    sdk_valid(native)
    back = _openai_wire(anthropic.from_request(native))
    assert [(m.role, m.tool_call_id, _parts_seen_by_openai(m)) for m in back] == [
        (m.role, m.tool_call_id, _parts_seen_by_openai(m)) for m in first
    ]


# -- only MessageError escapes -------------------------------------------------------------


def _read(data: Any) -> None:
    with contextlib.suppress(MessageError):
        anthropic.from_request(data)


@settings(max_examples=300)
@given(s.arbitrary_json())
def test_arbitrary_json_in_part_positions_raises_only_message_errors(data: Any) -> None:
    """Any JSON where a block, a source, its fields or a result's blocks go: it reads, or a MessageError."""
    call = {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}]}
    for block in (
        data,
        {"type": "image", "source": data},
        {"type": "document", "source": data, "title": data},
        {"type": "image", "source": {"type": "base64", "media_type": data, "data": data}},
        {"type": "image", "source": {"type": "url", "url": data}},
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": data}},
        {"type": "document", "source": {"type": "file", "file_id": data}},
        {"type": "text", "text": data, "cache_control": data},
        {"type": data, "source": data},
    ):
        _read(user_turn(block))
        _read(
            [
                call,
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "t", "content": [block]}],
                },
            ]
        )
    _read([call, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": data}]}])


@settings(max_examples=150)
@given(s.mutated(native_bodies()))
def test_mutated_bodies_with_parts_raise_only_message_errors(body: Any) -> None:
    """Valid bodies with parts, edited 1-3 times anywhere: they read, or a MessageError."""
    _read(body)

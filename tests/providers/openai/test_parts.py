"""OpenAI Chat Completions' content parts: read and written exactly, located errors, kept data,
the wire's part rules (codec and check_transcript), and tool_parts_to_user."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pydantic
import pytest
from openai.types.chat import ChatCompletionMessageParam

from tests.conftest import DATA
from toolturns import (
    AudioPart,
    ChatMessage,
    FilePart,
    ImagePart,
    InvalidMessage,
    TextPart,
    ToolCall,
    check_transcript,
    openai,
)
from toolturns import _cli as cli
from toolturns.providers.openai import rules
from toolturns.providers.openai.write import MOVED_PARTS

GOLDENS: dict[str, Any] = json.loads((DATA / "openai" / "parts.json").read_text("utf-8"))
EXAMPLES = {example["id"]: example for example in GOLDENS["examples"]}
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="
PDF = (
    "JVBERi0xLjQKMSAwIG9iaiA8PCAvVHlwZSAvQ2F0YWxvZyA+PiBlbmRvYmoKdHJhaWxlciA8PCAvUm9vdCAxIDAgUiA+PgolJUVPRgo="
)
BOARDWALK = (
    "https://upload.wikimedia.org/wikipedia/commons/thumb/d/dd/Gfp-wisconsin-madison-the-nature-boardwalk.jpg/"
    "2560px-Gfp-wisconsin-madison-the-nature-boardwalk.jpg"
)
MESSAGE = pydantic.TypeAdapter(ChatCompletionMessageParam)
CALL = ChatMessage.assistant_tool_calls([ToolCall("call_1", "screenshot"), ToolCall("call_2", "screenshot")])
ASK = ChatMessage.user("Take a screenshot.")


def valid_for_the_sdk(message: dict[str, Any]) -> None:
    """``message`` validates as the openai SDK's ``ChatCompletionMessageParam``, its parts included.

    The SDK types a message's parts as an ``Iterable``, which pydantic checks
    lazily: the parts are checked when the validated value is iterated.
    """
    validated = MESSAGE.validate_python(message)
    content = validated.get("content")
    if content is not None and not isinstance(content, str):
        assert len(list(content)) == len(message["content"])


def read(content: list[Any], role: str = "user") -> ChatMessage:
    return ChatMessage.from_dict({"role": role, "content": content})


# -- the goldens: read as the guides mean, written back exactly ---------------------------

EXPECTED = {
    "image-url": (TextPart("What's in this image?"), ImagePart(url=BOARDWALK)),
    "image-base64": (TextPart("what's in this image?"), ImagePart(data=PNG, media_type="image/png")),
    "image-detail": (TextPart("What's in this image?"), ImagePart(url=BOARDWALK, detail="high")),
    "audio": (TextPart("What is in this recording?"), AudioPart(data=WAV, format="wav")),
    "file-id": (
        FilePart(file_id="file-6F2ksmvXxt4VdoqmHRw6kL"),
        TextPart("What is the first dragon in the book?"),
    ),
    "file-base64": (
        FilePart(data=PDF, media_type="application/pdf", filename="draconomicon.pdf"),
        TextPart("What is the first dragon in the book?"),
    ),
    "system-text-parts": (TextPart("You are a helpful assistant."),),
    "tool-text-parts": (TextPart('{"temperature": 18}'),),
    "assistant-refusal": "",
    "prompt-cache-breakpoint": (
        TextPart(
            "Here is the reference chart.",
            provider_data={
                "openai": {"keys": {"prompt_cache_breakpoint": {"mode": "explicit", "ttl": "30m"}}}
            },
        ),
        ImagePart(
            url=BOARDWALK,
            provider_data={"openai": {"keys": {"prompt_cache_breakpoint": {"mode": "explicit"}}}},
        ),
    ),
    "pydantic-dump": (TextPart("What\u2019s in this image?"), ImagePart(url=BOARDWALK)),
}


def test_every_golden_has_an_expected_reading() -> None:
    assert set(EXPECTED) == set(EXAMPLES)


@pytest.mark.parametrize("example", GOLDENS["examples"], ids=lambda example: example["id"])
def test_a_golden_reads_as_its_parts_and_is_written_back_exactly(example: dict[str, Any]) -> None:
    """Each example of OpenAI's guides reads as the parts it means; to_wire and to_request write
    it back value for value (but the null keys of a model dump, which carry nothing), and the SDK's
    own request type validates what is written."""
    native = example["message"]
    message = ChatMessage.from_dict(native)
    assert message.content == EXPECTED[example["id"]]
    written = message.to_wire()
    if example.get("normalised"):
        assert written == EXAMPLES["image-url"]["message"] | {
            "content": [
                {"type": "text", "text": "What\u2019s in this image?"},
                {"type": "image_url", "image_url": {"url": BOARDWALK}},
            ]
        }
    else:
        assert written == native
    assert openai.to_request([message])["messages"] == [written]
    assert ChatMessage.from_dict(written) == message
    valid_for_the_sdk(written)


def test_a_data_url_is_read_as_data_and_media_type_and_written_back_byte_for_byte() -> None:
    url = f"data:image/webp;base64,{PNG}"
    part = read([{"type": "image_url", "image_url": {"url": url}}]).content[0]
    assert not isinstance(part, str)
    assert part == ImagePart(data=PNG, media_type="image/webp")
    assert ChatMessage.user([part]).to_wire()["content"][0]["image_url"]["url"] == url


def test_a_refusal_is_kept_in_the_message_and_sent_back_by_the_openai_wire_only() -> None:
    native = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Here is what I can say."},
            {"type": "refusal", "refusal": "I can't help with the rest."},
        ],
    }
    message = ChatMessage.from_dict(native)
    assert message.content == (TextPart("Here is what I can say."),)
    assert message.text == "Here is what I can say."
    assert message.provider_data == {"openai": {"items": [[1, native["content"][1]]]}}
    assert message.to_wire() == native
    assert openai.to_request([ASK, message])["messages"][1] == native
    # A text turn built in code with the kept refusal: the text is a part again.
    built = ChatMessage("assistant", "Here is what I can say.", provider_data=message.provider_data)
    assert built.to_wire() == native


def test_an_assistant_message_of_a_refusal_only_has_no_text() -> None:
    native = EXAMPLES["assistant-refusal"]["message"]
    message = ChatMessage.from_dict(native)
    assert (message.content, message.text) == ("", "")
    assert message.to_wire(null_content=True) == native


def test_other_providers_data_on_a_message_is_not_sent() -> None:
    message = ChatMessage(
        "assistant", "Hi", provider_data={"anthropic": {"items": [[0, {"type": "thinking"}]]}}
    )
    assert message.to_wire() == {"role": "assistant", "content": "Hi"}


def test_unknown_keys_of_a_part_and_its_object_are_kept_and_written_back() -> None:
    native = {
        "type": "image_url",
        "image_url": {"url": BOARDWALK, "detail": "low", "format": "image/jpeg"},
        "cache_control": {"type": "ephemeral"},
        "empty": {},
    }
    part = read([native]).content[0]
    assert not isinstance(part, str)
    assert part == ImagePart(
        url=BOARDWALK,
        detail="low",
        provider_data={
            "openai": {
                "keys": {"cache_control": {"type": "ephemeral"}},
                "nested": {"image_url": {"format": "image/jpeg"}},
            }
        },
    )
    del native["empty"]  # carries nothing
    assert ChatMessage.user([part]).to_wire()["content"] == [native]
    for other in (
        {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav", "rate": 8000}, "x": 1},
        {"type": "file", "file": {"file_id": "file-1", "purpose": "user_data"}, "x": [1]},
        {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}},
    ):
        assert read([other]).to_wire()["content"] == [other]


# -- reading: errors at the wire's own paths ---------------------------------------------

BAD_PARTS = [
    (
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBOR!!!"}},
        "content[0].image_url.url",
    ),
    ({"type": "image_url", "image_url": {"url": "data:image/png,iVBORw0KGgo="}}, "content[0].image_url.url"),
    ({"type": "image_url", "image_url": {"url": "data:text/plain;base64,aGk="}}, "content[0].image_url.url"),
    (
        {"type": "image_url", "image_url": {"url": "data:image/png;x=1;base64,aGk="}},
        "content[0].image_url.url",
    ),
    ({"type": "image_url", "image_url": {"url": ""}}, "content[0].image_url.url"),
    ({"type": "image_url", "image_url": {}}, "content[0].image_url.url"),
    ({"type": "image_url", "image_url": BOARDWALK}, "content[0].image_url"),
    ({"type": "image_url", "image_url": {"url": BOARDWALK, "detail": 5}}, "content[0].image_url.detail"),
    ({"type": "input_audio", "input_audio": {"data": "abc", "format": "wav"}}, "content[0].input_audio.data"),
    ({"type": "input_audio", "input_audio": {"data": WAV, "format": "WAV"}}, "content[0].input_audio.format"),
    ({"type": "input_audio"}, "content[0].input_audio"),
    (
        {"type": "file", "file": {"file_id": "file-1", "file_data": f"data:application/pdf;base64,{PDF}"}},
        "content[0].file",
    ),
    ({"type": "file", "file": {"filename": "a.pdf"}}, "content[0].file"),
    ({"type": "file", "file": {"file_data": PDF, "filename": "a.pdf"}}, "content[0].file.file_data"),
    ({"type": "file", "file": {"file_data": 5}}, "content[0].file.file_data"),
    ({"type": "file", "file": {"file_data": f"data:image/png;base64,{PNG}"}}, "content[0].file.file_data"),
    ({"type": "file", "file": {"file_id": 5}}, "content[0].file.file_id"),
    ({"type": "file", "file": {"file_id": "file-1", "filename": 5}}, "content[0].file.filename"),
    ({"type": "text", "text": None}, "content[0].text"),
    ({"type": "text", "text": "hi", "cache_control": float("nan")}, "content[0].cache_control"),
    ({"type": "image_url", "image_url": {"url": BOARDWALK, 1: 2}}, "content[0].image_url"),
    ({"type": "input_text", "text": "hi"}, "content[0].type"),
    ({"text": "hi"}, "content[0].type"),
    ("hi", "content[0]"),
    ({"type": "refusal", "refusal": "No."}, "content[0].type"),
]


@pytest.mark.parametrize(("part", "path"), BAD_PARTS)
def test_a_malformed_part_is_refused_where_the_wire_has_it(part: Any, path: str) -> None:
    with pytest.raises(InvalidMessage) as caught:
        openai.from_request({"messages": [{"role": "user", "content": [part]}]})
    assert caught.value.path == f"messages[0].{path}"


def test_the_errors_say_what_the_wire_holds() -> None:
    with pytest.raises(InvalidMessage) as caught:
        read(
            [
                {"type": "text", "text": "a"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,a"}},
            ]
        )
    assert str(caught.value).startswith("content[1].image_url.url: must be base64 text")
    with pytest.raises(InvalidMessage, match=r"^content\[0\]\.type: .*Responses API"):
        read([{"type": "input_image", "image_url": BOARDWALK}])
    with pytest.raises(
        InvalidMessage, match=r"^content\[0\]\.file: must have one of file_data .*, got both$"
    ):
        read([{"type": "file", "file": {"file_id": "f", "file_data": "data:application/pdf;base64,aGk="}}])


@pytest.mark.parametrize(
    ("refusal", "path"),
    [
        ({"type": "refusal", "refusal": 5}, "content[0].refusal"),
        ({"type": "refusal"}, "content[0].refusal"),
        ({"type": "refusal", "refusal": "No.", "x": float("inf")}, "content[0].x"),
    ],
)
def test_a_malformed_refusal_is_refused_where_it_stands(refusal: dict[str, Any], path: str) -> None:
    with pytest.raises(InvalidMessage) as caught:
        read([refusal], role="assistant")
    assert caught.value.path == path


def test_a_refusal_outside_an_assistant_turn_says_where_refusals_go() -> None:
    with pytest.raises(InvalidMessage) as caught:
        read([{"type": "refusal", "refusal": "No."}], role="tool")
    assert str(caught.value) == (
        "content[0].type: must not be 'refusal' in a message of role 'tool': "
        "only an assistant turn carries one, got 'refusal'"
    )


def test_parts_built_already_are_taken_in_a_dict() -> None:
    """A caller's dict may hold parts built in code: they are the parts."""
    assert read([TEXT, {"type": "text", "text": "b"}]).content == (TEXT, TextPart("b"))


def test_an_empty_list_of_parts_is_refused() -> None:
    with pytest.raises(InvalidMessage, match=r"^content: must not be an empty array"):
        read([])


# -- writing what the wire has no place for ----------------------------------------------


@pytest.mark.parametrize(
    ("part", "field", "code"),
    [
        (FilePart(url="https://example.com/a.pdf"), "url", "unsupported_source"),
        (FilePart(file_id="file-1", media_type="application/pdf"), "media_type", "unsupported_field"),
        (ImagePart(url=BOARDWALK, media_type="image/jpeg"), "media_type", "unsupported_field"),
    ],
)
def test_to_wire_refuses_a_part_field_the_wire_has_no_place_for(part: Any, field: str, code: str) -> None:
    """Nothing is dropped: a file's URL, or a media type beside a URL or a file id, has no key."""
    message = ChatMessage.user([TextPart("See:"), part])
    with pytest.raises(InvalidMessage) as caught:
        message.to_wire()
    assert caught.value.path == f"content[1].{field}"
    with pytest.raises(InvalidMessage) as caught:
        openai.to_request([message])
    assert caught.value.path == "messages[0].content[1]"
    assert [(p.path, p.code) for p in check_transcript([message], target="openai")] == [
        ("messages[0].content[1]", code)
    ]


@pytest.mark.parametrize(
    ("provider_data", "path"),
    [
        ({"openai": {"keys": {"type": "file"}}}, "content[0].provider_data.openai.keys.type"),
        ({"openai": {"nested": {"file": {"x": 1}}}}, "content[0].provider_data.openai.nested.file"),
        ({"openai": {"items": []}}, "content[0].provider_data.openai.items"),
    ],
)
def test_malformed_kept_data_of_a_part_is_refused_at_its_path(provider_data: Any, path: str) -> None:
    message = ChatMessage.user([ImagePart(url=BOARDWALK, provider_data=provider_data)])
    with pytest.raises(InvalidMessage) as caught:
        message.to_wire()
    assert caught.value.path == path
    with pytest.raises(InvalidMessage) as caught:
        openai.to_request([ASK, message])
    assert caught.value.path == f"messages[1].{path}"


def test_malformed_kept_items_of_a_message_are_refused_at_their_path() -> None:
    message = ChatMessage("assistant", "Hi", provider_data={"openai": {"items": [[5, {"type": "refusal"}]]}})
    with pytest.raises(InvalidMessage) as caught:
        openai.to_request([ASK, message])
    assert caught.value.path == "messages[1].provider_data.openai.items[0][0]"


# -- the part rules: PARTS, check_part and check_transcript --------------------------------

IMAGE = ImagePart(url=BOARDWALK)
AUDIO = AudioPart(data=WAV, format="mp3")
FILE = FilePart(data=PDF, media_type="application/pdf", filename="a.pdf")
TEXT = TextPart("hi")


def test_which_parts_each_role_carries() -> None:
    assert dict(rules.PARTS) == {
        "system": {TextPart},
        "developer": {TextPart},
        "user": {TextPart, ImagePart, FilePart, AudioPart},
        "assistant": {TextPart},
        "tool": {TextPart},
    }
    for role, kinds in rules.PARTS.items():
        for part in (TEXT, IMAGE, AUDIO, FILE):
            refused = rules.check_part(role, part)
            assert (refused is None) == (type(part) in kinds), (role, part)
            if refused is not None:
                assert refused[0].code == "unsupported_part"


@pytest.mark.parametrize(
    ("messages", "problems"),
    [
        (
            [ASK, CALL, ChatMessage.tool_result("call_1", [IMAGE]), ChatMessage.tool_result("call_2", "ok")],
            [("messages[2].content[0]", "unsupported_part")],
        ),
        ([ChatMessage.system([TEXT, AUDIO]), ASK], [("messages[0].content[1]", "unsupported_part")]),
        ([ChatMessage.developer([FILE]), ASK], [("messages[0].content[0]", "unsupported_part")]),
        ([ASK, ChatMessage.assistant([TEXT, IMAGE])], [("messages[1].content[1]", "unsupported_part")]),
        (
            [ChatMessage.user([TEXT, ImagePart(data=PNG, media_type="image/bmp")])],
            [("messages[0].content[1]", "unsupported_media_type")],
        ),
        (
            [ChatMessage.user([ImagePart(url=BOARDWALK, detail="LOW")])],
            [("messages[0].content[0]", "invalid_detail")],
        ),
        (
            [ChatMessage.user([AudioPart(data=WAV, format="flac")])],
            [("messages[0].content[0]", "unsupported_media_type")],
        ),
        (
            [ChatMessage.user([TEXT, FilePart(data=PDF, media_type="text/markdown", filename="a.md")])],
            [("messages[0].content[1]", "unsupported_media_type")],
        ),
        (
            [ChatMessage.user([FilePart(data=PDF, media_type="application/pdf")])],
            [("messages[0].content[0]", "missing_filename")],
        ),
        (
            [ChatMessage.user([FilePart(url="https://example.com/a.pdf")])],
            [("messages[0].content[0]", "unsupported_source")],
        ),
    ],
)
def test_check_transcript_reports_each_part_rule_where_the_part_is(
    messages: list[ChatMessage], problems: list[tuple[str, str]]
) -> None:
    """Each rule with its code at messages[i].content[j]; with no target, none of them."""
    assert [(p.path, p.code) for p in check_transcript(messages, target="openai")] == problems
    assert check_transcript(messages) == []


def test_the_same_parts_within_openais_rules_are_clean() -> None:
    good = [
        ChatMessage.system([TEXT]),
        ChatMessage.user(
            [
                TEXT,
                ImagePart(data=PNG, media_type="IMAGE/PNG", detail="original"),
                ImagePart(url=BOARDWALK, detail="auto"),
                AudioPart(data=WAV, format="wav"),
                FILE,
                FilePart(file_id="file-1"),
            ]
        ),
        CALL,
        ChatMessage.tool_result("call_1", [TEXT]),
        ChatMessage.tool_result("call_2", "ok"),
        ChatMessage.assistant([TEXT]),
    ]
    assert check_transcript(good, target="openai") == []
    for message in openai.to_request(good)["messages"]:
        valid_for_the_sdk(message)


def test_the_codec_sends_what_openai_compatible_servers_take_and_openai_refuses() -> None:
    """A media type, a detail or a missing file name OpenAI refuses is reported, and sent:
    vLLM, OpenRouter and Ollama's /v1 share the wire and take other values."""
    bmp = ChatMessage.user([ImagePart(data=PNG, media_type="image/bmp", detail="LOW")])
    assert openai.to_request([bmp])["messages"][0]["content"] == [
        {"type": "image_url", "image_url": {"url": f"data:image/bmp;base64,{PNG}", "detail": "LOW"}}
    ]
    assert [p.code for p in check_transcript([bmp], target="openai")] == ["unsupported_media_type"]


def test_the_rules_quote_openai_and_link_where() -> None:
    for rule in (
        rules.IMAGE_NOT_IN_USER_TURN,
        rules.NOT_CARRIED,
        rules.IMAGE_TYPE,
        rules.FILE_TYPE,
        rules.AUDIO_FORMAT,
        rules.INVALID_DETAIL,
        rules.MISSING_FILENAME,
        *rules.TEXT_PARTS_ONLY.values(),
    ):
        assert rule.says
        assert rule.link.startswith("https://")


# -- tool results: refused by default, moved on request ----------------------------------

SHOT = ImagePart(data=PNG, media_type="image/png")


def test_an_image_in_a_tool_result_is_refused_by_default_naming_the_opt_in() -> None:
    history = [
        ASK,
        CALL,
        ChatMessage.tool_result("call_1", [TextPart("Done."), SHOT]),
        ChatMessage.tool_result("call_2", "ok"),
    ]
    with pytest.raises(InvalidMessage) as caught:
        openai.to_request(history)
    assert caught.value.path == "messages[2].content[1]"
    assert "tool_parts_to_user=True" in str(caught.value)
    assert "Image URLs are only allowed for messages with role 'user'" in str(caught.value)


def test_tool_parts_to_user_moves_each_runs_parts_into_one_user_message_after_it() -> None:
    pdf = FilePart(file_id="file-1")
    history = [
        ASK,
        CALL,
        ChatMessage.tool_result("call_1", [TextPart("Done."), SHOT, TextPart("(1 of 2)")]),
        ChatMessage.tool_result("call_2", [IMAGE, pdf]),
        ChatMessage.assistant_tool_calls([ToolCall("call_3", "screenshot")]),
        ChatMessage.tool_result("call_3", [SHOT]),
        ChatMessage.user("Thanks."),
    ]
    sent = openai.to_request(history, tool_parts_to_user=True)["messages"]
    image, shot, file = (ChatMessage.user([part]).to_wire()["content"][0] for part in (IMAGE, SHOT, pdf))
    assert sent == [
        ASK.to_wire(),
        CALL.to_wire(),
        {
            "role": "tool",
            "content": [{"type": "text", "text": "Done."}, {"type": "text", "text": "(1 of 2)"}],
            "tool_call_id": "call_1",
        },
        {"role": "tool", "content": MOVED_PARTS, "tool_call_id": "call_2"},
        {"role": "user", "content": [shot, image, file]},
        history[4].to_wire(),
        {"role": "tool", "content": MOVED_PARTS, "tool_call_id": "call_3"},
        {"role": "user", "content": [shot]},
        history[6].to_wire(),
    ]
    for message in sent:
        valid_for_the_sdk(message)
    # The history kept is the caller's: the body reads back as another one.
    assert openai.from_request({"messages": sent}) != history
    assert history[2].content == (TextPart("Done."), SHOT, TextPart("(1 of 2)"))


def test_tool_parts_to_user_changes_nothing_without_parts_to_move() -> None:
    history = [
        ASK,
        CALL,
        ChatMessage.tool_result("call_1", [TEXT]),
        ChatMessage.tool_result("call_2", "ok"),
        ChatMessage.user([TEXT, SHOT]),
    ]
    assert openai.to_request(history, tool_parts_to_user=True) == openai.to_request(history)


def test_a_moved_part_the_wire_cannot_carry_is_refused_where_the_caller_has_it() -> None:
    history = [
        ASK,
        CALL,
        ChatMessage.tool_result("call_1", [SHOT, FilePart(url="https://example.com/a.pdf")]),
        ChatMessage.tool_result("call_2", "ok"),
    ]
    with pytest.raises(InvalidMessage) as caught:
        openai.to_request(history, tool_parts_to_user=True)
    assert caught.value.path == "messages[2].content[1]"
    assert "a file's URL" in str(caught.value)


# -- toolturns check: OpenAI's vision fine-tuning lines ----------------------------------


def test_toolturns_check_reads_openais_vision_fine_tuning_lines_as_clean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = DATA / "openai" / "vision_fine_tuning.jsonl"
    assert cli.main(["check", str(path)]) == 0
    assert cli.main(["check", "--target", "openai", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "checked 3 transcripts" in err
    lines = [json.loads(line) for line in Path(path).read_text("utf-8").splitlines()]
    images = [
        part
        for line in lines
        for message in openai.from_request(line)
        for part in message.content
        if isinstance(part, ImagePart)
    ]
    assert [image.url or image.media_type for image in images] == [
        "https://upload.wikimedia.org/wikipedia/commons/3/36/Danbo_Cheese.jpg",
        "https://upload.wikimedia.org/wikipedia/commons/3/36/Danbo_Cheese.jpg",
        "image/png",
    ]

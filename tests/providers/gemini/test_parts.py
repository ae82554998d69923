"""Content parts on the Gemini wire: inlineData and fileData in user turns, parts in function responses.

Google's own samples (``tests/data/gemini/parts.json``) read as the parts they
hold and go back part for part; what toolturns writes is validated with
google-genai's ``types.Content``; each part rule is reported by
``check_transcript(target="gemini")`` where the part stands and refused by
the codec in the rule's words.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from google.genai import types

from tests.conftest import DATA
from tests.providers.gemini.test_sdk_dumps import ALL_DUMPS, dump, sdk_request
from toolturns import (
    AudioPart,
    ChatMessage,
    ContentPart,
    FilePart,
    ImagePart,
    InvalidMessage,
    MessageError,
    TextPart,
    ToolCall,
    check_transcript,
    gemini,
)
from toolturns.providers.gemini import rules

GOLDEN: list[dict[str, Any]] = json.loads((DATA / "gemini" / "parts.json").read_text("utf-8"))["examples"]
BY_ID = {example["id"]: example for example in GOLDEN}

JPEG = "/9j/4AAQSkZJRgABAQEASABIAAD/"
JPEG_2 = "/9j/4AAQSkZJRgABAgAAAQABAAD/"
PNG = "iVBORw0KGgoAAAANSUhEUg=="
FILES = "https://generativelanguage.googleapis.com/v1beta/files/"
CAT = "gs://cloud-samples-data/vision/label/wakeupcat.jpg"


def user(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "parts": list(parts)}


def validated(body: dict[str, Any]) -> None:
    """Every content of ``body`` is a google-genai Content (which forbids keys it does not know)."""
    for content in body["contents"]:
        types.Content.model_validate(content)
    if "systemInstruction" in body:
        types.Content.model_validate(body["systemInstruction"])


# -- Google's samples ---------------------------------------------------------------------

CALL_ID = gemini.from_request(BY_ID["multimodal-function-response"]["body"])[1].tool_calls[0].id  # type: ignore[index]

READ = {
    "one-image-prompt": [
        ChatMessage.user(
            [TextPart("Tell me about this instrument"), ImagePart(data=JPEG, media_type="image/jpeg")]
        )
    ],
    "two-image-prompt": [
        ChatMessage.user(
            [
                ImagePart(data=JPEG, media_type="image/jpeg"),
                ImagePart(data=JPEG_2, media_type="image/jpeg"),
                TextPart("Generate a list of all the objects contained in both images."),
            ]
        )
    ],
    "audio-file": [
        ChatMessage.user(
            [TextPart("Please describe this file."), FilePart(url=FILES + "abc123", media_type="audio/mpeg")]
        )
    ],
    "video-file": [
        ChatMessage.user(
            [
                TextPart(
                    "Transcribe the audio from this video, giving timestamps for salient events in the video. "
                    "Also provide visual descriptions."
                ),
                FilePart(url=FILES + "def456", media_type="video/mp4"),
            ]
        )
    ],
    "pdf-file": [
        ChatMessage.user(
            [
                TextPart("Can you add a few more lines to this poem?"),
                FilePart(url=FILES + "ghi789", media_type="application/pdf"),
            ]
        )
    ],
    "multimodal-function-response": [
        ChatMessage.user("Show me the green shirt I ordered last month."),
        ChatMessage.assistant_tool_calls(
            [
                ToolCall(
                    CALL_ID,
                    "get_image",
                    {"item_name": "green shirt"},
                    provider_data={"gemini": {"generated_id": True}},
                )
            ]
        ),
        ChatMessage.tool_result(
            CALL_ID,
            [
                TextPart('{"image_ref":{"$ref":"wakeupcat.jpg"}}'),
                ImagePart(
                    url=CAT,
                    media_type="image/jpeg",
                    provider_data={"gemini": {"nested": {"fileData": {"displayName": "wakeupcat.jpg"}}}},
                ),
            ],
        ),
    ],
}


@pytest.mark.parametrize("example", GOLDEN, ids=[example["id"] for example in GOLDEN])
def test_googles_samples_read_as_their_parts(example: dict[str, Any]) -> None:
    """Each sample reads as the parts it holds, in order, the base64 text as it was."""
    assert gemini.from_request(example["body"]) == READ[example["id"]]


@pytest.mark.parametrize("example", GOLDEN, ids=[example["id"] for example in GOLDEN])
def test_googles_samples_go_back_part_for_part(example: dict[str, Any]) -> None:
    """to_request gives each sample back in the REST spelling, which google-genai's types accept."""
    body = gemini.to_request(gemini.from_request(example["body"]))
    assert body == example["written"]
    validated(body)
    assert gemini.from_request(body) == READ[example["id"]]


@ALL_DUMPS
@pytest.mark.parametrize("example", GOLDEN, ids=[example["id"] for example in GOLDEN])
def test_sdk_dumps_of_the_samples_read_as_the_rest_json(example: dict[str, Any], how: str) -> None:
    """google-genai's dumps (snake_case, bytes or URL-safe base64, Nones) read as the REST body and go back as it."""
    dumped = sdk_request(example["written"], how)
    assert gemini.from_request(dumped) == READ[example["id"]]
    assert gemini.to_request(gemini.from_request(dumped)) == example["written"]


def test_the_sdk_objects_of_the_function_calling_sample_read_as_parts() -> None:
    """The Python sample's FunctionResponsePart, given as SDK objects, reads as an image with its displayName."""
    part = types.FunctionResponsePart(
        file_data=types.FunctionResponseFileData(
            mime_type="image/png",
            display_name="dress.jpg",
            file_uri="gs://cloud-samples-data/generative-ai/image/dress.jpg",
        )
    )
    history = [
        types.Content(role="user", parts=[types.Part(text="Show me the green shirt I ordered last month.")]),
        types.Content(
            role="model",
            parts=[types.Part.from_function_call(name="get_image", args={"item_name": "green shirt"})],
        ),
        types.Content(
            role="tool",
            parts=[
                types.Part.from_function_response(
                    name="get_image", response={"image_ref": {"$ref": "dress.jpg"}}, parts=[part]
                )
            ],
        ),
    ]
    # The sample's role "tool" is not one the API takes ("Please use a valid role: user, model."):
    # toolturns reads what the API reads.
    with pytest.raises(InvalidMessage, match=r"contents\[2\]\.role: must be 'user' or 'model'"):
        gemini.from_request(history)
    history[2].role = "user"
    result = gemini.from_request(history)[2]
    assert result.content == (
        TextPart('{"image_ref":{"$ref":"dress.jpg"}}'),
        ImagePart(
            url="gs://cloud-samples-data/generative-ai/image/dress.jpg",
            media_type="image/png",
            provider_data={"gemini": {"nested": {"fileData": {"displayName": "dress.jpg"}}}},
        ),
    )


# -- the mapping, part by part -------------------------------------------------------------


@pytest.mark.parametrize(
    ("part", "wire"),
    [
        (ImagePart(data=PNG, media_type="image/png"), {"inlineData": {"mimeType": "image/png", "data": PNG}}),
        (
            ImagePart(url="gs://b/cat.webp", media_type="image/webp"),
            {"fileData": {"mimeType": "image/webp", "fileUri": "gs://b/cat.webp"}},
        ),
        (
            AudioPart(data="UklGRg==", format="wav"),
            {"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}},
        ),
        (AudioPart(data="SUQz", format="mp3"), {"inlineData": {"mimeType": "audio/mp3", "data": "SUQz"}}),
        (
            FilePart(data="JVBERi0=", media_type="application/pdf", filename="report.pdf"),
            {"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0=", "displayName": "report.pdf"}},
        ),
        (
            FilePart(data="aGk=", media_type="text/plain"),
            {"inlineData": {"mimeType": "text/plain", "data": "aGk="}},
        ),
        (FilePart(url=FILES + "x"), {"fileData": {"fileUri": FILES + "x"}}),
        (
            FilePart(url="gs://b/v.mp4", media_type="video/mp4", filename="v.mp4"),
            {"fileData": {"mimeType": "video/mp4", "fileUri": "gs://b/v.mp4", "displayName": "v.mp4"}},
        ),
        (
            ImagePart(
                data=PNG,
                media_type="image/png",
                provider_data={
                    "gemini": {
                        "keys": {"mediaResolution": {"level": "MEDIA_RESOLUTION_LOW"}},
                        "nested": {"inlineData": {"displayName": "chart.png"}},
                    }
                },
            ),
            {
                "inlineData": {"mimeType": "image/png", "data": PNG, "displayName": "chart.png"},
                "mediaResolution": {"level": "MEDIA_RESOLUTION_LOW"},
            },
        ),
        (
            FilePart(
                url="gs://b/v.mp4",
                media_type="video/mp4",
                provider_data={"gemini": {"keys": {"videoMetadata": {"startOffset": "1s", "fps": 2}}}},
            ),
            {
                "fileData": {"mimeType": "video/mp4", "fileUri": "gs://b/v.mp4"},
                "videoMetadata": {"startOffset": "1s", "fps": 2},
            },
        ),
        (
            TextPart("Hi", provider_data={"gemini": {"keys": {"thoughtSignature": "c2ln"}}}),
            {"text": "Hi", "thoughtSignature": "c2ln"},
        ),
    ],
)
def test_each_part_in_a_user_turn_goes_as_its_gemini_part_and_reads_back(
    part: Any, wire: dict[str, Any]
) -> None:
    """The documented mapping both ways; the kept keys go back where they were."""
    turn = ChatMessage.user([TextPart("Look:"), part])
    body = gemini.to_request([turn])
    assert body["contents"] == [user({"text": "Look:"}, wire)]
    validated(body)
    assert gemini.from_request(body) == [turn]


def test_the_base64_text_is_the_wires_own_string_both_ways() -> None:
    """Reading keeps the body's string and writing sends the part's: a 1 MB image is never copied."""
    data = base64.b64encode(bytes(range(256)) * 3000).decode()
    body = {
        "contents": [user({"text": "What is it?"}, {"inlineData": {"mimeType": "image/png", "data": data}})]
    }
    (turn,) = gemini.from_request(body)
    image = turn.content[1]
    assert isinstance(image, ImagePart)
    assert image.data is data
    written = gemini.to_request([turn])["contents"][0]["parts"][1]["inlineData"]["data"]
    assert written is data


def test_a_function_response_carries_images_and_documents_in_its_parts() -> None:
    """A tool result's text goes in response, its images and documents in functionResponse.parts, in order."""
    call = ToolCall("call_1", "screenshot", {})
    result = ChatMessage.tool_result(
        "call_1",
        [
            TextPart("The page:"),
            ImagePart(data=PNG, media_type="image/png"),
            FilePart(url="gs://b/page.pdf", media_type="application/pdf", filename="page.pdf"),
        ],
    )
    history = [ChatMessage.user("Look"), ChatMessage.assistant_tool_calls([call]), result]
    body = gemini.to_request(history)
    validated(body)
    assert body["contents"][2] == user(
        {
            "functionResponse": {
                "name": "screenshot",
                "response": {"result": "The page:"},
                "parts": [
                    {"inlineData": {"mimeType": "image/png", "data": PNG}},
                    {
                        "fileData": {
                            "mimeType": "application/pdf",
                            "fileUri": "gs://b/page.pdf",
                            "displayName": "page.pdf",
                        }
                    },
                ],
                "id": "call_1",
            }
        }
    )
    assert gemini.from_request(body) == history


@pytest.mark.parametrize(
    ("content", "is_error", "response"),
    [
        ([ImagePart(data=PNG, media_type="image/png")], False, {"result": ""}),
        ([TextPart('{"temp": 18}'), ImagePart(data=PNG, media_type="image/png")], False, {"temp": 18}),
        ([TextPart("it broke"), ImagePart(data=PNG, media_type="image/png")], True, {"error": "it broke"}),
    ],
)
def test_a_function_response_with_parts_keeps_its_text_and_error_flag(
    content: list[Any], is_error: bool, response: dict[str, Any]
) -> None:
    """Media alone says "" in response (reading gives the media alone); an error is {"error": text}; JSON text an object."""
    history = [
        ChatMessage.user("Look"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")]),
        ChatMessage.tool_result("call_1", content, is_error=is_error),
    ]
    body = gemini.to_request(history)
    function = body["contents"][2]["parts"][0]["functionResponse"]
    assert function["response"] == response
    back = gemini.from_request(body)[2]
    assert back.is_error is is_error
    assert back.content == (
        (TextPart('{"temp":18}'), content[1]) if response == {"temp": 18} else tuple(content)
    )


# -- the documented normalisations ---------------------------------------------------------


def test_a_list_of_text_parts_reads_back_as_text() -> None:
    """Gemini has no "list of text" form: text parts read back as strings, the same text (the one inexact place)."""
    history = [
        ChatMessage.system([TextPart("Be brief."), TextPart("Answer in French.")]),
        ChatMessage.user([TextPart("Hello, "), TextPart("world")]),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")], [TextPart("Bon"), TextPart("jour")]),
        ChatMessage.tool_result("call_1", [TextPart("sunny, "), TextPart("18 C")]),
    ]
    body = gemini.to_request(history)
    assert body["systemInstruction"] == {"parts": [{"text": "Be brief."}, {"text": "Answer in French."}]}
    assert body["contents"][0] == user({"text": "Hello, "}, {"text": "world"})
    assert body["contents"][1]["parts"][:2] == [{"text": "Bon"}, {"text": "jour"}]
    assert body["contents"][2] == user(
        {"functionResponse": {"name": "f", "response": {"result": "sunny, 18 C"}, "id": "call_1"}}
    )
    back = gemini.from_request(body)
    assert [m.content for m in back] == [
        "Be brief.",
        "Answer in French.",
        "Hello, ",
        "world",
        "Bonjour",
        "sunny, 18 C",
    ]
    texts = [back[0].text + back[1].text, back[2].text + back[3].text, back[4].text, back[5].text]
    assert texts == [m.text for m in history]


def test_consecutive_user_turns_share_a_content_and_read_back_as_one() -> None:
    """Gemini turns alternate: a user turn with parts joins the user content before it, and reads back with it."""
    image = ImagePart(data=PNG, media_type="image/png")
    history = [ChatMessage.user("First this."), ChatMessage.user([image, TextPart("Then this.")])]
    body = gemini.to_request(history)
    assert body["contents"] == [
        user(
            {"text": "First this."},
            {"inlineData": {"mimeType": "image/png", "data": PNG}},
            {"text": "Then this."},
        )
    ]
    assert gemini.from_request(body) == [
        ChatMessage.user([TextPart("First this."), image, TextPart("Then this.")])
    ]


def test_a_user_turn_with_parts_after_tool_results_reads_back_as_itself() -> None:
    """Results and the turn after them share a content; the results read back first, then the turn, unchanged."""
    turn = ChatMessage.user(
        [TextPart("And this one?"), ImagePart(url="gs://b/x.png", media_type="image/png")]
    )
    history = [
        ChatMessage.user("Go"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")]),
        ChatMessage.tool_result("call_1", "done"),
        turn,
    ]
    body = gemini.to_request(history)
    assert len(body["contents"]) == 3
    assert gemini.from_request(body) == history


def test_text_after_media_in_a_tool_result_reads_back_first() -> None:
    """A function response holds its text apart from its parts: the text reads back before the media."""
    image = ImagePart(data=PNG, media_type="image/png")
    history = [
        ChatMessage.user("Go"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")]),
        ChatMessage.tool_result("call_1", [image, TextPart("a caption")]),
    ]
    assert gemini.from_request(gemini.to_request(history))[2].content == (TextPart("a caption"), image)


def test_audio_is_audio_slash_its_format_and_other_audio_types_are_refused_when_read() -> None:
    """An AudioPart's format is its media type's subtype; a type that is not audio/<format> cannot be one."""
    read = gemini.from_request([user({"inlineData": {"mimeType": "audio/aiff", "data": "Rk9STQ=="}})])
    assert read == [ChatMessage.user([AudioPart(data="Rk9STQ==", format="aiff")])]
    for mime in ("audio/x-wav", "audio/L16;codec=pcm;rate=16000", "AUDIO/wav"):
        with pytest.raises(InvalidMessage) as caught:
            gemini.from_request([user({"inlineData": {"mimeType": mime, "data": "Rk9STQ=="}})])
        assert str(caught.value).startswith(
            "contents[0].parts[0].inlineData.mimeType: must be audio/<format>"
        )


# -- reading what is malformed ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("part", "message"),
    [
        ({"inlineData": "x"}, "contents[0].parts[0].inlineData: must be an object, got 'x'"),
        ({"inlineData": {"data": PNG}}, "contents[0].parts[0].inlineData.mimeType: is required"),
        (
            {"inlineData": {"mimeType": 5, "data": PNG}},
            "contents[0].parts[0].inlineData.mimeType: must be a string, got 5",
        ),
        ({"inlineData": {"mimeType": "image/png"}}, "contents[0].parts[0].inlineData.data: is required"),
        (
            {"inlineData": {"mimeType": "image/png", "data": "not base64!"}},
            "contents[0].parts[0].inlineData.data: must be base64 text",
        ),
        (
            {"inlineData": {"mimeType": "image", "data": PNG}},
            "contents[0].parts[0].inlineData.mimeType: must be a media type",
        ),
        (
            {"inlineData": {"mimeType": "application/pdf", "data": PNG, "displayName": 5}},
            "contents[0].parts[0].inlineData.displayName: must be a non-empty string or None, got 5",
        ),
        ({"fileData": {"mimeType": "image/png"}}, "contents[0].parts[0].fileData.fileUri: is required"),
        ({"fileData": {"fileUri": ""}}, "contents[0].parts[0].fileData.fileUri: must be a non-empty string"),
        (
            {"fileData": {"fileUri": "gs://x", "mimeType": 7}},
            "contents[0].parts[0].fileData.mimeType: must be a media type",
        ),
        (
            {"fileData": {"fileUri": "gs://x", "url": float("nan")}},
            "contents[0].parts[0].fileData.url: must be a finite number",
        ),
        (
            {"fileData": {"fileUri": "gs://x"}, "inlineData": {"mimeType": "image/png", "data": PNG}},
            "contents[0].parts[0]: must hold exactly one of text, inlineData or fileData",
        ),
        (
            {"functionResponse": {"name": "f", "response": {}, "parts": "x"}},
            "contents[0].parts[0].functionResponse.parts: must be an array of parts, got 'x'",
        ),
        (
            {"functionResponse": {"name": "f", "response": {}, "parts": [{"text": "x"}]}},
            "contents[0].parts[0].functionResponse.parts[0]: must hold exactly one of inlineData or fileData: "
            "a function response's text goes in its response",
        ),
        (
            {"functionResponse": {"name": "f", "response": {}, "parts": [5]}},
            "contents[0].parts[0].functionResponse.parts[0]: must be a part object, got 5",
        ),
        (
            {
                "functionResponse": {
                    "name": "f",
                    "response": {},
                    "parts": [{"inline_data": {"mime_type": "image/png"}}],
                }
            },
            "contents[0].parts[0].functionResponse.parts[0].inlineData.data: is required",
        ),
    ],
)
def test_malformed_parts_raise_with_native_paths(part: dict[str, Any], message: str) -> None:
    """Each malformed part is an InvalidMessage naming the Gemini field (mimeType, not media_type)."""
    model = {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}
    body = [user({"text": "go"}), model, user(part)] if "functionResponse" in part else [user(part)]
    with pytest.raises(InvalidMessage) as caught:
        gemini.from_request(body)
    assert str(caught.value).replace("contents[2]", "contents[0]").startswith(message)


# -- the part rules: check_transcript where the part stands, the codec in the same words ----

ASK = ChatMessage.user("Look")
IMAGE = ImagePart(data=PNG, media_type="image/png")


def with_result(*parts: Any) -> list[ChatMessage]:
    return [
        ASK,
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")]),
        ChatMessage.tool_result("call_1", list(parts)),
    ]


CASES = [
    # (code, rule, a transcript Gemini refuses, where, a near-identical one it takes)
    (
        "unsupported_part",
        rules.SYSTEM_PARTS,
        [ChatMessage.system([TextPart("Be brief."), IMAGE]), ASK],
        "messages[0].content[1]",
        [ChatMessage.system([TextPart("Be brief.")]), ASK],
    ),
    (
        "unsupported_part",
        rules.MODEL_PARTS,
        [ASK, ChatMessage.assistant([TextPart("Here:"), IMAGE])],
        "messages[1].content[1]",
        [ASK, ChatMessage.assistant([TextPart("Here:")])],
    ),
    (
        "unsupported_part",
        rules.RESULT_PARTS,
        with_result(TextPart("Listen:"), AudioPart(data="UklGRg==", format="wav")),
        "messages[2].content[1]",
        with_result(TextPart("Listen:"), IMAGE),
    ),
    (
        "unsupported_media_type",
        rules.IMAGE_MEDIA_TYPE,
        [ChatMessage.user([TextPart("Look"), ImagePart(data="R0lGODlh", media_type="image/gif")])],
        "messages[0].content[1]",
        [ChatMessage.user([TextPart("Look"), ImagePart(data="R0lGODlh", media_type="image/webp")])],
    ),
    (
        "unsupported_media_type",
        rules.RESULT_MEDIA_TYPE,
        with_result(ImagePart(data=PNG, media_type="image/heic")),
        "messages[2].content[0]",
        with_result(ImagePart(data=PNG, media_type="image/jpeg")),
    ),
    (
        "unsupported_media_type",
        rules.RESULT_MEDIA_TYPE,
        with_result(FilePart(url="gs://b/v.mp4", media_type="video/mp4")),
        "messages[2].content[0]",
        with_result(FilePart(url="gs://b/v.pdf", media_type="application/pdf")),
    ),
    (
        "missing_media_type",
        rules.IMAGE_WITHOUT_MEDIA_TYPE,
        [ChatMessage.user([ImagePart(url="https://example.com/cat")])],
        "messages[0].content[0]",
        [ChatMessage.user([ImagePart(url="https://example.com/cat", media_type="image/jpeg")])],
    ),
    (
        "unsupported_field",
        rules.IMAGE_DETAIL,
        [ChatMessage.user([ImagePart(data=PNG, media_type="image/png", detail="low")])],
        "messages[0].content[0]",
        [ChatMessage.user([ImagePart(data=PNG, media_type="image/png")])],
    ),
    (
        "unsupported_source",
        rules.FILE_ID,
        [ChatMessage.user([TextPart("Read"), FilePart(file_id="file-abc123", filename="r.pdf")])],
        "messages[0].content[1]",
        [ChatMessage.user([TextPart("Read"), FilePart(url=FILES + "abc123", filename="r.pdf")])],
    ),
]


@pytest.mark.parametrize(
    ("code", "rule", "bad", "where", "good"), CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES]
)
def test_each_part_rule_is_reported_where_the_part_stands_and_refused_by_the_codec(
    code: str, rule: Any, bad: list[ChatMessage], where: str, good: list[ChatMessage]
) -> None:
    """check_transcript reports the rule's code at messages[i].content[j]; to_request refuses it in its words."""
    assert rule.code == code
    problems = check_transcript(bad, target="gemini")
    assert [(p.path, p.code) for p in problems] == [(where, code)]
    with pytest.raises(InvalidMessage) as caught:
        gemini.to_request(bad)
    assert caught.value.path == where
    assert rule.says in str(caught.value)
    assert check_transcript(good, target="gemini") == []
    validated(gemini.to_request(good))


def test_the_parts_table_is_what_check_part_takes() -> None:
    """PARTS lists, for each role, the part classes check_part does not refuse for their kind."""
    samples: dict[type, ContentPart] = {
        TextPart: TextPart("x"),
        ImagePart: IMAGE,
        FilePart: FilePart(data="JVBERi0=", media_type="application/pdf"),
        AudioPart: AudioPart(data="UklGRg==", format="wav"),
    }
    for role, carried in rules.PARTS.items():
        taken = {kind for kind, part in samples.items() if rules.check_part(role, part) is None}
        assert taken == carried, role


# -- what the writer refuses of provider_data -----------------------------------------------


@pytest.mark.parametrize(
    ("part", "message"),
    [
        (
            ImagePart(
                data=PNG, media_type="image/png", provider_data={"gemini": {"keys": {"inline_data": {}}}}
            ),
            "messages[0].content[0].provider_data.gemini.keys.inline_data: is a key the Gemini codec writes itself",
        ),
        (
            ImagePart(
                data=PNG, media_type="image/png", provider_data={"gemini": {"nested": {"fileData": {"a": 1}}}}
            ),
            "messages[0].content[0].provider_data.gemini.nested.fileData: is not a nested object the Gemini codec keeps keys of",
        ),
        (
            FilePart(url="gs://x", provider_data={"gemini": {"nested": {"fileData": {"displayName": "x"}}}}),
            "messages[0].content[0].provider_data.gemini.nested.fileData.displayName: is a key the Gemini codec writes itself",
        ),
        (
            TextPart("x", provider_data={"gemini": {"items": []}}),
            "messages[0].content[0].provider_data.gemini.items: is not data the Gemini codec writes",
        ),
    ],
)
def test_kept_data_of_a_part_that_reading_never_keeps_is_refused(part: Any, message: str) -> None:
    with pytest.raises(InvalidMessage) as caught:
        gemini.to_request([ChatMessage.user([part])])
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    "history",
    [
        [ChatMessage.system([TextPart("x", provider_data={"gemini": {"keys": {"a": 1}}})]), ASK],
        with_result(TextPart("x", provider_data={"gemini": {"keys": {"a": 1}}}), IMAGE),
    ],
)
def test_text_parts_whose_text_goes_elsewhere_keep_nothing(history: list[ChatMessage]) -> None:
    """A system part and a tool result's text part have no part of their own to replay kept keys on."""
    with pytest.raises(InvalidMessage, match=r"content\[0\]\.provider_data\.gemini\.keys"):
        gemini.to_request(history)


def test_a_model_turn_of_text_parts_with_kept_parts_sends_the_kept_parts() -> None:
    """With provider_data['gemini']['items'] the kept parts are the text; the text parts must say the same."""
    read = gemini.from_response(
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "a", "thoughtSignature": "c2ln"}]}}]}
    )
    turn = ChatMessage("assistant", [TextPart("a")], provider_data=read.provider_data)
    assert gemini.to_request([ASK, turn])["contents"][1] == {
        "role": "model",
        "parts": [{"text": "a", "thoughtSignature": "c2ln"}],
    }
    signed = ChatMessage(
        "assistant",
        [TextPart("a", provider_data={"gemini": {"keys": {"thoughtSignature": "eA=="}}})],
        provider_data=read.provider_data,
    )
    with pytest.raises(InvalidMessage, match=r"messages\[1\]\.content\[0\]\.provider_data\.gemini"):
        gemini.to_request([ASK, signed])


def test_only_message_errors_come_out_of_writing_parts() -> None:
    """A sanity check of the error class of every refusal above: each is a MessageError."""
    for _code, _rule, bad, _where, _good in CASES:
        with pytest.raises(MessageError):
            gemini.to_request(bad)


# -- SDK objects as parts --------------------------------------------------------------------


@ALL_DUMPS
def test_a_dumped_function_response_with_inline_bytes_reads_as_standard_base64(how: str) -> None:
    """FunctionResponseBlob's bytes (python mode) or URL-safe text (json mode) read as the standard base64."""
    written = gemini.to_request(with_result(TextPart("chart"), ImagePart(data=JPEG, media_type="image/jpeg")))
    dumped = sdk_request(written, how)
    part = dump(types.Content.model_validate(written["contents"][2]), how)["parts"][0]
    blob = part["function_response" if not how.endswith("alias") else "functionResponse"]["parts"][0]
    assert next(iter(blob.values()))["data"] != JPEG  # bytes, or URL-safe base64
    back = gemini.from_request(dumped)
    assert back == gemini.from_request(written)
    assert gemini.to_request(back) == written


def test_a_text_part_whose_other_keys_carry_nothing_is_plain_text() -> None:
    """An empty or null extra key keeps nothing, so the part reads as plain text; a signature makes it a TextPart."""
    assert gemini.from_request([user({"text": "a", "thoughtSignature": ""}, {"text": "b"})]) == [
        ChatMessage.user("a"),
        ChatMessage.user("b"),
    ]
    assert gemini.from_request([user({"text": "a", "thoughtSignature": "c2ln"}, {"text": "b"})]) == [
        ChatMessage.user(
            [TextPart("a", provider_data={"gemini": {"keys": {"thoughtSignature": "c2ln"}}}), TextPart("b")]
        )
    ]

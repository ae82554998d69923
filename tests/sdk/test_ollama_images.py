"""Images through the real ollama client.

toolturns builds the body, ``client.chat`` sends it over an ``httpx.MockTransport``
(the client wraps each image in its own ``Image`` model and sends it as base64
text), and toolturns reads the ``ChatResponse`` it gives back. The request and
the answer are Ollama's "Chat request (with images)" example
(``tests/data/ollama/images.json``).
"""

from __future__ import annotations

import base64
import json
from contextlib import closing
from typing import Any

import ollama as ollama_sdk

from tests.conftest import DATA
from tests.sdk.recorded import RecordedServer, json_reply
from toolturns import ChatMessage, ImagePart, TextPart, ToolCall, ollama

GOLDEN = json.loads((DATA / "ollama" / "images.json").read_text("utf-8"))
PIG = GOLDEN["request"]["messages"][0]["images"][0]
_MODEL = GOLDEN["request"]["model"]


def _client(server: RecordedServer) -> ollama_sdk.Client:
    return ollama_sdk.Client(host="http://ollama.test:11434", transport=server.httpx_transport())


def _chat(messages: list[Any]) -> tuple[dict[str, Any], ChatMessage]:
    """What the client sends for ``messages``, and the turn toolturns reads from its ChatResponse."""
    server = RecordedServer([json_reply(GOLDEN["response"])])
    with closing(_client(server)) as client:
        response = client.chat(model=_MODEL, messages=messages)
    [sent] = server.sent
    return sent, ollama.from_response(response)


def test_an_image_goes_through_the_ollama_client_as_the_documented_request() -> None:
    """toolturns' body for Ollama's example goes out as that example (the image's base64 text
    unchanged; the client adds an empty ``tools``), and the ChatResponse reads as the documented answer."""
    messages = ollama.from_request(GOLDEN["request"])
    assert messages == [
        ChatMessage.user([ImagePart(data=PIG, media_type="image/png"), TextPart("what is in this image?")])
    ]
    sent, turn = _chat(ollama.to_request(messages)["messages"])
    assert sent == {"model": _MODEL, "stream": False, "messages": GOLDEN["request"]["messages"], "tools": []}
    assert turn == ChatMessage.assistant(GOLDEN["response"]["message"]["content"])


def test_the_sdk_s_own_message_with_image_bytes_reads_as_an_image_part() -> None:
    """A ``Message`` built with the SDK's ``Image`` of raw bytes reads as the same parts, and the
    client sends it as it sends toolturns' body."""
    native = ollama_sdk.Message(
        role="user", content="what is in this image?", images=[ollama_sdk.Image(value=base64.b64decode(PIG))]
    )
    messages = ollama.from_request([native])
    assert messages == [
        ChatMessage.user([ImagePart(data=PIG, media_type="image/png"), TextPart("what is in this image?")])
    ]
    sent_native, _ = _chat([native])
    sent_toolturns, _ = _chat(ollama.to_request(messages)["messages"])
    assert sent_native == sent_toolturns


def test_a_screenshot_in_a_tool_result_goes_through_the_client() -> None:
    """A tool result's image travels on the tool message, beside its tool_name."""
    call = ToolCall("call_1", "screenshot")
    history = [
        ChatMessage.user("What is on my screen?"),
        ChatMessage.assistant_tool_calls([call]),
        ChatMessage.tool_result(
            call.id, [ImagePart(data=PIG, media_type="image/png"), TextPart("the screen")]
        ),
    ]
    sent, _ = _chat(ollama.to_request(history)["messages"])
    assert sent["messages"][2] == {
        "role": "tool",
        "content": "the screen",
        "images": [PIG],
        "tool_name": "screenshot",
    }
    # The client's models have no call ids (it leaves them out): the result is matched by name.
    assert ollama.from_request(sent)[2].content == history[2].content

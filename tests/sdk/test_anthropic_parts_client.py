"""A tool result with an image, through the real anthropic client.

The model (the recorded responses of ``tests/data/sdk/anthropic.json``) asks for
the weather; the tool answers with text and a chart (a PNG). toolturns builds
the body, ``client.messages.create`` sends it over an ``httpx2.MockTransport``,
and what goes over the wire is the image block inside the tool_result, as
Anthropic's docs write it, which reads back to the same history.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import httpx2
import pydantic
from anthropic import Anthropic
from anthropic import types as anthropic_types

from tests.sdk.recorded import RecordedServer, json_reply, recorded
from tests.sdk.test_anthropic_client import _MAX_TOKENS, _MODEL, _PROMPT, _WEATHER
from toolturns import ChatMessage, ImagePart, TextPart, anthropic

# A chart: the PNG signature and an IHDR chunk's start (what Anthropic reads the format from).
_CHART = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10").decode()
_MESSAGE = pydantic.TypeAdapter(anthropic_types.MessageParam, config=pydantic.ConfigDict(extra="forbid"))


def test_a_tool_result_with_an_image_goes_through_the_anthropic_client() -> None:
    """The SDK sends toolturns' body unchanged: the result's image is an image block inside the
    tool_result, the SDK's own request type accepts it, and the body reads back to the history."""
    responses = recorded("anthropic", "loop")
    server = RecordedServer(json_reply(response) for response in responses)
    client = Anthropic(
        api_key="test",
        base_url="http://anthropic.test",
        max_retries=0,
        http_client=httpx2.Client(transport=server.httpx2_transport()),
    )
    history = [ChatMessage.user(_PROMPT)]
    with client:
        turn = anthropic.from_response(
            client.messages.create(
                model=_MODEL, max_tokens=_MAX_TOKENS, **anthropic.to_request(history, tools=[_WEATHER])
            )
        )
        assert turn.tool_calls is not None
        (call,) = turn.tool_calls
        result = ChatMessage.tool_result(
            call.id, [TextPart("68°F and sunny; the chart:"), ImagePart(data=_CHART, media_type="image/png")]
        )
        history += [turn, result]
        body = anthropic.to_request(history, tools=[_WEATHER])
        answer = anthropic.from_response(client.messages.create(model=_MODEL, max_tokens=_MAX_TOKENS, **body))

    assert server.sent[1] == {"model": _MODEL, "max_tokens": _MAX_TOKENS, **body}
    assert server.sent[1]["messages"][2] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": call.id,
                "content": [
                    {"type": "text", "text": "68°F and sunny; the chart:"},
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": _CHART},
                    },
                ],
            }
        ],
    }
    for message in server.sent[1]["messages"]:
        _walk(_MESSAGE.validate_python(message))
    assert anthropic.from_request(server.sent[1]) == history
    assert answer.text.startswith("I apologize")


def _walk(value: Any) -> None:
    """Walk a validated value: the SDK's ``Iterable`` fields are checked only as they are iterated."""
    if isinstance(value, dict):
        for item in value.values():
            _walk(item)
    elif isinstance(value, (list, tuple, Iterator)):
        for item in value:
            _walk(item)

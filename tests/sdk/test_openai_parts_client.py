"""Content parts through the real openai client: a tool that returns an image, and a user image.

The client is openai's own over an ``httpx2.MockTransport`` answering with
the responses OpenAI gave in a recorded loop whose tool returns an image
(``tests/data/openai/image_tool_loop.json``). OpenAI's tool messages carry
text only, so the loop sends with ``tool_parts_to_user=True``, as the
recorded requests did: the image goes in a user message after the results.
"""

from __future__ import annotations

import json
from typing import Any

import pydantic
from openai.types.chat import ChatCompletionMessageParam

from tests.conftest import DATA
from tests.sdk.recorded import RecordedServer, json_reply, openai_client
from toolturns import ChatMessage, ImagePart, TextPart, Tool, openai
from toolturns.providers.openai.write import MOVED_PARTS

_LOOP: dict[str, Any] = json.loads((DATA / "openai" / "image_tool_loop.json").read_text("utf-8"))
_MODEL = "gpt-4o"
_GET_IMAGE = Tool("get_image", parameters={"type": "object", "properties": {}, "additionalProperties": False})
_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
_MESSAGES = pydantic.TypeAdapter(list[ChatCompletionMessageParam])


def _valid_for_the_sdk(messages: list[dict[str, Any]]) -> None:
    # The SDK's message parts are an Iterable, which pydantic checks as it is iterated.
    for message in _MESSAGES.validate_python(messages):
        content = message.get("content")
        if content is not None and not isinstance(content, str):
            list(content)


def test_a_tool_that_returns_an_image_through_the_openai_client() -> None:
    """The model calls the tool, the tool's image goes to the next request in a user message
    after the results, and the model's answer reads back; what the client sent is the body."""
    server = RecordedServer(json_reply(response) for response in _LOOP["responses"])
    history = [ChatMessage.user([TextPart(_LOOP["prompt"])])]
    bodies = []
    with openai_client(server) as client:
        for _ in _LOOP["responses"]:
            body = openai.to_request(history, tools=[_GET_IMAGE], tool_parts_to_user=True)
            bodies.append(body)
            turn = openai.from_response(client.chat.completions.create(model=_MODEL, **body))
            history.append(turn)
            for call in turn.tool_calls or ():
                history.append(ChatMessage.tool_result(call.id, [ImagePart(url=_LOOP["image_url"])]))

    assert server.sent == [{"model": _MODEL, **body} for body in bodies]
    assert history[1].tool_calls is not None
    (call,) = history[1].tool_calls
    assert (call.id, call.name) == ("call_SY4nJzPqIcu9XbctxNUfIwyo", "get_image")
    assert server.sent[1]["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": _LOOP["prompt"]}]},
        history[1].to_wire(),
        {"role": "tool", "content": MOVED_PARTS, "tool_call_id": call.id},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": _LOOP["image_url"]}}]},
    ]
    _valid_for_the_sdk(server.sent[1]["messages"])
    assert history[-1] == ChatMessage.assistant("The image shows a potato.")
    # The history kept holds the image where the tool returned it.
    assert history[2].content == (ImagePart(url=_LOOP["image_url"]),)


def test_a_user_image_through_the_openai_client_is_sent_byte_for_byte() -> None:
    """A base64 image with its detail goes through the client as the data URL it was read from."""
    server = RecordedServer([json_reply(_LOOP["responses"][1])])
    url = f"data:image/png;base64,{_PNG}"
    native = {
        "role": "user",
        "content": [
            {"type": "text", "text": "What food is in this image?"},
            {"type": "image_url", "image_url": {"url": url, "detail": "low"}},
        ],
    }
    history = openai.from_request([native])
    assert history[0].content[1] == ImagePart(data=_PNG, media_type="image/png", detail="low")
    with openai_client(server) as client:
        answer = openai.from_response(
            client.chat.completions.create(model=_MODEL, **openai.to_request(history))
        )
    assert server.sent == [{"model": _MODEL, "messages": [native]}]
    _valid_for_the_sdk(server.sent[0]["messages"])
    assert answer.text == "The image shows a potato."

"""A recorded server for the official SDKs' clients, and the tool loop the tests run through them.

Each test builds an SDK's own client over an httpx ``MockTransport`` whose
handler is a ``RecordedServer``: it keeps the JSON body of every request the
client sends and answers with the next response recorded from the provider
(``tests/data/sdk/<provider>.json`` says where each comes from). No socket is
opened and no SDK is patched: what the tests see is what the client does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import httpx2
from openai import OpenAI

from tests.conftest import DATA, wire_examples
from toolturns import ChatMessage, Tool
from toolturns.providers import Codec
from toolturns.providers._stream import Assembler

# A loop that has not ended after this many requests is a broken test, not a long conversation.
_MAX_REQUESTS = 5


@dataclass(frozen=True, slots=True)
class Reply:
    """One recorded answer, as it goes over the wire."""

    content_type: str
    body: bytes
    status: int = 200


def json_reply(body: object) -> Reply:
    return Reply("application/json", json.dumps(body).encode())


def sse_reply(items: Iterable[Mapping[str, Any]], *, done: bool = False, separator: str = "\n\n") -> Reply:
    """Server-sent events: an item is ``{"event", "data"}`` (Anthropic names its events) or the data itself.

    ``done`` ends the stream with OpenAI's ``data: [DONE]``; Gemini separates
    its events with ``\\r\\n\\r\\n``.
    """
    lines = []
    for item in items:
        if "event" in item and "data" in item:
            lines.append(f"event: {item['event']}\ndata: {json.dumps(item['data'])}{separator}")
        else:
            lines.append(f"data: {json.dumps(item)}{separator}")
    if done:
        lines.append(f"data: [DONE]{separator}")
    return Reply("text/event-stream", "".join(lines).encode())


def ndjson_reply(items: Iterable[object]) -> Reply:
    """Ollama's stream: one JSON object a line."""
    return Reply("application/x-ndjson", "".join(json.dumps(item) + "\n" for item in items).encode())


def recorded(provider: str, loop: str) -> list[Any]:
    """The responses of one recorded loop, with the wire examples they name read in."""
    data: dict[str, Any] = json.loads((DATA / "sdk" / f"{provider}.json").read_text("utf-8"))
    examples = {example["id"]: example["data"] for example in wire_examples(provider)}
    return [
        examples[response["wire_example"]]
        if isinstance(response, dict) and "wire_example" in response
        else response
        for response in data[loop]["responses"]
    ]


def stream_data(items: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """What each SSE event's ``data:`` decodes to: what a caller without an SDK feeds."""
    return [item["data"] if "event" in item and "data" in item else item for item in items]


class RecordedServer:
    """Answers each request with the next recorded reply and keeps the JSON body each request sent."""

    def __init__(self, replies: Iterable[Reply]) -> None:
        self.sent: list[dict[str, Any]] = []
        self.urls: list[str] = []
        self._replies = iter(replies)

    def _answer(self, url: str, content: bytes) -> Reply:
        self.urls.append(url)
        self.sent.append(json.loads(content))
        reply = next(self._replies, None)
        if reply is None:
            raise AssertionError(f"request {len(self.sent)} ({url}): no recorded reply left")
        return reply

    def httpx2_transport(self) -> httpx2.MockTransport:
        """For openai 3, anthropic 2 and google-genai 3, which send through ``httpx2``."""

        def handle(request: httpx2.Request) -> httpx2.Response:
            reply = self._answer(str(request.url), request.content)
            return httpx2.Response(
                reply.status, headers={"content-type": reply.content_type}, content=reply.body
            )

        return httpx2.MockTransport(handle)

    def httpx_transport(self) -> httpx.MockTransport:
        """For ollama, which sends through the classic ``httpx``."""

        def handle(request: httpx.Request) -> httpx.Response:
            reply = self._answer(str(request.url), request.content)
            return httpx.Response(
                reply.status, headers={"content-type": reply.content_type}, content=reply.body
            )

        return httpx.MockTransport(handle)


@dataclass
class Loop:
    """What a tool loop did: the body toolturns built for each request, and the turn read from each answer."""

    bodies: list[dict[str, Any]] = field(default_factory=list)
    turns: list[ChatMessage] = field(default_factory=list)


def tool_loop(
    codec: Codec,
    history: list[ChatMessage],
    tools: Sequence[Tool],
    functions: Mapping[str, Callable[..., str]],
    ask: Callable[[dict[str, Any]], ChatMessage],
) -> Loop:
    """Asks until the model answers without calls, running each call it makes.

    ``ask`` sends a body through the SDK's client and reads the model's turn
    from what the client gives back; the turn and the results go on the history.
    """
    loop = Loop()
    for _ in range(_MAX_REQUESTS):
        body = codec.to_request(history, tools=tools)
        loop.bodies.append(body)
        turn = ask(body)
        loop.turns.append(turn)
        history.append(turn)
        if not turn.tool_calls:
            return loop
        history.extend(results(turn, functions))
    raise AssertionError(f"no answer without calls after {_MAX_REQUESTS} requests")


def results(turn: ChatMessage, functions: Mapping[str, Callable[..., str]]) -> list[ChatMessage]:
    """One result per call, in order: what the function returned, or the error it raised."""
    answers = []
    for call in turn.tool_calls or ():
        try:
            answers.append(ChatMessage.tool_result(call.id, functions[call.name](**call.arguments)))
        except Exception as error:  # the model reads what went wrong, as the SDKs' tool runners do
            answers.append(ChatMessage.tool_result(call.id, repr(error), is_error=True))
    return answers


def assembled(codec: Codec, items: Iterable[object]) -> Assembler:
    """A stream assembler fed every item."""
    stream = codec.StreamAssembler()
    for item in items:
        stream.feed(item)
    return stream


def openai_client(server: RecordedServer) -> OpenAI:
    """The openai SDK's client over ``server`` (Chat Completions and Responses alike)."""
    # No retries: a failed request fails the test instead of being sent again.
    return OpenAI(
        api_key="test",
        base_url="http://openai.test/v1",
        max_retries=0,
        http_client=httpx2.Client(transport=server.httpx2_transport()),
    )

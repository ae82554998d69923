"""A complete tool loop through the real google-genai client.

toolturns builds each body; ``client.models.generate_content`` sends it, the
contents as ``contents=`` and the rest (``systemInstruction``, ``tools``) as
``config=``; toolturns reads the ``GenerateContentResponse`` objects the client
gives back. The client is google-genai's own over an ``httpx2.MockTransport``
(google-genai takes an ``httpx2.Client`` or an ``httpx.Client`` and sends with
the package of the one it is given) answering with responses recorded from
Gemini (``tests/data/sdk/gemini.json``).

google-genai reads the contents and the config into its pydantic models and
sends their dump, so what it sends differs from toolturns' body in three
documented ways (docs/sdks.md): ``sent_by_google_genai`` applies them.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import httpx2
from google import genai
from google.genai import types

from tests.sdk.recorded import RecordedServer, assembled, json_reply, recorded, sse_reply, tool_loop
from toolturns import ChatMessage, Tool, Toolbox, check_transcript, gemini, run_loop

# The prompts, tools and function responses of the recorded requests.
_THEATERS = Tool(
    "find_theaters",
    "find theaters based on location and optionally movie title which are is currently playing in theaters",
    {
        "type": "object",
        "properties": {
            "location": {
                "type": "string",
                "description": "The city and state, e.g. San Francisco, CA or a zip code e.g. 95616",
            },
            "movie": {"type": "string", "description": "Any movie title"},
        },
        "required": ["location"],
    },
)
_SHOWING = {
    "movie": "Barbie",
    "theaters": [
        {"name": "AMC Mountain View 16", "address": "2000 W El Camino Real, Mountain View, CA 94040"},
        {"name": "Regal Edwards 14", "address": "245 Castro St, Mountain View, CA 94040"},
    ],
}
_COUNTRY = Tool("get_country", parameters={"type": "object", "properties": {}})
_FUNCTIONS: dict[str, Callable[..., str]] = {
    "find_theaters": lambda location, movie: json.dumps({"name": "find_theaters", "content": _SHOWING}),
    "get_country": lambda: "Mexico",
}


def _client(server: RecordedServer) -> genai.Client:
    return genai.Client(
        api_key="test",
        http_options=types.HttpOptions(
            base_url="http://gemini.test", httpx_client=httpx2.Client(transport=server.httpx2_transport())
        ),
    )


def _config(body: dict[str, Any]) -> types.GenerateContentConfig:
    """Everything of toolturns' body but the contents: ``systemInstruction`` and ``tools``."""
    return types.GenerateContentConfig.model_validate(
        {key: value for key, value in body.items() if key != "contents"}
    )


def sent_by_google_genai(body: dict[str, Any]) -> dict[str, Any]:
    """toolturns' body as google-genai puts it on the wire (docs/sdks.md says why).

    - an empty ``generationConfig`` is added: the config's generation fields
      (none here) go there;
    - the ``type`` of every schema under ``parameters`` is spelled as its enum
      ``Type`` (``"object"`` as ``"OBJECT"``); a ``parametersJsonSchema`` goes
      as it is, under its proto name ``parameters_json_schema``;
    - ``thoughtSignature``, bytes in its model, goes as URL-safe base64.
    """
    sent: dict[str, Any] = json.loads(json.dumps(body))
    sent["generationConfig"] = {}
    for tool in sent.get("tools", []):
        for declaration in tool.get("functionDeclarations", []):
            if "parameters" in declaration:
                _type_as_enum(declaration["parameters"])
            if "parametersJsonSchema" in declaration:
                declaration["parameters_json_schema"] = declaration.pop("parametersJsonSchema")
    for content in sent["contents"]:
        for part in content["parts"]:
            if "thoughtSignature" in part:
                signature = base64.b64decode(part["thoughtSignature"], altchars=b"-_")
                part["thoughtSignature"] = base64.urlsafe_b64encode(signature).decode()
    return sent


def _type_as_enum(schema: dict[str, Any]) -> None:
    """The schemas of these tests: a type, and properties."""
    schema["type"] = schema["type"].upper()
    for property_schema in schema.get("properties", {}).values():
        _type_as_enum(property_schema)


def test_a_tool_loop_through_the_google_genai_client() -> None:
    """The body goes as ``contents=`` and ``config=``; the GenerateContentResponse reads back without a dump."""
    responses = recorded("gemini", "loop")
    server = RecordedServer(json_reply(response) for response in responses)
    history = [ChatMessage.user("Which theaters in Mountain View show Barbie movie?")]
    with _client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            response = client.models.generate_content(
                model="gemini-pro", contents=body["contents"], config=_config(body)
            )
            return gemini.from_response(response)

        loop = tool_loop(gemini, history, [_THEATERS], _FUNCTIONS, ask)

    assert server.sent == [sent_by_google_genai(body) for body in loop.bodies]
    assert loop.turns == [gemini.from_response(response) for response in responses]
    assert loop.turns[0].tool_calls is not None
    (call,) = loop.turns[0].tool_calls
    assert (call.name, call.arguments) == (
        "find_theaters",
        {"movie": "Barbie", "location": "Mountain View, CA"},
    )
    # The function response goes as the cookbook's request sent it (in a user
    # turn: the cookbook's role "function" is the older spelling).
    assert server.sent[1]["contents"][2] == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": "find_theaters",
                    "response": {"name": "find_theaters", "content": _SHOWING},
                }
            }
        ],
    }
    assert loop.turns[-1] == ChatMessage.assistant(
        "OK. I found two theaters in Mountain View that are showing the Barbie movie: "
        "AMC Mountain View 16 and Regal Edwards 14."
    )


def test_a_streamed_tool_loop_through_the_google_genai_client() -> None:
    """``generate_content_stream``'s chunks assemble to the turn their JSON assembles to, signature included."""
    streams = recorded("gemini", "stream_loop")
    server = RecordedServer(sse_reply(chunks, separator="\r\n\r\n") for chunks in streams)
    history = [ChatMessage.user("What is the capital of the user country? Call the tool")]
    usages = []
    with _client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            chunks = client.models.generate_content_stream(
                model="gemini-3-pro-preview", contents=body["contents"], config=_config(body)
            )
            stream = assembled(gemini, chunks)
            usages.append(stream.usage)
            return stream.message()

        loop = tool_loop(gemini, history, [_COUNTRY], _FUNCTIONS, ask)

    assert [url.rsplit("/", 1)[-1] for url in server.urls] == [
        "gemini-3-pro-preview:streamGenerateContent?alt=sse"
    ] * 2
    assert server.sent == [sent_by_google_genai(body) for body in loop.bodies]
    (signed,) = streams[0][0]["candidates"][0]["content"]["parts"]
    # The call goes back on its part with its signature: the same bytes.
    assert server.sent[1]["contents"][1] == {
        "role": "model",
        "parts": [
            {
                "functionCall": {"name": "get_country", "args": {}},
                "thoughtSignature": _url_safe(signed["thoughtSignature"]),
            }
        ],
    }
    assert server.sent[1]["contents"][2] == {
        "role": "user",
        "parts": [{"functionResponse": {"name": "get_country", "response": {"result": "Mexico"}}}],
    }
    assert loop.turns[-1].content == "The capital of Mexico is Mexico City."
    from_the_wire = [assembled(gemini, chunks) for chunks in streams]
    assert usages == [stream.usage for stream in from_the_wire]
    assert loop.turns == [stream.message() for stream in from_the_wire]


def _url_safe(signature: str) -> str:
    return base64.urlsafe_b64encode(base64.b64decode(signature)).decode()


def test_run_loop_through_the_google_genai_client() -> None:
    """run_loop over the client sends the hand-written loop's requests and gives its history."""
    start = [ChatMessage.user("Which theaters in Mountain View show Barbie movie?")]
    by_hand = RecordedServer(json_reply(response) for response in recorded("gemini", "loop"))
    history = list(start)

    def send(client: genai.Client, body: dict[str, Any]) -> types.GenerateContentResponse:
        return client.models.generate_content(
            model="gemini-pro", contents=body["contents"], config=_config(body)
        )

    with _client(by_hand) as client:
        tool_loop(
            gemini, history, [_THEATERS], _FUNCTIONS, lambda body: gemini.from_response(send(client, body))
        )
    server = RecordedServer(json_reply(response) for response in recorded("gemini", "loop"))
    with _client(server) as client:
        result = run_loop(
            lambda body: send(client, body),
            start,
            Toolbox((_THEATERS, _FUNCTIONS["find_theaters"])),
            codec=gemini,
        )

    assert server.sent == by_hand.sent
    assert result == history
    assert check_transcript(result, target="gemini") == []

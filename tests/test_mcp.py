"""toolturns.mcp: MCP tools and tool results, from dicts and from a real MCP server (the mcp SDK)."""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import mcp_types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.data import mcp_server
from toolturns import (
    AudioPart,
    ChatMessage,
    FilePart,
    ImagePart,
    InvalidMessage,
    InvalidTool,
    TextPart,
    Tool,
    ToolCall,
    anthropic,
    arun_calls,
    arun_loop,
    check_transcript,
    gemini,
    mcp,
    openai,
    responses,
)
from toolturns.providers import PROVIDERS

PNG = base64.b64encode(mcp_server.PNG).decode()
WAV = base64.b64encode(mcp_server.WAV).decode()
PDF = base64.b64encode(mcp_server.PDF).decode()
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
CODECS = tuple(provider.codec for provider in PROVIDERS.values())

T = TypeVar("T")


def result(*blocks: dict[str, Any], **keys: Any) -> dict[str, Any]:
    """A CallToolResult dict of ``blocks``."""
    return {"content": list(blocks), **keys}


def text(value: str, **keys: Any) -> dict[str, Any]:
    return {"type": "text", "text": value, **keys}


def refused(error: type[Exception], call: Callable[[], object]) -> str:
    """The message of the error ``call`` raises."""
    with pytest.raises(error) as raised:
        call()
    return str(raised.value)


# -- tool: a tools/list entry ---------------------------------------------------------------


def test_a_listed_tool_keeps_its_name_description_and_input_schema() -> None:
    tool = mcp.tool({"name": "get_weather", "description": "Current weather", "inputSchema": SCHEMA})
    assert tool == Tool("get_weather", "Current weather", SCHEMA)


def test_every_mcp_key_beyond_the_schema_is_kept_in_extra() -> None:
    """title, annotations, outputSchema, icons, execution and _meta: nothing is dropped."""
    keys = {
        "title": "Weather",
        "annotations": {"readOnlyHint": True, "title": "Weather now"},
        "outputSchema": {"type": "object", "properties": {"degrees": {"type": "integer"}}},
        "icons": [{"src": "https://example.com/sun.png", "mimeType": "image/png"}],
        "execution": {"taskSupport": "optional"},
        "_meta": {"example.com/owner": "weather-team"},
    }
    tool = mcp.tool({"name": "get_weather", "inputSchema": SCHEMA, **keys})
    assert dict(tool.extra) == keys


def test_a_definition_that_is_not_an_object_is_refused() -> None:
    assert refused(InvalidTool, lambda: mcp.tool(["get_weather"])) == "must be an object, got list"


def test_a_definition_without_input_schema_is_refused() -> None:
    """MCP's Tool requires inputSchema: one without it is not a tools/list entry."""
    message = refused(InvalidTool, lambda: mcp.tool({"name": "get_time", "inputSchema": None}))
    assert message.startswith("inputSchema: is required (MCP: 'A JSON Schema object defining")


def test_an_input_schema_that_is_no_json_schema_is_refused_where_it_breaks() -> None:
    """A server's generated schema with a null ``required`` (OpenAI: "None is not of type 'array'"): refused at its key."""
    definition = {"name": "get_time", "inputSchema": {"type": "object", "properties": {}, "required": None}}
    message = refused(InvalidTool, lambda: mcp.tool(definition))
    assert message == "inputSchema.required: must be an array of strings, got None"
    with pytest.raises(InvalidTool, match=r"^\[1\]\.inputSchema\.required: must be an array of strings"):
        mcp.toolbox([{"name": "a", "inputSchema": SCHEMA}, definition], lambda name, arguments: {})


def test_a_whole_list_tools_result_is_refused_saying_to_read_each_tool() -> None:
    listed = {"tools": [{"name": "get_time", "inputSchema": SCHEMA}], "nextCursor": "page-2"}
    message = refused(InvalidTool, lambda: mcp.tool(listed))
    assert message.startswith("must be one tools/list entry, not the whole ListToolsResult: ")


@pytest.mark.parametrize("key", ["parameters", "input_schema", "function", "strict", "type"])
def test_a_key_of_another_tool_shape_is_refused_not_read(key: str) -> None:
    """Tool.from_dict would read an OpenAI or Anthropic definition; mcp.tool reads MCP's only."""
    definition = {"name": "get_time", "inputSchema": SCHEMA, key: {"type": "object"}}
    message = refused(InvalidTool, lambda: mcp.tool(definition))
    assert message.startswith(f"{key}: is not a key of an MCP tool (its schema is inputSchema)")


def test_an_input_schema_that_is_not_an_object_schema_is_located_under_its_mcp_name() -> None:
    message = refused(InvalidTool, lambda: mcp.tool({"name": "f", "inputSchema": {"type": "array"}}))
    assert message.startswith("inputSchema.type: must be 'object'")


# -- tool_result: the content blocks ---------------------------------------------------------


def test_a_lone_text_block_is_the_plain_string() -> None:
    assert mcp.tool_result("call_1", result(text("18 degrees"))) == ChatMessage.tool_result(
        "call_1", "18 degrees"
    )


def test_no_content_block_is_an_empty_result() -> None:
    assert mcp.tool_result("call_1", result()) == ChatMessage.tool_result("call_1", "")


def test_several_text_blocks_stay_parts_not_joined() -> None:
    message = mcp.tool_result("call_1", result(text("18 degrees"), text("sunny")))
    assert message.content == (TextPart("18 degrees"), TextPart("sunny"))


def test_a_text_blocks_annotations_and_meta_are_kept_in_its_provider_data() -> None:
    block = text("18 degrees", annotations={"audience": ["user"], "priority": 0.5}, _meta={"k": 1})
    message = mcp.tool_result("call_1", result(block))
    assert message.content == (
        TextPart(
            "18 degrees", provider_data={"mcp": {"annotations": block["annotations"], "_meta": {"k": 1}}}
        ),
    )


def test_an_image_block_is_an_image_part() -> None:
    message = mcp.tool_result("call_1", result({"type": "image", "data": PNG, "mimeType": "image/png"}))
    assert message.content == (ImagePart(data=PNG, media_type="image/png"),)


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ({"type": "image", "mimeType": "image/png"}, "content[0].data: is required"),
        ({"type": "image", "data": PNG}, "content[0].mimeType: is required with data"),
        ({"type": "image", "data": PNG, "mimeType": "text/plain"}, "content[0].mimeType: must be an image/*"),
        (
            {"type": "image", "data": "not base64!", "mimeType": "image/png"},
            "content[0].data: must be base64",
        ),
        ({"type": "audio", "data": WAV}, "content[0].mimeType: must be audio/<format>"),
        (
            {"type": "audio", "data": WAV, "mimeType": "audio/x-m4a"},
            "content[0].mimeType: must be audio/<format>",
        ),
        (
            {"type": "audio", "data": WAV, "mimeType": "video/mp4"},
            "content[0].mimeType: must be audio/<format>",
        ),
        ({"type": "video", "data": WAV}, "content[0].type: must be one of MCP's content blocks ('text', "),
        ({"text": "no type"}, "content[0].type: must be one of MCP's content blocks"),
        ({"type": "text"}, "content[0].text: must be a string, got None"),
        ({"type": "resource"}, "content[0].resource: is required"),
        ({"type": "resource", "resource": "file:///a"}, "content[0].resource: must be an object"),
        (
            {"type": "resource", "resource": {"uri": "file:///a"}},
            "content[0].resource: must have exactly one of",
        ),
        (
            {"type": "resource", "resource": {"uri": "file:///a", "text": "a", "blob": PDF}},
            "content[0].resource: must have exactly one of text and blob, got both",
        ),
        (
            {"type": "resource", "resource": {"uri": "file:///a", "blob": PDF}},
            "content[0].resource.mimeType: is required with data",
        ),
        (
            {
                "type": "resource",
                "resource": {"uri": "file:///a", "blob": "%%%%", "mimeType": "application/pdf"},
            },
            "content[0].resource.blob: must be base64",
        ),
        ({"type": "resource_link", "name": "a.csv"}, "content[0].uri: must be a non-empty string"),
        ({"type": "resource_link", "uri": "file:///a.csv"}, "content[0].name: must be a non-empty string"),
        ("just text", "content[0]: must be an object, got 'just text'"),
    ],
)
def test_a_block_that_is_not_mcps_is_refused_where_it_is(block: Any, expected: str) -> None:
    message = refused(InvalidMessage, lambda: mcp.tool_result("call_1", result(text("ok"), block)))
    assert message.startswith(expected.replace("content[0]", "content[1]")), message


@pytest.mark.parametrize(
    ("mime_type", "short", "kept"),
    [
        ("audio/wav", "wav", None),
        ("audio/mpeg", "mp3", {"mcp": {"mimeType": "audio/mpeg"}}),
        ("audio/x-wav", "wav", {"mcp": {"mimeType": "audio/x-wav"}}),
        ("audio/ogg", "ogg", None),
        ("Audio/WAV", "wav", {"mcp": {"mimeType": "Audio/WAV"}}),
    ],
)
def test_an_audio_block_is_an_audio_part_its_media_type_kept_where_the_format_does_not_say_it(
    mime_type: str, short: str, kept: Any
) -> None:
    message = mcp.tool_result("call_1", result({"type": "audio", "data": WAV, "mimeType": mime_type}))
    assert message.content == (AudioPart(data=WAV, format=short, provider_data=kept),)


def test_an_embedded_text_resource_is_its_text_its_uri_kept() -> None:
    resource = {"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "Sunny."}
    block = {"type": "resource", "resource": resource, "annotations": {"priority": 1}}
    message = mcp.tool_result("call_1", result(block))
    kept = {"type": "resource", "resource": {"uri": "file:///notes.txt", "mimeType": "text/plain"}}
    assert message.content == (
        TextPart("Sunny.", provider_data={"mcp": {"annotations": {"priority": 1}, **kept}}),
    )


BlobPart = Callable[[dict[str, Any]], Any]


@pytest.mark.parametrize(
    ("mime_type", "data", "part"),
    [
        (
            "application/pdf",
            PDF,
            lambda kept: FilePart(data=PDF, media_type="application/pdf", filename="r", provider_data=kept),
        ),
        ("image/png", PNG, lambda kept: ImagePart(data=PNG, media_type="image/png", provider_data=kept)),
        ("audio/wav", WAV, lambda kept: AudioPart(data=WAV, format="wav", provider_data=kept)),
    ],
)
def test_an_embedded_blob_is_the_part_its_media_type_says(mime_type: str, data: str, part: BlobPart) -> None:
    resource = {"uri": "file:///r", "mimeType": mime_type, "blob": data}
    message = mcp.tool_result("call_1", result({"type": "resource", "resource": resource}))
    kept = {"mcp": {"type": "resource", "resource": {"uri": "file:///r", "mimeType": mime_type}}}
    assert message.content == (part(kept),)


@pytest.mark.parametrize(
    ("uri", "filename"),
    [
        ("file:///report/report.pdf", "report.pdf"),
        ("https://example.com/files/Q3%20report.pdf?v=2#page=1", "Q3 report.pdf"),
        ("https://example.com/", None),
        ("test://report", None),
        ("http://[::1/report.pdf", None),
        (None, None),
    ],
)
def test_an_embedded_files_name_is_the_last_segment_of_its_uri(uri: Any, filename: Any) -> None:
    """OpenAI needs a filename beside a file's data: the uri's path names the file (the uri is kept)."""
    resource = {"uri": uri, "mimeType": "application/pdf", "blob": PDF}
    content = mcp.tool_result("call_1", result({"type": "resource", "resource": resource})).content
    assert isinstance(content, tuple)
    (part,) = content
    assert isinstance(part, FilePart)
    assert part.filename == filename


def test_a_resource_link_is_its_json_text_and_is_kept_whole() -> None:
    """The model is told of the link in the server's words; the client finds it in provider_data."""
    link = {"type": "resource_link", "uri": "file:///data.csv", "name": "data.csv", "mimeType": "text/csv"}
    message = mcp.tool_result("call_1", result(link))
    assert isinstance(message.content, tuple)
    (part,) = message.content
    assert isinstance(part, TextPart)
    assert json.loads(part.text) == link
    assert part.provider_data == {"mcp": link}


def test_values_that_carry_nothing_are_not_kept() -> None:
    """A model_dump() without exclude_none has None for every absent field: nothing to keep."""
    block = text("18 degrees", annotations=None, _meta=None)
    assert mcp.tool_result("call_1", result(block, _meta=None)).content == "18 degrees"


# -- tool_result: the result's own keys ------------------------------------------------------


def test_is_error_is_the_results_is_error() -> None:
    message = mcp.tool_result("call_1", result(text("no such city"), isError=True))
    assert message == ChatMessage.tool_result("call_1", "no such city", is_error=True)
    assert not mcp.tool_result("call_1", result(text("ok"), isError=False)).is_error


def test_an_is_error_that_is_not_a_boolean_is_refused() -> None:
    message = refused(InvalidMessage, lambda: mcp.tool_result("call_1", result(isError="yes")))
    assert message == "isError: must be a boolean, got 'yes'"


def test_structured_content_and_meta_are_kept_in_the_messages_provider_data() -> None:
    """The text block the model reads says the same (the SDK's way); the value stays for programs."""
    structured = {"city": "Paris", "degrees": 18}
    given = result(text(json.dumps(structured)), structuredContent=structured, _meta={"trace": "t1"})
    message = mcp.tool_result("call_1", given)
    assert message.content == json.dumps(structured)
    assert message.provider_data == {"mcp": {"structuredContent": structured, "_meta": {"trace": "t1"}}}


def test_structured_content_alone_is_the_content_as_json_text() -> None:
    message = mcp.tool_result("call_1", result(structuredContent={"degrees": 18}))
    assert message.content == '{"degrees":18}'
    assert message.provider_data == {"mcp": {"structuredContent": {"degrees": 18}}}


def test_structured_content_that_is_not_an_object_is_refused() -> None:
    message = refused(InvalidMessage, lambda: mcp.tool_result("call_1", result(structuredContent=[18])))
    assert message.startswith("structuredContent: must be an object (MCP: 'An optional JSON object")


def test_a_complete_result_type_is_read_and_any_other_refused() -> None:
    """The 2026-07-28 revision's resultType: only a final result answers a call."""
    assert mcp.tool_result("call_1", result(text("ok"), resultType="complete")).content == "ok"
    message = refused(InvalidMessage, lambda: mcp.tool_result("call_1", result(resultType="input_required")))
    assert message.startswith("resultType: must be 'complete' or absent")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"structuredContent": {"degrees": 18}}, "content: is required, a list of content blocks (MCP: "),
        ({"content": "18 degrees"}, "content: is required, a list of content blocks"),
        ("18 degrees", "must be an object, got '18 degrees'"),
        (result(text("ok"), _meta={"when": {1, 2}}), "_meta.when: must be JSON"),
    ],
)
def test_a_result_that_is_not_mcps_is_refused(given: Any, expected: str) -> None:
    message = refused(InvalidMessage, lambda: mcp.tool_result("call_1", given))
    assert message.startswith(expected), message


def test_the_tool_call_id_is_checked_as_every_tool_results() -> None:
    message = refused(InvalidMessage, lambda: mcp.tool_result("", result(text("ok"))))
    assert message.startswith("tool_call_id: ")


# -- what the codecs do with the results -----------------------------------------------------


def exchange(answer: ChatMessage, name: str = "screenshot") -> list[ChatMessage]:
    return [ChatMessage.user("Go"), ChatMessage.assistant_tool_calls([ToolCall("call_1", name)]), answer]


@pytest.mark.parametrize("codec", CODECS, ids=lambda codec: codec.__name__)
def test_no_codec_sends_or_refuses_what_mcp_kept(codec: Any) -> None:
    """provider_data["mcp"] is another wire's data: kept on the value, never in a request body."""
    given = result(
        text("18 degrees", annotations={"audience": ["assistant"]}),
        structuredContent={"degrees": 18},
        _meta={"trace": "t1"},
    )
    history = exchange(mcp.tool_result("call_1", given))
    body = json.dumps(codec.to_request(history))
    assert "18 degrees" in body
    assert not any(word in body for word in ("mcp", "structuredContent", "trace", "audience"))


def test_an_image_result_is_native_on_anthropic_and_responses_and_moved_on_openai_when_asked() -> None:
    image = mcp.tool_result("call_1", result({"type": "image", "data": PNG, "mimeType": "image/png"}))
    history = exchange(image)
    assert anthropic.to_request(history)["messages"][2]["content"][0]["content"][0]["type"] == "image"
    assert responses.to_request(history)["input"][2]["output"][0]["type"] == "input_image"
    message = refused(InvalidMessage, lambda: openai.to_request(history))
    assert message.startswith("messages[2].content[0]: OpenAI takes images in user messages only")
    moved = openai.to_request(history, tool_parts_to_user=True)["messages"]
    assert [m["role"] for m in moved] == ["user", "assistant", "tool", "user"]


def test_a_listed_tools_mcp_keys_are_sent_only_once_dropped() -> None:
    tool = mcp.tool({"name": "get_weather", "inputSchema": SCHEMA, "title": "Weather"})
    history = [ChatMessage.user("Weather in Paris?")]
    message = refused(InvalidTool, lambda: anthropic.to_request(history, tools=[tool]))
    assert "title" in message
    assert (
        anthropic.to_request(history, tools=[tool], drop_unsupported=True)["tools"][0]["name"]
        == "get_weather"
    )


# -- the module ------------------------------------------------------------------------------


def test_import_toolturns_imports_neither_toolturns_mcp_nor_the_mcp_sdk() -> None:
    code = (
        "import sys, toolturns\n"
        "assert 'toolturns.mcp' not in sys.modules\n"
        "from toolturns import mcp\n"
        "assert 'mcp' not in sys.modules and 'mcp_types' not in sys.modules, sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)


# -- a real MCP server ------------------------------------------------------------------------


def run(session: Callable[[Client], Awaitable[T]], client: Client) -> T:
    """Run ``session`` on a connected ``client``, in a fresh event loop."""

    async def connected() -> T:
        async with client:
            return await session(client)

    return asyncio.run(connected())


async def call(client: Client, tool_call: ToolCall) -> ChatMessage:
    """Answer ``tool_call`` the way a tool loop does: the MCP tool of its name, with its arguments."""
    return mcp.tool_result(tool_call.id, await client.call_tool(tool_call.name, tool_call.arguments))


CALLS = {
    "get_weather": ToolCall("call_w", "get_weather", {"city": "Paris"}),
    "describe_city": ToolCall("call_d", "describe_city", {"city": "Paris"}),
    "screenshot": ToolCall("call_s", "screenshot"),
    "beep": ToolCall("call_b", "beep"),
    "read_report": ToolCall("call_r", "read_report"),
    "find_city": ToolCall("call_f", "find_city", {"name": "Atlantis"}),
}


async def every_tool(client: Client) -> tuple[list[Tool], list[ChatMessage]]:
    listed = await client.list_tools()
    assert isinstance(listed, mcp_types.ListToolsResult)  # the SDK's objects, read as they come
    tools = [mcp.tool(definition) for definition in listed.tools]
    return tools, [await call(client, tool_call) for tool_call in CALLS.values()]


def check_server(tools: list[Tool], answers: list[ChatMessage]) -> None:
    by_name = {tool.name: tool for tool in tools}
    assert sorted(by_name) == sorted(CALLS)
    weather = by_name["get_weather"]
    assert weather.description == "Current weather in a city."
    assert weather.parameters["required"] == ["city"]
    assert weather.extra["title"] == "Weather"
    assert weather.extra["annotations"] == {"readOnlyHint": True}
    assert weather.extra["outputSchema"]["required"] == ["city", "degrees"]

    answer = dict(zip(CALLS, answers, strict=True))
    assert [message.tool_call_id for message in answers] == [call.id for call in CALLS.values()]
    # A TypedDict result: structuredContent, and its JSON as the text block the model reads.
    assert json.loads(answer["get_weather"].text) == {"city": "Paris", "degrees": 18}
    assert answer["get_weather"].provider_data["mcp"]["structuredContent"] == {"city": "Paris", "degrees": 18}
    assert answer["describe_city"].content == "Paris is a city."
    assert answer["screenshot"].content == (ImagePart(data=PNG, media_type="image/png"),)
    assert answer["beep"].content == (AudioPart(data=WAV, format="wav"),)
    report = answer["read_report"].content
    assert isinstance(report, tuple)
    notes, pdf, link = report
    assert notes == TextPart("Sunny.", provider_data=notes.provider_data)
    assert notes.provider_data["mcp"]["resource"]["uri"] == "file:///report/notes.txt"
    assert pdf == FilePart(
        data=PDF, media_type="application/pdf", filename="report.pdf", provider_data=pdf.provider_data
    )
    assert isinstance(link, TextPart)
    assert json.loads(link.text)["uri"] == "file:///report/data.csv"
    failed = answer["find_city"]
    assert failed.is_error
    assert "no city named Atlantis" in failed.text

    # The exchange, converted to each wire that takes images and files in a tool result (audio in
    # one no wire takes: each refuses it, located); OpenAI Chat moves them to a user turn when asked.
    sent = [name for name in CALLS if name != "beep"]
    turn = ChatMessage.assistant_tool_calls([CALLS[name] for name in sent])
    history = [ChatMessage.user("Weather in Paris?"), turn, *(answer[name] for name in sent)]
    for codec in (anthropic, gemini, responses):
        assert codec.to_request(history, tools=tools, drop_unsupported=True)["tools"]
    for target in ("anthropic", "gemini", "responses"):
        assert check_transcript(history, target=target) == []
    assert openai.to_request(history, tools=tools, drop_unsupported=True, tool_parts_to_user=True)
    beep = [ChatMessage.user("Beep"), ChatMessage.assistant_tool_calls([CALLS["beep"]]), answer["beep"]]
    for each in CODECS:
        with pytest.raises(InvalidMessage, match=r"^messages\[2\]\.content\[0\]: "):
            each.to_request(beep)


def test_a_server_in_process_over_memory_streams() -> None:
    """mode="legacy": the SDK's in-memory transport, JSON-RPC framed, as over a pipe."""
    check_server(*run(every_tool, Client(mcp_server.server, mode="legacy")))


def test_a_server_as_a_stdio_subprocess(tmp_path: Path) -> None:
    """The default mode, over a pipe: the 2026-07-28 revision, whose results carry _meta, kept."""
    script = Path(mcp_server.__file__)
    parameters = StdioServerParameters(command=sys.executable, args=[str(script)])
    with (tmp_path / "server.log").open("w") as errlog:
        tools, answers = run(every_tool, Client(stdio_client(parameters, errlog=errlog)))
    check_server(tools, answers)
    server_info = {"name": "toolturns-test", "version": ""}
    assert answers[1].provider_data == {"mcp": {"_meta": {"io.modelcontextprotocol/serverInfo": server_info}}}


# -- an MCP server's tools in a tool loop -------------------------------------------------------


def _tool_use(*calls: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    """An Anthropic response asking for ``calls`` (id, name, input)."""
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "content": [
            {"type": "tool_use", "id": id, "name": name, "input": input} for id, name, input in calls
        ],
    }


_ANSWER = {
    "id": "msg_2",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "stop_reason": "end_turn",
    "content": [{"type": "text", "text": "18 degrees in Paris; there is no Atlantis."}],
}


def test_an_mcp_servers_tools_run_in_a_tool_loop() -> None:
    """mcp.toolbox over a real server's session: arun_loop calls its tools, and each result answers
    its call: text, an image (native on Anthropic), a tool error as an is_error result."""
    replies = iter(
        [
            _tool_use(
                ("toolu_1", "get_weather", {"city": "Paris"}),
                ("toolu_2", "find_city", {"name": "Atlantis"}),
                ("toolu_3", "screenshot", {}),
            ),
            _ANSWER,
        ]
    )
    sent: list[dict[str, Any]] = []

    async def send(body: dict[str, Any]) -> dict[str, Any]:
        sent.append(body)
        return next(replies)

    async def loop(client: Client) -> list[ChatMessage]:
        listed = await client.list_tools()
        toolbox = mcp.toolbox(listed.tools, client.call_tool)
        return await arun_loop(
            send,
            [ChatMessage.user("Weather in Paris, and where is Atlantis?")],
            toolbox,
            codec=anthropic,
            request_options={"drop_unsupported": True},  # the tools' title and outputSchema
        )

    history = run(loop, Client(mcp_server.server, mode="legacy"))

    weather, missing, shot = history[2:5]
    assert [result.tool_call_id for result in (weather, missing, shot)] == ["toolu_1", "toolu_2", "toolu_3"]
    assert json.loads(weather.text) == {"city": "Paris", "degrees": 18}
    assert missing.is_error
    assert "no city named Atlantis" in missing.text
    assert shot.content == (ImagePart(data=PNG, media_type="image/png"),)
    assert history[-1].text == "18 degrees in Paris; there is no Atlantis."
    assert {tool["name"] for tool in sent[0]["tools"]} == set(CALLS)
    assert all(set(tool) == {"name", "description", "input_schema"} for tool in sent[0]["tools"])
    blocks = sent[1]["messages"][2]["content"]
    assert blocks[1]["is_error"] is True
    assert blocks[2]["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    ]
    assert check_transcript(history, target="anthropic") == []


def test_a_toolbox_of_listed_tools_calls_through_a_plain_function() -> None:
    """Any client will do: a sync ``call`` returning a CallToolResult dict, its exception an error result."""
    asked: list[tuple[str, dict[str, Any]]] = []

    def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        asked.append((name, arguments))
        if name == "down":
            raise ConnectionError("the server went away")
        return result(text("18 degrees"))

    definitions = [
        {"name": "get_weather", "inputSchema": SCHEMA},
        {"name": "down", "inputSchema": {"type": "object"}},
    ]
    toolbox = mcp.toolbox(definitions, call)
    turn = ChatMessage.assistant_tool_calls(
        [ToolCall("call_1", "get_weather", {"city": "Paris"}), ToolCall("call_2", "down")]
    )
    answers = asyncio.run(arun_calls(turn, toolbox))
    assert answers == [
        ChatMessage.tool_result("call_1", "18 degrees"),
        ChatMessage.tool_result(
            "call_2", "down failed: ConnectionError: the server went away", is_error=True
        ),
    ]
    assert asked == [("get_weather", {"city": "Paris"}), ("down", {})]


def test_a_toolbox_refuses_a_listed_tool_that_does_not_read_at_its_position() -> None:
    """A definition without inputSchema, or a name listed twice, is the toolbox's error."""
    with pytest.raises(InvalidTool, match=r"^\[1\]\.inputSchema: is required"):
        mcp.toolbox([{"name": "a", "inputSchema": SCHEMA}, {"name": "b"}], lambda name, arguments: {})
    with pytest.raises(InvalidTool, match=r"^\[1\]\.name: must be unique in the toolbox"):
        mcp.toolbox([{"name": "a", "inputSchema": SCHEMA}] * 2, lambda name, arguments: {})

"""The Responses codec on real bodies, the SDK's types and objects, and what it refuses."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import openai.types.responses as sdk
import pydantic
import pytest

from toolturns import (
    AudioPart,
    ChatMessage,
    FilePart,
    ImagePart,
    InvalidMessage,
    InvalidTool,
    InvalidToolCall,
    MessageError,
    TextPart,
    Tool,
    ToolCall,
    check_transcript,
    responses,
)
from toolturns.providers.responses import rules

DATA = Path(__file__).parents[2] / "data" / "responses"
PNG = "iVBORw0KGgo="
PDF = "JVBERi0xLjQK"


def golden(name: str) -> Any:
    return json.loads((DATA / f"{name}.json").read_text())


def validated(items: list[dict[str, Any]]) -> list[Any]:
    """The items as the SDK's request type reads them, each lazily validated iterable walked."""
    checked = pydantic.TypeAdapter(sdk.ResponseInputParam).validate_python(items)
    return [_walk(item) for item in checked]


def _walk(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _walk(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, str)) or not hasattr(value, "__iter__"):
        return [_walk(item) for item in value] if isinstance(value, (list, tuple)) else value
    return [_walk(item) for item in value]  # a ValidatorIterator: validated only when walked


def tool_loop() -> list[ChatMessage]:
    return [
        ChatMessage.system("Be brief."),
        ChatMessage.developer("Use tools."),
        ChatMessage.user(
            [TextPart("What is this?"), ImagePart(url="https://example.com/a.png", detail="low")]
        ),
        ChatMessage.assistant_tool_calls(
            [ToolCall("call_1", "get_weather", {"city": "Paris"}), ToolCall("call_2", "screenshot")],
            content="Looking.",
        ),
        ChatMessage.tool_result("call_1", "18C"),
        ChatMessage.tool_result(
            "call_2", [TextPart("here"), ImagePart(data=PNG, media_type="image/png", detail="high")]
        ),
        ChatMessage.assistant("Sunny, 18C."),
    ]


# -- to_request ---------------------------------------------------------------------------


def test_a_tool_loop_becomes_items_the_sdk_takes() -> None:
    items = responses.to_request(tool_loop())["input"]
    assert items == [
        {"type": "message", "role": "system", "content": "Be brief."},
        {"type": "message", "role": "developer", "content": "Use tools."},
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": "What is this?"},
                {"type": "input_image", "image_url": "https://example.com/a.png", "detail": "low"},
            ],
        },
        {"type": "message", "role": "assistant", "content": "Looking."},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city":"Paris"}',
        },
        {"type": "function_call", "call_id": "call_2", "name": "screenshot", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
        {
            "type": "function_call_output",
            "call_id": "call_2",
            "output": [
                {"type": "input_text", "text": "here"},
                {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "high"},
            ],
        },
        {"type": "message", "role": "assistant", "content": "Sunny, 18C."},
    ]
    assert validated(items) == items


def test_files_travel_as_data_urls_ids_and_urls() -> None:
    parts = [
        FilePart(data=PDF, media_type="application/pdf", filename="a.pdf"),
        FilePart(file_id="file-abc123"),
        FilePart(url="https://example.com/b.pdf"),
    ]
    items = responses.to_request([ChatMessage.user(parts)])["input"]
    assert items[0]["content"] == [
        {"type": "input_file", "file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"},
        {"type": "input_file", "file_id": "file-abc123"},
        {"type": "input_file", "file_url": "https://example.com/b.pdf"},
    ]
    assert validated(items) == items
    assert responses.from_request({"input": items}) == [ChatMessage.user(parts)]


def test_malformed_argument_text_is_sent_byte_for_byte() -> None:
    turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "f", '{"a": 1,')])
    assert responses.to_request([turn])["input"][0]["arguments"] == '{"a": 1,'
    assert responses.from_request(responses.to_request([turn])) == [turn]


@pytest.mark.parametrize(
    ("message", "path", "words"),
    [
        (ChatMessage.user([AudioPart(data="UklGRg==", format="wav")]), "messages[0].content[0]", "audio"),
        (
            ChatMessage.assistant([ImagePart(url="https://example.com/a.png")]),
            "messages[0].content[0]",
            "image",
        ),
    ],
)
def test_a_part_the_wire_cannot_carry_is_refused_where_it_stands(
    message: ChatMessage, path: str, words: str
) -> None:
    with pytest.raises(
        InvalidMessage, match=rf"^{re.escape(path)}: is an {words} part.*Supported values are"
    ):
        responses.to_request([message])
    with pytest.raises(InvalidMessage):
        responses.to_request([message], drop_unsupported=True)


def test_what_the_wire_has_no_place_for_is_refused_or_dropped_when_asked() -> None:
    named = ChatMessage.user("Hi", name="ann")
    failed = ChatMessage("tool", "boom", tool_call_id="call_1", is_error=True)
    call = ChatMessage.assistant_tool_calls([ToolCall("call_1", "f", extra={"x": 1})])
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]\.name: OpenAI Responses cannot carry"):
        responses.to_request([named])
    # is_error has no key either, and is not sent, as on the Chat wire: the output's text says it failed.
    plain_call = ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")])
    assert responses.to_request([plain_call, failed])["input"][1] == {
        "type": "function_call_output",
        "call_id": "call_1",
        "output": "boom",
    }
    assert check_transcript([ChatMessage.user("go"), plain_call, failed], target="responses") == []
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]\.tool_calls\[0\]\.x: "):
        responses.to_request([call])
    body = responses.to_request([named, call, failed], drop_unsupported=True)
    assert body["input"][0] == {"type": "message", "role": "user", "content": "Hi"}
    assert body["input"][2] == {"type": "function_call_output", "call_id": "call_1", "output": "boom"}


def test_bad_messages_and_tools_are_our_errors() -> None:
    with pytest.raises(MessageError):
        responses.to_request("hi")  # type: ignore[arg-type]
    with pytest.raises(InvalidTool, match=r"^tools: must be a list"):
        responses.to_request([], tools="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidTool, match=r"^tools\[0\]: must be a Tool"):
        responses.to_request([], tools=[{"name": "f"}])  # type: ignore[list-item]
    with pytest.raises(InvalidTool, match=r"^tools\[1\]\.name: must be unique"):
        responses.to_request([], tools=[Tool("f"), Tool("f")])
    with pytest.raises(InvalidTool, match=r"^tools\[0\]\.name: must match"):
        responses.to_request([], tools=[Tool("a.b")])
    with pytest.raises(InvalidTool, match=r"^tools\[0\]\.title: OpenAI Responses cannot carry"):
        responses.to_request([], tools=[Tool("f", extra={"title": "F"})])
    body = responses.to_request([], tools=[Tool("f", extra={"title": "F"})], drop_unsupported=True)
    assert body["tools"] == [
        {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}
    ]


# -- from_request -------------------------------------------------------------------------


def test_real_requests_read() -> None:
    assert responses.from_request(golden("request_multi_turn")) == [
        ChatMessage.user("My name is Alice."),
        ChatMessage.assistant("Hello Alice! Nice to meet you. How can I help you today?"),
        ChatMessage.user("What is my name?"),
    ]
    assert [m.role.value for m in responses.from_request(golden("request_system"))] == ["system", "user"]
    body = golden("request_tools")
    assert responses.read_tools(body["tools"])[0].parameters == body["tools"][0]["parameters"]


def test_a_replayed_reasoning_item_is_kept_in_its_turn_and_sent_back_exactly() -> None:
    body = golden("request_reasoning_replay")
    messages = responses.from_request(body)
    assert [m.role.value for m in messages] == ["system", "user", "assistant"]
    turn = messages[2]
    assert turn.text == "Hi! I\u2019m here and working. How can I help you today?"
    assert turn.provider_data["responses"]["items"] == [[0, body["input"][2]]]
    # As sent (the SDK's type would want the message's status, which this request leaves out).
    assert responses.to_request(messages)["input"] == body["input"]


def test_instructions_a_string_and_a_bare_list_read() -> None:
    assert responses.from_request(
        {"instructions": "Be brief.", "input": [{"role": "user", "content": "Hi"}]}
    ) == [
        ChatMessage.system("Be brief."),
        ChatMessage.user("Hi"),
    ]
    assert responses.from_request({"input": "Hi"}) == [ChatMessage.user("Hi")]
    assert responses.from_request(
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": ""}]
    ) == [ChatMessage.assistant_tool_calls([ToolCall("c", "f", "")])]


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        (5, InvalidMessage, r"^input: must be a string or an array"),
        ({"instructions": 5, "input": []}, InvalidMessage, r"^instructions: must be a string"),
        ([5], InvalidMessage, r"^input\[0\]: must be an item object"),
        ([{"type": 5}], InvalidMessage, r"^input\[0\]\.type: must be an item type"),
        ([{"role": "tool", "content": "x"}], InvalidMessage, r"^input\[0\]\.role: must be"),
        (
            [{"role": "user", "content": 5}],
            InvalidMessage,
            r"^input\[0\]\.content: must be a string or an array",
        ),
        (
            [{"role": "user", "content": [5]}],
            InvalidMessage,
            r"^input\[0\]\.content\[0\]: must be a content part",
        ),
        (
            [{"role": "user", "content": [{"type": "x"}]}],
            InvalidMessage,
            r"^input\[0\]\.content\[0\]\.type: must be",
        ),
        (
            [{"role": "user", "content": [{"type": "input_text"}]}],
            InvalidMessage,
            r"^input\[0\]\.content\[0\]\.text",
        ),
        (
            [{"role": "user", "content": [{"type": "input_image"}]}],
            InvalidMessage,
            r"\.content\[0\]\.image_url",
        ),
        (
            [
                {
                    "role": "user",
                    "content": [{"type": "input_file", "file_url": "https://a", "file_data": "data:"}],
                }
            ],
            InvalidMessage,
            r"^input\[0\]\.content\[0\]: must have file_data or file_url",
        ),
        (
            [{"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,@@"}]}],
            InvalidMessage,
            r"^input\[0\]\.content\[0\]\.",
        ),
        (
            [{"type": "function_call", "name": "f", "arguments": "{}"}],
            InvalidToolCall,
            r"^input\[0\]\.call_id",
        ),
        ([{"type": "function_call", "call_id": "", "name": "f"}], InvalidToolCall, r"^input\[0\]\.id"),
        ([{"type": "function_call", "call_id": "c", "name": 5}], InvalidToolCall, r"^input\[0\]\.name"),
        (
            [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}],
            InvalidToolCall,
            r"arguments",
        ),
        ([{"type": "function_call_output", "output": "x"}], InvalidMessage, r"^input\[0\]\.call_id"),
        (
            [{"type": "function_call_output", "call_id": "c", "output": 5}],
            InvalidMessage,
            r"^input\[0\]\.output",
        ),
        (
            [{"type": "function_call_output", "call_id": "c", "output": [{"type": "x"}]}],
            InvalidMessage,
            r"^input\[0\]\.output\[0\]\.type",
        ),
        ([{"type": "reasoning", "summary": [float("nan")]}], InvalidMessage, r"^input\[0\]\.summary"),
    ],
)
def test_malformed_requests_are_refused_where_they_are(
    body: object, error: type[MessageError], message: str
) -> None:
    with pytest.raises(error, match=message):
        responses.from_request(body)


# -- from_response ------------------------------------------------------------------------


def test_a_real_text_response_reads_as_one_turn_its_id_kept() -> None:
    body = golden("response_text")
    for given in (body, sdk.Response.model_validate(without_usage(body))):
        turn = responses.from_response(given)
        assert turn.text == "Hello, how are you?"
        assert turn.provider_data == {
            "responses": {"keys": {"id": body["output"][0]["id"], "status": "completed"}}
        }
    replay = responses.to_request([turn])["input"]
    # As read, less the empty logprobs (an empty value carries nothing and is not kept).
    assert replay == [
        {
            **body["output"][0],
            "content": [{"type": "output_text", "text": "Hello, how are you?", "annotations": []}],
        }
    ]
    assert validated(replay)
    assert responses.from_request(replay) == [turn]


def test_a_real_function_call_response_keeps_its_item_id_and_status() -> None:
    body = golden("response_function_call")
    turn = responses.from_response(sdk.Response.model_validate(without_usage(body)))
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert (call.id, call.name, call.arguments) == (
        "call_In5iIk9f6NxYKBb54Jd1tMmI",
        "get_weather",
        {"location": "San Francisco, CA"},
    )
    items = responses.to_request([turn, ChatMessage.tool_result(call.id, "18C")])["input"]
    assert items[0] == body["output"][0]
    assert validated(items)
    assert responses.finish_reason(body) == "completed"


def sdk_response(output: list[dict[str, Any]], **fields: Any) -> sdk.Response:
    """An SDK ``Response`` around ``output``, with the fields the SDK requires."""
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 0,
        "model": "gpt-5",
        "status": "completed",
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "output": output,
        **fields,
    }
    return sdk.Response.model_validate(body)


def without_usage(body: dict[str, Any]) -> dict[str, Any]:
    """A recorded body as this SDK reads it: its usage predates ``cache_write_tokens``."""
    return {key: value for key, value in body.items() if key != "usage"}


def reasoning(number: int) -> dict[str, Any]:
    return {
        "type": "reasoning",
        "id": f"rs_{number}",
        "summary": [{"type": "summary_text", "text": f"Thinking {number}."}],
        "encrypted_content": f"gAAAA{number}",
    }


def call_item(number: int) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": f"fc_{number}",
        "call_id": f"call_{number}",
        "name": "get_weather",
        "arguments": '{"city":"Paris"}',
        "status": "completed",
    }


def test_reasoning_and_built_in_calls_are_replayed_in_their_order() -> None:
    search = {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search", "query": "paris"},
    }
    message: dict[str, Any] = {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
        "role": "assistant",
        "content": [
            {
                "type": "output_text",
                "text": "Checking.",
                "annotations": [
                    {
                        "type": "url_citation",
                        "url": "https://a",
                        "title": "A",
                        "start_index": 0,
                        "end_index": 1,
                    }
                ],
            }
        ],
    }
    output = [reasoning(1), search, message, reasoning(2), call_item(2), call_item(3)]
    turn = responses.from_response(sdk_response(output))
    assert turn.content == (
        TextPart(
            "Checking.",
            provider_data={"responses": {"keys": {"annotations": message["content"][0]["annotations"]}}},
        ),
    )
    assert [call.id for call in turn.tool_calls or ()] == ["call_2", "call_3"]
    assert responses.to_request([turn])["input"] == output
    assert validated(output)
    assert responses.from_request(responses.to_request([turn])) == [turn]


def test_a_refusal_and_a_second_message_are_kept_whole() -> None:
    refusal = {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "refusal", "refusal": "I can't help with that."}],
    }
    second = {
        "type": "message",
        "id": "msg_2",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "b", "annotations": []}],
    }
    first = {**second, "id": "msg_0", "content": [{"type": "output_text", "text": "a", "annotations": []}]}
    turn = responses.from_response({"output": [refusal]})
    assert turn.content == ""
    assert responses.to_request([turn])["input"] == [refusal]
    turn = responses.from_response({"output": [first, second]})
    assert turn.text == "a"
    assert responses.to_request([turn])["input"] == [first, second]


def test_a_reasoning_item_without_its_following_item_is_refused() -> None:
    turn = responses.from_response({"output": [reasoning(1), call_item(1)]})
    assert turn.tool_calls is not None
    broken = ChatMessage("assistant", "", provider_data=turn.provider_data)
    with pytest.raises(
        InvalidMessage,
        match=r"^messages\[0\]\.provider_data\.responses\.items\[0\]: .*"
        + rules.REASONING_WITHOUT_FOLLOWING.says[:20],
    ) as caught:
        responses.to_request([ChatMessage.user("Hi"), broken][1:])
    assert "'rs_1'" in str(caught.value)


def test_a_replayed_call_before_its_reasoning_item_is_refused() -> None:
    turn = responses.from_response({"output": [reasoning(1), call_item(1), call_item(2)]})
    data = {"responses": {"items": [[1, reasoning(1)]]}}
    moved = ChatMessage("assistant", "", tool_calls=turn.tool_calls, provider_data=data)
    with pytest.raises(
        InvalidToolCall,
        match=r"^messages\[1\]\.tool_calls\[0\]: comes before every reasoning item .*Item 'fc_",
    ):
        responses.to_request([ChatMessage.user("Hi"), moved])


def test_kept_data_that_reading_never_writes_is_refused() -> None:
    bad = ChatMessage("assistant", "a", provider_data={"responses": {"keys": {"content": "b"}}})
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]\.provider_data\.responses\.keys\.content: "):
        responses.to_request([bad])
    call = ToolCall("c", "f", provider_data={"responses": {"keys": {"name": "g"}}})
    with pytest.raises(
        InvalidToolCall, match=r"^messages\[0\]\.tool_calls\[0\]\.provider_data\.responses\.keys\.name"
    ):
        responses.to_request([ChatMessage.assistant_tool_calls([call])])
    part = TextPart("a", provider_data={"responses": {"keys": {"text": "b"}}})
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]"):
        responses.to_request([ChatMessage.user([part])])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (5, r"^must be a response object"),
        ({"output": 5}, r"^output: must be an array"),
        ({"output": [5]}, r"^output\[0\]: must be an item object"),
        ({"output": [{"type": "function_call", "call_id": 5}]}, r"^output\[0\]\.call_id"),
    ],
)
def test_malformed_responses_are_refused_where_they_are(body: object, message: str) -> None:
    with pytest.raises(MessageError, match=message):
        responses.from_response(body)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"status": "completed"}, "completed"),
        (
            {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}},
            "max_output_tokens",
        ),
        ({"status": "incomplete", "incomplete_details": {"reason": "content_filter"}}, "content_filter"),
        ({"status": "failed"}, "failed"),
        ({}, None),
    ],
)
def test_finish_reason_is_the_wire_s_word(body: dict[str, Any], reason: str | None) -> None:
    assert responses.finish_reason(body) == reason


def test_finish_reason_refuses_what_is_not_a_response() -> None:
    with pytest.raises(InvalidMessage, match=r"^must be a response object"):
        responses.finish_reason(5)
    with pytest.raises(InvalidMessage, match=r"^status: must be a string"):
        responses.finish_reason({"status": 5})


# -- tools --------------------------------------------------------------------------------


def test_tools_are_flat_and_read_back() -> None:
    tool = Tool(
        "get_weather", "Weather.", {"type": "object", "properties": {"city": {"type": "string"}}}, strict=True
    )
    definition = responses.tool_definition(tool)
    assert definition == {
        "type": "function",
        "name": "get_weather",
        "description": "Weather.",
        "parameters": tool.parameters,
        "strict": True,
    }
    pydantic.TypeAdapter(sdk.FunctionToolParam).validate_python(definition)
    assert responses.read_tools([definition]) == [tool]
    assert responses.read_tools(golden("response_function_call")["tools"])[0].strict is True


@pytest.mark.parametrize(
    ("tools", "message"),
    [
        ("x", r"^tools: must be an array"),
        ([{"type": "web_search"}], r"^tools\[0\]\.type: must be 'function'"),
        ([{"type": "function", "function": {"name": "f"}}], r"^tools\[0\]\.function: is not a key"),
        ([{"type": "function", "name": "f", "title": "F"}], r"^tools\[0\]\.title: is not a key"),
        ([5], r"^tools\[0\]"),
    ],
)
def test_read_tools_refuses_what_it_cannot_carry(tools: object, message: str) -> None:
    with pytest.raises(InvalidTool, match=message):
        responses.read_tools(tools)


def test_an_image_without_detail_is_sent_without_it() -> None:
    # The API's default detail is "auto"; the SDK's type marks it required, so none is made up here.
    image = ImagePart(url="https://example.com/a.png")
    items = responses.to_request([ChatMessage.user([image])])["input"]
    assert items[0]["content"] == [{"type": "input_image", "image_url": "https://example.com/a.png"}]
    assert responses.from_request(items) == [ChatMessage.user([image])]


def test_a_reasoning_item_before_an_assistant_message_starts_that_message_s_turn() -> None:
    first = ChatMessage.assistant("a")
    second = responses.from_response(
        {"output": [reasoning(1), {"type": "message", "role": "assistant", "content": "b"}]}
    )
    items = responses.to_request([first, second])["input"]
    assert [item["type"] for item in items] == ["message", "reasoning", "message"]
    assert responses.from_request(items) == [first, second]


def test_an_item_id_sent_twice_is_refused_where_it_repeats() -> None:
    """A turn replayed twice (a history appended to itself) would send its ids again: OpenAI's
    "Duplicate item found with id fc_..." is refused before it is a 400."""
    kept = {"responses": {"keys": {"id": "fc_1", "status": "completed"}}}
    first = ChatMessage.assistant_tool_calls([ToolCall("call_1", "f", provider_data=kept)])
    again = ChatMessage.assistant_tool_calls([ToolCall("call_2", "f", provider_data=kept)])
    history = [ChatMessage.user("hi"), first, ChatMessage.tool_result("call_1", "x")]
    assert responses.to_request(history)["input"][1]["id"] == "fc_1"
    with pytest.raises(InvalidMessage) as caught:
        responses.to_request([*history, again, ChatMessage.tool_result("call_2", "y")])
    assert str(caught.value) == (
        "messages[3]: sends the item id 'fc_1' that messages[1] sends too: each item goes once "
        "(Duplicate item found with id fc_...)"
    )
    both = ChatMessage.assistant_tool_calls(
        [ToolCall("call_1", "f", provider_data=kept), ToolCall("call_2", "f", provider_data=kept)]
    )
    with pytest.raises(InvalidMessage, match=r"^messages\[1\]: sends the item id 'fc_1' twice"):
        responses.to_request([ChatMessage.user("hi"), both])


def test_an_output_item_needs_its_type() -> None:
    """An input item may leave its type out (a message); a response's output item has one."""
    with pytest.raises(InvalidMessage) as caught:
        responses.from_response({"output": [{"role": "assistant", "content": "Hi"}]})
    assert str(caught.value) == "output[0].type: must be an item type (a string), got None"


def test_a_failed_response_without_an_error_message_says_what_it_has() -> None:
    with pytest.raises(InvalidMessage, match=r"^error: says the response failed: .*, got None$"):
        responses.from_response({"status": "failed", "error": None, "output": []})
    with pytest.raises(InvalidMessage, match=r", got The model failed\.$"):
        responses.from_response({"status": "failed", "error": {"message": "The model failed."}, "output": []})


def test_a_second_message_of_text_is_kept_whole_and_replayed() -> None:
    """A response's second message item (here with string content) is kept whole, where it stood."""
    second = {"type": "message", "id": "msg_2", "role": "assistant", "content": "Later."}
    turn = responses.from_response({"output": [_TEXT_ITEM, second]})
    assert turn.text == "Sunny."
    assert responses.to_request([turn])["input"] == [_TEXT_ITEM, second]
    with pytest.raises(InvalidMessage) as caught:
        responses.from_response({"output": [_TEXT_ITEM, {**second, "role": "user"}]})
    assert caught.value.path == "output[1].role"
    with pytest.raises(InvalidMessage) as caught:
        responses.from_response({"output": [_TEXT_ITEM, {**second, "content": 5}]})
    assert caught.value.path == "output[1].content"
    with pytest.raises(InvalidMessage) as caught:
        responses.from_response({"output": [_TEXT_ITEM, {**second, "content": [5]}]})
    assert caught.value.path == "output[1].content[0]"
    with pytest.raises(InvalidMessage) as caught:
        responses.from_response({"output": [_TEXT_ITEM, {**second, "content": [{"type": "refusal"}]}]})
    assert caught.value.path == "output[1].content[0].refusal"


_TEXT_ITEM: dict[str, Any] = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "Sunny.", "annotations": []}],
}


def test_malformed_kept_data_is_the_codecs_refusal_in_check_transcript() -> None:
    """Kept data the codec cannot read is reported once, as the codec's refusal (not_convertible)."""
    turn = ChatMessage("assistant", "Sunny.", provider_data={"responses": {"items": 5}})
    problems = check_transcript([ChatMessage.user("?"), turn], target="responses")
    assert [(p.path, p.code) for p in problems] == [
        ("messages[1].provider_data.responses.items", "not_convertible")
    ]


def test_the_sdks_parsed_copies_are_read_and_never_sent() -> None:
    """client.responses.parse() and .stream() add ``parsed`` to each output_text and
    ``parsed_arguments`` to each function call: copies of the text and the arguments."""
    text = {**_TEXT_ITEM, "content": [{**_TEXT_ITEM["content"][0], "parsed": {"weather": "sunny"}}]}
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
        "status": "completed",
        "parsed_arguments": {"city": "Paris"},
    }
    turn = responses.from_response({"output": [text, call]})
    assert turn == responses.from_response({"output": [_TEXT_ITEM, {**call, "parsed_arguments": None}]})
    assert turn.content == "Sunny."
    sent = responses.to_request([ChatMessage.user("?"), turn])["input"]
    assert sent[1:] == [_TEXT_ITEM, {k: v for k, v in call.items() if k != "parsed_arguments"}]
    assert responses.from_request(sent)[1] == turn


def test_a_parsed_copy_goes_and_every_other_part_stays() -> None:
    """Only the output_text's ``parsed`` is left out; a refusal beside it is kept as it came."""
    refusal = {"type": "refusal", "refusal": "No."}
    parsed: dict[str, Any] = {"type": "output_text", "text": "Sunny.", "annotations": [], "parsed": None}
    turn = responses.from_response({"output": [{**_TEXT_ITEM, "content": [parsed, refusal]}]})
    (sent,) = responses.to_request([turn])["input"]
    assert sent["content"] == [{key: value for key, value in parsed.items() if key != "parsed"}, refusal]


_CALL_ITEM = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}


@pytest.mark.parametrize(
    ("turns", "contents"),
    [
        ([ChatMessage.assistant(""), ChatMessage.assistant("Hi")], ["", "", "Hi"]),
        ([ChatMessage.assistant(""), ChatMessage.assistant("")], ["", ""]),
        ([ChatMessage.assistant("A"), ChatMessage.assistant("B")], ["A", "B"]),
        (
            [ChatMessage.assistant("A"), ChatMessage.assistant_tool_calls([ToolCall("c", "f")])],
            ["A", "", None],
        ),
        ([ChatMessage.assistant_tool_calls([ToolCall("c", "f")]), ChatMessage.assistant("")], [None, ""]),
    ],
)
def test_assistant_turns_in_a_row_read_back_as_they_were(
    turns: list[ChatMessage], contents: list[str | None]
) -> None:
    """Two assistant turns in a row stay two, an empty one included: where the second's items
    would join the first on reading, a message that says nothing parts them."""
    messages = [ChatMessage.user("Hi"), *turns]
    body = responses.to_request(messages)
    expected = [
        _CALL_ITEM if content is None else {"type": "message", "role": "assistant", "content": content}
        for content in contents
    ]
    assert body["input"][1:] == expected
    assert responses.from_request(body) == messages


def test_a_text_part_with_logprobs_is_kept_as_a_part_and_sent_back_with_them() -> None:
    """Text with logprobs is more than text: the part keeps them, where a plain part reads as a string."""
    logprobs = [{"token": "hi", "logprob": -0.1, "bytes": [104, 105], "top_logprobs": []}]
    part = {"type": "output_text", "text": "hi", "annotations": [], "logprobs": logprobs}
    message = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [part],
    }
    turn = responses.from_response(
        {"id": "resp_1", "object": "response", "status": "completed", "output": [message]}
    )
    assert turn.content == (TextPart("hi", provider_data={"responses": {"keys": {"logprobs": logprobs}}}),)
    (item,) = responses.to_request([turn])["input"]
    assert item["content"] == [{"type": "output_text", "text": "hi", "logprobs": logprobs}]

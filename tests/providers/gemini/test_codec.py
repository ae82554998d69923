"""The Gemini generateContent codec: contents, systemInstruction, functionCall/functionResponse parts."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.conftest import wire_examples
from toolturns import (
    ChatMessage,
    InvalidArguments,
    InvalidMessage,
    InvalidTool,
    InvalidToolCall,
    MessageError,
    Tool,
    ToolCall,
    gemini,
)
from toolturns.providers._native import is_generated_id
from toolturns.providers._shared import RAW_ARGUMENTS_KEY

WEATHER = ToolCall("call_1", "get_weather", {"city": "Paris"})
TIME = ToolCall("call_2", "get_time")
LOOP = [
    ChatMessage.system("Be brief."),
    ChatMessage.user("Weather in Paris?"),
    ChatMessage.assistant_tool_calls([WEATHER, TIME], "Let me look."),
    ChatMessage.tool_result("call_1", "18 degrees"),
    ChatMessage.tool_result("call_2", "noon"),
    ChatMessage.assistant("It is 18 degrees at noon."),
]

COUNT_400 = (
    "Please ensure that the number of function response parts is equal to the number of "
    "function call parts of the function call turn."
)
ORDER_400 = (
    "Please ensure that function call turn comes immediately after a user turn or after a "
    "function response turn."
)


def contents(messages: list[ChatMessage], **options: Any) -> list[dict[str, Any]]:
    """The contents to_request gives for ``messages``."""
    result: list[dict[str, Any]] = gemini.to_request(messages, **options)["contents"]
    return result


def response(*parts: dict[str, Any], **body: Any) -> dict[str, Any]:
    """A generateContent response with one model candidate made of ``parts``."""
    return {"candidates": [{"content": {"role": "model", "parts": list(parts)}, "index": 0}], **body}


def call_part(name: str, args: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    """A functionCall part (args {} by default), with extra part keys."""
    return {"functionCall": {"name": name, "args": {} if args is None else args}, **more}


def user(*parts: dict[str, Any]) -> dict[str, Any]:
    """A user content."""
    return {"role": "user", "parts": list(parts)}


def model(*parts: dict[str, Any]) -> dict[str, Any]:
    """A model content."""
    return {"role": "model", "parts": list(parts)}


# -- to_request: the shape ----------------------------------------------------------------


def test_to_request_tool_loop_shape() -> None:
    """A whole loop: systemInstruction, user, model text then calls, one user content of responses, model."""
    assert gemini.to_request(LOOP) == {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [
            user({"text": "Weather in Paris?"}),
            model(
                {"text": "Let me look."},
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}},
                {"functionCall": {"name": "get_time", "args": {}, "id": "call_2"}},
            ),
            user(
                {
                    "functionResponse": {
                        "name": "get_weather",
                        "response": {"result": "18 degrees"},
                        "id": "call_1",
                    }
                },
                {"functionResponse": {"name": "get_time", "response": {"result": "noon"}, "id": "call_2"}},
            ),
            model({"text": "It is 18 degrees at noon."}),
        ],
    }


def test_to_request_system_and_developer_become_system_instruction_parts_in_order() -> None:
    """Every system and developer message is one systemInstruction part, in order, wherever it stood."""
    messages = [
        ChatMessage.system("A"),
        ChatMessage.user("hi"),
        ChatMessage.developer("B"),
        ChatMessage.system("C"),
    ]
    body = gemini.to_request(messages)
    assert body["systemInstruction"] == {"parts": [{"text": "A"}, {"text": "B"}, {"text": "C"}]}
    assert body["contents"] == [user({"text": "hi"})]


def test_to_request_without_system_has_no_system_instruction() -> None:
    """No system or developer message: no systemInstruction key at all."""
    assert gemini.to_request([ChatMessage.user("hi")]) == {"contents": [user({"text": "hi"})]}


def test_developer_reads_back_as_system_at_the_front() -> None:
    """The documented loss: developer reads back as system, and system messages move to the front."""
    messages = [ChatMessage.user("hi"), ChatMessage.developer("Be brief.")]
    assert gemini.from_request(gemini.to_request(messages)) == [
        ChatMessage.system("Be brief."),
        ChatMessage.user("hi"),
    ]


def test_to_request_empty_assistant_turn_sends_one_empty_text_part() -> None:
    """An assistant turn with neither text nor calls sends [{"text": ""}]: a content needs a part."""
    assert contents([ChatMessage.user("hi"), ChatMessage.assistant("")])[1] == model({"text": ""})


def test_to_request_tool_call_turn_without_text_sends_no_text_part() -> None:
    """A tool-call turn with empty text sends only functionCall parts (no empty text part)."""
    turn = ChatMessage.assistant_tool_calls([TIME])
    assert contents([ChatMessage.user("Time?"), turn])[1] == model(
        {"functionCall": {"name": "get_time", "args": {}, "id": "call_2"}}
    )


@pytest.mark.parametrize("arguments", [None, {}, "", "  ", "null"])
def test_no_argument_calls_send_an_empty_object(arguments: Any) -> None:
    """No arguments are sent as args {} (an object), never [] or a string."""
    turn = ChatMessage.assistant_tool_calls([ToolCall("c", "get_time", arguments)])
    args = contents([ChatMessage.user("Time?"), turn])[1]["parts"][0]["functionCall"]["args"]
    assert args == {}
    assert isinstance(args, dict)


def test_to_request_drops_name_and_extra_only_when_asked_and_never_sends_other_providers_data() -> None:
    """name and extra are refused, located, unless drop_unsupported; another provider's data is not sent."""
    messages = [
        ChatMessage("user", "hi", name="alice", extra={"weight": 1}, provider_data={"anthropic": {"x": 1}}),
        ChatMessage.assistant_tool_calls(
            [ToolCall("c", "f", extra={"seq": 0}, provider_data={"ollama": {"y": 2}})], name="bot"
        ),
    ]
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]\.name: Gemini cannot carry the name 'alice'"):
        gemini.to_request(messages)
    assert contents(messages, drop_unsupported=True) == [
        user({"text": "hi"}),
        model({"functionCall": {"name": "f", "args": {}, "id": "c"}}),
    ]


def test_to_request_groups_tools_in_one_function_declarations_entry() -> None:
    """All tools go in one {"functionDeclarations": [...]} entry, each in Gemini's declaration shape."""
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    body = gemini.to_request(
        [ChatMessage.user("hi")], tools=[Tool("get_time"), Tool("get_weather", "Weather", schema)]
    )
    assert body["tools"] == [
        {
            "functionDeclarations": [
                {"name": "get_time"},
                {"name": "get_weather", "description": "Weather", "parameters": schema},
            ]
        }
    ]


def test_to_request_without_tools_has_no_tools_key() -> None:
    """An empty or missing tools list sends no tools key."""
    assert "tools" not in gemini.to_request([ChatMessage.user("hi")], tools=[])


def test_tool_definition_omits_empty_description_and_no_parameters() -> None:
    """tool_definition sends description only when non-empty and parameters only when there are some."""
    assert gemini.tool_definition(Tool("get_time")) == {"name": "get_time"}
    reordered = Tool("f", parameters={"properties": {}, "type": "object"})
    assert gemini.tool_definition(reordered) == {"name": "f"}
    # Not "no parameters" in so many words: sent as it is, as JSON Schema, since Gemini's Schema
    # refuses an object without properties ("should be non-empty for OBJECT type").
    with_required = Tool("g", parameters={"type": "object", "properties": {}, "required": []})
    assert gemini.tool_definition(with_required) == {
        "name": "g",
        "parametersJsonSchema": {"type": "object", "properties": {}, "required": []},
    }


def test_tool_definition_rejects_what_is_not_a_tool() -> None:
    """A dict where a Tool belongs is a clear InvalidTool, as in the other codecs."""
    with pytest.raises(InvalidTool, match=r"^must be a Tool \(read dicts with Tool.from_dict\), got dict$"):
        gemini.tool_definition({"name": "f"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("messages", "tools", "message"),
    [
        ("hi", None, "messages: must be a list or tuple of ChatMessage, got 'hi'"),
        ([{"role": "user", "content": "hi"}], None, "messages[0]: must be a ChatMessage"),
        ([], "x", "tools: must be a list or tuple of Tool, got 'x'"),
        ([], [Tool("f"), Tool("f")], "tools[1].name: must be unique among the tools, got 'f'"),
    ],
)
def test_to_request_rejects_what_is_not_messages_and_tools(messages: Any, tools: Any, message: str) -> None:
    """Inputs that are not ChatMessages and Tools are refused with a path."""
    # A mistake in the tools is InvalidTool, as tool_definition raises it; in the messages InvalidMessage.
    error = InvalidTool if message.startswith("tools") else InvalidMessage
    with pytest.raises(error) as caught:
        gemini.to_request(messages, tools=tools)
    assert str(caught.value).startswith(message)


# -- to_request: tool results ---------------------------------------------------------------


def test_results_are_reordered_into_the_order_of_the_calls() -> None:
    """Results given in another order are sent in the order of the calls, names looked up by id."""
    messages = [LOOP[1], LOOP[2], LOOP[4], LOOP[3]]
    parts = contents(messages)[2]["parts"]
    assert [part["functionResponse"]["id"] for part in parts] == ["call_1", "call_2"]
    assert [part["functionResponse"]["name"] for part in parts] == ["get_weather", "get_time"]


@pytest.mark.parametrize(
    ("text", "is_error", "sent"),
    [
        ("18 degrees", False, {"result": "18 degrees"}),
        ('{"temp": 18, "unit": "C"}', False, {"temp": 18, "unit": "C"}),
        (' \n{ "temp" : 18 }\t', False, {"temp": 18}),
        ("{}", False, {}),
        ('{"t": 18.5, "n": -0.0}', False, {"t": 18.5, "n": -0.0}),
        ("[1, 2]", False, {"result": "[1, 2]"}),
        ("42", False, {"result": "42"}),
        ('{"temp": 18', False, {"result": '{"temp": 18'}),
        ('{"result": "x"}', False, {"result": '{"result": "x"}'}),
        ('{"error": "x"}', False, {"result": '{"error": "x"}'}),
        ('{"a": 1, "a": 2}', False, {"result": '{"a": 1, "a": 2}'}),
        ('{"a": NaN}', False, {"result": '{"a": NaN}'}),
        ('{"a": 1e400}', False, {"result": '{"a": 1e400}'}),
        ("[" * 100_000, False, {"result": "[" * 100_000}),
        ("{" * 100_000, False, {"result": "{" * 100_000}),
        ("timeout", True, {"error": "timeout"}),
        ('{"code": 500}', True, {"error": '{"code": 500}'}),
    ],
)
def test_result_response_object(text: str, is_error: bool, sent: dict[str, Any]) -> None:
    """response is the object a JSON-object text spells, else {"result": text}; an error is {"error": text}."""
    messages = [
        LOOP[1],
        ChatMessage.assistant_tool_calls([TIME]),
        ChatMessage.tool_result("call_2", text, is_error=is_error),
    ]
    assert contents(messages)[2]["parts"][0]["functionResponse"]["response"] == sent


@pytest.mark.parametrize(
    ("text", "read_back"),
    [
        ("18 degrees", "18 degrees"),
        (' \n{ "temp" : 18 }\t', '{"temp":18}'),
        ('{"result": "x"}', '{"result": "x"}'),
        ('{"a": 1, "a": 2}', '{"a": 1, "a": 2}'),
        ('{"city": "Z\\u00fcrich"}', '{"city":"Zürich"}'),
    ],
)
def test_result_text_reads_back_unchanged_or_compacted(text: str, read_back: str) -> None:
    """Result text reads back as sent; JSON-object text comes back compact (the documented normalisation)."""
    messages = [LOOP[1], ChatMessage.assistant_tool_calls([TIME]), ChatMessage.tool_result("call_2", text)]
    assert gemini.from_request(gemini.to_request(messages))[2].content == read_back


def test_is_error_travels_as_error_key_and_reads_back() -> None:
    """is_error=True is sent as {"error": text} and reads back as is_error with the same text."""
    result = ChatMessage.tool_result("call_2", "timeout", is_error=True)
    messages = [LOOP[1], ChatMessage.assistant_tool_calls([TIME]), result]
    assert gemini.from_request(gemini.to_request(messages))[2] == result


def test_user_text_after_results_joins_their_content_and_splits_again() -> None:
    """A user message right after the results is a text part after the responses, and reads back apart."""
    messages = [*LOOP[1:5], ChatMessage.user("And tomorrow?")]
    parts = contents(messages)[2]["parts"]
    assert [next(iter(part)) for part in parts] == ["functionResponse", "functionResponse", "text"]
    assert gemini.from_request(gemini.to_request(messages)) == messages


def test_consecutive_user_messages_share_one_content() -> None:
    """Consecutive user messages are text parts of one user content, read back as separate messages."""
    messages = [ChatMessage.user("a"), ChatMessage.user("b")]
    assert contents(messages) == [user({"text": "a"}, {"text": "b"})]
    assert gemini.from_request(gemini.to_request(messages)) == messages


def test_transcript_may_end_on_an_unanswered_tool_call_turn() -> None:
    """A transcript ending on a tool-call turn with no results yet is sent as is (the tools are about to run)."""
    assert len(contents(LOOP[1:3])) == 2


@pytest.mark.parametrize(
    ("messages", "message"),
    [
        (
            [LOOP[1], LOOP[2], ChatMessage.tool_result("call_9", "x")],
            "messages[2].tool_call_id: must be the id of a call of an earlier assistant turn "
            "(Gemini's functionResponse names the function that call named), got 'call_9'",
        ),
        (
            [LOOP[1], ChatMessage.tool_result("call_1", "x")],
            "messages[1].tool_call_id: must be the id of a call of an earlier assistant turn",
        ),
        (
            [LOOP[1], LOOP[2], LOOP[3]],
            f"messages[1].tool_calls[1]: must be answered by a tool result before the next turn "
            f"(Gemini answers 400: '{COUNT_400}'), got 'call_2'",
        ),
        (
            [*LOOP[1:4], ChatMessage.assistant("done")],
            "messages[1].tool_calls[1]: must be answered by a tool result before the next turn",
        ),
        (
            [*LOOP[1:3], ChatMessage.user("never mind")],
            "messages[1].tool_calls[0]: must be answered by a tool result before the next turn",
        ),
        (
            [*LOOP[1:4], LOOP[3], LOOP[4]],
            f"messages[3].tool_call_id: must answer each call once (messages[2] answers it already; "
            f"Gemini answers 400: '{COUNT_400}'), got 'call_1'",
        ),
        (
            [*LOOP[1:5], ChatMessage.user("again"), LOOP[3]],
            "messages[5].tool_call_id: must answer a call of the tool-call turn it follows: Gemini answers "
            "each function call turn in the content right after it, got 'call_1'",
        ),
        (
            [
                *LOOP[1:5],
                ChatMessage.assistant_tool_calls([ToolCall("call_3", "f")]),
                LOOP[3],
            ],
            "messages[5].tool_call_id: must answer a call of the tool-call turn it follows",
        ),
    ],
)
def test_results_must_answer_each_call_of_their_turn_once(messages: list[ChatMessage], message: str) -> None:
    """Unknown ids, missing, duplicate and misplaced results are refused before Gemini's 400."""
    with pytest.raises(InvalidMessage) as caught:
        gemini.to_request(messages)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("messages", "got"),
    [
        ([LOOP[2]], "a first tool-call turn"),
        ([LOOP[0], LOOP[2]], "a first tool-call turn"),
        (
            [LOOP[1], ChatMessage.assistant("Let me see."), LOOP[2]],
            "a tool-call turn after an assistant turn",
        ),
    ],
)
def test_tool_call_turn_must_follow_a_user_turn_or_results(messages: list[ChatMessage], got: str) -> None:
    """A tool-call turn first, or right after an assistant turn, is refused (Gemini's 400)."""
    with pytest.raises(InvalidMessage) as caught:
        gemini.to_request(messages)
    index = len(messages) - 1
    assert str(caught.value) == (
        f"messages[{index}]: must follow a user turn or tool results to carry tool calls "
        f"(Gemini answers 400: '{ORDER_400}'), got {got}"
    )


def test_tool_call_turn_may_follow_results() -> None:
    """A tool-call turn right after the results of another is a valid next step."""
    second = ChatMessage.assistant_tool_calls([ToolCall("call_3", "get_time")])
    messages = [*LOOP[1:5], second, ChatMessage.tool_result("call_3", "noon")]
    assert [content["role"] for content in contents(messages)] == ["user", "model", "user", "model", "user"]


# -- to_request: arguments ------------------------------------------------------------------


def test_invalid_arguments_raise_naming_message_and_call() -> None:
    """Arguments that are not a JSON object raise InvalidArguments with the message index, call id and raw text."""
    broken = ToolCall("call_7", "get_weather", '{"city": "Par')
    messages = [LOOP[1], ChatMessage.assistant_tool_calls([TIME, broken])]
    with pytest.raises(InvalidArguments) as caught:
        gemini.to_request(messages)
    error = caught.value
    assert error.path == "messages[1].tool_calls[1].arguments"
    assert (error.call_id, error.name, error.raw) == ("call_7", "get_weather", '{"city": "Par')
    assert "to be sent as gemini's arguments object" in str(error)


@pytest.mark.parametrize("raw", ['{"city": "Par', "[1, 2]", '"x"'])
def test_keep_invalid_arguments_wraps_and_reads_back_the_raw_text(raw: str) -> None:
    """keep_invalid_arguments sends {"_toolturns_raw_arguments": text}; reading restores the text exactly."""
    messages = [LOOP[1], ChatMessage.assistant_tool_calls([ToolCall("call_7", "f", raw)])]
    body = gemini.to_request(messages, keep_invalid_arguments=True)
    assert body["contents"][1]["parts"][0]["functionCall"]["args"] == {RAW_ARGUMENTS_KEY: raw}
    assert gemini.from_request(body) == messages


@pytest.mark.parametrize(
    ("raw", "where", "what"),
    [
        ('{"a": 1, "a": 2}', "arguments", "repeated key 'a'"),
        ('{"x": [{"a": 1, "a": 2}]}', "arguments.x[0]", "repeated key 'a'"),
        ('{"x": 1e-400}', "arguments.x", "the number 1e-400 would be sent as 0.0"),
        ('{"x": 12345678901234567890.5}', "arguments.x", "would be sent as 1.2345678901234567e+19"),
        ('{"x": {"y": 0.10000000000000000001}}', "arguments.x.y", "would be sent as 0.1"),
    ],
)
def test_arguments_an_object_would_change_are_refused_or_sent_wrapped(
    raw: str, where: str, what: str
) -> None:
    """A repeated key or a number a double changes is refused, located; keep_invalid_arguments=True
    sends the text wrapped, and it reads back exactly."""
    messages = [LOOP[1], ChatMessage.assistant_tool_calls([ToolCall("call_7", "f", raw)])]
    with pytest.raises(InvalidArguments) as caught:
        gemini.to_request(messages)
    error = caught.value
    path = f"messages[1].tool_calls[0].{where}"
    assert (error.path, error.call_id, error.name, error.raw) == (path, "call_7", "f", raw)
    assert what in str(error)
    assert "gemini carries arguments as an object" in str(error)
    body = gemini.to_request(messages, keep_invalid_arguments=True)
    assert body["contents"][1]["parts"][0]["functionCall"]["args"] == {RAW_ARGUMENTS_KEY: raw}
    read = gemini.from_request(json.loads(json.dumps(body)))
    assert read == messages
    assert read[1].tool_calls is not None
    assert read[1].tool_calls[0].arguments_json == raw


# -- ids ------------------------------------------------------------------------------------


def test_calls_without_id_get_deterministic_marked_ids() -> None:
    """The same response always gives the same ids, marked as made up; a real id is kept unmarked."""
    body = response(call_part("f", {"x": 1}), {"functionCall": {"name": "g", "args": {}, "id": "real"}})
    first, second = gemini.from_response(body), gemini.from_response(copy.deepcopy(body))
    assert first == second
    assert first.tool_calls is not None
    made_up, real = first.tool_calls
    assert made_up.id.startswith("call_")
    assert is_generated_id(made_up, "gemini")
    assert real.id == "real"
    assert not is_generated_id(real, "gemini")
    assert real.provider_data == {}


def test_generated_ids_are_unique_for_identical_calls() -> None:
    """Two identical calls in one content get different ids (their positions differ)."""
    turn = gemini.from_response(response(call_part("f"), call_part("f")))
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].id != turn.tool_calls[1].id


def test_generated_ids_depend_on_the_response_id() -> None:
    """Two responses with different responseId give different ids to the same call."""
    a = gemini.from_response(response(call_part("f"), responseId="r1"))
    b = gemini.from_response(response(call_part("f"), responseId="r2"))
    assert a.tool_calls is not None
    assert b.tool_calls is not None
    assert a.tool_calls[0].id != b.tool_calls[0].id


def test_generated_ids_are_unique_across_contents_of_a_request() -> None:
    """The same call in two model contents of a request gets two ids."""
    body = [user({"text": "a"}), model(call_part("f")), user({"text": "b"}), model(call_part("f"))]
    messages = gemini.from_request(body)
    assert messages[1].tool_calls is not None
    assert messages[3].tool_calls is not None
    assert messages[1].tool_calls[0].id != messages[3].tool_calls[0].id


def test_generated_ids_are_never_sent_back() -> None:
    """A made-up id goes neither on the functionCall nor on the functionResponse answering it."""
    turn = gemini.from_response(response(call_part("get_time")))
    assert turn.tool_calls is not None
    result = ChatMessage.tool_result(turn.tool_calls[0].id, "noon")
    sent = contents([ChatMessage.user("Time?"), turn, result])
    assert sent[1] == model(call_part("get_time"))
    assert sent[2] == user({"functionResponse": {"name": "get_time", "response": {"result": "noon"}}})


def test_empty_id_is_no_id() -> None:
    """functionCall.id "" says no more than a missing id: the call gets a made-up id."""
    turn = gemini.from_response(response({"functionCall": {"name": "f", "id": ""}}))
    assert turn.tool_calls is not None
    assert is_generated_id(turn.tool_calls[0], "gemini")


def test_responses_without_id_answer_the_first_unanswered_call_of_their_name() -> None:
    """functionResponse without id matches the first not-yet-answered call of the same name, in order."""
    body = [
        user({"text": "twice"}),
        model(call_part("f", {"n": 1}), call_part("g"), call_part("f", {"n": 2})),
        user(
            {"functionResponse": {"name": "f", "response": {"result": "one"}}},
            {"functionResponse": {"name": "f", "response": {"result": "two"}}},
            {"functionResponse": {"name": "g", "response": {"result": "gee"}}},
        ),
    ]
    messages = gemini.from_request(body)
    calls = messages[1].tool_calls
    assert calls is not None
    assert [(m.tool_call_id, m.content) for m in messages[2:]] == [
        (calls[0].id, "one"),
        (calls[2].id, "two"),
        (calls[1].id, "gee"),
    ]


def test_response_with_id_answers_that_call() -> None:
    """A functionResponse with an id keeps it and no id-less response can answer that call again."""
    body = [
        user({"text": "x"}),
        model({"functionCall": {"name": "f", "args": {}, "id": "a"}}, call_part("f")),
        user(
            {"functionResponse": {"name": "f", "response": {"result": "1"}, "id": "a"}},
            {"functionResponse": {"name": "f", "response": {"result": "2"}}},
        ),
    ]
    messages = gemini.from_request(body)
    calls = messages[1].tool_calls
    assert calls is not None
    assert [m.tool_call_id for m in messages[2:]] == ["a", calls[1].id]


def test_response_with_an_unknown_id_reads_as_is_and_is_refused_when_sent() -> None:
    """Reading keeps a functionResponse id that matches no call; to_request then names the bad result."""
    body = [
        user({"text": "x"}),
        model(call_part("f")),
        user({"functionResponse": {"name": "f", "response": {"result": "1"}, "id": "zz"}}),
    ]
    messages = gemini.from_request(body)
    assert messages[2].tool_call_id == "zz"
    with pytest.raises(InvalidMessage, match=r"^messages\[2\]\.tool_call_id: must be the id of a call"):
        gemini.to_request(messages)


def test_response_without_id_and_no_matching_call_is_an_error() -> None:
    """A functionResponse without id and no unanswered call of its name is a clear error with its path."""
    body = [
        user({"text": "x"}),
        model(call_part("f")),
        user(
            {"functionResponse": {"name": "f", "response": {}}},
            {"functionResponse": {"name": "f", "response": {}}},
        ),
    ]
    with pytest.raises(InvalidMessage) as caught:
        gemini.from_request(body)
    assert str(caught.value) == (
        "contents[2].parts[1].functionResponse.id: is required when no unanswered call named 'f' "
        "is in the model content before (a response without id answers the first such call)"
    )


# -- thought signatures and parts toolturns does not model -----------------------------------


def test_thought_signature_on_a_call_goes_back_on_that_same_part() -> None:
    """A thoughtSignature read on a functionCall part is sent back on that part, and only there."""
    body = response(
        call_part("get_weather", {"city": "Paris"}, thoughtSignature="c2lnLTE="),
        call_part("get_time"),
    )
    turn = gemini.from_response(body)
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].provider_data["gemini"] == {
        "keys": {"thoughtSignature": "c2lnLTE="},
        "generated_id": True,
    }
    sent = contents([ChatMessage.user("x"), turn])[1]
    assert sent == model(
        call_part("get_weather", {"city": "Paris"}, thoughtSignature="c2lnLTE="), call_part("get_time")
    )


def test_thought_signature_never_reaches_another_wire() -> None:
    """The OpenAI wire of a message read from Gemini carries no signature, no thought, no provider data."""
    body = response(
        {"text": "hm", "thought": True, "thoughtSignature": "s1"}, call_part("f", thoughtSignature="s2")
    )
    wire = json.dumps(gemini.from_response(body).to_wire())
    assert "s1" not in wire
    assert "s2" not in wire
    assert "hm" not in wire


GEMINI_3 = response(
    {"text": "Thinking about the weather.", "thought": True},
    {"text": "I will check. "},
    {"text": "One moment.", "thoughtSignature": "c2lnLTA="},
    {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
    call_part("get_weather", {"city": "Paris"}, thoughtSignature="c2lnLTE="),
    {"text": "", "thoughtSignature": "c2lnLTI="},
    responseId="resp-1",
)


def test_parts_it_does_not_model_are_kept_and_content_is_the_answer_text() -> None:
    """Thought, signed text, code and empty parts are kept with their positions; content is the non-thought text."""
    turn = gemini.from_response(GEMINI_3)
    assert turn.content == "I will check. One moment."
    kept = turn.provider_data["gemini"]["items"]
    assert [position for position, _ in kept] == [0, 1, 2, 3, 5]
    assert kept[2] == [2, {"text": "One moment.", "thoughtSignature": "c2lnLTA="}]


def test_every_part_goes_back_unchanged_at_its_position() -> None:
    """to_request replays the model content part for part (only the made-up id is left out)."""
    turn = gemini.from_response(GEMINI_3)
    assert contents([ChatMessage.user("x"), turn])[1] == GEMINI_3["candidates"][0]["content"]


def test_kept_parts_read_back_from_the_request_equal() -> None:
    """A model content with kept parts reads back from the request as the same message."""
    turn = gemini.from_response(GEMINI_3)
    again = gemini.from_request(gemini.to_request([ChatMessage.user("x"), turn]))[1]
    assert again.provider_data == turn.provider_data
    assert again.content == turn.content


@pytest.mark.parametrize(
    "parts",
    [
        [{"text": "a"}, {"text": "b"}],
        [call_part("f"), {"text": "after"}],
        [{"text": ""}, call_part("f")],
        [{"text": "a"}, call_part("f"), {"text": "b"}],
    ],
)
def test_plain_text_parts_are_kept_when_text_then_calls_would_not_rebuild_them(
    parts: list[dict[str, Any]],
) -> None:
    """Several text parts, or text after or empty before a call, are replayed exactly too."""
    turn = gemini.from_response(response(*parts))
    assert "gemini" in turn.provider_data
    assert contents([ChatMessage.user("x"), turn])[1] == model(*parts)


@pytest.mark.parametrize(
    "parts",
    [[{"text": "a"}], [{"text": ""}], [{"text": "a"}, call_part("f")], [call_part("f")]],
)
def test_plain_contents_keep_nothing(parts: list[dict[str, Any]]) -> None:
    """One text part before the calls (or calls alone) is rebuilt from content and calls: no provider data."""
    turn = gemini.from_response(response(*parts))
    assert turn.provider_data == {}
    assert contents([ChatMessage.user("x"), turn])[1] == model(*parts)


def test_unknown_keys_of_call_and_response_parts_travel_back() -> None:
    """Keys of functionCall/functionResponse parts toolturns does not model go back on the same part."""
    body = [
        user({"text": "x"}),
        model(
            {
                "functionCall": {"name": "f", "args": {}, "id": "a", "willContinue": False},
                "partMetadata": {"k": 1},
            }
        ),
        user(
            {
                "functionResponse": {
                    "name": "f",
                    "response": {"result": "ok"},
                    "id": "a",
                    "scheduling": "SILENT",
                },
                "videoMetadata": {"v": 2},
            }
        ),
    ]
    messages = gemini.from_request(body)
    assert messages[1].tool_calls is not None
    assert messages[1].tool_calls[0].provider_data["gemini"] == {
        "keys": {"partMetadata": {"k": 1}},
        "nested": {"functionCall": {"willContinue": False}},
    }
    assert messages[2].provider_data["gemini"] == {
        "keys": {"videoMetadata": {"v": 2}},
        "nested": {"functionResponse": {"scheduling": "SILENT"}},
    }
    assert gemini.to_request(messages)["contents"] == body


def test_null_keys_of_parts_carry_nothing() -> None:
    """Null values in parts (proto JSON "not set") are dropped: they do not force kept parts."""
    turn = gemini.from_response(response({"text": "a", "thought": None, "thoughtSignature": None}))
    assert turn == ChatMessage.assistant("a")


def test_empty_keys_of_call_and_response_parts_carry_nothing() -> None:
    """Empty values ("", [], {}) of a call's or result's other keys are not kept, as null ones are not
    (the core's rule for unknown keys; they were kept before); 0 and false are kept."""
    body = [
        user({"text": "x"}),
        model(
            {
                "functionCall": {
                    "name": "f",
                    "args": {},
                    "id": "a",
                    "willContinue": False,
                    "partialArgs": [],
                },
                "thoughtSignature": "",
                "partMetadata": {},
            }
        ),
        user({"functionResponse": {"name": "f", "response": {"result": "ok"}, "id": "a", "scheduling": ""}}),
    ]
    messages = gemini.from_request(body)
    assert messages[1].tool_calls is not None
    assert messages[1].tool_calls[0].provider_data == {
        "gemini": {"nested": {"functionCall": {"willContinue": False}}}
    }
    assert messages[2].provider_data == {}


@pytest.mark.parametrize("role", ["system", "developer", "user"])
def test_provider_data_on_a_text_turn_is_refused(role: str) -> None:
    """Reading keeps nothing of a system or user turn, so a Gemini entry there is refused (it was ignored)."""
    message = ChatMessage(role, "x", provider_data={"gemini": {"keys": {"thoughtSignature": "c2ln"}}})
    with pytest.raises(InvalidMessage) as caught:
        gemini.to_request([message])
    assert str(caught.value) == (
        "messages[0].provider_data.gemini.keys: is not data the Gemini codec writes (it writes none here), got dict"
    )


def test_changed_content_with_kept_parts_is_refused() -> None:
    """Content that no longer matches the kept text parts is refused, not sent with stale parts."""
    import dataclasses

    turn = dataclasses.replace(gemini.from_response(GEMINI_3), content="Something else.")
    with pytest.raises(InvalidMessage) as caught:
        gemini.to_request([ChatMessage.user("x"), turn])
    assert str(caught.value).startswith(
        "messages[1].content: must be the text of the parts kept in provider_data['gemini'] ('I will check. One moment.'...): "
        "drop provider_data['gemini'] to send other text, got 'Something else.'"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            "x",
            "messages[1].provider_data.gemini: must be an object (the data the Gemini codec read), got 'x'",
        ),
        (
            {"items": "x"},
            "messages[1].provider_data.gemini.items: must be an array of [position, item] pairs, got 'x'",
        ),
        (
            {"items": [[0]]},
            "messages[1].provider_data.gemini.items[0]: must be a [position, item] pair: an integer >= 0 and an"
            " object, got list",
        ),
        ({"items": [[0, "x"]]}, "messages[1].provider_data.gemini.items[0]: must be a [position, item] pair"),
        (
            {"items": [["0", {"text": "a"}]]},
            "messages[1].provider_data.gemini.items[0]: must be a [position, item] pair",
        ),
        (
            {"items": [[2, {"text": "a"}]]},
            "messages[1].provider_data.gemini.items[0][0]: must be a free position below 2",
        ),
        (
            {"items": [[-1, {"text": "a"}]]},
            "messages[1].provider_data.gemini.items[0]: must be a [position, item] pair",
        ),
        (
            {"items": [[True, {"text": "a"}]]},
            "messages[1].provider_data.gemini.items[0]: must be a [position, item] pair",
        ),
        (
            {"items": [[0, {"text": "a"}], [0, {"text": ""}]]},
            "messages[1].provider_data.gemini.items[1][0]: must be a free position below 3",
        ),
        (
            {"parts": [[0, {"text": "a"}]]},
            "messages[1].provider_data.gemini.parts: is not data the Gemini codec writes (it writes items)",
        ),
        (
            {"keys": {"thoughtSignature": "c2ln"}},
            "messages[1].provider_data.gemini.keys: is not data the Gemini codec writes (it writes items)",
        ),
    ],
)
def test_malformed_kept_parts_are_refused(data: Any, message: str) -> None:
    """Hand-made provider_data["gemini"] that is not a parts layout is a clear InvalidMessage."""
    turn = ChatMessage("assistant", "a", tool_calls=[TIME], provider_data={"gemini": data})
    with pytest.raises(InvalidMessage) as caught:
        gemini.to_request([ChatMessage.user("x"), turn])
    assert str(caught.value).startswith(message)


def test_empty_kept_parts_mean_none() -> None:
    """provider_data["gemini"] without items (or with an empty list) sends content and calls as usual;
    a key reading never writes beside them is refused (it was ignored)."""
    turn = ChatMessage("assistant", "a", provider_data={"gemini": {"items": []}})
    assert contents([ChatMessage.user("x"), turn])[1] == model({"text": "a"})
    odd = ChatMessage("assistant", "a", provider_data={"gemini": {"items": [], "other": 1}})
    with pytest.raises(InvalidMessage) as caught:
        contents([ChatMessage.user("x"), odd])
    assert str(caught.value) == (
        "messages[1].provider_data.gemini.other: is not data the Gemini codec writes (it writes items), got 1"
    )


@pytest.mark.parametrize(
    ("where", "data", "message"),
    [
        (
            "call",
            "x",
            "messages[1].tool_calls[0].provider_data.gemini: must be an object (the data the Gemini codec read),"
            " got 'x'",
        ),
        (
            "result",
            5,
            "messages[2].provider_data.gemini: must be an object (the data the Gemini codec read), got 5",
        ),
        (
            "call",
            {"thoughtSignature": "c2ln"},
            "messages[1].tool_calls[0].provider_data.gemini.thoughtSignature: is not data the Gemini codec writes"
            " (it writes generated_id, keys, nested), got 'c2ln'",
        ),
        (
            "result",
            {"generated_id": True},
            "messages[2].provider_data.gemini.generated_id: is not data the Gemini codec writes (it writes keys,"
            " nested), got True",
        ),
        (
            "call",
            {"nested": {"functionResponse": {"x": 1}}},
            "messages[1].tool_calls[0].provider_data.gemini.nested.functionResponse: is not a nested object the"
            " Gemini codec keeps keys of (it keeps those of functionCall), got dict",
        ),
        (
            "call",
            {"keys": {"function_call": {}}},
            "messages[1].tool_calls[0].provider_data.gemini.keys.function_call: is a key the Gemini codec writes"
            " itself, not a kept key, got dict",
        ),
    ],
)
def test_malformed_call_and_result_provider_data_is_refused(where: str, data: Any, message: str) -> None:
    """provider_data["gemini"] of a call or a result holds only what reading keeps of its part."""
    call = ToolCall("c", "f", provider_data={"gemini": data} if where == "call" else None)
    result = ChatMessage(
        "tool", "ok", tool_call_id="c", provider_data={"gemini": data} if where == "result" else None
    )
    error = InvalidToolCall if where == "call" else InvalidMessage
    with pytest.raises(error) as caught:
        gemini.to_request([ChatMessage.user("x"), ChatMessage.assistant_tool_calls([call]), result])
    assert str(caught.value) == message


@pytest.mark.parametrize("key", ["id", "name", "args"])
def test_kept_function_keys_never_override_modelled_ones(key: str) -> None:
    """A kept functionCall key named like a modelled one (name, args, id) never replaces it: it is refused
    (it was dropped silently); the other kept keys go back on the function object."""
    kept_keys: dict[str, Any] = {"extra": 1}
    call = ToolCall(
        "c",
        "f",
        {"x": 1},
        provider_data={"gemini": {"generated_id": True, "nested": {"functionCall": kept_keys}}},
    )
    sent = contents([ChatMessage.user("x"), ChatMessage.assistant_tool_calls([call])])[1]
    assert sent == model({"functionCall": {"name": "f", "args": {"x": 1}, "extra": 1}})
    kept_keys[key] = "zz"
    call = ToolCall(
        "c",
        "f",
        {"x": 1},
        provider_data={"gemini": {"generated_id": True, "nested": {"functionCall": kept_keys}}},
    )
    with pytest.raises(InvalidToolCall) as caught:
        contents([ChatMessage.user("x"), ChatMessage.assistant_tool_calls([call])])
    assert str(caught.value) == (
        f"messages[1].tool_calls[0].provider_data.gemini.nested.functionCall.{key}: "
        "is a key the Gemini codec writes itself, not a kept key, got 'zz'"
    )


# -- from_response --------------------------------------------------------------------------


def test_from_response_reads_text() -> None:
    """A text answer reads as an assistant message with that text."""
    assert gemini.from_response(response({"text": "Hello"})) == ChatMessage.assistant("Hello")


def test_from_response_accepts_a_single_part_object_and_a_bare_content() -> None:
    """parts may be one object (as REST samples allow); a bare model content reads too."""
    single = {"candidates": [{"content": {"role": "model", "parts": {"text": "Hi"}}}]}
    assert gemini.from_response(single) == ChatMessage.assistant("Hi")
    assert gemini.from_response({"role": "model", "parts": [{"text": "Hi"}]}) == ChatMessage.assistant("Hi")
    assert gemini.from_response({"parts": [{"text": "Hi"}]}) == ChatMessage.assistant("Hi")


def test_from_response_reads_another_candidate() -> None:
    """choice=1 reads the second candidate."""
    body = {"candidates": [{"content": model({"text": "a"})}, {"content": model({"text": "b"})}]}
    assert gemini.from_response(body, choice=1) == ChatMessage.assistant("b")


def test_from_response_content_without_parts_is_an_empty_turn() -> None:
    """A content without parts reads as an assistant turn with no text."""
    assert gemini.from_response({"candidates": [{"content": {"role": "model"}}]}) == ChatMessage.assistant("")


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        ([], InvalidMessage, "must be a generateContent response object, got list"),
        (
            {"promptFeedback": {"blockReason": "SAFETY"}},
            InvalidMessage,
            "candidates: must be an array with a candidate at index 0 (Gemini sends none when it blocks "
            "the prompt: see promptFeedback), got None",
        ),
        ({"candidates": []}, InvalidMessage, "candidates: must be an array with a candidate at index 0"),
        ({"candidates": {"content": {}}}, InvalidMessage, "candidates: must be an array with a candidate"),
        ({"candidates": ["x"]}, InvalidMessage, "candidates[0]: must be a candidate object, got 'x'"),
        (
            {"candidates": [{"finishReason": "SAFETY"}]},
            InvalidMessage,
            "candidates[0].content: is required (a candidate without content ended early: finishReason 'SAFETY')",
        ),
        (
            {"candidates": [{"content": "x"}]},
            InvalidMessage,
            "candidates[0].content: must be a Content object (a candidate without content ended early: "
            "finishReason None), got 'x'",
        ),
        (
            {"candidates": [{"content": {"role": "user", "parts": []}}]},
            InvalidMessage,
            "candidates[0].content.role: must be 'model' in a response, got 'user'",
        ),
        (
            response(["x"]),  # type: ignore[arg-type]
            InvalidMessage,
            "candidates[0].content.parts[0]: must be a part object, got list",
        ),
        (
            response({"functionCall": {"args": {}}}),
            InvalidToolCall,
            "candidates[0].content.parts[0].functionCall.name: is required",
        ),
        (
            response({"functionCall": {"name": ""}}),
            InvalidToolCall,
            "candidates[0].content.parts[0].functionCall.name: must be a non-empty string, got ''",
        ),
        (
            response({"functionCall": []}),
            InvalidToolCall,
            "candidates[0].content.parts[0].functionCall: must be an object, got list",
        ),
        (
            response({"functionCall": {"name": "f", "args": [1]}}),
            InvalidToolCall,
            "candidates[0].content.parts[0].functionCall.args: must be an object (or JSON text), got list",
        ),
        (
            response({"functionCall": {"name": "f", "id": 5}}),
            InvalidToolCall,
            "candidates[0].content.parts[0].functionCall.id: must be a string, got 5",
        ),
        (
            response({"functionCall": {"name": "f", "id": "a"}}, {"functionCall": {"name": "g", "id": "a"}}),
            InvalidToolCall,
            "candidates[0].content.parts[1].functionCall.id: must be unique within the content (parts[0] has it too), got 'a'",
        ),
        (
            response({"text": 5}),
            InvalidMessage,
            "candidates[0].content.parts[0].text: must be a string, got 5",
        ),
        (
            response({"functionResponse": {"name": "f", "response": {}}}),
            InvalidMessage,
            "candidates[0].content.parts[0].functionResponse: belongs in a user content, not a model content",
        ),
        (
            {"candidates": [{"content": {"parts": 5}}]},
            InvalidMessage,
            "candidates[0].content.parts: must be an array of parts, got 5",
        ),
        (
            {"role": "user", "parts": []},
            InvalidMessage,
            "role: must be 'model' in a response, got 'user'",
        ),
    ],
)
def test_from_response_rejects_malformed_bodies_with_native_paths(
    body: Any, error: type[MessageError], message: str
) -> None:
    """Malformed responses raise a MessageError subclass whose path is the native one."""
    with pytest.raises(error) as caught:
        gemini.from_response(body)
    assert str(caught.value).startswith(message)


def test_from_response_rejects_a_candidate_index_that_is_not_an_int() -> None:
    """candidate must be an int index."""
    with pytest.raises(InvalidMessage, match=r"^candidates: must be an array with a candidate at index '0'"):
        gemini.from_response(response({"text": "a"}), choice="0")  # type: ignore[arg-type]


def test_from_response_rejects_arguments_that_are_not_json() -> None:
    """args holding values that are not JSON (from a Python caller) raise InvalidArguments with the path."""
    with pytest.raises(InvalidArguments) as caught:
        gemini.from_response(response(call_part("f", {"x": float("nan")})))
    assert caught.value.path == "candidates[0].content.parts[0].functionCall.args.x"
    assert caught.value.name == "f"


def test_snake_case_field_names_read_as_camel_case() -> None:
    """snake_case field names (SDK dumps, REST samples) read like camelCase ones; keys inside args do not change."""
    body = {
        "response_id": "r1",
        "candidates": [
            {
                "finish_reason": "STOP",
                "content": {
                    "role": "model",
                    "parts": [
                        {
                            "function_call": {
                                "name": "f",
                                "args": {"city_name": "Paris"},
                                "will_continue": False,
                            },
                            "thought_signature": "c2ln",
                        }
                    ],
                },
            }
        ],
    }
    camel = response(
        {
            "functionCall": {"name": "f", "args": {"city_name": "Paris"}, "willContinue": False},
            "thoughtSignature": "c2ln",
        },
        responseId="r1",
    )
    turn = gemini.from_response(body)
    assert turn == gemini.from_response(camel)
    assert contents([ChatMessage.user("x"), turn])[1] == camel["candidates"][0]["content"]


def test_snake_case_request_parts_read() -> None:
    """function_call and function_response parts of a snake_case request read as calls and results."""
    body = {
        "system_instruction": {"parts": [{"text": "S"}]},
        "contents": [
            user({"text": "q"}),
            model({"function_call": {"name": "f", "args": {}, "id": "a"}}),
            user({"function_response": {"name": "f", "response": {"result": "ok"}, "id": "a"}}),
        ],
    }
    assert gemini.from_request(body) == [
        ChatMessage.system("S"),
        ChatMessage.user("q"),
        ChatMessage.assistant_tool_calls([ToolCall("a", "f")]),
        ChatMessage.tool_result("a", "ok"),
    ]


def test_a_field_spelled_both_ways_is_refused() -> None:
    """A part naming one field in snake_case and in camelCase is ambiguous: refused with its path."""
    body = response({"thoughtSignature": "a", "thought_signature": "b", "text": "x"})
    with pytest.raises(InvalidMessage) as caught:
        gemini.from_response(body)
    assert str(caught.value) == (
        "candidates[0].content.parts[0].thought_signature: names the field 'thoughtSignature' a second time "
        "(snake_case and camelCase spell the same field), got 'b'"
    )


def test_a_part_key_named_like_the_marker_does_not_mark_the_call() -> None:
    """A part key generated_id is read as the field generatedId: it never passes for toolturns' own marker."""
    turn = gemini.from_response(response({"functionCall": {"name": "f", "id": "real"}, "generated_id": True}))
    assert turn.tool_calls is not None
    call = turn.tool_calls[0]
    assert not is_generated_id(call, "gemini")
    assert contents([ChatMessage.user("x"), turn])[1] == model(
        {"functionCall": {"name": "f", "args": {}, "id": "real"}, "generatedId": True}
    )


# -- from_request ---------------------------------------------------------------------------


def test_from_request_reads_body_list_and_snake_case() -> None:
    """A body, a bare list of contents and snake_case system_instruction all read."""
    body = gemini.to_request(LOOP)
    assert gemini.from_request(body) == LOOP
    assert gemini.from_request(body["contents"]) == LOOP[1:]
    snake = {"system_instruction": body["systemInstruction"], "contents": body["contents"]}
    assert gemini.from_request(snake) == LOOP


def test_from_request_accepts_single_objects_where_lists_belong() -> None:
    """contents, systemInstruction.parts and parts may be single objects."""
    body = {
        "system_instruction": {"parts": {"text": "S"}},
        "contents": {"role": "user", "parts": {"text": "U"}},
    }
    assert gemini.from_request(body) == [ChatMessage.system("S"), ChatMessage.user("U")]


def test_from_request_reads_missing_and_legacy_function_roles_as_user() -> None:
    """A content without role is the user's; the legacy role "function" reads like "user"."""
    body = [
        {"parts": [{"text": "hi"}]},
        model(call_part("f")),
        {"role": "function", "parts": [{"functionResponse": {"name": "f", "response": {"result": "ok"}}}]},
    ]
    messages = gemini.from_request(body)
    assert messages[0] == ChatMessage.user("hi")
    assert messages[2].role == "tool"
    assert [content["role"] for content in gemini.to_request(messages)["contents"]] == [
        "user",
        "model",
        "user",
    ]


def test_from_request_contents_without_parts() -> None:
    """A user or model content without parts reads as an empty user or assistant message."""
    assert gemini.from_request([{"role": "user", "parts": []}, {"role": "model"}]) == [
        ChatMessage.user(""),
        ChatMessage.assistant(""),
    ]


def test_from_request_puts_responses_before_text_of_a_user_content() -> None:
    """Responses answer the model turn before, so text parts before them read after them."""
    body = [
        user({"text": "q"}),
        model(call_part("f")),
        user({"text": "thanks"}, {"functionResponse": {"name": "f", "response": {"result": "ok"}}}),
    ]
    roles = [m.role for m in gemini.from_request(body)]
    assert roles == ["user", "assistant", "tool", "user"]


@pytest.mark.parametrize(
    ("response_value", "content", "is_error"),
    [
        ({"result": "ok"}, "ok", False),
        ({"result": 1000}, "1000", False),
        ({"result": {"a": [1, None]}}, '{"a":[1,null]}', False),
        ({"result": None}, "null", False),
        ({"error": "boom"}, "boom", True),
        ({"error": {"code": 500}}, '{"code":500}', True),
        ({"temp": 18, "unit": "C"}, '{"temp":18,"unit":"C"}', False),
        ({"result": "a", "extra": 1}, '{"result":"a","extra":1}', False),
        ({}, "{}", False),
        ({"name": "f", "content": {"x": "ü"}}, '{"name":"f","content":{"x":"ü"}}', False),
    ],
)
def test_from_request_reads_response_objects(
    response_value: dict[str, Any], content: str, is_error: bool
) -> None:
    """{"result": x} is x (JSON text unless a string), {"error": x} an error, any other object its compact JSON."""
    body = [
        user({"text": "q"}),
        model(call_part("f")),
        user({"functionResponse": {"name": "f", "response": response_value}}),
    ]
    result = gemini.from_request(body)[2]
    assert (result.content, result.is_error) == (content, is_error)


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        (5, InvalidMessage, 'must be a request body ({"contents": [...]}) or an array of contents, got 5'),
        ({"contents": "x"}, InvalidMessage, "contents: must be an array of contents, got 'x'"),
        ({"model": "gemini"}, InvalidMessage, "contents: must be an array of contents, got None"),
        (["x"], InvalidMessage, "contents[0]: must be a Content object, got 'x'"),
        (
            [{"role": "assistant", "parts": []}],
            InvalidMessage,
            "contents[0].role: must be 'user' or 'model' (or the legacy 'function'), got 'assistant'",
        ),
        (
            [{"role": "user", "parts": [[{"text": "a"}]]}],
            InvalidMessage,
            "contents[0].parts[0]: must be a part object, got list",
        ),
        (
            [{"role": "user", "parts": "hi"}],
            InvalidMessage,
            "contents[0].parts: must be an array of parts, got 'hi'",
        ),
        (
            [user({"text": "a", "inlineData": {"mimeType": "image/png", "data": "AA=="}})],
            InvalidMessage,
            "contents[0].parts[0]: must hold exactly one of text, inlineData or fileData (or a functionResponse), got 'text, inlineData'",
        ),
        (
            [user({"executableCode": {"language": "PYTHON", "code": "1"}})],
            InvalidMessage,
            "contents[0].parts[0]: must hold exactly one of text, inlineData or fileData (or a functionResponse), got 'executableCode'",
        ),
        (
            [user({})],
            InvalidMessage,
            "contents[0].parts[0]: must hold exactly one of text, inlineData or fileData (or a functionResponse), got 'no keys'",
        ),
        ([user({"text": ["a"]})], InvalidMessage, "contents[0].parts[0].text: must be a string, got list"),
        (
            [{"role": "user", "parts": [{1: "x"}]}],
            InvalidMessage,
            "contents[0].parts[0]: must hold exactly one of text, inlineData or fileData (or a functionResponse), got '1'",
        ),
        (
            [user(call_part("f"))],
            InvalidMessage,
            "contents[0].parts[0].functionCall: belongs in a model content, not a user content",
        ),
        (
            [user({"text": "q"}), model({"functionCall": {"args": {}}})],
            InvalidToolCall,
            "contents[1].parts[0].functionCall.name: is required",
        ),
        (
            [user({"functionResponse": "x"})],
            InvalidMessage,
            "contents[0].parts[0].functionResponse: must be an object, got 'x'",
        ),
        (
            [user({"functionResponse": {"response": {}}})],
            InvalidMessage,
            "contents[0].parts[0].functionResponse.name: is required",
        ),
        (
            [user({"functionResponse": {"name": 5, "response": {}}})],
            InvalidMessage,
            "contents[0].parts[0].functionResponse.name: must be a non-empty string, got 5",
        ),
        (
            [user({"functionResponse": {"name": "f"}})],
            InvalidMessage,
            "contents[0].parts[0].functionResponse.response: is required (an object)",
        ),
        (
            [user({"functionResponse": {"name": "f", "response": "ok"}})],
            InvalidMessage,
            "contents[0].parts[0].functionResponse.response: must be an object, got 'ok'",
        ),
        (
            [user({"functionResponse": {"name": "f", "response": {}, "id": 7}})],
            InvalidMessage,
            "contents[0].parts[0].functionResponse.id: must be a string, got 7",
        ),
        (
            [user({"functionResponse": {"name": "f", "response": {"result": float("inf")}}})],
            InvalidMessage,
            "contents[0].parts[0].functionResponse.response.result: must be a finite number, got inf",
        ),
        (
            {"systemInstruction": "Be brief.", "contents": []},
            InvalidMessage,
            "systemInstruction: must be a Content object ({\"parts\": [...]}), got 'Be brief.'",
        ),
        (
            {"system_instruction": {"parts": [{"inlineData": {}}]}, "contents": []},
            InvalidMessage,
            "systemInstruction.parts[0]: must be a text part: a system instruction is text only, got 'inlineData'",
        ),
    ],
)
def test_from_request_rejects_malformed_bodies_with_native_paths(
    body: Any, error: type[MessageError], message: str
) -> None:
    """Malformed request bodies raise a MessageError subclass whose path is the native one."""
    with pytest.raises(error) as caught:
        gemini.from_request(body)
    assert str(caught.value).startswith(message)


# -- the golden examples ---------------------------------------------------------------------

EXAMPLES = [e for e in wire_examples("gemini") if e["kind"] != "stream_chunks"]
REQUESTS = [e for e in EXAMPLES if e["kind"] == "request_messages" and "expect_status" not in e]
RESPONSES = [e for e in EXAMPLES if e["kind"] == "response_message"]
ERRORS = next(e for e in EXAMPLES if e["id"] == "gemini-400-errors")

# snake_case keys the REST API accepts, as to_request spells them.
CAMEL = {"system_instruction": "systemInstruction", "function_declarations": "functionDeclarations"}


def as_list(value: Any) -> list[Any]:
    """A single object where a list belongs, as a list."""
    return value if isinstance(value, list) else [value]


def normalised(body: Any) -> dict[str, Any]:
    """A native request body as to_request emits it, after the documented normalisations.

    camelCase keys; lists where single objects stood; role "function" (legacy)
    and a missing role as "user"; only systemInstruction, contents and tools
    (generation and tool config are not messages).
    """
    if isinstance(body, list):
        body = {"contents": body}
    body = {CAMEL.get(key, key): value for key, value in body.items()}
    out: dict[str, Any] = {}
    if "systemInstruction" in body:
        out["systemInstruction"] = {"parts": as_list(body["systemInstruction"]["parts"])}
    out["contents"] = [
        {"role": "model" if content.get("role") == "model" else "user", "parts": as_list(content["parts"])}
        for content in as_list(body["contents"])
    ]
    if "tools" in body:
        out["tools"] = [
            {CAMEL.get(key, key): value for key, value in entry.items()} for entry in body["tools"]
        ]
    return out


def example_tools(body: Any) -> list[Tool] | None:
    """The tools of a request example, read with Tool.from_dict."""
    if not isinstance(body, dict) or "tools" not in body:
        return None
    return [
        Tool.from_dict(declaration)
        for entry in body["tools"]
        for declaration in entry["function_declarations"]
    ]


def test_every_gemini_example_is_covered() -> None:
    """The examples tested here are all the non-stream Gemini examples."""
    ids = {e["id"] for e in REQUESTS + RESPONSES} | {ERRORS["id"]}
    assert ids == {e["id"] for e in EXAMPLES}
    assert len(REQUESTS) == 4
    assert len(RESPONSES) == 1


@pytest.mark.parametrize("example", REQUESTS, ids=[e["id"] for e in REQUESTS])
def test_request_examples_read_and_reproduce(example: dict[str, Any]) -> None:
    """from_request reads each request example; to_request of what it read gives the example back, normalised."""
    data = example["data"]
    messages = gemini.from_request(data)
    assert messages
    assert gemini.to_request(messages, tools=example_tools(data)) == normalised(data)


@pytest.mark.parametrize("example", REQUESTS, ids=[e["id"] for e in REQUESTS])
def test_request_examples_survive_json(example: dict[str, Any]) -> None:
    """What to_request gives for an example reads back equal after json.dumps/json.loads."""
    messages = gemini.from_request(example["data"])
    assert gemini.from_request(json.loads(json.dumps(gemini.to_request(messages)))) == messages


def test_legacy_example_reads_the_function_role_and_sends_user() -> None:
    """The legacy role "function" reads as tool results; to_request never emits a role other than user/model."""
    legacy = next(e for e in REQUESTS if e["id"] == "gemini-legacy-function-role-request")
    messages = gemini.from_request(legacy["data"])
    assert [m.role for m in messages] == ["user", "assistant", "tool"]
    assert messages[1].tool_calls is not None
    assert messages[2].tool_call_id == messages[1].tool_calls[0].id
    assert json.loads(messages[2].text)["content"]["movie"] == "Barbie"
    for example in REQUESTS:
        sent = gemini.to_request(gemini.from_request(example["data"]))
        assert {content["role"] for content in sent["contents"]} <= {"user", "model"}


def test_system_instruction_example_reads_tools_and_system() -> None:
    """The REST sample's snake_case system instruction reads as one system message; no-parameter tools send none."""
    example = next(e for e in REQUESTS if e["id"] == "gemini-rest-system-instruction-tools")
    messages = gemini.from_request(example["data"])
    assert messages[0].role == "system"
    tools = example_tools(example["data"])
    assert tools is not None
    assert [gemini.tool_definition(tool) for tool in tools] == example["data"]["tools"][0][
        "function_declarations"
    ]


@pytest.mark.parametrize("example", RESPONSES, ids=[e["id"] for e in RESPONSES])
def test_response_examples_read_and_reproduce(example: dict[str, Any]) -> None:
    """from_response reads the response; to_request sends its content back as it came (no id: none was sent)."""
    turn = gemini.from_response(example["data"])
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].name == "find_theaters"
    assert turn.tool_calls[0].arguments == {"movie": "Barbie", "location": "Mountain View, CA"}
    sent = contents([ChatMessage.user("Which theaters?"), turn])[1]
    assert sent == example["data"]["candidates"][0]["content"]


def test_400_example_count_mismatch_is_refused() -> None:
    """Gemini's count 400: to_request refuses results that do not answer every call of the turn."""
    assert ERRORS["data"]["errors"][0]["error"]["message"] == COUNT_400
    with pytest.raises(InvalidMessage, match="number of function response parts"):
        gemini.to_request(LOOP[1:4])


def test_400_example_call_turn_order_is_refused() -> None:
    """Gemini's order 400: a function call turn not right after a user turn or results is refused."""
    assert ERRORS["data"]["errors"][1]["error"]["message"] == ORDER_400
    with pytest.raises(InvalidMessage, match="comes immediately after a user turn"):
        gemini.to_request([ChatMessage.assistant("hi"), LOOP[2]])


def test_400_example_function_role_is_never_emitted() -> None:
    """Gemini's role 400 ("user, model"): results go in role user contents, never "function"."""
    assert ERRORS["data"]["errors"][2]["error"]["message"] == "Please use a valid role: user, model."
    assert {content["role"] for content in contents(LOOP)} == {"user", "model"}


def test_400_example_thought_signature_is_sent_back_on_its_call() -> None:
    """Gemini's missing thought_signature 400: the signature read on a call goes back on that call's part."""
    assert "missing a thought_signature" in ERRORS["data"]["errors"][3]["error"]["message"]
    first = gemini.from_response(response(call_part("shell_command", {"cmd": "ls"}, thoughtSignature="QUJD")))
    assert first.tool_calls is not None
    result = ChatMessage.tool_result(first.tool_calls[0].id, "a.txt")
    sent = contents([ChatMessage.user("List files."), first, result])
    assert sent[1]["parts"] == [call_part("shell_command", {"cmd": "ls"}, thoughtSignature="QUJD")]
    assert "thoughtSignature" not in sent[2]["parts"][0]

"""Regression tests for what the fuzz targets in fuzz/ found: one test per finding,
each with the smallest input that showed it (fuzz/README.md says how a finding
becomes one of these)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest

from toolturns import (
    ChatMessage,
    ImagePart,
    InvalidMessage,
    InvalidStream,
    InvalidToolCall,
    MessageError,
    PartialToolCall,
    TextPart,
    Tool,
    Toolbox,
    ToolCall,
    anthropic,
    mcp,
    ollama,
    openai,
    responses,
    run_calls,
)
from toolturns.providers import PROVIDERS


def test_anthropic_snapshot_shows_arguments_given_whole_in_the_block_start() -> None:
    """A tool_use block whose content_block_start carries its input whole (no partial_json
    follows) shows that input in the live view, as message() gives it, not an empty text."""
    stream = anthropic.StreamAssembler()
    stream.feed({"type": "message_start", "message": {"role": "assistant", "content": []}})
    stream.feed(
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {
                "type": "tool_use",
                "id": "toolu_1",
                "name": "get_weather",
                "input": {"city": "Paris"},
            },
        }
    )
    assert stream.snapshot().tool_calls == (PartialToolCall("toolu_1", "get_weather", '{"city":"Paris"}'),)
    turn = stream.message()
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert call.arguments_json == '{"city":"Paris"}'


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"choices": [{"message": {"role": "user", "content": "C"}}]}, "choices[0].message.role"),
        ({"role": "tool", "content": "C", "tool_call_id": "call_1"}, "role"),
    ],
)
def test_openai_from_response_refuses_a_turn_that_is_not_the_models(body: object, path: str) -> None:
    """openai.from_response gives the assistant turn: a user or tool message in a response (or
    given as a bare message) is an InvalidMessage naming its role, as every other codec and the
    OpenAI stream assembler refuse it."""
    with pytest.raises(InvalidMessage) as caught:
        openai.from_response(body)
    assert caught.value.path == path
    assert "must be 'assistant'" in str(caught.value)


def test_the_sse_invariant_reads_data_as_strictly_as_parse_sse() -> None:
    """Fuzz finding (sse, issue #12 run): parse_sse now refuses Infinity in data, as every reader
    does; the invariant's own reading of the format took it, and called the refusal a difference."""
    from fuzz.invariants import check_sse

    check_sse('data: {"a": 1}\n\ndata: {"x": Infinity}\n\ndata: [DONE]\n')
    check_sse('data: {"x": 1e999}\n\n')


def test_openai_call_without_id_and_a_name_whose_json_cannot_be_written_is_refused() -> None:
    """A call with no id has one made up from what it is; a name that is no text (here an int too
    long to write) gives the name's error, not Python's ValueError from making the id."""
    call = {"type": "function", "function": {"name": [10**5000], "arguments": "{}"}}
    body = {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": None, "tool_calls": [call]}}]
    }
    with pytest.raises(InvalidToolCall) as caught:
        openai.from_response(body)
    assert caught.value.path == "choices[0].message.tool_calls[0].function.name"


def test_responses_message_kept_whole_reads_back_when_replayed() -> None:
    """A response's message item that from_response keeps whole (a refusal, a second message)
    must be one from_request reads back; a malformed one is refused where it stands."""
    refusal = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "content": [{"type": "refusal", "refusal": "No."}],
    }
    second = {
        "type": "message",
        "id": "msg_2",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "Later.", "annotations": []}],
    }
    turn = responses.from_response({"output": [refusal, second]})
    body = responses.to_request([ChatMessage.user("?"), turn])
    assert responses.from_request(body) == [ChatMessage.user("?"), turn]
    broken = {**refusal, "content": [{"type": None}]}
    with pytest.raises(InvalidMessage) as refused:
        responses.from_response({"output": [broken]})
    assert refused.value.path == "output[0].content[0].type"


@pytest.mark.parametrize(
    ("target", "body"),
    [
        (
            "responses_request",
            {
                "input": [
                    {
                        "type": "message",
                        "role": "user",
                        "content": [{"type": "input_file", "file_url": "https://example.com/a.pdf"}],
                    }
                ]
            },
        ),
        (
            "gemini_request",
            {
                "contents": [
                    {
                        "role": "user",
                        "parts": [
                            {
                                "fileData": {
                                    "fileUri": "https://example.com/a.pdf",
                                    "mimeType": "application/pdf",
                                }
                            }
                        ],
                    }
                ]
            },
        ),
    ],
)
def test_the_invariants_let_to_wire_refuse_a_file_url(target: str, body: object) -> None:
    """Fuzz finding (responses_request, issue #14 run, after 2 s): a file given by URL is read
    (Responses' file_url, Gemini's fileUri), and to_wire refuses it as documented (the Chat wire's
    file part holds file_data or a file_id); the invariants called that refusal a crash. The
    message must still go through its own wire."""
    from fuzz.invariants import TARGETS

    TARGETS[target](body)
    (message,) = PROVIDERS[target.partition("_")[0]].codec.from_request(body)
    with pytest.raises(InvalidMessage) as refused:
        message.to_wire()
    assert refused.value.path == "content[0].url"


def test_responses_from_response_refuses_an_input_item_in_the_output() -> None:
    """A function_call_output in a response's output (found by the responses_response target) was
    kept in the assistant turn, and sent back it read as a tool message: outputs are inputs only."""
    with pytest.raises(InvalidMessage) as caught:
        responses.from_response({"output": [{"type": "function_call_output", "call_id": "c", "output": "x"}]})
    assert str(caught.value) == (
        "output[0].type: must be an output item (a function_call_output is an input), got 'function_call_output'"
    )


_FC = {"type": "function_call", "call_id": "a", "name": "a", "arguments": "{}"}
_EMPTY = {"type": "message", "role": "assistant", "content": ""}


def _said(text: str, item_id: str) -> dict[str, object]:
    part = {"type": "output_text", "text": text, "annotations": []}
    return {"type": "message", "id": item_id, "role": "assistant", "status": "completed", "content": [part]}


@pytest.mark.parametrize(
    ("items", "turns"),
    [
        ([_FC, _EMPTY, _FC], 2),  # two call turns parted by a message that says nothing
        ([_EMPTY, _EMPTY, _FC], 2),  # a message that says nothing alone is an empty turn
        ([_EMPTY, {"type": "x"}], 1),  # an empty message counts in no kept item's position
        ([_EMPTY, {"type": "x"}, _FC], 1),
        ([_EMPTY, _EMPTY, {"type": ""}, _FC], 2),
        ([_EMPTY, {"type": "reasoning"}, _EMPTY, {"role": "assistant", "content": "b"}], 2),
        ([_EMPTY, {**_EMPTY, "status": None}], 2),
    ],
)
def test_responses_turns_in_a_row_are_sent_as_they_read(items: list[object], turns: int) -> None:
    """Two assistant turns in a row, and empty assistant messages (the responses_request target):
    what from_request reads, to_request sends so that it reads back the same, and again the same."""
    read = responses.from_request([{"type": "message", "role": "user", "content": "?"}, *items])
    assert len(read) == 1 + turns
    sent = responses.to_request(read)
    assert responses.from_request(sent) == read
    assert responses.to_request(responses.from_request(sent)) == sent


@pytest.mark.parametrize(
    "output",
    [
        [_said("a", "msg_1"), {**_FC, "id": "fc_1"}, _said("b", "msg_2")],
        [_said("a", "msg_1"), {"type": "reasoning", "id": "rs_1", "summary": []}, _said("b", "msg_2")],
        [_said("a", "msg_1"), {**_said("", "msg_2"), "content": []}],
    ],
)
def test_responses_further_messages_of_a_response_stay_in_its_turn(output: list[object]) -> None:
    """A response's further message items (by their ids) are sent back in their place and read
    back into the same turn (the responses_response target)."""
    turn = responses.from_response({"output": output})
    sent = responses.to_request([ChatMessage.user("?"), turn])
    assert sent["input"][1:] == output
    assert responses.from_request(sent) == [ChatMessage.user("?"), turn]


def test_responses_a_further_message_without_its_id_is_refused() -> None:
    """Without an id, a message after the turn's text could not be told from the next turn's."""
    said = {k: v for k, v in _said("b", "").items() if k != "id"}
    with pytest.raises(InvalidMessage) as caught:
        responses.from_response({"output": [_said("a", "msg_1"), said]})
    assert caught.value.path == "output[1].id"


def test_responses_an_id_that_is_no_text_is_no_id() -> None:
    """A further message whose ``id`` is ``{}`` (the responses_response rerun) has no id: refused,
    as one without an id is; a message that says nothing after a call is no item of the turn."""
    with pytest.raises(InvalidMessage) as caught:
        responses.from_response({"output": [_said("a", "msg_1"), {**_said("", "msg_2"), "id": {}}]})
    assert caught.value.path == "output[1].id"
    turn = responses.from_response({"output": [_FC, _EMPTY]})
    assert turn == responses.from_response({"output": [_FC]})


def test_kept_data_nested_to_the_limit_is_copied_without_running_out_of_stack() -> None:
    """A kept value nested MAX_DEPTH levels (dicts and lists) is copied on each lookup with
    no Python frame per level: the first copy of Extra recursed, two frames a level."""
    from toolturns._json import MAX_DEPTH

    deep: object = "leaf"
    for level in range(MAX_DEPTH - 1):
        deep = [deep] if level % 2 else {"k": deep}
    message = ChatMessage("user", "hi", extra={"deep": deep})
    assert message.extra["deep"] == deep
    assert message.extra["deep"] is not deep
    assert ChatMessage.from_dict(message.to_wire()) == message


def test_mcp_an_empty_structured_result_alone_is_the_content() -> None:
    """Fuzz finding (mcp_result, issue #16 run, after a few seconds): a result with no content
    block and ``structuredContent: {}`` raised KeyError, the empty object being a value that
    carries nothing to keep. It is still the tool's answer: its JSON text is the content."""
    from toolturns import mcp

    result = mcp.tool_result("call_1", {"content": [], "structuredContent": {}, "_meta": {"k": 1}})
    assert result.content == "{}"
    assert result.provider_data == {"mcp": {"_meta": {"k": 1}}}


def _circular() -> list[object]:
    circular: list[object] = []
    circular.append(circular)
    return circular


def _chunk(delta: dict[object, object]) -> dict[str, object]:
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]}


def _ollama_chunk(**more: object) -> dict[object, object]:
    message: dict[object, object] = {"role": "assistant", "content": ""}
    message.update({int(key.removeprefix("k")): value for key, value in more.items()})
    return {"model": "llama3.2", "created_at": "2025-07-07T20:32:54Z", "message": message, "done": False}


@pytest.mark.parametrize(
    ("assembler", "items", "path"),
    [
        (
            openai.StreamAssembler,
            [_chunk({"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", 1: _circular()}]})],
            "item[0].choices[0].delta.tool_calls[0][1]",
        ),
        (
            openai.StreamAssembler,
            [
                _chunk(
                    {"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "f", 2: _circular()}}]}
                )
            ],
            "item[0].choices[0].delta.tool_calls[0].function[2]",
        ),
        (
            openai.StreamAssembler,
            [_chunk({"role": "assistant", 1: 5}), _chunk({1: 6})],
            "item[1].choices[0].delta[1]",
        ),
        (ollama.StreamAssembler, [_ollama_chunk(k1=5), _ollama_chunk(k1=6)], "item[1].message[1]"),
    ],
)
def test_a_stream_key_that_is_not_text_is_located_when_its_value_is_refused(
    assembler: Callable[[], openai.StreamAssembler | ollama.StreamAssembler], items: list[object], path: str
) -> None:
    """A caller's dict may have an int key: a value refused under it is an InvalidStream at its place,
    not an AttributeError from joining the path (found by the contract test's arbitrary streams)."""
    stream = assembler()
    for item in items[:-1]:
        stream.feed(item)
    with pytest.raises(InvalidStream) as raised:
        stream.feed(items[-1])
    assert raised.value.path == path


@pytest.mark.parametrize(
    ("result", "path"),
    [
        ({"content": [{"type": "text", "text": "hi", 1: _circular()}]}, "content[0][1]"),
        ({"content": [], 1: _circular()}, "[1]"),
    ],
)
def test_mcp_a_result_key_that_is_not_text_is_located_when_its_value_is_refused(
    result: dict[object, object], path: str
) -> None:
    """The same for a tool result a caller hands to toolturns.mcp as a dict."""
    with pytest.raises(InvalidMessage) as raised:
        mcp.tool_result("call_1", result)
    assert raised.value.path == path


@pytest.mark.parametrize(
    ("assembler", "items", "path"),
    [
        (
            openai.StreamAssembler,
            [_chunk({"role": "assistant", b"k": 5}), _chunk({b"k": 6})],
            "item[1].choices[0].delta[b'k']",
        ),
        (
            ollama.StreamAssembler,
            [
                {**_ollama_chunk(), "message": {"role": "assistant", (1, 2): 5}},
                {**_ollama_chunk(), "message": {(1, 2): 6}},
            ],
            "item[1].message[(1, 2)]",
        ),
    ],
)
def test_a_key_json_has_no_text_for_is_named_by_its_repr(
    assembler: Callable[[], openai.StreamAssembler | ollama.StreamAssembler], items: list[object], path: str
) -> None:
    """bytes and tuple keys: joining them into a path raised TypeError (JSON has no text for them)."""
    stream = assembler()
    stream.feed(items[0])
    with pytest.raises(InvalidStream) as raised:
        stream.feed(items[1])
    assert raised.value.path == path


def test_a_key_json_has_no_text_for_is_refused_as_a_key_by_the_readers() -> None:
    """Fed once, such a key is kept until the message is built, which refuses it as a key."""
    stream = openai.StreamAssembler()
    stream.feed(_chunk({"role": "assistant", "content": "hi", b"k": [1]}))
    with pytest.raises(InvalidMessage, match=r"keys must be strings, got bytes$"):
        stream.message()
    with pytest.raises(InvalidMessage, match=r"^provider_data\.mcp: keys must be strings, got bytes$"):
        mcp.tool_result("call_1", {"content": [], b"k": 5})


_HUGE = 10**5000  # past the digits int's repr writes (sys.set_int_max_str_digits)


class _Unshown:
    """A key whose repr raises: a path names it by its type."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class _Text(str):
    """A str subclass, whose own methods toolturns does not call."""

    def __format__(self, spec: str) -> str:
        raise RuntimeError("no format")


def _refused(read: Callable[[], object]) -> MessageError:
    with pytest.raises(MessageError) as raised:
        read()
    return raised.value


@pytest.mark.parametrize(
    ("read", "path"),
    [
        (
            lambda: Tool("t", parameters={"type": "object", "additionalProperties": False}).validate(
                cast(Any, {_HUGE: 1})  # a caller's dict, whatever its type says
            ),
            "[an integer of 16610 bits]",
        ),
        (
            lambda: ToolCall.from_dict(
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}", _HUGE: 1}}
            ),
            "function[an integer of 16610 bits]",
        ),
        (
            lambda: Tool.from_dict({"type": "function", "function": {"name": "f", _HUGE: 1}, _HUGE: 2}),
            "function[an integer of 16610 bits]",
        ),
        (
            lambda: openai.StreamAssembler().feed(_chunk({"role": "assistant", (_HUGE,): _circular()})),
            "item[0].choices[0].delta[tuple]",
        ),
        (
            lambda: openai.StreamAssembler().feed(_chunk({"role": "assistant", _Unshown(): _circular()})),
            "item[0].choices[0].delta[_Unshown]",
        ),
        (lambda: mcp.tool_result("call_1", {"content": [], _Text("x"): _circular()}), "x"),
    ],
)
def test_a_key_whose_text_cannot_be_written_still_gives_a_path(read: Callable[[], object], path: str) -> None:
    """An int past the digit limit, a repr that raises, a str subclass whose __format__ raises: the
    refusal is toolturns' own error, and its path a str (found by fuzzing keys of every kind)."""
    error = _refused(read)
    assert error.path == path
    assert type(error.path) is str


def test_openai_made_up_ids_take_a_response_id_json_cannot_write() -> None:
    """A circular or huge response id seeds the made-up call id by its description, the same each time."""
    for body_id in (_circular(), _HUGE):
        body = {
            "id": body_id,
            "choices": [
                {
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{}"}}],
                    }
                }
            ],
        }
        first, again = openai.from_response(body), openai.from_response(body)
        assert first == again
        assert first.tool_calls is not None
        assert first.tool_calls[0].id.startswith("call_")


def test_content_given_as_a_str_subclass_is_kept_as_its_characters() -> None:
    """Every codec writes it: the Responses writer had asserted the content was a str or parts."""
    message = ChatMessage.user(_Text("hi"))
    assert type(message.content) is str
    assert message == ChatMessage.user("hi")
    assert responses.to_request([message])["input"] == [{"type": "message", "role": "user", "content": "hi"}]
    result = ChatMessage.tool_result("call_1", _Text("18 C"))
    assert type(result.content) is str


class _Hostile(str):
    """A str subclass whose own methods all raise: a field keeps its characters, a plain str."""

    def __format__(self, spec: str) -> str:
        raise RuntimeError("no format")

    def __str__(self) -> str:
        raise RuntimeError("no str")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def startswith(self, *args: object) -> bool:
        raise RuntimeError("no startswith")

    def encode(self, *args: object, **keys: object) -> bytes:
        raise RuntimeError("no encode")

    def __getitem__(self, index: object) -> str:
        raise RuntimeError("no item")


_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAHnOcQAAAAABJRU5ErkJggg=="


def _exchange(text: Callable[[str], str], *, detail: bool = True) -> tuple[list[ChatMessage], list[Tool]]:
    """A tool exchange, each string field given through ``text`` (an image's detail only where asked:
    OpenAI's wires carry it)."""
    tool = Tool(text("get_weather"), text("Current weather."), {"type": "object"})
    call = ToolCall(text("call_1"), text("get_weather"), text('{"city": "Paris"}'))
    messages = [
        ChatMessage.system(text("Be brief.")),
        ChatMessage(
            "user",
            [
                ImagePart(
                    data=text(_PNG), media_type=text("image/png"), detail=text("high") if detail else None
                ),
                TextPart(text("What is this?")),
            ],
            name=text("ada"),
        ),
        ChatMessage.assistant_tool_calls([call], text("Checking.")),
        ChatMessage.tool_result(text("call_1"), text("18 C")),
    ]
    return messages, [tool]


#: The string fields of each value class _exchange builds.
_STRING_FIELDS = {
    ChatMessage: ("content", "tool_call_id", "name"),
    ToolCall: ("id", "name", "arguments_json"),
    TextPart: ("text",),
    ImagePart: ("data", "media_type", "url", "detail"),
    Tool: ("name", "description", "parameters_json"),
}


def _strings(value: object) -> list[object]:
    """Every string a message, call, part or tool holds in a field."""
    found: list[object] = []
    for name in _STRING_FIELDS[type(value)]:
        field = getattr(value, name)
        if isinstance(field, str):
            found.append(field)
    content = getattr(value, "content", None)
    for inner in (
        *(getattr(value, "tool_calls", None) or ()),
        *(content if isinstance(content, tuple) else ()),
    ):
        found.extend(_strings(inner))
    return found


def test_every_string_field_given_as_a_str_subclass_is_kept_as_a_str() -> None:
    """Ids, names, tool_call_id, content, part text, image data and media type, argument text, a
    tool's name and description: each is a plain str, so no codec calls the subclass's methods."""
    plain, plain_tools = _exchange(str)
    given, tools = _exchange(_Hostile)
    assert given == plain
    assert tools == plain_tools
    for value in [*given, *tools]:
        kinds = {type(field) for field in _strings(value)}
        assert kinds <= {str}, value
    for provider in PROVIDERS.values():  # every registered wire
        codec = provider.codec
        options = {"tool_parts_to_user": True} if codec is openai else {"drop_unsupported": True}
        detail = codec in (openai, responses)  # OpenAI's two wires carry an image's detail
        (given, tools), (plain, plain_tools) = (
            _exchange(_Hostile, detail=detail),
            _exchange(str, detail=detail),
        )
        assert codec.to_request(given, tools=tools, **options) == codec.to_request(
            plain, tools=plain_tools, **options
        )
    assert repr(given) == repr(plain)


def test_a_call_named_by_a_str_subclass_is_answered() -> None:
    """run_calls formats the name of a call it cannot run: a plain str, whatever the caller gave."""
    turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", _Hostile("nope"))])
    (result,) = run_calls(turn, Toolbox())
    assert result.text == "'nope' was not run: there is no such tool (the tools are: none)"


class _NoText:
    def __str__(self) -> str:
        raise RuntimeError("no text")


def test_made_up_ids_of_one_response_differ_whatever_its_id() -> None:
    """The fallback seed still holds each call's place: two calls never share an id."""
    for body_id in (_circular(), _HUGE, _NoText()):
        calls = [{"type": "function", "function": {"name": "f", "arguments": "{}"}}] * 2
        body = {
            "id": body_id,
            "choices": [{"message": {"role": "assistant", "content": None, "tool_calls": calls}}],
        }
        turn = openai.from_response(body)
        assert turn.tool_calls is not None
        assert len({call.id for call in turn.tool_calls}) == 2


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("k" * 100, f'["{"k" * 60}"... (100 characters)]'),
        (("x" * 100,), f"[('{'x' * 58}... (105 characters)]"),
        (10**70, f"[{'1' + '0' * 59}... (71 characters)]"),
        (-3, "[-3]"),
    ],
)
def test_a_long_key_is_cut_in_a_path_as_a_long_value_is(key: object, shown: str) -> None:
    """One 100 KB key must not flood a log: a path shows at most 60 characters of it, and says how many."""
    error = _refused(lambda: ToolCall.from_dict({"id": "c", "function": {"name": "f", key: 1}}))
    assert error.path == f"function{shown}"


class _Unsized(str):
    def __len__(self) -> int:
        raise RuntimeError("no len")


class _UnshownFloat(float):
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


class _UnshownInt(int):
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(
    ("read", "message"),
    [
        (
            lambda: ChatMessage.from_dict({"role": _Hostile("bogus"), "content": "hi"}),
            "role: must be one of 'system', 'developer', 'user', 'assistant', 'tool', got 'bogus'",
        ),
        (
            lambda: ChatMessage.from_dict({"role": _UnshownFloat(1.5), "content": "hi"}),
            "role: must be one of 'system', 'developer', 'user', 'assistant', 'tool', got 1.5",
        ),
        (
            lambda: ChatMessage.from_dict({"role": _UnshownInt(7), "content": "hi"}),
            "role: must be one of 'system', 'developer', 'user', 'assistant', 'tool', got 7",
        ),
        (lambda: ToolCall(_Unsized(""), "f"), "id: must be a non-empty string, got ''"),
    ],
)
def test_a_value_whose_own_methods_raise_is_described_by_its_base_type(
    read: Callable[[], object], message: str
) -> None:
    """describe() falls back on str's, float's or int's own repr; a check asks no subclass's __len__."""
    assert str(_refused(read)) == message


def test_a_kept_native_key_given_as_a_str_subclass_is_kept_as_a_str() -> None:
    """A Responses item's unmodelled key: kept to replay, as a plain str."""
    item = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "f",
        "arguments": "{}",
        _Hostile("trace"): "t-1",
    }
    turn = responses.from_response(
        {"id": "resp_1", "object": "response", "status": "completed", "output": [item]}
    )
    assert turn.tool_calls is not None
    kept = turn.tool_calls[0].provider_data["responses"]
    assert {type(key) for key in kept["keys"]} == {str}
    assert kept["keys"]["trace"] == "t-1"


def test_openai_a_call_that_is_not_an_object_beside_one_without_an_id_is_refused_at_its_place() -> None:
    """Looking for calls without an id passes over what is not a call, which the reader then refuses."""
    calls = [42, {"type": "function", "function": {"name": "f", "arguments": "{}"}}]
    body = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": calls}}]}
    with pytest.raises(
        InvalidToolCall, match=r"^choices\[0\]\.message\.tool_calls\[0\]: must be an object, got 42$"
    ):
        openai.from_response(body)

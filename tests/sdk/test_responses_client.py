"""A complete tool loop through the real openai client's Responses API.

toolturns builds each body, ``client.responses.create`` (or ``.stream``) sends
it, and toolturns reads the ``Response`` (or the stream events) the client
gives back. The client is openai's own over an ``httpx2.MockTransport``
(openai 3 takes only an ``httpx2.Client``) answering with bodies recorded from
OpenAI: the goldens in ``tests/data/responses/`` (its README.md, and each
stream's ``source``, say where each comes from).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai import OpenAI

from tests.conftest import DATA
from tests.sdk.recorded import (
    RecordedServer,
    Reply,
    assembled,
    json_reply,
    openai_client,
    sse_reply,
    tool_loop,
)
from toolturns import (
    ChatMessage,
    InvalidStream,
    Tool,
    Toolbox,
    check_transcript,
    parse_sse,
    responses,
    run_loop,
)

# The model and tool of the recorded gpt-5.2 stream (its response.tools), the prompt and result ours.
_MODEL = "gpt-5.2"
_LOOKUP = Tool(
    "lookupCode",
    "Returns the code requested by the user.",
    {"type": "object", "properties": {}, "additionalProperties": False, "required": []},
    strict=True,
)
_PROMPT = "Look up the code for me."
_FUNCTIONS = {"lookupCode": lambda: "4217"}
# The recorded response was not stored (store: false): nothing of it is kept on OpenAI's side, so
# the next request carries its reasoning item whole, encrypted_content (which include asks for) and all.
_NOT_STORED: dict[str, Any] = {"store": False, "include": ["reasoning.encrypted_content"]}


def _golden(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((DATA / "responses" / f"{name}.json").read_text("utf-8"))
    return body


def _events(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = _golden(name)["events"]
    return events


def _sse(events: list[dict[str, Any]]) -> Reply:
    """The stream as OpenAI sends it: each event named by an ``event:`` line, no ``[DONE]``."""
    return sse_reply({"event": event["type"], "data": event} for event in events)


def test_a_tool_loop_with_reasoning_through_the_responses_client() -> None:
    """The SDK sends toolturns' body as it is; its ``Response`` is read as it is; the second
    request carries the reasoning item and the ``fc_`` call back exactly, in their order."""
    # The recorded response of a reasoning item, then a call (the stream's response.completed),
    # then a recorded answer in text.
    reasoning_then_call = _events("stream_reasoning_call")[-1]["response"]
    answer = _golden("response_text")
    server = RecordedServer([json_reply(reasoning_then_call), json_reply(answer)])
    history = [ChatMessage.user(_PROMPT)]
    with openai_client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            response = client.responses.create(
                model=_MODEL, input=body["input"], tools=body["tools"], **_NOT_STORED
            )
            return responses.from_response(response)

        loop = tool_loop(responses, history, [_LOOKUP], _FUNCTIONS, ask)

    assert server.sent == [{"model": _MODEL, **_NOT_STORED, **body} for body in loop.bodies]
    assert loop.turns == [responses.from_response(reasoning_then_call), responses.from_response(answer)]
    assert loop.turns[0].tool_calls is not None
    (call,) = loop.turns[0].tool_calls
    assert (call.id, call.name, call.arguments) == ("call_LUBOONF2cY8HDQdBwiEQ9fk1", "lookupCode", {})
    reasoning, function_call = reasoning_then_call["output"]
    assert server.sent[1]["input"] == [
        {"type": "message", "role": "user", "content": _PROMPT},
        reasoning,  # its rs_ id, encrypted_content and empty summary, as the response had them
        function_call,  # its fc_ id and status with it
        {"type": "function_call_output", "call_id": call.id, "output": "4217"},
    ]
    assert loop.turns[-1].content == "Hello, how are you?"
    assert check_transcript(history, target="responses") == []


def test_the_recorded_tool_calling_request_is_what_the_client_sends() -> None:
    """A recorded request, read and written again, is sent exactly as OpenAI got it."""
    request = _golden("request_tools")
    server = RecordedServer([json_reply(_golden("response_function_call"))])
    body = responses.to_request(responses.from_request(request), tools=responses.read_tools(request["tools"]))
    with openai_client(server) as client:
        response = client.responses.create(model=request["model"], input=body["input"], tools=body["tools"])

    assert server.sent == [request]
    turn = responses.from_response(response)
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert (call.id, call.name, call.arguments) == (
        "call_In5iIk9f6NxYKBb54Jd1tMmI",
        "get_weather",
        {"location": "San Francisco, CA"},
    )
    assert responses.finish_reason(response) == "completed"


def _stream_helper(name: str) -> tuple[list[Any], Any]:
    """``client.responses.stream(...)`` over a recorded stream: its events and its final response."""
    server = RecordedServer([_sse(_events(name))])
    body = responses.to_request([ChatMessage.user(_PROMPT)], tools=[_LOOKUP])
    with (
        openai_client(server) as client,
        client.responses.stream(model=_MODEL, input=body["input"], tools=body["tools"]) as stream,
    ):
        events = list(stream)
        final = stream.get_final_response()
    assert server.sent == [{"model": _MODEL, "stream": True, **body}]
    assert {type(event).__module__.split(".")[0] for event in events} == {"openai"}  # SDK objects
    return events, final


def _from_the_wire(name: str) -> responses.StreamAssembler:
    """The assembler fed what ``parse_sse`` reads from the raw bytes of the recorded stream."""
    stream = responses.StreamAssembler()
    for event in parse_sse(_sse(_events(name)).body):
        stream.feed(event)
    return stream


def test_the_stream_helpers_events_assemble_to_its_final_response() -> None:
    """Every event ``responses.stream`` yields, fed as the SDK gives it, assembles to the turn
    ``from_response`` reads from ``get_final_response()``, and to the turn of the raw bytes."""
    events, final = _stream_helper("stream_function_call")
    stream = assembled(responses, events)

    assert stream.message() == responses.from_response(final)
    assert stream.message() == _from_the_wire("stream_function_call").message()
    assert (stream.ended, stream.finish_reason) == (True, "completed")
    assert responses.finish_reason(final) == "completed"
    turn = stream.message()
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert (call.id, call.name, call.arguments) == (
        "call_2FQdm3Br7Qb35YUBSkDR7kue",
        "get_weather",
        {"city": "Beijing"},
    )


def test_the_stream_helpers_parsed_text_is_not_sent_back() -> None:
    """``responses.stream`` gives a ``ParsedResponse``, whose ``output_text`` parts carry the SDK's
    ``parsed`` (the text decoded into the caller's type, a copy of what ``text`` says): read from
    the events and the final response alike, it is never sent back, where OpenAI refuses it."""
    events, final = _stream_helper("stream_text")
    stream = assembled(responses, events)
    assert stream.message() == responses.from_response(final) == _from_the_wire("stream_text").message()
    history = [ChatMessage.user(_PROMPT), responses.from_response(final)]
    assert "parsed" not in json.dumps(responses.to_request(history))
    assert check_transcript(history, target="responses") == []


def test_a_streamed_reasoning_item_is_the_one_output_item_done_brought() -> None:
    """OpenAI encrypts a reasoning item anew each time it writes it (docs/streaming.md): the
    assembled turn keeps the ``output_item.done`` one, the SDK's final response the
    ``response.completed`` one; all else is the same, and either goes back as a valid request."""
    events, final = _stream_helper("stream_reasoning_call")
    streamed = assembled(responses, events).message()
    whole = responses.from_response(final)

    assert streamed == _from_the_wire("stream_reasoning_call").message()
    assert streamed.tool_calls == whole.tool_calls
    ((position, reasoning),) = streamed.provider_data["responses"]["items"]
    ((whole_position, whole_reasoning),) = whole.provider_data["responses"]["items"]
    (done,) = (
        event.item
        for event in events
        if event.type == "response.output_item.done" and event.output_index == 0
    )
    assert reasoning["encrypted_content"] == done.encrypted_content != whole_reasoning["encrypted_content"]
    assert (position, {**reasoning, "encrypted_content": ""}) == (
        whole_position,
        {**whole_reasoning, "encrypted_content": ""},
    )
    for turn in (streamed, whole):
        assert turn.tool_calls is not None
        (call,) = turn.tool_calls
        history = [ChatMessage.user(_PROMPT), turn, ChatMessage.tool_result(call.id, "4217")]
        assert check_transcript(history, target="responses") == []


# Each recorded stream that ends, and the reason it ended for (the reasoning one is the test above's:
# its response.completed holds another encrypted_content than its events).
_ENDINGS = {
    "stream_text": "completed",
    "stream_function_call": "completed",
    "stream_incomplete": "max_output_tokens",
}


def _create_stream(name: str) -> list[Any]:
    """The events ``client.responses.create(stream=True)`` yields over a recorded stream."""
    server = RecordedServer([_sse(_events(name))])
    with openai_client(server) as client:
        events = list(client.responses.create(model=_MODEL, input=_PROMPT, stream=True))
    assert server.sent == [{"model": _MODEL, "input": _PROMPT, "stream": True}]
    return events


@pytest.mark.parametrize(("name", "reason"), _ENDINGS.items())
def test_the_events_of_create_stream_assemble_as_their_json_does(name: str, reason: str) -> None:
    """The SDK's event objects and the dicts of the raw bytes give the same turn, and the same
    reason; where the closing event carries the output, that is the turn its response reads as."""
    events = _create_stream(name)
    stream = assembled(responses, events)
    from_the_wire = _from_the_wire(name)

    assert stream.message() == from_the_wire.message()
    assert (stream.ended, stream.finish_reason) == (from_the_wire.ended, from_the_wire.finish_reason)
    assert (stream.ended, stream.finish_reason) == (True, reason)
    closing = events[-1].response
    if closing.output:
        assert stream.message() == responses.from_response(closing)
    else:  # the output lives only in the events: the turn is what they built, cut where they stopped
        assert stream.message().content == '{"val'


def test_a_failed_stream_through_the_client_raises_with_the_providers_error() -> None:
    """``response.failed`` raises ``InvalidStream`` carrying OpenAI's error, fed by the SDK or the bytes."""
    events = _create_stream("stream_failed")
    error = _events("stream_failed")[-1]["response"]["error"]
    for items in (events, list(parse_sse(_sse(_events("stream_failed")).body))):
        *opening, failed = items
        stream = assembled(responses, opening)
        with pytest.raises(InvalidStream) as raised:
            stream.feed(failed)
        assert raised.value.provider_error == error
        assert (stream.ended, stream.finish_reason) == (True, "failed")


def _utf16_fragments(text: str, cuts: list[int]) -> list[str]:
    """``text`` cut at any UTF-16 code unit, as a stream may cut it: a character outside the
    BMP may be split into its two surrogate halves (which JSON escapes as ``\\ud83d``...)."""
    units = text.encode("utf-16-le", "surrogatepass")
    count = len(units) // 2
    bounds = [0, *sorted({2 * (cut % (count + 1)) for cut in cuts}), len(units)]
    return [units[a:b].decode("utf-16-le", "surrogatepass") for a, b in itertools.pairwise(bounds) if a < b]


def _call_streamed(arguments: str, fragments: list[str]) -> list[dict[str, Any]]:
    """The recorded gpt-5.1 call stream with other arguments, in other fragments."""
    recorded = _events("stream_function_call")
    opening, delta = recorded[:3], recorded[3]
    done, item_done, completed = recorded[-3:]
    item = {**item_done["item"], "arguments": arguments}
    return [
        *opening,
        *({**delta, "delta": fragment} for fragment in fragments),
        {**done, "arguments": arguments},
        {**item_done, "item": item},
        {**completed, "response": {**completed["response"], "output": [item]}},
    ]


@given(city=st.text(), cuts=st.lists(st.integers(min_value=0)))
def test_streamed_arguments_cut_anywhere_arrive_whole_through_the_client(city: str, cuts: list[int]) -> None:
    """Whatever the text and wherever the stream cuts it (a surrogate pair included), the SDK's
    delta events build the whole arguments, and the ended stream the turn the raw bytes and the
    closing response give."""
    arguments = json.dumps({"city": city}, ensure_ascii=False)
    events = _call_streamed(arguments, _utf16_fragments(arguments, cuts))
    server = RecordedServer([_sse(events)])
    with openai_client(server) as client:
        sdk_events: list[Any] = list(client.responses.create(model=_MODEL, input=_PROMPT, stream=True))
    *deltas, done, item_done, completed = sdk_events
    stream = assembled(responses, deltas)  # the call as its deltas alone build it
    (partial,) = stream.snapshot().tool_calls
    turn = stream.message()
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert partial.arguments_json == call.arguments_json == arguments
    assert call.arguments == {"city": city}
    for event in (done, item_done, completed):
        stream.feed(event)
    from_the_wire = assembled(responses, parse_sse(_sse(events).body))
    assert stream.message() == from_the_wire.message() == responses.from_response(completed.response)


def test_run_loop_with_reasoning_through_the_responses_client() -> None:
    """run_loop over the client replays the reasoning item and the call as the hand-written loop does."""
    replies = [_events("stream_reasoning_call")[-1]["response"], _golden("response_text")]
    start = [ChatMessage.user(_PROMPT)]

    def send(client: OpenAI, body: dict[str, Any]) -> object:
        return client.responses.create(model=_MODEL, input=body["input"], tools=body["tools"], **_NOT_STORED)

    by_hand = RecordedServer(json_reply(reply) for reply in replies)
    history = list(start)
    with openai_client(by_hand) as client:
        tool_loop(
            responses,
            history,
            [_LOOKUP],
            _FUNCTIONS,
            lambda body: responses.from_response(send(client, body)),
        )
    server = RecordedServer(json_reply(reply) for reply in replies)
    with openai_client(server) as client:
        result = run_loop(
            lambda body: send(client, body),
            start,
            Toolbox((_LOOKUP, _FUNCTIONS["lookupCode"])),
            codec=responses,
        )

    assert server.sent == by_hand.sent
    assert result == history
    assert check_transcript(result, target="responses") == []

"""Unit tests for ``toolturns.openai.StreamAssembler``: assembling chat.completion.chunk streams.

Every bullet of issue #4 for OpenAI (keying by index, id and order; repeated
ids and names; text, role-only, usage-only and refusal chunks; ``n > 1``),
the golden stream examples against ``from_response``, truncation, the life
cycle, the live view, and the exact errors for malformed chunks.
"""

from __future__ import annotations

import copy
import json
from types import MappingProxyType
from typing import Any

import pytest

from tests.conftest import Frozen, wire_examples
from toolturns import (
    ChatMessage,
    InvalidArguments,
    InvalidMessage,
    InvalidStream,
    InvalidToolCall,
    PartialToolCall,
    ToolCall,
    openai,
    parse_sse,
)
from toolturns.providers._stream import Assembler

EXAMPLES = wire_examples("openai", "stream_chunks")


def chunk(
    delta: Any = None, finish_reason: str | None = None, *, index: int = 0, **more: Any
) -> dict[str, Any]:
    """One chat.completion.chunk with one choice."""
    choice: dict[str, Any] = {
        "index": index,
        "delta": {} if delta is None else delta,
        "finish_reason": finish_reason,
    }
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [choice], **more}


def call_delta(
    index: int | None = 0,
    call_id: str | None = None,
    name: str | None = None,
    arguments: str | None = None,
    **more: Any,
) -> dict[str, Any]:
    """One tool-call delta, with only the keys given."""
    delta: dict[str, Any] = {} if index is None else {"index": index}
    if call_id is not None:
        delta["id"] = call_id
        delta["type"] = "function"
    function: dict[str, Any] = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    if function:
        delta["function"] = function
    delta.update(more)
    return delta


def calls_chunk(*deltas: dict[str, Any]) -> dict[str, Any]:
    """A chunk whose delta carries only the given tool-call deltas."""
    return chunk({"tool_calls": list(deltas)})


def assemble(items: list[Any], **options: Any) -> openai.StreamAssembler:
    """An assembler fed ``items``."""
    stream = openai.StreamAssembler(**options)
    for item in items:
        stream.feed(item)
    return stream


def message(items: list[Any], **options: Any) -> ChatMessage:
    """The message ``items`` assemble into."""
    return assemble(items, **options).message()


def fragments(text: str, size: int) -> list[str]:
    """``text`` cut into pieces of ``size`` characters."""
    return [text[start : start + size] for start in range(0, len(text), size)]


def equivalent_response(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The non-streamed chat.completion the recorded chunks stand for, built by hand from their data.

    Only what the golden streams use: index-keyed calls whose first delta has id and name.
    """
    content: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    finish_reason = None
    for item in items:
        for choice in item["choices"]:
            delta = choice["delta"]
            content.append(delta.get("content") or "")
            for part in delta.get("tool_calls") or []:
                if part["index"] not in calls:
                    calls[part["index"]] = {
                        "id": part["id"],
                        "type": "function",
                        "function": {"name": part["function"]["name"], "arguments": ""},
                    }
                calls[part["index"]]["function"]["arguments"] += part["function"].get("arguments") or ""
            finish_reason = choice["finish_reason"] or finish_reason
    text = "".join(content)
    body: dict[str, Any] = {"role": "assistant", "content": text or None, "refusal": None}
    if calls:
        body["tool_calls"] = [calls[index] for index in sorted(calls)]
    return {
        "object": "chat.completion",
        "choices": [{"index": 0, "message": body, "finish_reason": finish_reason}],
    }


# -- golden examples ----------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_golden_stream_assembles_into_what_from_response_gives(example: dict[str, Any]) -> None:
    """Each recorded stream gives the ChatMessage from_response gives for the same response sent whole."""
    items = [item for item in example["data"] if item != "[DONE]"]
    stream = assemble(items)
    assert stream.message() == openai.from_response(equivalent_response(items))
    assert stream.finish_reason == "tool_calls"
    assert stream.ended
    assert stream.usage is not None
    assert stream.usage["total_tokens"] > 0


def test_golden_example_names() -> None:
    """Both OpenAI golden streams are present."""
    assert {e["id"] for e in EXAMPLES} >= {
        "openai-stream-parallel-tool-calls",
        "openai-stream-single-tool-call",
    }


def test_golden_parallel_calls_keep_ids_names_and_arguments() -> None:
    """The parallel-calls stream gives two calls, in index order, with their exact argument text."""
    (example,) = [e for e in EXAMPLES if e["id"] == "openai-stream-parallel-tool-calls"]
    turn = message([item for item in example["data"] if item != "[DONE]"])
    assert turn.tool_calls is not None
    assert [(c.id, c.name) for c in turn.tool_calls] == [
        ("call_JMW1whyEaYG438VE1OIflxA2", "GetWeatherArgs"),
        ("call_DNYTawLBoN8fj3KN6qU9N1Ou", "get_stock_price"),
    ]
    assert turn.tool_calls[0].arguments == {"city": "Edinburgh", "country": "GB", "units": "c"}
    assert turn.tool_calls[1].arguments_json == '{"ticker": "AAPL", "exchange": "NASDAQ"}'


def test_golden_stream_through_raw_sse_lines() -> None:
    """The raw SSE text of a recorded stream, read by parse_sse, assembles the same; [DONE] ends it."""
    (example,) = [e for e in EXAMPLES if e["id"] == "openai-stream-single-tool-call"]
    lines: list[str] = []
    for item in example["data"]:
        lines += [f"data: {item if item == '[DONE]' else json.dumps(item)}\r\n", "\r\n"]
    stream = assemble(list(parse_sse(lines)))
    assert stream.message() == message([item for item in example["data"] if item != "[DONE]"])
    assert stream.ended


# -- arguments split anywhere -------------------------------------------------------------


ESCAPED = '{"emoji": "\\ud83d\\ude00", "quote": "say \\"hi\\"", "e": "\\u00e9", "n": -1.5e3}'


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
def test_arguments_split_anywhere_are_kept_exactly(size: int) -> None:
    """Fragments cut mid-token, mid-string, inside a \\u escape or between surrogate halves join back exactly."""
    items = [calls_chunk(call_delta(0, "call_1", "f", ""))]
    items += [calls_chunk(call_delta(0, arguments=piece)) for piece in fragments(ESCAPED, size)]
    turn = message([*items, chunk({}, "tool_calls")])
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].arguments_json == ESCAPED
    assert turn.tool_calls[0].arguments["emoji"] == "\U0001f600"


@pytest.mark.parametrize("cut", range(len(ESCAPED) + 1))
def test_arguments_cut_at_every_position(cut: int) -> None:
    """Two fragments cut at any position, including inside '\\ud83d', give the same text."""
    items = [
        calls_chunk(call_delta(0, "call_1", "f", ESCAPED[:cut])),
        calls_chunk(call_delta(0, arguments=ESCAPED[cut:])),
    ]
    turn = message(items)
    assert turn.tool_calls == (ToolCall("call_1", "f", ESCAPED),)


def test_non_ascii_text_split_between_characters() -> None:
    """Text content of astral characters streamed one character per chunk joins back exactly."""
    text = "Paris \U0001f600 café"
    turn = message([chunk({"role": "assistant", "content": ""}), *(chunk({"content": c}) for c in text)])
    assert turn == ChatMessage.assistant(text)


# -- keying -------------------------------------------------------------------------------


def test_repeated_id_and_name_are_not_concatenated() -> None:
    """An id and name repeated on every delta are the same value: never 'call_1call_1'."""
    items = [
        calls_chunk(call_delta(0, "call_1", "get_weather", piece)) for piece in ['{"ci', 'ty": ', '"Paris"}']
    ]
    turn = message(items)
    assert turn.tool_calls == (ToolCall("call_1", "get_weather", {"city": "Paris"}),)


def test_empty_id_and_name_on_later_deltas_are_absent() -> None:
    """'' for id or name on a later delta (some compatible servers) continues the call."""
    items = [
        calls_chunk(call_delta(0, "call_1", "f", '{"a"')),
        calls_chunk({"index": 0, "id": "", "function": {"name": "", "arguments": ": 1}"}}),
    ]
    assert message(items).tool_calls == (ToolCall("call_1", "f", {"a": 1}),)


def test_new_id_at_used_index_starts_a_new_call() -> None:
    """A different id at an index already in use is the next call, not more of the old one."""
    items = [
        calls_chunk(call_delta(0, "call_1", "f", '{"a": 1}')),
        calls_chunk(call_delta(0, "call_2", "g", '{"b"')),
        calls_chunk(call_delta(0, arguments=": 2}")),
    ]
    assert message(items).tool_calls == (ToolCall("call_1", "f", {"a": 1}), ToolCall("call_2", "g", {"b": 2}))


def test_new_name_at_used_index_without_ids_starts_a_new_call() -> None:
    """Without ids, a different name at an index in use is the next call (one call has one name)."""
    items = [calls_chunk(call_delta(0, None, "f", "{}")), calls_chunk(call_delta(0, None, "g", "{}"))]
    snapshot = assemble(items).snapshot()
    assert snapshot.tool_calls == (PartialToolCall(None, "f", "{}"), PartialToolCall(None, "g", "{}"))


def test_parallel_calls_interleaved_by_index() -> None:
    """Deltas of two calls interleaved by index go to their own call; several deltas in one chunk too."""
    items = [
        calls_chunk(call_delta(0, "call_1", "f", '{"a"'), call_delta(1, "call_2", "g", '{"b"')),
        calls_chunk(call_delta(1, arguments=": 2}")),
        calls_chunk(call_delta(0, arguments=": 1}")),
    ]
    assert message(items).tool_calls == (ToolCall("call_1", "f", {"a": 1}), ToolCall("call_2", "g", {"b": 2}))


def test_id_arriving_after_the_first_delta() -> None:
    """A call whose id comes on a later delta at the same index gets it."""
    items = [calls_chunk(call_delta(0, None, "f", "{")), calls_chunk(call_delta(0, "call_1", None, "}"))]
    assert message(items).tool_calls == (ToolCall("call_1", "f", {}),)


def test_deltas_without_index_are_keyed_by_id() -> None:
    """Deltas without index go to the call with their id, interleaved or not."""
    items = [
        calls_chunk(call_delta(None, "call_1", "f", '{"a"')),
        calls_chunk(call_delta(None, "call_2", "g", '{"b"')),
        calls_chunk(call_delta(None, "call_1", None, ": 1}")),
        calls_chunk(call_delta(None, "call_2", "g", ": 2}")),
    ]
    assert message(items).tool_calls == (ToolCall("call_1", "f", {"a": 1}), ToolCall("call_2", "g", {"b": 2}))


def test_a_call_started_on_the_fast_path_takes_deltas_by_its_id() -> None:
    """A call's first delta (index, id, type, name: the fast path makes the call) and then a delta
    with its id and no index: the id finds the call, as when the general path made it."""
    items = [
        calls_chunk(call_delta(0, "call_1", "f", '{"a":')),
        calls_chunk(call_delta(None, "call_1", arguments="1}")),
    ]
    assert message(items).tool_calls == (ToolCall("call_1", "f", {"a": 1}),)


@pytest.mark.parametrize("index", [True, 1.0])
def test_a_fragment_at_an_index_only_equal_to_the_calls_is_refused(index: object) -> None:
    """``True`` and ``1.0`` equal the open call's index 1 but are no index: the fragment is
    refused, as the general path refuses it, not appended on the fast path."""
    stream = assemble([calls_chunk(call_delta(1, "call_1", "f", '{"a":'))])
    with pytest.raises(InvalidStream) as caught:
        stream.feed(calls_chunk({"index": index, "function": {"arguments": "1}"}}))
    assert str(caught.value).startswith(
        "item[1].choices[0].delta.tool_calls[0].index: must be a non-negative integer, got "
    )


def _mixed_stream() -> list[dict[str, Any]]:
    """Chunks of every way in: the general path (the role chunk, a chunk with two keys),
    the fast path's call start, text and argument fragments (one of them empty), again."""
    return [
        chunk({"role": "assistant", "content": None}),
        chunk({"content": "Let me "}),
        chunk({"content": ""}),
        chunk({"content": "check.", "refusal": None}),
        calls_chunk(call_delta(0, "call_1", "get_weather", "")),
        calls_chunk(call_delta(0, arguments='{"city"')),
        calls_chunk(call_delta(0, arguments="")),
        calls_chunk(call_delta(0, arguments=': "Paris"}', extra_key=None)),
        calls_chunk(call_delta(1, "call_2", "get_time", '{"city": ')),
        calls_chunk(call_delta(1, arguments='"Lyon"}')),
    ]


def _fed_until_refused(items: list[Any]) -> InvalidStream:
    """The error of the last of ``items``, the others fed first."""
    stream = openai.StreamAssembler()
    for item in items[:-1]:
        stream.feed(item)
    with pytest.raises(InvalidStream) as caught:
        stream.feed(items[-1])
    return caught.value


@pytest.mark.parametrize("bad", range(len(_mixed_stream()) + 1))
def test_an_error_names_the_item_it_is_in_however_the_ones_before_were_taken(bad: int) -> None:
    """The fast path counts its chunks by the fragments it keeps, the general path its own:
    an error's item[N] is the bad chunk's position all the same, after any mix of them."""
    error = _fed_until_refused([*_mixed_stream()[:bad], {"choices": 5}])
    assert str(error) == f"item[{bad}].choices: must be an array, got 5"


def _too_deep() -> list[Any]:
    value: list[Any] = []
    for _ in range(2_000):
        value = [value]
    return value


_HALF_TAKEN = {
    # The delta's content appended, then its role refused.
    "text": (chunk({"content": "x", "role": "user"}), ".choices[0].delta.role: must be 'assistant'"),
    # The call's fragment appended, then a key of its own refused (nested past the JSON limit).
    "arguments": (
        calls_chunk(call_delta(0, arguments="x", extra_key=_too_deep())),
        ".choices[0].delta.tool_calls[0].extra_key: ",
    ),
}


@pytest.mark.parametrize("half", sorted(_HALF_TAKEN))
@pytest.mark.parametrize("bad", range(len(_mixed_stream()) + 1))
def test_a_chunk_refused_after_it_kept_a_fragment_is_not_counted(bad: int, half: str) -> None:
    """A chunk whose fragment the general path appended before a later key was refused is
    refused whole: the chunk after it is at the same position."""
    half_taken, refusal = _HALF_TAKEN[half]
    stream = openai.StreamAssembler()
    for item in _mixed_stream()[:bad]:
        stream.feed(item)
    with pytest.raises(InvalidStream) as first:
        stream.feed(half_taken)
    assert str(first.value).startswith(f"item[{bad}]{refusal}")
    with pytest.raises(InvalidStream) as caught:
        stream.feed({"choices": 5})
    assert str(caught.value) == f"item[{bad}].choices: must be an array, got 5"


def test_after_the_closing_chunk_an_item_for_the_choice_names_its_position() -> None:
    """The closing chunk (taken at once) counts as an item: what follows it is at the next
    position, refused for following the end."""
    items = [*_mixed_stream(), chunk({}, "tool_calls"), chunk({"content": "more"})]
    error = _fed_until_refused(items)
    assert str(error).startswith(f"item[{len(items) - 1}]: must not follow the end of the stream")


def test_a_stream_whose_only_chunk_took_the_fast_path_has_a_message() -> None:
    """A compatible server's first chunk may be a bare text fragment (no id, no role):
    it is an item fed, so message() has a turn to give."""
    stream = openai.StreamAssembler()
    stream.feed({"choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": None}]})
    assert stream.message() == ChatMessage.assistant("")


def test_deltas_without_index_or_id_are_keyed_by_order() -> None:
    """Deltas with neither index nor id are keyed by their position in the chunk's tool_calls."""
    items = [
        calls_chunk(call_delta(None, "call_1", "f", '{"a"'), call_delta(None, "call_2", "g", '{"b"')),
        calls_chunk(call_delta(None, arguments=": 1}"), call_delta(None, arguments=": 2}")),
    ]
    assert message(items).tool_calls == (ToolCall("call_1", "f", {"a": 1}), ToolCall("call_2", "g", {"b": 2}))


def test_same_id_with_another_name_is_an_error() -> None:
    """One call, two names: the stream contradicts itself."""
    stream = assemble([calls_chunk(call_delta(0, "call_1", "f", "{"))])
    with pytest.raises(InvalidStream) as caught:
        stream.feed(calls_chunk(call_delta(0, "call_1", "g")))
    assert caught.value.path == "item[1].choices[0].delta.tool_calls[0].function.name"
    assert "must stay the name of call 'call_1', 'f'" in str(caught.value)


def test_call_extra_keys_are_kept() -> None:
    """Keys of a call delta this codec does not model are kept in the call's extra, like from_dict keeps them."""
    google = {"google": {"thought_signature": "c2ln"}}
    items = [calls_chunk(call_delta(0, "call_1", "f", "{}", extra_content=google, other=None))]
    turn = message(items)
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert call == ToolCall.from_dict(
        {"id": "call_1", "function": {"name": "f", "arguments": "{}"}, "extra_content": google}
    )


def test_function_index_is_accepted_and_unknown_function_keys_rejected() -> None:
    """function keys are read as from_dict reads them: an int index is dropped, another key is an error."""
    assert message(
        [calls_chunk(call_delta(0, "call_1", "f", "{}", function={"name": "f", "index": 0}))]
    ).tool_calls
    stream = assemble([calls_chunk({"index": 0, "id": "c", "function": {"name": "f", "colour": "red"}})])
    with pytest.raises(InvalidToolCall, match=r"tool_calls\[0\]\.function\.colour: is not a known key"):
        stream.message()


# -- text, role, usage, refusal -----------------------------------------------------------


def test_role_only_chunk_and_text_deltas() -> None:
    """A role-only first chunk, then text deltas, give a text turn."""
    items = [
        chunk({"role": "assistant"}),
        chunk({"content": "Hel"}),
        chunk({"content": "lo"}),
        chunk({}, "stop"),
    ]
    stream = assemble(items)
    assert stream.message() == ChatMessage.assistant("Hello")
    assert (stream.finish_reason, stream.ended) == ("stop", True)


def test_text_and_tool_calls_together() -> None:
    """Text before the calls is kept as the turn's content."""
    items = [chunk({"content": "Let me check."}), calls_chunk(call_delta(0, "call_1", "f", "{}"))]
    assert message(items) == ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")], "Let me check.")


def test_stream_with_no_text_and_no_calls_is_an_empty_turn() -> None:
    """A role-only stream that stops is an assistant turn with empty text."""
    assert message(
        [chunk({"role": "assistant", "content": None, "refusal": None}), chunk({}, "stop")]
    ) == ChatMessage.assistant("")


def _general_asked(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The chunks the general path (``_feed``) is asked about from now on; each is still
    taken that way."""
    asked: list[object] = []
    feed_general = openai.StreamAssembler._feed

    def counted(self: openai.StreamAssembler, item: dict[str, Any]) -> None:
        asked.append(item)
        feed_general(self, item)

    monkeypatch.setattr(openai.StreamAssembler, "_feed", counted)
    return asked


@pytest.mark.parametrize("seeded", [False, True])
def test_a_closing_chunk_alone_is_an_empty_turn_taken_at_once(
    seeded: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The closing chunk (an empty delta for the choice, and its finish_reason) is a delta
    seen: an empty assistant turn that stopped. Without an id, or once an id seeded the
    calls' made-up ids, it is taken at once (the general path is never asked)."""
    stream = openai.StreamAssembler()
    if seeded:
        stream.feed(chunk({"role": "assistant"}))  # the general way: it reads the id
    closing = chunk({}, "stop")
    if not seeded:
        del closing["id"]
    general = _general_asked(monkeypatch)
    stream.feed(closing)
    assert general == []
    assert stream.message() == ChatMessage.assistant("")
    assert (stream.finish_reason, stream.ended) == ("stop", True)


@pytest.mark.parametrize("finish_reason", [None, "stop"])
def test_openais_opening_chunk_is_taken_at_once(
    finish_reason: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The role and two nulls, OpenAI's first chunk of every stream, carry nothing but that the
    choice was seen: taken at once (its id read), and an empty turn. With a finish_reason it is
    the general path's."""
    general = _general_asked(monkeypatch)
    opening = chunk({"role": "assistant", "content": None, "refusal": None}, finish_reason)
    stream = assemble([opening])
    assert general == ([] if finish_reason is None else [opening])
    assert stream.message() == ChatMessage.assistant("")
    assert (stream.finish_reason, stream.ended) == (finish_reason, finish_reason is not None)


class _EqualsAnything:
    """A value that says it equals everything (None and "assistant" too)."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("key", ["role", "content", "refusal"])
def test_an_opening_chunk_whose_value_only_equals_a_null_goes_the_general_way(key: str) -> None:
    """The opening chunk is taken at once only with its very nulls and a str role: a value
    that merely compares equal to them is the general path's, kept or refused as it says."""
    delta: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None, key: _EqualsAnything()}
    fast, general = openai.StreamAssembler(), openai.StreamAssembler()
    outcomes: list[tuple[str, object]] = []
    for stream, feed in ((fast, fast.feed), (general, lambda item: Assembler.feed(general, item))):
        try:
            feed(chunk(delta))
            others = stream._others  # made with the first other key
            outcomes.append(("taken", sorted(others.joined()) if others else []))
        except InvalidStream as error:
            outcomes.append(("refused", str(error)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("response_id", [5, None, ["chatcmpl-1"]])
def test_a_first_id_that_is_not_text_goes_the_general_way(
    response_id: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An id that is not a string seeds nothing (the general path passes over it): a chunk
    that brings one first goes that way, with the same turn."""
    general = _general_asked(monkeypatch)
    closing = {**chunk({}, "stop"), "id": response_id}
    stream = assemble([closing])
    assert general == [closing]
    assert stream.message() == ChatMessage.assistant("")
    assert (stream.finish_reason, stream.ended) == ("stop", True)


def test_null_delta_and_missing_choice_index() -> None:
    """A null delta carries nothing; a choice without index is choice 0."""
    item = {"choices": [{"delta": {"content": "a"}}]}
    assert message(
        [item, {"choices": [{"index": 0, "delta": None, "finish_reason": "stop"}]}]
    ) == ChatMessage.assistant("a")


def test_empty_choices_with_usage_after_the_end() -> None:
    """The usage chunk (empty choices) after the finish_reason is accepted, and so is one without choices."""
    stream = assemble(
        [chunk({"content": "a"}), chunk({}, "stop"), {"choices": [], "usage": {"total_tokens": 3}}]
    )
    assert stream.usage == {"total_tokens": 3}
    stream.feed({"usage": {"total_tokens": 4}})
    assert stream.usage == {"total_tokens": 4}
    assert stream.message() == ChatMessage.assistant("a")


def test_usage_on_every_chunk() -> None:
    """Usage reported on content chunks (continuous usage) is kept, the latest wins."""
    stream = assemble(
        [chunk({"content": "a"}, usage={"total_tokens": 1}), chunk({}, "stop", usage={"total_tokens": 2})]
    )
    assert stream.usage == {"total_tokens": 2}


def test_refusal_deltas_are_kept_in_extra_like_from_dict() -> None:
    """Refusal fragments concatenate and land in extra, as from_response keeps a refusal."""
    items = [
        chunk({"role": "assistant", "content": None, "refusal": ""}),
        chunk({"refusal": "I can't "}),
        chunk({"refusal": "help."}),
        chunk({}, "stop"),
    ]
    turn = message(items)
    expected = openai.from_response(
        {
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": None, "refusal": "I can't help."}}
            ]
        }
    )
    assert turn == expected
    assert turn.extra == {"refusal": "I can't help."}


def test_other_text_keys_concatenate_and_arrays_extend() -> None:
    """reasoning_content fragments join; annotations arrays extend; a repeated same value is fine."""
    items = [
        chunk({"reasoning_content": "Think"}),
        chunk({"reasoning_content": "ing.", "annotations": [{"type": "a"}], "audio": {"id": "x"}}),
        chunk({"content": "Done", "annotations": [{"type": "b"}], "audio": {"id": "x"}}),
    ]
    turn = message(items)
    assert turn.extra == {
        "reasoning_content": "Thinking.",
        "annotations": [{"type": "a"}, {"type": "b"}],
        "audio": {"id": "x"},
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [({"id": "x"}, {"id": "y"}), ("text", 5), ([1], "text"), (5, [1])],
)
def test_other_keys_that_cannot_be_merged(first: Any, second: Any) -> None:
    """A key that changes value, or changes type between text, array and value, is an error, not lost."""
    stream = assemble([chunk({"other": first})])
    with pytest.raises(InvalidStream, match=r"^item\[1\]\.choices\[0\]\.delta\.other: must keep its value"):
        stream.feed(chunk({"other": second}))


def test_values_too_deep_to_keep() -> None:
    """A value nested deeper than toolturns' JSON limit is refused where it came, not RecursionError later."""
    value: list[Any] = []
    for _ in range(100_000):
        value = [value]
    stream = assemble([chunk({"content": "Hi"})])
    with pytest.raises(InvalidStream) as caught:
        stream.feed(chunk({"other": {"v": value}}))
    assert caught.value.path == "item[1].choices[0].delta.other"
    assert caught.value.rule.startswith("must nest at most 500 levels deep")
    assert stream.message() == ChatMessage.assistant("Hi")


# -- n > 1 --------------------------------------------------------------------------------


def two_choices() -> list[dict[str, Any]]:
    """A stream of two choices, interleaved; choice 0 finishes first."""
    return [
        {
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "content": "A"}},
                {"index": 1, "delta": {"role": "assistant", "content": "B"}},
            ]
        },
        chunk(calls_chunk(call_delta(0, "call_1", "f", "{}"))["choices"][0]["delta"], index=1),
        chunk({}, "stop", index=0),
        chunk({"content": "b"}, index=1),
        chunk({}, "tool_calls", index=1),
        {"choices": [], "usage": {"total_tokens": 9}},
    ]


def test_choice_zero_by_default_and_others_after_its_end() -> None:
    """Choice 0 is assembled by default; the other choice's chunks after its end are accepted."""
    stream = assemble(two_choices())
    assert stream.message() == ChatMessage.assistant("A")
    assert (stream.finish_reason, stream.usage) == ("stop", {"total_tokens": 9})


def test_choice_picks_another_choice() -> None:
    """choice=1 assembles the second choice."""
    stream = assemble(two_choices(), choice=1)
    assert stream.message() == ChatMessage.assistant_tool_calls([ToolCall("call_1", "f")], "Bb")
    assert stream.finish_reason == "tool_calls"


def test_choice_that_never_streamed() -> None:
    """Asking for a choice the stream never had is an error at message()."""
    stream = assemble(two_choices(), choice=2)
    with pytest.raises(InvalidStream, match="has no delta for choice 2"):
        stream.message()
    assert not stream.ended


@pytest.mark.parametrize("choice", [-1, True, "0", 1.0])
def test_choice_must_be_a_non_negative_int(choice: Any) -> None:
    """The choice option is checked when the assembler is made."""
    with pytest.raises(InvalidStream, match=r"^choice: must be a non-negative integer"):
        openai.StreamAssembler(choice=choice)


# -- truncation and life cycle ------------------------------------------------------------


def test_truncated_by_length_keeps_the_partial_arguments() -> None:
    """finish_reason 'length' mid-arguments: the raw partial text is kept, .arguments raises, ended is true."""
    items = [calls_chunk(call_delta(0, "call_1", "f", '{"city": "Pa')), chunk({}, "length")]
    stream = assemble(items)
    turn = stream.message()
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert call.arguments_json == '{"city": "Pa'
    with pytest.raises(InvalidArguments) as caught:
        _ = call.arguments
    assert (caught.value.call_id, caught.value.raw) == ("call_1", '{"city": "Pa')
    assert (stream.finish_reason, stream.ended) == ("length", True)


def test_stream_cut_off_without_a_final_chunk() -> None:
    """No finish_reason at all: ended is false, finish_reason None, the partial text kept."""
    stream = assemble([calls_chunk(call_delta(0, "call_1", "f", '{"a": [1, 2'))])
    assert (stream.ended, stream.finish_reason) == (False, None)
    turn = stream.message()
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert call.arguments_json == '{"a": [1, 2'


def test_message_before_anything_fed() -> None:
    """message() before any item is a clear error."""
    with pytest.raises(InvalidStream, match="has no items yet"):
        openai.StreamAssembler().message()


def test_feeding_the_chosen_choice_after_its_end() -> None:
    """A delta for the chosen choice after its finish_reason is refused; the message is unchanged."""
    stream = assemble([chunk({"content": "a"}, "stop")])
    with pytest.raises(InvalidStream, match=r"^item\[1\]: must not follow the end of the stream"):
        stream.feed(chunk({"content": "b"}))
    with pytest.raises(InvalidStream, match=r"^item\[1\]: must not follow the end"):
        stream.feed("[DONE]")
    with pytest.raises(InvalidStream, match=r"^item\[1\]: must not follow the end"):
        stream.feed({"choices": "x"})
    assert stream.message() == ChatMessage.assistant("a")


def test_second_entry_for_the_choice_in_the_finishing_chunk() -> None:
    """Two entries for the chosen choice in one chunk, the first finishing it: the second is refused."""
    item = {
        "choices": [
            {"index": 0, "delta": {}, "finish_reason": "stop"},
            {"index": 0, "delta": {"content": "x"}},
        ]
    }
    with pytest.raises(
        InvalidStream, match=r"^item\[0\]\.choices\[1\]: must not follow the choice's finish_reason"
    ):
        assemble([item])


def test_snapshot_during_the_stream_does_not_disturb() -> None:
    """A snapshot after every item shows the text and calls so far and leaves the result unchanged."""
    items = [
        chunk({"role": "assistant", "content": "Hi"}),
        calls_chunk(call_delta(0, "call_1", "f", '{"a"')),
        calls_chunk(call_delta(0, arguments=": 1}"), call_delta(1, None, "g", "{")),
        calls_chunk(call_delta(1, "call_2", arguments="}")),
        chunk({}, "tool_calls"),
    ]
    stream = openai.StreamAssembler()
    seen = []
    for item in items:
        stream.feed(item)
        seen.append(stream.snapshot())
    assert seen[1].tool_calls == (PartialToolCall("call_1", "f", '{"a"'),)
    assert seen[2].content == "Hi"
    assert seen[2].tool_calls == (PartialToolCall("call_1", "f", '{"a": 1}'), PartialToolCall(None, "g", "{"))
    assert seen[3].finish_reason is None
    assert seen[4].finish_reason == "tool_calls"
    assert stream.message() == message(items)


@pytest.mark.parametrize(
    ("delta", "path", "got"),
    [
        (call_delta(0, "call_1", None, "{}"), "tool_calls[0].function.name", None),
    ],
)
def test_call_whose_name_never_arrived(delta: dict[str, Any], path: str, got: str | None) -> None:
    """message() names the call that lacks its name; snapshot() shows it with None."""
    stream = assemble([calls_chunk(delta), chunk({}, "tool_calls")])
    with pytest.raises(InvalidStream) as caught:
        stream.message()
    assert (caught.value.path, caught.value.got) == (path, got)
    assert "never arrived in the stream" in caught.value.rule
    (partial,) = stream.snapshot().tool_calls
    assert None in (partial.id, partial.name)


def test_duplicate_call_ids_are_an_error_at_message() -> None:
    """Two calls with one id (at different indexes) break the message rule, reported by from_dict."""
    stream = assemble([calls_chunk(call_delta(0, "c", "f", "{}"), call_delta(1, "c", "f", "{}"))])
    with pytest.raises(InvalidMessage):
        stream.message()


def test_error_item_carries_the_provider_error() -> None:
    """An {"error": ...} item mid-stream raises InvalidStream carrying the provider's error object."""
    error = {"message": "The server had an error", "type": "server_error"}
    stream = assemble([chunk({"content": "a"})])
    with pytest.raises(InvalidStream) as caught:
        stream.feed({"error": error})
    assert caught.value.provider_error == error
    assert caught.value.path == "item[1].error"


# -- malformed chunks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "path", "rule"),
    [
        ([1], "item[0]", "must be an object"),
        ({"object": "chat.completion.chunk"}, "item[0].choices", "is required"),
        ({"choices": {}}, "item[0].choices", "must be an array"),
        ({"choices": [], "usage": [1]}, "item[0].usage", "must be an object"),
        ({"choices": [1]}, "item[0].choices[0]", "must be an object"),
        ({"choices": [{"index": -1}]}, "item[0].choices[0].index", "must be a non-negative integer"),
        ({"choices": [{"index": "0"}]}, "item[0].choices[0].index", "must be a non-negative integer"),
        (chunk([1]), "item[0].choices[0].delta", "must be an object"),
        (chunk({}, 5), "item[0].choices[0].finish_reason", "must be a string"),  # type: ignore[arg-type]
        (chunk({"role": "user"}), "item[0].choices[0].delta.role", "must be 'assistant'"),
        (chunk({"content": ["a"]}), "item[0].choices[0].delta.content", "must be a string"),
        (chunk({"tool_calls": {}}), "item[0].choices[0].delta.tool_calls", "must be an array"),
        (calls_chunk("x"), "item[0].choices[0].delta.tool_calls[0]", "must be an object"),  # type: ignore[arg-type]
        (
            calls_chunk({"index": True}),
            "item[0].choices[0].delta.tool_calls[0].index",
            "must be a non-negative integer",
        ),
        (
            calls_chunk({"index": -2}),
            "item[0].choices[0].delta.tool_calls[0].index",
            "must be a non-negative integer",
        ),
        (
            calls_chunk({"index": "0"}),
            "item[0].choices[0].delta.tool_calls[0].index",
            "must be a non-negative integer",
        ),
        (calls_chunk({"index": 0, "id": 7}), "item[0].choices[0].delta.tool_calls[0].id", "must be a string"),
        (
            calls_chunk({"index": 0, "type": "custom"}),
            "item[0].choices[0].delta.tool_calls[0].type",
            "must be 'function'",
        ),
        (
            calls_chunk({"index": 0, "function": "f"}),
            "item[0].choices[0].delta.tool_calls[0].function",
            "must be an object",
        ),
        (
            calls_chunk({"index": 0, "function": {"name": ["f"]}}),
            "item[0].choices[0].delta.tool_calls[0].function.name",
            "must be a string",
        ),
        (
            calls_chunk({"index": 0, "function": {"arguments": {"a": 1}}}),
            "item[0].choices[0].delta.tool_calls[0].function.arguments",
            "must be a string",
        ),
    ],
)
def test_malformed_chunks_are_rejected_with_their_path(item: Any, path: str, rule: str) -> None:
    """Each wrong shape raises InvalidStream whose path points inside the item."""
    with pytest.raises(InvalidStream) as caught:
        openai.StreamAssembler().feed(item)
    assert caught.value.path == path
    assert caught.value.rule.startswith(rule)


def test_other_choices_are_not_read() -> None:
    """Deltas of choices other than the chosen one are skipped, whatever their shape."""
    stream = assemble([chunk({"content": "a"}), chunk([1], index=1)])
    assert stream.message() == ChatMessage.assistant("a")


def test_delta_without_function_opens_the_call() -> None:
    """A first delta with only index, id and type opens the call; the name may follow."""
    items = [
        calls_chunk({"index": 0, "id": "call_1", "type": "function"}),
        calls_chunk(call_delta(0, None, "f", "{}")),
    ]
    assert message(items).tool_calls == (ToolCall("call_1", "f"),)


def test_malformed_choice_after_the_end() -> None:
    """After the end, a chunk whose choices hold a non-object is still checked, not skipped silently."""
    stream = assemble([chunk({}, "stop")])
    with pytest.raises(InvalidStream, match=r"^item\[1\]\.choices\[0\]: must be an object"):
        stream.feed({"choices": [1]})


def test_calls_are_listed_in_index_order() -> None:
    """A call opened at index 1 before index 0 is still listed second, as the whole response lists it."""
    items = [calls_chunk(call_delta(1, "call_2", "g", "{}")), calls_chunk(call_delta(0, "call_1", "f", "{}"))]
    assert message(items).tool_calls == (ToolCall("call_1", "f"), ToolCall("call_2", "g"))
    assert [c.id for c in assemble(items).snapshot().tool_calls] == ["call_1", "call_2"]


# -- the fragment fast path: chunks that look almost like a plain fragment ------------------


def opened() -> openai.StreamAssembler:
    """An assembler with call 0 open, so the next argument fragment takes the fast path."""
    return assemble([calls_chunk(call_delta(0, "call_1", "f", ""))])


@pytest.mark.parametrize(
    ("item", "path", "rule"),
    [
        (
            calls_chunk({"index": True, "function": {"arguments": "{}"}}),
            "delta.tool_calls[0].index",
            "must be",
        ),
        (
            calls_chunk({"index": 0, "function": {"arguments": 5}}),
            "delta.tool_calls[0].function.arguments",
            "must be",
        ),
        (
            calls_chunk({"index": 0, "function": ["arguments"]}),
            "delta.tool_calls[0].function",
            "must be an object",
        ),
        (calls_chunk("x"), "delta.tool_calls[0]", "must be an object"),  # type: ignore[arg-type]
        (chunk(["content"]), "delta", "must be an object"),
        (chunk({"content": 5}), "delta.content", "must be a string"),
    ],
)
def test_near_fragments_after_an_open_call_get_the_general_checks(item: Any, path: str, rule: str) -> None:
    """A chunk shaped almost like a fragment is checked by the general path, with its path."""
    stream = opened()
    with pytest.raises(InvalidStream) as caught:
        stream.feed(item)
    assert caught.value.path == f"item[1].choices[0].{path}"
    assert caught.value.rule.startswith(rule)


def test_a_first_chunk_of_text_alone_is_the_chosen_choice() -> None:
    """A stream whose first chunk is a bare text fragment still assembles (no role chunk)."""
    assert message([chunk({"content": "Hi"}), chunk({"content": "!"}, "stop")]).content == "Hi!"


def test_a_boolean_choice_index_is_not_choice_one() -> None:
    """True == 1 in Python, but a boolean index is refused, on the fast path as elsewhere."""
    stream = assemble([chunk({"content": "a"}, index=1)], choice=1)
    item = chunk({"content": "b"})
    item["choices"][0]["index"] = True
    with pytest.raises(InvalidStream, match="must be a non-negative integer"):
        stream.feed(item)
    assert stream.message().content == "a"


def test_fragment_fields_beside_arguments_are_not_lost() -> None:
    """A fragment delta with one more key goes the general way, which keeps that key."""
    stream = opened()
    stream.feed(calls_chunk({"index": 0, "function": {"arguments": "{}"}, "x_note": "kept"}))
    call = stream.message().tool_calls[0]  # type: ignore[index]
    assert (call.arguments_json, call.extra) == ("{}", {"x_note": "kept"})


class _Odd(dict[str, Any]):
    """A dict whose lookups fail with an error no JSON value raises."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError(key)


def test_a_lookup_failing_oddly_on_the_fast_path_leaves_the_chunk_to_the_general_path() -> None:
    """Whatever the fast path meets, it never lets a foreign error out of feed()."""
    stream = opened()
    item = calls_chunk(call_delta(0, arguments="{}"))
    item["choices"][0] = _Odd(item["choices"][0])
    stream.feed(item)  # the general path reads the dict subclass with .get
    assert stream.message().tool_calls[0].arguments_json == "{}"  # type: ignore[index]


def test_calls_without_ids_get_the_made_up_ids_from_response_gives() -> None:
    """Servers that send no call id (Ollama's /v1, some vLLM builds): deterministic ids, marked as made up,
    the same as from_response gives the response sent whole; the live view shows None until then."""
    items = [
        {"id": "chatcmpl-1", **calls_chunk(call_delta(0, None, "get_weather", '{"city": "Paris"}'))},
        {"id": "chatcmpl-1", **calls_chunk(call_delta(1, "", "get_time", ""))},
        {"id": "chatcmpl-1", **chunk({}, "tool_calls")},
        {"id": "chatcmpl-1", "choices": None, "usage": {"total_tokens": 9}},
    ]
    stream = assemble(items)
    turn = stream.message()
    assert turn.tool_calls is not None
    first, second = turn.tool_calls
    assert first.id.startswith("call_")
    assert first.id != second.id
    assert first.provider_data == {"openai": {"generated_id": True}}
    assert [call.arguments for call in turn.tool_calls] == [{"city": "Paris"}, {}]
    assert message(items) == turn  # the same stream, the same ids
    assert stream.snapshot().tool_calls[0].id is None
    assert stream.usage == {"total_tokens": 9}
    whole = {
        "id": "chatcmpl-1",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                        },
                        {"id": "", "type": "function", "function": {"name": "get_time", "arguments": ""}},
                    ],
                },
            }
        ],
    }
    assert openai.from_response(whole) == turn
    other = {**whole, "id": "chatcmpl-2"}
    assert openai.from_response(other).tool_calls[0].id != first.id  # type: ignore[index]
    # The made-up id goes out with the call (a tool result must name it on this wire).
    assert openai.to_request([turn])["messages"][0]["tool_calls"][0]["id"] == first.id


def test_a_chunk_with_null_choices_is_skipped() -> None:
    """choices: null (a keep-alive or usage chunk some servers send) changes nothing."""
    items = [chunk({"role": "assistant", "content": "Hi"}), {"choices": None}, chunk({}, "stop")]
    assert message(items) == ChatMessage.assistant("Hi")


def test_a_malformed_call_without_an_id_is_still_an_error() -> None:
    """Making an id up reads nothing else: a call whose function is not an object is refused as before."""
    with pytest.raises(InvalidToolCall) as caught:
        openai.from_response(
            {"role": "assistant", "content": None, "tool_calls": [{"type": "function", "function": 5}]}
        )
    assert caught.value.path == "tool_calls[0].function"


# -- the fast path takes exactly what the general path takes ------------------------------


def general_path(items: list[Any]) -> openai.StreamAssembler:
    """An assembler fed ``items`` through the general path only (Assembler.feed, as every other chunk)."""
    stream = openai.StreamAssembler()
    for item in items:
        Assembler.feed(stream, item)
    return stream


def _retyped(item: dict[str, Any], where: str, retype: Any) -> dict[str, Any]:
    """``item`` with the value at ``where`` (choices, choices[0], delta, tool_calls, tool_calls[0], function) retyped."""
    item = copy.deepcopy(item)
    choices = item["choices"]
    delta = choices[0]["delta"]
    if where == "choices":
        item["choices"] = retype(choices)
    elif where == "choices[0]":
        choices[0] = retype(choices[0])
    elif where == "delta":
        choices[0]["delta"] = retype(delta)
    elif where == "tool_calls":
        delta["tool_calls"] = retype(delta["tool_calls"])
    elif where == "tool_calls[0]":
        delta["tool_calls"][0] = retype(delta["tool_calls"][0])
    else:
        delta["tool_calls"][0]["function"] = retype(delta["tool_calls"][0]["function"])
    return item


_TEXT = chunk({"content": "more"})
_ARGUMENTS = calls_chunk(call_delta(0, arguments="{}"))
_FRAGMENTS = [
    pytest.param(_TEXT, "choices", tuple, id="text-choices-tuple"),
    pytest.param(_TEXT, "choices[0]", lambda entry: Frozen(**entry), id="text-choice-mapping"),
    pytest.param(_TEXT, "delta", lambda delta: Frozen(**delta), id="text-delta-mapping"),
    pytest.param(_TEXT, "delta", MappingProxyType, id="text-delta-mappingproxy"),
    pytest.param(_ARGUMENTS, "choices", tuple, id="arguments-choices-tuple"),
    pytest.param(_ARGUMENTS, "tool_calls", tuple, id="arguments-tool_calls-tuple"),
    pytest.param(_ARGUMENTS, "choices[0]", lambda entry: Frozen(**entry), id="arguments-choice-mapping"),
    pytest.param(_ARGUMENTS, "delta", lambda delta: Frozen(**delta), id="arguments-delta-mapping"),
    pytest.param(_ARGUMENTS, "tool_calls[0]", lambda call: Frozen(**call), id="arguments-call-mapping"),
    pytest.param(
        _ARGUMENTS, "function", lambda function: Frozen(**function), id="arguments-function-mapping"
    ),
    pytest.param(_ARGUMENTS, "function", MappingProxyType, id="arguments-function-mappingproxy"),
]


@pytest.mark.parametrize(("fragment", "where", "retype"), _FRAGMENTS)
def test_a_fragment_in_another_container_type_is_refused_on_either_path(
    fragment: dict[str, Any], where: str, retype: Any
) -> None:
    """A plain fragment with a tuple for an array or a mapping that is not a dict: the fast path refuses it
    as the general path does, with the same error, and assembles nothing of it."""
    item = _retyped(fragment, where, retype)
    opening = [calls_chunk(call_delta(0, "call_1", "f", ""))]
    fast, general = assemble(opening), assemble(opening)
    with pytest.raises(InvalidStream) as on_fast:
        fast.feed(item)
    with pytest.raises(InvalidStream) as on_general:
        Assembler.feed(general, item)
    assert str(on_fast.value) == str(on_general.value)
    assert fast.message() == general.message() == assemble(opening).message()


_ROLE_CHUNK_DELTA = {"role": "assistant", "content": None, "refusal": None}


@pytest.mark.parametrize(
    "first", [_ROLE_CHUNK_DELTA, {"content": "Hi"}, {"content": "Hi", "refusal": None}, {"role": "assistant"}]
)
def test_the_first_chunk_id_seeds_made_up_ids_whichever_path_took_it(first: dict[str, Any]) -> None:
    """OpenAI's role chunk or a text fragment first (taken at once), or a delta the general
    path takes, with the response's id: the made-up call ids are seeded with it either way."""

    def made_up_id(response_id: str) -> str:
        items = [
            {**chunk(dict(first)), "id": response_id},
            {**calls_chunk(call_delta(0, None, "f", "{}")), "id": "chatcmpl-later"},
        ]
        turn = assemble(items).message()
        assert turn == general_path(items).message()
        assert turn.tool_calls is not None
        return turn.tool_calls[0].id

    assert made_up_id("chatcmpl-first") != made_up_id("chatcmpl-other")


def test_snapshots_list_calls_in_index_order_as_they_come_out_of_it() -> None:
    """Calls opened at indices 2, 0, 1 and streamed interleaved: every snapshot lists them by index, as
    message() does; once a call comes without index, in the order they came."""
    items = [
        calls_chunk(call_delta(2, "call_c", "h", "")),
        calls_chunk(call_delta(0, "call_a", "f", '{"a"')),
        calls_chunk(call_delta(2, arguments='{"c": 3}')),
        calls_chunk(call_delta(1, "call_b", "g", "{}")),
        calls_chunk(call_delta(0, arguments=": 1}")),
    ]
    stream = openai.StreamAssembler()
    seen = []
    for item in items:
        stream.feed(item)
        seen.append([(partial.id, partial.arguments_json) for partial in stream.snapshot().tool_calls])
    assert seen[-1] == [("call_a", '{"a": 1}'), ("call_b", "{}"), ("call_c", '{"c": 3}')]
    assert seen[2] == [("call_a", '{"a"'), ("call_c", '{"c": 3}')]
    assert [call.id for call in stream.message().tool_calls or ()] == ["call_a", "call_b", "call_c"]
    stream.feed(calls_chunk(call_delta(None, "call_d", "k", "{}")))
    assert [partial.id for partial in stream.snapshot().tool_calls] == [
        "call_c",
        "call_a",
        "call_b",
        "call_d",
    ]
    assert [call.id for call in stream.message().tool_calls or ()] == ["call_c", "call_a", "call_b", "call_d"]

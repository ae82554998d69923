"""``providers._native``: the one schema for what a wire carries that the model does not.

Unit tests of reading (``unmodelled``, ``kept``) and writing (``Replay``,
``placed``), and, for each codec that keeps native data, the property that
reading a body with unmodelled keys and items, writing it and reading it
again gives back the same native body.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.property import strategies as s
from tests.providers.anthropic.test_properties import _NONEMPTY_EXTRAS, assistant_contents
from tests.providers.gemini.test_properties import model_contents
from tests.providers.ollama.test_properties import _MESSAGE_KEPT, _NONEMPTY_JSON, _RESULT_KEPT
from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidStream,
    InvalidToolCall,
    MessageError,
    ToolCall,
    anthropic,
    check_transcript,
    gemini,
    ollama,
    openai,
)
from toolturns.providers._native import Replay, is_generated_id, kept, placed, replay_of, unmodelled

# -- reading: unmodelled ------------------------------------------------------------------


def test_unmodelled_keeps_the_other_keys_but_null_and_empty_ones() -> None:
    """The keys outside ``modelled`` are kept, but those whose value is null or empty: 0 and false are kept."""
    native: dict[str, Any] = {
        "type": "text",
        "text": "x",
        "a": None,
        "b": "",
        "c": [],
        "d": {},
        "e": 0,
        "f": False,
        "g": {"h": 1},
    }
    assert unmodelled(native, frozenset({"type", "text"})) == {"e": 0, "f": False, "g": {"h": 1}}
    assert unmodelled({"type": "text"}, frozenset({"type"})) == {}


def test_what_unmodelled_keeps_is_copied_by_the_value_kept_on() -> None:
    """The kept values go into provider_data, which stores JSON text: changing the native body later changes nothing."""
    inner = {"h": [1]}
    call = ToolCall("c", "f", provider_data=kept("ollama", keys=unmodelled({"g": inner}, frozenset())))
    inner["h"].append(2)
    assert call.provider_data == {"ollama": {"keys": {"g": {"h": [1]}}}}


@pytest.mark.parametrize(
    ("native", "error"),
    [
        ({"x": float("nan")}, "function.x: must be a finite number, got nan"),
        ({1: "x"}, "function: keys must be strings, got 1"),
    ],
)
def test_unmodelled_values_that_are_not_json_raise_at_the_native_path(native: Any, error: str) -> None:
    """A key that is not a string, or a value that is not JSON, raises the given error at the native path."""
    with pytest.raises(InvalidToolCall) as caught:
        unmodelled(native, frozenset(), path="function", error=InvalidToolCall)
    assert str(caught.value) == error


@pytest.mark.parametrize(
    ("read", "body", "kind", "error"),
    [
        (
            anthropic.from_response,
            {"content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}, "caller": float("nan")}]},
            InvalidToolCall,
            "content[0].caller: must be a finite number, got nan",
        ),
        (
            anthropic.from_request,
            {"system": [{"type": "text", "text": "x", 1: "y"}], "messages": []},
            InvalidMessage,
            "system[0]: keys must be strings, got 1",
        ),
        (
            gemini.from_response,
            {"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "x": float("nan")}}]}}]},
            InvalidToolCall,
            "candidates[0].content.parts[0].functionCall.x: must be a finite number, got nan",
        ),
        (
            ollama.from_response,
            {"message": {"role": "assistant", "content": "", "thinking": float("nan")}},
            InvalidMessage,
            "message.thinking: must be a finite number, got nan",
        ),
    ],
)
def test_every_codec_reports_an_unmodelled_value_that_is_not_json_at_its_native_path(
    read: Any, body: Any, kind: type[MessageError], error: str
) -> None:
    """Anthropic and Gemini, as Ollama did, name the key where the body has it (they named its
    place in provider_data: content[0].provider_data.anthropic.block.caller)."""
    with pytest.raises(kind) as caught:
        read(body)
    assert str(caught.value) == error


# -- reading: kept ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "what",
    [
        {},
        {"keys": {}},
        {"nested": {"function": {}}},
        {"items": []},
        {"generated_id": False},
        {"keys": {}, "nested": {"functionCall": {}}, "items": [], "generated_id": False},
    ],
)
def test_kept_gives_none_for_nothing(what: dict[str, Any]) -> None:
    """Nothing to keep (no keys, empty nested objects, no items, an id not made up) is no provider_data at all."""
    assert kept("ollama", **what) is None


def test_kept_builds_one_entry_of_the_schema() -> None:
    """Each part that holds something is one key of the provider's entry; empty nested objects are left out."""
    assert kept(
        "gemini",
        keys={"thoughtSignature": "c2ln"},
        nested={"functionCall": {"willContinue": False}, "other": {}},
        items=[(0, {"text": "hm", "thought": True})],
        generated_id=True,
    ) == {
        "gemini": {
            "keys": {"thoughtSignature": "c2ln"},
            "nested": {"functionCall": {"willContinue": False}},
            "items": [[0, {"text": "hm", "thought": True}]],
            "generated_id": True,
        }
    }


def test_is_generated_id_reads_the_mark_of_one_provider() -> None:
    """The mark kept(..., generated_id=True) leaves is read for that provider only."""
    call = ToolCall("call_x", "f", provider_data=kept("gemini", generated_id=True))
    assert is_generated_id(call, "gemini")
    assert not is_generated_id(call, "ollama")
    assert not is_generated_id(ToolCall("call_x", "f", provider_data={"gemini": 5}), "gemini")


# -- writing: Replay ----------------------------------------------------------------------

_CALL_SHAPE: dict[str, Any] = {
    "keys": frozenset({"id", "function"}),
    "nested": {"function": frozenset({"name", "arguments"})},
    "generated_id": True,
}


def replay(entry: object, **shape: Any) -> Replay:
    """A Replay of the Ollama entry ``entry``, for a call unless ``shape`` says otherwise."""
    return Replay({"ollama": entry}, "ollama", InvalidToolCall, **(shape or _CALL_SHAPE))


def test_replay_of_no_entry_holds_nothing() -> None:
    """Without an entry for the provider (another provider's data aside) there is nothing to write back."""
    nothing = Replay({"gemini": {"keys": {"x": 1}}}, "ollama", InvalidToolCall, **_CALL_SHAPE)
    assert (dict(nothing.keys), nothing.nested_keys("function"), nothing.items, nothing.generated_id) == (
        {},
        {},
        [],
        False,
    )


def test_replay_reads_null_as_nothing_kept() -> None:
    """A null keys, nested, nested object or items entry says nothing was kept (as before the schema was one)."""
    entry = {"keys": None, "nested": None, "items": None}
    nothing = Replay({"ollama": entry}, "ollama", InvalidToolCall, items=True, **_CALL_SHAPE)
    assert (dict(nothing.keys), nothing.nested_keys("function"), nothing.items) == ({}, {}, [])
    assert replay({"nested": {"function": None}}).nested_keys("function") == {}


def test_replay_gives_what_reading_kept() -> None:
    """An entry kept() built gives back its keys, nested keys, items and mark."""
    entry = {"keys": {"x": 1}, "nested": {"function": {"y": [2]}}, "generated_id": True}
    checked = replay(entry)
    assert (checked.keys, checked.nested, checked.generated_id) == ({"x": 1}, {"function": {"y": [2]}}, True)
    items = replay({"items": [[1, {"type": "thinking"}]]}, items=True).items
    assert items == [(1, {"type": "thinking"})]
    assert replay({"generated_id": False}).generated_id is False


@pytest.mark.parametrize(
    ("entry", "shape", "error"),
    [
        (
            "x",
            _CALL_SHAPE,
            "provider_data.ollama: must be an object (the data the Ollama codec read), got 'x'",
        ),
        (
            {"function_keys": {}},
            _CALL_SHAPE,
            "provider_data.ollama.function_keys: is not data the Ollama codec writes"
            " (it writes generated_id, keys, nested), got dict",
        ),
        (
            {"items": []},
            _CALL_SHAPE,
            "provider_data.ollama.items: is not data the Ollama codec writes (it writes generated_id, keys, nested),"
            " got list",
        ),
        (
            {"keys": {}},
            {},
            "provider_data.ollama.keys: is not data the Ollama codec writes (it writes none here), got dict",
        ),
        (
            {"keys": {"id": "c"}},
            _CALL_SHAPE,
            "provider_data.ollama.keys.id: is a key the Ollama codec writes itself, not a kept key, got 'c'",
        ),
        ({"keys": [1]}, _CALL_SHAPE, "provider_data.ollama.keys: must be an object of native keys, got list"),
        (
            {"nested": [1]},
            _CALL_SHAPE,
            "provider_data.ollama.nested: must be an object: the kept keys of each nested object, by its key,"
            " got list",
        ),
        (
            {"nested": {"fn": {}}},
            _CALL_SHAPE,
            "provider_data.ollama.nested.fn: is not a nested object the Ollama codec keeps keys of"
            " (it keeps those of function), got dict",
        ),
        (
            {"nested": {"function": "x"}},
            _CALL_SHAPE,
            "provider_data.ollama.nested.function: must be an object of native keys, got 'x'",
        ),
        (
            {"nested": {"function": {"name": "g"}}},
            _CALL_SHAPE,
            "provider_data.ollama.nested.function.name: is a key the Ollama codec writes itself, not a kept key,"
            " got 'g'",
        ),
        (
            {"generated_id": "yes"},
            _CALL_SHAPE,
            "provider_data.ollama.generated_id: must be a boolean, got 'yes'",
        ),
        ({"generated_id": 1}, _CALL_SHAPE, "provider_data.ollama.generated_id: must be a boolean, got 1"),
    ],
)
def test_replay_refuses_what_reading_never_writes(entry: Any, shape: dict[str, Any], error: str) -> None:
    """A non-object entry, an entry key or nested object reading never writes, a kept key the codec writes
    itself, or a mark that is not a boolean raises the codec's error at its place in provider_data."""
    with pytest.raises(InvalidToolCall) as caught:
        Replay({"ollama": entry}, "ollama", InvalidToolCall, **shape)
    assert str(caught.value) == error


@pytest.mark.parametrize(
    ("items", "path"),
    [
        ("x", "provider_data.ollama.items"),
        ({"0": {}}, "provider_data.ollama.items"),
        ([[0]], "provider_data.ollama.items[0]"),
        ([[0, {}, 1]], "provider_data.ollama.items[0]"),
        (["ab"], "provider_data.ollama.items[0]"),
        ([[0, {}], [1, "x"]], "provider_data.ollama.items[1]"),
        ([["0", {}]], "provider_data.ollama.items[0]"),
        ([[True, {}]], "provider_data.ollama.items[0]"),
        ([[-1, {}]], "provider_data.ollama.items[0]"),
        ([[0.0, {}]], "provider_data.ollama.items[0]"),
    ],
)
def test_replay_refuses_malformed_items(items: Any, path: str) -> None:
    """Items are an array of [position, item] pairs: an integer >= 0 (not a boolean) and an object."""
    with pytest.raises(InvalidMessage) as caught:
        Replay({"ollama": {"items": items}}, "ollama", InvalidMessage, items=True)
    assert caught.value.path == path


def test_replay_names_an_unregistered_provider_by_its_key() -> None:
    """A provider the registry does not know (a wire kept outside toolturns) is named by its key."""
    with pytest.raises(InvalidMessage) as caught:
        Replay({"mywire": 5}, "mywire", InvalidMessage)
    assert (
        str(caught.value) == "provider_data.mywire: must be an object (the data the mywire codec read), got 5"
    )


# -- writing: placed ----------------------------------------------------------------------


def items(*pairs: tuple[int, dict[str, Any]]) -> Replay:
    """A Replay of a message whose kept items are ``pairs``."""
    data = {"anthropic": {"items": [list(pair) for pair in pairs]}}
    return Replay(data, "anthropic", InvalidMessage, items=True)


def test_placed_puts_kept_items_back_and_the_modelled_ones_in_order_between() -> None:
    """Each kept item goes to its position, whatever order they are listed in; the others fill the rest in order."""
    a, b, t, c = {"type": "a"}, {"type": "b"}, {"type": "text"}, {"type": "tool_use"}
    assert placed(items((3, b), (0, a)), [t, c]) == [a, t, c, b]
    assert placed(items(), [t, c]) == [t, c]
    assert placed(items((0, a), (1, b)), []) == [a, b]


@pytest.mark.parametrize(
    ("pairs", "error"),
    [
        (
            [(2, {"type": "a"})],
            "provider_data.anthropic.items[0][0]: must be a free position below 2"
            " (the items kept plus those toolturns writes), got 2",
        ),
        (
            [(0, {"type": "a"}), (0, {"type": "b"})],
            "provider_data.anthropic.items[1][0]: must be a free position below 3"
            " (the items kept plus those toolturns writes), got 0",
        ),
    ],
)
def test_placed_refuses_taken_and_out_of_range_positions(pairs: list[tuple[int, Any]], error: str) -> None:
    """A position at or past the count of items written, or one another kept item has, is refused."""
    with pytest.raises(InvalidMessage) as caught:
        placed(items(*pairs), [{"type": "text"}])
    assert str(caught.value) == error


# Positions no list has: past any count of items, past what an index can be.
_HUGE_POSITIONS = [10**30, 2**63, 2**64]


@pytest.mark.parametrize("position", _HUGE_POSITIONS)
@pytest.mark.parametrize(
    ("codec", "item"),
    [
        (anthropic, {"type": "thinking", "thinking": "hm", "signature": "sig"}),
        (gemini, {"text": "hm", "thought": True}),
    ],
    ids=["anthropic", "gemini"],
)
def test_a_kept_item_at_a_huge_position_is_refused_at_its_path(codec: Any, item: Any, position: int) -> None:
    """A position past every list is refused as any other out of range: to_request raises, check reports it."""
    name = codec.__name__.rsplit(".", 1)[-1]
    turn = ChatMessage(
        "assistant",
        "Paris.",
        tool_calls=[ToolCall("call_1", "get_weather")],
        provider_data={name: {"items": [[position, item]]}},
    )
    history = [ChatMessage.user("Weather?"), turn, ChatMessage.tool_result("call_1", "18")]
    path = f"messages[1].provider_data.{name}.items[0][0]"
    with pytest.raises(InvalidMessage, match=rf"^{re.escape(path)}: must be a free position below \d+ "):
        codec.to_request(history)
    problems = check_transcript(history, target=name)
    assert [(problem.path, problem.code) for problem in problems] == [(path, "not_convertible")]


# -- caller-given positions: choice= ------------------------------------------------------

_HUGE = 10**5000  # repr() of it raises ValueError (the int str limit)


@pytest.mark.parametrize(
    ("read", "body", "error"),
    [
        (
            openai.from_response,
            {"choices": [{"message": {"role": "assistant", "content": "hi"}}]},
            "choices: must be an array with an item at index an integer of 16610 bits, got list",
        ),
        (
            gemini.from_response,
            {"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}}]},
            "candidates: must be an array with a candidate at index an integer of 16610 bits "
            "(Gemini sends none when it blocks the prompt: see promptFeedback), got list",
        ),
    ],
    ids=["openai", "gemini"],
)
def test_from_response_says_a_huge_choice_is_out_of_range(read: Any, body: Any, error: str) -> None:
    """A choice too long to print is described, as every value in an error is."""
    with pytest.raises(InvalidMessage) as caught:
        read(body, choice=_HUGE)
    assert str(caught.value) == error


def test_the_openai_assembler_refuses_a_choice_no_response_has() -> None:
    """A choice at or past sys.maxsize is no position in a list: refused when the assembler is made."""
    for choice in (sys.maxsize, _HUGE):
        with pytest.raises(
            InvalidStream,
            match=r"^choice: must be a non-negative integer below sys\.maxsize \(\d+\): a position in choices, got ",
        ):
            openai.StreamAssembler(choice=choice)
    assert openai.StreamAssembler(choice=sys.maxsize - 1).ended is False


_CHOICES = st.one_of(s.json_ints(), st.sampled_from([_HUGE, -_HUGE, sys.maxsize, True]))
_CHUNK = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}


@given(_CHOICES)
def test_only_message_errors_escape_any_choice(choice: Any) -> None:
    """Whatever int is given as choice=, reading gives a message or a MessageError."""
    with contextlib.suppress(MessageError):
        openai.from_response(
            {"choices": [{"message": {"role": "assistant", "content": "hi"}}]}, choice=choice
        )
    with contextlib.suppress(MessageError):
        gemini.from_response({"candidates": [{"content": {"role": "model", "parts": []}}]}, choice=choice)
    with contextlib.suppress(MessageError):
        stream = openai.StreamAssembler(choice=choice)
        stream.feed({**_CHUNK, "choices": [{**_CHUNK["choices"][0], "index": choice}]})
        stream.feed(_CHUNK)
        stream.message()


# -- read, write, read: the same native body ----------------------------------------------


def through_json(body: Any) -> Any:
    """``body`` as it comes back over HTTP."""
    return json.loads(json.dumps(body))


def assert_replays(codec: Any, body: dict[str, Any]) -> None:
    """Reading ``body``, writing what was read and reading that gives ``body`` and the same messages."""
    messages = codec.from_request(through_json(body))
    written = through_json(codec.to_request(messages))
    assert written == body
    assert codec.from_request(written) == messages


_TEXTS = s.unicode_text(min_size=1, max_size=8)


def maybe(draw: st.DrawFn, keys: st.SearchStrategy[Any]) -> dict[str, Any]:
    """Unmodelled keys drawn from ``keys``, or none (half the time)."""
    drawn: dict[str, Any] = draw(keys) if draw(st.booleans()) else {}
    return drawn


@st.composite
def anthropic_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A request body in the form to_request writes, with kept keys on system blocks, tool_use and
    tool_result blocks, and kept blocks (thinking...) anywhere in the assistant turn."""
    system = [
        {"type": "text", "text": draw(_TEXTS), **maybe(draw, _NONEMPTY_EXTRAS)}
        for _ in range(draw(st.integers(0, 2)))
    ]
    content = draw(assistant_contents())
    messages: list[dict[str, Any]] = [{"role": "user", "content": draw(_TEXTS)}]
    uses = [block for block in content if block["type"] == "tool_use"]
    if all(block["type"] == "text" for block in content):
        # At most one text block, no call, no kept block: to_request writes the string form.
        messages.append({"role": "assistant", "content": content[0]["text"] if content else ""})
    else:
        messages.append({"role": "assistant", "content": content})
    if uses:
        results: list[dict[str, Any]] = []
        for block in uses:
            result = {"type": "tool_result", "tool_use_id": block["id"], "content": draw(_TEXTS)}
            if draw(st.booleans()):
                result["is_error"] = True
            results.append({**result, **maybe(draw, _NONEMPTY_EXTRAS)})
        if draw(st.booleans()):
            results.append({"type": "text", "text": draw(_TEXTS)})
        messages.append({"role": "user", "content": results})
    return {"system": system, "messages": messages} if system else {"messages": messages}


@settings(max_examples=100)
@given(anthropic_bodies())
def test_anthropic_bodies_with_kept_keys_and_blocks_replay(body: dict[str, Any]) -> None:
    """Anthropic: read, written and read again, a body with unmodelled block keys and blocks is the same body."""
    assert_replays(anthropic, body)


@st.composite
def anthropic_turns(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Assistant content in any layout: the form to_request writes with text blocks (empty ones too) anywhere."""
    content = draw(assistant_contents())
    for _ in range(draw(st.integers(0, 3))):
        block = {"type": "text", "text": draw(s.unicode_text(max_size=4))}
        content.insert(draw(st.integers(0, len(content))), block)
    return content


@settings(max_examples=100)
@given(anthropic_turns())
def test_anthropic_turns_in_any_layout_write_what_reads_back_the_same(content: list[dict[str, Any]]) -> None:
    """Anthropic: whatever the text blocks around them, the kept blocks of a turn can be written back
    (their positions count the joined text once), in their order, and that reads back as the same turn."""
    turn = anthropic.from_response({"type": "message", "content": content})
    # Not through JSON text: joined lone surrogates would come back as one character.
    written = anthropic.to_request([turn])
    assert anthropic.from_request(written) == [turn]
    blocks = written["messages"][0]["content"]
    kinds = ("text", "tool_use")
    if isinstance(blocks, list):
        assert [b for b in blocks if b["type"] not in kinds] == [b for b in content if b["type"] not in kinds]


_PART_KEYS = st.sampled_from(["partMetadata", "videoMetadata", "x-kept"])


@st.composite
def gemini_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A request body: a user turn, a model content of any mix of parts (calls with signatures and other keys,
    kept on the part and inside functionCall), then the responses to its calls with kept keys of their own."""
    content = draw(model_contents())
    responses: list[dict[str, Any]] = []
    for part in content["parts"]:
        if "functionCall" not in part:
            continue
        function = part["functionCall"]
        if draw(st.booleans()):
            part[draw(_PART_KEYS)] = draw(_NONEMPTY_JSON)
        if draw(st.booleans()):
            function["willContinue"] = draw(st.booleans())
        answer: dict[str, Any] = {"name": function["name"], "response": {"result": "r" + draw(_TEXTS)}}
        if "id" in function:
            answer["id"] = function["id"]
        if draw(st.booleans()):
            answer["scheduling"] = draw(st.sampled_from(["SILENT", "WHEN_IDLE"]))
        response: dict[str, Any] = {"functionResponse": answer}
        if draw(st.booleans()):
            response[draw(_PART_KEYS)] = draw(_NONEMPTY_JSON)
        responses.append(response)
    contents = [{"role": "user", "parts": [{"text": draw(_TEXTS)}]}, content]
    if responses:
        more = [{"text": draw(_TEXTS)}] if draw(st.booleans()) else []
        contents.append({"role": "user", "parts": responses + more})
    return {"contents": contents}


@settings(max_examples=100)
@given(gemini_bodies())
def test_gemini_bodies_with_kept_keys_and_parts_replay(body: dict[str, Any]) -> None:
    """Gemini: read, written and read again, a body with unmodelled part and function keys and parts is the same body."""
    assert_replays(gemini, body)


@st.composite
def ollama_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A request body with unmodelled keys on every message, call and function, calls with and without ids,
    and their results in call order (with tool_call_id exactly when the call has an id)."""
    calls: list[dict[str, Any]] = []
    for position in range(draw(st.integers(1, 3))):
        function = {
            "name": draw(st.sampled_from(["get_weather", "get_time"])),
            "arguments": draw(s.json_objects(deep=False)),
            **maybe(draw, _RESULT_KEPT),
        }
        call: dict[str, Any] = {"function": function, **maybe(draw, _RESULT_KEPT)}
        if draw(st.booleans()):
            call["id"] = f"call_{position}"
        calls.append(call)
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": draw(_TEXTS), **maybe(draw, _MESSAGE_KEPT)},
        {"role": "assistant", "content": "", "tool_calls": calls, **maybe(draw, _RESULT_KEPT)},
    ]
    for call in calls:
        result = {"role": "tool", "content": draw(_TEXTS), "tool_name": call["function"]["name"]}
        if "id" in call:
            result["tool_call_id"] = call["id"]
        messages.append({**result, **maybe(draw, _RESULT_KEPT)})
    messages.append({"role": "assistant", "content": draw(_TEXTS), **maybe(draw, _RESULT_KEPT)})
    return {"messages": messages}


@settings(max_examples=100)
@given(ollama_bodies())
def test_ollama_bodies_with_kept_keys_replay(body: dict[str, Any]) -> None:
    """Ollama: read, written and read again, a body with unmodelled message, call and function keys is the same body."""
    assert_replays(ollama, body)


@settings(max_examples=50)
@given(st.sampled_from([anthropic, gemini, ollama]), s.chat_messages(with_provider_data=True))
def test_only_message_errors_escape_replay(codec: Any, message: ChatMessage) -> None:
    """Any provider_data a caller puts on a message gives a body or a MessageError, never another exception."""
    with contextlib.suppress(MessageError):
        codec.to_request([ChatMessage.user("x"), message])


def test_a_value_without_provider_data_replays_the_shared_nothing() -> None:
    """replay_of skips the checks for a value with no provider_data at all, and gives nothing to write back."""
    nothing = replay_of(ChatMessage.user("hi").provider_data, "ollama", InvalidToolCall, keys=frozenset())
    assert (dict(nothing.keys), nothing.nested_keys("function"), nothing.items, nothing.generated_id) == (
        {},
        {},
        [],
        False,
    )
    kept_data = {"ollama": {"keys": {"x": 1}}}
    assert dict(replay_of(kept_data, "ollama", InvalidToolCall, keys=frozenset()).keys) == {"x": 1}


_ENTRIES = st.one_of(
    st.dictionaries(st.sampled_from(["id", "status", "type", "x"]), st.text(max_size=3), max_size=3).map(
        lambda keys: {"keys": keys}
    ),
    st.fixed_dictionaries(
        {"keys": st.dictionaries(st.sampled_from(["id", "x"]), s.arbitrary_json(), max_size=2)},
        optional={"items": st.just([[0, {"type": "reasoning"}]]), "generated_id": st.booleans()},
    ),
    s.arbitrary_json(),
)


@given(_ENTRIES)
def test_replay_of_an_extra_gives_what_replay_gives(entry: Any) -> None:
    """replay_of's way for kept text keys (no copy) gives what Replay gives the same entry, or the same error."""
    provider_data = ChatMessage("user", "x", provider_data={"ollama": entry}).provider_data
    shape: dict[str, Any] = {"keys": frozenset({"type"}), "items": True}

    def outcome(make: Any) -> Any:
        try:
            got = make(provider_data, "ollama", InvalidMessage, **shape)
        except MessageError as error:
            return str(error)
        return dict(got.keys), got.nested, got.items, got.generated_id

    assert outcome(replay_of) == outcome(Replay)


def test_kept_text_keys_are_taken_as_they_are() -> None:
    """An entry of text keys is one the value objects take without a copy; one holding anything
    else is copied, so that a caller's later change to an item changes nothing kept."""
    data = kept("responses", keys={"id": "fc_1", "status": "completed"})
    assert ToolCall("call_1", "f", provider_data=data).provider_data is data
    summary: list[str] = []
    item = {"type": "reasoning", "summary": summary}
    with_item = kept("responses", items=[(0, item)])
    summary.append("changed")
    assert with_item == {"responses": {"items": [[0, {"type": "reasoning", "summary": []}]]}}


def test_provider_data_of_a_wire_without_only_here_items_is_not_sent_elsewhere() -> None:
    """What a wire with no kept_for_this_wire_only kept, or a key no registered wire has, is
    neither refused nor sent by another wire."""
    message = ChatMessage(
        "user", "hi", provider_data={"anthropic": {"keys": {"cache_control": {}}}, "elsewhere": {"a": 1}}
    )
    assert openai.to_request([message]) == {"messages": [{"role": "user", "content": "hi"}]}

"""Properties of ``openai.StreamAssembler``: any cut of a message's chunks assembles back; only MessageError escapes."""

from __future__ import annotations

import copy
import functools
import itertools
import random
from types import MappingProxyType
from typing import Any
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import Frozen
from tests.property import strategies as s
from tests.test_stream_copies import assembled, wreck
from tests.test_stream_snapshots import assert_snapshots_agree
from toolturns import ChatMessage, MessageError, ToolCall, openai
from toolturns.providers._stream import Assembler
from toolturns.providers.openai.read import read_turn

_NAMES = st.text(st.sampled_from("abcxyz_-0129"), min_size=1, max_size=8)
_TEXT = s.unicode_text(max_size=30)


@st.composite
def _messages(draw: st.DrawFn) -> ChatMessage:
    """A valid assistant turn: text and/or 1-3 tool calls with JSON-object argument text."""
    text = draw(_TEXT)
    count = draw(st.integers(0, 3))
    if count == 0:
        return ChatMessage.assistant(text)
    ids = draw(st.lists(_NAMES, min_size=count, max_size=count, unique=True))
    calls = [ToolCall(call_id, draw(_NAMES), draw(s.valid_object_texts())) for call_id in ids]
    return ChatMessage.assistant_tool_calls(calls, text)


def _cut(text: str, rng: random.Random, one_char: bool) -> list[str]:
    """``text`` cut at random points (every character apart with ``one_char``)."""
    if one_char:
        return list(text)
    points = sorted({rng.randrange(len(text) + 1) for _ in range(rng.randrange(4))} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(points)]


def _chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    return {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def _wire_chunks(message: ChatMessage, seed: int, one_char: bool, repeat_ids: bool) -> list[dict[str, Any]]:
    """The chunks of ``message``: text and arguments cut anywhere, calls interleaved, ids repeated or not."""
    rng = random.Random(seed)
    items = [_chunk({"role": "assistant", "content": ""})]
    items += [_chunk({"content": piece}) for piece in _cut(message.text, rng, one_char)]
    queues = []
    for index, call in enumerate(message.tool_calls or ()):
        pieces = _cut(call.arguments_json, rng, one_char)
        first = {
            "index": index,
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        later = [
            {"index": index, "id": call.id, "function": {"name": call.name, "arguments": piece}}
            if repeat_ids
            else {"index": index, "function": {"arguments": piece}}
            for piece in pieces
        ]
        queues.append([first, *later])
    while queues:  # interleave the calls' deltas, each call's in order
        queue = rng.choice(queues)
        items.append(_chunk({"tool_calls": [queue.pop(0)]}))
        if not queue:
            queues.remove(queue)
    items.append(_chunk({}, "tool_calls" if message.tool_calls else "stop"))
    items.append({"object": "chat.completion.chunk", "choices": [], "usage": {"total_tokens": len(items)}})
    return items


@given(_messages(), st.integers(0, 2**32), st.booleans(), st.booleans())
def test_any_cut_of_the_chunks_assembles_back(
    message: ChatMessage, seed: int, one_char: bool, repeat_ids: bool
) -> None:
    """Assembling the chunks of M, cut anywhere (one character apart, ids repeated or not), gives M."""
    stream = openai.StreamAssembler()
    for item in _wire_chunks(message, seed, one_char, repeat_ids):
        stream.feed(item)
        stream.snapshot()
    assert stream.message() == message
    assert stream.ended


_CHUNKS = st.builds(_wire_chunks, _messages(), st.integers(0, 2**32), st.just(False), st.booleans())


@given(
    st.one_of(
        st.lists(s.arbitrary_json(), max_size=4),
        _CHUNKS.flatmap(lambda c: st.lists(s.mutated(st.sampled_from(c)), max_size=5)),
    )
)
def test_arbitrary_items_raise_only_message_error(items: list[Any]) -> None:
    """Arbitrary JSON and near-valid chunks fed in give a message or a MessageError, nothing else."""
    s.feed_expecting_only_message_errors(openai.StreamAssembler(), items)


# -- the fast path against the general path ------------------------------------------------


class _DictChild(dict[Any, Any]):
    """A dict subclass: a dict to the general path (isinstance), never a plain fragment."""


class _ListChild(list[Any]):
    """A list subclass, likewise."""


def _retypings(value: Any) -> list[Any]:
    """The values of another container type that could stand where ``value`` stands."""
    if isinstance(value, list):
        return [tuple(value), _ListChild(value)]
    retyped: list[Any] = [MappingProxyType(value), _DictChild(value)]
    if all(isinstance(key, str) for key in value):
        retyped.append(Frozen(**value))
    return retyped


def _slots(root: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every dict or list inside ``root``, below it."""
    found = []
    pending = [root]
    while pending:
        node = pending.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in items:
            if type(child) in (dict, list):
                found.append((node, key))
                pending.append(child)
    return found


@st.composite
def _varied(draw: st.DrawFn, item: dict[str, Any]) -> Any:
    """``item``, or a variant of it: a container of another type somewhere, another id, keys the fast path
    looks at added or taken away, a mistake deep inside."""
    kind = draw(st.sampled_from(["same", "retyped", "id", "keys", "call", "mutated"]))
    item = copy.deepcopy(item)
    if kind == "retyped":
        slots = _slots(item)
        if slots:
            node, key = draw(st.sampled_from(slots))
            node[key] = draw(st.sampled_from(_retypings(node[key])))
    elif kind == "id":
        item["id"] = draw(st.sampled_from(["chatcmpl-1", "chatcmpl-2", None, 5]))
    elif kind == "keys":
        entry = item["choices"][0] if item.get("choices") else {}
        change = draw(st.sampled_from(["usage", "error", "finish_reason", "index", "index-bool", "no-id"]))
        if change in ("usage", "error"):
            item[change] = draw(st.sampled_from([None, {"total_tokens": 1}]))
        elif change == "finish_reason":
            entry.pop("finish_reason", None)
        elif change == "index":
            entry.pop("index", None)
        elif change == "index-bool":
            entry["index"] = False
        else:
            item.pop("id", None)
    elif kind == "call":  # a call delta the fast path for a call's first delta looks at, changed
        entry = item["choices"][0] if item.get("choices") else {}
        calls = entry.get("delta", {}).get("tool_calls")
        if calls:
            call = calls[0]
            target = call["function"] if draw(st.booleans()) and "function" in call else call
            key = draw(st.sampled_from(["index", "id", "type", "name", "arguments"]))
            target[key] = draw(st.sampled_from([0, 1, -1, True, "", "call_x", "function", None, {"a": 1}]))
    elif kind == "mutated":
        return draw(s.mutated(st.just(item)))
    return item


def _outcome(act: Any) -> Any:
    try:
        return act()
    except MessageError as error:
        return type(error), str(error)


def _state(stream: openai.StreamAssembler) -> tuple[Any, ...]:
    return (_outcome(stream.snapshot), stream.finish_reason, stream.usage, stream.ended)


_STREAMS_WITH_IDS = st.builds(
    _wire_chunks, _messages(), st.integers(0, 2**32), st.booleans(), st.booleans()
).map(lambda items: [{"id": "chatcmpl-1", **item} for item in items])


@given(_STREAMS_WITH_IDS.flatmap(lambda items: st.tuples(*(_varied(item) for item in items))))
def test_the_fast_path_takes_what_the_general_path_takes_and_gives_the_same(items: tuple[Any, ...]) -> None:
    """Fed the same chunks, an assembler and one fed through the general path only (Assembler.feed)
    accept and refuse the same chunks, with the same errors, and tell the same at every step."""
    fast, general = openai.StreamAssembler(), openai.StreamAssembler()
    for item in items:
        assert _outcome(functools.partial(fast.feed, item)) == _outcome(
            functools.partial(Assembler.feed, general, item)
        )
        assert _state(fast) == _state(general)
    assert _outcome(fast.message) == _outcome(general.message)


@st.composite
def _call_edited(draw: st.DrawFn, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``items`` with what takes a turn off ``_plain_turn`` in one of their call deltas (or, in
    a stream without calls, their first delta): no id, a call whose name never comes, an id
    another call has, a key of the call or of its function to keep, another key of the delta."""
    items = copy.deepcopy(items)
    deltas = [item["choices"][0]["delta"] for item in items if item.get("choices")]
    with_calls = [delta for delta in deltas if delta.get("tool_calls")]
    delta = draw(st.sampled_from(with_calls or deltas))
    call = (delta.get("tool_calls") or [{}])[0]
    kind = draw(st.sampled_from(["no-id", "no-name", "shared-id", "call-key", "function-key", "delta-key"]))
    if kind == "no-id":
        call.pop("id", None)
    elif kind == "no-name":  # on every delta of the call: its name never arrives
        for other in with_calls:
            if other["tool_calls"][0].get("index") == call.get("index"):
                other["tool_calls"][0].get("function", {}).pop("name", None)
    elif kind == "shared-id":  # the same id on every call: a repeated id once there are two
        for other in with_calls:
            other["tool_calls"][0]["id"] = "call_shared"
    elif kind == "call-key":
        call["cache"] = draw(st.sampled_from(["x", 1, None, [1]]))
    elif kind == "function-key":
        call.setdefault("function", {})["strict"] = draw(st.sampled_from([True, None]))
    else:
        delta[draw(st.sampled_from(["refusal", "reasoning_content"]))] = "no"
    return items


_EDITED_STREAMS = st.one_of(
    _STREAMS_WITH_IDS.flatmap(lambda items: st.tuples(*(_varied(item) for item in items))),
    _STREAMS_WITH_IDS.flatmap(_call_edited),
)


@given(_EDITED_STREAMS)
def test_a_turn_made_at_once_is_the_turn_read_from_the_body_it_would_write(items: tuple[Any, ...]) -> None:
    """``message()`` makes a turn whose calls came with ids and names and nothing else at once
    (``_plain_turn``); with that way shut, it writes the body and reads it (``read_turn``): the
    same turn or the same error, the same argument text to the byte."""
    stream = openai.StreamAssembler()
    for item in items:
        _outcome(functools.partial(stream.feed, item))
    made = _outcome(stream.message)
    with mock.patch.object(openai.StreamAssembler, "_plain_turn", return_value=None):
        read = _outcome(stream.message)
    assert made == read
    assert repr(made) == repr(read)


def test_only_the_plain_turns_are_made_at_once() -> None:
    """Which streams' turns reach ``read_turn`` is what is counted: not a turn whose calls all
    came with an id and a name and nothing else; a call without an id (made up there), a key
    of a call or of the delta to keep, and a repeated id (an error) do."""
    first = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    plain = [
        [_chunk({"role": "assistant", "content": "Hi"})],
        [_chunk({"role": "assistant", "content": None, "tool_calls": [first]}), _chunk({}, "tool_calls")],
    ]
    other = [
        [_chunk({"tool_calls": [{**first, "id": None}]})],
        [_chunk({"tool_calls": [{**first, "cache": "x"}]})],
        [_chunk({"tool_calls": [{**first, "function": {"name": "f", "arguments": "{}", "strict": True}}]})],
        [_chunk({"content": "Hi", "refusal": "no"})],
        [_chunk({"tool_calls": [first, {**first, "index": 1}]})],
    ]
    read = []

    def counted(message: object, seed: tuple[object, ...]) -> ChatMessage:
        read.append(message)
        return read_turn(message, seed)

    with mock.patch("toolturns.providers.openai.stream.read_turn", counted):
        for items in plain:
            stream = openai.StreamAssembler()
            for item in items:
                stream.feed(item)
            assert isinstance(stream.message(), ChatMessage)
        assert read == []
        for items in other:
            stream = openai.StreamAssembler()
            for item in items:
                stream.feed(item)
            _outcome(stream.message)
        assert len(read) == len(other)


# -- incremental snapshots, and what was fed changed afterwards ------------------------------------


def _reindexed(items: tuple[Any, ...], indices: list[int | None]) -> list[Any]:
    """``items`` with call ``i``'s deltas at index ``indices[i]`` (no index for None: keyed by id, then order)."""
    result = [_copied(item) for item in items]
    for item in result:
        choices = item.get("choices") if isinstance(item, dict) else None
        for entry in choices if isinstance(choices, list) else ():
            delta = entry.get("delta") if isinstance(entry, dict) else None
            calls = delta.get("tool_calls") if isinstance(delta, dict) else None
            for call in calls if isinstance(calls, list) else ():
                if (
                    isinstance(call, dict)
                    and type(call.get("index")) is int
                    and 0 <= call["index"] < len(indices)
                ):
                    index = indices[call["index"]]
                    if index is None:
                        del call["index"]
                    else:
                        call["index"] = index
    return result


def _copied(value: Any) -> Any:
    """``value`` with its plain dicts, lists and tuples copied (other mappings shared, as deepcopy cannot copy them)."""
    if type(value) is dict:
        return {key: _copied(item) for key, item in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_copied(item) for item in value)
    return value


_INDICES = st.lists(st.none() | st.integers(0, 4), min_size=3, max_size=3)
_POINTS = st.sets(st.integers(1, 80), max_size=4)


@given(
    _STREAMS_WITH_IDS.flatmap(lambda items: st.tuples(*(_varied(item) for item in items))), _INDICES, _POINTS
)
def test_a_snapshot_after_every_chunk_shows_what_one_from_scratch_shows(
    items: tuple[Any, ...], indices: list[int | None], points: set[int]
) -> None:
    """Calls interleaved, at indices out of order or none, chunks varied or broken: a snapshot after every
    chunk shows what a snapshot of the same chunks taken at once shows."""
    assert_snapshots_agree(openai.StreamAssembler, _reindexed(items, indices), points)


@given(_STREAMS_WITH_IDS)
def test_changing_what_was_fed_changes_nothing_assembled(items: list[dict[str, Any]]) -> None:
    """Every dict and list of the chunks changed after feeding them: message, snapshot and usage are as before."""
    stream = openai.StreamAssembler()
    for item in items:
        stream.feed(item)
    before = assembled(stream)
    wreck(items)
    assert assembled(stream) == before

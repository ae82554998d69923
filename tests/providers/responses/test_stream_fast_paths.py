"""The fast paths the Responses stream takes on the common shapes give what the general paths give.

``owned`` copies decoded JSON (exact dicts and lists of JSON scalars, not
deep) with a recursive walk and leaves anything else to the general,
iterative one: the two must give equal copies of the same types, sharing no
container with what was fed, or the same error.

The assembler and the builder take text and argument fragments in one call,
and the other events of an item being streamed straight to their handler: a
builder that takes every event through ``take`` must take the same streams,
every one-edit stream and mutated ones, stop at the same event with the same
error, and tell the same after it.
"""

from __future__ import annotations

import copy
import sys
from collections import UserString
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.responses import ResponseStreamEvent
from pydantic import TypeAdapter, ValidationError

from tests.property.strategies import deep_json, json_leaves, json_values, mutated
from tests.providers.responses.test_stream import _ENDED, _events, _outcome
from toolturns import MessageError
from toolturns.providers._stream import _PLAIN_DEPTH, _walked_copy, owned
from toolturns.providers.responses.stream import ResponseBuilder, StreamAssembler


class _Dict(dict[Any, Any]):
    pass


class _List(list[Any]):
    pass


class _Text(str):
    pass


def _odd_containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Containers the fast walk leaves to the general one, beside the ones it takes."""
    lists = st.lists(children, max_size=3)
    dicts = st.dictionaries(st.one_of(st.text(max_size=2), st.integers()), children, max_size=3)
    return st.one_of(
        lists, dicts, lists.map(tuple), lists.map(_List), dicts.map(_Dict), st.just(UserString("u"))
    )


def _nested(depth: int, inner: Any) -> Any:
    value = inner
    for level in range(depth):
        value = {"k": value} if level % 2 else [value]
    return value


_ODD_LEAVES = st.one_of(json_leaves(), st.just(_Text("t")), st.just(b"bytes"), st.just(object()))

#: Containers of containers, some of them ones the fast walk leaves to the general one.
_ODD = _odd_containers(st.recursive(_ODD_LEAVES, _odd_containers, max_leaves=12))

_VALUES = st.one_of(
    json_values(),
    deep_json(min_depth=_PLAIN_DEPTH - 2, max_depth=_PLAIN_DEPTH + 2),
    _ODD,
    _ODD,
    st.builds(_nested, st.sampled_from([499, 500, 501]), json_values(deep=False)),
)


def _copied(copy: Callable[[Any, str], Any], value: Any) -> tuple[str, Any]:
    try:
        return "copied", copy(value, "at.path")
    except MessageError as error:
        return "refused", (type(error), str(error), error.path)


def _places(*values: Any) -> Iterator[tuple[Any, ...]]:
    """The values found at each same place of ``values`` (iterative: they may nest 500 levels)."""
    pending = [values]
    while pending:
        found = pending.pop()
        yield found
        first = found[0]
        if isinstance(first, dict):
            assert all(isinstance(other, dict) and list(other) == list(first) for other in found)
            pending.extend(tuple(other[key] for other in found) for key in first)
        elif isinstance(first, (list, tuple)):
            assert all(isinstance(other, (list, tuple)) and len(other) == len(first) for other in found)
            pending.extend(zip(*found, strict=True))


def _same_copies(fast: Any, general: Any, fed: Any) -> None:
    """``fast`` and ``general`` alike, of the same types, plain ones, sharing no container with ``fed``."""
    for a, b, original in _places(fast, general, fed):
        assert type(a) is type(b)
        if isinstance(a, (dict, list, tuple)):
            assert type(a) in (dict, list, tuple)
            assert a is not original or a == ()  # a copy (CPython has one empty tuple)
        else:
            assert a is b is original  # a leaf kept as it is


@given(_VALUES)
def test_owned_copies_as_the_general_walk_does(value: Any) -> None:
    """The fast walk and the general walk: equal copies, of the same plain types, or the same error."""
    fast, general = _copied(owned, value), _copied(_walked_copy, value)
    assert fast[0] == general[0]
    if fast[0] == "refused":
        assert fast == general
    else:
        _same_copies(fast[1], general[1], value)


def test_owned_refuses_a_circular_value_as_the_general_walk_does() -> None:
    circular: dict[str, Any] = {"a": [1]}
    circular["a"].append(circular)
    assert _copied(owned, circular) == _copied(_walked_copy, circular)
    assert _copied(owned, circular)[0] == "refused"


def _depth() -> int:
    frame: FrameType | None = sys._getframe()
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def test_owned_on_a_deep_stack_falls_back_to_the_general_walk() -> None:
    """Called where the stack is nearly full, the recursive walk runs out of it: the general walk copies."""
    value = _nested(_PLAIN_DEPTH - 1, {"x": [1]})
    limit = sys.getrecursionlimit()

    def deep(levels: int) -> Any:
        return owned(value, "at") if not levels else deep(levels - 1)

    sys.setrecursionlimit(_depth() + 80)
    try:
        copy = deep(60)  # 20 frames left: fewer than the fast walk needs
    finally:
        sys.setrecursionlimit(limit)
    assert copy == value
    _same_copies(copy, _walked_copy(value, "at"), value)


# -- the events of an item being streamed --------------------------------------------------


def _summary(kind: str, **keys: object) -> dict[str, Any]:
    where = {"item_id": "rs_1", "output_index": 0, "summary_index": 0}
    return {"type": f"response.reasoning_summary_{kind}", **where, **keys}


def _content(index: int, kind: str, **keys: object) -> dict[str, Any]:
    return {"type": f"response.{kind}", "item_id": "msg_1", "output_index": 1, "content_index": index, **keys}


_REASONING: dict[str, Any] = {"id": "rs_1", "type": "reasoning", "summary": []}
_TEXT: dict[str, Any] = {"type": "output_text", "text": "", "annotations": []}

#: A stream of every kind of part: a reasoning summary, a refusal and a text, each streamed and done.
_PARTS: list[dict[str, Any]] = [
    {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}},
    {"type": "response.output_item.added", "output_index": 0, "item": _REASONING},
    _summary("part.added", part={"type": "summary_text", "text": ""}),
    _summary("text.delta", delta="Think"),
    _summary("text.delta", delta="ing"),
    _summary("text.done", text="Thinking"),
    _summary("part.done", part={"type": "summary_text", "text": "Thinking"}),
    {
        "type": "response.output_item.done",
        "output_index": 0,
        "item": {**_REASONING, "summary": [{"type": "summary_text", "text": "Thinking"}]},
    },
    {
        "type": "response.output_item.added",
        "output_index": 1,
        "item": {"id": "msg_1", "type": "message", "role": "assistant", "content": []},
    },
    _content(0, "content_part.added", part={"type": "refusal", "refusal": ""}),
    _content(0, "refusal.delta", delta="No"),
    _content(0, "refusal.done", refusal="No."),
    _content(0, "content_part.done", part={"type": "refusal", "refusal": "No."}),
    _content(1, "content_part.added", part=_TEXT),
    _content(1, "output_text.delta", delta="Sor", logprobs=[]),
    _content(1, "output_text.delta", delta="ry.", logprobs=[]),
    _content(1, "output_text.annotation.added", annotation={}, annotation_index=0),
    _content(1, "output_text.done", text="Sorry.", logprobs=[]),
    _content(1, "content_part.done", part={**_TEXT, "text": "Sorry."}),
    {
        "type": "response.completed",
        "response": {"id": "resp_1", "status": "completed", "output": [], "usage": {"total_tokens": 3}},
    },
]

_STREAMS = [*(_events(name) for name in _ENDED), _PARTS]

#: What an edit sets a key of an event to: a value of another event, or of no event.
_ODD_VALUES: list[object] = [None, 0, 1, 2, -1, True, 1.0, "", "msg_1", "rs_1", "fc_x", "x", [], {}]
_ODD_VALUES += [
    {"type": "output_text", "text": "t"},
    {"type": "refusal"},
    {"id": "msg_1", "type": "reasoning"},
]
_KEYS = ["type", "item_id", "output_index", "content_index", "summary_index", "delta", "text", "part", "item"]


def _edits(events: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """The stream with each one edit: a key of an event set to what another event has there, or to
    an odd value, or taken out; an event repeated anywhere else (after its item or part is done,
    before it came), or dropped. Most leave an event the quick paths must decline, or take as ``take`` does."""
    for number, event in enumerate(events):
        for key in _KEYS:
            values = [other[key] for other in events if key in other]
            for value in [*values, *_ODD_VALUES]:
                yield [*events[:number], {**event, key: value}, *events[number + 1 :]]
            yield [*events[:number], {k: v for k, v in event.items() if k != key}, *events[number + 1 :]]
        for elsewhere in range(len(events) + 1):
            if elsewhere not in (number, number + 1):
                yield [*events[:elsewhere], event, *events[elsewhere:]]
        yield [*events[:number], *events[number + 1 :]]


@pytest.mark.parametrize("events", _STREAMS)
def test_every_one_edit_is_taken_as_the_general_path_takes_it(events: list[dict[str, Any]]) -> None:
    """Each stream edited once, every way: the quick paths take it as ``take`` takes every event."""
    assert _outcome(StreamAssembler().feed, events) == (len(events), "")  # whole, as it comes
    for edited in _edits(events):
        stream, general = StreamAssembler(), _general()
        assert _outcome(stream.feed, edited) == _outcome(general.feed, edited), edited
        assert stream._builder.items() == general._builder.items(), edited
        builder, general_builder = ResponseBuilder(), _General()  # fed directly, as docs/streaming.md shows
        assert _outcome(builder.feed, edited) == _outcome(general_builder.feed, edited), edited
        assert builder.items() == general_builder.items(), edited


class _General(ResponseBuilder):
    """A builder that takes every event through ``take``, the general way."""

    def took_delta(self, event: dict[str, Any]) -> bool:
        return False

    def took_item_event(self, event: dict[str, Any]) -> bool:
        return False


def _told(stream: StreamAssembler) -> tuple[object, ...]:
    """Everything the assembler and its builder tell after the stream."""
    builder = stream._builder
    return (
        _outcome(lambda _: stream.message(), [None]),
        _outcome(lambda _: stream.snapshot(), [None]),
        _outcome(lambda _: builder.view(), [None]),
        builder.items(),
        stream.finish_reason,
        stream.usage,
        stream.ended,
    )


@given(events=mutated(st.sampled_from(_STREAMS)))
def test_the_item_event_paths_take_what_the_general_path_takes(events: list[Any]) -> None:
    """An assembler (which takes fragments and the events of an item being streamed the quick way)
    and one whose builder takes every event through ``take`` take the same events, stop at the same
    one with the same error, and tell the same after it."""
    stream, general = StreamAssembler(), _general()
    assert _outcome(stream.feed, events) == _outcome(general.feed, events)
    assert _told(stream) == _told(general)
    builder, general_builder = ResponseBuilder(), _General()
    assert _outcome(builder.feed, events) == _outcome(general_builder.feed, events)
    assert _outcome(lambda _: builder.response(), [None]) == _outcome(
        lambda _: general_builder.response(), [None]
    )


def _general() -> StreamAssembler:
    stream = StreamAssembler()
    stream._builder = _General()
    return stream


def _every_outcome(feed: Callable[[Any], object], events: list[Any]) -> list[tuple[int, str]]:
    """Every event ``feed`` refused, and why: it is fed the whole stream, on past each error."""
    refused = []
    for number, event in enumerate(events):
        try:
            feed(event)
        except MessageError as error:
            refused.append((number, str(error)))
    return refused


@given(events=mutated(st.sampled_from(_STREAMS)))
def test_fed_on_past_its_errors_the_assembler_takes_what_the_general_path_takes(events: list[Any]) -> None:
    """Fed on after an event it refused (a caller may skip a bad event), the assembler refuses
    and takes the same events as one that takes every event the general way, and tells the same."""
    stream, general = StreamAssembler(), _general()
    assert _every_outcome(stream.feed, events) == _every_outcome(general.feed, events)
    assert _told(stream) == _told(general)


_SDK_EVENTS: TypeAdapter[ResponseStreamEvent] = TypeAdapter(ResponseStreamEvent)


def _as_sdk_object(event: dict[str, Any]) -> object | None:
    """The openai SDK's own object for the event, as ``client.responses.stream`` gives it; None
    where this SDK's types refuse the recorded event (an older stream's, without ``logprobs``)."""
    try:
        return _SDK_EVENTS.validate_python(event)
    except ValidationError:
        return None


@pytest.mark.parametrize("events", [_events(name) for name in _ENDED])  # the recorded streams
def test_an_sdk_event_between_fragments_is_taken_as_the_general_path_takes_it(
    events: list[dict[str, Any]],
) -> None:
    """Each event in turn fed as the SDK's object (which goes the general way), the others as dicts:
    the fragment after it is taken or refused as the general path does."""
    mixed_in = 0
    for number, event in enumerate(events):
        sdk_object = _as_sdk_object(event)
        if sdk_object is None:
            continue
        mixed_in += 1
        mixed: list[Any] = [*events[:number], sdk_object, *events[number + 1 :]]
        stream, general = StreamAssembler(), _general()
        assert _every_outcome(stream.feed, mixed) == _every_outcome(general.feed, mixed), number
        assert _told(stream) == _told(general), number
    assert mixed_in >= 3  # the stream's own events, not only ones its SDK refuses


def test_a_fragment_after_its_arguments_are_done_by_an_sdk_event_is_refused() -> None:
    """A fragment, the call's arguments done in an SDK object, then a fragment for the same call:
    the last is refused, as the general path refuses it."""
    start = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {
                "id": "fc_1",
                "type": "function_call",
                "call_id": "call_1",
                "name": "f",
                "arguments": "",
            },
        },
    ]
    where = {"output_index": 0, "item_id": "fc_1", "sequence_number": 3}
    done = {"type": "response.function_call_arguments.done", "arguments": "{}", **where}
    events: list[Any] = [
        *start,
        {"type": "response.function_call_arguments.delta", "delta": "{", **where},
        _as_sdk_object(done),
        {"type": "response.function_call_arguments.delta", "delta": "}", **where},
    ]
    stream, general = StreamAssembler(), _general()
    refused = _every_outcome(stream.feed, events)
    assert refused == _every_outcome(general.feed, events)
    assert refused == [(4, "item[4].item_id: must name a call whose arguments are not done yet, got 'fc_1'")]
    assert stream.snapshot().tool_calls[0].arguments_json == "{}"


def test_a_deep_copy_feeds_on_its_own_text() -> None:
    """A deep copy of an assembler made between two fragments appends to its own text, not the
    original's (the fragment note holds the text, not its bound append)."""
    events = _STREAMS[0]
    fragments = [n for n, event in enumerate(events) if event["type"].endswith(".delta")]
    first = fragments[0]
    stream = StreamAssembler()
    for event in events[: first + 1]:
        stream.feed(event)
    before = stream.snapshot()
    copied = copy.deepcopy(stream)
    copied.feed(events[first + 1])
    assert stream.snapshot() == before
    assert copied.snapshot() != before


class _EqualToAll:
    """A value that says it equals anything: no event type, however it compares."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


def test_a_type_that_equals_anything_is_refused_after_a_fragment() -> None:
    """The fragment's type must be a string, on the quick paths as on the general one: an object
    that compares equal to every type is refused, however the fragment before it went."""
    for events in _STREAMS:
        for number, event in enumerate(events):
            if not event["type"].endswith(".delta"):
                continue
            odd: list[Any] = [*events[:number], event, {**event, "type": _EqualToAll()}]
            stream, general = StreamAssembler(), _general()
            refused = _every_outcome(stream.feed, odd)
            assert refused == _every_outcome(general.feed, odd)
            assert refused
            assert refused[-1][1].startswith(f"item[{number + 1}].type: must be a string")


def _placed_events(places: tuple[int, int, int], at: object, part_at: object) -> list[dict[str, Any]]:
    """A text part and a call at the output_index, content_index and output_index ``places``
    says, each index written as a new object every time, as json.loads gives an int past
    CPython's small ones (-5 to 256); the last fragment of each carries ``at`` and ``part_at``
    instead."""
    message_at, text_at, call_at = places

    def number(value: int) -> int:
        return int(str(value))  # a new int object of that value (the same one below 257)

    created = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}
    message = {"type": "message", "id": "msg_1", "role": "assistant", "content": [], "status": "in_progress"}
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}
    text = {"type": "response.output_text.delta", "item_id": "msg_1"}
    arguments = {"type": "response.function_call_arguments.delta", "item_id": "fc_1"}
    return [
        {"type": "response.created", "response": created},
        {"type": "response.output_item.added", "output_index": number(message_at), "item": message},
        {
            "type": "response.content_part.added",
            "output_index": number(message_at),
            "item_id": "msg_1",
            "content_index": number(text_at),
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
        *(
            {**text, "output_index": number(message_at), "content_index": number(text_at), "delta": delta}
            for delta in ("It is", " 18", " degrees")
        ),
        {**text, "output_index": number(message_at), "content_index": part_at, "delta": "."},
        {"type": "response.output_item.added", "output_index": number(call_at), "item": call},
        *({**arguments, "output_index": number(call_at), "delta": delta} for delta in ('{"a"', ": 1", ", ")),
        {**arguments, "output_index": at, "delta": '"b": 2}'},
    ]


_FAR = (300, 300, 301)  # past the small ints: equal indexes are other objects
_NEAR = (0, 1, 1)  # at 1, where True == 1 but True is not 1
_ASKED_ONCE = ["It is", '{"a"']  # the first fragment of each place only
_TEXT_REFUSED = ["It is", "."]  # the general path refuses the odd content_index: the stream stops there
_CALL_REFUSED = ["It is", '{"a"', '"b": 2}']


@pytest.mark.parametrize(
    ("places", "at", "part_at", "asked_about"),
    [
        pytest.param(_FAR, 301, 300, _ASKED_ONCE, id="equal ints"),
        pytest.param(_FAR, 301.0, 300, _CALL_REFUSED, id="a float output_index"),
        pytest.param(_FAR, 301, 300.0, _TEXT_REFUSED, id="a float content_index"),
        pytest.param(_FAR, 302, 300, _CALL_REFUSED, id="an output_index no item has"),
        pytest.param(_NEAR, True, 1, _CALL_REFUSED, id="True for output_index 1"),
        pytest.param(_NEAR, 1, True, _TEXT_REFUSED, id="True for content_index 1"),
    ],
)
def test_a_fragment_goes_where_the_one_before_went_only_at_an_equal_int(
    places: tuple[int, int, int],
    at: object,
    part_at: object,
    asked_about: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fragment for the place the one before went takes the quick way when its indexes are
    equal ints, not only the same objects; any other index (a float, a bool, another item's)
    the way the general path takes it."""
    asked: list[object] = []
    took_delta = ResponseBuilder.took_delta

    def counted(builder: ResponseBuilder, event: dict[str, Any]) -> bool:
        if "delta" in event:  # every fragment not taken at once is asked about
            asked.append(event["delta"])
        return took_delta(builder, event)

    monkeypatch.setattr(ResponseBuilder, "took_delta", counted)
    events = _placed_events(places, at, part_at)
    stream, general = StreamAssembler(), _general()
    outcome = _outcome(stream.feed, events)
    assert asked == asked_about
    assert outcome == _outcome(general.feed, events)
    assert _told(stream) == _told(general)
    if asked_about is _ASKED_ONCE:
        assert outcome == (len(events), "")
        assert stream.snapshot().content == "It is 18 degrees."
        assert stream.snapshot().tool_calls[0].arguments_json == '{"a": 1, "b": 2}'
    else:  # refused where the odd index is, as the general path refuses it
        assert events[outcome[0]]["delta"] == asked_about[-1]
        assert outcome[1] != ""

"""OpenAI Responses, streaming: the events of one response accumulated into the response object.

``ResponseBuilder`` is fed the events of ``POST /v1/responses`` with
``stream: true`` (decoded SSE ``data:`` objects, or the openai SDK's event
objects) and gives back the response object the API returns when not asked to
stream: ``output`` items in ``output_index`` order, ``status``,
``incomplete_details``, ``usage``. The ``StreamAssembler`` of this wire is to
read that object as ``from_response`` reads the whole response.

Cost: text and argument fragments are appended to lists (``Text``) and joined
only when asked, only what came since the last time; a view after every event
stays linear in the stream.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..._errors import InvalidStream, MessageError, describe
from ..._message import ChatMessage
from ..._sdk import dumped
from ..._stream import PartialToolCall
from .._stream import Assembler, Text, equal_int, owned

__all__ = ["ResponseBuilder", "StreamAssembler"]

#: The events that close a stream, with the ``status`` their response has.
_CLOSING = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
}


class _Part:
    """One content part (or reasoning summary part) of an item as its deltas arrive."""

    __slots__ = ("base", "done", "key", "text")

    def __init__(self, base: dict[str, Any], *, done: bool = False) -> None:
        self.base = base
        # A refusal part streams its text as ``refusal``; every other text part as ``text``.
        self.key = "refusal" if base.get("type") == "refusal" else "text"
        start = base.get(self.key)
        self.text = Text([start] if isinstance(start, str) and start else ())
        self.done = done  # its text is final: a delta for it is refused

    def built(self) -> dict[str, Any]:
        part = dict(self.base)
        if self.text or self.key in part:
            part[self.key] = self.text.so_far()
        return part


class _Item:
    """One output item: the one ``output_item.added`` brought, its deltas, and the complete one once done."""

    __slots__ = ("arguments", "arguments_done", "base", "content", "done", "id", "summary")

    def __init__(self, base: dict[str, Any]) -> None:
        self.base = base
        self.id: object = base.get("id")
        self.arguments: Text | None = None
        if base.get("type") == "function_call":
            start = base.get("arguments")
            self.arguments = Text([start] if isinstance(start, str) and start else ())
        self.arguments_done = False
        self.content = _parts_of(base.get("content"))
        self.summary = _parts_of(base.get("summary"))
        self.done: dict[str, Any] | None = None  # the complete item of output_item.done

    def built(self) -> dict[str, Any]:
        if self.done is not None:
            return self.done
        item = dict(self.base)
        if self.arguments is not None:
            item["arguments"] = self.arguments.so_far()
        if self.content:
            item["content"] = [self.content[i].built() for i in sorted(self.content)]
        if self.summary:
            item["summary"] = [self.summary[i].built() for i in sorted(self.summary)]
        return item


def _parts_of(parts: object) -> dict[int, _Part]:
    """The parts an added item already holds (usually none), by their index."""
    if type(parts) is not list:
        return {}
    return {index: _Part(part) for index, part in enumerate(parts) if type(part) is dict}


class ResponseBuilder:
    """Accumulate the events of one streamed Responses API response into the response object.

    Feed each event in order; ``response()`` then gives the response the API
    returns when not asked to stream, and ``items()`` the output items so far
    at any time. What each event does:

    - ``response.created`` (first), ``response.queued``, ``response.in_progress``:
      the response's keys; the closing event's response replaces them.
    - ``response.output_item.added``: a new item at ``output_index``.
    - ``response.content_part.added``/``.done``, ``response.output_text.delta``/``.done``,
      ``response.refusal.delta``/``.done``, ``response.reasoning_summary_part.added``/``.done``,
      ``response.reasoning_summary_text.delta``/``.done``,
      ``response.function_call_arguments.delta``/``.done``: the text of a part,
      the arguments of a call, keyed by ``output_index`` and ``item_id`` (both
      must name the same item) and ``content_index``/``summary_index``.
      Fragments are kept exactly as they came: a call cut off keeps its
      partial argument text, never completed or repaired.
    - ``response.output_item.done``: the complete item, which replaces the one
      built from deltas (it brings what deltas do not: ``encrypted_content``,
      ``annotations``, the final ``status``).
    - ``response.completed``, ``response.incomplete``, ``response.failed``:
      the end; ``finish_reason`` is the ``status``, or for an incomplete
      response its ``incomplete_details.reason`` (``max_output_tokens``,
      ``content_filter``). A failed response raises ``InvalidStream`` with
      the response's ``error`` in ``provider_error`` (``response()`` still
      gives it); so does an ``error`` event, with the event.
    - Any other ``response.*`` event naming an item being streamed (a built-in
      tool's progress, ``response.output_text.annotation.added``) is taken
      and left to that item's ``output_item.done``, which brings it whole.

    Raises:
        InvalidStream: an event that is not one of these, names an item or
            part that was not added or is already done, comes after the end,
            or has a key of the wrong type; the path starts with ``item[N]``.

    >>> stream = ResponseBuilder()
    >>> stream.feed({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}})
    >>> stream.feed({"type": "response.output_item.added", "output_index": 0,
    ...              "item": {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "f", "arguments": ""}})
    >>> stream.feed({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1",
    ...              "delta": '{"x": '})
    >>> stream.items()[0]["arguments"], stream.ended
    ('{"x": ', False)
    >>> stream.feed({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_2",
    ...              "delta": "1}"})
    Traceback (most recent call last):
    ...
    toolturns.InvalidStream: item[3].item_id: must be the id of output item 0 ('fc_1'), got 'fc_2'
    """

    #: The response's own reason it stopped (``completed``, ``max_output_tokens``...), once it has said one.
    finish_reason: str | None

    def __init__(self) -> None:
        self.finish_reason = None
        self._ended = False
        self._fed = 0
        self._response: dict[str, Any] | None = None  # the last response sent, less its output
        self._closing_output: list[Any] | None = None  # the closing output, where no item came
        self._items: dict[int, _Item] = {}
        self._ids: dict[str, int] = {}  # the output_index of each item id
        # Where the fragment just taken the common way went, its text or arguments open for
        # more: the type, output_index, item id and content_index (None for arguments) the
        # next fragment for the same place has, and the Text it goes to (the Text, not its
        # bound append, which a deep copy of the builder would share). Set only by
        # took_delta, and taken away by any other event, so that between two fragments for
        # the same place nothing changed: StreamAssembler.feed takes such a fragment at once.
        self._hot: _Hot | None = None

    @property
    def ended(self) -> bool:
        """True once a closing event (``response.completed``, ``.incomplete``, ``.failed``) or ``error`` arrived."""
        return self._ended

    @property
    def usage(self) -> object:
        """The ``usage`` of the response as far as the stream has said it (``None`` before the end)."""
        return None if self._response is None else self._response.get("usage")

    def feed(self, event: object) -> None:
        """Take the next event: a decoded SSE ``data:`` object, or the openai SDK's event object.

        Raises:
            InvalidStream: as the class says, at ``item[N]``.
        """
        if type(event) is not dict:
            event = dumped(event)  # the SDK's event object
        if type(event) is not dict:
            raise InvalidStream(f"item[{self._fed}]", "must be an object", describe(event))
        try:
            if not (self.took_delta(event) or self.took_item_event(event)):
                self.take(event)
        except MessageError as error:  # the path made only when needed
            raise error.with_prefix(f"item[{self._fed}]") from None
        self._fed += 1

    def took_item_event(self, event: dict[str, Any]) -> bool:
        """Take an event of an item being streamed straight to its handler, without the checks
        ``take`` makes first; False, having taken nothing, for any other event, and for any event
        before the first or after the end (``take`` then takes it, or says what is wrong).

        These events change no finish reason, end or usage, and raise what ``take`` raises.
        """
        kind = event.get("type")
        handler = _ITEM_HANDLERS.get(kind) if type(kind) is str else None
        if handler is None or self._response is None or self._ended:
            return False
        self._hot = None
        handler(self, event)
        return True

    def took_delta(self, event: dict[str, Any]) -> bool:
        """Take a text or argument fragment for an open item the common way, in one call;
        False, having taken nothing, for any other event or anything unusual in it (the
        general path then takes it, or says what is wrong)."""
        kind = event.get("type")
        if type(kind) is not str:  # an object that equals anything: take refuses it
            return False
        if kind == _ARGUMENTS_DELTA:
            index = event.get("output_index")
            item = self._items.get(index) if type(index) is int else None
            delta = event.get("delta")
            if (
                item is not None
                and item.done is None
                and item.arguments is not None
                and not item.arguments_done
                and type(delta) is str
                and event.get("item_id") == item.id
                and not self._ended
            ):
                item.arguments.append(delta)
                self._hot = (_ARGUMENTS_DELTA, index, item.id, None, item.arguments)
                return True
        elif kind == _TEXT_DELTA:
            index = event.get("output_index")
            item = self._items.get(index) if type(index) is int else None
            if item is not None and item.done is None and event.get("item_id") == item.id:
                number = event.get("content_index")
                part = item.content.get(number) if type(number) is int else None
                delta = event.get("delta")
                if (
                    part is not None
                    and part.key == "text"
                    and not part.done
                    and type(delta) is str
                    and not self._ended
                ):
                    part.text.append(delta)
                    self._hot = (_TEXT_DELTA, index, item.id, number, part.text)
                    return True
        return False

    def take(self, event: dict[str, Any]) -> None:
        """Take one event (a dict) without counting it: errors are located inside the event (``delta``).

        What a ``StreamAssembler`` calls from its ``_feed``, whose ``feed``
        locates the error at the item.
        """
        self._hot = None
        kind = event.get("type")
        if self._ended:
            raise InvalidStream("", "must not follow the end of the stream", describe(kind))
        if not isinstance(kind, str):
            raise InvalidStream("type", "must be a string", describe(kind))
        if self._response is None and kind not in ("response.created", "error"):
            raise InvalidStream("type", "must be 'response.created' first", describe(kind))
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, event)
        elif kind in _CLOSING:
            self._close(kind, event)
        else:
            self._other(kind, event)

    def items(self) -> list[dict[str, Any]]:
        """The output items so far, in ``output_index`` order: a done item as it came, the others built from their deltas.

        Joins only the fragments that came since it was last asked. The dicts
        of done items are the builder's own: read them, do not change them.
        """
        items = self._items
        return [items[index].built() for index in sorted(items)]

    def response(self) -> dict[str, Any]:
        """The response object as the API returns it unstreamed: the last response the stream sent, with the output built.

        A new copy each time, the caller's to change.

        Raises:
            InvalidStream: nothing was fed yet.
        """
        copy: dict[str, Any] = owned(self.view(), "response")
        return copy

    def view(self) -> dict[str, Any]:
        """What ``response()`` gives, without the copy: the builder's own dicts, to read only.

        Raises:
            InvalidStream: nothing was fed yet.
        """
        if self._response is None:
            raise InvalidStream("", "has no events yet: feed the stream before asking for its response")
        return {**self._response, "output": self.output()}

    def output(self) -> list[Any]:
        """The output so far: the items built from their events, or where no item came, the
        closing response's output. The builder's own values: read them, do not change them."""
        return self.items() if self._items or self._closing_output is None else self._closing_output

    # -- the events ----------------------------------------------------------------------

    def _created(self, event: dict[str, Any]) -> None:
        if self._response is not None:
            raise InvalidStream("type", "must come once, as the first event", describe(event["type"]))
        self._response = _response(event)

    def _progress(self, event: dict[str, Any]) -> None:
        self._response = _response(event)

    def _close(self, kind: str, event: dict[str, Any]) -> None:
        response = _response(event)
        output = event["response"].get("output")
        if not self._items and isinstance(output, list) and output:
            # A server that streamed no item: the closing response's output is all there is.
            self._closing_output = owned(output, "response.output")
        status = response.get("status")
        if status != _CLOSING[kind]:
            raise InvalidStream(
                "response.status", f"must be {_CLOSING[kind]!r} in a {kind!r} event", describe(status)
            )
        self._response = response
        self._ended = True
        self.finish_reason = status
        details = response.get("incomplete_details")
        if status == "incomplete" and type(details) is dict and isinstance(details.get("reason"), str):
            self.finish_reason = details["reason"]
        if status == "failed":
            error = response.get("error")
            raise InvalidStream(
                "response.error",
                "the provider reported that the response failed",
                describe(error),
                provider_error=error,
            )

    def _error(self, event: dict[str, Any]) -> None:
        self._ended = True
        error = owned(event, "")
        raise InvalidStream(
            "",
            "the provider reported an error in the stream",
            describe(event.get("message")),
            provider_error=error,
        )

    def _item_added(self, event: dict[str, Any]) -> None:
        index = _index(event, "output_index")
        item = _object(event, "item")
        if index in self._items:
            raise InvalidStream("output_index", "must name a new output item", describe(index))
        _typed(item, "item")
        item_id = item.get("id")
        if item_id is not None:
            if not isinstance(item_id, str):
                raise InvalidStream("item.id", "must be a string", describe(item_id))
            if item_id in self._ids:
                raise InvalidStream("item.id", "must not be the id of another output item", describe(item_id))
            self._ids[item_id] = index
        self._items[index] = _Item(item)

    def _item_done(self, event: dict[str, Any]) -> None:
        item = _object(event, "item")
        # Without an output_index, the item's own id says which one it is.
        kept = self._open_item(event, None if "output_index" in event else item.get("id"))
        if item.get("id") != kept.id:
            raise InvalidStream(
                "item.id", f"must be the id of the item added ({kept.id!r})", describe(item.get("id"))
            )
        if item.get("type") != kept.base["type"]:
            raise InvalidStream(
                "item.type",
                f"must be the type of the item added ({kept.base['type']!r})",
                describe(item.get("type")),
            )
        kept.done = item

    def _content_part_added(self, event: dict[str, Any]) -> None:
        self._part_added(event, "content_index")

    def _summary_part_added(self, event: dict[str, Any]) -> None:
        self._part_added(event, "summary_index")

    def _part_added(self, event: dict[str, Any], key: str) -> None:
        item = self._open_item(event, event.get("item_id"))
        parts = item.content if key == "content_index" else item.summary
        index = _index(event, key)
        if index in parts:
            raise InvalidStream(key, "must name a new part of the item", describe(index))
        part = _object(event, "part")
        _typed(part, "part")
        parts[index] = _Part(part)

    def _content_part_done(self, event: dict[str, Any]) -> None:
        self._part_done(event, "content_index")

    def _summary_part_done(self, event: dict[str, Any]) -> None:
        self._part_done(event, "summary_index")

    def _part_done(self, event: dict[str, Any], key: str) -> None:
        item = self._open_item(event, event.get("item_id"))
        parts = item.content if key == "content_index" else item.summary
        self._part(parts, event, key)  # a part added before
        part = _object(event, "part")
        _typed(part, "part")
        parts[event[key]] = _Part(part, done=True)

    def _part(self, parts: dict[int, _Part], event: dict[str, Any], key: str) -> _Part:
        index = _index(event, key)
        part = parts.get(index)
        if part is None:
            raise InvalidStream(key, "must name a part added before", describe(index))
        return part

    def _text_delta(self, event: dict[str, Any]) -> None:
        self._delta(event, "content_index", "text")

    def _refusal_delta(self, event: dict[str, Any]) -> None:
        self._delta(event, "content_index", "refusal")

    def _summary_delta(self, event: dict[str, Any]) -> None:
        self._delta(event, "summary_index", "text")

    def _delta(self, event: dict[str, Any], key: str, text_key: str) -> None:
        part = self._text_part(event, key, text_key)
        part.text.append(_string(event, "delta"))

    def _text_done(self, event: dict[str, Any]) -> None:
        self._done(event, "content_index", "text")

    def _refusal_done(self, event: dict[str, Any]) -> None:
        self._done(event, "content_index", "refusal")

    def _summary_done(self, event: dict[str, Any]) -> None:
        self._done(event, "summary_index", "text")

    def _done(self, event: dict[str, Any], key: str, text_key: str) -> None:
        part = self._text_part(event, key, text_key)
        part.text = Text([_string(event, text_key)])  # the whole text, as the server says it
        part.done = True

    def _text_part(self, event: dict[str, Any], key: str, text_key: str) -> _Part:
        item = self._open_item(event, event.get("item_id"))
        part = self._part(item.content if key == "content_index" else item.summary, event, key)
        if part.key != text_key:
            raise InvalidStream(
                key, f"must name a part that streams {text_key!r}", describe(part.base.get("type"))
            )
        if part.done:
            raise InvalidStream(key, "must name a part whose text is not done yet", describe(event[key]))
        return part

    def _arguments_delta(self, event: dict[str, Any]) -> None:
        self._arguments(event).append(_string(event, "delta"))

    def _arguments_done(self, event: dict[str, Any]) -> None:
        arguments = _string(event, "arguments")
        item = self._open_item(event, event.get("item_id"))
        self._arguments(event)
        item.arguments = Text([arguments])
        item.arguments_done = True

    def _arguments(self, event: dict[str, Any]) -> Text:
        item = self._open_item(event, event.get("item_id"))
        if item.arguments is None:
            raise InvalidStream("output_index", "must name a function_call item", describe(item.base["type"]))
        if item.arguments_done:
            raise InvalidStream(
                "item_id", "must name a call whose arguments are not done yet", describe(item.id)
            )
        return item.arguments

    def _other(self, kind: str, event: dict[str, Any]) -> None:
        if not kind.startswith("response.") or "item_id" not in event:
            raise InvalidStream("type", "must be a Responses stream event", describe(kind))
        self._open_item(event, event["item_id"])  # a built-in tool's progress: its done item brings it

    def _open_item(self, event: dict[str, Any], item_id: object) -> _Item:
        """The item at the event's ``output_index``, not yet done; ``item_id`` (unless None) must be its id.

        Without an ``output_index`` (some compatible servers leave it out), the
        item is the one ``item_id`` names.
        """
        index = event.get("output_index")
        item = self._items.get(index) if type(index) is int else None
        if item is not None and item.done is None and (item_id is None or item_id == item.id):
            return item  # the common case, in four tests: every check below would pass
        return self._open_item_checked(event, item_id)

    def _open_item_checked(self, event: dict[str, Any], item_id: object) -> _Item:
        """What ``_open_item`` gives, each key checked in turn: the error says which is wrong."""
        if "output_index" not in event and isinstance(item_id, str) and item_id in self._ids:
            index = self._ids[item_id]
        else:
            index = _index(event, "output_index")
        item = self._items.get(index)
        if item is None:
            raise InvalidStream("output_index", "must name an output item added before", describe(index))
        if item_id is not None and item_id != item.id:
            raise InvalidStream(
                "item_id", f"must be the id of output item {index} ({item.id!r})", describe(item_id)
            )
        if item.done is not None:
            raise InvalidStream("output_index", "must name an output item not done yet", describe(index))
        return item


#: Where the last fragment went (``ResponseBuilder._hot``): its type, output_index, item id and
#: content_index (None for arguments), compared by identity or equality only, and its Text.
_Hot = tuple[str, object, object, object, Text]

_ARGUMENTS_DELTA = "response.function_call_arguments.delta"
_TEXT_DELTA = "response.output_text.delta"

_HANDLERS: dict[str, Callable[[ResponseBuilder, dict[str, Any]], None]] = {
    "response.created": ResponseBuilder._created,
    "response.queued": ResponseBuilder._progress,
    "response.in_progress": ResponseBuilder._progress,
    "error": ResponseBuilder._error,
    "response.output_item.added": ResponseBuilder._item_added,
    "response.output_item.done": ResponseBuilder._item_done,
    "response.content_part.added": ResponseBuilder._content_part_added,
    "response.content_part.done": ResponseBuilder._content_part_done,
    "response.reasoning_summary_part.added": ResponseBuilder._summary_part_added,
    "response.reasoning_summary_part.done": ResponseBuilder._summary_part_done,
    "response.output_text.delta": ResponseBuilder._text_delta,
    "response.output_text.done": ResponseBuilder._text_done,
    "response.refusal.delta": ResponseBuilder._refusal_delta,
    "response.refusal.done": ResponseBuilder._refusal_done,
    "response.reasoning_summary_text.delta": ResponseBuilder._summary_delta,
    "response.reasoning_summary_text.done": ResponseBuilder._summary_done,
    "response.function_call_arguments.delta": ResponseBuilder._arguments_delta,
    "response.function_call_arguments.done": ResponseBuilder._arguments_done,
}


#: The handlers of the events of an item being streamed: they change no finish reason, end or usage.
_ITEM_HANDLERS = {
    kind: handler
    for kind, handler in _HANDLERS.items()
    if kind not in ("response.created", "response.queued", "response.in_progress", "error")
}


def _response(event: dict[str, Any]) -> dict[str, Any]:
    """The event's response, copied but for its output: the items' own events build that."""
    value = event.get("response")
    if type(value) is not dict:
        raise InvalidStream("response", "must be an object", describe(value))
    rest = value.copy()
    rest.pop("output", None)
    copy: dict[str, Any] = owned(rest, "response")
    return copy


def _object(event: dict[str, Any], key: str) -> dict[str, Any]:
    """The object at ``key``, copied (the caller may reuse its dicts)."""
    value = event.get(key)
    if type(value) is not dict:
        raise InvalidStream(key, "must be an object", describe(value))
    copy: dict[str, Any] = owned(value, key)
    return copy


def _typed(value: dict[str, Any], path: str) -> None:
    if not isinstance(value.get("type"), str):
        raise InvalidStream(f"{path}.type", "must be a string", describe(value.get("type")))


def _index(event: dict[str, Any], key: str) -> int:
    value = event.get(key)
    if type(value) is not int or value < 0:
        raise InvalidStream(key, "must be a non-negative integer", describe(value))
    return value


def _string(event: dict[str, Any], key: str) -> str:
    value = event.get(key)
    if not isinstance(value, str):
        raise InvalidStream(key, "must be a string", describe(value))
    return value


class StreamAssembler(Assembler):
    """Assemble a streamed Responses API response into the assistant turn ``from_response`` reads.

    The events go to a ``ResponseBuilder``; ``message()`` is ``from_response``
    of the response it has built so far, so a stream that ended cleanly gives
    the turn its final response gives. ``finish_reason``, ``usage`` and
    ``ended`` are the builder's.

    >>> stream = StreamAssembler()
    >>> stream.feed({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}})
    >>> stream.feed({"type": "response.output_item.added", "output_index": 0, "item": {
    ...     "id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "get_time", "arguments": ""}})
    >>> stream.feed({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1",
    ...              "delta": '{"tz": "Europe/Pa'})
    >>> stream.snapshot().tool_calls
    (PartialToolCall(id='call_1', name='get_time', arguments_json='{"tz": "Europe/Pa'),)
    >>> stream.message().tool_calls[0].arguments_json, stream.ended
    ('{"tz": "Europe/Pa', False)
    """

    def __init__(self) -> None:
        super().__init__()
        self._builder = ResponseBuilder()

    def feed(self, item: object) -> None:
        # The events of an item being streamed, most of a stream, straight to their handler: they
        # change no finish reason, end or usage. Anything else, and any it declines, the general way.
        if type(item) is dict and not self._ended:
            builder = self._builder
            hot = builder._hot
            if hot is not None:
                # Most fragments go where the one before went: the keys that say so, and the text.
                kind, index, item_id, number, text = hot
                try:
                    if (
                        type(given := item["type"]) is str  # not an object that equals anything
                        and given == kind
                        # The very int the item is at (never True or 1.0), or, past the ints
                        # CPython keeps one object of (-5 to 256), an int equal to it.
                        and ((at := item["output_index"]) is index or equal_int(at, index))
                        and item["item_id"] == item_id
                        and (
                            number is None
                            or (part := item["content_index"]) is number
                            or equal_int(part, number)
                        )
                        and type(delta := item["delta"]) is str
                    ):
                        text.append(delta)
                        self._fed += 1
                        return
                except KeyError:  # a key left out: the general way says what is wrong
                    pass
            try:
                took = builder.took_delta(item) or builder.took_item_event(item)
            except MessageError as error:
                raise error.with_prefix(f"item[{self._fed}]") from None
            if took:
                self._fed += 1
                return
        super().feed(item)

    def _feed(self, item: dict[str, Any]) -> None:
        builder = self._builder
        try:
            builder.take(item)
        finally:  # a failed response or an error event ends the stream, then raises
            self.finish_reason = builder.finish_reason
            self._ended = builder.ended
            usage = builder.usage
            self.usage = usage if isinstance(usage, dict) else None

    def _build(self) -> ChatMessage:
        from .read import from_response  # the reader imports nothing of the stream

        return from_response(self._builder.view())  # read, never kept nor changed: no copy

    def _content(self) -> str:
        # The text of the message item from_response makes the turn's content of: the first of text only.
        from .read import plain_message

        for item in self._builder.output():
            if type(item) is dict and item.get("type") == "message" and plain_message(item):
                content = item["content"]  # text, or output_text parts: plain_message says so
                if isinstance(content, str):
                    return content
                return "".join(part["text"] if isinstance(part.get("text"), str) else "" for part in content)
        return ""

    def _partial_calls(self) -> Sequence[PartialToolCall]:
        calls = []
        for item in self._builder.output():
            if type(item) is dict and item.get("type") == "function_call":
                call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments")
                calls.append(
                    PartialToolCall(
                        call_id if isinstance(call_id, str) else None,
                        name if isinstance(name, str) else None,
                        arguments if isinstance(arguments, str) else "",
                    )
                )
        return tuple(calls)

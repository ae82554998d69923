"""OpenAI Chat Completions, streaming: ``chat.completion.chunk`` items assembled into the turn."""

from __future__ import annotations

import bisect
import sys
from operator import attrgetter
from typing import Any, NamedTuple

from ..._arguments import text_arguments
from ..._checks import exact_str
from ..._errors import InvalidStream, MessageError, describe
from ..._extra import EMPTY
from ..._json import join_key
from ..._message import ASSISTANT, ChatMessage, _plain, unique_ids
from ..._sdk import dumped
from ..._stream import PartialToolCall
from ..._tool_call import _checked
from .._stream import Assembler, OtherKeys, SoFar, Text, equal_int, joined_since, owned, updated
from .read import read_turn

# -- streaming ----------------------------------------------------------------------------


class _StreamedCall:
    """One tool call as its deltas arrive: id and name once known, argument fragments in order."""

    __slots__ = ("extra", "fragments", "function_extra", "id", "index", "name", "position")

    def __init__(self, index: int | None, position: int) -> None:
        self.index = index
        self.position = position  # among the calls, in the order they first came
        self.id: str | None = None
        self.name: str | None = None
        self.fragments = Text()
        # Keys of the call (and of its function) this codec does not model:
        # passed on to ChatMessage.from_dict, which keeps or rejects them.
        self.extra: dict[str, Any] = {}
        self.function_extra: dict[str, Any] = {}

    def partial(self) -> PartialToolCall:
        return PartialToolCall(self.id, self.name, self.fragments.so_far())


#: The delta of OpenAI's first chunk of a choice, taken at once.
_ROLE_DELTA = {"role": "assistant", "content": None, "refusal": None}
_INDEX = attrgetter("index")
_NONE: tuple[Any, ...] = ()
_POSITION = attrgetter("position")


class _Shown(NamedTuple):
    """What the last snapshot showed of the calls, replaced whole by the next one."""

    touched: int  # how many entries of the assembler's _touched it had read
    current: _StreamedCall | None  # the call fragments could take the fast path to, then
    partials: tuple[PartialToolCall, ...]  # every call, in the order they first came


_NOTHING_SHOWN = _Shown(0, None, ())


class StreamAssembler(Assembler):
    """Assemble one streamed Chat Completions response (``chat.completion.chunk`` items).

    Feed each decoded SSE ``data:`` item (``parse_sse`` turns raw lines into
    them); ``message()`` then gives the ChatMessage ``from_response`` gives for
    the same response sent whole.

    - Tool-call deltas are keyed by ``index``. An ``id`` or ``name`` repeated on
      later deltas is the same value (never glued into ``call_1call_1``); a
      different ``id`` at an index already in use starts a new call. Deltas
      without ``index`` are keyed by ``id``, else by their position in the
      chunk's ``tool_calls``.
    - Argument text is kept exactly as it streamed, split anywhere: nothing is
      completed or repaired, so a call cut off keeps its partial text.
    - Text deltas (``content``, ``refusal``, and other text keys such as
      ``reasoning_content``) concatenate; ``refusal`` lands in ``extra`` as
      ``from_dict`` keeps it.
    - ``ended`` turns true with the chunk that gives the chosen choice a
      ``finish_reason``; after it, only chunks without a delta for that choice
      (the usage chunk, other choices of ``n > 1``) are accepted.

    Args:
        choice: Which choice to assemble, for requests made with ``n > 1``.

    Raises:
        InvalidStream: ``choice`` is not a non-negative integer below
            ``sys.maxsize``.

    >>> from toolturns import openai
    >>> def chunk(delta, finish_reason=None):
    ...     return {"object": "chat.completion.chunk", "choices": [
    ...         {"index": 0, "delta": delta, "finish_reason": finish_reason}]}
    >>> stream = openai.StreamAssembler()
    >>> stream.feed(chunk({"role": "assistant", "content": None, "tool_calls": [{"index": 0,
    ...     "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}))
    >>> for fragment in ['{"ci', 'ty": "Pa', 'ris"}']:
    ...     stream.feed(chunk({"tool_calls": [{"index": 0, "function": {"arguments": fragment}}]}))
    >>> stream.feed(chunk({}, "tool_calls"))
    >>> stream.feed({"object": "chat.completion.chunk", "choices": [], "usage": {"total_tokens": 60}})
    >>> turn = stream.message()
    >>> turn.tool_calls[0].id, turn.tool_calls[0].arguments
    ('call_1', {'city': 'Paris'})
    >>> stream.finish_reason, stream.ended, stream.usage
    ('tool_calls', True, {'total_tokens': 60})
    """

    # Defaults the constructor leaves as they are, each replaced whole when it changes.
    #: The calls in index order once one came out of it (else that order is
    #: the order they came in); None for good once a call came without index.
    _sorted: list[_StreamedCall] | None = None
    _unindexed = False
    #: The call the last delta with an index went to (by_index[its index]):
    #: the one call an argument fragment may take the fast path to.
    _current: _StreamedCall | None = None
    #: What the last snapshot showed, of the text and of the calls.
    _text_so_far: SoFar = (0, "")
    _shown = _NOTHING_SHOWN
    #: Other keys of the delta, in the order they first came: text keys concatenate,
    #: arrays extend, any other value must stay the same. Made with the first such key:
    #: most streams have none, and making it was about 0.3 µs of every stream.
    _others: OtherKeys | None = None

    def __init__(self, *, choice: int = 0) -> None:
        super().__init__()
        # No list has a position at sys.maxsize or past it, so no response has
        # such a choice; refused here, it reaches no message (repr() of an int
        # over 4300 digits raises) and no made-up call id.
        if type(choice) is not int or not 0 <= choice < sys.maxsize:
            raise InvalidStream(
                "choice",
                f"must be a non-negative integer below sys.maxsize ({sys.maxsize}): a position in choices",
                describe(choice),
            )
        self._choice = choice
        self._response_id: str | None = None
        self._seen_choice = False
        self._text: list[str] = []
        # The fragments appended by the general path, which counts its items in _fed:
        # every other fragment is a chunk the fast path took (_items_fed).
        self._appended = 0
        self._calls: list[_StreamedCall] = []
        self._by_index: dict[int, _StreamedCall] = {}
        self._by_id: dict[str, _StreamedCall] = {}

    def _accepts_after_end(self, item: object) -> bool:
        # After the closing chunk, OpenAI still sends the usage chunk
        # (stream_options.include_usage), and with n > 1 the other choices go
        # on: neither touches the assembled choice.
        return isinstance(item, dict) and not self._has_choice(item)

    def feed(self, item: object) -> None:
        """Take the next chunk (one decoded SSE ``data:`` item).

        Raises:
            InvalidStream: the stream has already ended, or the item is not a
                chunk OpenAI sends; the path starts with ``item[N]``.
        """
        # Most of a stream is chunks holding one text or argument fragment
        # for the chosen choice. They are taken here, inline: assembly must
        # cost about what a hand-written dict accumulator costs (the W4
        # benchmark), and a call per layer of the general path costs more than
        # the work. Only a chunk of exactly the built-in types, that the
        # general path would take with the same effect, is taken here: every
        # other one (a tuple or another mapping in it, any malformed chunk)
        # goes the general way, which checks it and says what is wrong. A
        # lookup that fails here only means "not a plain fragment" (unpacking
        # _NONE is how a container of another type says so).
        if type(item) is dict and not self._ended:
            try:
                choices = item["choices"]
                (entry,) = choices if type(choices) is list else _NONE
                delta = entry["delta"] if type(entry) is dict else None
                if (
                    type(delta) is dict
                    # OpenAI always sends the index. The very int first (so never True);
                    # past the ints CPython keeps one object of, equal_int compares.
                    and ((index := entry["index"]) is self._choice or equal_int(index, self._choice))
                    and ("usage" not in item or item["usage"] is None)
                    and "error" not in item
                    # The first id seeds made-up call ids, as the general path reads it.
                    and (self._response_id is not None or self._seeded(item))
                ):
                    if len(delta) == 1 and entry["finish_reason"] is None:
                        if "content" in delta:
                            content = delta["content"]
                            if type(content) is str:
                                # Which says the choice was seen, and counts the chunk (_items_fed).
                                self._text.append(content)
                                return
                        tool_calls = delta["tool_calls"]
                        (call_delta,) = tool_calls if type(tool_calls) is list else _NONE
                        function = call_delta["function"] if type(call_delta) is dict else None
                        call = self._current
                        if (
                            type(function) is dict
                            and len(function) == 1
                            and len(call_delta) == 2
                            and type(fragment := function["arguments"]) is str
                            and call is not None
                            and (  # the very int first, as the choice's
                                (call_index := call_delta["index"]) is call.index
                                or equal_int(call_index, call.index)
                            )
                        ):
                            call.fragments.append(fragment)  # "" too: it counts the chunk (_items_fed)
                            return
                        if (  # a call's first delta: its index (no call's yet), id, type, name
                            type(function) is dict
                            and len(function) == 2
                            and len(call_delta) == 4
                            and type(call_index := call_delta["index"]) is int
                            and call_index >= 0
                            and call_index not in self._by_index
                            and call_delta["type"] == "function"
                            and type(call_id := call_delta["id"]) is str
                            and call_id
                            and type(name := function["name"]) is str
                            and name
                            and type(fragment := function["arguments"]) is str
                        ):
                            self._start_call(call_index, call_id, name, fragment)
                            return
                    elif not delta and type(reason := entry["finish_reason"]) is str:
                        # The closing chunk: an empty delta and why the choice stopped.
                        self._seen_choice = True
                        self._end_with(reason, "finish_reason")
                        self._fed += 1
                        return
                    elif (
                        delta == _ROLE_DELTA
                        # == lets through a value that equals anything: the nulls by identity.
                        and delta["content"] is None
                        and delta["refusal"] is None
                        and type(delta["role"]) is str
                        and entry["finish_reason"] is None
                    ):
                        # OpenAI's first chunk: the role, and nulls, which carry nothing.
                        self._seen_choice = True
                        self._fed += 1
                        return
            except Exception:  # any failure only means "not a plain fragment"
                pass
        super().feed(item)

    def _seeded(self, item: dict[str, Any]) -> bool:
        """Whether the chunk's id, if any, is now the response's (as ``_feed`` sets it): False
        for an id that is not exactly a str, which the general path then judges."""
        if "id" not in item:
            return True
        response_id = item["id"]
        if type(response_id) is not str:
            return False
        self._response_id = response_id
        return True

    def _items_fed(self) -> int:
        # The fast path counts a chunk that carries a fragment (a call's first one too) by
        # appending the fragment, "" as well: a counter of its own cost 26 ns of a fragment's
        # 343, about 8%. The opening and closing chunks, which carry none, count in _fed.
        fragments = len(self._text) + sum(len(call.fragments) for call in self._calls)
        return self._fed + fragments - self._appended

    def _start_call(self, index: int, call_id: str, name: str, fragment: str) -> None:
        # What the general path does with a call's first delta at an index no call has
        # (_feed_choice, _feed_call): _call_for makes the call, with its id and name.
        self._seen_choice = True
        call = self._call_for(index, call_id, name, 0)
        call.fragments.append(fragment)  # "" too: it counts the chunk (_items_fed)
        self._current = call
        self._touched.append(call)

    def _has_choice(self, item: dict[str, Any]) -> bool:
        choices = item.get("choices")
        if choices is None:
            return False  # a usage-only chunk
        if not isinstance(choices, list):
            return True  # not a chunk to accept after the end: let feed() refuse it
        return any(_choice_index(entry) == self._choice for entry in choices)

    def _feed(self, item: dict[str, Any]) -> None:
        error = item.get("error")
        if error is not None:
            # A failure after the response started arrives as a data item
            # holding only {"error": {...}} (the API's error object).
            raise InvalidStream(
                "error", "the provider reported an error in the stream", describe(error), provider_error=error
            )
        usage = item.get("usage")
        if usage is not None:
            if not isinstance(usage, dict):
                raise InvalidStream("usage", "must be an object", describe(usage))
            self.usage = owned(usage, "usage")
        response_id = item.get("id")
        if self._response_id is None and isinstance(response_id, str):
            self._response_id = response_id  # seeds the ids of calls that come without one
        if "choices" not in item:
            if usage is None:
                raise InvalidStream("choices", "is required (a chat.completion.chunk has choices)")
            return
        choices = item["choices"]
        if choices is None:
            return  # some servers send choices: null on a usage or keep-alive chunk
        if not isinstance(choices, list):
            raise InvalidStream("choices", "must be an array", describe(choices))
        # try/except, not ``with at(...)``: this runs for every chunk, and a
        # context manager per level costs more than the assembly itself.
        for position, entry in enumerate(choices):
            try:
                if not isinstance(entry, dict) and not isinstance(entry := dumped(entry), dict):
                    raise InvalidStream("", "must be an object", describe(entry))
                index = _choice_index(entry)
                if index is None:
                    raise InvalidStream("index", "must be a non-negative integer", describe(entry["index"]))
                if index == self._choice:
                    self._feed_choice(entry)
            except MessageError as failure:
                raise failure.with_prefix(f"choices[{position}]") from None

    def _feed_choice(self, entry: dict[str, Any]) -> None:
        if self._ended:
            raise InvalidStream("", "must not follow the choice's finish_reason", describe(entry))
        self._seen_choice = True
        delta = entry.get("delta")
        if delta is not None:
            if not isinstance(delta, dict):
                raise InvalidStream("delta", "must be an object", describe(delta))
            try:
                self._feed_delta(delta)
            except MessageError as failure:
                raise failure.with_prefix("delta") from None
        reason = entry.get("finish_reason")
        if reason is not None:
            self._end_with(reason, "finish_reason")

    def _feed_delta(self, delta: dict[str, Any]) -> None:
        for key, value in delta.items():
            if value is None:
                continue  # null carries nothing (OpenAI sends content: null, refusal: null)
            if key == "role":
                if value != "assistant":
                    raise InvalidStream(
                        "role", "must be 'assistant' (a response streams the model's turn)", describe(value)
                    )
            elif key == "content":
                if not isinstance(value, str):
                    raise InvalidStream(
                        "content", "must be a string (a fragment of the text)", describe(value)
                    )
                self._text.append(value)
                self._appended += 1
            elif key == "tool_calls":
                if not isinstance(value, list):
                    raise InvalidStream("tool_calls", "must be an array", describe(value))
                for position, call_delta in enumerate(value):
                    try:
                        self._feed_call(call_delta, position)
                    except MessageError as failure:
                        raise failure.with_prefix(f"tool_calls[{position}]") from None
            else:
                others = self._others
                if others is None:
                    self._others = others = OtherKeys(extend_arrays=True)
                others.merge(key, value, join_key("", key))  # a caller's dict may have any key

    def _feed_call(self, delta: object, position: int) -> None:
        if not isinstance(delta, dict):
            raise InvalidStream("", "must be an object", describe(delta))
        index = delta.get("index")
        if index is not None and (type(index) is not int or index < 0):
            raise InvalidStream("index", "must be a non-negative integer", describe(index))
        call_id = _fragment_key(delta, "id", "id")
        kind = delta.get("type")
        if kind is not None and kind != "function":
            raise InvalidStream(
                "type", "must be 'function' (only function tool calls are supported)", describe(kind)
            )
        function = delta.get("function")
        if function is None:
            function = {}
        elif not isinstance(function, dict):
            raise InvalidStream("function", "must be an object", describe(function))
        name = _fragment_key(function, "name", "function.name")
        arguments = function.get("arguments")
        if arguments is not None and not isinstance(arguments, str):
            raise InvalidStream(
                "function.arguments", "must be a string (a fragment of JSON text)", describe(arguments)
            )
        call = self._call_for(index, call_id, name, position)
        try:
            if arguments:
                call.fragments.append(arguments)
                self._appended += 1
            # The latest value of each key: a call's extra key is not streamed text.
            for key, value in delta.items():
                if key not in _CALL_DELTA_KEYS and value is not None:
                    call.extra[key] = owned(value, join_key("", key))
            for key, value in function.items():
                if key not in _FUNCTION_DELTA_KEYS and value is not None:
                    call.function_extra[key] = owned(value, join_key("function", key))
        finally:  # whatever was changed, a snapshot reads the call again
            if index is not None:
                self._current = call
            if not self._touched or self._touched[-1] is not call:
                self._touched.append(call)

    def _call_for(
        self, index: int | None, call_id: str | None, name: str | None, position: int
    ) -> _StreamedCall:
        """The call a delta continues, or a new one: by index, else by id, else by order."""
        call: _StreamedCall | None
        if index is not None:
            call = self._by_index.get(index)
        elif call_id is not None:
            call = self._by_id.get(call_id)
        else:
            # Neither index nor id: the delta's position in tool_calls is the
            # call's position in the turn.
            call = self._calls[position] if position < len(self._calls) else None
        # One call has one id and one name: another id (or, without ids,
        # another name) at the same key is the next call, not more of this one.
        if call is not None and (
            (call_id is not None and call.id is not None and call_id != call.id)
            or (call_id is None and name is not None and call.name is not None and name != call.name)
        ):
            call = None
        if call is None:
            call = self._new_call(index)
        elif name is not None and call.name is not None and name != call.name:
            shown_id = call.id if call.id is not None else call_id
            raise InvalidStream(
                "function.name", f"must stay the name of call {shown_id!r}, {call.name!r}", describe(name)
            )
        if call_id is not None and call.id is None:
            call.id = call_id
            self._by_id.setdefault(call_id, call)
        if name is not None and call.name is None:
            call.name = name
        return call

    def _new_call(self, index: int | None) -> _StreamedCall:
        call = _StreamedCall(index, len(self._calls))
        self._calls.append(call)  # before _sorted: a snapshot finds every sorted call in _calls
        if index is not None:
            self._by_index[index] = call
        # The order the response sent whole lists the calls in: by index, a
        # later call at a reused index after the earlier one (a stable sort);
        # in the order they came if any came without index.
        if index is None:
            self._unindexed = True
            self._sorted = None
        elif self._sorted is not None:
            bisect.insort(self._sorted, call, key=_INDEX)  # after the calls at its index
        elif not self._unindexed and len(self._calls) > 1:
            before = self._calls[-2].index  # not None: no call came without index
            if before is not None and before > index:
                self._sorted = sorted(self._calls, key=_INDEX)
        return call

    def _content(self) -> str:
        self._text_so_far = so_far = joined_since(self._text, self._text_so_far)
        return so_far[1]

    def _partial_calls(self) -> tuple[PartialToolCall, ...]:
        # Only the calls the general path touched since the last snapshot, and
        # the current call (fast-path fragments go to it), are read again;
        # the rest is as the last snapshot showed it. Read in this order,
        # every call touched or sorted is already among _calls[:count], and
        # the memo, read first, never claims more than what is read after it.
        shown = self._shown
        touched = len(self._touched)
        current = self._current
        order = None if self._sorted is None else self._sorted[:]
        count = len(self._calls)
        known = len(shown.partials)
        again = {*self._touched[max(shown.touched - 1, 0) : touched], shown.current, current}
        partials = updated(
            shown.partials,
            {call.position: call.partial() for call in again if call is not None and call.position < known},
            [call.partial() for call in self._calls[known:count]],
        )
        self._shown = _Shown(touched, current, partials)
        if order is None:
            return partials
        return tuple(map(partials.__getitem__, map(_POSITION, order)))

    def _ordered_calls(self) -> list[_StreamedCall]:
        """The calls in index order, as the response sent whole lists them (by first
        appearance when some came without index); a later call at a reused index
        follows the earlier one."""
        return self._calls if self._sorted is None else self._sorted

    def _build(self) -> ChatMessage:
        if not (self._seen_choice or self._text):  # a text fragment on the fast path is a delta seen
            raise InvalidStream("", f"has no delta for choice {self._choice} (choices[].index)")
        content = self._content()
        others = self._others
        if not others:  # none came (or the first was refused)
            turn = self._plain_turn(content)
            if turn is not None:
                return turn
        body: dict[str, Any] = {"role": ASSISTANT.value, "content": content}
        if self._calls:
            calls = []
            for position, call in enumerate(self._ordered_calls()):
                if call.name is None:
                    raise InvalidStream(
                        f"tool_calls[{position}].function.name",
                        "never arrived in the stream (the call cannot be answered without it)",
                    )
                function = {"name": call.name, "arguments": call.fragments.whole()}
                if call.function_extra:
                    function.update(call.function_extra)
                # A call without an id gets the made-up one from_response gives it.
                wire = {"id": call.id, "type": "function", "function": function}
                if call.extra:
                    wire.update(call.extra)
                calls.append(wire)
            body["tool_calls"] = calls
        if others:
            body.update(others.joined())
        return read_turn(body, ("response", self._response_id, self._choice))

    def _plain_turn(self, content: str) -> ChatMessage | None:
        """The turn ``read_turn`` reads from the body ``_build`` writes, made at once when every
        call came with its id and name and nothing else (no other key of the delta either); else
        None, and the body is written and read. Writing dicts only to read them back was half of
        ``message()`` (the W4 benchmark); a test holds the two ways to the same turn or error."""
        calls = []
        for call in self._ordered_calls():
            # An id and a name are None or non-empty text here (_fragment_key, the fast path).
            call_id, name = call.id, call.name
            if call_id is None or name is None or call.extra or call.function_extra:
                return None  # a made-up id, a missing name (an error), a key to keep: read_turn's
            # What the one-step reader (_tool_call._plain_call) makes of the call's wire dict.
            arguments = text_arguments(call.fragments.whole())
            calls.append(_checked(call_id, name, arguments, EMPTY, EMPTY))
        if not calls:
            return _plain(ASSISTANT, content)
        made = tuple(calls)
        return _plain(ASSISTANT, content, None, made) if unique_ids(made) else None


_CALL_DELTA_KEYS = frozenset({"index", "id", "type", "function"})
_FUNCTION_DELTA_KEYS = frozenset({"name", "arguments"})


def _choice_index(entry: object) -> int | None:
    """A choice's index (0 when a server leaves it out), or None when it is not a valid one."""
    if not isinstance(entry, dict):
        return None
    index = entry.get("index", 0)
    return index if type(index) is int and index >= 0 else None


def _fragment_key(mapping: dict[str, Any], key: str, path: str) -> str | None:
    """An id or name on a delta: a string, absent (None) when missing, null or ``""``."""
    value = mapping.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidStream(path, "must be a string", describe(value))
    # A subclass by its characters, as every field keeps text; "" is absent: some
    # OpenAI-compatible servers send it on the deltas after the first.
    return exact_str(value) or None

"""Anthropic Messages, streaming: server-sent events assembled into the turn."""

from __future__ import annotations

from typing import Any, NamedTuple, NoReturn

from ..._errors import InvalidStream, InvalidToolCall, describe
from ..._json import decode
from ..._message import ASSISTANT, ChatMessage
from ..._stream import PartialToolCall
from ..._tool_call import ToolCall
from .._native import kept
from .._shared import (
    RAW_ARGUMENTS_KEY,
    arguments_text_from_object_wire,
    at,
)
from .._stream import Assembler, Text, joined, owned, updated
from .blocks import UNASSEMBLED
from .ids import read_id
from .read import Layout, read_tool_use

_PROVIDER = "anthropic"


# -- streaming --------------------------------------------------------------------------

# The delta types each kind of block takes; a delta of another type is an error.
# citations_delta adds a citation to a text block: from_response does not keep
# the citations of text blocks either, so the stream skips them too.
_TEXT_DELTAS = frozenset({"text_delta", "citations_delta"})
_THINKING_DELTAS = frozenset({"thinking_delta", "signature_delta"})
_JSON_DELTAS = frozenset({"input_json_delta"})
# The key of each delta type that carries its fragment.
# The blocks whose deltas toolturns assembles; an unknown delta type of one of
# them would change a value it models, so it is an error, not skipped.
_MODELLED_BLOCKS = frozenset({"text", "thinking", "tool_use"})
_DELTA_KEYS = {
    "text_delta": "text",
    "input_json_delta": "partial_json",
    "thinking_delta": "thinking",
    "signature_delta": "signature",
}


class _Block:
    """One content block as far as it has streamed: its start (a copy), and the fragments since."""

    __slots__ = ("call_id", "fragments", "signature", "slot", "start", "stopped", "unassembled")

    def __init__(self, start: dict[str, Any], slot: int) -> None:
        self.start = start
        # Text, partial_json or thinking, by kind; a text block's start text first.
        self.fragments = Text([start.get("text", "")] if start["type"] == "text" else ())
        self.signature: list[str] = []  # signature_delta fragments of a thinking block
        # Deltas of a type toolturns does not know, of a block it does not model: kept as they came.
        self.unassembled: list[dict[str, Any]] = []
        self.stopped = False
        self.slot = slot  # its place among the text blocks, or among the tool_use blocks
        self.call_id: str | None = None  # a tool_use block's id, decoded

    @property
    def kind(self) -> str:
        kind: str = self.start["type"]
        return kind

    def partial(self) -> PartialToolCall:
        """The call of a tool_use block as far as it has streamed."""
        text = self.fragments.so_far()
        if (not text or text.isspace()) and self.start.get("input"):
            # No argument text streamed yet: the start's own input is the
            # arguments so far, as message() gives them.
            text = arguments_text_from_object_wire(self.start["input"], path="input", call_id=None, name="")
        return PartialToolCall(self.call_id, self.start.get("name"), text)


class _Shown(NamedTuple):
    """What the last snapshot showed, replaced whole by the next one."""

    touched: int  # how many entries of the assembler's _touched it had read
    texts: int  # how many text blocks there were
    calls: int  # how many tool_use blocks there were
    content: str  # their texts joined
    last: int  # where in content the last text block's text starts
    partials: tuple[PartialToolCall, ...]  # each tool_use block's call


_NOTHING_SHOWN = _Shown(0, 0, 0, "", 0, ())


class StreamAssembler(Assembler):
    """Assembles the events of one streamed Messages response into the assistant turn.

    Feed it the decoded ``data`` of each server-sent event (``parse_sse``
    gives them from the raw lines). The message is the one ``from_response``
    gives for the same response sent whole: text blocks joined, ``tool_use``
    blocks as calls (ids decoded, unknown block keys such as ``caller`` kept),
    thinking, redacted thinking and every other block kept unchanged with its
    position in ``provider_data["anthropic"]["items"]``, so the turn replays
    like a non-streamed one. A call's argument text is the model's own
    ``partial_json`` fragments joined, never completed or repaired.

    ``finish_reason`` is ``message_delta``'s ``stop_reason`` (``end_turn``,
    ``tool_use``, ``max_tokens``...), ``usage`` the usage of ``message_start``
    updated by ``message_delta``'s, and ``ended`` turns true at ``message_stop``.

    Raises:
        InvalidStream: an ``error`` event (the provider's error object is in
            ``provider_error``), an event out of order (a delta for a block
            that was not started or already stopped, a delta type the block
            does not take), or a malformed event; the path names the item.

    >>> events = [
    ...     {"type": "message_start", "message": {"type": "message", "role": "assistant", "content": [],
    ...                                           "usage": {"input_tokens": 12, "output_tokens": 1}}},
    ...     {"type": "content_block_start", "index": 0,
    ...      "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}},
    ...     {"type": "ping"},
    ...     {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": ""}},
    ...     {"type": "content_block_delta", "index": 0,
    ...      "delta": {"type": "input_json_delta", "partial_json": '{"city": "Pa'}},
    ...     {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": 'ris"}'}},
    ...     {"type": "content_block_stop", "index": 0},
    ...     {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 20}},
    ...     {"type": "message_stop"}]
    >>> assembler = StreamAssembler()
    >>> for event in events:
    ...     assembler.feed(event)
    >>> assembler.message().tool_calls
    (ToolCall(id='toolu_1', name='get_weather', arguments='{"city": "Paris"}'),)
    >>> assembler.finish_reason, assembler.ended, assembler.usage
    ('tool_use', True, {'input_tokens': 12, 'output_tokens': 20})
    """

    def __init__(self) -> None:
        super().__init__()
        self._started = False
        self._blocks: list[_Block] = []
        self._ids: dict[str, int] = {}  # decoded tool_use id -> block index
        # The text blocks and the tool_use blocks, each in order: what a snapshot shows.
        self._by_kind: dict[str, list[_Block]] = {"text": [], "tool_use": []}
        # A snapshot reads again only the blocks a delta changed (in _touched, one entry per delta).
        self._shown = _NOTHING_SHOWN

    # -- events ---------------------------------------------------------------------

    def _feed(self, item: dict[str, Any]) -> None:
        kind = item.get("type")
        if not isinstance(kind, str):
            raise InvalidStream("type", "must be a string (the event type)", describe(kind))
        if kind == "error":
            self._error(item)
        if kind == "message_start":
            self._message_start(item)
        elif not self._started and kind != "ping":
            # Anthropic opens every stream with message_start; anything else first
            # is not the start of a Messages stream.
            raise InvalidStream("type", "must be 'message_start' first (or 'ping')", describe(kind))
        elif kind == "content_block_start":
            self._block_start(item)
        elif kind == "content_block_delta":
            self._block_delta(item)
        elif kind == "content_block_stop":
            self._open_block(item).stopped = True
        elif kind == "message_delta":
            self._message_delta(item)
        elif kind == "message_stop":
            self._ended = True
        # else: ping, or an event type added after this code was written.

    def _error(self, item: dict[str, Any]) -> NoReturn:
        error = item.get("error")
        fields = error if isinstance(error, dict) else {}
        what = fields.get("type")
        message = fields.get("message")
        # e.g. {"type": "overloaded_error", "message": "Overloaded"} mid-stream.
        raise InvalidStream(
            "error",
            f"the provider ended the stream with an error ({describe(what)}: {describe(message)})",
            describe(error) if not isinstance(error, dict) else None,
            provider_error=error,
        )

    def _message_start(self, item: dict[str, Any]) -> None:
        if self._started:
            raise InvalidStream("type", "must not be 'message_start' a second time", "'message_start'")
        message = item.get("message")
        if not isinstance(message, dict):
            raise InvalidStream("message", "must be an object (the Message)", describe(message))
        role = message.get("role")
        if role is not None and role != "assistant":
            raise InvalidStream("message.role", "must be 'assistant'", describe(role))
        content = message.get("content")
        if content is not None and content != []:
            raise InvalidStream(
                "message.content",
                "must be empty (blocks arrive as content_block_start events)",
                describe(content),
            )
        self._usage(message.get("usage"), "message.usage")
        self._started = True

    def _usage(self, usage: object, path: str) -> None:
        if usage is None:
            return
        if not isinstance(usage, dict):
            raise InvalidStream(path, "must be an object", describe(usage))
        # message_delta's counts are cumulative and may cover only some keys:
        # they update the ones message_start gave.
        self.usage = {**(self.usage or {}), **owned(usage, path)}

    def _index(self, item: dict[str, Any]) -> int:
        index = item.get("index")
        if type(index) is not int or index < 0:
            raise InvalidStream("index", "must be an integer >= 0 (the block's index)", describe(index))
        return index

    def _open_block(self, item: dict[str, Any]) -> _Block:
        index = self._index(item)
        if index >= len(self._blocks):
            raise InvalidStream("index", "must be the index of a block already started", describe(index))
        block = self._blocks[index]
        if block.stopped:
            raise InvalidStream("index", "must be the index of a block not yet stopped", describe(index))
        return block

    def _block_start(self, item: dict[str, Any]) -> None:
        index = self._index(item)
        if index != len(self._blocks):
            # Blocks are numbered from 0 in order; their index is their position
            # in the non-streamed response's content.
            raise InvalidStream(
                "index", f"must be {len(self._blocks)}, the next block's index", describe(index)
            )
        start = owned(item.get("content_block"), "content_block")  # checked, then kept: a copy
        call_id = None
        with at("content_block"):
            if not isinstance(start, dict):
                raise InvalidStream("", "must be an object (a content block)", describe(start))
            kind = start.get("type")
            if not isinstance(kind, str):
                raise InvalidStream("type", "must be a string (the block type)", describe(kind))
            if kind == "text":
                self._text_start(start)
            elif kind == "tool_use":
                call_id = self._tool_use_start(start, index)
            elif kind == "tool_result":
                raise InvalidStream("type", "must not be 'tool_result' in an assistant turn", describe(kind))
            elif kind == "thinking":
                for key in ("thinking", "signature"):
                    value = start.get(key, "")
                    if not isinstance(value, str):
                        raise InvalidStream(key, "must be a string", describe(value))
        shown = self._by_kind.get(kind)
        block = _Block(start, -1 if shown is None else len(shown))
        if kind == "tool_use":
            block.call_id = call_id
        self._blocks.append(block)
        if shown is not None:
            shown.append(block)

    def _text_start(self, start: dict[str, Any]) -> None:
        text = start.get("text", "")
        if not isinstance(text, str):
            raise InvalidStream("text", "must be a string", describe(text))

    def _tool_use_start(self, start: dict[str, Any], index: int) -> str | None:
        """Check a tool_use block's start; its id decoded, if it has one."""
        # The id and name come whole here; a missing one is reported by
        # message() (the live view shows None until then).
        call_id = start.get("id")
        decoded = None
        if call_id is not None:
            decoded = read_id(call_id, "id", InvalidToolCall)
            if decoded in self._ids:
                raise InvalidToolCall(
                    "id",
                    f"must be unique within the message (content block {self._ids[decoded]} has it too)",
                    describe(call_id),
                )
            self._ids[decoded] = index
        name = start.get("name")
        if name is not None and (not isinstance(name, str) or not name):
            raise InvalidToolCall("name", "must be a non-empty string", describe(name))
        value = start.get("input", {})
        if not isinstance(value, dict):
            raise InvalidToolCall("input", "must be an object (the arguments)", describe(value))
        # The start's input is {} in a stream; an object with keys would read
        # as arguments of their own.
        arguments_text_from_object_wire(value, path="input", call_id=None, name=name or "")
        return decoded

    def _block_delta(self, item: dict[str, Any]) -> None:
        block = self._open_block(item)
        delta = item.get("delta")
        with at("delta"):
            if not isinstance(delta, dict):
                raise InvalidStream("", "must be an object", describe(delta))
            kind = delta.get("type")
            if block.kind == "text":
                accepted = _TEXT_DELTAS
            elif block.kind == "thinking":
                accepted = _THINKING_DELTAS
            else:  # tool_use, and unmodelled blocks whose input streams (server_tool_use)
                accepted = _JSON_DELTAS
            if block.kind not in _MODELLED_BLOCKS and isinstance(kind, str) and kind not in accepted:
                # A block type added after this code (compaction) with its own
                # delta type: the stream goes on; the block is kept with its
                # deltas as they came, and refused on replay (unassembled).
                block.unassembled.append(owned(delta, ""))
                return
            if not isinstance(kind, str) or kind not in accepted:
                raise InvalidStream(
                    "type",
                    f"must be one of {', '.join(sorted(accepted))} for a {block.kind} block",
                    describe(kind),
                )
            if kind == "citations_delta":
                return
            key = _DELTA_KEYS[kind]
            fragment = delta.get(key)
            if not isinstance(fragment, str):
                raise InvalidStream(key, "must be a string", describe(fragment))
        if kind == "input_json_delta" and fragment and block.start.get("input", {}) != {}:
            raise InvalidStream(
                "delta.partial_json",
                "must not follow a content_block_start whose input is not {} (the arguments would be given twice)",
                describe(fragment),
            )
        (block.signature if kind == "signature_delta" else block.fragments).append(fragment)
        self._touched.append(block)

    def _message_delta(self, item: dict[str, Any]) -> None:
        delta = item.get("delta")
        if not isinstance(delta, dict):
            raise InvalidStream("delta", "must be an object", describe(delta))
        reason = delta.get("stop_reason")
        if reason is not None:
            if not isinstance(reason, str):
                raise InvalidStream("delta.stop_reason", "must be a string", describe(reason))
            self.finish_reason = reason
        self._usage(item.get("usage"), "usage")

    # -- results --------------------------------------------------------------------

    def _build(self) -> ChatMessage:
        texts: list[str] = []
        calls: list[ToolCall] = []
        layout = Layout()  # the positions from_response gives the kept blocks
        for number, block in enumerate(self._blocks):
            if block.kind == "text":
                texts.append(layout.text(block.fragments.so_far()))
            elif block.kind == "tool_use":
                with at(f"content[{number}]"):
                    calls.append(layout.call(_stream_call(block)))
            else:
                layout.keep(_stored_block(block))
        return ChatMessage(
            ASSISTANT,
            "".join(texts),
            tool_calls=calls or None,
            provider_data=kept(_PROVIDER, items=layout.kept),
        )

    def _content(self) -> str:
        return self._shown_now().content

    def _partial_calls(self) -> tuple[PartialToolCall, ...]:
        return self._shown_now().partials

    def _shown_now(self) -> _Shown:
        """The last snapshot's view brought up to date: only the blocks started or changed since are read."""
        shown = self._shown  # read first: it never claims more than what is read after it
        touched = len(self._touched)  # then the log: a block touched is among the blocks counted next
        texts, calls = self._by_kind["text"], self._by_kind["tool_use"]
        count = (touched, len(texts), len(calls))
        if count == shown[:3]:
            return shown
        changed = set(self._touched[shown.touched : touched])
        content, last = shown.content, shown.last
        if any(block.kind == "text" and block.slot < shown.texts - 1 for block in changed):
            # A text block before the last changed (blocks streamed interleaved): join them all again.
            content, last = "", 0
            added = texts[: count[1]]
        else:
            added = texts[shown.texts : count[1]]
            if shown.texts and texts[shown.texts - 1] in changed:  # the last text block grew
                content = content[:last] + texts[shown.texts - 1].fragments.so_far()
        for block in added:
            last = len(content)
            content += block.fragments.so_far()
        partials = updated(
            shown.partials,
            {
                block.slot: block.partial()
                for block in changed
                if block.kind == "tool_use" and block.slot < shown.calls
            },
            [block.partial() for block in calls[shown.calls : count[2]]],
        )
        self._shown = shown = _Shown(*count, content, last, partials)
        return shown


def _stream_call(block: _Block) -> ToolCall:
    """The call of a streamed tool_use block: its raw partial_json, or its start's input."""
    start = block.start
    for key in ("id", "name"):
        if start.get(key) is None:
            raise InvalidStream(
                key,
                f"is required: this tool_use block's {key} never arrived (content_block_start carries it)",
            )
    text = block.fragments.so_far()
    # Blank text ("" is the usual first fragment) means no arguments streamed:
    # the start's input ({}) is the arguments, as in the non-streamed block.
    whole = start if "input" in start else {**start, "input": {}}
    return read_tool_use(whole, streamed=text if text.strip() else None)


def _stored_block(block: _Block) -> dict[str, Any]:
    """A block toolturns does not model, as the non-streamed response has it."""
    stored = dict(block.start)
    if block.unassembled:
        stored[UNASSEMBLED] = block.unassembled
    if block.kind == "thinking":
        stored["thinking"] = joined([stored.get("thinking", ""), *block.fragments])
        stored["signature"] = joined([stored.get("signature", ""), *block.signature])
        return stored
    text = block.fragments.so_far()
    if text.strip():
        # A server tool's input streams like a tool_use's. Text that is not a
        # JSON object (cut off by max_tokens) is kept raw, wrapped the way
        # toolturns carries malformed arguments through object wires.
        try:
            value = decode(text)
        except ValueError:
            value = None
        stored["input"] = value if isinstance(value, dict) else {RAW_ARGUMENTS_KEY: text}
    return stored

"""Ollama /api/chat, streaming: NDJSON lines assembled into the turn."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..._errors import InvalidStream, describe
from ..._json import join_key
from ..._message import ASSISTANT, ChatMessage
from ..._stream import PartialToolCall
from ..._tool_call import ToolCall
from .._native import is_generated_id
from .._shared import (
    at,
)
from .._stream import Assembler, OtherKeys, Text, owned
from .parts import read_images
from .read import from_response, read_call

_PROVIDER = "ollama"
# How the provider is named in error messages.
_DISPLAY_NAME = "Ollama"


# -- streaming ----------------------------------------------------------------------------

# What the closing (done: true) chunk reports about the work done
# (docs/api.md, "Generate a chat completion", response fields).
_USAGE_KEYS = (
    "prompt_eval_count",
    "eval_count",
    "total_duration",
    "load_duration",
    "prompt_eval_duration",
    "eval_duration",
)


class _Shown(NamedTuple):
    """The calls the last snapshot showed, replaced whole by the next one."""

    calls: int  # how many calls it had read
    ended: bool  # whether the stream had ended: then the made-up ids are final
    partials: tuple[PartialToolCall, ...]


class StreamAssembler(Assembler):
    """Assemble one streamed ``/api/chat`` response: its NDJSON objects, one per line.

    Feed each decoded line; ``message()`` then gives the ChatMessage
    ``from_response`` gives for the same response sent whole. That response is
    what Ollama itself builds when it is asked not to stream (server/routes.go,
    ``ChatHandler``): the texts of all chunks joined (``content``, and
    ``thinking``, kept in provider_data as ``from_response`` keeps it), the
    tool calls of all chunks in order, everything else from the last chunk,
    ``created_at`` included. So calls without an id get the ids
    ``from_response`` gives: seeded with the last chunk's ``created_at``, they
    are final once the ``done: true`` chunk arrived, and ``snapshot()`` shows
    them as ``None`` until then.

    Tool calls arrive whole (arguments as an object), on any chunk, the
    ``done: true`` one included; ``ended`` turns true with that chunk, and
    ``finish_reason`` is its ``done_reason``. ``usage`` holds its counts and
    durations (``prompt_eval_count``, ``eval_count``, ...).

    >>> from toolturns import ollama
    >>> stream = ollama.StreamAssembler()
    >>> stream.feed({"model": "llama3.2", "created_at": "2025-07-07T20:22:19.184789Z",
    ...     "message": {"role": "assistant", "content": "",
    ...                 "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]},
    ...     "done": False})
    >>> stream.feed({"model": "llama3.2", "created_at": "2025-07-07T20:22:19.19314Z",
    ...     "message": {"role": "assistant", "content": ""}, "done_reason": "stop", "done": True,
    ...     "prompt_eval_count": 169, "eval_count": 15})
    >>> turn = stream.message()
    >>> turn.tool_calls[0].name, turn.tool_calls[0].arguments
    ('get_weather', {'city': 'Tokyo'})
    >>> stream.finish_reason, stream.ended, stream.usage
    ('stop', True, {'prompt_eval_count': 169, 'eval_count': 15})
    """

    def __init__(self) -> None:
        super().__init__()
        self._text = Text()
        # Other keys of the messages, in the order they first came: text
        # (thinking) concatenates, any other value must stay the same.
        self._others = OtherKeys(extend_arrays=False)
        # Each call as it came, and as read then (for the live view).
        self._calls: list[tuple[dict[str, Any], ToolCall]] = []
        self._created_at: object = None
        self._shown = _Shown(0, False, ())

    def _feed(self, item: dict[str, Any]) -> None:
        error = item.get("error")
        if error is not None:
            # A failure after the stream started arrives as {"error": "..."}
            # on its own line (server/routes.go, the gin.H error sent on the channel).
            raise InvalidStream(
                "error",
                f"{_DISPLAY_NAME} reported an error in the stream",
                describe(error),
                provider_error=error,
            )
        if "message" not in item:
            raise InvalidStream("message", "is required (every /api/chat stream item has one)")
        message = item["message"]
        if not isinstance(message, dict):
            raise InvalidStream("message", "must be an object", describe(message))
        done = item.get("done")
        if done is not None and type(done) is not bool:
            raise InvalidStream("done", "must be a boolean", describe(done))
        reason = item.get("done_reason")
        if reason is not None and not isinstance(reason, str):
            raise InvalidStream("done_reason", "must be a string", describe(reason))
        with at("message"):
            self._feed_message(message)
        self._created_at = item.get("created_at")
        if done:
            self.finish_reason = reason
            usage = {key: owned(item[key], key) for key in _USAGE_KEYS if item.get(key) is not None}
            self.usage = usage or None
            self._ended = True

    def _feed_message(self, message: dict[str, Any]) -> None:
        role = message.get("role")
        if role is not None and role != ASSISTANT.value:
            raise InvalidStream(
                "role", "must be 'assistant' (a response streams the model's turn)", describe(role)
            )
        for key, value in message.items():
            if value is None or key == "role":
                continue  # null carries nothing (Go's omitempty leaves the key out)
            if key == "content":
                if not isinstance(value, str):
                    raise InvalidStream("content", "must be a string", describe(value))
                self._text.append(value)
            elif key == "tool_calls":
                if not isinstance(value, list):
                    raise InvalidStream("tool_calls", "must be an array of tool calls", describe(value))
                for position, raw in enumerate(value):
                    with at(f"tool_calls[{position}]"):
                        # Read now, so a broken call is reported on the item that
                        # brought it; read again in message(), with the final seed.
                        # A copy is read and kept: the caller may change its dicts later.
                        raw = owned(raw, "")
                        call = read_call(raw, (*self._seed(), len(self._calls)))
                    self._calls.append((raw, call))
            else:
                if key == "images":
                    read_images(value)  # a broken image is reported on the item that brought it
                self._others.merge(key, value, join_key("", key))  # a caller's dict may have any key

    def _content(self) -> str:
        return self._text.so_far()

    def _partial_calls(self) -> tuple[PartialToolCall, ...]:
        shown = self._shown  # read first: it never claims more than what is read after it
        ended = self._ended  # read before the calls: the last call comes before the end
        count = len(self._calls)
        if ended and not shown.ended:
            # The made-up ids depend on the last chunk's created_at, known now: read every call again.
            seed = self._seed()
            calls = [
                read_call(raw, (*seed, position)) for position, (raw, _) in enumerate(self._calls[:count])
            ]
            partials = tuple(PartialToolCall(call.id, call.name, call.arguments_json) for call in calls)
        elif count == shown.calls:
            return shown.partials
        else:
            # An id toolturns makes up is not known before the end: None until then.
            partials = shown.partials + tuple(
                PartialToolCall(
                    None if is_generated_id(call, _PROVIDER) else call.id, call.name, call.arguments_json
                )
                for _, call in self._calls[shown.calls : count]
            )
        self._shown = _Shown(count, ended, partials)
        return partials

    def _seed(self) -> tuple[object, ...]:
        """What from_response seeds the ids of the calls with (a call adds its position)."""
        return ("message", self._created_at if isinstance(self._created_at, str) else None)

    def _build(self) -> ChatMessage:
        message: dict[str, Any] = {"role": ASSISTANT.value, "content": self._text.so_far()}
        message.update(self._others.joined())
        if self._calls:
            message["tool_calls"] = [raw for raw, _ in self._calls]
        return from_response({"created_at": self._created_at, "message": message})

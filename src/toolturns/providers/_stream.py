"""What every provider's stream assembler shares: the life cycle, and keys merged across chunks.

Each provider's ``StreamAssembler`` is built on ``Assembler``: it is fed the
items of one streamed response (the dict one SSE ``data:`` line or one NDJSON
line decodes to), collects text and argument fragments, and joins them once
when ``message()`` is asked for, so assembly stays linear in the stream.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from .._errors import InvalidStream, MessageError, describe
from .._message import ChatMessage
from .._sdk import dumped
from .._stream import PartialToolCall, StreamSnapshot

__all__ = ["Assembler", "OtherKeys", "joined"]


def joined(fragments: Sequence[str]) -> str:
    """The fragments of a streamed text as one text, a surrogate pair split between two made one character.

    A character outside the BMP may be split by a stream between two chunks
    ("\\ud83d" in one, "\\ude00" in the next), which json.loads reads as two
    lone halves; joined, they are made the one character again. A lone half
    stays as it came.
    """
    text = "".join(fragments)
    # The common cases cost no scan in Python: isascii() reads a flag of the
    # string, and UTF-8 encoding (in C) fails only on a surrogate.
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return text


class _Text(list[str]):
    """The fragments of a streamed text key, joined once when the message is built."""


class OtherKeys:
    """Message keys a stream repeats or streams that the assembler does not model.

    Text arrives in fragments and concatenates; with ``extend_arrays`` arrays
    extend (OpenAI's ``annotations``); any other value must come back the
    same each time, since keeping one of two values would lose the other.
    """

    def __init__(self, *, extend_arrays: bool) -> None:
        self._extend_arrays = extend_arrays
        self._values: dict[str, Any] = {}

    def merge(self, key: str, value: object, path: str) -> None:
        """Add one occurrence of ``key``, or raise InvalidStream at ``path``."""
        kept = self._values.get(key)
        if kept is None:
            if isinstance(value, str):
                self._values[key] = _Text([value])
            elif self._extend_arrays and isinstance(value, list):
                self._values[key] = list(value)
            else:
                self._values[key] = value
        elif isinstance(kept, _Text) and isinstance(value, str):
            kept.append(value)
        elif self._extend_arrays and type(kept) is list and isinstance(value, list):
            kept.extend(value)
        elif isinstance(kept, _Text) or _differ(kept, value):
            arrays = " or array" if self._extend_arrays else ""
            raise InvalidStream(
                path,
                f"must keep its value or stream text{arrays} fragments (toolturns cannot merge it otherwise)",
                describe(value),
            )

    def joined(self) -> dict[str, Any]:
        """The keys with their text fragments joined, in the order they first came."""
        return {key: joined(v) if isinstance(v, _Text) else v for key, v in self._values.items()}


def _differ(kept: object, value: object) -> bool:
    try:
        return bool(kept != value)
    except RecursionError:  # too deep to compare: not the same value as far as we can tell
        return True


class Assembler(ABC):
    """The life cycle every provider's ``StreamAssembler`` shares.

    Subclasses implement ``_feed`` (take one item; set ``finish_reason``,
    ``usage`` and, on the provider's closing event, ``_ended``), ``_build``
    (the assembled message) and ``_partial_calls`` (the calls so far).
    """

    #: The provider's own reason the stream stopped (``tool_calls``,
    #: ``max_tokens``, ``STOP``...), once it has said one.
    finish_reason: str | None
    #: The usage object the stream reported, if any.
    usage: dict[str, Any] | None

    def __init__(self) -> None:
        self.finish_reason = None
        self.usage = None
        self._fed = 0
        self._ended = False

    @property
    def ended(self) -> bool:
        """True once the provider's closing event arrived: the stream ended cleanly.

        False for a stream cut off before it (a dropped connection): its
        last tool call may hold partial argument text, kept as it is.

        >>> from toolturns import gemini
        >>> stream = gemini.StreamAssembler()
        >>> stream.feed({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}]})
        >>> stream.ended
        False
        >>> stream.feed({"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]},
        ...                              "finishReason": "STOP"}]})
        >>> stream.ended, stream.finish_reason, stream.message().content
        (True, 'STOP', 'Hello')
        """
        return self._ended

    def feed(self, item: object) -> None:
        """Take the next item of the stream (one decoded SSE data or NDJSON line).

        Raises:
            InvalidStream: the stream has already ended, or the item is not
                one this provider sends; the path starts with ``item[N]``.

        >>> from toolturns import anthropic
        >>> stream = anthropic.StreamAssembler()
        >>> stream.feed({"type": "content_block_start", "index": 0})
        Traceback (most recent call last):
        ...
        toolturns.InvalidStream: item[0].type: must be 'message_start' first (or 'ping'), got 'content_block_start'
        """
        where = f"item[{self._fed}]"
        if type(item) is not dict:
            item = dumped(item)  # an SDK's chunk or event object
        if self._ended and not self._accepts_after_end(item):
            raise InvalidStream(where, "must not follow the end of the stream", describe(item))
        if type(item) is not dict:
            raise InvalidStream(where, "must be an object", describe(item))
        try:
            self._feed(item)
        except MessageError as error:  # try, not `with at()`: this runs once per chunk
            raise error.with_prefix(where) from None
        self._fed += 1

    def _end_with(self, reason: object, path: str) -> None:
        """The provider said why it stopped (a string at ``path``): record it and end the stream."""
        if not isinstance(reason, str):
            raise InvalidStream(path, "must be a string", describe(reason))
        self.finish_reason = reason
        self._ended = True

    def _accepts_after_end(self, item: object) -> bool:
        """Whether ``item`` may still come after the closing event; none may by default."""
        return False

    def message(self) -> ChatMessage:
        """The assistant turn assembled so far: text, and tool calls with their raw argument text.

        Nothing is completed or repaired: a call cut off mid-arguments keeps
        its partial text, so its ``.arguments`` raises ``InvalidArguments``.

        Raises:
            InvalidStream: nothing was fed yet.

        >>> from toolturns import openai
        >>> openai.StreamAssembler().message()
        Traceback (most recent call last):
        ...
        toolturns.InvalidStream: has no items yet: feed the stream before asking for its message
        """
        if not self._fed:
            raise InvalidStream("", "has no items yet: feed the stream before asking for its message")
        return self._build()

    def snapshot(self) -> StreamSnapshot:
        """The text and tool calls so far, without changing the assembly.

        >>> from toolturns import openai
        >>> stream = openai.StreamAssembler()
        >>> stream.feed({"choices": [{"index": 0, "delta": {"content": "Checking"}}]})
        >>> stream.snapshot().content, stream.snapshot().finish_reason
        ('Checking', None)
        """
        return StreamSnapshot(self._content(), tuple(self._partial_calls()), self.finish_reason)

    # -- what each provider implements -----------------------------------------

    @abstractmethod
    def _feed(self, item: dict[str, Any]) -> None:
        """Take one item, already checked to be a dict."""

    @abstractmethod
    def _build(self) -> ChatMessage:
        """The assembled assistant message."""

    @abstractmethod
    def _content(self) -> str:
        """The text so far."""

    @abstractmethod
    def _partial_calls(self) -> list[PartialToolCall]:
        """The tool calls so far."""

"""Gemini streamGenerateContent: chunks assembled into the turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..._errors import (
    InvalidMessage,
    InvalidStream,
    MessageError,
    describe,
)
from ..._message import ChatMessage
from ..._stream import PartialToolCall
from .._shared import (
    at,
)
from .._stream import Assembler, Text, owned
from .parts import PART, USAGE, answer_text, camel, fields, keys_of, parts_of, plain
from .read import Reader, read_call

# -- streaming --------------------------------------------------------------------------

# Vertex AI's streamFunctionCallArguments sends a call in pieces: partialArgs
# (JSON paths and values) with willContinue. The Gemini Developer API does not
# ("This field is not supported in Gemini API"): each functionCall part of its
# stream is whole, with its full args object.
_VERTEX_PARTIAL_KEYS = ("partialArgs", "willContinue")


class _Run:
    """Consecutive plain text parts of a stream (thought summaries apart): their texts, joined once."""

    __slots__ = ("fragments", "thought")

    def __init__(self, thought: bool) -> None:
        self.thought = thought
        self.fragments = Text()

    def part(self) -> dict[str, Any]:
        part: dict[str, Any] = {"text": self.fragments.so_far()}
        if self.thought:
            part["thought"] = True
        return part


class _Shown(NamedTuple):
    """What the last snapshot showed, replaced whole by the next one.

    Parts before the last never change (a run of text grows only while it is
    the last part), so they are read once; the calls' made-up ids depend on
    the responseId, which a later chunk may bring: then they are read again.
    """

    response_id: str | None
    parts: int  # how many parts it had read: all but a run of text last
    text: str  # the text of those parts
    calls: tuple[PartialToolCall, ...]  # the calls among them


_NOTHING_SHOWN = _Shown(None, 0, "", ())


class StreamAssembler(Assembler):
    """Assembles the chunks of one ``streamGenerateContent`` response into the assistant turn.

    Feed it each chunk (a ``GenerateContentResponse``: one SSE ``data:`` line
    of ``?alt=sse``, or one element of the JSON array the endpoint sends
    without it). Chunks carry whole parts: consecutive plain text parts (and
    consecutive thought-summary parts) join into one; every other part, a
    ``functionCall`` or a part with a ``thoughtSignature``, stays a part of
    its own, in order; empty plain text parts carry nothing and are dropped.
    The message is the one ``from_response`` gives for the response with
    those parts sent whole: calls without an id get the same made-up ids
    (seeded with the ``responseId`` and each call's position), and a
    ``thoughtSignature`` stays on the part it came on.

    Chunks may spell their fields either way, as ``from_response`` reads
    them (google-genai's dumped chunks). ``finish_reason`` is the candidate's
    ``finishReason`` (``STOP``, ``MAX_TOKENS``, ``SAFETY``...), a plain
    string, which also ends the stream (``ended``); ``usage`` is the last
    ``usageMetadata``, always in the REST spelling (``promptTokenCount``,
    ``candidatesTokenCount``, ``totalTokenCount``, ``promptTokensDetails``...)
    whatever the chunks used, without null fields.

    Args:
        choice: Which candidate to assemble, for ``candidateCount > 1`` (the
            keyword OpenAI's assembler has for its choices).

    Raises:
        InvalidStream: a chunk that is not a ``GenerateContentResponse``, a
            blocked prompt (``promptFeedback``, in ``provider_error``), chunks
            of two responses, or a Vertex AI streamed-arguments call
            (``partialArgs``/``willContinue``), which the Gemini Developer API
            never sends; MessageError for a malformed part.

    >>> chunks = [
    ...     {"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me "}]}}], "responseId": "r1"},
    ...     {"candidates": [{"content": {"role": "model", "parts": [{"text": "check."},
    ...         {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "c2ln"}]},
    ...       "finishReason": "STOP"}],
    ...      "usageMetadata": {"promptTokenCount": 10, "totalTokenCount": 30}, "responseId": "r1"}]
    >>> assembler = StreamAssembler()
    >>> for chunk in chunks:
    ...     assembler.feed(chunk)
    >>> turn = assembler.message()
    >>> turn.content, turn.tool_calls[0].name, turn.tool_calls[0].arguments
    ('Let me check.', 'get_weather', {'city': 'Paris'})
    >>> turn.tool_calls[0].provider_data["gemini"]["keys"]["thoughtSignature"]
    'c2ln'
    >>> assembler.finish_reason, assembler.ended, assembler.usage["totalTokenCount"]
    ('STOP', True, 30)
    """

    def __init__(self, *, choice: int = 0) -> None:
        super().__init__()
        if type(choice) is not int or choice < 0:
            raise InvalidStream("choice", "must be a non-negative integer", describe(choice))
        self._candidate = choice
        self._response_id: str | None = None
        self.parts_of: list[_Run | dict[str, Any]] = []
        self._ids: dict[str, int] = {}  # call id Gemini sent -> its part's position
        self._shown = _NOTHING_SHOWN

    def _feed(self, item: dict[str, Any]) -> None:
        chunk = fields(item, "a GenerateContentResponse chunk", InvalidStream)
        if "candidates" not in chunk and "parts" in chunk:
            raise InvalidStream(
                "",
                "must be a GenerateContentResponse chunk ({'candidates': [...]}), not a bare Content: "
                "feed each streamed chunk whole",
                keys_of(chunk),
            )
        response_id = chunk.get("responseId")
        if response_id is not None:
            if not isinstance(response_id, str):
                raise InvalidStream("responseId", "must be a string", describe(response_id))
            if self._response_id is None:
                self._response_id = response_id
            elif response_id != self._response_id:
                raise InvalidStream(
                    "responseId",
                    f"must be the responseId of the earlier chunks ({self._response_id!r}): one stream per assembler",
                    describe(response_id),
                )
        usage = chunk.get("usageMetadata")
        if usage is not None:
            if not isinstance(usage, dict):
                raise InvalidStream("usageMetadata", "must be an object", describe(usage))
            # Cumulative: each chunk's counts replace the last. In the REST
            # spelling whatever the chunk's (an SDK dump's usage_metadata).
            self.usage = owned(_rest_fields(usage, "usageMetadata", USAGE), "usageMetadata")
        candidates = chunk.get("candidates")
        if candidates is None:
            feedback = chunk.get("promptFeedback")
            if isinstance(feedback, Mapping):
                feedback = _rest_fields(feedback, "promptFeedback", frozenset())
                if feedback.get("blockReason") is not None:
                    raise InvalidStream(
                        "promptFeedback.blockReason",
                        "says Gemini blocked the prompt: the stream has no candidate",
                        describe(feedback["blockReason"]),
                        provider_error=feedback,
                    )
            return  # usage only
        if not isinstance(candidates, list):
            raise InvalidStream("candidates", "must be an array of candidates", describe(candidates))
        for position, raw in enumerate(candidates):
            with at(f"candidates[{position}]"):
                candidate = fields(raw, "a candidate object", InvalidStream)
                index = candidate.get("index", position)  # proto JSON leaves out index 0
                if type(index) is not int:
                    raise InvalidStream("index", "must be an integer", describe(index))
                if index == self._candidate:
                    self._take(candidate)

    def _take(self, candidate: dict[Any, Any]) -> None:
        content = candidate.get("content")
        if content is not None:
            with at("content"):
                content = fields(content, "a Content object", InvalidStream)
                role = content.get("role")
                if role is not None and role != "model":
                    raise InvalidStream("role", "must be 'model' in a response", describe(role))
                for number, raw in enumerate(parts_of(content)):
                    with at(f"parts[{number}]"):
                        # A copy is checked and kept: the caller may change its dicts later.
                        self._add(owned(fields(raw, "a part object", as_is=PART), ""))
        reason = candidate.get("finishReason")
        if reason is not None:
            self._end_with(plain(reason) if isinstance(reason, str) else reason, "finishReason")

    def _add(self, part: dict[Any, Any]) -> None:
        text = part.get("text")
        if "text" in part and not isinstance(text, str):
            raise InvalidMessage("text", "must be a string", describe(text))
        if "functionResponse" in part:
            raise InvalidMessage("functionResponse", "belongs in a user content, not a model content")
        if "functionCall" in part:
            function = part["functionCall"]
            fields = (
                {camel(key): value for key, value in function.items()}
                if isinstance(function, Mapping)
                else {}
            )
            for key in _VERTEX_PARTIAL_KEYS:
                if fields.get(key) is not None:
                    raise InvalidStream(
                        f"functionCall.{key}",
                        "is Vertex AI's streamed function-call arguments (streamFunctionCallArguments), "
                        "which the Gemini Developer API does not send and toolturns does not assemble: "
                        "turn it off to receive each call whole",
                        describe(fields[key]),
                    )
            # Checked as from_response checks it (and ids kept unique) now, so
            # that message() cannot fail later on a part fed long ago.
            read_call(part, ("stream",), self._ids, len(self.parts_of))
            self.parts_of.append(part)
            return
        thought = part.get("thought")
        plain = isinstance(text, str) and (
            part.keys() == {"text"} or (part.keys() == {"text", "thought"} and thought is True)
        )
        if not plain:
            self.parts_of.append(part)  # a signature, a thought flag of its own, code, media...
            return
        assert isinstance(text, str)
        if not text:
            return  # an empty plain part says nothing
        last = self.parts_of[-1] if self.parts_of else None
        if not isinstance(last, _Run) or last.thought != (thought is True):
            last = _Run(thought is True)
            self.parts_of.append(last)
        last.fragments.append(text)

    def _build(self) -> ChatMessage:
        parts = [part.part() if isinstance(part, _Run) else part for part in self.parts_of]
        seed = ("response", self._response_id, self._candidate)
        return Reader().model({"role": "model", "parts": parts}, seed, response=True)

    def _content(self) -> str:
        shown = self._shown_now()
        parts = self.parts_of
        last = parts[shown.parts] if len(parts) > shown.parts else None
        # The run of text that is the last part, still growing: the one part read again.
        if isinstance(last, _Run) and not last.thought:
            return shown.text + last.fragments.so_far()
        return shown.text

    def _partial_calls(self) -> tuple[PartialToolCall, ...]:
        return self._shown_now().calls

    def _shown_now(self) -> _Shown:
        """The last snapshot's view of the parts brought up to date: only the parts since are read."""
        shown = self._shown  # read first: it never claims more than what is read after it
        response_id = self._response_id  # read before the parts: set before them
        parts = self.parts_of
        end = len(parts)
        if end and isinstance(parts[end - 1], _Run):
            end -= 1  # a run of text last may grow yet
        if response_id != shown.response_id:  # every made-up id changes: read all parts again
            shown = _NOTHING_SHOWN._replace(response_id=response_id)
        elif end == shown.parts:
            return shown
        seed = ("response", response_id, self._candidate)
        texts, calls = [shown.text], []
        for position in range(shown.parts, end):
            part = parts[position]
            if isinstance(part, _Run):
                if not part.thought:
                    texts.append(part.fragments.so_far())
            elif "functionCall" in part:
                call = read_call(part, (*seed, position), {}, position)
                calls.append(PartialToolCall(call.id, call.name, call.arguments_json))
            else:
                texts.append(answer_text(part) or "")
        self._shown = shown = _Shown(response_id, end, "".join(texts), shown.calls + tuple(calls))
        return shown


def _rest_fields(value: Mapping[Any, Any], path: str, as_is: frozenset[str]) -> dict[Any, Any]:
    """A reported object (usage, prompt feedback) in the REST spelling, its counts (``as_is``) taken as they are."""
    try:
        return fields(value, "an object", InvalidStream, as_is=as_is)
    except MessageError as error:  # try, not `with at()`: this runs once per chunk
        raise error.with_prefix(path) from None

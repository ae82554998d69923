"""The provider codecs, Tool, streaming and parse_sse, as a type checker sees them.

Checked by ``mypy --strict`` and pyright (README.md in this folder). Every
example is a function, so importing this module runs none of them;
``test_examples.py`` runs them on purpose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import FrozenInstanceError
from typing import Any, Protocol, assert_type

from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidStream,
    InvalidTool,
    PartialToolCall,
    StreamSnapshot,
    Tool,
    ToolCall,
    anthropic,
    gemini,
    ollama,
    openai,
    parse_sse,
)

from ._cases import correct, gap, mistake

WEATHER = Tool(
    "get_weather",
    "Current weather",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


def _history() -> list[ChatMessage]:
    call = ToolCall("call_1", "get_weather", {"city": "Paris"})
    return [
        ChatMessage.system("Be brief."),
        ChatMessage.user("Weather in Paris?"),
        ChatMessage.assistant_tool_calls([call]),
        ChatMessage.tool_result("call_1", "18 C"),
    ]


def _openai_stream() -> openai.StreamAssembler:
    stream = openai.StreamAssembler()
    stream.feed({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"}}]})
    stream.feed({"choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": "stop"}]})
    return stream


class Stream(Protocol):
    """What provider-generic code needs of any codec's StreamAssembler."""

    @property
    def finish_reason(self) -> str | None: ...

    def feed(self, item: object) -> None: ...

    def message(self) -> ChatMessage: ...

    def snapshot(self) -> StreamSnapshot: ...


class Codec(Protocol):
    """The verbs every codec module shares; a module satisfies a Protocol."""

    def to_request(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[Tool] | None = ...
    ) -> dict[str, Any]: ...

    def from_request(self, body: object) -> list[ChatMessage]: ...

    def from_response(self, body: object) -> ChatMessage: ...

    def tool_definition(self, tool: Tool) -> dict[str, Any]: ...

    @property
    def StreamAssembler(self) -> Callable[[], Stream]: ...


# -- correct code ---------------------------------------------------------------------------------


@correct
def codecs_are_interchangeable() -> None:
    """The four codec modules satisfy one Protocol, so provider-generic code type-checks."""
    codecs: tuple[Codec, ...] = (openai, anthropic, gemini, ollama)
    history = _history()
    for codec in codecs:
        body = codec.to_request(history, tools=[WEATHER])
        assert_type(body, dict[str, Any])
        assert_type(codec.from_request(body), list[ChatMessage])
        assert_type(codec.tool_definition(WEATHER), dict[str, Any])
        assert_type(codec.StreamAssembler().snapshot(), StreamSnapshot)


@correct
def each_codec_returns_precise_types() -> None:
    """Each module's functions, with their own keyword options, return the documented types."""
    history = _history()
    body = openai.to_request(history, tools=[WEATHER], null_content=True)
    assert_type(body, dict[str, Any])
    assert_type(openai.from_request(body), list[ChatMessage])
    assert_type(
        openai.from_response({"choices": [{"message": {"role": "assistant", "content": "Hi"}}]}), ChatMessage
    )
    assert_type(openai.from_response({"role": "assistant", "content": "Hi"}, choice=0), ChatMessage)
    assert_type(anthropic.to_request(tuple(history), keep_invalid_arguments=True), dict[str, Any])
    assert_type(
        anthropic.from_response({"role": "assistant", "content": [{"type": "text", "text": "Hi"}]}),
        ChatMessage,
    )
    assert_type(gemini.to_request(history, tools=(WEATHER,), keep_invalid_arguments=False), dict[str, Any])
    answer = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}]}
    assert_type(gemini.from_response(answer, choice=0), ChatMessage)
    assert_type(ollama.to_request(history), dict[str, Any])
    assert_type(ollama.from_response({"message": {"role": "assistant", "content": "Hi"}}), ChatMessage)
    assert_type(ollama.tool_definition(WEATHER), dict[str, Any])


@correct
def stream_assembler_types() -> None:
    """feed takes any decoded item; message, snapshot, finish_reason, usage and ended are typed."""
    stream = _openai_stream()
    assert_type(stream.message(), ChatMessage)
    assert_type(stream.finish_reason, str | None)
    assert_type(stream.usage, dict[str, Any] | None)
    assert_type(stream.ended, bool)
    snapshot = stream.snapshot()
    assert_type(snapshot, StreamSnapshot)
    assert_type(snapshot.content, str)
    assert_type(snapshot.tool_calls, tuple[PartialToolCall, ...])
    assert_type(snapshot.finish_reason, str | None)
    assert_type(gemini.StreamAssembler(choice=0), gemini.StreamAssembler)
    if stream.finish_reason is not None:
        assert stream.finish_reason.upper() == "STOP"


@correct
def partial_tool_call_types() -> None:
    """A call still streaming may lack its id and name: both are Optional."""
    stream = openai.StreamAssembler()
    stream.feed({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
        "function": {"name": "get_weather", "arguments": '{"ci'}}]}}]})  # fmt: skip
    partial = stream.snapshot().tool_calls[0]
    assert_type(partial.id, str | None)
    assert_type(partial.name, str | None)
    assert_type(partial.arguments_json, str)
    assert partial.arguments_json == '{"ci'


@correct
def parse_sse_feeds_assemblers() -> None:
    """parse_sse takes lines and yields dicts, which any assembler's feed accepts."""
    items = parse_sse(['data: {"choices": [{"index": 0, "delta": {"content": "Hi"}}]}', "", "data: [DONE]"])
    assert_type(items, Iterator[dict[str, Any]])
    stream = openai.StreamAssembler()
    for item in items:
        stream.feed(item)
    assert stream.message().content == "Hi"


@correct
def tool_types() -> None:
    """Tool's fields and parameters are typed; from_dict reads any object."""
    assert_type(WEATHER.name, str)
    assert_type(WEATHER.description, str)
    assert_type(WEATHER.parameters_json, str)
    assert_type(WEATHER.parameters, dict[str, Any])
    assert_type(Tool("get_time"), Tool)
    assert_type(Tool.from_dict(openai.tool_definition(WEATHER)), Tool)


# -- mistakes the checkers flag ---------------------------------------------------------------------
# Each line carries the exact codes that flag it; an ignore that silences nothing fails the check.


@mistake(InvalidMessage)
def one_message_not_a_list() -> None:
    """to_request takes the conversation: a sequence of messages, even for one message."""
    message = ChatMessage.user("hi")
    # Mistake: a ChatMessage where a list of them is expected.
    openai.to_request(message)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(InvalidMessage)
def wire_dicts_as_messages() -> None:
    """Codecs take ChatMessage values; dicts are read with from_request or ChatMessage.from_dict."""
    # Mistake: OpenAI wire dicts given to to_request.
    openai.to_request([{"role": "user", "content": "hi"}])  # type: ignore[list-item]  # pyright: ignore[reportArgumentType]


@mistake(TypeError)
def tools_positional() -> None:
    """tools is keyword-only."""
    # Mistake: the tools passed by position.
    anthropic.to_request(_history(), [WEATHER])  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(InvalidTool)
def one_tool_not_a_list() -> None:
    """tools is a sequence of Tool, even for one tool."""
    # Mistake: a single Tool where a list of them is expected.
    gemini.to_request(_history(), tools=WEATHER)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(InvalidTool)
def tool_dicts_as_tools() -> None:
    """Tools are Tool values; definitions in a provider's shape are read with Tool.from_dict."""
    # Mistake: an OpenAI tool definition dict where a Tool is expected.
    openai.to_request(_history(), tools=[{"type": "function", "function": {"name": "get_weather"}}])  # type: ignore[list-item]  # pyright: ignore[reportArgumentType]


@mistake(TypeError)
def another_providers_option() -> None:
    """Options belong to one codec: null_content is OpenAI's."""
    # Mistake: OpenAI's null_content given to the Anthropic codec.
    anthropic.to_request(_history(), null_content=True)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(TypeError)
def another_providers_choice() -> None:
    """choice is OpenAI's (n > 1); Gemini names it candidate, Anthropic has none."""
    # Mistake: OpenAI's choice given to the Anthropic reader.
    anthropic.from_response({"role": "assistant", "content": []}, choice=1)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(TypeError)
def candidate_positional() -> None:
    """The Gemini assembler's candidate is keyword-only."""
    # Mistake: the candidate index passed by position.
    gemini.StreamAssembler(1)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(AttributeError)
def message_not_called() -> object:
    """message is a method: the assembled turn is ``stream.message()``."""
    stream = _openai_stream()
    # Mistake: reading the message method as if it were the message.
    return stream.message.content  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]


@mistake(AttributeError)
def finish_reason_before_the_end() -> object:
    """finish_reason is None until the provider says why it stopped."""
    stream = openai.StreamAssembler()
    # Mistake: using finish_reason without checking for None.
    return stream.finish_reason.upper()  # type: ignore[union-attr]  # pyright: ignore[reportOptionalMemberAccess]


@mistake(AttributeError)
def partial_call_arguments() -> object:
    """A streaming call has only its argument text so far, never decoded arguments."""
    stream = openai.StreamAssembler()
    stream.feed({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
        "function": {"name": "get_weather", "arguments": '{"ci'}}]}}]})  # fmt: skip
    # Mistake: decoded arguments asked of a PartialToolCall.
    return stream.snapshot().tool_calls[0].arguments  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]


@mistake(InvalidTool)
def schema_as_text() -> None:
    """parameters is a JSON-schema mapping, not JSON text."""
    # Mistake: the schema passed as JSON text.
    Tool("get_weather", parameters='{"type": "object"}')  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(FrozenInstanceError)
def assigning_a_tool_field() -> None:
    """Tools are frozen."""
    # Mistake: assigning to a field of a Tool.
    WEATHER.description = "Weather now"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]


# -- mistakes no checker flags today ----------------------------------------------------------------
# If a checker starts flagging one, the check fails here: move it up, with its codes.


@gap(InvalidMessage)
def reading_a_stream_as_a_response() -> None:
    """from_response takes ``object`` by design (untrusted data): a wrong value runs and is refused."""
    openai.from_response(_openai_stream())


@gap(InvalidStream)
def feeding_raw_text() -> None:
    """feed takes ``object`` by design: an undecoded SSE line runs and is refused."""
    openai.StreamAssembler().feed('data: {"choices": []}')

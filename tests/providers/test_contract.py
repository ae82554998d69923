"""Contract tests: every wire of the registry keeps the same promises.

Each test is parametrised over ``toolturns.providers.PROVIDERS``, every
registered entry, with the fake ``echo`` wire of ``tests/providers/fake``
registered for the length of this module. That the fake passes them shows a
wire needs nothing beyond its registry entry, a codec module and a rules
module; that ``check_transcript`` and the command line see it shows they go
through the registry. A provider added to the registry runs here without a
line changed, except for the per-provider tables below (recorded streams,
malformed bodies, whether the wire says a tool failed): a registered
provider without its entry fails ``test_every_provider_has_its_examples``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, Frozen, wire_examples
from tests.property import strategies as s
from tests.providers.anthropic.test_stream import equivalent_response as anthropic_whole
from tests.providers.fake import codec as echo_codec
from tests.providers.fake import rules as echo_rules
from tests.providers.ollama.test_stream import equivalent_response as ollama_whole
from tests.providers.openai.test_stream import equivalent_response as openai_whole
from toolturns import (
    ChatMessage,
    InvalidToolCall,
    InvalidTranscript,
    MessageError,
    Problem,
    Role,
    Tool,
    ToolCall,
    anthropic,
    check_transcript,
    gemini,
    ollama,
    openai,
    responses,
)
from toolturns._cli import main
from toolturns.providers import PROVIDERS, Codec, Provider, register, unregister
from toolturns.providers._rule import Rules
from toolturns.providers._stream import Assembler
from toolturns.providers.anthropic import rules as anthropic_rules
from toolturns.providers.gemini import rules as gemini_rules
from toolturns.providers.ollama import rules as ollama_rules
from toolturns.providers.openai import rules as openai_rules
from toolturns.providers.responses import rules as responses_rules

# -- the fake wire, registered for this module ----------------------------------------------

ECHO = Provider(
    name="echo",
    title="Echo",
    codec_module="tests.providers.fake.codec",
    rules_module="tests.providers.fake.rules",
    arguments="text",
)

# mypy checks the fake's modules against the protocols the registry promises, as it checks the
# built-in ones below.
_ECHO_CODEC: Codec = echo_codec
_ECHO_RULES: Rules = echo_rules
_BUILT_IN_CODECS: tuple[Codec, ...] = (openai, anthropic, gemini, ollama, responses)
_BUILT_IN_RULES: tuple[Rules, ...] = (
    openai_rules,
    anthropic_rules,
    gemini_rules,
    ollama_rules,
    responses_rules,
)

#: Every provider the tests run on: the registry as it is while this module runs.
NAMES = [*PROVIDERS, ECHO.name]


@pytest.fixture(scope="module", autouse=True)
def _echo_registered() -> Iterator[None]:
    """The echo wire is registered while this module runs, and only then."""
    register(ECHO)
    yield
    unregister(ECHO.name)


def codec_of(name: str) -> Codec:
    """The codec of a registered provider."""
    return PROVIDERS[name].codec


def through_json(body: Any) -> Any:
    """``body`` as it travels over HTTP: JSON text, read back."""
    return json.loads(json.dumps(body))


# -- what every wire carries ----------------------------------------------------------------

#: A transcript every wire carries exactly: a system prompt first, a call turn
#: with its results in call order, ids of at most 8 characters (the echo
#: wire's rule), JSON-object arguments, no is_error (OpenAI and Ollama drop it).
CLEAN = [
    ChatMessage.system("Be brief."),
    ChatMessage.user("Weather and time in Paris?"),
    ChatMessage.assistant_tool_calls(
        [
            ToolCall("call_1", "get_weather", {"city": "Paris", "days": [1, 2]}),
            ToolCall("call_2", "get_time"),
        ],
        "Checking.",
    ),
    ChatMessage.tool_result("call_1", "18 C"),
    ChatMessage.tool_result("call_2", "12:00"),
    ChatMessage.assistant("18 C at noon."),
]

TOOLS = [
    Tool("get_time"),
    Tool(
        "get_weather",
        "Current weather in a city",
        {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "array", "items": {"type": "integer"}},
            },
            "required": ["city"],
        },
    ),
    Tool(
        "search",
        parameters={"type": "object", "properties": {"q": {"type": "string", "description": "what"}}},
    ),
]

# -- the per-provider tables ------------------------------------------------------------------

#: Whether the wire says that a tool failed (``is_error``): OpenAI's and Ollama's have no field for it.
CARRIES_IS_ERROR = {
    "openai": False,
    "anthropic": True,
    "gemini": True,
    "ollama": False,
    "responses": False,
    "echo": True,
}

#: One malformed body per reader, and the native place its error must be reported at.
MALFORMED: dict[str, list[tuple[str, Any, str]]] = {
    "openai": [
        (
            "from_request",
            {
                "messages": [
                    {"role": "user", "content": "hi"},
                    {
                        "role": "assistant",
                        "tool_calls": [{"id": "c1", "function": {"name": "", "arguments": ""}}],
                    },
                ]
            },
            "messages[1].tool_calls[0].function.name",
        ),
        (
            "from_response",
            {"choices": [{"index": 0, "message": {"role": "assistant", "content": 5}}]},
            "choices[0]",
        ),
        (
            "read_tools",
            [{"type": "function", "function": {"name": "f", "title": "F"}}],
            "tools[0].function",
        ),
    ],
    "anthropic": [
        (
            "from_request",
            {"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": 5}]}]},
            "messages[0].content[0]",
        ),
        (
            "from_response",
            {"type": "message", "content": [{"type": "tool_use", "id": "t", "input": {}}]},
            "content[0]",
        ),
        ("read_tools", [{"name": "f", "input_schema": 5}], "tools[0].input_schema"),
    ],
    "gemini": [
        (
            "from_request",
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "x"}]},
                    {"role": "model", "parts": [{"functionCall": {"args": {}}}]},
                ]
            },
            "contents[1].parts[0].functionCall",
        ),
        (
            "from_response",
            {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"args": {}}}]}}]},
            "candidates[0].content.parts[0].functionCall",
        ),
        (
            "read_tools",
            [{"functionDeclarations": [{"name": "f"}, {"name": "g", "parameters": 5}]}],
            "tools[0].functionDeclarations[1]",
        ),
    ],
    "ollama": [
        (
            "from_request",
            {"messages": [{"role": "tool", "content": "12:00", "tool_name": "f"}]},
            "messages[0].tool_name",
        ),
        (
            "from_response",
            {"message": {"role": "assistant", "tool_calls": [{"function": {}}]}},
            "message.tool_calls[0]",
        ),
        (
            "read_tools",
            [{"type": "function", "function": {"name": "f", "parameters": 5}}],
            "tools[0].function",
        ),
    ],
    "responses": [
        (
            "from_request",
            {
                "input": [
                    {"type": "message", "role": "user", "content": "hi"},
                    {"type": "function_call", "call_id": "c1", "name": "", "arguments": "{}"},
                ]
            },
            "input[1].name",
        ),
        (
            "from_response",
            {"object": "response", "output": [{"type": "function_call", "call_id": 5, "name": "f"}]},
            "output[0]",
        ),
        ("read_tools", [{"type": "function", "name": "f", "title": "F"}], "tools[0].title"),
    ],
    "echo": [
        ("from_request", {"turns": [{"role": "user", "content": 5}]}, "turns[0].content"),
        ("from_response", {"turn": {"role": "user", "content": "hi"}}, "turn.role"),
        ("read_tools", [{"type": "function", "function": {"name": "not a name"}}], "tools[0].function.name"),
    ],
}


def _recorded(provider: str, *, leave_out: str = "") -> list[list[Any]]:
    """The recorded streams of a provider, as the items to feed (SSE envelopes opened, no [DONE])."""
    streams = []
    for example in wire_examples(provider, "stream_chunks"):
        if example["id"] == leave_out:
            continue
        items = [
            item["data"] if isinstance(item, dict) and "event" in item else item for item in example["data"]
        ]
        streams.append([item for item in items if item != "[DONE]"])
    return streams


def _anthropic_streams() -> list[tuple[list[Any], Any]]:
    # The truncated recording has no whole response: its input JSON never closes.
    recorded = _recorded("anthropic", leave_out="anthropic-stream-truncated-mid-json")
    return [(items, anthropic_whole(items)) for items in recorded]


def _gemini_streams() -> list[tuple[list[Any], Any]]:
    """Gemini's only recorded stream is Vertex-only (refused): streams written from responses here,
    one part per chunk and text cut in two, then a chunk with the finish reason, as Gemini streams."""
    recorded: list[Any] = wire_examples("gemini", "response_message")[0]["data"]["candidates"][0]["content"][
        "parts"
    ]
    made = []
    written: tuple[tuple[list[Any], str | None], ...] = (
        (recorded, None),
        (
            [
                {"text": "Let me check both."},
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                {"functionCall": {"name": "get_time", "args": {}, "id": "fc-1"}, "thoughtSignature": "c2ln"},
            ],
            "resp-1",
        ),
    )
    for parts, response_id in written:
        stamp = {} if response_id is None else {"responseId": response_id}
        pieces = []
        for part in parts:
            if set(part) == {"text"}:
                middle = len(part["text"]) // 2
                pieces += [{"text": part["text"][:middle]}, {"text": part["text"][middle:]}]
            else:
                pieces.append(part)
        items: list[Any] = [
            {"candidates": [{"content": {"role": "model", "parts": [piece]}, "index": 0}], **stamp}
            for piece in pieces
        ]
        items.append({"candidates": [{"finishReason": "STOP", "index": 0}], **stamp})
        whole = {
            "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
            **stamp,
        }
        made.append((items, whole))
    return made


def _responses_streams() -> list[tuple[list[Any], Any]]:
    """The recorded event streams that end with a response, each with that response. OpenAI
    encrypts a reasoning item again each time it writes it: the closing event's copy has another
    ``encrypted_content`` than the ``output_item.done`` the stream gave, which is the one kept."""
    made = []
    for path in sorted((DATA / "responses").glob("stream_*.json")):
        events: list[Any] = json.loads(path.read_text("utf-8"))["events"]
        whole = events[-1]["response"]
        if not whole["output"]:  # a failed response: nothing to assemble
            continue
        done = {e["item"]["id"]: e["item"] for e in events if e["type"] == "response.output_item.done"}
        output = [
            {**item, "encrypted_content": done[item["id"]]["encrypted_content"]}
            if "encrypted_content" in item
            else item
            for item in whole["output"]
        ]
        made.append((events, {**whole, "output": output}))
    return made


def _echo_streams() -> list[tuple[list[Any], Any]]:
    calls = [
        ToolCall("call_1", "get_weather", '{"city": "Paris"}').to_wire(),
        ToolCall("call_2", "get_time").to_wire(),
    ]
    items: list[Any] = [
        {"text": "Let me "},
        {"text": "check."},
        *({"call": call} for call in calls),
        {"done": True},
    ]
    return [
        (items, {"turn": {"role": "assistant", "content": "Let me check.", "tool_calls": calls}}),
        ([{"text": "Hi."}, {"done": True}], {"turn": {"role": "assistant", "content": "Hi."}}),
    ]


#: Complete streams, each with the whole (non-streamed) response it stands for.
STREAMS: dict[str, Callable[[], list[tuple[list[Any], Any]]]] = {
    "openai": lambda: [(items, openai_whole(items)) for items in _recorded("openai")],
    "anthropic": _anthropic_streams,
    "gemini": _gemini_streams,
    "ollama": lambda: [(items, ollama_whole(items)) for items in _recorded("ollama")],
    "responses": _responses_streams,
    "echo": _echo_streams,
}


# -- the registry ---------------------------------------------------------------------------


def test_the_tests_run_on_every_registered_provider() -> None:
    """The parametrisation is the registry as this module sees it: the built-in wires and the fake."""
    assert list(PROVIDERS) == NAMES
    assert PROVIDERS[ECHO.name] is ECHO
    loaded: tuple[object, object] = (codec_of(ECHO.name), PROVIDERS[ECHO.name].rules)
    assert loaded == (echo_codec, echo_rules)


def test_a_name_cannot_be_registered_twice() -> None:
    """Registering a second wire under a registered name raises a MessageError and keeps the first."""
    with pytest.raises(MessageError, match="must not be the name of a registered provider"):
        register(Provider("echo", "Other", "toolturns.openai", "toolturns.providers.openai.rules", "text"))
    assert PROVIDERS[ECHO.name] is ECHO


@pytest.mark.parametrize("name", NAMES)
def test_every_provider_has_its_examples(name: str) -> None:
    """A registered provider has an entry in each per-provider table of this module: a new wire must add them."""
    missing = [
        table
        for table, entries in (
            ("CARRIES_IS_ERROR", CARRIES_IS_ERROR),
            ("MALFORMED", MALFORMED),
            ("STREAMS", STREAMS),
        )
        if name not in entries
    ]
    assert not missing, f"provider {name!r} has no entry in {', '.join(missing)}: add one"
    assert {verb for verb, _, _ in MALFORMED[name]} == {"from_request", "from_response", "read_tools"}
    assert STREAMS[name](), f"provider {name!r} has no stream example"


# -- round trips ------------------------------------------------------------------------------


def _is_object_text(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


_TEXT = s.unicode_text(max_size=12)
# Filtered: unicode_text keeps surrogates lone by putting a space between a pair, which lengthens it.
_IDS = s.unicode_text(min_size=1, max_size=echo_rules.MAX_CALL_ID).filter(
    lambda call_id: len(call_id) <= echo_rules.MAX_CALL_ID
)
_NAMES = s.unicode_text(min_size=1, max_size=6)
_ARGUMENTS = st.one_of(st.none(), s.json_objects(deep=False), s.raw_argument_texts())
# Gemini sends an object's text as the object and gives it back compact.
_RESULT_TEXT = _TEXT.filter(lambda text: not _is_object_text(text))


@functools.cache
def carried_transcripts(*, is_error: bool) -> st.SearchStrategy[list[ChatMessage]]:
    """Tool loops every wire carries exactly (see the round-trip test), ``is_error`` set on some
    results where the wire has a field for it."""

    @st.composite
    def loops(draw: st.DrawFn) -> list[ChatMessage]:
        messages = (
            [ChatMessage.system(draw(s.unicode_text(min_size=1, max_size=12)))] if draw(st.booleans()) else []
        )
        used: set[str] = set()
        for _ in range(draw(st.integers(1, 2))):
            messages.append(ChatMessage.user(draw(_TEXT)))
            for _ in range(draw(st.integers(0, 2))):
                count = draw(st.integers(1, 3))
                ids = draw(
                    st.lists(
                        _IDS.filter(lambda i: i not in used), min_size=count, max_size=count, unique=True
                    )
                )
                used.update(ids)
                calls = [ToolCall(call_id, draw(_NAMES), draw(_ARGUMENTS)) for call_id in ids]
                messages.append(ChatMessage.assistant_tool_calls(calls, draw(_TEXT)))
                messages += [
                    ChatMessage.tool_result(
                        call.id, draw(_RESULT_TEXT), is_error=is_error and draw(st.booleans())
                    )
                    for call in calls
                ]
            if draw(st.booleans()):
                messages.append(ChatMessage.assistant(draw(_TEXT)))
        return messages

    return loops()


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=50)
@given(data=st.data())
def test_from_request_reads_back_what_to_request_writes(name: str, data: st.DataObject) -> None:
    """from_request(to_request(T)) == T, also through JSON text, for tool loops every wire carries: at most
    one system message, first and not empty (Anthropic and Gemini send the system prompt apart); no
    names, extra keys or provider data (only the OpenAI shape has fields for them); results right after
    their turn in call order (Gemini orders them so); result texts that are not JSON objects (Gemini
    sends those as objects and gives them back compact); call ids of at most 8 characters, unique in
    the transcript (the echo wire's rule); any arguments, malformed text sent with
    keep_invalid_arguments=True; is_error only where the wire carries it (CARRIES_IS_ERROR)."""
    codec = codec_of(name)
    messages = data.draw(carried_transcripts(is_error=CARRIES_IS_ERROR[name]))
    body = codec.to_request(messages, keep_invalid_arguments=True)
    assert codec.from_request(body) == messages
    assert codec.from_request(through_json(body)) == messages


@pytest.mark.parametrize("name", NAMES)
def test_tool_definitions_read_back(name: str) -> None:
    """read_tools gives back the tools to_request wrote under the body's "tools" key (also through
    JSON, one by one and all together), the body holds what tool_definition gives for each, and a
    body without tools has no "tools" key. (The command line reads a native body's tools from that
    key: a wire that kept them elsewhere would lose them there.)"""
    codec = codec_of(name)
    body = codec.to_request([], tools=TOOLS)
    assert codec.read_tools(body["tools"]) == TOOLS
    assert codec.read_tools(through_json(body)["tools"]) == TOOLS
    for tool in TOOLS:
        assert codec.read_tools(codec.to_request([], tools=[tool])["tools"]) == [tool]
        assert json.dumps(codec.tool_definition(tool))[1:-1] in json.dumps(body["tools"])
    assert "tools" not in codec.to_request([])


@pytest.mark.parametrize("name", NAMES)
def test_tool_definitions_given_as_read_only_mappings_read_back(name: str) -> None:
    """A definition given as a read-only mapping that is not a dict (as callers may pass where JSON
    objects go) reads as the same tool, or is refused with a MessageError; nothing else escapes."""
    codec = codec_of(name)
    for tool in TOOLS:
        [definition] = codec.to_request([], tools=[tool])["tools"]
        try:
            read = codec.read_tools([Frozen(**definition)])
        except MessageError:
            continue
        assert read == [tool]


# -- only MessageError escapes ------------------------------------------------------------------


def _read(reader: Callable[[Any], object], value: Any) -> object:
    """``reader(value)``, or the MessageError it raised; any other exception fails the test."""
    try:
        return reader(value)
    except MessageError as error:
        return error


def _readers(codec: Codec) -> dict[str, Callable[[Any], object]]:
    return {
        "from_request": codec.from_request,
        "from_response": codec.from_response,
        "read_tools": codec.read_tools,
    }


def _well_read(verb: str, got: object) -> bool:
    """What a reader gave is what it promises: a located MessageError, or messages, a turn, tools."""
    if isinstance(got, MessageError):
        return type(got.path) is str and bool(str(got))
    if verb == "from_response":
        return isinstance(got, ChatMessage) and got.role is Role.ASSISTANT
    item = ChatMessage if verb == "from_request" else Tool
    return type(got) is list and all(isinstance(one, item) for one in got)


def _stream_read(assembler: Assembler, items: list[Any]) -> object:
    """Feed ``items`` with a snapshot after each, then ask for the message; the first MessageError
    ends it (a snapshot then gives the view or a MessageError); any other exception fails the test."""
    try:
        for item in items:
            assembler.feed(item)
            assembler.snapshot()
    except MessageError as error:
        _read(lambda _: assembler.snapshot(), None)
        return error
    return _read(lambda _: assembler.message(), None)


_JUNK = st.one_of(s.arbitrary_json(max_leaves=6), s.hostile_values(max_leaves=6))


@functools.cache
def near_valid(name: str) -> dict[str, st.SearchStrategy[Any]]:
    """For each reader of a provider, its own valid input with one to three edits deep inside (junk or
    values that are not JSON): the request to_request writes, a recorded response, a stream."""
    codec = codec_of(name)
    body = codec.to_request(CLEAN, tools=TOOLS)
    streams = STREAMS[name]()
    return {
        "from_request": s.mutated(st.just(body), junk=_JUNK),
        "read_tools": s.mutated(st.just(body["tools"]), junk=_JUNK),
        "from_response": s.mutated(st.sampled_from([whole for _, whole in streams]), junk=_JUNK),
        "stream": s.mutated(st.sampled_from([items for items, _ in streams]), junk=_JUNK),
    }


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=80)
@given(value=_JUNK, data=st.data())
def test_readers_raise_only_message_errors(name: str, value: Any, data: st.DataObject) -> None:
    """Any JSON, Python values that are not JSON (NaN, sets, cycles, deep nesting), and the provider's
    own valid inputs with junk put deep inside: from_request, from_response, read_tools and a
    StreamAssembler fed item by item (with a snapshot after each) succeed or raise a MessageError."""
    codec = codec_of(name)
    edited = {verb: data.draw(strategy) for verb, strategy in near_valid(name).items()}
    for verb, reader in _readers(codec).items():
        for body in (value, [value], edited[verb]):
            assert _well_read(verb, _read(reader, body))
    for items in (value if isinstance(value, list) else [value], edited["stream"]):
        assert _well_read("from_response", _stream_read(codec.StreamAssembler(), items))


@pytest.mark.parametrize("name", NAMES)
def test_malformed_bodies_are_reported_at_their_native_place(name: str) -> None:
    """A malformed body raises a MessageError whose path is in the provider's own terms
    (``contents[1].parts[0]``, ``choices[0]``, ``turns[0]``), not toolturns' names."""
    codec = codec_of(name)
    readers = _readers(codec)
    for verb, body, native in MALFORMED[name]:
        with pytest.raises(MessageError) as caught:
            readers[verb](body)
        assert caught.value.path.startswith(native), f"{name}.{verb}: {caught.value}"
        assert str(caught.value).startswith(caught.value.path + ": ")


# -- streams ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_a_stream_assembles_into_its_whole_response_and_cuts_anywhere(name: str) -> None:
    """Each complete stream assembles into what from_response gives for the response sent whole and
    ends; the same stream cut after any item k >= 1 never fails to feed or snapshot, and its message()
    is an assistant turn that the snapshot agrees with, or a MessageError."""
    codec = codec_of(name)
    for items, whole in STREAMS[name]():
        full = codec.StreamAssembler()
        for item in items:
            full.feed(item)
        assert full.ended
        assert full.message() == codec.from_response(whole)
        for cut in range(1, len(items) + 1):
            stream = codec.StreamAssembler()
            for item in items[:cut]:
                stream.feed(item)
                stream.snapshot()
            snapshot = stream.snapshot()
            try:
                turn = stream.message()
            except MessageError:
                continue
            assert turn.role is Role.ASSISTANT
            assert snapshot.content == turn.text
            assert [partial.name for partial in snapshot.tool_calls] == [
                c.name for c in turn.tool_calls or ()
            ]


# -- check_transcript and the command line --------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_a_clean_transcript_has_no_problem_for_any_target(name: str) -> None:
    """check_transcript(CLEAN, target=X) is empty for every registered X, with and without its tools."""
    assert check_transcript(CLEAN, target=name) == []
    assert check_transcript(CLEAN, target=name, tools=TOOLS) == []
    assert check_transcript([m.to_wire() for m in CLEAN], target=name) == []


def test_an_unknown_target_lists_the_registered_ones() -> None:
    """An unknown target raises InvalidTranscript at ``target`` naming every registered provider, the fake too."""
    with pytest.raises(InvalidTranscript) as caught:
        check_transcript(CLEAN, target="nope")
    assert caught.value.path == "target"
    for name in NAMES:
        assert repr(name) in str(caught.value)


LONG_ID = [
    ChatMessage.user("Time?"),
    ChatMessage.assistant_tool_calls([ToolCall("call_123456789", "get_time")]),
    ChatMessage.tool_result("call_123456789", "12:00"),
]


def test_the_fake_wire_rule_is_reported_and_refused_through_the_registry() -> None:
    """check_transcript(target="echo") reports the echo rule (call ids of at most 8 characters), which no
    other target has, and the echo codec refuses the same call at the same path."""
    path = "messages[1].tool_calls[0].id"
    assert check_transcript(LONG_ID, target="echo") == [
        Problem(
            1,
            path,
            "call_id_too_long",
            "call id 'call_123456789' has 14 characters; echo call ids must be at most 8 characters",
        )
    ]
    assert check_transcript(LONG_ID) == []
    with pytest.raises(InvalidToolCall) as caught:
        codec_of("echo").to_request(LONG_ID)
    assert caught.value.path == path


def test_a_wire_whose_rules_have_no_tool_check_is_checked_as_before() -> None:
    """check_tool is optional in a rules module: the echo wire (registered as a plugin's would be) has
    none, and its tools are checked as before it came."""
    assert not hasattr(PROVIDERS[ECHO.name].rules, "check_tool")
    listed = Tool("add_tags", parameters={"type": "object", "properties": {"tags": {"type": "array"}}})
    assert check_transcript(LONG_ID[:1], tools=[listed], target="echo") == []


def test_the_command_line_sees_the_fake_wire(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``toolturns check --target echo`` reports the echo rule; ``convert --to echo`` skips that line."""
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"messages": [m.to_wire() for m in LONG_ID]}) + "\n", "utf-8")
    assert main(["check", "--target", "echo", str(path)]) == 1
    assert "messages[1].tool_calls[0].id: call_id_too_long: " in capsys.readouterr().out
    assert main(["convert", "--to", "echo", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}:1: messages[1].tool_calls[0].id: must be at most 8 characters" in captured.err


@pytest.mark.parametrize(("source", "target"), [(source, target) for source in NAMES for target in NAMES])
def test_convert_goes_from_any_provider_to_any_other(
    source: str, target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``toolturns convert --from S --to T`` turns S's request body (OpenAI's is the fine-tuning line)
    into exactly the body T's to_request writes for the same messages and tools."""
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(codec_of(source).to_request(CLEAN, tools=TOOLS)) + "\n", "utf-8")
    assert main(["convert", "--from", source, "--to", target, str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == [
        through_json(codec_of(target).to_request(CLEAN, tools=TOOLS))
    ]


@pytest.mark.parametrize("name", NAMES)
def test_an_argument_object_shaped_like_the_raw_text_wrapper_reads_back_unchanged(name: str) -> None:
    """A genuine argument object {"_toolturns_raw_arguments": "x"} comes back as that object, not as the text x."""
    call = ToolCall("call_1", "get_time", {"_toolturns_raw_arguments": "x"})
    history = [ChatMessage.user("Time?"), ChatMessage.assistant_tool_calls([call])]
    codec = codec_of(name)
    for keep_invalid in (False, True):
        [*_, turn] = codec.from_request(codec.to_request(history, keep_invalid_arguments=keep_invalid))
        assert turn.tool_calls is not None
        assert turn.tool_calls[0].arguments == {"_toolturns_raw_arguments": "x"}


@pytest.mark.parametrize("name", list(PROVIDERS))
def test_a_tool_key_no_wire_carries_is_refused_or_dropped_on_request(name: str) -> None:
    """A tool's extra keys go to no wire: tool_definition and to_request refuse them, located, and
    drop_unsupported writes the tool without them; strict is kept where the wire carries it."""
    codec = codec_of(name)
    tool = Tool("get_time", strict=True, extra={"title": "Time"})
    carries_strict = PROVIDERS[name].rules.CARRIES.strict
    first = "title" if carries_strict else "strict"
    with pytest.raises(MessageError) as caught:
        codec.tool_definition(tool)
    assert caught.value.path == first
    with pytest.raises(MessageError) as caught:
        codec.to_request([ChatMessage.user("Time?")], tools=[tool])
    assert caught.value.path == f"tools[0].{first}"
    assert f"{PROVIDERS[name].title} cannot carry" in caught.value.reason
    body = codec.to_request([ChatMessage.user("Time?")], tools=[tool], drop_unsupported=True)
    kept = Tool("get_time", strict=True if carries_strict else None)
    definition = codec.tool_definition(kept)
    # Gemini groups its declarations in one Tool object.
    assert body["tools"] == ([{"functionDeclarations": [definition]}] if name == "gemini" else [definition])
    assert codec.read_tools(body["tools"]) == [kept]
    problems = check_transcript([ChatMessage.user("Time?")], tools=[tool], target=name)
    assert {(problem.path, problem.code) for problem in problems} >= {(f"tools[0].{first}", "unsupported")}

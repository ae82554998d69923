"""Property tests of the Gemini codec: round trips of tool loops, OpenAI -> Gemini -> OpenAI,
parts replayed unchanged, and "only MessageError escapes" on arbitrary input."""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import wire_examples
from tests.property import strategies as s
from toolturns import ChatMessage, MessageError, Role, ToolCall, gemini, openai
from toolturns._json import value_key

# -- the documented normalisations, spelled out independently of the codec ----------------


def _reject(text: str) -> Any:
    raise ValueError(text)


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise ValueError(text)
    return number


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("duplicate key")
    return dict(pairs)


def result_text_read_back(text: str, is_error: bool) -> str:
    """What a result text reads back as: JSON-object text compact (unless it reads as a wrapper), else itself."""
    if is_error:
        return text
    try:
        value = json.loads(text, parse_constant=_reject, parse_float=_finite, object_pairs_hook=_unique)
    except (ValueError, RecursionError):
        return text
    if not isinstance(value, dict) or (len(value) == 1 and next(iter(value)) in ("result", "error")):
        return text
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def expected(transcript: list[ChatMessage]) -> list[ChatMessage]:
    """``transcript`` after the documented losses of a Gemini round trip.

    System and developer messages come first, as system; results come in the
    order of the calls they answer; JSON-object result text is compact.
    """
    system = [ChatMessage.system(m.content) for m in transcript if m.role in (Role.SYSTEM, Role.DEVELOPER)]
    out: list[ChatMessage] = []
    order: dict[str, int] = {}
    run: list[ChatMessage] = []  # the results of the last tool-call turn, as given
    for message in [*transcript, None]:
        if message is not None and message.role is Role.TOOL:
            assert message.tool_call_id is not None
            read_back = result_text_read_back(message.text, message.is_error)
            run.append(ChatMessage.tool_result(message.tool_call_id, read_back, is_error=message.is_error))
            continue
        out.extend(sorted(run, key=lambda m: order[m.tool_call_id or ""]))
        run = []
        if message is None or message.role in (Role.SYSTEM, Role.DEVELOPER):
            continue
        if message.tool_calls:
            order = {call.id: position for position, call in enumerate(message.tool_calls)}
        out.append(message)
    return system + out


# -- strategies ---------------------------------------------------------------------------

TEXT = s.unicode_text(max_size=12)
SIGNATURES = st.sampled_from(["c2lnLTE=", "QUJD", "x" * 40])
RESULT_TEXTS = st.one_of(
    TEXT,
    s.valid_object_texts(),
    s.non_object_json_texts(),
    st.sampled_from(['{"result": "x"}', '{"error": 1}', '{"a": 1, "a": 2}', '{"a": 1e400}', "{}", ""]),
)
ARGUMENTS = st.one_of(st.none(), s.json_objects(deep=False), s.raw_argument_texts())


@st.composite
def calls(draw: st.DrawFn) -> list[ToolCall]:
    """1-3 calls with ids unique in the turn; some carry a thoughtSignature."""
    ids = draw(st.lists(s.unicode_text(min_size=1, max_size=6), min_size=1, max_size=3, unique=True))
    made = []
    for call_id in ids:
        signature = draw(st.none() | SIGNATURES)
        data = None if signature is None else {"gemini": {"keys": {"thoughtSignature": signature}}}
        made.append(
            ToolCall(
                call_id, draw(s.unicode_text(min_size=1, max_size=6)), draw(ARGUMENTS), provider_data=data
            )
        )
    return made


@st.composite
def transcripts(draw: st.DrawFn) -> list[ChatMessage]:
    """Well-formed tool loops: system?, then rounds of user turns, tool-call steps with their results, assistant text."""
    messages: list[ChatMessage] = [
        draw(st.sampled_from([ChatMessage.system, ChatMessage.developer]))(draw(TEXT))
        for _ in range(draw(st.integers(0, 2)))
    ]
    for _ in range(draw(st.integers(1, 3))):
        messages.extend(ChatMessage.user(draw(TEXT)) for _ in range(draw(st.integers(1, 2))))
        for _ in range(draw(st.integers(0, 2))):
            turn = draw(calls())
            messages.append(ChatMessage.assistant_tool_calls(turn, draw(TEXT)))
            results = [
                ChatMessage.tool_result(call.id, draw(RESULT_TEXTS), is_error=draw(st.booleans()))
                for call in turn
            ]
            messages.extend(draw(st.permutations(results)))
        if draw(st.booleans()):
            messages.append(ChatMessage.assistant(draw(TEXT)))
    return messages


def through_json(body: Any) -> Any:
    """``body`` as it comes back from the wire."""
    return json.loads(json.dumps(body))


@given(transcripts())
@settings(max_examples=100)
def test_gemini_round_trip_keeps_the_transcript_up_to_documented_losses(
    transcript: list[ChatMessage],
) -> None:
    """from_request(to_request(T)) == T, after system-first, developer-as-system, call order and compact JSON results."""
    body = through_json(gemini.to_request(transcript, keep_invalid_arguments=True, drop_unsupported=True))
    assert gemini.from_request(body) == expected(transcript)


def call_facts(messages: list[ChatMessage]) -> list[tuple[str, str, tuple[bool, str]]]:
    """Every call's id, name and argument value, in order."""
    return [
        (call.id, call.name, value_key(call.arguments_json))
        for message in messages
        for call in message.tool_calls or ()
    ]


def result_facts(messages: list[ChatMessage]) -> list[tuple[str | None, str, bool]]:
    """Every result's id, text and error flag, in order."""
    return [(m.tool_call_id, m.text, m.is_error) for m in messages if m.role is Role.TOOL]


@given(transcripts(), st.none() | s.message_extras(), st.none() | s.unicode_text(min_size=1, max_size=4))
@settings(max_examples=80)
def test_openai_to_gemini_to_openai_keeps_ids_names_arguments_and_results(
    transcript: list[ChatMessage], extra: dict[str, Any] | None, name: str | None
) -> None:
    """OpenAI wire -> Gemini -> OpenAI wire keeps every call id, tool name, argument value and result text."""
    last = transcript[-1]
    if last.role in (Role.USER, Role.ASSISTANT) and not last.tool_calls:
        # name and extra are OpenAI-wire keys Gemini has no field for: dropped.
        transcript = [*transcript[:-1], ChatMessage(last.role, last.content, name=name, extra=extra)]
    wire = through_json(openai.to_request(transcript))
    read = openai.from_request(wire)
    back = gemini.from_request(
        through_json(gemini.to_request(read, keep_invalid_arguments=True, drop_unsupported=True))
    )
    # The OpenAI wire has no is_error (its documented loss): judge by what it read.
    want = expected(read)
    assert call_facts(back) == call_facts(transcript)
    assert result_facts(back) == result_facts(want)
    assert [m.content for m in back] == [m.content for m in want]
    returned = openai.to_request(back)["messages"]
    assert [message.get("name") for message in returned] == [None] * len(returned)


# -- model contents replay part for part -----------------------------------------------------

PLAIN_TEXT = st.builds(lambda text: {"text": text}, TEXT)
THOUGHT = st.builds(
    lambda text, signature: {
        "text": text,
        "thought": True,
        **({} if signature is None else {"thoughtSignature": signature}),
    },
    TEXT,
    st.none() | SIGNATURES,
)
SIGNED_TEXT = st.builds(
    lambda text, signature: {"text": text, "thoughtSignature": signature}, TEXT, SIGNATURES
)
CODE = st.builds(lambda code: {"executableCode": {"language": "PYTHON", "code": code}}, TEXT)
FUNCTION_CALL = st.builds(
    lambda name, args, signature: {
        "functionCall": {"name": name, "args": args},
        **({} if signature is None else {"thoughtSignature": signature}),
    },
    s.unicode_text(min_size=1, max_size=6),
    s.json_objects(deep=False),
    st.none() | SIGNATURES,
)


@st.composite
def model_contents(draw: st.DrawFn) -> dict[str, Any]:
    """A model content of any mix of parts; some calls carry ids (unique within the content)."""
    parts = draw(
        st.lists(
            st.one_of(PLAIN_TEXT, PLAIN_TEXT, THOUGHT, SIGNED_TEXT, CODE, FUNCTION_CALL),
            min_size=1,
            max_size=6,
        )
    )
    for position, part in enumerate(parts):
        if "functionCall" in part and draw(st.booleans()):
            part["functionCall"]["id"] = f"fc-{position}"
    return {"role": "model", "parts": parts}


@given(model_contents(), st.none() | s.unicode_text(max_size=8))
@settings(max_examples=100)
def test_every_part_of_a_response_goes_back_unchanged(
    content: dict[str, Any], response_id: str | None
) -> None:
    """from_response then to_request sends the model content back part for part; reading it again changes nothing."""
    body: dict[str, Any] = {"candidates": [{"content": content}]}
    if response_id is not None:
        body["responseId"] = response_id
    turn = gemini.from_response(through_json(body))
    assert turn.content == "".join(
        part["text"] for part in content["parts"] if "text" in part and part.get("thought") is not True
    )
    request = through_json(gemini.to_request([ChatMessage.user("go"), turn]))
    assert request["contents"][1] == content
    again = gemini.from_request(request)
    assert gemini.to_request(again) == request


# -- only MessageError escapes ----------------------------------------------------------------


def read(reader: Callable[[Any], Any], data: Any) -> None:
    """Call ``reader(data)``: it returns, or raises a MessageError; anything else fails the test."""
    with contextlib.suppress(MessageError):
        reader(data)


def _fixed_bodies() -> list[Any]:
    """Valid bodies built once: the golden examples and a tool loop with every kind of part."""
    examples = [
        e["data"]
        for e in wire_examples("gemini")
        if e["kind"] != "stream_chunks" and "expect_status" not in e
    ]
    replay = {
        "role": "model",
        "parts": [
            {"text": "Thinking.", "thought": True, "thoughtSignature": "QUJD"},
            {"text": "Checking.", "thoughtSignature": "c2ln"},
            {"executableCode": {"language": "PYTHON", "code": "1"}},
            {
                "functionCall": {"name": "f", "args": {"x": [1, {"y": None}]}, "id": "a"},
                "thoughtSignature": "c2lnMQ==",
            },
            {"functionCall": {"name": "g", "args": {"_toolturns_raw_arguments": "{bad"}}},
        ],
    }
    loop = [
        {"role": "user", "parts": [{"text": "go"}]},
        replay,
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "f", "response": {"result": "1"}, "id": "a"}},
                {"functionResponse": {"name": "g", "response": {"error": {"code": 1}}}},
                {"text": "thanks"},
            ],
        },
    ]
    response = {"candidates": [{"content": replay, "finishReason": "STOP"}], "responseId": "r"}
    return [
        *examples,
        loop,
        {"systemInstruction": {"parts": [{"text": "S"}]}, "contents": loop},
        response,
        replay,
    ]


@st.composite
def _generated_bodies(draw: st.DrawFn) -> Any:
    content = draw(model_contents())
    return draw(
        st.sampled_from([{"candidates": [{"content": content}]}, [{"role": "user", "parts": []}, content]])
    )


# Mostly fixed bodies: building a transcript for every mutation made this file slow.
VALID_BODIES = st.one_of(st.sampled_from(_fixed_bodies()), _generated_bodies())
GEMINI_KEYS = st.sampled_from(
    [
        "contents",
        "parts",
        "role",
        "text",
        "functionCall",
        "functionResponse",
        "name",
        "args",
        "id",
        "response",
        "result",
        "error",
        "thought",
        "thoughtSignature",
        "candidates",
        "content",
        "systemInstruction",
        "system_instruction",
        "model",
        "user",
        "function",
        "_toolturns_raw_arguments",
        "generated_id",
        "function_call",
        "function_response",
        "thought_signature",
        "response_id",
    ]
)
GEMINI_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), TEXT, st.sampled_from(["model", "user", "function"])),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(GEMINI_KEYS, children, max_size=4),
    max_leaves=12,
)


@given(
    st.one_of(
        s.arbitrary_json(), GEMINI_JSON, s.mutated(VALID_BODIES), s.mutated(VALID_BODIES, junk=GEMINI_JSON)
    )
)
@settings(max_examples=400)
def test_readers_raise_only_message_errors(data: Any) -> None:
    """Arbitrary JSON and mutated near-valid bodies into from_request/from_response raise nothing but MessageError."""
    read(gemini.from_request, data)
    read(gemini.from_response, data)


@given(s.mutated(VALID_BODIES, junk=s.hostile_values()))
@settings(max_examples=60)
def test_readers_raise_only_message_errors_on_values_that_are_not_json(data: Any) -> None:
    """Python values that are not JSON (NaN, sets, circular lists...) inside a body raise only MessageError."""
    read(gemini.from_request, data)
    read(gemini.from_response, data)


@given(st.lists(s.chat_messages(with_provider_data=True), max_size=6), st.booleans())
@settings(max_examples=100)
def test_to_request_raises_only_message_errors(messages: list[ChatMessage], keep: bool) -> None:
    """Any list of valid messages (any order, any provider_data) gives a body or a MessageError."""
    try:
        body = gemini.to_request(messages, keep_invalid_arguments=keep)
    except MessageError:
        return
    json.dumps(body, allow_nan=False)

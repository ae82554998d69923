"""Round trips on the Responses wire, and from the Chat wire through it."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pydantic
from hypothesis import assume, given
from hypothesis import strategies as st
from openai.types.responses import ResponseInputParam

from tests.property.strategies import arbitrary_json, raw_argument_texts, unicode_text
from toolturns import ChatMessage, FilePart, ImagePart, MessageError, TextPart, ToolCall, openai, responses
from toolturns.providers import PROVIDERS

_PNG = "iVBORw0KGgo="
_IDS = st.integers(0, 10**6).map(lambda number: f"call_{number}")
_NAMES = st.from_regex(r"[a-zA-Z0-9_-]{1,12}", fullmatch=True)
_DETAILS = st.sampled_from([None, "low", "high", "auto"])

_texts = st.builds(TextPart, unicode_text())
_images = st.one_of(
    st.builds(lambda detail: ImagePart(url="https://example.com/a.png", detail=detail), _DETAILS),
    st.builds(lambda detail: ImagePart(data=_PNG, media_type="image/png", detail=detail), _DETAILS),
)
_files = st.sampled_from(
    [
        FilePart(data="JVBERi0=", media_type="application/pdf", filename="a.pdf"),
        FilePart(file_id="file-abc"),
        FilePart(url="https://example.com/b.pdf"),
    ]
)
_input_content = st.one_of(
    unicode_text(), st.lists(st.one_of(_texts, _images, _files), min_size=1, max_size=3)
)


@st.composite
def _exchange(draw: st.DrawFn) -> list[ChatMessage]:
    """An assistant turn with calls, and a result for some of them (in any order)."""
    ids = draw(st.lists(_IDS, min_size=1, max_size=3, unique=True))
    calls = [ToolCall(call_id, draw(_NAMES), draw(raw_argument_texts())) for call_id in ids]
    content = draw(st.one_of(st.just(""), unicode_text(min_size=1), st.lists(_texts, min_size=1, max_size=2)))
    turn = ChatMessage.assistant_tool_calls(calls, content=content)
    answered = draw(st.permutations(ids))[: draw(st.integers(0, len(ids)))]
    return [turn, *(ChatMessage.tool_result(call_id, draw(_input_content)) for call_id in answered)]


_openers = st.one_of(
    st.builds(ChatMessage.user, _input_content),
    st.builds(ChatMessage.system, _input_content),
    st.builds(ChatMessage.developer, _input_content),
)
_answers = st.builds(
    ChatMessage.assistant, st.one_of(unicode_text(), st.lists(_texts, min_size=1, max_size=2))
)


@st.composite
def transcripts(draw: st.DrawFn) -> list[ChatMessage]:
    """What the wire carries. A turn of calls follows a message that is not the assistant's:
    after an assistant turn it would be read as part of that turn (its calls follow its text)."""
    messages: list[ChatMessage] = []
    for _ in range(draw(st.integers(0, 4))):
        messages.append(draw(_openers))
        if draw(st.booleans()):
            messages.extend(draw(_exchange()))
        if draw(st.booleans()):
            messages.append(draw(_answers))
    return messages


def _walked(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _walked(item) for key, item in value.items()}
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        return value
    return [_walked(item) for item in value]


@given(transcripts())
def test_from_request_reverses_to_request(messages: list[ChatMessage]) -> None:
    body = responses.to_request(messages)
    assert responses.from_request(body) == messages


@given(transcripts())
def test_what_to_request_writes_is_what_the_sdk_takes(messages: list[ChatMessage]) -> None:
    items = responses.to_request(messages)["input"]
    # The SDK's image type requires a detail the API defaults to "auto": give it one to check the rest.
    for item in items:
        for key in ("content", "output"):
            parts = item.get(key)
            for part in parts if isinstance(parts, list) else ():
                if part["type"] == "input_image":
                    part.setdefault("detail", "auto")
    assistant_parts = [
        item for item in items if item.get("role") == "assistant" and isinstance(item["content"], list)
    ]
    checked = [item for item in items if item not in assistant_parts]  # output_text lists: no request type
    assert _walked(pydantic.TypeAdapter(ResponseInputParam).validate_python(checked)) == checked


@given(transcripts())
def test_a_chat_transcript_keeps_every_id_name_argument_result_and_part(messages: list[ChatMessage]) -> None:
    try:
        chat = openai.from_request(openai.to_request(messages))
    except MessageError:  # a part the Chat wire cannot carry (a file by URL, images in system turns)
        assume(False)
    assert openai.from_request(openai.to_request(responses.from_request(responses.to_request(chat)))) == chat


@given(arbitrary_json())
def test_only_our_errors_escape_the_readers(value: object) -> None:
    for reader in (
        responses.from_request,
        responses.from_response,
        responses.read_tools,
        responses.finish_reason,
    ):
        with contextlib.suppress(MessageError):
            reader(value)


#: In every reasoning item's id, summary and encrypted content: no other wire's body may hold it.
_SECRET = "rs-secret-"


@st.composite
def _reasoning_responses(draw: st.DrawFn) -> dict[str, Any]:
    """A response whose output has reasoning items (encrypted, with a summary) before its calls, and
    text before the calls (a message after them is written before them: docs/providers.md)."""
    text = [{"type": "output_text", "text": draw(unicode_text(min_size=1)), "annotations": []}]
    message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": text}
    output: list[dict[str, Any]] = []
    for number in range(draw(st.integers(1, 3))):
        summary = [{"type": "summary_text", "text": f"{_SECRET}{draw(unicode_text())}"}]
        output.append(
            {
                "type": "reasoning",
                "id": f"rs_{_SECRET}{number}",
                "summary": summary,
                "encrypted_content": _SECRET,
            }
        )
        if number == 0 and draw(st.booleans()):
            output.append(message)  # a preamble after the first reasoning item
        output.append(
            {
                "type": "function_call",
                "id": f"fc_{number}",
                "call_id": f"call_{number}",
                "name": draw(_NAMES),
                "arguments": draw(st.sampled_from(['{"city": "Paris"}', "{}", '{"n": [1, 2]}'])),
                "status": "completed",
            }
        )
    if message not in output:
        output.insert(0, message)
    return {"object": "response", "status": "completed", "output": output}


@given(_reasoning_responses())
def test_reasoning_never_leaks_into_another_wire(response: dict[str, Any]) -> None:
    """A turn read from a response with reasoning goes to every other wire with its calls and text,
    and without a trace of its reasoning items (ids, summaries, encrypted content); sent back to
    this wire, every output item is there again, in its order."""
    turn = responses.from_response(response)
    results = [ChatMessage.tool_result(call.id, "ok") for call in turn.tool_calls or ()]
    history = [ChatMessage.user("Weather?"), turn, *results]
    assert responses.to_request(history)["input"][1 : 1 + len(response["output"])] == response["output"]
    for name in PROVIDERS:
        if name == "responses":
            continue
        body = PROVIDERS[name].codec.to_request(history)
        assert _SECRET not in json.dumps(body), name
        (again,) = [message for message in PROVIDERS[name].codec.from_request(body) if message.tool_calls]
        assert [(call.name, call.arguments) for call in again.tool_calls or ()] == [
            (call.name, call.arguments) for call in turn.tool_calls or ()
        ], name
        assert again.text == turn.text, name

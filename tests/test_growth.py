"""Time grows linearly with the input wherever results are matched to calls, and in trim.

A turn of thousands of parallel calls (a hostile dataset line, a model run
amok) must cost in proportion: each test times an input and four times that
input (``tests/growth.py``), never an absolute time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.growth import assert_linear
from toolturns import ChatMessage, ToolCall, check_transcript, gemini, ollama, trim
from toolturns._cli import main as toolturns_main
from toolturns.providers import PROVIDERS

# Parallel calls in the smaller of the two inputs (the larger has four times as many).
CALLS = 1000


def parallel(count: int, *, name: Callable[[int], str] = lambda _: "get_weather") -> list[ChatMessage]:
    """A question, one assistant turn of ``count`` parallel calls, and their results in call order."""
    calls = [ToolCall(f"call_{number}", name(number), {"city": f"c{number}"}) for number in range(count)]
    return [
        ChatMessage.user("Weather everywhere?"),
        ChatMessage.assistant_tool_calls(calls),
        *(ChatMessage.tool_result(f"call_{number}", f"{number} C") for number in range(count)),
        ChatMessage.assistant("Done."),
    ]


# -- check_transcript -----------------------------------------------------------------


def test_check_transcript_matches_results_to_calls_in_linear_time() -> None:
    def prepare(count: int) -> Callable[[], object]:
        messages = parallel(count)
        return lambda: check_transcript(messages)

    assert check_transcript(parallel(3)) == []
    assert_linear(prepare, CALLS)


def test_check_transcript_matches_results_that_name_their_function_in_linear_time() -> None:
    # Older OpenAI examples name the function on each result: each name is
    # compared with the answered call's (result_name_mismatch).
    def dicts(count: int) -> list[dict[str, Any]]:
        messages = [message.to_wire() for message in parallel(count)]
        for message in messages[2:-1]:
            message["name"] = "get_weather"
        return messages

    def prepare(count: int) -> Callable[[], object]:
        messages = dicts(count)
        return lambda: check_transcript(messages)

    renamed = dicts(3)
    renamed[3]["name"] = "get_time"
    assert [(p.path, p.code) for p in check_transcript(renamed)] == [
        ("messages[3].name", "result_name_mismatch")
    ]
    assert_linear(prepare, CALLS)


def test_check_transcript_of_results_that_answer_nothing_in_linear_time() -> None:
    # Every result of the second turn answers a call of the first: each is a
    # problem, found without scanning the turn's calls.
    def messages(count: int) -> list[ChatMessage]:
        first = parallel(count)
        second = ChatMessage.assistant_tool_calls([ToolCall(f"other_{n}", "get_time") for n in range(count)])
        return [*first[:2], ChatMessage.user("Never mind."), second, *first[2:-1]]

    def prepare(count: int) -> Callable[[], object]:
        transcript = messages(count)
        return lambda: check_transcript(transcript)

    codes = {problem.code for problem in check_transcript(messages(3))}
    assert codes == {"unanswered_call", "late_result"}
    assert_linear(prepare, CALLS)


@pytest.mark.parametrize("target", sorted(PROVIDERS))
def test_check_transcript_for_a_target_in_linear_time(target: str) -> None:
    # A target adds its rules and its codec's to_request, which match results too.
    def prepare(count: int) -> Callable[[], object]:
        messages = parallel(count)
        return lambda: check_transcript(messages, target=target)

    assert check_transcript(parallel(3), target=target) == []
    assert_linear(prepare, CALLS)


def test_toolturns_check_of_a_line_with_thousands_of_parallel_calls_in_linear_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def prepare(count: int) -> Callable[[], object]:
        path = tmp_path / f"{count}.jsonl"
        line = {"messages": [message.to_wire() for message in parallel(count)]}
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
        return lambda: toolturns_main(["check", "--quiet", "--target", "gemini", str(path)])

    assert prepare(3)() == 0
    assert_linear(prepare, CALLS)
    capsys.readouterr()


# -- the codecs -------------------------------------------------------------------------


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_to_request_matches_results_to_calls_in_linear_time(provider: str) -> None:
    codec = PROVIDERS[provider].codec

    def prepare(count: int) -> Callable[[], object]:
        messages = parallel(count)
        return lambda: codec.to_request(messages)

    assert codec.from_request(codec.to_request(parallel(3))) == parallel(3)
    assert_linear(prepare, CALLS)


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_from_request_matches_results_to_calls_in_linear_time(provider: str) -> None:
    codec = PROVIDERS[provider].codec

    def prepare(count: int) -> Callable[[], object]:
        body = codec.to_request(parallel(count))
        return lambda: codec.from_request(body)

    assert_linear(prepare, CALLS)


def gemini_body_without_ids(count: int) -> dict[str, Any]:
    """Calls and responses without ids, all of one name: each response answers the first unanswered call."""
    body = gemini.to_request(parallel(count))
    for content in body["contents"][1:3]:
        for part in content["parts"]:
            next(iter(part.values())).pop("id")
    return body


def test_gemini_from_request_matches_responses_by_name_in_linear_time() -> None:
    def prepare(count: int) -> Callable[[], object]:
        body = gemini_body_without_ids(count)
        return lambda: gemini.from_request(body)

    messages = gemini.from_request(gemini_body_without_ids(3))
    assert messages[1].tool_calls is not None
    assert [m.tool_call_id for m in messages[2:5]] == [call.id for call in messages[1].tool_calls]
    assert_linear(prepare, CALLS)


def ollama_body_by_tool_name(count: int) -> dict[str, Any]:
    """Calls without ids, all of one name, and results that give only ``tool_name``."""
    body = ollama.to_request(parallel(count))
    for call in body["messages"][1]["tool_calls"]:
        call.pop("id")
    for message in body["messages"][2:-1]:
        message.pop("tool_call_id")
        message["tool_name"] = "get_weather"
    return body


def test_ollama_from_request_matches_results_by_tool_name_in_linear_time() -> None:
    def prepare(count: int) -> Callable[[], object]:
        body = ollama_body_by_tool_name(count)
        return lambda: ollama.from_request(body)

    messages = ollama.from_request(ollama_body_by_tool_name(3))
    assert messages[1].tool_calls is not None
    assert [m.tool_call_id for m in messages[2:5]] == [call.id for call in messages[1].tool_calls]
    assert_linear(prepare, CALLS)


# -- trim -----------------------------------------------------------------------------


def test_trim_starts_on_a_user_turn_in_linear_time() -> None:
    # Every kept unit before the one user turn is dropped by start_on_user.
    def history(count: int) -> list[ChatMessage]:
        return [ChatMessage.assistant(f"{number}") for number in range(count)] + [ChatMessage.user("Hi")]

    def prepare(count: int) -> Callable[[], object]:
        messages = history(count)
        return lambda: trim(messages, max_messages=count)

    assert trim(history(3), max_messages=3) == [ChatMessage.user("Hi")]
    assert_linear(prepare, 20 * CALLS)

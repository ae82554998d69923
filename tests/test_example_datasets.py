"""The bundled datasets: examples/transcripts.jsonl is clean for every target, and
examples/broken.jsonl shows every problem code the command can report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolturns import check_transcript
from toolturns._cli import main
from toolturns.providers import PROVIDERS

TARGETS = tuple(PROVIDERS)

EXAMPLES = Path(__file__).parent.parent / "examples"
CLEAN = EXAMPLES / "transcripts.jsonl"
BROKEN = EXAMPLES / "broken.jsonl"

#: Every code docs/transcripts.md and docs/cli.md list; ``not_convertible`` and the Responses
#: codes ``reasoning_without_following``, ``call_without_reasoning`` and ``duplicate_item`` can
#: only come from ChatMessage values built in code (provider_data), never from a JSONL line,
#: and ``line_too_long`` needs a line over ``--max-line-bytes`` (64 MiB by default).
CODES = {
    "invalid_json",
    "not_a_transcript",
    "duplicate_key",
    "invalid_message",
    "legacy_function_call",
    "result_name_mismatch",
    "unanswered_call",
    "orphan_result",
    "duplicate_result",
    "late_result",
    "result_before_call",
    "duplicate_call_id",
    "invalid_tool",
    "duplicate_tool",
    "unknown_tool",
    "empty_transcript",
    "no_conversation",
    "invalid_tool_name",
    "id_too_long",
    "invalid_name",
    "too_many_tools",
    "array_without_items",
    "schema_top_level",
    "strict_schema",
    "invalid_call_id",
    "invalid_arguments",
    "inexact_arguments",
    "empty_text",
    "trailing_whitespace",
    "result_count_mismatch",
    "misplaced_call_turn",
    "unsupported",
    "unsupported_part",
    "unsupported_media_type",
    "media_type_mismatch",
    "missing_media_type",
    "unsupported_source",
    "unsupported_field",
    "invalid_detail",
    "missing_filename",
    "part_order",
}


@pytest.mark.parametrize("target", [None, *TARGETS])
def test_the_sample_dataset_is_clean(target: str | None) -> None:
    """The README's main job exits 0: every line of the sample checks clean, for every target."""
    lines = CLEAN.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 40
    for line in lines:
        body = json.loads(line)
        assert check_transcript(body["messages"], tools=body["tools"], target=target) == []
    assert main(["check", "--quiet", *(["--target", target] if target else []), str(CLEAN)]) == 0


def _reported(capsys: pytest.CaptureFixture[str], *options: str) -> dict[int, set[str]]:
    """The codes `toolturns check` reports on broken.jsonl, by line number."""
    assert main(["check", "--format", "json", *options, str(BROKEN)]) == 1
    found: dict[int, set[str]] = {}
    for row in capsys.readouterr().out.splitlines():
        problem = json.loads(row)
        found.setdefault(problem["line"], set()).add(problem["code"])
    return found


def test_broken_dataset_shows_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    """Each line shows the code its `shows` key names, with the target it names, and together they show all."""
    by_target = {
        target: _reported(capsys, *(["--target", target] if target else [])) for target in [None, *TARGETS]
    }
    shown = set()
    for number, text in enumerate(BROKEN.read_text(encoding="utf-8").splitlines(), 1):
        try:
            shows = json.loads(text).get("shows")
        except ValueError:
            shows = {"code": "invalid_json", "target": None}
        if shows is None:
            shows = {"code": "not_a_transcript", "target": None}
        assert shows["code"] in by_target[shows["target"]][number], (number, shows)
        shown.add(shows["code"])
    assert shown == CODES

"""Regression tests for what the fuzz targets in fuzz/ found: one test per finding,
each with the smallest input that showed it (fuzz/README.md says how a finding
becomes one of these)."""

from __future__ import annotations

from toolturns import PartialToolCall, anthropic


def test_anthropic_snapshot_shows_arguments_given_whole_in_the_block_start() -> None:
    """A tool_use block whose content_block_start carries its input whole (no partial_json
    follows) shows that input in the live view, as message() gives it, not an empty text."""
    stream = anthropic.StreamAssembler()
    stream.feed({"type": "message_start", "message": {"role": "assistant", "content": []}})
    stream.feed(
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {
                "type": "tool_use",
                "id": "toolu_1",
                "name": "get_weather",
                "input": {"city": "Paris"},
            },
        }
    )
    assert stream.snapshot().tool_calls == (PartialToolCall("toolu_1", "get_weather", '{"city":"Paris"}'),)
    (call,) = stream.message().tool_calls or ()
    assert call.arguments_json == '{"city":"Paris"}'

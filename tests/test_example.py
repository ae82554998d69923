"""The README's main job: the offline tool loop in examples/tool_loop.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

LOOP = Path(__file__).parent.parent / "examples" / "tool_loop.py"


def _requests(output: str) -> list[list[dict[str, Any]]]:
    """The message lists the loop printed, one per request."""
    decoder = json.JSONDecoder()
    requests = []
    for block in output.split("--- request ")[1:]:
        body = block[block.index("\n") + 1 :]
        requests.append(decoder.raw_decode(body)[0])
    return requests


def test_tool_loop_runs_to_a_final_answer() -> None:
    """The loop answers all three parallel calls, the malformed one with an error, and ends."""
    run = subprocess.run([sys.executable, str(LOOP)], capture_output=True, text=True, check=False, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    first, second = _requests(run.stdout)
    assert [m["role"] for m in first] == ["system", "user"]
    assistant, *results = second[2:]
    assert [call["function"]["arguments"] for call in assistant["tool_calls"]] == [
        '{"city": "Paris"}',
        "{}",  # the model sent "" for "no arguments"
        '{"amount": 20, "source": "EU',  # malformed text is replayed byte-for-byte
    ]
    assert [r["tool_call_id"] for r in results] == ["call_weather", "call_time", "call_money"]
    assert json.loads(results[0]["content"]) == {"city": "Paris", "temperature": 18, "unit": "celsius"}
    assert results[1]["content"].endswith("UTC")
    assert results[2]["content"].startswith(
        "convert_currency was not run: its arguments are not a JSON object: must be valid JSON"
    )
    assert "--- final answer ---\nIt is 18 °C in Paris." in run.stdout

"""``toolturns convert`` and ``check`` with content parts: carried where a wire holds them, refused otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolturns import ChatMessage, ImagePart, TextPart, ToolCall
from toolturns import _cli as cli
from toolturns.providers import PROVIDERS

PNG = "iVBORw0KGgo="
ASK = ChatMessage.user([ImagePart(data=PNG, media_type="image/png"), TextPart("What is in this chart?")])
CALL = ChatMessage.assistant_tool_calls([ToolCall("call_1", "screenshot")])
SHOT = ChatMessage.tool_result("call_1", [ImagePart(data=PNG, media_type="image/png")])
ANSWER = ChatMessage.assistant("A rising line.")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], list[str]]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def _file(tmp_path: Path, *transcripts: list[ChatMessage]) -> str:
    path = tmp_path / "parts.jsonl"
    path.write_text("".join(json.dumps({"messages": [m.to_wire() for m in t]}) + "\n" for t in transcripts))
    return str(path)


@pytest.mark.parametrize("target", list(PROVIDERS))
def test_convert_carries_a_user_image_to_every_wire(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    """An OpenAI line with an image in the user turn converts to every wire, and reads back the same."""
    history = [ASK, ANSWER]
    status, out, err = _run(capsys, "convert", "--to", target, _file(tmp_path, history))
    assert status == 0, err
    (body,) = [json.loads(text) for text in out]
    assert PROVIDERS[target].codec.from_request(body) == history


@pytest.mark.parametrize("target", list(PROVIDERS))
def test_convert_carries_a_screenshot_in_a_tool_result_where_the_wire_holds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    """An image in a tool result goes to the wires whose results carry images; OpenAI Chat's do
    not, and the line is reported where the image stands, and skipped: nothing is dropped."""
    history = [ASK, CALL, SHOT, ANSWER]
    path = _file(tmp_path, history, [ASK, ANSWER])
    status, out, err = _run(capsys, "convert", "--to", target, path)
    carried = PROVIDERS[target].parts
    if ImagePart in carried[SHOT.role]:
        assert status == 0, err
        assert PROVIDERS[target].codec.from_request(json.loads(out[0])) == history
        assert len(out) == 2
    else:
        assert status == 1
        assert len(out) == 1  # the second line
        assert err[0].startswith(f"{path}:1: messages[2].content[0]: ")
        assert err[-1].endswith(": 1 converted, 1 skipped")


def test_check_reports_the_image_in_an_openai_tool_result_and_not_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, [ASK, CALL, SHOT, ANSWER])
    assert _run(capsys, "check", path)[0] == 0
    assert _run(capsys, "check", "--target", "anthropic", path)[0] == 0
    status, out, _ = _run(capsys, "check", "--target", "openai", path)
    assert status == 1
    assert [text.split(": ")[1:3] for text in out] == [["messages[2].content[0]", "unsupported_part"]]

"""The Responses rules: a rules module, its parts, and what check_transcript reports with them."""

from __future__ import annotations

from toolturns import AudioPart, ChatMessage, FilePart, ImagePart, Role, TextPart, ToolCall, check_transcript
from toolturns.providers._rule import Rules
from toolturns.providers.responses import rules


def test_the_module_is_a_rules_module() -> None:
    module: Rules = rules  # checked by mypy and pyright
    assert module.CARRIES.name is False


def test_parts_by_role() -> None:
    image, file, audio = (
        ImagePart(url="https://a/b.png"),
        FilePart(file_id="file-1"),
        AudioPart(data="UklGRg==", format="wav"),
    )
    for role in (Role.SYSTEM, Role.DEVELOPER, Role.USER, Role.TOOL):
        assert [rules.check_part(role, part) for part in (TextPart("a"), image, file)] == [None, None, None]
        refused = rules.check_part(role, audio)
        assert refused is not None
        assert refused[0] is rules.NOT_CARRIED
    assert rules.check_part(Role.ASSISTANT, TextPart("a")) is None
    refused = rules.check_part(Role.ASSISTANT, file)
    assert refused == (rules.NOT_CARRIED, "is a file part; a Responses assistant item holds none")


def test_a_call_name_outside_the_pattern_and_an_unanswered_call_are_reported_once() -> None:
    """The name pattern and the exchanges are checked for every target: the wire's rules add
    nothing to them, so each problem is reported once."""
    turn = ChatMessage.assistant_tool_calls([ToolCall("c", "ok_name"), ToolCall("c2", "bad.name")])
    history = [ChatMessage.user("?"), turn, ChatMessage.tool_result("c", "x"), ChatMessage.user("and?")]
    assert [(p.path, p.code) for p in check_transcript(history, target="responses")] == [
        ("messages[1].tool_calls[1]", "unanswered_call"),
        ("messages[1].tool_calls[1].function.name", "invalid_tool_name"),
    ]

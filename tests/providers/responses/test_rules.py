"""The Responses rules as check_transcript runs them: through the Findings protocol."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from toolturns import AudioPart, ChatMessage, FilePart, ImagePart, Role, TextPart, ToolCall
from toolturns.providers._rule import Rule, Rules
from toolturns.providers.responses import rules


@dataclass
class Recorded:
    target: str = "responses"
    readable: Sequence[tuple[int, ChatMessage]] = ()
    conversation: Sequence[tuple[int, ChatMessage | None]] = ()
    tool_count: int = 0
    found: list[tuple[int | None, str, str, str]] = field(default_factory=list)

    def add(self, index: int | None, path: str, rule: Rule, message: str) -> None:
        self.found.append((index, path, rule.code, message))


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


def test_a_call_name_outside_the_pattern_and_an_unanswered_call_are_reported() -> None:
    findings = Recorded()
    rules.check(findings)
    rules.check_call(findings, 1, 0, ToolCall("c", "ok_name"))
    rules.check_call(findings, 1, 1, ToolCall("c2", "bad.name"))
    turn = ChatMessage.assistant_tool_calls([ToolCall("c", "f"), ToolCall("c2", "g")])
    rules.check_exchange(findings, 1, turn, 2)
    rules.check_exchange(findings, 1, turn, 1)
    assert findings.found == [
        (1, "messages[1].tool_calls[1].name", "invalid_tool_name", "'bad.name'"),
        (1, "messages[1].tool_calls", "unanswered_call", "has 2 calls and 1 results after it"),
    ]

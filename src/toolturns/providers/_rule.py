"""``Rule``: one thing a provider refuses, in its own words, where it says so.

Each provider's ``rules`` module holds its rules as constants beside the
values they are about (an id pattern, a limit). The codec refuses what it
cannot express and ``check_transcript`` reports what the provider would
refuse; both take the wording from here, so a rule lives in one place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .._content import ContentPart
    from .._message import ChatMessage, Role
    from .._tool import Tool
    from .._tool_call import ToolCall

__all__ = [
    "INEXACT_ARGUMENTS",
    "OBJECT_ARGUMENTS",
    "Carries",
    "Findings",
    "Rule",
    "Rules",
    "require_conversation",
    "top_level_keywords",
]


@dataclass(frozen=True, slots=True)
class Rule:
    """A provider's rule.

    Attributes:
        code: The ``Problem.code`` ``check_transcript`` reports for it
            (docs/transcripts.md lists them).
        says: What the provider answers when the rule is broken (its HTTP
            400 text, quoted).
        link: Where the provider documents it, or where its answer was seen.
    """

    code: str
    says: str
    link: str


@dataclass(frozen=True, slots=True)
class Carries:
    """What a wire's request carries of what toolturns keeps beyond roles, text, calls and results.

    What it does not carry its codec refuses to drop unless told to
    (``drop_unsupported=True``), ``check_transcript`` reports with
    ``unsupported``'s code, and ``toolturns convert --drop-unsupported``
    lists per line.

    Attributes:
        name: ``ChatMessage.name`` (a tool result's name equal to its call's
            is carried by every wire: the call names the function).
        extra: the keys kept in ``ChatMessage.extra`` and ``ToolCall.extra``.
        strict: ``Tool.strict``.
        unsupported: what the provider does with a key it does not know.
    """

    name: bool
    extra: bool
    strict: bool
    unsupported: Rule


#: Every wire whose ``Provider.arguments`` is ``"object"`` (Anthropic's
#: ``input``, Gemini's ``args``, Ollama's ``function.arguments``) sends a call's
#: argument text as the object it decodes to, which holds one value per key
#: and each number as a double: a repeated key, or a number the object would
#: write back as another (``1e-400`` as ``0.0``), would change what the model
#: said. No provider refuses that object; the change would be silent, so the
#: rule quotes the standard that says why (RFC 8259, sections 4 and 6). The
#: codecs refuse such text (``_shared.arguments_for_object_wire``) and
#: ``check_transcript`` reports it; ``_arguments.decode_arguments_exactly`` finds it.
INEXACT_ARGUMENTS = Rule(
    "inexact_arguments",
    "When the names within an object are not unique, the behavior of software that receives such an "
    "object is unpredictable. Many implementations report the last name/value pair only. [...] A JSON "
    "number such as 1E400 or 3.141592653589793238462643383279 may indicate potential interoperability "
    "problems, since it suggests that the software that created it expects receiving software to have "
    "greater capabilities for numeric magnitude and precision than is widely available.",
    "https://www.rfc-editor.org/rfc/rfc8259#section-4",
)
#: How the codecs and check_transcript say why such text cannot go: "gemini " + this.
OBJECT_ARGUMENTS = "carries arguments as an object, which holds one value per key and numbers as doubles"


class Findings(Protocol):
    """What ``check_transcript`` shows a provider's rules, and where they report.

    ``readable`` holds the messages that read, with their index;
    ``conversation`` every message that is not a system or developer one
    (``None`` for one that did not read, which may have been anything).
    """

    target: str
    readable: Sequence[tuple[int, ChatMessage]]
    conversation: Sequence[tuple[int, ChatMessage | None]]
    tool_count: int

    def add(self, index: int | None, path: str, rule: Rule, message: str) -> None:
        """Report that ``rule`` is broken at ``path`` (in message ``index``)."""


class Rules(Protocol):
    """What a provider's ``rules`` module offers ``check_transcript``.

    A module may also define ``kept_for_this_wire_only(provider_data)``: the
    (path, what) of each thing its codec kept that only this wire can replay,
    which every other wire then refuses unless told to drop it
    (``_shared.messages_unsupported``; OpenAI Responses' built-in tool calls).
    And ``check_tool(tool)``: what the provider refuses in one tool definition
    that its codec writes as it is, as (where in the ``Tool``'s parameters,
    ``parameters.properties.tags``; the ``Rule``; what to say of it), which
    ``check_transcript`` reports at the definition's own key (OpenAI's array
    schemas without ``items``). Both are optional, so that a wire registered
    before they came needs neither.
    """

    # Read-only properties: a module's constants match them.
    @property
    def TOOL_NAME(self) -> re.Pattern[str] | None:
        """The tool names the provider accepts, in definitions and in calls; None: any ``Tool`` name."""
        ...

    @property
    def INVALID_TOOL_NAME(self) -> Rule:
        """What the provider answers to a name outside ``TOOL_NAME``."""
        ...

    @property
    def PARTS(self) -> Mapping[Role, frozenset[type[ContentPart]]]:
        """The content part classes each role may carry (``Provider.parts``)."""
        ...

    @property
    def CARRIES(self) -> Carries:
        """What the wire's request carries beyond roles, text, calls and results."""
        ...

    def check_part(self, role: Role, part: ContentPart) -> tuple[Rule, str] | None:
        """Why the wire cannot carry ``part`` in a ``role`` turn: the rule it breaks and what
        to say of it, or None. The codec refuses such a part (``_shared.refuse_parts``) and
        ``check_transcript`` reports it with the rule's code: a part is never dropped."""

    def check(self, findings: Findings) -> None:
        """Report what the provider refuses in the transcript as a whole."""

    def check_call(self, findings: Findings, index: int, position: int, call: ToolCall) -> None:
        """Report what the provider refuses in one call (``messages[index].tool_calls[position]``)."""

    def check_exchange(self, findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
        """Report what the provider refuses in one exchange that is over: the call turn
        ``messages[index]`` and the number of tool results right after it."""


def require_conversation(findings: Findings, rule: Rule) -> None:
    """For a provider that sends system messages apart: at least one other message."""
    if findings.readable and not findings.conversation:
        findings.add(
            None,
            "messages",
            rule,
            f"has only system messages; {findings.target} sends those apart and needs at least one other message",
        )


def top_level_keywords(
    tool: Tool, keywords: Sequence[str], rule: Rule, provider: str
) -> list[tuple[str, Rule, str]]:
    """For a rules module's ``check_tool``: each of ``keywords`` at the top of ``tool``'s parameters,
    where ``provider`` takes only a plain object schema (the keywords go inside a property)."""
    listed = ", ".join(keywords)
    return [
        (
            f"parameters.{key}",
            rule,
            f"{key} at the top level of a tool's parameters; {provider} takes {listed} only inside "
            "the properties (a choice of arguments goes in one property, or in the description)",
        )
        for key in keywords
        if key in tool.parameters
    ]

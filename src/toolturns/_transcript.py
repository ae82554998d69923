"""``check_transcript`` and ``trim``: whether a provider will accept a history, and shortening one safely.

Both read a transcript without changing it. ``check_transcript`` reports every
problem it finds as a ``Problem`` value (it raises only when called wrongly);
``trim`` returns a new, shorter list of the caller's own items.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, TypeVar

from ._arguments import Inexact, decode_arguments_exactly
from ._checks import lazy_pattern
from ._errors import InvalidArguments, InvalidTranscript, MessageError, describe, join_path
from ._frozen import value_class
from ._json import SameJSON, join_key
from ._message import (
    ASSISTANT,
    LEGACY_CALL,
    LEGACY_RESULT,
    SYSTEM_ROLES,
    TOOL,
    ChatMessage,
    Role,
)
from ._sdk import dumped
from ._tool import Tool, schema_key
from ._tool_call import ToolCall

# Bound once: a classmethod looked up on its class costs about 30 ns, on a path that reads
# every message of every transcript checked.
_from_dict = ChatMessage.from_dict

if TYPE_CHECKING:
    from .providers import Provider
    from .providers._rule import Rule, Rules

__all__ = ["Problem", "check_transcript", "trim"]


@value_class(frozen=True, slots=True)
class Problem:
    """One thing in a transcript that a provider would refuse, or that breaks a tool exchange.

    Attributes:
        index: The position of the message the problem is in; ``None`` when it
            is not inside one message (the tools, or the transcript as a whole).
        path: Where exactly: ``messages[3].tool_calls[1].id``, ``tools[0]``, ``messages``.
        code: A stable snake_case name of the rule (``unanswered_call``);
            docs/transcripts.md lists them all.
        message: What is wrong, in a sentence.

    >>> Problem(2, "messages[2].tool_call_id", "orphan_result", "answers no call")
    Problem(index=2, path='messages[2].tool_call_id', code='orphan_result', message='answers no call')
    >>> print(_)
    messages[2].tool_call_id: orphan_result: answers no call
    """

    index: int | None
    path: str
    code: str
    message: str

    def __init__(self, index: int | None, path: str, code: str, message: str) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "message", message)

    def __str__(self) -> str:
        return f"{self.path}: {self.code}: {self.message}"


def check_transcript(
    messages: Sequence[object],
    *,
    target: str | None = None,
    tools: Sequence[object] | None = None,
    allow_pending: bool = True,
) -> list[Problem]:
    """Every problem of a transcript that would make a provider refuse it, in message order.

    Without a target, the tool exchanges are checked: each call of an
    assistant turn answered by exactly one tool result, the results right
    after their turn, call ids unique across the transcript. ``target`` adds
    that provider's own rules. The caller's data is never changed.

    Args:
        messages: ``ChatMessage`` values, or raw OpenAI-shape message dicts
            (read with ``ChatMessage.from_dict``; one that does not read, or
            any other item, is a problem at its index, and checking goes on).
            Typed ``Sequence[object]`` for that reason: a list straight from
            ``json.loads`` type-checks.
        target: ``"openai"``, ``"anthropic"``, ``"gemini"`` or ``"ollama"``.
            When no problem is found, that codec's ``to_request`` is known to
            accept the transcript.
        tools: The tool definitions sent with the transcript (``Tool`` values
            or OpenAI tool dicts): each must read, names must be unique, and
            every call must name one of them.
        allow_pending: A transcript may end on an assistant turn whose calls
            have no results yet (a loop about to run the tools; the target
            turn of a fine-tuning example). False makes those calls
            ``unanswered_call`` too.

    Returns:
        The problems, ordered by message index (problems outside any message
        first); an empty list when there is none.

    Raises:
        InvalidTranscript: ``messages`` is not a list or tuple, ``target`` is
            not a known provider, ``tools`` is not a list or tuple or None, or
            ``allow_pending`` is not a bool.

    >>> from toolturns import ChatMessage, ToolCall, check_transcript
    >>> history = [
    ...     ChatMessage.user("Weather in Paris and Rome?"),
    ...     ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"}),
    ...                                       ToolCall("call_2", "get_weather", {"city": "Rome"})]),
    ...     ChatMessage.tool_result("call_1", "18 C"),
    ...     ChatMessage.user("And tomorrow?"),
    ... ]
    >>> for problem in check_transcript(history):
    ...     print(problem)
    messages[1].tool_calls[1]: unanswered_call: call 'call_2' (get_weather) has no tool result before messages[3] (user); every call must be answered right after its assistant turn
    """
    if not isinstance(messages, (list, tuple)):
        raise InvalidTranscript("messages", "must be a list or tuple of messages", describe(messages))
    provider = None if target is None else _provider(target)
    if tools is not None and not isinstance(tools, (list, tuple)):
        raise InvalidTranscript("tools", "must be None or a list or tuple of tools", describe(tools))
    if type(allow_pending) is not bool:
        raise InvalidTranscript("allow_pending", "must be a boolean", describe(allow_pending))
    check = _Check(target, provider, None if provider is None else provider.rules)
    turns = check.read_messages(messages)
    check.findings = None if target is None else _Findings(check, turns, len(tools or ()))
    names = None if tools is None else check.read_tools(tools)
    check.exchanges(turns, allow_pending)
    if names is not None:
        check.known_tools(turns, names)
    if target is not None:
        check.target_rules(turns)
        if not check.problems:
            check.codec_accepts(turns)
    if not check.problems:  # most transcripts of a dataset: no sort to set up
        return []
    return sorted(check.problems, key=_by_index)


def _by_index(problem: Problem) -> int:
    """Problems outside any message first, then by message index (a stable sort keeps the order
    each index's problems were found in)."""
    return -1 if problem.index is None else problem.index


# How a caller converts anyway; the command line says it in its own words.
_DROP_HINT = "; to_request(..., drop_unsupported=True) leaves it out"


def _provider(target: object) -> Provider:
    """The registry's entry for ``target``, or InvalidTranscript."""
    registry = _registry()
    if not isinstance(target, str) or target not in registry:
        raise InvalidTranscript(
            "target", f"must be None or one of {', '.join(map(repr, registry))}", describe(target)
        )
    return registry[target]


def _registry() -> Mapping[str, Provider]:
    # Imported on first use, not at the top: import toolturns does not load
    # the registry. Kept in a global: an import statement costs a microsecond
    # on every call, and check_transcript runs once per line of a dataset.
    global _PROVIDERS
    if _PROVIDERS is None:
        from .providers import PROVIDERS

        _PROVIDERS = PROVIDERS
    return _PROVIDERS


_PROVIDERS: Mapping[str, Provider] | None = None


class _Unreadable:
    """A message dict that did not read: only what the exchange checks can still use."""

    __slots__ = ("makes_calls", "role", "tool_call_id")

    def __init__(self, role: object, tool_call_id: str | None, makes_calls: bool) -> None:
        self.role = role
        self.tool_call_id = tool_call_id  # a result's id, when it is a non-empty string
        self.makes_calls = makes_calls  # an assistant turn with some tool_calls: its results cannot be judged


class _LastTools:
    """What reading a tool list found, kept for the next check with an equal list.

    A dataset sends the same tools with every transcript; reading a tool (its
    schema encoded and checked) costs more than checking a whole transcript,
    so an equal list is not read again. Comparing two lists costs a few
    microseconds. A list is remembered (as a copy: the caller may change
    theirs afterwards) only once it came twice in a row, so that a dataset
    whose tools differ on every line pays no copy. Python equality takes
    ``1``, ``1.0`` and ``True`` as equal, and a schema may be refused for
    ``"minimum": true`` where ``1`` is taken: ``SameJSON`` says which are the
    same JSON.
    """

    def __init__(self) -> None:
        # The last list seen (the caller's own object) and the one remembered.
        self.seen: tuple[str | None, object] | None = None
        self.entry: tuple[str | None, SameJSON, tuple[Problem, ...], frozenset[str]] | None = None

    def find(self, target: str | None, tools: object) -> tuple[tuple[Problem, ...], frozenset[str]] | None:
        entry = self.entry  # one read: another thread may replace it meanwhile
        if entry is None or entry[0] != target or not entry[1].matches(tools):
            return None
        return entry[2], entry[3]

    def remember(
        self, target: str | None, tools: object, problems: Sequence[Problem], names: set[str]
    ) -> None:
        seen, self.seen = self.seen, (target, tools)
        if seen is None or seen[0] != target or seen[1] is tools or not SameJSON(seen[1]).matches(tools):
            return  # not twice in a row (the same object again may have been changed in place)
        import copy  # here: most checks never remember a list, and copy costs 5 ms to import

        try:
            kept = copy.deepcopy(tools)
        except Exception:  # a value that cannot be copied is not remembered
            return
        self.entry = (target, SameJSON(kept), tuple(problems), frozenset(names))


_last_tools = _LastTools()


class _Exchange:
    """An assistant turn with tool calls, and the results that answered it so far."""

    __slots__ = ("answers", "index", "message", "names", "results")

    def __init__(self, index: int, message: ChatMessage, names: dict[str, str]) -> None:
        self.index = index
        self.message = message
        # Call id -> the name of its call (ids are unique within a message): a
        # result finds its call in constant time, however many calls the turn made.
        self.names = names
        self.answers: dict[str, int] = {}  # call id -> index of its result
        self.results = 0  # tool results right after the turn, answering or not (Gemini counts them)


class _Check:
    """The problems of one transcript, found one rule family at a time."""

    __slots__ = ("findings", "problems", "provider", "rules", "target")

    def __init__(self, target: str | None, provider: Provider | None, rules: Rules | None) -> None:
        self.target = target
        self.provider = provider  # the target's registry entry
        self.rules = rules  # its rules, looked up once per check, not per call
        self.problems: list[Problem] = []
        self.findings: _Findings | None = None  # what the target's rules see; None without a target

    def add(self, index: int | None, path: str, code: str, message: str) -> None:
        self.problems.append(Problem(index, path, code, message))

    # -- reading ---------------------------------------------------------------

    def read_messages(self, messages: Sequence[object]) -> list[ChatMessage | _Unreadable | None]:
        """Each message as a ChatMessage; ``_Unreadable`` or None (not even a dict) when it does not read."""
        turns: list[ChatMessage | _Unreadable | None] = []
        for index, item in enumerate(messages):
            # A dict (most are: a dataset's line) is read at once; an ABC's isinstance() costs
            # more than reading a short message, and the path is made only for a problem.
            if type(item) is not dict:
                if isinstance(item, ChatMessage):
                    turns.append(item)
                    continue
                if not isinstance(item, Mapping):
                    self.add(
                        index,
                        f"messages[{index}]",
                        "invalid_message",
                        f"must be a message object, got {_kind(item)}",
                    )
                    turns.append(None)
                    continue
            try:
                turns.append(_from_dict(item))
            except MessageError as error:
                failure = error.with_prefix(f"messages[{index}]")
                legacy = LEGACY_CALL in failure.rule or LEGACY_RESULT in failure.rule
                self.add(
                    index,
                    failure.path,
                    "legacy_function_call" if legacy else "invalid_message",
                    failure.reason,
                )
                # A result that does not read may still answer its call, and a
                # call turn that does not read still has results after it:
                # keep what the exchange checks need, so that one unreadable
                # message is not reported again as an unanswered call or as
                # results answering nothing.
                call_id = item.get("tool_call_id")
                turns.append(
                    _Unreadable(
                        item.get("role"),
                        call_id if isinstance(call_id, str) and call_id else None,
                        item.get("role") == ASSISTANT and bool(item.get("tool_calls")),
                    )
                )
        return turns

    def read_tools(self, tools: Sequence[object]) -> AbstractSet[str]:
        """The names of the tools that read; the others, and repeated names, are problems."""
        known = _last_tools.find(self.target, tools)
        if known is not None:
            problems, names = known
            self.problems.extend(problems)
            return names  # a frozenset: no copy
        found = len(self.problems)
        read = self.read_each_tool(tools)
        _last_tools.remember(self.target, tools, self.problems[found:], read)
        return read

    def read_each_tool(self, tools: Sequence[object]) -> set[str]:
        names: set[str] = set()
        for number, item in enumerate(tools):
            where = f"tools[{number}]"
            try:
                tool = item if isinstance(item, Tool) else Tool.from_dict(item)
            except MessageError as error:
                failure = error.with_prefix(where)
                self.add(None, failure.path, "invalid_tool", failure.reason)
                continue
            # The definition as Tool.from_dict read it (an SDK object's dump), for its paths.
            definition = item if isinstance(item, (Tool, Mapping)) else dumped(item)
            name_path = (
                f"{where}.function.name"
                if isinstance(definition, Mapping) and "function" in definition
                else f"{where}.name"
            )
            if self.target is not None:
                self.tool_unsupported(name_path.removesuffix(".name"), tool)
                self.tool_refused(name_path.removesuffix(".name"), definition, tool)
            if tool.name in names:
                self.add(
                    None,
                    name_path,
                    "duplicate_tool",
                    f"tool name {tool.name!r} is defined twice; providers refuse repeated names",
                )
            else:
                names.add(tool.name)
                self.check_name(None, name_path, tool.name)
        return names

    def tool_refused(self, where: str, definition: object, tool: Tool) -> None:
        """What the target's rules refuse in a tool definition, at the definition's own key
        for the schema (``inputSchema`` in an MCP one)."""
        check_tool = getattr(self.rules, "check_tool", None)  # optional (providers._rule.Rules)
        problems = () if check_tool is None else check_tool(tool)
        if not problems:
            return
        schema = schema_key(definition) if isinstance(definition, Mapping) else "parameters"
        for path, rule, message in problems:  # each path is in the parameters
            self.add(None, join_path(where, schema + path.removeprefix("parameters")), rule.code, message)

    def tool_unsupported(self, where: str, tool: Tool) -> None:
        from .providers._shared import tool_unsupported, unsupported_reason

        assert self.target is not None
        assert self.rules is not None
        code = self.rules.CARRIES.unsupported.code
        for key, what in tool_unsupported(tool, self.target):
            self.add(None, join_key(where, key), code, unsupported_reason(what, self.target) + _DROP_HINT)

    # -- the tool exchanges: every target -------------------------------------

    def exchanges(self, turns: Sequence[ChatMessage | _Unreadable | None], allow_pending: bool) -> None:
        """Calls answered once, right after their turn; results that answer a call; unique call ids."""
        calls: dict[str, tuple[int, int]] = {}  # call id -> (index, position) of its first use
        answered: dict[str, int] = {}  # call id -> index of its first result, anywhere
        exchange: _Exchange | None = None
        any_call_turn = False
        unknown_calls = False  # the results follow a call turn that did not read
        for index, turn in enumerate(turns):
            if turn is None:
                continue
            if turn.role == TOOL:
                if unknown_calls:
                    continue
                if exchange is not None:
                    exchange.results += 1
                if turn.tool_call_id is not None:
                    self.result(index, turn.tool_call_id, exchange, calls, answered, any_call_turn)
                    if isinstance(turn, ChatMessage) and turn.name is not None and exchange is not None:
                        self.result_name(index, turn, exchange)
                continue
            if exchange is not None:
                self.close(exchange, index, turn.role)
                exchange = None
            unknown_calls = isinstance(turn, _Unreadable) and turn.makes_calls
            if isinstance(turn, ChatMessage) and turn.tool_calls:
                any_call_turn = True
                exchange = _Exchange(index, turn, {call.id: call.name for call in turn.tool_calls})
                for position, call in enumerate(turn.tool_calls):
                    first = calls.setdefault(call.id, (index, position))
                    if first != (index, position):
                        self.add(
                            index,
                            f"messages[{index}].tool_calls[{position}].id",
                            "duplicate_call_id",
                            f"call id {describe(call.id)} is already used by messages[{first[0]}].tool_calls[{first[1]}]; "
                            "a result could not say which call it answers",
                        )
        if exchange is not None:
            pending = allow_pending and exchange.index == len(turns) - 1
            if not pending:
                self.close(exchange, None)

    def result(
        self,
        index: int,
        call_id: str,
        exchange: _Exchange | None,
        calls: Mapping[str, tuple[int, int]],
        answered: dict[str, int],
        any_call_turn: bool,
    ) -> None:
        """One tool result: which call it answers, or the rule it breaks."""
        where = f"messages[{index}].tool_call_id"
        if exchange is not None and call_id in exchange.names:
            earlier = exchange.answers.setdefault(call_id, index)
            answered.setdefault(call_id, index)
            if earlier != index:
                self.add(
                    index,
                    where,
                    "duplicate_result",
                    f"call {describe(call_id)} is already answered by messages[{earlier}]; each call gets one result",
                )
            return
        if call_id in answered:
            self.add(
                index,
                where,
                "duplicate_result",
                f"call {describe(call_id)} is already answered by messages[{answered[call_id]}]; each call gets one result",
            )
        elif call_id in calls:
            turn = calls[call_id][0]
            answered[call_id] = index
            self.add(
                index,
                where,
                "late_result",
                f"answers call {describe(call_id)} of messages[{turn}], but another turn came in between; "
                "results must directly follow their assistant turn",
            )
        elif not any_call_turn:
            self.add(
                index,
                where,
                "result_before_call",
                f"answers call {describe(call_id)}, but no assistant turn with tool calls comes before it",
            )
        else:
            self.add(
                index,
                where,
                "orphan_result",
                f"answers call {describe(call_id)}, which no assistant turn before it made",
            )

    def result_name(self, index: int, turn: ChatMessage, exchange: _Exchange) -> None:
        """A result that names its function (older OpenAI examples do) names the call it answers."""
        call_id = turn.tool_call_id
        assert call_id is not None  # a tool message always has one
        name = exchange.names.get(call_id)  # None: it answers no call of this turn
        if name is not None and name != turn.name:
            self.add(
                index,
                f"messages[{index}].name",
                "result_name_mismatch",
                f"names {describe(turn.name)}, but answers call {describe(call_id)} of {describe(name)}; "
                "providers that match a result by its function's name (Gemini, Ollama) would pair it "
                "with another call",
            )

    def close(self, exchange: _Exchange, before: int | None, role: object = None) -> None:
        """The exchange is over, before message ``before`` (whose role is ``role``) or at the end
        (None): each call without a result is unanswered; the target may count results."""
        calls = exchange.message.tool_calls or ()
        for position, call in enumerate(calls):
            if call.id not in exchange.answers:
                # Said only when a call is unanswered: a clean exchange makes no text.
                when = (
                    "by the end of the transcript"
                    if before is None
                    else f"before messages[{before}] ({_role_name(role)})"
                )
                self.add(
                    exchange.index,
                    f"messages[{exchange.index}].tool_calls[{position}]",
                    "unanswered_call",
                    f"call {describe(call.id)} ({_bare(call.name)}) has no tool result {when}; "
                    "every call must be answered right after its assistant turn",
                )
        if self.findings is not None and self.rules is not None:
            self.rules.check_exchange(self.findings, exchange.index, exchange.message, exchange.results)

    def known_tools(self, turns: Sequence[ChatMessage | _Unreadable | None], names: AbstractSet[str]) -> None:
        """Every call names a tool of the definitions sent with the transcript."""
        for index, turn in enumerate(turns):
            if isinstance(turn, ChatMessage):
                for position, call in enumerate(turn.tool_calls or ()):
                    if call.name not in names:
                        self.add(
                            index,
                            f"messages[{index}].tool_calls[{position}].function.name",
                            "unknown_tool",
                            f"calls {describe(call.name)}, which is not among the tools defined",
                        )

    # -- the target's own rules -------------------------------------------------

    def target_rules(self, turns: Sequence[ChatMessage | _Unreadable | None]) -> None:
        """The rules of one provider that the tool exchanges do not cover: its rules module's."""
        assert self.target is not None
        assert self.findings is not None
        provider = self.provider
        assert provider is not None
        rules = self.rules
        assert rules is not None
        view = self.findings
        if not turns:
            self.add(
                None, "messages", "empty_transcript", f"has no messages; {self.target} needs at least one"
            )
        # Looked up once: this loop runs for every call of every transcript.
        pattern, check_call = rules.TOOL_NAME, rules.check_call
        object_wire = provider.arguments == "object"
        for index, turn in view.readable:
            if type(turn.content) is tuple:
                self.parts(index, turn)
            for position, call in enumerate(turn.tool_calls or ()):
                if pattern is not None and not pattern.fullmatch(call.name):
                    self.check_name(
                        index, f"messages[{index}].tool_calls[{position}].function.name", call.name
                    )
                check_call(view, index, position, call)
                if object_wire:
                    self.object_arguments(index, position, call)
        self.unsupported(view.readable)
        rules.check(view)

    def parts(self, index: int, turn: ChatMessage) -> None:
        """The content parts the target cannot carry in this turn's role, each where it stands."""
        assert self.rules is not None
        assert self.findings is not None
        for position, part in enumerate(turn.content):
            refused = self.rules.check_part(turn.role, part)  # type: ignore[arg-type]  # a tuple of parts
            if refused is not None:
                rule, why = refused
                self.findings.add(index, f"messages[{index}].content[{position}]", rule, why)

    def unsupported(self, readable: Sequence[tuple[int, ChatMessage]]) -> None:
        """What the target's request cannot carry: its codec refuses to drop it unless asked."""
        from .providers._shared import messages_unsupported, unsupported_reason

        assert self.target is not None
        assert self.rules is not None
        code = self.rules.CARRIES.unsupported.code
        for path, what in messages_unsupported(readable, self.rules.CARRIES, self.target):
            self.add(_message_index(path), path, code, unsupported_reason(what, self.target) + _DROP_HINT)

    def object_arguments(self, index: int, position: int, call: ToolCall) -> None:
        """A wire that carries arguments as an object cannot send text that is not one, nor
        text the object would not say exactly (a repeated key, a number a double changes)."""
        try:
            arguments = decode_arguments_exactly(call.arguments_json, call_id=call.id, name=call.name)
        except InvalidArguments as error:
            self.add(
                index,
                f"messages[{index}].tool_calls[{position}].function.arguments",
                "invalid_arguments",
                f"{error.reason}; {self.target} carries arguments as an object, so this text "
                "cannot be sent (keep_invalid_arguments=True sends it wrapped)",
            )
            return
        if isinstance(arguments, Inexact):
            from .providers._rule import INEXACT_ARGUMENTS, OBJECT_ARGUMENTS  # loaded: the target is

            self.add(
                index,
                f"messages[{index}].tool_calls[{position}].function.{arguments.path}",
                INEXACT_ARGUMENTS.code,
                f"{arguments.rule}: {self.target} {OBJECT_ARGUMENTS}, so this text cannot be sent as it is "
                "(keep_invalid_arguments=True sends it exactly, wrapped)",
            )

    def check_name(self, index: int | None, path: str, name: str) -> None:
        if self.rules is None:
            return
        pattern = self.rules.TOOL_NAME
        if pattern is not None and not pattern.fullmatch(name):
            self.add(
                index,
                path,
                "invalid_tool_name",
                f"tool name {describe(name)} does not match ^{pattern.pattern}$, which {self.target} requires",
            )

    def codec_accepts(self, turns: Sequence[ChatMessage | _Unreadable | None]) -> None:
        """The last word: the target's codec takes the transcript (what its rules above cannot see,
        such as another provider's data in ``provider_data``)."""
        assert self.target is not None
        messages = [turn for turn in turns if isinstance(turn, ChatMessage)]
        try:
            # Without the tools: read_tools found them valid and their names
            # unique, and a codec's tool_definition takes any valid Tool.
            assert self.provider is not None
            # What the wire cannot carry is reported above, each in its place.
            self.provider.codec.to_request(messages, drop_unsupported=True)
        except MessageError as error:
            index = _message_index(error.path)
            self.add(
                index,
                error.path,
                "not_convertible",
                f"toolturns.{self.target}.to_request refuses it: {error.reason}",
            )


class _Findings:
    """What a provider's rules see of one transcript (``providers._rule.Findings``)."""

    def __init__(
        self, check: _Check, turns: Sequence[ChatMessage | _Unreadable | None], tool_count: int
    ) -> None:
        assert check.target is not None
        self.target: str = check.target
        self._check = check
        self.tool_count: int = tool_count
        self.readable: Sequence[tuple[int, ChatMessage]] = [
            (index, turn) for index, turn in enumerate(turns) if isinstance(turn, ChatMessage)
        ]
        # What Anthropic and Gemini see as the conversation: system messages go apart.
        self.conversation: Sequence[tuple[int, ChatMessage | None]] = [
            (index, turn if isinstance(turn, ChatMessage) else None)
            for index, turn in enumerate(turns)
            if not (isinstance(turn, ChatMessage) and turn.role in SYSTEM_ROLES)
        ]

    def add(self, index: int | None, path: str, rule: Rule, message: str) -> None:
        self._check.add(index, path, rule.code, message)


def _kind(value: object) -> str:
    """An item that is not a message, named as JSON names it where Python's name would puzzle."""
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "an array"
    return describe(value)


def _role_name(role: object) -> str:
    return _bare(str(role)) if isinstance(role, str) else "a message that does not read"


def _bare(name: str) -> str:
    """``name`` as it is when ``describe`` shows it whole and unescaped (as a role or a tool name
    usually is), else as ``describe`` shows it: quoted, escaped and cut."""
    shown = describe(name)
    return name if shown == f"'{name}'" else shown


_INDEX = lazy_pattern(r"messages\[(\d+)\]")


def _message_index(path: str) -> int | None:
    found = _INDEX.match(path)
    return int(found.group(1)) if found else None


# -- trim -----------------------------------------------------------------------

_Item = TypeVar("_Item", bound=ChatMessage | Mapping[str, Any])


def trim(
    messages: Sequence[_Item],
    *,
    max_messages: int | None = None,
    max_tokens: int | None = None,
    count_tokens: Callable[[_Item], int] | None = None,
    start_on_user: bool = True,
) -> list[_Item]:
    """The system messages and the newest turns that fit, never splitting a tool exchange.

    The history is cut into units: a user turn, an assistant turn together
    with the tool results that answer it, and so on. System and developer
    messages are always kept, where they were. From the newest unit back,
    whole units are kept while they fit both limits; the first that does not
    fit ends the history. With ``start_on_user``, a history that was cut then
    starts at a user turn (Gemini refuses a first tool-call turn, and a history
    that opens with the model's reply to a dropped question misleads it); a
    history that fits whole is returned whole.

    Args:
        messages: ``ChatMessage`` values or OpenAI-shape message dicts; the
            result holds the same items (never copies or changes them).
        max_messages: At most this many messages, system messages included.
        max_tokens: At most this many tokens, as ``count_tokens`` counts them.
        count_tokens: Tokens of one item (your tokenizer); required with
            ``max_tokens``. Its exceptions pass through.
        start_on_user: When turns were dropped, drop also the kept turns
            before the first kept user turn.

    Raises:
        InvalidTranscript: ``messages`` is not a list or tuple; a limit is not
            a non-negative int, or is too small for the system messages
            alone; ``max_tokens`` without ``count_tokens``.
        InvalidMessage, InvalidToolCall: an item does not read as a message
            (the path starts with ``messages[N]``).

    >>> from toolturns import ChatMessage, ToolCall, trim
    >>> history = [
    ...     ChatMessage.system("Be brief."),
    ...     ChatMessage.user("Weather in Paris?"),
    ...     ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"})]),
    ...     ChatMessage.tool_result("call_1", "18 C"),
    ...     ChatMessage.assistant("18 C in Paris."),
    ...     ChatMessage.user("And in Rome?"),
    ... ]
    >>> [m.role.value for m in trim(history, max_messages=4)]
    ['system', 'user']
    >>> [m.role.value for m in trim(history, max_messages=4, start_on_user=False)]
    ['system', 'assistant', 'user']
    >>> [m.role.value for m in trim(history, max_messages=5, start_on_user=False)]
    ['system', 'assistant', 'tool', 'assistant', 'user']
    """
    if not isinstance(messages, (list, tuple)):
        raise InvalidTranscript("messages", "must be a list or tuple of messages", describe(messages))
    _check_limit("max_messages", max_messages)
    _check_limit("max_tokens", max_tokens)
    if max_tokens is not None and not callable(count_tokens):
        raise InvalidTranscript(
            "count_tokens",
            "must be a function of one message when max_tokens is given",
            describe(count_tokens),
        )
    if type(start_on_user) is not bool:
        raise InvalidTranscript("start_on_user", "must be a boolean", describe(start_on_user))

    roles = [_role_of(index, item) for index, item in enumerate(messages)]
    system = [index for index, role in enumerate(roles) if role in SYSTEM_ROLES]
    units = _units(roles)

    def tokens(indexes: Sequence[int]) -> int:
        assert count_tokens is not None
        total = 0
        for index in indexes:
            counted = count_tokens(messages[index])
            if type(counted) is not int or counted < 0:
                raise InvalidTranscript("count_tokens", "must return a non-negative int", describe(counted))
            total += counted
        return total

    room_messages = None if max_messages is None else max_messages - len(system)
    room_tokens = None if max_tokens is None else max_tokens - tokens(system)
    for limit, room in (("max_messages", room_messages), ("max_tokens", room_tokens)):
        if room is not None and room < 0:
            raise InvalidTranscript(
                limit,
                f"must leave room for the system and developer messages, which are always kept ({len(system)})",
                describe(max_messages if limit == "max_messages" else max_tokens),
            )

    kept: list[list[int]] = []
    for unit in reversed(units):
        if room_messages is not None:
            room_messages -= len(unit)
            if room_messages < 0:
                break
        if room_tokens is not None:
            room_tokens -= tokens(unit)
            if room_tokens < 0:
                break
        kept.append(unit)
    kept.reverse()
    if start_on_user and len(kept) < len(units):  # a history cut short, not one left whole
        first_user = 0
        while first_user < len(kept) and roles[kept[first_user][0]] is not Role.USER:
            first_user += 1
        # Deleted at once: popping the front unit by unit costs the square of the units dropped.
        del kept[:first_user]
    chosen = sorted([*system, *(index for unit in kept for index in unit)])
    return [messages[index] for index in chosen]


def _check_limit(name: str, value: object) -> None:
    if value is not None and (type(value) is not int or value < 0):
        raise InvalidTranscript(name, "must be None or a non-negative int", describe(value))


def _role_of(index: int, item: object) -> Role:
    if isinstance(item, ChatMessage):
        return item.role
    try:
        return ChatMessage.from_dict(item).role
    except MessageError as error:
        raise error.with_prefix(f"messages[{index}]") from None


def _units(roles: Sequence[Role]) -> list[list[int]]:
    """The indexes of the non-system messages, grouped: a turn and the tool results after it."""
    units: list[list[int]] = []
    for index, role in enumerate(roles):
        if role in SYSTEM_ROLES:
            continue
        if role is Role.TOOL and units:
            units[-1].append(index)  # a result stays with the turn that made its call
        else:
            units.append([index])
    return units

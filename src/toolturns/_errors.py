"""The error hierarchy: every error says where, which rule, and what value."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Literal, cast

if TYPE_CHECKING:
    from ._message import ChatMessage

__all__ = [
    "InvalidArguments",
    "InvalidMessage",
    "InvalidStream",
    "InvalidTool",
    "InvalidToolCall",
    "InvalidTranscript",
    "MessageError",
    "at",
    "cut",
    "describe",
    "exception_text",
    "join_path",
    "renamed",
]

# Long values are cut in messages so that one bad 1 MB string does not flood a
# log; the value itself is never needed to find the mistake, its start is.
_MAX_SHOWN = 60


class MessageError(ValueError):
    """Base of every error toolturns raises.

    Attributes:
        path: Where the problem is, relative to the value that was read or
            built (``tool_calls[1].function.name``); ``""`` for the value itself.
        rule: The rule that was broken (``must be a non-empty string``).
        got: A short description of the offending value (``''``, ``list``),
            or ``None`` when there is no value to show (a missing key).

    >>> from toolturns import ToolCall, MessageError
    >>> try:
    ...     ToolCall("", "get_weather")
    ... except MessageError as error:
    ...     print(error.path, "|", error.rule, "|", error.got)
    id | must be a non-empty string | ''
    """

    path: str
    rule: str
    got: str | None

    def __init__(self, path: str, rule: str, got: str | None = None) -> None:
        # The arguments are kept in ``args`` so that errors pickle.
        super().__init__(path, rule, got)
        self.path = path
        self.rule = rule
        self.got = got

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}" if self.path else self.reason

    @property
    def reason(self) -> str:
        """The rule and the value, without the path: for a report that shows the path apart.

        >>> InvalidMessage("content", "must be a string", "5").reason
        'must be a string, got 5'
        """
        return self.rule if self.got is None else f"{self.rule}, got {self.got}"

    def with_prefix(self, prefix: str) -> MessageError:
        """Return a copy of this error whose path starts with ``prefix``.

        >>> str(InvalidToolCall("id", "must be a non-empty string", "''").with_prefix("tool_calls[1]"))
        "tool_calls[1].id: must be a non-empty string, got ''"
        """
        copy = self.__class__.__new__(self.__class__)
        copy.__dict__.update(self.__dict__)
        copy.args = (join_path(prefix, self.path), self.rule, self.got)
        copy.path = copy.args[0]
        return copy


class InvalidMessage(MessageError):
    """A chat message breaks a rule (role, content, tool_call_id, ...).

    >>> from toolturns import ChatMessage
    >>> ChatMessage.from_dict({"role": "tool", "content": "18 C"})
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: tool_call_id: is required on tool messages
    """


class InvalidToolCall(MessageError):
    """A tool call breaks a rule (id, name, type, shape).

    >>> from toolturns import ToolCall
    >>> ToolCall.from_dict({"id": "call_1", "type": "function", "function": {"name": 7}})
    Traceback (most recent call last):
    ...
    toolturns.InvalidToolCall: function.name: must be a non-empty string, got 7
    """


class InvalidTool(MessageError):
    """A tool definition breaks a rule (name, description, parameters schema).

    >>> from toolturns import Tool
    >>> Tool("get weather")
    Traceback (most recent call last):
    ...
    toolturns.InvalidTool: name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got 'get weather'
    """


class InvalidStream(MessageError):
    """A streamed response cannot be assembled: an unknown item, an item after
    the end, a provider's error event, or a message asked for before any item.

    Attributes:
        provider_error: The error object a provider sent in the stream
            (Anthropic's ``error`` event), when that is what stopped it.

    >>> from toolturns import InvalidStream, anthropic
    >>> stream = anthropic.StreamAssembler()
    >>> try:
    ...     stream.feed({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    ... except InvalidStream as error:
    ...     print(error.provider_error["type"])
    overloaded_error
    """

    provider_error: object

    def __init__(
        self, path: str, rule: str, got: str | None = None, *, provider_error: object = None
    ) -> None:
        super().__init__(path, rule, got)
        self.provider_error = provider_error


class InvalidTranscript(MessageError):
    """A transcript function was called wrongly: not a list of messages, an
    unknown target, a limit that is not a non-negative integer.

    Problems *inside* a transcript are not errors: ``check_transcript``
    returns them as ``Problem`` values.

    >>> from toolturns import check_transcript
    >>> check_transcript([], allow_pending="yes")
    Traceback (most recent call last):
    ...
    toolturns.InvalidTranscript: allow_pending: must be a boolean, got 'yes'
    """


class InvalidArguments(MessageError):
    """Tool-call arguments are not a JSON object.

    Raised when building a call from a value that is not JSON, and by
    ``ToolCall.arguments`` when the model's text does not decode to an object.
    A tool loop catches it and answers the model with an error result.

    Attributes:
        call_id: The id of the call, when known.
        name: The name of the tool called, when known.
        raw: The argument text exactly as the model sent it, when there is one.

    >>> from toolturns import InvalidArguments, ToolCall
    >>> try:
    ...     ToolCall("call_1", "get_weather", '{"city": ').arguments
    ... except InvalidArguments as error:
    ...     print(error.call_id, error.name, repr(error.raw))
    call_1 get_weather '{"city": '
    """

    call_id: str | None
    name: str | None
    raw: str | None

    def __init__(
        self,
        path: str,
        rule: str,
        got: str | None = None,
        *,
        call_id: str | None = None,
        name: str | None = None,
        raw: str | None = None,
    ) -> None:
        super().__init__(path, rule, got)
        self.call_id = call_id
        self.name = name
        self.raw = raw


class LoopLimit(MessageError):
    """A tool loop read ``max_steps`` turns and the model was still calling tools.

    The calls of the last turn were answered, so ``history`` is a complete
    transcript (it passes ``check_transcript``): resume from it, or show it.

    Attributes:
        max_steps: The limit that was reached.
        history: Every message of the loop: the history it started from, then
            each turn and its results.

    >>> error = LoopLimit(3, [])
    >>> print(error)
    max_steps: the model still called tools after 3 steps (max_steps=3)
    >>> error.history
    []
    """

    # ChatMessage resolves where the class is shown, in toolturns (typing.get_type_hints looks there).
    max_steps: int
    history: list[ChatMessage]

    # Any here: a function's annotations resolve in its own module, where ChatMessage cannot be
    # imported (it imports this one).
    def __init__(self, max_steps: int, history: list[Any]) -> None:
        super().__init__(
            "max_steps", f"the model still called tools after {max_steps} steps (max_steps={max_steps})"
        )
        self.max_steps = max_steps
        self.history = history

    def __reduce__(self) -> tuple[Any, ...]:
        return (LoopLimit, (self.max_steps, self.history))


class LoopStopped(MessageError):
    """A step of a tool loop raised, and the loop stopped there without losing what it had.

    What raises is the caller's transport (``send``: a timeout, a rate limit)
    or the codec (``to_request`` writing a history the wire cannot carry,
    ``from_response`` reading a response that is not one). The turns the loop
    read and the results of the tools it ran are in ``history``, each call the
    loop read answered: resume from it once the cause is mended. The
    exception itself is ``error``, and the ``__cause__``.

    Attributes:
        step: The step that raised, from 1 (each step sends one request).
        stage: What raised: ``"to_request"``, ``"send"`` or ``"from_response"``.
        error: The exception it raised.
        history: Every message of the loop before that step: the history it
            started from, then each turn and its results. At ``to_request``
            it is the history the codec refused.
        response: At ``from_response``, what ``send`` returned, which the
            codec could not read; else ``None``.

    It pickles: an ``error`` or a ``response`` that does not (many SDKs'
    errors do not load again) is replaced by a ``RuntimeError`` saying the
    error, or by ``None``.

    >>> error = LoopStopped(1, "send", TimeoutError("read timed out"), [])
    >>> print(error)
    send: stopped the loop at step 1 (.history keeps the 0 messages before it), got TimeoutError: read timed out
    >>> error.error
    TimeoutError('read timed out')
    """

    step: int
    stage: Literal["to_request", "send", "from_response"]
    error: Exception
    history: list[ChatMessage]
    response: object

    def __init__(
        self,
        step: int,
        stage: Literal["to_request", "send", "from_response"],
        error: Exception,
        history: list[Any],
        response: object = None,
    ) -> None:
        count = len(history)
        said = exception_text(error)
        super().__init__(
            stage,
            f"stopped the loop at step {step} (.history keeps the {count} message{'' if count == 1 else 's'}"
            " before it)",
            # toolturns' own error is said whole (its value is cut already); another's words are cut
            # later than a value, since they say what went wrong.
            said if isinstance(error, MessageError) else cut(said, 4 * _MAX_SHOWN),
        )
        self.step = step
        self.stage = stage
        self.error = error
        self.history = history
        self.response = response

    def __reduce__(self) -> tuple[Any, ...]:
        error = self.error if _round_trips(self.error) else RuntimeError(exception_text(self.error))
        response = self.response if _round_trips(self.response) else None
        # Everything else it holds (its path with a prefix, its rule and words, notes) as it is.
        state = {key: value for key, value in self.__dict__.items() if key not in _REBUILT}
        state["args"] = self.args
        return (type(self), (self.step, self.stage, error, self.history, response), state)

    def __copy__(self) -> LoopStopped:
        # Not through __reduce__: a copy keeps the very error and response, whatever pickle does.
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.args = self.args
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> LoopStopped:
        import copy

        def copied(value: object) -> object:
            try:
                return copy.deepcopy(value, memo)
            except Exception:  # an SDK's error that does not rebuild: the same one
                return value

        twin = self.__copy__()
        memo[id(self)] = twin  # an error that holds this one holds the twin
        for key, value in self.__dict__.items():  # notes and all: none shared with this one
            if key != "history":
                twin.__dict__[key] = copied(value)
        twin.history = list(self.history)  # messages are immutable: the list is what changes
        return twin


#: What LoopStopped's pickle rebuilds from its arguments rather than from its state.
_REBUILT = frozenset({"step", "stage", "error", "history", "response"})

#: The objects _round_trips is pickling on this thread: one met again (an error that holds
#: the LoopStopped it caused) is not pickled again from its start.
_PICKLING: Any = None


def _round_trips(value: object) -> bool:
    """Whether ``value`` pickles and loads again: an exception whose ``__init__`` takes
    keyword-only arguments (the openai SDK's ``APIStatusError``) pickles, then fails to load."""
    import pickle  # only a pickled loop error needs it
    import threading

    global _PICKLING
    if _PICKLING is None:
        _PICKLING = threading.local()
    seen: set[int] | None = getattr(_PICKLING, "ids", None)
    if seen is None:
        seen = _PICKLING.ids = set()
    if id(value) in seen:
        return True  # being tried already, further out: that try says
    seen.add(id(value))
    try:
        pickle.loads(pickle.dumps(value))
    except Exception:
        return False
    finally:
        seen.discard(id(value))
    return True


def exception_text(error: BaseException) -> str:
    """An exception as its type's name and its own words (``TimeoutError: read timed out``).

    A ``__str__`` that raises does not hide the exception it describes: the name is said alone.
    """
    try:
        said = str(error)
    except Exception:
        said = ""
    return f"{type(error).__name__}: {said}" if said else type(error).__name__


class at:
    """Prefix the path of any MessageError raised inside with ``prefix``.

    A class, not ``@contextmanager``: the codecs enter one per message and per
    call, and a generator-based context manager costs three times as much.

    >>> with at("messages[3]"):
    ...     raise InvalidMessage("content", "must be a string", "5")
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: messages[3].content: must be a string, got 5
    """

    __slots__ = ("_prefix",)

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, error: BaseException | None, traceback: object) -> None:
        if isinstance(error, MessageError):
            raise error.with_prefix(self._prefix) from None


def renamed(error: MessageError, core: str, native: str) -> MessageError:
    """``error``, its path naming a field as the wire does (``input_schema``) where the core's did (``parameters``).

    >>> str(renamed(InvalidTool("parameters.type", "must be 'object'"), "parameters", "input_schema"))
    "input_schema.type: must be 'object'"
    """
    path = error.path
    if path != core and not path.startswith((f"{core}.", f"{core}[")):
        return error
    copy = error.with_prefix("")
    copy.path = native + path.removeprefix(core)
    copy.args = (copy.path, copy.rule, copy.got)
    return copy


def join_path(prefix: str, path: str) -> str:
    """Join two path parts: ``tool_calls[1]`` + ``id`` -> ``tool_calls[1].id``."""
    if not path:
        return prefix
    if not prefix or path.startswith("["):
        return prefix + path
    return f"{prefix}.{path}"


def cut(shown: str, limit: int = _MAX_SHOWN) -> str:
    """``shown``, or its first ``limit`` characters and how many it has: what a message shows of a long text."""
    return f"{shown[:limit]}... ({len(shown)} characters)" if len(shown) > limit else shown


def describe(value: object) -> str:
    """Describe a value for an error message: scalars by repr, the rest by type."""
    if isinstance(value, int) and int.bit_length(value) > 4 * _MAX_SHOWN:
        # Too long to show anyway, and repr() of a huge int raises ValueError.
        return f"an integer of {int.bit_length(value)} bits"
    if value is None or isinstance(value, (str, int, float)):
        try:
            return cut(repr(value))
        except Exception:  # a subclass's own __repr__ that raises: its base type's says the value
            if isinstance(value, str):
                return cut(str.__repr__(value))
            # An int or a float here: None's repr does not raise.
            return cut(float.__repr__(value) if isinstance(value, float) else int.__repr__(cast(int, value)))
    kind = type(value)
    if kind.__module__ == "builtins" or isinstance(value, enum.Enum) or not hasattr(value, "__dict__"):
        return kind.__name__  # a value type (datetime, Decimal): its name says enough
    # A record object, a caller's or an SDK's, that no reader could turn into
    # data: say what toolturns reads instead.
    return f"{kind.__name__} (an object, not JSON data: pass e.g. its .model_dump() or .to_dict())"

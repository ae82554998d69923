"""Running the tools a turn asks for: the toolbox, one result per call, and the loop around a transport.

Every failure a model can cause or act on (a tool that does not exist,
arguments that are not JSON or break the schema, a tool that raises or takes
too long, a return value with no wire form) becomes an ``is_error`` result
saying what went wrong, so that the model can correct itself and the history
stays one every provider accepts. A programmer's mistake (a toolbox entry
that is not a tool, a turn that is not a ``ChatMessage``) raises at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeAlias, TypeGuard

from ._content import PART_TYPES, ContentPart
from ._errors import (
    InvalidArguments,
    InvalidMessage,
    InvalidTool,
    InvalidTranscript,
    LoopLimit,
    LoopStopped,
    MessageError,
    describe,
    exception_text,
)
from ._json import encode, join_key, value_key
from ._message import ChatMessage, Role
from ._tool import Tool
from ._tool_call import ToolCall

#: What a toolbox holds: a function, or a tool with the callable that runs it.
ToolEntry: TypeAlias = Callable[..., Any] | tuple[Tool, Callable[..., Any]]


class LoopCodec(Protocol):
    """What the loop needs of a wire: a codec module (``toolturns.openai``) has both verbs."""

    def to_request(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[Tool] | None = None
    ) -> dict[str, Any]: ...

    def from_response(self, body: object) -> ChatMessage: ...


__all__ = ["LoopCodec", "ToolEntry", "Toolbox", "arun_calls", "arun_loop", "run_calls", "run_loop"]


class _Entry:
    """One tool of a toolbox: its definition, the callable, and how to call it."""

    __slots__ = ("bind", "function", "is_async", "tool", "validate")

    def __init__(
        self,
        tool: Tool,
        function: Callable[..., Any],
        bind: Callable[[dict[str, Any]], dict[str, Any]] | None,
    ) -> None:
        from ._schema import validator  # loaded with the first toolbox: import toolturns stays light

        self.tool = tool
        # Compiled now: a schema that is not one (an MCP server's, say) is the
        # toolbox's error when it is built, not an answer to the model later.
        self.validate = validator(tool.parameters_json)
        self.function = function
        # None for a (Tool, callable) pair: the callable gets the decoded
        # arguments as they are, its Tool being the caller's own description.
        self.bind = bind
        self.is_async = _is_async(function)


class Toolbox:
    """The tools a loop offers the model, each with the Python callable that runs it.

    Args:
        *tools: Functions (sync or async), each described by
            ``Tool.from_function``, or ``(Tool, callable)`` pairs, for a tool
            described by hand (an MCP server's, say): the callable is given
            the decoded arguments as keyword arguments.

    Raises:
        InvalidTool: an entry is neither, a function has no tool form, or two
            tools share a name.

    >>> def get_time(city: str) -> str:
    ...     "The local time in a city."
    ...     return "12:00"
    >>> toolbox = Toolbox(get_time)
    >>> [tool.name for tool in toolbox.tools]
    ['get_time']
    """

    __slots__ = ("_entries", "tools")

    # Only the public attribute is annotated here: typing.get_type_hints resolves a class's
    # annotations in toolturns, where the class is shown, and _Entry is not there.
    tools: tuple[Tool, ...]

    def __init__(self, *tools: ToolEntry) -> None:
        entries: dict[str, _Entry] = {}
        for index, given in enumerate(tools):
            entry = _entry(given, f"[{index}]")
            if entry.tool.name in entries:
                first = list(entries).index(entry.tool.name)
                raise InvalidTool(
                    f"[{index}].name",
                    f"must be unique in the toolbox (tool [{first}] has it)",
                    repr(entry.tool.name),
                )
            entries[entry.tool.name] = entry
        self._entries: dict[str, _Entry] = entries
        self.tools = tuple(entry.tool for entry in entries.values())

    def __repr__(self) -> str:
        return f"Toolbox({', '.join(repr(name) for name in self._entries)})"


def _entry(given: object, path: str) -> _Entry:
    if isinstance(given, tuple):
        if len(given) != 2 or not isinstance(given[0], Tool) or not callable(given[1]):
            raise InvalidTool(path, "must be a function or a (Tool, callable) pair", describe(given))
        tool, function = given
        try:
            return _Entry(tool, function, _bind_of(tool, function))
        except InvalidTool as error:
            raise error.with_prefix(f"{path}[0]") from None
    if not callable(given) or isinstance(given, type):
        raise InvalidTool(path, "must be a function or a (Tool, callable) pair", describe(given))
    from ._signature import Signature  # inspect and typing's hints: loaded with the first function

    try:
        signature = Signature(given)
    except InvalidTool as error:
        raise error.with_prefix(path) from None
    return _Entry(signature.tool, given, signature.bind)


def _bind_of(tool: Tool, function: Callable[..., Any]) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """How to call a pair's callable: as a function, when ``tool``'s parameters are those
    ``Tool.from_function`` reads from it (a function renamed or redescribed for the model keeps
    its arguments converted to its types); otherwise with the decoded arguments as they are."""
    from ._signature import Signature

    try:
        signature = Signature(function)
    except MessageError:  # no tool form (an MCP caller's **arguments, a lambda): described by hand
        return None
    same = value_key(signature.tool.parameters_json) == value_key(tool.parameters_json)
    return signature.bind if same else None


def _is_async(function: Callable[..., Any]) -> bool:
    """Whether calling ``function`` gives a coroutine: an ``async def``, or an object whose ``__call__`` is one."""
    import inspect  # only toolboxes need it; import toolturns stays light

    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
        getattr(function, "__call__", None)  # noqa: B004 (the method itself, not callable())
    )


# -- one call: prepare, run, answer ---------------------------------------------------


def _calls(turn: object) -> tuple[ToolCall, ...]:
    if not isinstance(turn, ChatMessage):
        raise InvalidMessage(
            "", "must be a ChatMessage (the assistant turn whose calls to run)", describe(turn)
        )
    if turn.role is not Role.ASSISTANT:
        raise InvalidMessage("role", "must be 'assistant' (a turn that calls tools)", repr(turn.role.value))
    return turn.tool_calls or ()


def _toolbox(toolbox: object) -> Toolbox:
    if not isinstance(toolbox, Toolbox):
        raise InvalidTool("toolbox", "must be a Toolbox", describe(toolbox))
    return toolbox


def _failed(call: ToolCall, text: str) -> ChatMessage:
    return ChatMessage.tool_result(call.id, text, is_error=True)


def _prepare(toolbox: Toolbox, call: ToolCall) -> tuple[_Entry, dict[str, Any]] | ChatMessage:
    """The tool and keyword arguments for ``call``, or the error result that answers it instead."""
    entry = toolbox._entries.get(call.name)
    if entry is None:
        known = ", ".join(repr(name) for name in toolbox._entries) or "none"
        return _failed(call, f"{call.name!r} was not run: there is no such tool (the tools are: {known})")
    try:
        arguments = call.arguments
    except InvalidArguments as error:
        return _failed(call, f"{call.name} was not run: its arguments are not a JSON object: {error.reason}")
    try:
        entry.validate(arguments)
        keywords = arguments if entry.bind is None else entry.bind(arguments)
    except InvalidArguments as error:
        return _failed(call, f"{call.name} was not run: its arguments do not match its schema: {error}")
    return entry, keywords


def _raised(call: ToolCall, error: BaseException) -> ChatMessage:
    # The exception's own words, not a traceback: what the model can act on.
    return _failed(call, f"{call.name} failed: {exception_text(error)}")


def _answer(call: ToolCall, value: object) -> ChatMessage:
    """The result of ``call`` whose tool returned ``value``; one that cannot even be read (a
    sequence whose iteration raises) is an error result too, so that every call is answered."""
    try:
        return _result(call, value)
    except Exception as error:
        return _failed(call, f"{call.name} returned a value that cannot be read: {exception_text(error)}")


def _result(call: ToolCall, value: object) -> ChatMessage:
    if isinstance(value, str):
        return ChatMessage.tool_result(call.id, value)  # a subclass kept as its characters
    if isinstance(value, ChatMessage):
        return _forwarded(call, value)
    if isinstance(value, PART_TYPES):
        return ChatMessage.tool_result(call.id, (value,))
    if isinstance(value, (list, tuple)) and value and all(isinstance(part, PART_TYPES) for part in value):
        parts: list[ContentPart] = list(value)
        return ChatMessage.tool_result(call.id, parts)
    try:
        text = encode(value, "", InvalidArguments)
    except InvalidArguments as error:
        return _failed(call, f"{call.name} returned a value that is not JSON: {error.reason}")
    return ChatMessage.tool_result(call.id, text)


def _forwarded(call: ToolCall, result: ChatMessage) -> ChatMessage:
    """A tool result the tool built itself (``mcp.tool_result``'s, say), answering ``call``."""
    if result.role is not Role.TOOL:
        return _failed(
            call, f"{call.name} returned a {result.role.value} message; only a tool result can answer a call"
        )
    if result.tool_call_id == call.id:
        return result
    # The tool cannot know the call's id: the result answers the call it ran for,
    # all else kept (its content, is_error, extra and provider data).
    import dataclasses  # only this path needs it

    return dataclasses.replace(result, tool_call_id=call.id)


# -- all the calls of a turn ----------------------------------------------------------


def run_calls(turn: ChatMessage, toolbox: Toolbox) -> list[ChatMessage]:
    """Run the calls of ``turn``: exactly one tool result per call, in call order.

    The calls run one after the other, in this thread (an async tool in an
    event loop of its own). Each failure is an ``is_error`` result saying
    what went wrong: a tool not in the toolbox (naming the ones that are),
    arguments that are not a JSON object or break the tool's schema (naming
    the path), the tool's exception (its type and message). What a tool
    returns becomes the content: a ``str`` as it is, content parts as parts,
    a tool result ``ChatMessage`` as it is (answering this call), any other
    JSON value as JSON text.

    Raises:
        InvalidMessage: ``turn`` is not an assistant ``ChatMessage``.
        InvalidTool: ``toolbox`` is not a ``Toolbox``.

    >>> from toolturns import ToolCall
    >>> def add(a: int, b: int) -> int:
    ...     "Add two numbers."
    ...     return a + b
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "add", {"a": 2, "b": 3}),
    ...                                           ToolCall("call_2", "add", {"a": 2})])
    >>> [(result.content, result.is_error) for result in run_calls(turn, Toolbox(add))]
    [('5', False), ('add was not run: its arguments do not match its schema: b: is required', True)]
    """
    calls = _calls(turn)
    box = _toolbox(toolbox)
    return [_run(box, call) for call in calls]


def _run(toolbox: Toolbox, call: ToolCall) -> ChatMessage:
    prepared = _prepare(toolbox, call)
    if isinstance(prepared, ChatMessage):
        return prepared
    entry, keywords = prepared
    try:
        value = entry.function(**keywords)
        if _awaitable(value):
            value = _run_coroutine(value)
    except Exception as error:
        return _raised(call, error)
    return _answer(call, value)


def _awaitable(value: object) -> TypeGuard[Awaitable[Any]]:
    return hasattr(type(value), "__await__")


def _run_coroutine(awaitable: Awaitable[Any]) -> Any:
    """Await ``awaitable`` from synchronous code: in a new event loop, in another thread if this one runs a loop."""
    import asyncio

    async def wait() -> Any:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wait())
    # A loop runs in this thread (run_calls called from async code): asyncio.run
    # would refuse, so the tool gets a thread with a loop of its own.
    import threading

    outcome: list[Any] = []

    def work() -> None:
        try:
            outcome.append((True, asyncio.run(wait())))
        except BaseException as error:  # re-raised in the caller's thread below
            outcome.append((False, error))

    thread = threading.Thread(target=work, name="toolturns-tool")
    thread.start()
    thread.join()
    succeeded, value = outcome[0]
    if succeeded:
        return value
    raise value


async def arun_calls(
    turn: ChatMessage,
    toolbox: Toolbox,
    *,
    max_concurrency: int | None = None,
    timeout: float | None = None,
) -> list[ChatMessage]:
    """Run the calls of ``turn`` concurrently: exactly one tool result per call, in call order.

    Async tools run as tasks of the running loop, sync ones in worker
    threads (``asyncio.to_thread``); the results come back in call order
    whatever finishes first, each failure an ``is_error`` result as in
    ``run_calls``.

    Args:
        max_concurrency: At most this many calls run at once (``None``: all).
        timeout: Seconds each call may run; a call that takes longer is
            answered "did not finish within ... seconds". An async tool is
            cancelled then; a sync one cannot be stopped, so its thread runs
            on and its return value is ignored.

    Cancelling the caller cancels the calls still running and raises
    ``CancelledError``, as asyncio expects: no results are returned.

    >>> import asyncio
    >>> from toolturns import ToolCall
    >>> async def get_time(city: str) -> str:
    ...     "The local time in a city."
    ...     await asyncio.sleep(0)
    ...     return "12:00"
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time", {"city": "Paris"})])
    >>> [result.content for result in asyncio.run(arun_calls(turn, Toolbox(get_time)))]
    ['12:00']
    """
    import asyncio

    calls = _calls(turn)
    box = _toolbox(toolbox)
    _check_concurrency(max_concurrency)
    _check_timeout(timeout)
    limit = asyncio.Semaphore(max_concurrency) if max_concurrency is not None else None

    async def one(call: ToolCall) -> ChatMessage:
        prepared = _prepare(box, call)
        if isinstance(prepared, ChatMessage):
            return prepared
        if limit is None:
            return await _arun(call, *prepared, timeout)
        async with limit:
            return await _arun(call, *prepared, timeout)

    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(one(call)) for call in calls]
    return [task.result() for task in tasks]


async def _arun(
    call: ToolCall, entry: _Entry, keywords: dict[str, Any], timeout: float | None
) -> ChatMessage:
    import asyncio

    scope = asyncio.timeout(timeout)
    try:
        async with scope:
            value = await _called(entry, keywords)
    except TimeoutError as error:
        if scope.expired():
            return _failed(call, f"{call.name} did not finish within {timeout:g} seconds")
        return _raised(call, error)  # the tool's own TimeoutError
    except Exception as error:
        return _raised(call, error)
    return _answer(call, value)


async def _called(entry: _Entry, keywords: dict[str, Any]) -> Any:
    """What the tool returns: an async one awaited here, a sync one run in a worker thread."""
    import asyncio

    if entry.is_async:
        return await entry.function(**keywords)
    value = await asyncio.to_thread(entry.function, **keywords)
    return await value if _awaitable(value) else value


def _check_concurrency(value: object) -> None:
    if value is not None and (type(value) is not int or value < 1):
        raise InvalidTool("max_concurrency", "must be None or an integer of at least 1", describe(value))


def _check_timeout(value: object) -> None:
    if value is None:
        return
    if type(value) not in (int, float) or not 0 < value < float("inf"):  # type: ignore[operator]
        raise InvalidTool("timeout", "must be None or a positive finite number of seconds", describe(value))


# -- the loop ---------------------------------------------------------------------------


def run_loop(
    send: Callable[[dict[str, Any]], object],
    history: Sequence[ChatMessage],
    toolbox: Toolbox,
    *,
    codec: LoopCodec | str,
    max_steps: int = 10,
    request_options: Mapping[str, Any] | None = None,
) -> list[ChatMessage]:
    """Ask the model, run the calls it makes, and ask again, until it answers without calls.

    Each step builds the request body with ``codec.to_request(history,
    tools=toolbox.tools)``, hands it to ``send`` (the caller's transport: any
    SDK or HTTP client; it returns the decoded response), reads the turn with
    ``codec.from_response``, and answers its calls with ``run_calls``.

    Args:
        send: Posts a body and returns the provider's response (a dict, or an
            SDK response object the codec reads). An async one is
            ``arun_loop``'s.
        history: The conversation so far; it is not changed.
        codec: The wire: a codec module (``toolturns.openai``) or its
            registered name (``"openai"``).
        max_steps: The most responses to read.
        request_options: More keyword arguments for ``codec.to_request``,
            for what the caller accepts to lose or move:
            ``{"drop_unsupported": True}`` for an MCP server's tools (their
            ``title`` and ``outputSchema`` no wire carries),
            ``{"tool_parts_to_user": True}`` for tools that return images on
            OpenAI Chat.

    Returns:
        A new list: ``history``, then each turn and its results.

    Raises:
        LoopLimit: the ``max_steps``-th turn still called tools. Its calls
            were answered, so ``.history`` passes ``check_transcript``.
        LoopStopped: a step raised: ``send`` (a timeout, a rate limit), or the
            codec writing the history or reading the response. Its
            ``.history`` keeps every turn and result before that step, and
            its ``.error`` (the ``__cause__`` too) is what was raised.
        InvalidTranscript: an argument of the loop's own is wrong
            (``InvalidTool``: ``toolbox`` is not a ``Toolbox``); nothing was sent.
    """
    wire, messages, options = _start(history, codec, max_steps, request_options)
    box = _toolbox(toolbox)
    for number in range(1, max_steps + 1):
        with _Step(number, messages) as step:
            body = wire.to_request(messages, tools=box.tools, **options)
            step.stage = "send"
            answer = _answer_of(send(body))
            turn = wire.from_response(step.reading(answer))
        messages.append(turn)
        if not turn.tool_calls:
            return messages
        messages.extend(run_calls(turn, box))
    raise LoopLimit(max_steps, messages)


async def arun_loop(
    send: Callable[[dict[str, Any]], Awaitable[object] | object],
    history: Sequence[ChatMessage],
    toolbox: Toolbox,
    *,
    codec: LoopCodec | str,
    max_steps: int = 10,
    request_options: Mapping[str, Any] | None = None,
    max_concurrency: int | None = None,
    timeout: float | None = None,
) -> list[ChatMessage]:
    """``run_loop`` for an async transport: what ``send`` returns is awaited (a sync ``send``
    works too), the calls run with ``arun_calls`` (``max_concurrency`` and ``timeout`` are its)."""
    wire, messages, options = _start(history, codec, max_steps, request_options)
    box = _toolbox(toolbox)
    _check_concurrency(max_concurrency)
    _check_timeout(timeout)
    for number in range(1, max_steps + 1):
        with _Step(number, messages) as step:
            body = wire.to_request(messages, tools=box.tools, **options)
            step.stage = "send"
            answer = send(body)
            # A sync transport works here too: only an awaitable is awaited.
            answer = await answer if _awaitable(answer) else answer
            turn = wire.from_response(step.reading(answer))
        messages.append(turn)
        if not turn.tool_calls:
            return messages
        messages.extend(await arun_calls(turn, box, max_concurrency=max_concurrency, timeout=timeout))
    raise LoopLimit(max_steps, messages)


class _Step:
    """One request of a loop: an exception inside stops the loop as ``LoopStopped``, keeping its history.

    Only an ``Exception``: a ``KeyboardInterrupt`` or a task's cancellation
    passes as it is, as everywhere in Python.
    """

    __slots__ = ("history", "number", "response", "stage")

    def __init__(self, number: int, history: list[ChatMessage]) -> None:
        self.number = number
        self.history = history
        self.stage: Literal["to_request", "send", "from_response"] = "to_request"  # the loop moves it on
        self.response: object = None  # what send returned, once from_response reads it

    def __enter__(self) -> _Step:
        return self

    def __exit__(self, kind: object, error: BaseException | None, traceback: object) -> None:
        if isinstance(error, Exception):
            raise LoopStopped(self.number, self.stage, error, self.history, self.response) from error

    def reading(self, response: object) -> object:
        """``response``, which ``from_response`` reads next: kept, should it fail."""
        self.stage = "from_response"
        self.response = response
        return response


def _answer_of(answer: object) -> object:
    """The response a sync ``send`` gave; an awaitable (an async ``send``) is refused, saying what to use."""
    if _awaitable(answer):
        getattr(answer, "close", lambda: None)()  # a coroutine never awaited would warn when collected
        raise InvalidTranscript(
            "send", "must return the response, not an awaitable (use arun_loop)", describe(answer)
        )
    return answer


def _start(
    history: object, codec: object, max_steps: object, request_options: object
) -> tuple[LoopCodec, list[ChatMessage], dict[str, Any]]:
    if type(max_steps) is not int or max_steps < 1:
        raise InvalidTranscript("max_steps", "must be an integer of at least 1", describe(max_steps))
    if not isinstance(history, (list, tuple)):
        raise InvalidTranscript("history", "must be a list or tuple of ChatMessage", describe(history))
    for index, message in enumerate(history):
        if not isinstance(message, ChatMessage):
            raise InvalidTranscript(f"history[{index}]", "must be a ChatMessage", describe(message))
    wire = _codec(codec)
    return wire, list(history), _options(request_options, wire)


def _options(request_options: object, wire: LoopCodec) -> dict[str, Any]:
    if request_options is None:
        return {}
    if not isinstance(request_options, Mapping) or not all(isinstance(key, str) for key in request_options):
        raise InvalidTranscript(
            "request_options",
            "must be None or a mapping of to_request's keyword arguments",
            describe(request_options),
        )
    if "tools" in request_options:
        raise InvalidTranscript(
            "request_options.tools", "must not be given: the loop sends the toolbox's tools"
        )
    known = _keywords(wire.to_request)
    for key, value in request_options.items():
        if known is not None and key not in known:
            taken = ", ".join(known) or "none but tools"
            raise InvalidTranscript(
                join_key("request_options", key),
                f"is not a keyword argument of the codec's to_request (it takes {taken})",
                describe(value),
            )
    return dict(request_options)


def _keywords(to_request: Callable[..., object]) -> list[str] | None:
    """The keyword arguments ``to_request`` takes beside ``tools``; None when its signature
    cannot say (no signature, or ``**kwargs``): the call itself then says what it refuses."""
    import inspect  # only a loop given request_options needs it

    try:
        parameters = list(inspect.signature(to_request).parameters.values())
    except Exception:  # no signature, or a __signature__ that raises
        return None
    if any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters):
        return None
    by_name = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if parameters and parameters[0].kind is not inspect.Parameter.KEYWORD_ONLY:
        parameters = parameters[1:]  # the messages, whatever the codec names them
    return [
        parameter.name for parameter in parameters if parameter.kind in by_name and parameter.name != "tools"
    ]


def _codec(codec: object) -> LoopCodec:
    from .providers import PROVIDERS

    if isinstance(codec, str):
        if codec not in PROVIDERS:
            raise InvalidTranscript(
                "codec", f"must be a codec module or one of {', '.join(map(repr, PROVIDERS))}", repr(codec)
            )
        return PROVIDERS[codec].codec
    if not all(callable(getattr(codec, verb, None)) for verb in ("to_request", "from_response")):
        raise InvalidTranscript(
            "codec",
            "must be a codec module (with to_request and from_response) or a wire's name",
            describe(codec),
        )
    return codec  # type: ignore[return-value]  # checked above: it has the two verbs the loop uses

"""``ToolCall``: one call the model asked for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._arguments import decode_arguments, encode_arguments, text_arguments
from ._checks import nonempty_str
from ._errors import InvalidToolCall, MessageError, describe
from ._extra import EMPTY, Extra
from ._frozen import name_slots, refuse_changes, to_class, unfrozen_twin
from ._json import JSONInput, decode_object, join_key, value_key
from ._sdk import dumped

__all__ = ["ToolCall", "plain_calls"]

# Keys of the wire form; everything else on a call dict goes to ``extra``.
_WIRE_KEYS = frozenset({"id", "type", "function"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})


class _ToolCallSlots:
    # ToolCall's slots, with none of its refusals: the twin (_frozen.unfrozen_twin).
    __slots__ = ("_key", "arguments_json", "extra", "id", "name", "provider_data")


class ToolCall(_ToolCallSlots):
    """One call the model asked for: an id, a tool name and JSON arguments.

    Args:
        id: The call's id, echoed by the tool result that answers it.
        name: The name of the tool to run.
        arguments: A mapping (encoded to JSON text now, and rejected now if it
            is not JSON), raw JSON text from a model (kept byte-for-byte, even
            when malformed), or ``None``. ``None``, ``{}``, ``""``, white space
            and ``"null"`` all mean "no arguments" and are stored as ``{}``.
        extra: Wire keys of the call that toolturns does not model; kept and
            emitted again by ``to_wire()``. Not ``index``: that is the call's
            position in its turn's ``tool_calls``, which their order says.
        provider_data: Data one provider needs back unchanged on the next
            request (Gemini's ``thoughtSignature``), keyed by provider name;
            never emitted by ``to_wire()`` or another provider's codec.

    Raises:
        InvalidToolCall: ``id`` or ``name`` is not a non-empty string, or
            ``extra`` is not a mapping of JSON or holds ``index``.
        InvalidArguments: ``arguments`` is not a mapping of JSON, text or None.

    >>> call = ToolCall("call_1", "get_weather", {"city": "Paris"})
    >>> call.arguments_json
    '{"city":"Paris"}'
    >>> call.arguments
    {'city': 'Paris'}
    >>> ToolCall("call_2", "get_time", "").arguments_json
    '{}'
    """

    if TYPE_CHECKING:
        # Read-only to type checkers, as they are at run time (__setattr__
        # refuses): assigning to a field is flagged before it runs.
        @property
        def id(self) -> str: ...
        @property
        def name(self) -> str: ...
        @property
        def arguments_json(self) -> str: ...
        @property
        def extra(self) -> Mapping[str, Any]: ...
        @property
        def provider_data(self) -> Mapping[str, Any]: ...

        _key: tuple[object, ...] | None
    else:
        __slots__ = ()

    def __init__(
        self,
        id: str,
        name: str,
        arguments: Mapping[str, JSONInput] | str | None = None,
        *,
        extra: Mapping[str, JSONInput] | None = None,
        provider_data: Mapping[str, JSONInput] | None = None,
    ) -> None:
        call_id = id if type(id) is str and id else nonempty_str(id, "id", InvalidToolCall)
        tool = name if type(name) is str and name else nonempty_str(name, "name", InvalidToolCall)
        arguments_json = encode_arguments(arguments, call_id=call_id, name=tool)
        kept_extra = EMPTY if extra is None else _extra_without_position(extra)
        kept_data = (
            EMPTY
            if provider_data is None
            else provider_data  # a reader's, built as build() builds it (no key is reserved here)
            if type(provider_data) is Extra and provider_data
            else Extra.build(provider_data, path="provider_data", reserved=frozenset(), error=InvalidToolCall)
        )
        # Every value checked, nothing left to raise: set them, on the twin (_frozen.unfrozen_twin)
        # for six plain stores, about half what six setter calls cost.
        if _Unfrozen is not None and type(self) is ToolCall:
            to_class(self, _Unfrozen)
            unfrozen: Any = self
            unfrozen.id = call_id
            unfrozen.name = tool
            unfrozen.arguments_json = arguments_json
            unfrozen.extra = kept_extra
            unfrozen.provider_data = kept_data
            unfrozen._key = None
            unfrozen.__class__ = ToolCall
            return
        _SET_ID(self, call_id)
        _SET_NAME(self, tool)
        _SET_ARGUMENTS_JSON(self, arguments_json)
        _SET_EXTRA(self, kept_extra)
        _SET_PROVIDER_DATA(self, kept_data)
        _SET_KEY(self, None)

    @property
    def arguments(self) -> dict[str, Any]:
        """The arguments decoded into a fresh dict (changing it changes nothing).

        Raises:
            InvalidArguments: the text is not JSON, or not a JSON object. The
                error carries ``call_id``, ``name`` and ``raw``.

        >>> ToolCall("call_1", "f", '{"city": "Par').arguments
        Traceback (most recent call last):
        ...
        toolturns.InvalidArguments: arguments: must be valid JSON (Unterminated string starting at: line 1 column 10 (char 9)), got '{"city": "Par'
        """
        decoded = decode_object(self.arguments_json)  # the common case, without decode_arguments' layer
        return (
            decode_arguments(self.arguments_json, call_id=self.id, name=self.name)
            if decoded is None
            else decoded
        )

    def to_wire(self) -> dict[str, Any]:
        """The OpenAI wire form: arguments as JSON text, type ``function``.

        >>> ToolCall("call_1", "get_time").to_wire()
        {'id': 'call_1', 'type': 'function', 'function': {'name': 'get_time', 'arguments': '{}'}}
        """
        wire: dict[str, Any] = {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments_json},
        }
        if self.extra is not EMPTY and self.extra:
            wire.update(self.extra)  # Extra decodes each value afresh
        return wire

    @classmethod
    def from_dict(cls, data: object) -> ToolCall:
        """Read a call from its wire form or its decoded form.

        The wire form carries arguments as JSON text; the decoded form (Ollama,
        older code) as an object. ``type`` may be missing or ``"function"``.
        Keys other than ``id``, ``type`` and ``function`` go to ``extra``, but
        ``index`` (on the call, as the openai SDK's stream accumulation leaves
        it, or in ``function``, as Ollama sends it): that is the call's
        position in its turn's ``tool_calls``, read and not kept. A call read
        alone has no known position, so any non-negative integer is taken;
        ``ChatMessage.from_dict`` requires the call's own.

        Raises:
            InvalidToolCall: the shape is wrong; the path says where.
            InvalidArguments: decoded arguments that are not JSON.

        >>> ToolCall.from_dict({"id": "c1", "function": {"name": "f", "arguments": {"x": 1}}})
        ToolCall(id='c1', name='f', arguments='{"x":1}')
        >>> ToolCall.from_dict({"index": 0, "id": "c1", "function": {"name": "f"}}).to_wire()
        {'id': 'c1', 'type': 'function', 'function': {'name': 'f', 'arguments': '{}'}}
        """
        return cls._read(data, None)

    @classmethod
    def _read(cls, data: object, position: int | None) -> ToolCall:
        # from_dict, and ChatMessage.from_dict for the call at ``position`` of tool_calls.
        plain = _plain_call(data) if cls is ToolCall else None  # it makes no subclass
        if plain is not None:  # most calls: read in one step
            return plain
        if (
            type(data) is not dict
            and not isinstance(data, Mapping)
            and not isinstance(data := dumped(data), Mapping)
        ):
            raise InvalidToolCall("", "must be an object", describe(data))
        kind = data.get("type")
        if kind == "tool_call" and "args" in data:
            raise InvalidToolCall(
                "type",
                "must be 'function': this is LangChain's tool-call shape ({name, args, id}); toolturns "
                "reads OpenAI's, {'id': ..., 'type': 'function', 'function': {'name': ..., 'arguments': ...}}",
                describe(kind),
            )
        if kind is not None and kind != "function":
            raise InvalidToolCall(
                "type", "must be 'function' (only function tool calls are supported)", describe(kind)
            )
        function = data.get("function")
        if (
            type(function) is not dict
            and not isinstance(function, Mapping)
            and not isinstance(function := dumped(function), Mapping)
        ):
            rule = "is required" if function is None else "must be an object"
            raise InvalidToolCall("function", rule, None if function is None else describe(function))
        for key, value in () if function.keys() <= _FUNCTION_KEYS else function.items():
            if key == _POSITION and value is not None:
                _check_position(value, position, "function.index")
            elif key not in _FUNCTION_KEYS and value is not None and key not in _DERIVED:
                raise InvalidToolCall(
                    join_key("function", key),
                    "is not a known key (function holds name and arguments)",
                    describe(value),
                )
        arguments = function.get("arguments")
        if arguments is not None and not isinstance(arguments, (str, Mapping)):
            raise InvalidToolCall(
                "function.arguments", "must be JSON text (a string) or an object", describe(arguments)
            )
        call_id = data.get("id")
        if type(call_id) is not str or not call_id:
            call_id = nonempty_str(call_id, "id", InvalidToolCall)
        name = function.get("name")
        if type(name) is not str or not name:
            name = nonempty_str(name, "function.name", InvalidToolCall)
        extra = EMPTY if data.keys() <= _WIRE_KEYS else _extra_of(data, position)
        try:
            arguments_json = encode_arguments(arguments, call_id=call_id, name=name)
        except MessageError as error:  # only the arguments are left to fail
            raise error.with_prefix("function") from None
        return cls._checked(call_id, name, arguments_json, extra, EMPTY)

    @classmethod
    def _checked(
        cls, call_id: str, name: str, arguments_json: str, extra: Extra, provider_data: Extra
    ) -> ToolCall:
        # Fast path for values toolturns has just checked: set, do not check again.
        if _Unfrozen is None or cls is not ToolCall:  # each slot through its own setter: not
            # CPython with its GIL, or a subclass (whose layout may differ from the twin's)
            self = object.__new__(cls)
            _SET_ID(self, call_id)
            _SET_NAME(self, name)
            _SET_ARGUMENTS_JSON(self, arguments_json)
            _SET_EXTRA(self, extra)
            _SET_PROVIDER_DATA(self, provider_data)
            _SET_KEY(self, None)
            return self
        unfrozen = _Unfrozen()
        unfrozen.id = call_id
        unfrozen.name = name
        unfrozen.arguments_json = arguments_json
        unfrozen.extra = extra
        unfrozen.provider_data = provider_data
        unfrozen._key = None
        unfrozen.__class__ = ToolCall  # the same slots: now a frozen call
        made: ToolCall = unfrozen
        return made

    def _value_key(self) -> tuple[object, ...]:
        # Cached: decoding the arguments is the costly part of eq and hash.
        if self._key is None:
            key = (self.id, self.name, value_key(self.arguments_json), self.extra, self.provider_data)
            object.__setattr__(self, "_key", key)
            return key
        return self._key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolCall):
            return NotImplemented
        if self is other:
            return True
        if self.id != other.id or self.name != other.name:
            return False
        return self._value_key() == other._value_key()

    def __hash__(self) -> int:
        return hash(self._value_key())

    def __repr__(self) -> str:
        extra = f", extra={dict(self.extra)!r}" if self.extra else ""
        if self.provider_data:
            extra += f", provider_data={dict(self.provider_data)!r}"
        return f"ToolCall(id={self.id!r}, name={self.name!r}, arguments={self.arguments_json!r}{extra})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (
            self.id,
            self.name,
            self.arguments_json,
            dict(self.extra),
            dict(self.provider_data),
        )


refuse_changes(ToolCall)


# openai's chat.completions.parse() adds function.parsed_arguments: the
# arguments decoded by the SDK, a copy of what arguments says; read, never sent.
_DERIVED = frozenset({"parsed_arguments"})

# A call's position in its turn's tool_calls, written on the call by the openai
# SDK's stream accumulation (get_final_completion() keeps each delta's index)
# and in function by Ollama (histories stored from /api/chat). The order of the
# calls says the same, so it is read, checked and not kept: sent again it is a
# 400 from OpenAI ("Unknown parameter: 'messages[1].tool_calls[0].index'.").
# A rule of reading the OpenAI shape as others write it, not of one codec (the
# Ollama codec reads its native function.index itself, in providers/ollama/read.py).
_POSITION = "index"
_NOT_EXTRA = _WIRE_KEYS | {_POSITION}


def _check_position(value: object, position: int | None, path: str) -> None:
    """An index must be the call's position; alone (``position`` None), any position."""
    if type(value) is int and (value >= 0 if position is None else value == position):
        return
    if position is None:
        raise InvalidToolCall(
            path,
            "must be a non-negative integer (the call's position in its turn's tool_calls)",
            describe(value),
        )
    # Another number would say the calls are in another order than the list's.
    raise InvalidToolCall(
        path,
        f"must be {position}, the call's position in tool_calls (the calls are read in list order)",
        describe(value),
    )


def _extra_of(data: Mapping[Any, Any], position: int | None) -> Extra:
    """The keys of a call dict toolturns does not model, its index checked and left out."""
    index = data.get(_POSITION)
    if index is not None:
        _check_position(index, position, _POSITION)
    return Extra.build(
        {key: value for key, value in data.items() if key not in _NOT_EXTRA},
        path="",
        reserved=_WIRE_KEYS,
        error=InvalidToolCall,
    )


def _extra_without_position(extra: object) -> Extra:
    """``ToolCall(extra=...)``: an index there would be sent, so it is refused, not dropped."""
    built = Extra.build(extra, path="extra", reserved=_WIRE_KEYS, error=InvalidToolCall)
    if _POSITION in built:
        raise InvalidToolCall(
            "extra.index",
            "is the call's position in its turn's tool_calls, not an extra key "
            "(the order of the calls says it, and OpenAI refuses index in a request)",
            describe(built[_POSITION]),
        )
    return built


# The slots' own setters (__setattr__ refuses), without object.__setattr__'s lookup.
_SET_ID, _SET_NAME, _SET_ARGUMENTS_JSON, _SET_EXTRA, _SET_PROVIDER_DATA, _SET_KEY = (
    getattr(ToolCall, slot).__set__
    for slot in ("id", "name", "arguments_json", "extra", "provider_data", "_key")
)


def _restore(
    id: str, name: str, arguments_json: str, extra: dict[str, Any], provider_data: dict[str, Any]
) -> ToolCall:
    # Unpickling goes through the constructor, so a tampered pickle is validated.
    return ToolCall(id, name, arguments_json, extra=extra, provider_data=provider_data)


#: ToolCall's slots without its refusals, for ``_checked`` and ``__init__`` (``_frozen.unfrozen_twin``).
_Unfrozen = unfrozen_twin(ToolCall)
name_slots(ToolCall)

# Bound once: a classmethod looked up on its class costs about 30 ns a call.
_checked = ToolCall._checked


def _plain_call(data: object) -> ToolCall | None:
    """The call of ``{"id", "type": "function", "function": {"name", "arguments"}}``, its id,
    name and arguments text, read in one step: what the general way of ``ToolCall._read``
    gives (a test holds them to it); else None. Three and two keys, each found with a value
    of its type, are the only keys."""
    if type(data) is not dict or len(data) != 3:
        return None
    # Subscripts, not get(): a method call each cost about 20 ns more, and a key missing
    # (KeyError) only means "not this shape".
    try:
        if data["type"] != "function":
            return None
        call_id, function = data["id"], data["function"]
        if type(call_id) is not str or not call_id or type(function) is not dict or len(function) != 2:
            return None
        name, arguments = function["name"], function["arguments"]
    except KeyError:
        return None
    if type(name) is not str or not name or type(arguments) is not str:
        return None
    return _checked(call_id, name, text_arguments(arguments), EMPTY, EMPTY)


def plain_calls(items: list[Any]) -> tuple[ToolCall, ...] | None:
    """The calls of a non-empty ``tool_calls`` list whose every item ``_plain_call`` reads, in
    one step; else None, and ``ChatMessage.from_dict``'s general way reads them (ids that
    repeat are not looked at here)."""
    if not items:
        return None
    calls = []
    for item in items:
        call = _plain_call(item)
        if call is None:
            return None
        calls.append(call)
    return tuple(calls)

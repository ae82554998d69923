"""``Role`` and ``ChatMessage``: one validated, immutable chat turn."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any

from ._checks import exact_str, nonempty_str
from ._content import ContentPart, check_content_parts, text_of
from ._errors import InvalidMessage, MessageError, describe
from ._extra import EMPTY, Extra
from ._frozen import pickled_fields, refuse_rebuild, slot_names, to_class, unfrozen_twin, value_class
from ._json import JSONInput
from ._sdk import dumped
from ._tool_call import ToolCall, plain_calls

__all__ = ["SYSTEM_ROLES", "ChatMessage", "Role", "unique_ids"]


class Role(enum.StrEnum):
    """Who speaks a turn. Values are the lowercase wire strings.

    ``DEVELOPER`` is OpenAI's system role for reasoning models; other providers
    treat it as system.

    >>> Role("tool")
    <Role.TOOL: 'tool'>
    >>> Role.USER == "user"
    True
    """

    SYSTEM = "system"
    DEVELOPER = "developer"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


# The members as module globals, for the paths every message takes: on Python 3.11 an
# Enum's member looked up on its class costs about 60 ns (its metaclass's lookup), a
# global a few, and a transcript of 200 messages looks one up several times a message.
SYSTEM, DEVELOPER, USER, ASSISTANT, TOOL = Role.SYSTEM, Role.DEVELOPER, Role.USER, Role.ASSISTANT, Role.TOOL

#: The roles that give the model instructions: OpenAI's two spellings of one
#: channel, which Anthropic and Gemini send apart from the conversation.
SYSTEM_ROLES = frozenset({SYSTEM, DEVELOPER})

# Exact wire strings only: "USER" and "user " are mistakes, not spellings.
_ROLES: dict[str, Role] = {role.value: role for role in Role}
_ROLE_RULE = "must be one of " + ", ".join(repr(role.value) for role in Role)

# OpenAI's shapes from before tool calls (2023), still in old datasets: named
# as such, with what replaced them, rather than read as unknown keys or roles.
LEGACY_CALL = (
    "is the legacy shape of a call, from before tool calls: send "
    "tool_calls=[{'id': ..., 'type': 'function', 'function': {'name': ..., 'arguments': ...}}]"
)
LEGACY_RESULT = "'function' is the legacy role of a function's result: send role 'tool' with its tool_call_id"

# openai's chat.completions.parse() adds message.parsed: the content decoded
# by the SDK into the caller's type, a copy of what content says; read, never sent.
_DERIVED = frozenset({"parsed"})

# The wire keys ChatMessage models; every other key of a message dict is extra.
_MODELLED = frozenset({"role", "content", "name", "tool_calls", "tool_call_id", "is_error"})


@value_class(frozen=True, slots=True, init=False, repr=False)
class ChatMessage:
    """One chat turn: who speaks, the text, and the tool calls or tool result.

    Build one with the named constructors (``user``, ``assistant_tool_calls``,
    ``tool_result``, ...), or read one with ``from_dict``. Every rule is checked
    when the message is built, so ``dataclasses.replace`` checks again.

    Args:
        role: A ``Role`` or its exact wire string (``"user"``).
        content: The text: a string, or a list or tuple of content parts
            (``TextPart``, ``ImagePart``, ``FilePart``, ``AudioPart``), stored
            as a tuple. Which parts a role may carry is each wire's rule.
        tool_calls: The calls of an assistant turn: a non-empty list or tuple
            of ``ToolCall`` with unique ids; stored as a tuple.
        tool_call_id: On a tool turn, and required there: the call it answers.
        name: An optional participant name; not on tool turns.
        is_error: On a tool turn: the tool failed.
        extra: Wire keys toolturns does not model (``weight``, ...), kept and
            emitted again by ``to_wire()``; ``None`` and empty values are dropped.
        provider_data: Data one provider needs back unchanged on the next
            request (Anthropic thinking blocks), keyed by provider name. Only
            that provider's codec reads or writes its key: ``to_wire()``, the
            OpenAI wire, writes back ``"openai"``'s (an assistant's refusal
            parts), and no other provider's.

    Raises:
        InvalidMessage: a rule is broken; the error names field, rule and value.

    >>> ChatMessage("user", "What is the weather in Paris?")
    ChatMessage(role='user', content='What is the weather in Paris?')
    >>> ChatMessage("USER", "hi")
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: role: must be one of 'system', 'developer', 'user', 'assistant', 'tool', got 'USER'
    """

    role: Role
    content: str | tuple[ContentPart, ...]
    tool_calls: tuple[ToolCall, ...] | None
    tool_call_id: str | None
    name: str | None
    is_error: bool
    extra: Mapping[str, Any]
    provider_data: Mapping[str, Any]

    def __init__(
        self,
        role: Role | str,
        content: str | Sequence[ContentPart],
        *,
        tool_calls: Sequence[ToolCall] | None = None,
        tool_call_id: str | None = None,
        name: str | None = None,
        is_error: bool = False,
        extra: Mapping[str, JSONInput] | None = None,
        provider_data: Mapping[str, JSONInput] | None = None,
    ) -> None:
        _fill(
            self,
            role,
            content,
            tool_calls=tool_calls,
            tool_call_id=tool_call_id,
            name=name,
            is_error=is_error,
            extra=extra,
            provider_data=provider_data,
        )

    @classmethod
    def _make(
        cls,
        role: Role,
        content: str | Sequence[ContentPart],
        *,
        tool_calls: Sequence[ToolCall] | None = None,
        tool_call_id: str | None = None,
        name: str | None = None,
        is_error: bool = False,
        extra: Mapping[str, JSONInput] | None = None,
    ) -> ChatMessage:
        # What __init__ does (every rule is checked), for the named constructors. Their
        # common calls (text content, no name; on a tool turn a non-empty id) are set at once
        # with _plain instead, as the general way would set them: a test holds them to it.
        # Not for a subclass, which _plain does not make.
        return _fill(
            object.__new__(cls),
            role,
            content,
            tool_calls=tool_calls,
            tool_call_id=tool_call_id,
            name=name,
            is_error=is_error,
            extra=extra,
        )

    @classmethod
    def _plain(
        cls,
        role: Role,
        content: str,
        tool_call_id: str | None = None,
        tool_calls: tuple[ToolCall, ...] | None = None,
        provider_data: Extra = EMPTY,
    ) -> ChatMessage:
        # For a reader that has checked what _fill would check: ``role`` a Role, ``content`` a
        # str, ``tool_call_id`` a non-empty str on a tool turn and None on any other,
        # ``tool_calls`` a non-empty tuple of calls with unique ids on an assistant turn,
        # ``provider_data`` an Extra. Most messages of a transcript are such: set, not
        # checked again.
        if _Unfrozen is None:  # not CPython with its GIL: each slot through its own setter
            return _fill(
                object.__new__(cls), role, content, tool_calls, tool_call_id, None, False, None, provider_data
            )
        unfrozen = _Unfrozen()
        unfrozen.role = role
        unfrozen.content = content
        unfrozen.tool_calls = tool_calls
        unfrozen.tool_call_id = tool_call_id
        unfrozen.name = None
        unfrozen.is_error = False
        unfrozen.extra = EMPTY
        unfrozen.provider_data = provider_data
        unfrozen.__class__ = ChatMessage  # the same slots: now a frozen message
        message: ChatMessage = unfrozen
        return message

    # -- named constructors -------------------------------------------------

    @classmethod
    def system(cls, content: str | Sequence[ContentPart], *, name: str | None = None) -> ChatMessage:
        """A system turn.

        >>> ChatMessage.system("Answer in French.").to_wire()
        {'role': 'system', 'content': 'Answer in French.'}
        """
        if type(content) is str and name is None and cls is ChatMessage:
            return _plain(SYSTEM, content)  # the common call, set at once (see _make)
        return cls._make(SYSTEM, content, name=name)

    @classmethod
    def developer(cls, content: str | Sequence[ContentPart], *, name: str | None = None) -> ChatMessage:
        """A developer turn (OpenAI's system role for reasoning models).

        >>> ChatMessage.developer("Be brief.").role
        <Role.DEVELOPER: 'developer'>
        """
        if type(content) is str and name is None and cls is ChatMessage:
            return _plain(DEVELOPER, content)
        return cls._make(DEVELOPER, content, name=name)

    @classmethod
    def user(
        cls,
        content: str | Sequence[ContentPart],
        *,
        name: str | None = None,
        extra: Mapping[str, JSONInput] | None = None,
    ) -> ChatMessage:
        """A user turn: text, or content parts.

        >>> ChatMessage.user("hi").to_wire()
        {'role': 'user', 'content': 'hi'}
        >>> from toolturns import ImagePart, TextPart
        >>> turn = ChatMessage.user([TextPart("What is this?"), ImagePart(url="https://example.com/cat.png")])
        >>> turn.text
        'What is this?'
        """
        if type(content) is str and name is None and extra is None and cls is ChatMessage:
            return _plain(USER, content)
        return cls._make(USER, content, name=name, extra=extra)

    @classmethod
    def assistant(cls, content: str | Sequence[ContentPart], *, name: str | None = None) -> ChatMessage:
        """An assistant turn with text only.

        >>> ChatMessage.assistant("It is 18 degrees in Paris.").content
        'It is 18 degrees in Paris.'
        """
        if type(content) is str and name is None and cls is ChatMessage:
            return _plain(ASSISTANT, content)
        return cls._make(ASSISTANT, content, name=name)

    @classmethod
    def assistant_tool_calls(
        cls,
        tool_calls: Sequence[ToolCall],
        content: str | Sequence[ContentPart] | None = None,
        *,
        name: str | None = None,
    ) -> ChatMessage:
        """An assistant turn that asks for tool calls, with optional text.

        ``content=None`` is stored as ``""``.

        >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
        >>> turn.to_wire()["tool_calls"]
        [{'id': 'call_1', 'type': 'function', 'function': {'name': 'get_time', 'arguments': '{}'}}]
        """
        if (
            (content is None or type(content) is str)
            and name is None
            and cls is ChatMessage
            and (type(tool_calls) is list or type(tool_calls) is tuple)
        ):
            calls = _distinct_calls(tool_calls)
            if calls is not None:
                return _plain(ASSISTANT, content or "", None, calls)
        return cls._make(ASSISTANT, "" if content is None else content, tool_calls=tool_calls, name=name)

    @classmethod
    def tool_result(
        cls, tool_call_id: str, content: str | Sequence[ContentPart], *, is_error: bool = False
    ) -> ChatMessage:
        """A tool turn answering the call ``tool_call_id``: text, or content parts (a screenshot).

        ``is_error=True`` says the tool failed (Anthropic's ``is_error``,
        Gemini's ``{"error": ...}``); the OpenAI wire has no such field.

        >>> ChatMessage.tool_result("call_1", "18 degrees").to_wire()
        {'role': 'tool', 'content': '18 degrees', 'tool_call_id': 'call_1'}
        """
        if (
            type(tool_call_id) is str
            and tool_call_id
            and type(content) is str
            and is_error is False
            and cls is ChatMessage
        ):
            return _plain(TOOL, content, tool_call_id)
        return cls._make(TOOL, content, tool_call_id=tool_call_id, is_error=is_error)

    @property
    def text(self) -> str:
        """The text of the turn: the string, or its text parts joined, for code that only wants text.

        >>> from toolturns import ImagePart, TextPart
        >>> ChatMessage.user([TextPart("Describe "), ImagePart(url="https://example.com/a.png"),
        ...                   TextPart("this.")]).text
        'Describe this.'
        """
        return text_of(self.content)

    # -- the OpenAI wire ------------------------------------------------------

    def to_wire(self, *, null_content: bool = False) -> dict[str, Any]:
        """The OpenAI Chat Completions request form of this message: toolturns' own wire.

        Keys come in this order: ``role``, ``content``, ``name``, ``tool_calls``,
        ``tool_call_id``, then the extra keys. ``is_error`` is not emitted: the
        OpenAI wire has no such field. Content parts are written as OpenAI's
        parts, and what this wire was read with beyond the model (in
        ``provider_data["openai"]``: an assistant's refusal parts, a part's
        unknown keys) is written back where it stood; no other provider's
        data is.

        Raises:
            InvalidMessage: a part this wire has no place for (a file's URL,
                a media type beside an image's URL), or malformed
                ``provider_data["openai"]``; the path names it
                (``content[1].url``).

        Args:
            null_content: On a tool-call turn with no text, emit
                ``"content": null`` instead of ``""``.

        >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
        >>> turn.to_wire(null_content=True)["content"] is None
        True
        """
        # _value_, not .value: the enum property costs a call per message.
        content = self.content
        wire: dict[str, Any] = {
            "role": self.role._value_,
            "content": _write_parts(content) if type(content) is tuple else content,
        }
        if null_content and self.tool_calls and not self.content:
            wire["content"] = None
        if self.provider_data is not EMPTY:  # rare: data this wire was read with, back in place
            replayed = _replayed_content(self)
            if replayed is not None:
                wire["content"] = replayed
        if self.name is not None:
            wire["name"] = self.name
        if self.tool_calls:
            wire["tool_calls"] = [call.to_wire() for call in self.tool_calls]
        if self.tool_call_id is not None:
            wire["tool_call_id"] = self.tool_call_id
        if self.extra is not EMPTY and self.extra:
            wire.update(self.extra)
        return wire

    @classmethod
    def from_dict(cls, data: object) -> ChatMessage:
        """Read a message dict: an OpenAI request or response message.

        Normalises what carries no information (``content: null`` beside tool
        calls, ``tool_calls: []``, null and empty unknown keys, a call's
        ``index`` when it is the call's position in ``tool_calls``) and keeps
        every other unknown key in ``extra``. A list ``content`` reads as
        content parts; what OpenAI's parts carry beyond them (an assistant's
        ``refusal`` parts, a part's unknown keys) is kept in
        ``provider_data["openai"]``, which ``to_wire`` writes back.

        Raises:
            InvalidMessage, InvalidToolCall, InvalidArguments: the path in the
                error says where (``tool_calls[1].function.name``).

        >>> ChatMessage.from_dict({"role": "assistant", "content": None, "refusal": None,
        ...     "tool_calls": [{"id": "call_1", "type": "function",
        ...                     "function": {"name": "get_time", "arguments": ""}}]})
        ChatMessage(role='assistant', content='', tool_calls=(ToolCall(id='call_1', name='get_time', arguments='{}'),))
        """
        if type(data) is dict and cls is ChatMessage:  # _plain makes no subclass
            # Most messages of a transcript, read in one step: no key beyond role, content and
            # (on a tool turn) tool_call_id or (on an assistant turn) tool_calls, the content
            # text (or null beside calls). Two or three keys, each found with a value of its
            # type, are the only keys. What the general way (_read) gives, which a test holds
            # them to; anything else, and every error, goes that way.
            # Subscripts, not get(): a method call each cost 20-30 ns more (these reads were 6-9%
            # slower), and a key missing (KeyError) only means "not one of these shapes". Only
            # the lookups are tried: reading the calls runs a caller's code (their mappings).
            items: object = None
            text = ""
            try:
                role, content = data["role"], data["content"]
                if type(role) is str and (type(content) is str or content is None):
                    size = len(data)
                    if size == 2 and content is not None:
                        checked = _ROLES[role]
                        if checked is not TOOL:  # a tool turn needs its id
                            return _plain(checked, content)
                    elif size == 3 and role == "tool" and content is not None:
                        call_id = data["tool_call_id"]
                        if type(call_id) is str and call_id:
                            return _plain(TOOL, content, call_id)
                    elif size == 3 and role == "assistant":
                        items, text = data["tool_calls"], content or ""
            except KeyError:
                pass
            if type(items) is list:
                calls = plain_calls(items)
                if calls is None:
                    calls = _read_tool_calls(items)  # raises as _read would, first
                if calls is not None and unique_ids(calls):
                    return _plain(ASSISTANT, text, None, calls)
        return _read(cls, data)

    def __setstate__(self, state: object) -> None:
        # Unpickling (and copy): the fields in order, as the dataclass pickles
        # them, checked as the constructor checks its arguments.
        refuse_rebuild(self, "role")
        _fill(self, *pickled_fields(state, _FIELDS, InvalidMessage))

    def __repr__(self) -> str:
        parts = [f"role={self.role.value!r}", f"content={self.content!r}"]
        if self.tool_calls is not None:
            parts.append(f"tool_calls={self.tool_calls!r}")
        if self.tool_call_id is not None:
            parts.append(f"tool_call_id={self.tool_call_id!r}")
        if self.name is not None:
            parts.append(f"name={self.name!r}")
        if self.is_error:
            parts.append("is_error=True")
        if self.extra:
            parts.append(f"extra={dict(self.extra)!r}")
        if self.provider_data:
            parts.append(f"provider_data={dict(self.provider_data)!r}")
        return f"ChatMessage({', '.join(parts)})"


# -- the rules, one function each ---------------------------------------------

# The fields in order: how the dataclass pickles them, and _fill's arguments.
_FIELDS = slot_names(ChatMessage)

# The slots' own setters: the frozen class refuses setattr, and these skip the
# attribute lookup object.__setattr__ does on every call.
(
    _SET_ROLE,
    _SET_CONTENT,
    _SET_TOOL_CALLS,
    _SET_TOOL_CALL_ID,
    _SET_NAME,
    _SET_IS_ERROR,
    _SET_EXTRA,
    _SET_PROVIDER_DATA,
) = (getattr(ChatMessage, field).__set__ for field in _FIELDS)


#: ChatMessage's slots without its refusals, for ``_plain`` (``_frozen.unfrozen_twin``).
_Unfrozen = unfrozen_twin(ChatMessage)

# Bound once: looking a classmethod up on its class costs about 30 ns a call, on
# paths that read every message of a transcript.
_plain = ChatMessage._plain
_read_call = ToolCall._read


def _fill(
    self: ChatMessage,
    role: object,
    content: object,
    tool_calls: object = None,
    tool_call_id: object = None,
    name: object = None,
    is_error: object = False,
    extra: object = None,
    provider_data: object = None,
) -> ChatMessage:
    """Check every field and set it. Each inline test only picks out values
    its rule's function would return unchanged; the rest go to that function.

    Callers name the optional fields (``tool_calls=...``), except
    ``from_dict``'s general way (``_read``), which every message not in a
    plain shape takes; a new field comes last, with a default, so only the
    paths that set it change."""
    checked_role = role if type(role) is Role else _ROLES.get(role) if type(role) is str else None
    if checked_role is None:
        checked_role = _check_role(role)
    checked_content = content if type(content) is str else _check_content(content, checked_role)
    calls = None if tool_calls is None else _check_tool_calls(tool_calls, checked_role)
    call_id = (
        None
        if tool_call_id is None and checked_role is not TOOL
        else _check_tool_call_id(tool_call_id, checked_role)
    )
    # Any role may carry a name; on a tool message older OpenAI examples name the
    # function there (OpenAI ignores it), and check_transcript compares it with the call's.
    checked_name = None if name is None else nonempty_str(name, "name", InvalidMessage)
    error = False if is_error is False else _check_is_error(is_error, checked_role)
    kept_extra = (
        EMPTY
        if extra is None or extra is EMPTY
        else Extra.build(extra, path="extra", reserved=_MODELLED, error=InvalidMessage)
    )
    kept_data = (
        EMPTY
        if provider_data is None or provider_data is EMPTY
        else provider_data  # a reader's, built as build() builds it (no key is reserved here)
        if type(provider_data) is Extra and provider_data
        else Extra.build(provider_data, path="provider_data", reserved=frozenset(), error=InvalidMessage)
    )
    # Every field checked, nothing left to raise: set them, on the twin (_frozen.unfrozen_twin)
    # for eight plain stores, about half what eight setter calls cost.
    if _Unfrozen is not None and type(self) is ChatMessage:
        to_class(self, _Unfrozen)
        unfrozen: Any = self
        unfrozen.role = checked_role
        unfrozen.content = checked_content
        unfrozen.tool_calls = calls
        unfrozen.tool_call_id = call_id
        unfrozen.name = checked_name
        unfrozen.is_error = error
        unfrozen.extra = kept_extra
        unfrozen.provider_data = kept_data
        unfrozen.__class__ = ChatMessage
        return self
    _SET_ROLE(self, checked_role)
    _SET_CONTENT(self, checked_content)
    _SET_TOOL_CALLS(self, calls)
    _SET_TOOL_CALL_ID(self, call_id)
    _SET_NAME(self, checked_name)
    _SET_IS_ERROR(self, error)
    _SET_EXTRA(self, kept_extra)
    _SET_PROVIDER_DATA(self, kept_data)
    return self


def _read(cls: type[ChatMessage], data: object) -> ChatMessage:
    """``from_dict``'s general way: every value read and checked, and the error made, for any
    dict (or mapping, or SDK object) and any class."""
    if (
        type(data) is not dict
        and not isinstance(data, Mapping)
        and not isinstance(data := dumped(data), Mapping)
    ):
        raise InvalidMessage("", "must be an object (a dict)", describe(data))
    if "role" not in data:
        raise _no_role(data)
    raw_calls = data.get("tool_calls")
    tool_calls = None if raw_calls is None else _read_tool_calls(raw_calls)
    content: Any = data.get("content")  # checked by __init__, like every value
    provider_data = None
    if type(content) is list or type(content) is tuple:
        # Parts; an assistant's refusal parts are kept in provider_data["openai"].
        content, provider_data = _read_parts(content, data.get("role"))
    if content is None and not tool_calls and data.get("function_call") is not None:
        # A legacy call turn: its call is all it says. (Beside text, a
        # function_call is kept in extra, as any other key.)
        raise InvalidMessage("function_call", LEGACY_CALL, describe(data["function_call"]))
    if content is None and (tool_calls or _is_refusal(data)):
        # An assistant turn whose answer is its tool calls, or a refusal,
        # has no text: OpenAI sends null there.
        content = ""
    is_error = data.get("is_error")
    # Positional, in _fill's order: every message not in a plain shape comes
    # here, where keyword arguments cost more than the checks.
    return _fill(
        object.__new__(cls),
        data["role"],
        content,
        tool_calls,
        data.get("tool_call_id"),
        data.get("name"),
        False if is_error is None else is_error,
        EMPTY
        if data.keys() <= _MODELLED  # the common case, tested in C
        else Extra.build(
            {key: value for key, value in data.items() if key not in _MODELLED and key not in _DERIVED},
            path="",
            reserved=_MODELLED,
            error=InvalidMessage,
        ),
        provider_data,
    )


def unique_ids(calls: Sequence[ToolCall]) -> bool:
    """Whether no two of ``calls`` share an id, as ``_check_tool_calls`` requires: the test a
    reader makes before building a turn at once (the general way says which call repeats one)."""
    count = len(calls)
    if count < 2:
        return True
    # Two and three calls, most turns that make more than one, compared in place: a set
    # comprehension costs a function call of its own (before Python 3.12).
    if count == 2:
        first, second = calls
        return first.id != second.id
    if count == 3:
        first, second, third = calls
        one, two, three = first.id, second.id, third.id
        return one != two and one != three and two != three
    return len({call.id for call in calls}) == count


def _distinct_calls(calls: list[Any] | tuple[Any, ...]) -> tuple[ToolCall, ...] | None:
    """``calls`` as a tuple when it is not empty and holds only ToolCalls (not a subclass's)
    with unique ids, as ``_check_tool_calls`` would return it; else None, and that says what
    is wrong."""
    for call in calls:
        if type(call) is not ToolCall:
            return None
    return tuple(calls) if calls and unique_ids(calls) else None


def _on_role(value: object, role: Role) -> str:
    return f"{describe(value)} with role {role.value!r}"


def _check_role(value: object) -> Role:
    if isinstance(value, str):
        try:  # not contextlib.suppress: on Python 3.13 nothing else imports contextlib
            return Role(exact_str(value))  # a str subclass, such as another StrEnum's member
        except ValueError:
            pass
    if value == "function":
        raise InvalidMessage("role", f"{_ROLE_RULE}: {LEGACY_RESULT}", describe(value))
    raise InvalidMessage("role", _ROLE_RULE, describe(value))


def _check_content(value: object, role: Role) -> str | tuple[ContentPart, ...]:
    if isinstance(value, str):
        # A subclass kept as its characters: the codecs write a str (type() is str, as JSON reads).
        return exact_str(value)
    if isinstance(value, (list, tuple)):
        return check_content_parts(value)
    if value is None:
        rule = (
            "must be a string or a list of content parts "
            "(None only beside tool calls: use ChatMessage.assistant_tool_calls)"
        )
    elif role is TOOL and isinstance(value, Mapping):
        # A tool's return value handed over as it is: the wire carries text.
        rule = (
            "must be a string or a list of content parts: send a tool's value as text, e.g. json.dumps(value)"
        )
    else:
        rule = "must be a string or a list of content parts"
    raise InvalidMessage("content", rule, describe(value))


# Responses API items, which have a type and no role (the Chat Completions
# reader would only say "role: is required").
_RESPONSES_ITEMS = frozenset({"function_call", "function_call_output", "message", "reasoning"})


def _no_role(data: Mapping[Any, Any]) -> InvalidMessage:
    """The error for a message dict without ``role``: say what it is when its shape tells."""
    kind = data.get("type")
    if isinstance(kind, str) and kind in _RESPONSES_ITEMS:
        return InvalidMessage(
            "role",
            f"is required: this is an OpenAI Responses API item (type {kind!r}), not a Chat "
            "Completions message (toolturns reads Chat Completions messages here)",
        )
    return InvalidMessage("role", "is required")


def _check_tool_calls(value: object, role: Role) -> tuple[ToolCall, ...]:
    if role is not ASSISTANT:
        raise InvalidMessage("tool_calls", "are only allowed on assistant messages", _on_role(value, role))
    if not isinstance(value, (list, tuple)):
        raise InvalidMessage("tool_calls", "must be a list or tuple of ToolCall", describe(value))
    if not value:
        raise InvalidMessage("tool_calls", "must not be empty (use None for a turn without calls)", "[]")
    first_index: dict[str, int] = {}
    for index, call in enumerate(value):
        if not isinstance(call, ToolCall):
            raise InvalidMessage(
                f"tool_calls[{index}]",
                "must be a ToolCall (read dicts with ToolCall.from_dict)",
                describe(call),
            )
        seen = first_index.setdefault(call.id, index)
        if seen != index:
            raise InvalidMessage(
                f"tool_calls[{index}].id",
                f"must be unique within the message (tool_calls[{seen}] has it too)",
                describe(call.id),
            )
    return tuple(value)


def _check_tool_call_id(value: object, role: Role) -> str:
    if role is not TOOL:
        raise InvalidMessage("tool_call_id", "is only allowed on tool messages", _on_role(value, role))
    if value is None:
        raise InvalidMessage("tool_call_id", "is required on tool messages")
    return nonempty_str(value, "tool_call_id", InvalidMessage)


def _check_is_error(value: object, role: Role) -> bool:
    if not isinstance(value, bool):
        raise InvalidMessage("is_error", "must be a boolean", describe(value))
    if value and role is not TOOL:
        raise InvalidMessage("is_error", "is only allowed on tool messages", _on_role(value, role))
    return value


def _read_parts(
    content: Sequence[Any], role: object
) -> tuple[tuple[ContentPart, ...] | str, Mapping[str, Any] | None]:
    # The OpenAI part shapes live with OpenAI's rules; imported when a list first comes.
    from .providers.openai.parts import read_parts

    return read_parts(content, role)


def _write_parts(content: tuple[ContentPart, ...]) -> list[dict[str, Any]]:
    from .providers.openai.parts import write_parts

    return write_parts(content)


def _replayed_content(message: ChatMessage) -> list[dict[str, Any]] | None:
    from .providers.openai.parts import replayed_content

    return replayed_content(message)


def _is_refusal(data: Mapping[str, Any]) -> bool:
    # OpenAI's refusal response: an assistant message whose text is null and
    # whose refusal says why. The refusal itself stays in extra.
    refusal = data.get("refusal")
    return data.get("role") == "assistant" and isinstance(refusal, str) and refusal != ""


def _read_tool_calls(value: object) -> tuple[ToolCall, ...] | None:
    # Reading, unlike building, takes null and [] as "no calls": responses and
    # some SDKs send them. toolturns itself never emits an empty list.
    if not isinstance(value, (list, tuple)):
        raise InvalidMessage("tool_calls", "must be an array of tool calls", describe(value))
    calls = []
    for index, item in enumerate(value):
        try:
            calls.append(_read_call(item, index))  # an index the call carries must be this one
        except MessageError as error:
            raise error.with_prefix(f"tool_calls[{index}]") from None
    return tuple(calls) or None

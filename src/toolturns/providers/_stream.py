"""What every provider's stream assembler shares: the life cycle, streamed text, kept copies.

Each provider's ``StreamAssembler`` is built on ``Assembler``: it is fed the
items of one streamed response (the dict one SSE ``data:`` line or one NDJSON
line decodes to), collects text and argument fragments, and joins them only
as far as asked, so that assembly, and a snapshot after every item, stay
linear in the stream.

Threads: one thread feeds; ``snapshot()`` may be called from any thread at any
time (docs/streaming.md says so). What a snapshot reads of the assembly is
only ever appended to (fragments, parts, calls, the log of what changed) or
replaced whole (an id, a name). A snapshot writes nothing that feeding writes:
only its memos of what it read, each one value replaced whole, true whichever
snapshot wrote it last, and read before the assembly, so that a memo never
claims more than what is read after it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from .._errors import InvalidStream, MessageError, describe
from .._json import MAX_DEPTH
from .._message import ChatMessage
from .._sdk import dumped
from .._stream import PartialToolCall, StreamSnapshot

__all__ = [
    "Assembler",
    "OtherKeys",
    "SoFar",
    "Text",
    "equal_int",
    "joined",
    "joined_since",
    "owned",
    "updated",
]

_Item = TypeVar("_Item")


def equal_int(value: object, index: object) -> bool:
    """Whether an index a stream gave is an int equal to ``index`` (never True, 1.0 or an int subclass).

    The fast paths test identity first (``value is index``): the ints a chunk's
    JSON decodes to from -5 to 256 are the interpreter's own objects, so the
    common fragment costs no call. Past them, two equal ints are two objects,
    and this says whether they are equal: the one place that test is written.
    """
    return type(value) is int and value == index


def joined(fragments: Sequence[str]) -> str:
    """The fragments of a streamed text as one text, a surrogate pair split between two made one character.

    A character outside the BMP may be split by a stream between two chunks
    ("\\ud83d" in one, "\\ude00" in the next), which json.loads reads as two
    lone halves; joined, they are made the one character again. A lone half
    stays as it came.
    """
    text = "".join(fragments)
    # The common cases cost no scan in Python: isascii() reads a flag of the
    # string, and UTF-8 encoding (in C) fails only on a surrogate.
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return text


#: What a memo of a streamed text says: the first N fragments joined are this text.
SoFar = tuple[int, str]


def joined_since(fragments: Sequence[str], so_far: SoFar) -> SoFar:
    """``so_far`` brought up to every fragment there is now, joining only the ones since.

    The same text ``joined`` gives for all of them: a surrogate pair split
    between the last joined fragment and the next is made one character.
    """
    count, text = so_far
    end = len(fragments)
    if end == count:
        return so_far
    more = joined(fragments[count:end])
    if text and "\ud800" <= text[-1] <= "\udbff":
        # A high surrogate last: the low half may be the first of the new fragments.
        return end, text[:-1] + joined([text[-1], more])
    return end, text + more


class Text(list[str]):
    """The fragments of a streamed text, in order; ``so_far()`` joins only what came since it was last asked.

    The feeding thread only appends; ``so_far`` never changes the fragments,
    only its memo of how many it has joined into what text, so a snapshot
    taken from another thread cannot lose a fragment appended meanwhile.

    >>> text = Text(["Hel", "lo"])
    >>> text.so_far()
    'Hello'
    >>> text.append(", world")
    >>> text.so_far(), list(text)
    ('Hello, world', ['Hel', 'lo', ', world'])
    >>> text.append("!")
    >>> text.whole(), text.so_far()
    ('Hello, world!', 'Hello, world!')
    """

    # No __init__: list's own makes one with no Python call (most are made once and
    # joined once). No __slots__ either: the memo, until it is first set, is the class's
    # "nothing joined yet", found without the AttributeError an unset slot raises (which
    # cost about 0.5 µs, as much as joining a call's fragments). The price is an instance
    # dict once the memo is set, about 350 bytes more a Text (one a call or part of a
    # stream being assembled, not of the messages made).
    _so_far: SoFar = (0, "")

    def so_far(self) -> str:
        """The fragments joined (as ``joined`` joins them), as many as there are now."""
        self._so_far = so_far = joined_since(self, self._so_far)
        return so_far[1]

    def whole(self) -> str:
        """The fragments joined, as ``so_far`` joins them, for a reader that asks once (the
        message built at the end): what a snapshot joined is used, and nothing is kept.

        Keeping the memo costs about 0.35 µs the first time (the instance's dict is made
        then), and the slice ``so_far`` joins 0.15 more, together as much as joining a call's
        fragments. Joined whole, the list is read in one step, so a fragment appended
        meanwhile from another thread is either in the text or not: nothing is lost.
        """
        so_far = self._so_far
        return joined(self) if not so_far[0] else joined_since(self, so_far)[1]


def updated(
    shown: tuple[_Item, ...], changed: Mapping[int, _Item], added: Sequence[_Item]
) -> tuple[_Item, ...]:
    """``shown`` with the items at the positions ``changed`` replaced, ``added`` after: ``shown`` itself if nothing is new.

    >>> updated(("a", "b"), {1: "B"}, ["c"])
    ('a', 'B', 'c')
    """
    changed = {position: item for position, item in changed.items() if item != shown[position]}
    if not changed:
        return shown + tuple(added) if added else shown
    items = list(shown)
    for position, item in changed.items():
        items[position] = item
    items += added
    return tuple(items)


def owned(value: object, path: str) -> Any:
    """``value`` with its dicts, lists and tuples copied all the way down: what an assembler keeps of an item.

    A caller may reuse or change its dicts after feeding them; what was
    assembled must not change with them. Dicts and lists (their subclasses
    too) become plain ones, tuples stay tuples; everything else (strings,
    numbers, an object the reader refuses later) is kept as it is.

    Raises:
        InvalidStream: ``value`` nests deeper than toolturns' JSON limit (a
            circular value never ends), at ``path``.

    >>> fed = {"usage": {"tokens": [1, 2]}}
    >>> kept = owned(fed, "item")
    >>> fed["usage"]["tokens"].append(3)
    >>> kept
    {'usage': {'tokens': [1, 2]}}
    """
    if type(value) is dict or type(value) is list:
        # What a stream brings: decoded JSON, shallow. Copied by the fast walk;
        # anything else in it, or deeper, by the general one, which gives the same.
        try:
            return _plain_copy(value, _PLAIN_DEPTH)
        except (_Unusual, RecursionError):
            pass
    return _walked_copy(value, path)


#: The JSON types a decoded value's leaves are, kept as they are by both walks.
_SCALARS = frozenset({str, int, float, bool, type(None)})

#: How deep the fast walk goes (one Python frame a level) before it leaves the value to the general walk.
_PLAIN_DEPTH = 32


class _Unusual(Exception):
    """Raised by the fast walk on what it leaves to the general one: a tuple, a subclass, depth."""


def _plain_copy(value: Any, depth: int) -> Any:
    """``value`` copied as ``_walked_copy`` copies it, if it is dicts and lists of JSON scalars
    nested at most ``depth`` levels (exactly those types); else raise _Unusual."""
    if type(value) is dict:
        if not depth:
            raise _Unusual
        copy = value.copy()
        for key, item in copy.items():  # replacing a value as it goes: the keys stay as they are
            kind = type(item)
            if kind in _SCALARS:
                continue
            if kind is list and not item:  # an empty list (annotations, logprobs): common, no call
                copy[key] = []
            elif kind is dict and not item:
                copy[key] = {}
            else:
                copy[key] = _plain_copy(item, depth - 1)
        return copy
    if type(value) is list:
        if not depth:
            raise _Unusual
        return [item if type(item) in _SCALARS else _plain_copy(item, depth - 1) for item in value]
    if isinstance(value, (dict, list, tuple)):
        raise _Unusual
    return value  # not JSON, but no container either: both walks keep it as it is


def _walked_copy(value: object, path: str) -> Any:
    """What ``owned`` gives, for any value: the general walk, which builds no Python stack.

    Raises:
        InvalidStream: as ``owned`` says.
    """
    if not isinstance(value, (dict, list, tuple)):
        return value  # the common case: a string or a number
    # Iterative, so that depth costs no Python stack (a comprehension per
    # level would cost two frames per level on Python 3.11).
    top: list[Any] = [value]
    pending: list[tuple[Any, Any, object, int]] = [(top, 0, value, 0)]
    tuples: list[tuple[Any, Any, list[Any]]] = []  # made tuples once their items are copied
    while pending:
        holder, key, node, depth = pending.pop()
        if depth == MAX_DEPTH:
            raise InvalidStream(
                path,
                f"must nest at most {MAX_DEPTH} levels deep (a circular structure never ends)",
                describe(value),
            )
        copy: dict[Any, Any] | list[Any]
        if isinstance(node, dict):
            copy = dict(node)
            children: Iterable[tuple[Any, Any]] = copy.items()
        else:
            assert isinstance(node, (list, tuple))
            copy = list(node)
            children = enumerate(copy)
            if isinstance(node, tuple):
                tuples.append((holder, key, copy))
        holder[key] = copy
        pending.extend(
            (copy, child_key, child, depth + 1)
            for child_key, child in children
            if isinstance(child, (dict, list, tuple))
        )
    for holder, key, items in reversed(tuples):  # the innermost first
        holder[key] = tuple(items)
    return top[0]


class OtherKeys:
    """Message keys a stream repeats or streams that the assembler does not model.

    Text arrives in fragments and concatenates; with ``extend_arrays`` arrays
    extend (OpenAI's ``annotations``); any other value must come back the
    same each time, since keeping one of two values would lose the other.
    """

    def __init__(self, *, extend_arrays: bool) -> None:
        self._extend_arrays = extend_arrays
        self._values: dict[str, Any] = {}

    def merge(self, key: str, value: object, path: str) -> None:
        """Add one occurrence of ``key``, or raise InvalidStream at ``path``."""
        kept = self._values.get(key)
        if kept is None:
            self._values[key] = Text([value]) if isinstance(value, str) else owned(value, path)
        elif isinstance(kept, Text) and isinstance(value, str):
            kept.append(value)
        elif self._extend_arrays and type(kept) is list and isinstance(value, list):
            kept.extend(owned(value, path))
        elif isinstance(kept, Text) or _differ(kept, value):
            arrays = " or array" if self._extend_arrays else ""
            raise InvalidStream(
                path,
                f"must keep its value or stream text{arrays} fragments (toolturns cannot merge it otherwise)",
                describe(value),
            )

    def __bool__(self) -> bool:
        """Whether any key came."""
        return bool(self._values)

    def joined(self) -> dict[str, Any]:
        """The keys with their text fragments joined, in the order they first came."""
        return {key: v.so_far() if isinstance(v, Text) else v for key, v in self._values.items()}


def _differ(kept: object, value: object) -> bool:
    # What is kept nests at most MAX_DEPTH levels, but the value it is
    # compared with is not copied (nor so checked), and the stack may be deep.
    try:
        return bool(kept != value)
    except RecursionError:  # too deep to compare: not the same value as far as we can tell
        return True


class Assembler(ABC):
    """The life cycle every provider's ``StreamAssembler`` shares.

    Subclasses implement ``_feed`` (take one item; set ``finish_reason``,
    ``usage`` and, on the provider's closing event, ``_ended``), ``_build``
    (the assembled message) and ``_partial_calls`` (the calls so far).
    """

    #: The provider's own reason the stream stopped (``tool_calls``,
    #: ``max_tokens``, ``STOP``...), once it has said one.
    finish_reason: str | None
    #: The usage object the stream reported, if any.
    usage: dict[str, Any] | None

    def __init__(self) -> None:
        self.finish_reason = None
        self.usage = None
        self._fed = 0
        self._ended = False
        # The parts of the turn (calls, blocks) that feeding changed, in order,
        # for a subclass whose snapshot reads again only what changed: feeding
        # appends a part after changing it, a snapshot remembers how far it read.
        self._touched: list[Any] = []

    @property
    def ended(self) -> bool:
        """True once the provider's closing event arrived: the stream ended cleanly.

        False for a stream cut off before it (a dropped connection): its
        last tool call may hold partial argument text, kept as it is.

        >>> from toolturns import gemini
        >>> stream = gemini.StreamAssembler()
        >>> stream.feed({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}]})
        >>> stream.ended
        False
        >>> stream.feed({"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]},
        ...                              "finishReason": "STOP"}]})
        >>> stream.ended, stream.finish_reason, stream.message().content
        (True, 'STOP', 'Hello')
        """
        return self._ended

    def feed(self, item: object) -> None:
        """Take the next item of the stream (one decoded SSE data or NDJSON line).

        Raises:
            InvalidStream: the stream has already ended, or the item is not
                one this provider sends; the path starts with ``item[N]``.

        >>> from toolturns import anthropic
        >>> stream = anthropic.StreamAssembler()
        >>> stream.feed({"type": "content_block_start", "index": 0})
        Traceback (most recent call last):
        ...
        toolturns.InvalidStream: item[0].type: must be 'message_start' first (or 'ping'), got 'content_block_start'
        """
        if type(item) is not dict:
            item = dumped(item)  # an SDK's chunk or event object
        if self._ended and not self._accepts_after_end(item):
            raise InvalidStream(
                f"item[{self._items_fed()}]", "must not follow the end of the stream", describe(item)
            )
        if type(item) is not dict:
            raise InvalidStream(f"item[{self._items_fed()}]", "must be an object", describe(item))
        try:
            self._feed(item)
        except MessageError as error:  # try, not `with at()`: this runs once per chunk
            raise error.with_prefix(f"item[{self._items_fed()}]") from None  # the path made only when needed
        self._fed += 1

    def _items_fed(self) -> int:
        """How many items were taken: where the next one is (``item[N]``). Each one ``feed``
        takes counts itself in ``_fed``; a subclass whose fast path counts its items another
        way says how here."""
        return self._fed

    def _end_with(self, reason: object, path: str) -> None:
        """The provider said why it stopped (a string at ``path``): record it and end the stream."""
        if not isinstance(reason, str):
            raise InvalidStream(path, "must be a string", describe(reason))
        self.finish_reason = reason
        self._ended = True

    def _accepts_after_end(self, item: object) -> bool:
        """Whether ``item`` may still come after the closing event; none may by default."""
        return False

    def message(self) -> ChatMessage:
        """The assistant turn assembled so far: text, and tool calls with their raw argument text.

        Nothing is completed or repaired: a call cut off mid-arguments keeps
        its partial text, so its ``.arguments`` raises ``InvalidArguments``.

        Raises:
            InvalidStream: nothing was fed yet.

        >>> from toolturns import openai
        >>> openai.StreamAssembler().message()
        Traceback (most recent call last):
        ...
        toolturns.InvalidStream: has no items yet: feed the stream before asking for its message
        """
        if not self._fed and not self._items_fed():  # _fed first: it is enough for most streams
            raise InvalidStream("", "has no items yet: feed the stream before asking for its message")
        return self._build()

    def snapshot(self) -> StreamSnapshot:
        """The text and tool calls so far, without changing the assembly.

        Incremental: it joins only what came since the last snapshot (and
        copies the text and the list of calls into the new snapshot, as a
        new value must hold them), so a snapshot after every item costs time
        linear in the stream. Safe from any thread while one thread feeds:
        it shows the stream as far as it had come, perhaps part of the way
        into the item being fed, and never loses what is fed meanwhile.

        >>> from toolturns import openai
        >>> stream = openai.StreamAssembler()
        >>> stream.feed({"choices": [{"index": 0, "delta": {"content": "Checking"}}]})
        >>> stream.snapshot().content, stream.snapshot().finish_reason
        ('Checking', None)
        """
        # tuple() of a tuple is that tuple: no copy of what _partial_calls built.
        return StreamSnapshot(self._content(), tuple(self._partial_calls()), self.finish_reason)

    # -- what each provider implements -----------------------------------------

    @abstractmethod
    def _feed(self, item: dict[str, Any]) -> None:
        """Take one item, already checked to be a dict."""

    @abstractmethod
    def _build(self) -> ChatMessage:
        """The assembled assistant message."""

    @abstractmethod
    def _content(self) -> str:
        """The text so far, joining only what came since it was last asked (and writing nothing that feeding writes)."""

    @abstractmethod
    def _partial_calls(self) -> Sequence[PartialToolCall]:
        """The tool calls so far, reading again only what changed since they were last asked for (likewise)."""

"""What a wire carries that the model does not: kept when read, written back to the same wire.

A native object (Anthropic's block, Gemini's part, Ollama's message or call)
may hold keys toolturns does not model (``cache_control``, ``thoughtSignature``,
``thinking``), and a native message may hold whole items it does not model
(thinking blocks, code-execution parts). Reading keeps them in the value's
``provider_data[provider]``, in one schema for every wire::

    {
        "keys": {...},                  # the native object's other keys
        "nested": {"function": {...}},  # the other keys of a nested native object, by its key
        "items": [[position, {...}]],   # native items of the message not modelled, where they stood
        "generated_id": true,           # on a call: toolturns made the id up; never sent
    }

Writing to the same provider puts each back where it came from; no other
provider ever sends it. An entry holding anything else is refused: reading
never writes it, so it is a mistake, not data to pass on.

Readers build the entry with ``unmodelled`` and ``kept``; writers read it back
through ``Replay``, which checks it against what reading keeps for that kind
of value, and ``placed``, which puts kept items back between the modelled ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NoReturn, cast

from .._checks import exact_str
from .._errors import InvalidMessage, MessageError, describe
from .._extra import EMPTY, Extra, carries_nothing
from .._json import encode, join_key
from .._tool_call import ToolCall

__all__ = [
    "GENERATED_ID",
    "ITEMS",
    "KEYS",
    "NESTED",
    "Replay",
    "is_generated_id",
    "kept",
    "kept_text_keys",
    "kept_unmodelled",
    "placed",
    "replay_of",
    "unmodelled",
]

KEYS = "keys"
NESTED = "nested"
ITEMS = "items"
GENERATED_ID = "generated_id"

# Bound once: a reader keeps an entry for most items it reads, and looking a classmethod up
# on its class costs about 30 ns a call.
_EXTRA_OF = Extra._of


# -- reading ------------------------------------------------------------------------------


def unmodelled(
    native: Mapping[Any, Any],
    modelled: frozenset[str],
    *,
    path: str = "",
    error: type[MessageError] = InvalidMessage,
) -> dict[str, Any]:
    """The keys of a native object toolturns does not model, checked as JSON.

    Null and empty values carry nothing and are not kept (the core's rule for
    unknown keys, ``ChatMessage.from_dict``). A key that is not a string, or a
    value that is not JSON, raises ``error`` at ``path`` (the native object's
    own path): the caller sees where in the body it is, not where toolturns
    would have stored it. The values are the native object's own; the
    message or call they are kept on stores a copy, as JSON text.
    """
    rest: dict[str, Any] = {}
    for key, value in native.items():
        if type(key) is not str:
            if not isinstance(key, str):
                raise error(path, "keys must be strings", describe(key))
            key = exact_str(key)  # before its own __eq__ or __hash__ is asked
        if key in modelled:
            continue
        if type(value) is str:  # any text is JSON: the common kept value (an item id, a status)
            if value:
                rest[key] = value
        elif not carries_nothing(value):
            encode(value, join_key(path, key), error)  # checked here; the value object stores it as text
            rest[key] = value
    return rest


def kept_unmodelled(
    provider: str,
    native: Mapping[Any, Any],
    modelled: frozenset[str],
    *,
    path: str = "",
    error: type[MessageError] = InvalidMessage,
) -> Extra | None:
    """``kept(provider, keys=unmodelled(native, modelled, ...))``, in one pass when every kept
    value is text (an item id, a status): the readers' hot path.

    >>> kept_unmodelled("responses", {"type": "function_call", "id": "fc_1", "status": ""}, frozenset({"type"}))
    Extra({'responses': {'keys': {'id': 'fc_1'}}})
    """
    rest: dict[str, Any] = {}
    for key, value in native.items():
        if key in modelled:
            continue
        if type(value) is not str or type(key) is not str:  # checked as unmodelled checks it
            return kept(provider, keys=unmodelled(native, modelled, path=path, error=error))
        if value:
            rest[key] = value
    return _EXTRA_OF({provider: {KEYS: rest}}) if rest else None  # nothing else holds these dicts


def kept(
    provider: str,
    *,
    keys: Mapping[str, Any] | None = None,
    nested: Mapping[str, Mapping[str, Any]] | None = None,
    items: Sequence[tuple[int, Any]] | None = None,
    generated_id: bool = False,
) -> Extra | None:
    """The ``provider_data`` that keeps these for ``provider``; None when there is nothing to keep.

    Built as a message or call stores it (the value objects take it as it is);
    an entry of text keys only, the common one (an item id, a status, a
    signature), is taken without a copy: nothing else holds the dicts made here.

    >>> kept("gemini", keys={"thoughtSignature": "c2ln"}, nested={"functionCall": {}}, generated_id=True)
    Extra({'gemini': {'keys': {'thoughtSignature': 'c2ln'}, 'generated_id': True}})
    >>> kept("anthropic", keys={}, items=[]) is None
    True
    """
    entry: dict[str, Any] = {}
    text_only = True  # every kept value is text: the dicts made here hold nothing a caller holds
    if keys:
        entry[KEYS] = dict(keys)
        text_only = _all_text(keys)
    nested_kept = {member: dict(value) for member, value in nested.items() if value} if nested else None
    if nested_kept:
        entry[NESTED] = nested_kept
        text_only = text_only and all(_all_text(value) for value in nested_kept.values())
    if items:
        entry[ITEMS] = [[position, item] for position, item in items]
        text_only = False
    if generated_id:
        entry[GENERATED_ID] = True
    if not entry:
        return None
    if text_only:
        return _EXTRA_OF({provider: entry})  # nothing else holds these dicts
    return Extra.build({provider: entry}, path="provider_data", reserved=frozenset(), error=InvalidMessage)


def _all_text(values: Mapping[str, Any]) -> bool:
    for value in values.values():  # noqa: SIM110 (a loop costs less than all() on two or three values)
        if type(value) is not str:
            return False
    return True


def is_generated_id(call: ToolCall, provider: str) -> bool:
    """Whether ``provider``'s codec made up this call's id when it read it.

    For calls the codec has just read (a stream's live view); a writer reads
    the flag through ``Replay``, which checks the caller's provider_data.
    """
    entry = call.provider_data.get(provider)
    return isinstance(entry, Mapping) and entry.get(GENERATED_ID) is True


# -- writing ------------------------------------------------------------------------------


_NO_KEYS: Mapping[str, Any] = MappingProxyType({})


def replay_of(
    provider_data: Mapping[str, Any],
    provider: str,
    error: type[MessageError],
    *,
    keys: frozenset[str] | None = None,
    nested: Mapping[str, frozenset[str]] | None = None,
    items: bool = False,
    generated_id: bool = False,
) -> Replay:
    """``Replay(...)``, for a value with no provider_data at all (most are) at the cost of one
    test, and for one whose entry holds only kept text keys (an item id, a status) without a copy."""
    if provider_data is EMPTY:
        return _NOTHING
    if keys is not None:
        text_keys = kept_text_keys(provider_data, provider, keys)
        if text_keys is not None:
            return Replay._of_keys(provider, error, text_keys) if text_keys else _NOTHING
    return Replay(
        provider_data, provider, error, keys=keys, nested=nested, items=items, generated_id=generated_id
    )


def kept_text_keys(
    provider_data: Mapping[str, Any], provider: str, reserved: frozenset[str]
) -> Mapping[str, str] | None:
    """What ``replay_of(...).keys`` gives when ``provider``'s entry holds kept text keys only
    (none of them ``reserved``, the keys the codec writes itself) or when there is no entry
    (``{}``); None for anything else, which ``Replay`` checks. The writers' hot path: no
    Replay made, nothing copied. Read-only: it is the value object's own."""
    if type(provider_data) is not Extra:
        return None
    entry = provider_data._owned(provider)
    if entry is None:
        return _NO_KEYS
    if type(entry) is not dict or len(entry) != 1:
        return None
    keys = entry.get(KEYS)
    if type(keys) is not dict or not keys.keys().isdisjoint(reserved):
        return None
    for value in keys.values():  # a loop, not all(): two or three values, tested per item written
        if type(value) is not str:
            return None
    return cast("dict[str, str]", keys)


class Replay:
    """The native data kept in one value's ``provider_data`` for one provider, checked for writing.

    The keyword arguments say what reading keeps for this kind of value, and
    so what the entry may hold:

    - ``keys``: the native object's keys the codec writes itself (its other
      keys are kept); None when reading keeps none of its keys.
    - ``nested``: for each nested native object kept keys may belong to
      (``function``, ``functionCall``), the keys the codec writes of it.
    - ``items``: whether reading keeps native items of the message.
    - ``generated_id``: whether the value is a call whose id may be made up.

    Anything else in the entry (a key reading never writes, a kept key the
    codec writes itself, a malformed item) raises ``error`` at
    ``provider_data.<provider>...``. The checked data is in the attributes
    ``keys``, ``nested`` (every member given, ``{}`` when nothing was kept),
    ``items`` (``(position, item)`` pairs) and ``generated_id``.

    >>> from toolturns import InvalidToolCall
    >>> data = {"ollama": {"keys": {"x": 1}, "generated_id": True}}
    >>> replay = Replay(data, "ollama", InvalidToolCall, keys=frozenset({"id", "function"}), generated_id=True)
    >>> replay.keys, replay.generated_id
    ({'x': 1}, True)
    >>> Replay(data, "ollama", InvalidToolCall, keys=frozenset({"x"}), generated_id=True)
    Traceback (most recent call last):
    ...
    toolturns.InvalidToolCall: provider_data.ollama.keys.x: is a key the Ollama codec writes itself, not a kept key, got 1
    """

    __slots__ = ("error", "generated_id", "items", "keys", "nested", "provider")

    def __init__(
        self,
        provider_data: Mapping[str, Any],
        provider: str,
        error: type[MessageError],
        *,
        keys: frozenset[str] | None = None,
        nested: Mapping[str, frozenset[str]] | None = None,
        items: bool = False,
        generated_id: bool = False,
    ) -> None:
        self.provider = provider
        self.error = error
        nested = nested or {}
        self.generated_id = False
        self.keys: Mapping[str, Any] = _NO_KEYS
        self.nested: dict[str, Mapping[str, Any]] = {}
        self.items: list[tuple[int, dict[str, Any]]] = []
        # Most values keep nothing: test before reading, since Extra.get pays
        # for a KeyError when the key is absent.
        entry = provider_data[provider] if provider in provider_data else None  # noqa: SIM401
        if entry is None:
            return
        if not isinstance(entry, Mapping):
            raise error(
                self.path, f"must be an object (the data the {self.title} codec read)", describe(entry)
            )
        written = {KEYS: keys is not None, NESTED: bool(nested), ITEMS: items, GENERATED_ID: generated_id}
        for key, value in entry.items():
            if not written.get(key):
                listed = ", ".join(name for name in sorted(written) if written[name]) or "none here"
                self._refuse((key,), f"is not data the {self.title} codec writes (it writes {listed})", value)
        if GENERATED_ID in entry:
            flag = entry[GENERATED_ID]
            if type(flag) is not bool:
                self._refuse((GENERATED_ID,), "must be a boolean", flag)
            self.generated_id = flag
        if KEYS in entry:
            self.keys = self._keys(entry[KEYS], (KEYS,), keys or frozenset())
        if NESTED in entry:
            self._nested(entry[NESTED], nested)
        if ITEMS in entry:
            self._items(entry[ITEMS])

    @classmethod
    def _of_keys(cls, provider: str, error: type[MessageError], keys: Mapping[str, Any]) -> Replay:
        # An entry of kept text keys only, checked by replay_of (kept_text_keys).
        self = object.__new__(cls)
        self.provider = provider
        self.error = error
        self.generated_id = False
        self.keys = keys
        self.nested = {}
        self.items = []
        return self

    def nested_keys(self, member: str) -> Mapping[str, Any]:
        """The kept keys of the nested native object ``member``; empty when none were kept."""
        return self.nested.get(member, _NO_KEYS)

    @property
    def path(self) -> str:
        """Where the entry is: ``provider_data.<provider>``."""
        return join_key("provider_data", self.provider)

    @property
    def title(self) -> str:
        """How messages name the provider (``Gemini``): its registry title."""
        from . import PROVIDERS  # the registry imports no codec; the codec calling here has it loaded

        return PROVIDERS[self.provider].title if self.provider in PROVIDERS else self.provider

    def _refuse(self, where: Sequence[str | int], rule: str, value: object) -> NoReturn:
        """Raise the error at ``where`` inside the entry; the path is built only then."""
        path = self.path
        for key in where:
            path = join_key(path, key)
        raise self.error(path, rule, describe(value))

    def _keys(self, keys: object, where: tuple[str, ...], reserved: frozenset[str]) -> dict[str, Any]:
        if keys is None:
            return {}
        if not isinstance(keys, Mapping):
            self._refuse(where, "must be an object of native keys", keys)
        for key in keys:
            if key in reserved:
                self._refuse(
                    (*where, key), f"is a key the {self.title} codec writes itself, not a kept key", keys[key]
                )
        return dict(keys)

    def _nested(self, nested: object, members: Mapping[str, frozenset[str]]) -> None:
        if nested is None:
            return
        if not isinstance(nested, Mapping):
            self._refuse(
                (NESTED,), "must be an object: the kept keys of each nested object, by its key", nested
            )
        for member, value in nested.items():
            if member not in members:
                listed = ", ".join(sorted(members))
                rule = f"is not a nested object the {self.title} codec keeps keys of (it keeps those of {listed})"
                self._refuse((NESTED, member), rule, value)
            self.nested[member] = self._keys(value, (NESTED, member), members[member])

    def _items(self, items: object) -> None:
        if items is None:
            return
        if not isinstance(items, Sequence) or isinstance(items, str):
            self._refuse((ITEMS,), "must be an array of [position, item] pairs", items)
        for number, pair in enumerate(items):
            if not (
                isinstance(pair, Sequence)
                and not isinstance(pair, str)
                and len(pair) == 2
                and type(pair[0]) is int
                and pair[0] >= 0
                and isinstance(pair[1], Mapping)
            ):
                self._refuse(
                    (ITEMS, number), "must be a [position, item] pair: an integer >= 0 and an object", pair
                )
            self.items.append((pair[0], dict(pair[1])))


def placed(replay: Replay, modelled: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The kept items back at their positions, the modelled ones in order in the places left.

    A position is where the item stood among the items the message writes
    (those kept and those toolturns writes from the message), so each must
    be free and below their count.

    >>> from toolturns import InvalidMessage
    >>> replay = Replay({"gemini": {"items": [[1, {"thought": True, "text": "hm"}]]}}, "gemini",
    ...                 InvalidMessage, items=True)
    >>> placed(replay, [{"text": "a"}, {"functionCall": {"name": "f"}}])
    [{'text': 'a'}, {'thought': True, 'text': 'hm'}, {'functionCall': {'name': 'f'}}]
    """
    if not replay.items:
        return list(modelled)
    total = len(replay.items) + len(modelled)
    at: dict[int, dict[str, Any]] = {}
    for number, (position, item) in enumerate(replay.items):
        if position >= total or position in at:
            raise replay.error(
                f"{join_key(replay.path, ITEMS)}[{number}][0]",
                f"must be a free position below {total} (the items kept plus those toolturns writes)",
                describe(position),
            )
        at[position] = item
    rest = iter(modelled)
    return [at[place] if place in at else next(rest) for place in range(total)]


#: What a value without provider_data replays: nothing (shared: it is never changed).
_NOTHING = Replay(EMPTY, "", MessageError)

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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from .._errors import MessageError, describe
from .._extra import carries_nothing
from .._json import join_key

__all__ = ["GENERATED_ID", "ITEMS", "KEYS", "NESTED", "Replay", "kept", "placed", "unmodelled"]

KEYS = "keys"
NESTED = "nested"
ITEMS = "items"
GENERATED_ID = "generated_id"
_ENTRY_KEYS = (GENERATED_ID, ITEMS, KEYS, NESTED)

_Item = TypeVar("_Item")


def unmodelled(native: Mapping[Any, Any], modelled: frozenset[str]) -> dict[str, Any]:
    """The keys of a native object toolturns does not model.

    Null and empty values carry nothing and are not kept (the core's rule for
    unknown keys, ``ChatMessage.from_dict``).
    """
    return {key: value for key, value in native.items() if key not in modelled and not carries_nothing(value)}


def kept(
    provider: str,
    *,
    keys: Mapping[str, Any] | None = None,
    nested: Mapping[str, Mapping[str, Any]] | None = None,
    items: Sequence[tuple[int, Any]] | None = None,
    generated_id: bool = False,
) -> dict[str, Any] | None:
    """The ``provider_data`` that keeps these for ``provider``; None when there is nothing to keep."""
    entry: dict[str, Any] = {}
    if keys:
        entry[KEYS] = dict(keys)
    nested_kept = {member: dict(value) for member, value in (nested or {}).items() if value}
    if nested_kept:
        entry[NESTED] = nested_kept
    if items:
        entry[ITEMS] = [[position, item] for position, item in items]
    if generated_id:
        entry[GENERATED_ID] = True
    return {provider: entry} if entry else None


class Replay:
    """The native data kept in one value's ``provider_data`` for one provider, checked for writing.

    Raises (from the constructor and each accessor) ``error`` at
    ``provider_data.<provider>...`` for data reading never writes.
    """

    __slots__ = ("_entry", "_error", "_path", "generated_id")

    def __init__(self, provider_data: Mapping[str, Any], provider: str, error: type[MessageError]) -> None:
        self._error = error
        self._path = join_key("provider_data", provider)
        entry = provider_data.get(provider)
        if entry is None:
            entry = {}
        elif not isinstance(entry, Mapping):
            raise error(
                self._path, f"must be an object (the data the {provider} codec read)", describe(entry)
            )
        for key in entry:
            if key not in _ENTRY_KEYS:
                raise error(
                    join_key(self._path, key),
                    f"is not data the {provider} codec writes (it writes {', '.join(_ENTRY_KEYS)})",
                    describe(entry[key]),
                )
        self._entry = entry
        generated = entry.get(GENERATED_ID, False)
        if type(generated) is not bool:
            raise error(join_key(self._path, GENERATED_ID), "must be a boolean", describe(generated))
        self.generated_id = generated

    def keys(self, reserved: frozenset[str]) -> dict[str, Any]:
        """The native object's kept keys, none of them one the codec writes itself."""
        return self._keys(self._entry.get(KEYS), join_key(self._path, KEYS), reserved)

    def nested(self, member: str, reserved: frozenset[str]) -> dict[str, Any]:
        """The kept keys of the nested native object ``member`` (``function``, ``functionCall``)."""
        path = join_key(self._path, NESTED)
        nested = self._entry.get(NESTED)
        if nested is None:
            return {}
        if not isinstance(nested, Mapping):
            raise self._error(path, "must be an object of nested objects' keys", describe(nested))
        return self._keys(nested.get(member), join_key(path, member), reserved)

    def _keys(self, keys: object, path: str, reserved: frozenset[str]) -> dict[str, Any]:
        if keys is None:
            return {}
        if not isinstance(keys, Mapping):
            raise self._error(path, "must be an object of native keys", describe(keys))
        for key in keys:
            if key in reserved:
                raise self._error(
                    join_key(path, key), "is a key the codec writes itself", describe(keys[key])
                )
        return dict(keys)

    def items(self) -> list[tuple[int, dict[str, Any]]]:
        """The kept native items of a message, as (position, item) pairs."""
        items = self._entry.get(ITEMS)
        path = join_key(self._path, ITEMS)
        if items is None:
            return []
        if not isinstance(items, Sequence) or isinstance(items, str):
            raise self._error(path, "must be an array of [position, item] pairs", describe(items))
        pairs = []
        for number, pair in enumerate(items):
            if not (
                isinstance(pair, Sequence)
                and not isinstance(pair, str)
                and len(pair) == 2
                and type(pair[0]) is int
                and pair[0] >= 0
                and isinstance(pair[1], Mapping)
            ):
                raise self._error(
                    f"{path}[{number}]",
                    "must be a [position, item] pair: an integer >= 0 and an object",
                    describe(pair),
                )
            pairs.append((pair[0], dict(pair[1])))
        return pairs


def placed(
    kept_items: Sequence[tuple[int, _Item]],
    modelled: Sequence[_Item],
    *,
    path: str,
    error: type[MessageError],
) -> list[_Item]:
    """The kept items at their positions, the modelled ones in order in the places left.

    Positions are those the items had among all of the message's native
    items when it was read, so each must be free and below their count.
    """
    total = len(kept_items) + len(modelled)
    at: dict[int, _Item] = {}
    for number, (position, item) in enumerate(kept_items):
        if position >= total or position in at:
            raise error(
                f"{path}[{number}][0]",
                f"must be a free position below {total} (the items kept plus the ones modelled)",
                describe(position),
            )
        at[position] = item
    rest = iter(modelled)
    return [at[place] if place in at else next(rest) for place in range(total)]

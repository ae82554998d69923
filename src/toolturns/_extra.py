"""``Extra``: the wire keys a message or call carries that toolturns does not model.

Real payloads carry more than the fields toolturns models (``weight`` in
fine-tuning data, ``reasoning_content`` from some servers). Dropping them would
lose a caller's data silently, so they are kept here and emitted again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ._checks import exact_str
from ._errors import InvalidMessage, describe
from ._frozen import refuse_changes, refuse_rebuild
from ._json import (
    JSON,
    NOT_PLAIN,
    ErrorFactory,
    canonical,
    copied,
    decode,
    encode,
    join_key,
    owned,
    plain_copy,
)

__all__ = ["EMPTY", "Extra", "carries_nothing"]


def carries_nothing(value: object) -> bool:
    """Whether a wire value says nothing, so dropping it loses no data."""
    # null and empty values carry nothing; 0 and false do (weight: 0 matters).
    return value is None or (isinstance(value, (str, list, tuple, Mapping)) and not value)


class Extra(Mapping[str, Any]):
    """A read-only mapping of extra wire keys to JSON values.

    Each value is a copy no caller holds, and each lookup returns a fresh copy
    of it, so nothing reachable from a message can be changed. It compares by
    JSON value (``1`` and ``true`` differ) and is hashable. Keys with ``None``
    or empty values are not kept.

    >>> from toolturns import ChatMessage
    >>> message = ChatMessage.user("hi", extra={"weight": 0, "note": None})
    >>> message.extra
    Extra({'weight': 0})
    >>> message.extra["weight"]
    0
    """

    __slots__ = ("_key", "_values")

    # The owned copies (_json.owned): only dicts, lists and immutable leaves, never handed out.
    _values: dict[str, JSON]
    _key: frozenset[tuple[str, str]] | None

    def __init__(self, texts: Mapping[str, str] | None = None) -> None:
        # What unpickling calls (see __reduce__), with the JSON texts: each is
        # read again and built as build() builds values, so a tampered pickle
        # raises InvalidMessage. The owner (a message, a call, a tool) checks
        # its reserved keys when it is given this Extra. Build through build().
        refuse_rebuild(self, "_values")
        built = Extra.build(_decoded(texts), path="", reserved=frozenset(), error=InvalidMessage)
        _SET_VALUES(self, built._values)
        _SET_KEY(self, None)

    @classmethod
    def _of(cls, values: dict[str, JSON]) -> Extra:
        """An Extra holding ``values`` itself: for values ``build`` has just copied, or a reader's
        fresh dict of plain JSON (only dicts, lists and immutable leaves) that nothing else
        holds. Checked by no one: the caller promises it, as ``build`` would have made it (no
        empty values, none None), and that it is not empty: ``EMPTY``, made here once, is the
        empty one, which owners test by identity."""
        self = object.__new__(cls)
        _SET_VALUES(self, values)
        _SET_KEY(self, None)
        return self

    @classmethod
    def build(
        cls,
        values: object,
        *,
        path: str,
        reserved: frozenset[str],
        error: ErrorFactory,
    ) -> Extra:
        """Validate ``values`` (a mapping of key to JSON) and freeze it."""
        if values is None:
            return EMPTY
        if type(values) is Extra and values._values.keys().isdisjoint(reserved):
            return values or EMPTY  # already checked; only the reserved keys differ by owner
        if not isinstance(values, Mapping):
            raise error(path, "must be a mapping of str to JSON", describe(values))
        kept: dict[str, JSON] = {}
        for key, value in values.items():
            if type(value) is str and type(key) is str and key not in reserved:
                if value:  # the common value: text (an id, a status), its own copy
                    kept[key] = value
                continue
            if not isinstance(key, str):
                raise error(path, "keys must be strings", describe(key))
            key = exact_str(key)  # a subclass's own __eq__ and __hash__ are never asked
            if key in reserved:
                raise error(join_key(path, key), "is a modelled field, not an extra key", describe(value))
            if not carries_nothing(value):
                copy = plain_copy(value)  # the common case, with no path made for an error
                kept[key] = copy if copy is not NOT_PLAIN else owned(value, join_key(path, key), error)
        return cls._of(kept) if kept else EMPTY

    def __getitem__(self, key: str) -> Any:
        return copied(self._values[key])

    def _owned(self, key: str) -> JSON:
        """The value at ``key`` itself, not a copy (None when absent): for toolturns' own
        writers, which copy what they send. Never change it or hand it out."""
        return self._values.get(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def to_dict(self) -> dict[str, Any]:
        """A fresh dict of the values."""
        return {key: copied(value) for key, value in self._values.items()}

    def _value_key(self) -> frozenset[tuple[str, str]]:
        if self._key is None:
            key = frozenset((name, canonical(value)) for name, value in self._values.items())
            _SET_KEY(self, key)
            return key
        return self._key

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Extra):
            return self is other or self._value_key() == other._value_key()
        if isinstance(other, Mapping):
            return self.to_dict() == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._value_key())

    def __repr__(self) -> str:
        return f"Extra({self.to_dict()!r})"

    def __reduce__(self) -> tuple[type[Extra], tuple[dict[str, str]]]:
        # Pickled as the JSON text of each value, as 0.1 pickled them.
        texts = {key: encode(value, key, InvalidMessage) for key, value in self._values.items()}
        return Extra, (texts,)


refuse_changes(Extra)

# The slots' own setters (__setattr__ refuses).
_SET_VALUES, _SET_KEY = (Extra.__dict__[slot].__set__ for slot in ("_values", "_key"))

#: The empty Extra every message without extra keys shares.
EMPTY = Extra._of({})


def _decoded(texts: object) -> dict[str, Any]:
    """The values of an Extra's pickled texts, each read as JSON."""
    if texts is None:
        return {}
    if not isinstance(texts, Mapping):
        raise InvalidMessage("", "must be a mapping of str to JSON text", describe(texts))
    values: dict[str, Any] = {}
    for key, text in texts.items():
        if not isinstance(key, str):
            raise InvalidMessage("", "keys must be strings", describe(key))
        if not isinstance(text, str):
            raise InvalidMessage(join_key("", key), "must be JSON text", describe(text))
        try:
            values[key] = decode(text)
        except ValueError as error:
            raise InvalidMessage(join_key("", key), f"must be JSON text ({error})", describe(text)) from None
    return values

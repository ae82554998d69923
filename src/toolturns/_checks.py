"""Small field checks shared by the value objects, so each rule is written once."""

from __future__ import annotations

import re
from typing import Any, AnyStr

from ._errors import MessageError, describe

__all__ = ["exact_str", "lazy_pattern", "nonempty_str"]


def exact_str(value: str) -> str:
    """``value`` as a plain ``str``: a subclass by its characters, none of its own methods called.

    What a field keeps, so that every codec, f-string and method after the
    check works on a ``str`` (a subclass's ``__format__`` or ``startswith``
    may raise, or say other text).
    """
    return value if type(value) is str else str.__str__(value)


def nonempty_str(value: object, path: str, error: type[MessageError]) -> str:
    """Return ``value`` if it is a non-empty ``str``, else raise ``error``."""
    if type(value) is str:  # the common value, with no call
        if value:
            return value
    elif isinstance(value, str):
        text = str.__str__(value)  # first: a subclass's own __len__ is never asked
        if text:
            return text
    raise error(path, "must be a non-empty string", describe(value))


def lazy_pattern(source: AnyStr) -> re.Pattern[AnyStr]:
    """``re.compile(source)``, compiled when first used rather than at import.

    Compiling toolturns' patterns cost about a tenth of ``import toolturns``,
    for checks many programs never make (a tool's name, an audio format).

    >>> pattern = lazy_pattern("[a-z]+")
    >>> pattern.fullmatch("wav") is not None, pattern.fullmatch("WAV")
    (True, None)
    """
    return _LazyPattern(source)  # type: ignore[return-value]  # it answers as the pattern does


class _LazyPattern:
    """Stands for a compiled pattern: the first read of a method (``fullmatch``)
    compiles it and keeps the compiled pattern's bound method as an attribute,
    which later reads find first, at the cost of a plain attribute read."""

    def __init__(self, source: str | bytes) -> None:
        self._source = source

    def __getattr__(self, name: str) -> Any:
        value = getattr(re.compile(self._source), name)
        setattr(self, name, value)
        return value

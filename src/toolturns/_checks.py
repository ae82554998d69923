"""Small field checks shared by the value objects, so each rule is written once."""

from __future__ import annotations

from ._errors import MessageError, describe

__all__ = ["nonempty_str"]


def nonempty_str(value: object, path: str, error: type[MessageError]) -> str:
    """Return ``value`` if it is a non-empty ``str``, else raise ``error``."""
    if isinstance(value, str) and value:
        return value
    raise error(path, "must be a non-empty string", describe(value))

"""The official SDKs' objects, read by duck typing: no SDK is imported here.

The openai, anthropic, google-genai and ollama clients return pydantic models
(``ChatCompletion``, ``Message``, ``GenerateContentResponse``, ``ChatResponse``
and the messages, blocks, parts, chunks and events inside them). A reader that
meets an object where the wire has a JSON object asks the object for its data
with ``model_dump`` and reads that, so a caller can pass what the SDK gave.

Only at the place that would otherwise refuse the value: plain dicts, the
common case, never pay for it.
"""

from __future__ import annotations

import binascii
import enum

__all__ = ["dumped"]


def dumped(value: object) -> object:
    """The wire data of a pydantic model (an SDK object); any other value unchanged.

    ``by_alias`` gives the wire's own key spelling where the model renames a
    key (google-genai's snake_case fields have camelCase aliases);
    ``exclude_unset`` leaves out the fields the server never sent, which a
    model fills with ``None``. The dump is in python mode, made JSON here:
    pydantic's JSON mode writes bytes (Gemini's thought signatures) in the
    URL-safe base64 alphabet, where the wire and toolturns use the standard
    one, so the same signature would read as two different texts.

    >>> dumped({"role": "user"})
    {'role': 'user'}
    """
    kind = type(value)
    if kind is dict or kind is list or kind is str:  # decoded JSON, most of what is read: no model
        return value
    dump = getattr(kind, "model_dump", None)
    if not callable(dump):
        return value
    try:
        # warnings=False: the openai SDK's parsed responses hold values pydantic warns it
        # serializes as they are (``ParsedResponseOutputText``); a test run that makes
        # warnings errors would otherwise refuse the object.
        return _json(dump(value, by_alias=True, exclude_unset=True, warnings=False), _dates())
    except Exception:  # an object that only looks like a model: the caller refuses it as it is
        return value


def _dates() -> tuple[type, ...]:
    # Imported here, not with toolturns: pydantic, whose models are dumped, has imported it already.
    import datetime

    return (datetime.datetime, datetime.date, datetime.time)


def _json(value: object, dates: tuple[type, ...]) -> object:
    """A python-mode dump as JSON values; what has no JSON form stays, for the reader to refuse."""
    if isinstance(value, dict):
        return {key: _json(item, dates) for key, item in value.items()}
    if isinstance(value, list):
        return [_json(item, dates) for item in value]
    if isinstance(value, bytes):
        # base64.b64encode's text (standard alphabet, padded, as the wire's), without importing base64.
        return binascii.b2a_base64(value, newline=False).decode("ascii")
    if isinstance(value, enum.Enum):
        return _json(value.value, dates)  # the SDKs' str enums (finish reasons, roles)
    if isinstance(value, dates):
        return value.isoformat()  # type: ignore[attr-defined]
    return value

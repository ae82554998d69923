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

__all__ = ["dumped"]


def dumped(value: object) -> object:
    """The wire data of a pydantic model (an SDK object); any other value unchanged.

    ``mode="json"`` gives JSON values only (bytes as the SDK's base64 text, no
    datetimes); ``by_alias`` gives the wire's own key spelling where the model
    renames a key (google-genai's snake_case fields have camelCase aliases);
    ``exclude_unset`` leaves out the fields the server never sent, which a
    model fills with ``None``.

    >>> dumped({"role": "user"})
    {'role': 'user'}
    """
    dump = getattr(type(value), "model_dump", None)
    if not callable(dump):
        return value
    try:
        return dump(value, mode="json", by_alias=True, exclude_unset=True)
    except Exception:  # an object that only looks like a model: the caller refuses it as it is
        return value

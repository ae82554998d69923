"""The shape of Anthropic's blocks: the keys toolturns models of each.

Any other key of a ``tool_use``, ``tool_result``, ``text``, ``image`` or
``document`` block is kept in ``provider_data["anthropic"]["keys"]`` (of the
call, the message or the part) and written back on that block; any other key
of an image's or a document's ``source`` in ``nested["source"]``.
"""

from __future__ import annotations

__all__ = [
    "DOCUMENT_KEYS",
    "IMAGE_KEYS",
    "MESSAGE_KEYS",
    "SOURCE_KEYS",
    "TEXT_KEYS",
    "TOOL_RESULT_KEYS",
    "TOOL_USE_KEYS",
    "UNASSEMBLED",
]

TEXT_KEYS = frozenset({"type", "text"})
IMAGE_KEYS = frozenset({"type", "source"})
DOCUMENT_KEYS = frozenset({"type", "source", "title"})
#: The keys of every source type toolturns reads (base64, url, text, file).
SOURCE_KEYS = frozenset({"type", "media_type", "data", "url", "file_id"})
TOOL_USE_KEYS = frozenset({"type", "id", "name", "input"})
TOOL_RESULT_KEYS = frozenset({"type", "tool_use_id", "content", "is_error"})
#: A native message has exactly these keys (Anthropic's MessageParam).
MESSAGE_KEYS = frozenset({"role", "content"})
#: Where the stream assembler keeps the deltas of a block it could not assemble
#: (a block type and delta type added after this code); such a block is kept,
#: and refused when written, since toolturns cannot say what it became.
UNASSEMBLED = "_toolturns_unassembled_deltas"

"""The shape of Anthropic's blocks: the keys toolturns models of each.

Any other key of a ``tool_use``, ``tool_result`` or system ``text`` block is
kept in ``provider_data["anthropic"]["keys"]`` and written back on that block.
"""

from __future__ import annotations

__all__ = ["MESSAGE_KEYS", "TEXT_KEYS", "TOOL_RESULT_KEYS", "TOOL_USE_KEYS", "UNASSEMBLED"]

TEXT_KEYS = frozenset({"type", "text"})
TOOL_USE_KEYS = frozenset({"type", "id", "name", "input"})
TOOL_RESULT_KEYS = frozenset({"type", "tool_use_id", "content", "is_error"})
#: A native message has exactly these keys (Anthropic's MessageParam).
MESSAGE_KEYS = frozenset({"role", "content"})
#: Where the stream assembler keeps the deltas of a block it could not assemble
#: (a block type and delta type added after this code); such a block is kept,
#: and refused when written, since toolturns cannot say what it became.
UNASSEMBLED = "_toolturns_unassembled_deltas"

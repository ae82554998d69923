"""Typed, validated, immutable chat-message value objects for LLM tool calling.

>>> from toolturns import ChatMessage, ToolCall
>>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"})])
>>> ChatMessage.from_dict(turn.to_wire()) == turn
True
"""

# Mapping, Any, Extra and JSONInput: typing.get_type_hints evaluates a public class's
# annotations in the module its __module__ names, this one (below), and these are the
# names they use beside the public ones. Imported, not re-exported (type checkers see
# them as private); all are loaded by then.
from collections.abc import Mapping  # noqa: F401
from typing import Any, Literal  # noqa: F401

from ._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ._errors import (
    InvalidArguments,
    InvalidMessage,
    InvalidStream,
    InvalidTool,
    InvalidToolCall,
    InvalidTranscript,
    LoopLimit,
    LoopStopped,
    MessageError,
)
from ._extra import Extra  # noqa: F401
from ._json import JSONInput  # noqa: F401
from ._loop import Toolbox, arun_calls, arun_loop, run_calls, run_loop
from ._message import ChatMessage, Role
from ._repair import RepairAction, Repaired, repair
from ._stream import PartialToolCall, StreamSnapshot, parse_sse
from ._tool import Tool
from ._tool_call import ToolCall
from ._transcript import Problem, check_transcript, trim

__all__ = (
    "AudioPart",
    "ChatMessage",
    "ContentPart",
    "FilePart",
    "ImagePart",
    "InvalidArguments",
    "InvalidMessage",
    "InvalidStream",
    "InvalidTool",
    "InvalidToolCall",
    "InvalidTranscript",
    "LoopLimit",
    "LoopStopped",
    "MessageError",
    "PartialToolCall",
    "Problem",
    "RepairAction",
    "Repaired",
    "Role",
    "StreamSnapshot",
    "TextPart",
    "Tool",
    "ToolCall",
    "Toolbox",
    "__version__",
    "arun_calls",
    "arun_loop",
    "check_transcript",
    "parse_sse",
    "repair",
    "run_calls",
    "run_loop",
    "trim",
)

__version__ = "0.1.0"

# Show the public import path in reprs and tracebacks (toolturns.InvalidMessage,
# not toolturns._errors.InvalidMessage); pickle finds them there too.
for _public in (
    AudioPart,
    ChatMessage,
    FilePart,
    ImagePart,
    InvalidArguments,
    InvalidMessage,
    InvalidStream,
    InvalidTool,
    InvalidToolCall,
    InvalidTranscript,
    LoopLimit,
    LoopStopped,
    MessageError,
    PartialToolCall,
    Problem,
    RepairAction,
    Repaired,
    Role,
    StreamSnapshot,
    TextPart,
    Tool,
    ToolCall,
    Toolbox,
    arun_calls,
    arun_loop,
    check_transcript,
    parse_sse,
    repair,
    run_calls,
    run_loop,
    trim,
):
    _public.__module__ = __name__
del _public

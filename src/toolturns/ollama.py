"""The Ollama ``/api/chat`` codec: request and response bodies of Ollama's native chat API.

Ollama carries a call's arguments as a JSON *object*, names the tool on each
tool result (``tool_name``), and often sends calls without ids. Calls read
without an id get deterministic ids that are never sent back to Ollama; tool
results without ``tool_call_id`` are matched to their call by ``tool_name``,
in call order.

>>> from toolturns import ChatMessage, ToolCall, ollama
>>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"})])
>>> body = ollama.to_request([ChatMessage.user("Weather in Paris?"), turn,
...                           ChatMessage.tool_result("call_1", "18 degrees")])
>>> body["messages"][1]["tool_calls"]
[{'id': 'call_1', 'function': {'name': 'get_weather', 'arguments': {'city': 'Paris'}}}]
>>> body["messages"][2]
{'role': 'tool', 'content': '18 degrees', 'tool_name': 'get_weather', 'tool_call_id': 'call_1'}
>>> ollama.from_request(body)[1] == turn
True
"""

from .providers.ollama.read import from_request, from_response
from .providers.ollama.stream import StreamAssembler
from .providers.ollama.tools import read_tools, tool_definition
from .providers.ollama.write import to_request

__all__ = ["StreamAssembler", "from_request", "from_response", "read_tools", "to_request", "tool_definition"]

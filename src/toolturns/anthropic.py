"""The Anthropic Messages codec: ChatMessages to and from ``/v1/messages`` bodies.

System and developer turns become the top-level ``system`` text blocks, tool
calls become ``tool_use`` blocks, and tool results ``tool_result`` blocks at the
start of the next user turn. Ids Anthropic would refuse are encoded reversibly.

>>> from toolturns import ChatMessage, Tool, ToolCall, anthropic
>>> turn = ChatMessage.assistant_tool_calls([ToolCall("functions.get_weather:0", "get_weather", {"city": "Paris"})])
>>> history = [ChatMessage.system("Be brief."), ChatMessage.user("Weather in Paris?"), turn,
...            ChatMessage.tool_result("functions.get_weather:0", "18 degrees")]
>>> body = anthropic.to_request(history, tools=[Tool("get_weather")])
>>> body["system"]
[{'type': 'text', 'text': 'Be brief.'}]
>>> body["messages"][1]["content"]
[{'type': 'tool_use', 'id': 'tt-functions-2e_get-5f_weather-3a_0', 'name': 'get_weather', 'input': {'city': 'Paris'}}]
>>> anthropic.from_request(body) == history
True
"""

from .providers.anthropic.read import from_request, from_response
from .providers.anthropic.stream import StreamAssembler
from .providers.anthropic.tools import read_tools, tool_definition
from .providers.anthropic.write import to_request

__all__ = ["StreamAssembler", "from_request", "from_response", "read_tools", "to_request", "tool_definition"]

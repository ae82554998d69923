"""The OpenAI Chat Completions codec: toolturns' own wire, as request and response bodies.

>>> from toolturns import ChatMessage, Tool, openai
>>> body = openai.to_request([ChatMessage.user("Weather in Paris?")], tools=[Tool("get_weather")])
>>> body["tools"][0]["function"]["name"]
'get_weather'
>>> openai.from_request(body) == [ChatMessage.user("Weather in Paris?")]
True
"""

from .providers.openai.read import from_request, from_response
from .providers.openai.stream import StreamAssembler
from .providers.openai.tools import read_tools, tool_definition
from .providers.openai.write import to_request

__all__ = ["StreamAssembler", "from_request", "from_response", "read_tools", "to_request", "tool_definition"]

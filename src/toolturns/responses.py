"""The OpenAI Responses codec: ``input`` items and ``response`` objects.

Registered as ``"responses"`` (``check_transcript(target="responses")``,
``toolturns convert --to responses``); docs/providers.md tells the mapping.

>>> from toolturns import ChatMessage, Tool, responses
>>> body = responses.to_request([ChatMessage.user("Weather in Paris?")], tools=[Tool("get_weather")])
>>> body["tools"][0]["name"]
'get_weather'
>>> responses.from_request(body) == [ChatMessage.user("Weather in Paris?")]
True
"""

from .providers.responses.read import finish_reason, from_request, from_response
from .providers.responses.stream import StreamAssembler
from .providers.responses.tools import read_tools, tool_definition
from .providers.responses.write import to_request

__all__ = [
    "StreamAssembler",
    "finish_reason",
    "from_request",
    "from_response",
    "read_tools",
    "to_request",
    "tool_definition",
]

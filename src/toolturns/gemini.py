"""The Gemini generateContent codec: ``contents`` of ``user``/``model`` parts, ``systemInstruction``.

Calls are ``functionCall`` parts of a ``model`` content, their results
``functionResponse`` parts of the next ``user`` content, one per call, in the
order of the calls. Ids Gemini did not send are made up deterministically and
never sent back; Gemini 3's ``thoughtSignature`` goes back on the part it came on.
Images, files and audio go as ``inlineData`` (base64) and ``fileData`` (a URI)
parts, and in a tool result as the ``functionResponse``'s ``parts``
(docs/content.md).

>>> from toolturns import ChatMessage, Tool, ToolCall, gemini
>>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"})])
>>> body = gemini.to_request(
...     [ChatMessage.system("Be brief."), ChatMessage.user("Weather in Paris?"), turn,
...      ChatMessage.tool_result("call_1", "18 degrees")],
...     tools=[Tool("get_weather")])
>>> body["systemInstruction"]
{'parts': [{'text': 'Be brief.'}]}
>>> body["contents"][2]
{'role': 'user', 'parts': [{'functionResponse': {'name': 'get_weather', 'response': {'result': '18 degrees'}, 'id': 'call_1'}}]}
>>> gemini.from_request(body)[2] == turn
True
"""

from .providers.gemini.read import from_request, from_response
from .providers.gemini.stream import StreamAssembler
from .providers.gemini.tools import read_tools, tool_definition
from .providers.gemini.write import to_request

__all__ = ["StreamAssembler", "from_request", "from_response", "read_tools", "to_request", "tool_definition"]

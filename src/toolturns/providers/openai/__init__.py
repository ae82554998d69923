"""The OpenAI Chat Completions wire: ``write``, ``read``, ``tools``, ``stream`` and its ``rules``.

The public verbs are re-exported by ``toolturns.openai``.
"""

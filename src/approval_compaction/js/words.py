"""Words: how the shared tables name a run of the JS SDK (``sdks.Words``), importing nothing of
the lab, so that the display and the doctor load them by name (``sdks.words``)."""

from __future__ import annotations

from ..sdks import Words

# Its modes, hook and model read as openai-agents' do: the same session and hook, in Node.
WORDS = Words(package="@openai/agents")

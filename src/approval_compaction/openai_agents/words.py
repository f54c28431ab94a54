"""Words: how the shared tables name a run of openai-agents (``WORDS``), importing nothing of the
lab, so that titling a table (``sdks.words``) loads nothing heavy.

Its compaction modes, hook answers and models are the core's words (``study.words``, and the
display's ``MODEL_WORDS`` and ``HOOK_WORDS``, which every other SDK's words fall back to), so only
its package is named here.
"""

from __future__ import annotations

from ..sdks import Words

WORDS = Words(package="openai-agents")

"""Words: the ADK study's compaction kinds by name, and how the shared tables name a run of it
(``WORDS``), importing nothing of the lab, so that declaring its commands, loading its driver's
runner and titling a table (``sdks.words``) load nothing heavy.

google-adk's ``EventsCompactionConfig``: a sliding window of one invocation with overlap 0 or
1 (``window-0``, ``window-1``), or a token threshold of one token keeping 0 or 2 raw events
(``tokens-0``, ``tokens-2``): the driver's kinds.
"""

from __future__ import annotations

from typing import Literal, get_args

from ..sdks import Words

Kind = Literal["window-0", "window-1", "tokens-0", "tokens-2"]
KINDS: tuple[Kind, ...] = get_args(Kind)

# ADK has no hook: an App's events compaction runs after each invocation, or is not configured.
WORDS = Words(
    package="google-adk",
    mode="setting {mode}",
    hooks={"on": "the App compacting after every invocation", "off": "no compaction"},
    models={"scripted": "scripted model", "responses": "OpenAIResponsesLlm over HTTP"},
)

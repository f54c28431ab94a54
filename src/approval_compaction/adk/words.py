"""Words: the ADK study's compaction kinds by name, importing nothing, so that declaring its
commands and loading its driver's runner load nothing heavy.

google-adk's ``EventsCompactionConfig``: a sliding window of one invocation with overlap 0 or
1 (``window-0``, ``window-1``), or a token threshold of one token keeping 0 or 2 raw events
(``tokens-0``, ``tokens-2``): the driver's kinds.
"""

from __future__ import annotations

from typing import Literal, get_args

Kind = Literal["window-0", "window-1", "tokens-0", "tokens-2"]
KINDS: tuple[Kind, ...] = get_args(Kind)

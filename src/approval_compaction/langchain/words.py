"""Words: the LangChain study's settings by name (the driver's ``KINDS``) and how the shared
tables name a run of it (``WORDS``), importing nothing of the lab, so that declaring its commands
loads nothing heavy."""

from __future__ import annotations

from typing import Literal, get_args

from ..sdks import Words

Kind = Literal["keep-1", "keep-2", "trim", "none"]  # the compaction step (driver.KINDS)
Api = Literal["chat", "responses"]  # ChatOpenAI's endpoint: Chat Completions, Responses
KINDS: tuple[Kind, ...] = get_args(Kind)
STEPS: tuple[Kind, ...] = KINDS[:-1]  # the kinds that compact (``none``: the control)
APIS: tuple[Api, ...] = get_args(Api)

# A table's title names its runs by the distribution's name (its modes, hook and model as
# openai-agents' read).
WORDS = Words(package="langchain")

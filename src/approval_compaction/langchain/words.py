"""Words: the LangChain study's settings by name (the driver's ``KINDS``) and its files under
``data/``, importing nothing, so that declaring its commands loads nothing heavy."""

from __future__ import annotations

from typing import Literal, get_args

Kind = Literal["keep-1", "keep-2", "trim", "none"]  # the compaction step (driver.KINDS)
Api = Literal["chat", "responses"]  # ChatOpenAI's endpoint: Chat Completions, Responses
KINDS: tuple[Kind, ...] = get_args(Kind)
STEPS: tuple[Kind, ...] = KINDS[:-1]  # the kinds that compact (``none``: the control)
APIS: tuple[Api, ...] = get_args(Api)

# The folder's files under data/ (each named once, here: the SDK's part of ``lab.paths``).
FILES = {
    "settings": "langchain-settings.json",
    "liveness": "langchain-liveness.json",
    "sweep": "langchain-sweep.json",
    "sweep_liveness": "langchain-sweep-liveness.json",
    "boundaries": "langchain-boundaries.json",
    "patched": "langchain-patched.json",
    "sdk_test": "langchain-sdk-test.json",
}
MATRIX = "langchain-matrix"  # the pinned release's 16 cases, keep-1 over Chat Completions
DATES = "langchain-release-dates.json"
REPORT = "report-langchain.md"

"""Kinds: the call ids the explorer makes, each naming its tool kind and step.

A kind names one tool the explored agent carries and the output item the model emits to call it
(``study.words.KINDS``; each SDK's folder makes its tools and detects which its release has:
openai-agents' ``kinds``). Call ids encode their kind and step (``custom_approval-2-0``: the
first call of step 2), so a violation's offending id says which kind it came from.
"""

from __future__ import annotations

from ...study.words import KINDS


def call_id(kind: str, step: int, position: int) -> str:
    """The id of one call: its kind, the step that made it and its place in the reply."""
    return f"{kind}-{step}-{position}"


def kind_of(key: str) -> str:
    """The kind an offending call id came from (``?`` for an id this module did not make)."""
    kind = key.rsplit("-", 2)[0]
    return kind if kind in KINDS else "?"

"""Compaction: a stand-in for ``client.responses.compact`` that records every request.

``OpenAIResponsesCompactionSession`` only needs an object with ``responses.compact(**kwargs)``.
This one keeps the input of each request (a payload that would leave the process) and answers
with one synthetic compaction item, numbered so that repeated compactions stay distinguishable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from .items import Item, to_items


@dataclass
class CompactionClient:
    """Duck-typed client: ``client.responses.compact(...)`` records and answers one item."""

    capture: bool = True
    requests: list[list[Item]] = field(default_factory=list)
    calls: int = 0

    @property
    def responses(self) -> CompactionClient:
        return self

    async def compact(self, **kwargs: Any) -> SimpleNamespace:
        self.calls += 1
        if self.capture:
            self.requests.append(to_items(kwargs.get("input")))
        summary = {
            "type": "compaction",
            "id": f"compaction-{self.calls}",
            "encrypted_content": f"synthetic-summary-{self.calls}",
        }
        return SimpleNamespace(output=[summary], usage=None)

"""Compaction: a stand-in for ``client.responses.compact`` that records every request.

``OpenAIResponsesCompactionSession`` only needs an object with ``responses.compact(**kwargs)``.
This one keeps the input of each request (a payload that would leave the process) and answers
with one synthetic compaction item, numbered so that repeated compactions stay distinguishable.

Its answer has the endpoint's one shape, the HTTP stand-in's too (``wire.standin.compacted_output``,
cited there): the user messages of the chain and the input, then the summary.

It answers as the API does (``faithful``, the default): the compaction endpoint's rules
(``wire.rules.check_compaction``) read the request's ``input`` and the chain its
``previous_response_id`` names, which the scripted model keeps (``chains``), and a refusal is
raised as the ``openai`` client raises it (``openai.BadRequestError``, built from the same
``ApiError`` as the HTTP stand-in answers). ``lenient`` accepts every request, as this project's
first stand-in did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from ..wire import rules
from ..wire.rules import COMPACT, FAITHFUL, LENIENT, ApiError, CompactRules
from ..wire.standin import compacted_output
from ..wire.transport import status_error
from .items import Item, to_items

Chains = Callable[[str], list[Item] | None]  # a response id's input and output; None: unknown


def _no_chains(response_id: str) -> list[Item] | None:
    return None


@dataclass
class CompactionClient:
    """Duck-typed client: ``client.responses.compact(...)`` records, checks by the rules, and
    answers one item (or raises the API's refusal)."""

    capture: bool = True
    compact_rules: CompactRules = FAITHFUL
    chains: Chains = _no_chains
    requests: list[list[Item]] = field(default_factory=list)
    calls: int = 0  # the compactions answered

    @property
    def responses(self) -> CompactionClient:
        return self

    def refusal(
        self, chain: list[Item] | None, given: list[Item], previous: Any
    ) -> ApiError | None:
        """The API's answer to a request it refuses; None when it compacts."""
        if self.compact_rules == LENIENT:
            return None
        if chain is None:
            return rules.previous_not_found(str(previous))
        return rules.check_compaction(chain, given, self.compact_rules)

    async def compact(self, **kwargs: Any) -> SimpleNamespace:
        given = to_items(kwargs.get("input"))
        if self.capture:
            self.requests.append(given)
        previous = kwargs.get("previous_response_id")
        chain = [] if previous is None else self.chains(str(previous))
        error = self.refusal(chain, given, previous)
        if error is not None:
            raise status_error(error, COMPACT)
        self.calls += 1
        summary = {
            "type": "compaction",
            "id": f"compaction-{self.calls}",
            "encrypted_content": f"synthetic-summary-{self.calls}",
        }
        return SimpleNamespace(
            output=compacted_output([*(chain or []), *given], summary), usage=None
        )

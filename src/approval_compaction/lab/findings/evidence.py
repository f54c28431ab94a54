"""Evidence: the request a user's error came from, set against what the runner handed the model.

Over HTTP a stage keeps two views of each model request: the input the runner handed the model
interface (``model_inputs``) and the JSON body that went over the wire (``http_requests``). The
SDK's conversion sits between them. ``body_diff`` sets the two inputs side by side, item by
item as indented JSON; ``conversion`` says in one sentence what the conversion changed.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...study.capture import CaseRun, Stage
from ...study.items import Item
from ...wire.rules import COMPACT, RESPONSES

HANDED = "handed to the model interface"
SENT = "sent over HTTP (body.input)"


@dataclass(frozen=True)
class Failure:
    """The stage where the user got an error, the request that caused it, and its input as
    the runner handed it to the model interface."""

    stage: Stage
    request: Item
    handed: list[Item]

    @property
    def sent(self) -> list[Item]:
        body = self.request.get("body")
        items = body.get("input") if isinstance(body, dict) else None
        return list(items) if isinstance(items, list) else []


def failure(run: CaseRun) -> Failure | None:
    """The first stage whose outcome was an error, with its failing request: a model request
    (``handed``: its input as the runner handed it) or a compaction request (``handed``: its
    input as the session sent it)."""
    stage = next((s for s in run.stages if not s.outcome.ok), None)
    if stage is None:
        return None
    handed = {RESPONSES: iter(stage.model_inputs), COMPACT: iter(stage.compaction_inputs)}
    for request in stage.http_requests:
        given = next(handed.get(str(request.get("path")), iter(())), [])
        if request.get("status") != 200:
            return Failure(stage, request, given)
    return None


def refused_request(run: CaseRun) -> dict[str, Any]:
    """The wire's view of where a run failed: the stage, the refused request's path and status,
    what its body carries (an id naming a stored response, or its input items), and the
    server's message; ``ok`` in the stage when no request was refused."""
    found = failure(run)
    if found is None:
        return {
            "stage": "ok",
            "refused request": "",
            "status": "",
            "its body carries": "",
            "message": "",
        }
    body = found.request.get("body")
    named = body.get("previous_response_id") if isinstance(body, dict) else None
    carries = f"previous_response_id {named}" if named else f"input: {len(found.sent)} items"
    return {
        "stage": found.stage.name,
        "refused request": str(found.request.get("path")),
        "status": found.request.get("status"),
        "its body carries": carries,
        "message": str(found.request.get("error", "")),
    }


def _lines(items: Sequence[Item]) -> list[str]:
    return [line for item in items for line in json.dumps(item, indent=1).splitlines()]


def body_diff(handed: Sequence[Item], sent: Sequence[Item]) -> str:
    """A unified diff of the two inputs (``-`` handed only, ``+`` sent only); empty if equal."""
    lines = difflib.unified_diff(_lines(handed), _lines(sent), HANDED, SENT, lineterm="", n=2)
    return "\n".join(lines)


def conversion(handed: Sequence[Item], sent: Sequence[Item], body: Any = None) -> str:
    """What the SDK's conversion changed between the model interface and the wire."""
    if list(handed) == list(sent):
        same = f"The {len(sent)} input items went over the wire exactly as the runner handed them"
    else:
        changed = sum(a != b for a, b in zip(handed, sent, strict=False))
        changed += abs(len(handed) - len(sent))
        same = f"{changed} of {max(len(handed), len(sent))} input items changed on the way"
    extra = sorted(k for k in (body or {}) if k != "input") if isinstance(body, dict) else []
    added = f"; the body adds {', '.join(f'`{k}`' for k in extra)}" if extra else ""
    return same + added + "."

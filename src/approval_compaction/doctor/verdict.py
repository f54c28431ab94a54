"""Verdict: one stored session judged in words, healthy, poisoned, stuck, pending or unreadable.

The items are judged with the project's pairing rules (``analysis.pairing``), as the SDK reads
them (rows whose JSON does not parse are counted apart):

- **poisoned**: an output whose call is not in the history (the next turn is refused);
- **stuck**: no orphan output, but a dead item (``analysis.pairing.dead_items``): a call or a
  hosted MCP approval request without its answer that a user message or a compaction item
  follows; the note names it (a dead call stops compaction for good in previous_response_id
  mode only; an unanswered hosted MCP request stops it on 0.24.0 in every mode);
- **pending**: a call without its output that nothing of the user's follows (maybe an approval
  still waiting);
- **healthy**: every output has its call and every call its output;
- **unreadable**: paired as far as it could be read, but some rows could not be.

A poisoned, stuck or pending verdict stands whatever else is unreadable. docs/doctor.md says what
each verdict means on each release.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from ..analysis.healing import MCP_REQUEST
from ..analysis.pairing import CALL_TO_OUTPUT, Unpaired, dead_items, find_unpaired

VerdictWord = Literal["healthy", "poisoned", "stuck", "pending", "unreadable"]
HEALTHY: Literal["healthy"] = "healthy"
POISONED: Literal["poisoned"] = "poisoned"
STUCK: Literal["stuck"] = "stuck"
PENDING: Literal["pending"] = "pending"
UNREADABLE: Literal["unreadable"] = "unreadable"
VERDICTS: tuple[VerdictWord, ...] = (HEALTHY, POISONED, STUCK, PENDING)
"""The verdicts on items (the in-database query gives the same four)."""
REPORTED: tuple[VerdictWord, ...] = (*VERDICTS, UNREADABLE)
"""Every verdict a scan reports: the four, and ``unreadable`` for rows it could not read."""
NEEDS_REPAIR: tuple[VerdictWord, ...] = (POISONED, STUCK)

PENDING_AT_END = "open call at the end: may be a pending approval"
PENDING_EARLIER = "open call before later items: the SDK drops it from the next input"
POISONED_NOTE = "the next turn would send an output without its call"

# Items that may follow a paused call in the same model response: other calls, reasoning.
_MODEL_SIDE = frozenset({"reasoning", *CALL_TO_OUTPUT})


@dataclass(frozen=True)
class SessionReport:
    """What one stored session holds and its verdict."""

    session_id: str
    items: int
    unreadable: int
    compactions: int
    orphan_outputs: tuple[str, ...]
    open_calls: tuple[str, ...]
    verdict: VerdictWord
    note: str
    branch: str | None = None  # an AdvancedSQLiteSession's branch; None for other stores

    def __repr__(self) -> str:
        """The fields in order; the branch only when there is one."""
        shown = {k: v for k, v in asdict(self).items() if k != "branch" or v is not None}
        return f"SessionReport({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def as_row(self) -> dict[str, Any]:
        """The report as a flat row (its fields in order, the branch after the session id when
        there is one): id lists joined by spaces."""
        joined = {"orphan_outputs": self.orphan_outputs, "open_calls": self.open_calls}
        row = {**asdict(self), **{name: " ".join(ids) for name, ids in joined.items()}}
        branch = row.pop("branch")
        if branch is None:
            return row
        return {"session_id": row.pop("session_id"), "branch": branch, **row}


def _open_at_end(items: Sequence[dict[str, Any]], position: int) -> bool:
    """Whether only model-side items (calls, reasoning) follow the open call at ``position``
    (a ``type`` that is not a string, a list say, is no model-side item)."""
    return all(_model_side(item.get("type")) for item in items[position + 1 :])


def _model_side(kind: object) -> bool:
    return isinstance(kind, str) and kind in _MODEL_SIDE


def stuck_note(dead: Sequence[Unpaired]) -> str:
    """The stuck verdict's note, naming the dead items that pin the history: calls, then hosted
    MCP approval requests."""
    calls = [u.key or "?" for u in dead if u.item_type != MCP_REQUEST]
    requests = [u.key or "?" for u in dead if u.item_type == MCP_REQUEST]
    said = []
    if calls:
        said.append(
            f"open call {', '.join(calls)} before a later turn (a dead call): input and auto "
            "mode keep compacting past it, previous_response_id mode never compacts again"
        )
    if requests:
        said.append(
            f"unanswered MCP approval request {', '.join(requests)} before a later turn: "
            "0.24.0 never compacts the session again"
        )
    return "; ".join(said)


def unreadable_note(count: int) -> str:
    """The unreadable verdict's note: how many rows the verdict could not see."""
    rows = f"{count} row{'s' if count != 1 else ''}"
    return (
        f"{rows} could not be read (not JSON, nested too deep, or not opened by the key): "
        "the other items are paired"
    )


def judge(
    session_id: str,
    items: Sequence[dict[str, Any]],
    unreadable: int = 0,
    branch: str | None = None,
) -> SessionReport:
    """The verdict on one session's (or branch's) readable items: whole items, or only the
    fields pairing reads (``codec.light_item``)."""
    unpaired = find_unpaired(items)
    orphans = tuple(u.key or "?" for u in unpaired if u.problem == "orphan output")
    opened = [u for u in unpaired if u.problem == "open call"]
    verdict: VerdictWord
    if orphans:
        verdict, note = POISONED, POISONED_NOTE
    elif dead := dead_items(items):
        verdict, note = STUCK, stuck_note(dead)
    elif opened:
        at_end = all(_open_at_end(items, u.position) for u in opened)
        verdict, note = PENDING, PENDING_AT_END if at_end else PENDING_EARLIER
    elif unreadable:
        verdict, note = UNREADABLE, unreadable_note(unreadable)
    else:
        verdict, note = HEALTHY, ""
    return SessionReport(
        session_id=session_id,
        items=len(items),
        unreadable=unreadable,
        compactions=sum(1 for item in items if item.get("type") == "compaction"),
        orphan_outputs=orphans,
        open_calls=tuple(u.key or "?" for u in opened),
        verdict=verdict,
        note=note,
        branch=branch,
    )

"""Frames: item lists as DataFrames, and stored history set against what was sent.

Each row carries its meaning in words (``orphan output``, ``open call``, ``pending approval``),
since GitHub's notebook viewer strips colour. The diff aligns two lists by a key per item
(type, call id, text) with difflib, so an item the model saw but the store lost stands out.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Collection, Sequence
from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

from ..analysis.pairing import CALL_TO_OUTPUT, OUTPUT_TO_CALL, find_unpaired, item_key
from ..study.items import Item

ITEM_COLUMNS = ["position", "type", "role", "call_id", "tool", "preview", "status"]
DIFF_COLUMNS = ["side", "stored_at", "sent_at", "type", "call_id", "preview", "status"]
PREVIEW_WIDTH = 48


def item_type(item: Item) -> str:
    kind = item.get("type")
    return kind if isinstance(kind, str) else "message"


def preview(item: Item, width: int | None = PREVIEW_WIDTH) -> str:
    """A short, single-line view of what the item says (``width=None``: whole)."""
    content: Any = item.get("content")
    if content is None:
        for key in ("output", "arguments", "encrypted_content", "summary", "action", "reason"):
            if key in item:
                content = item[key]
                break
    if isinstance(content, list):
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
        content = " ".join(part for part in parts if part)
    text = content if isinstance(content, str) else json.dumps(content, sort_keys=True)
    text = " ".join((text or "").split())
    return text if width is None or len(text) <= width else text[: width - 1] + "…"


def statuses(items: Sequence[Item], pending: Collection[str] = ()) -> list[str]:
    """A status in words for each item: pairing problems first, then what the item is."""
    problems = {u.position: u.problem for u in find_unpaired(items)}
    words = []
    for position, item in enumerate(items):
        kind = item_type(item)
        problem = problems.get(position)
        if problem == "open call" and item_key(item) in pending:
            words.append("pending approval")
        elif problem is not None:
            words.append(problem)
        elif kind in CALL_TO_OUTPUT:
            words.append("paired call")
        elif kind in OUTPUT_TO_CALL:
            words.append("paired output")
        elif kind == "compaction":
            words.append("compaction summary")
        else:
            words.append("")
    return words


def items_frame(items: Sequence[Item], pending: Collection[str] = ()) -> pd.DataFrame:
    """One row per item: position, type, role, call id, tool name, preview, status."""
    rows = [
        {
            "position": position,
            "type": item_type(item),
            "role": item.get("role", ""),
            "call_id": item_key(item) or "",
            "tool": item.get("name", ""),
            "preview": preview(item),
            "status": status,
        }
        for position, (item, status) in enumerate(zip(items, statuses(items, pending), strict=True))
    ]
    return pd.DataFrame(rows, columns=ITEM_COLUMNS).set_index("position")


def identity(item: Item) -> str:
    """The key that aligns one item across lists: type, pairing id, and its text."""
    return "|".join(
        (item_type(item), str(item.get("role", "")), item_key(item) or "", preview(item))
    )


def diff_frame(
    stored: Sequence[Item], sent: Sequence[Item], pending: Collection[str] = ()
) -> pd.DataFrame:
    """Stored history against a model request, aligned: ``both``, ``only stored``, ``only sent``.

    The status column judges each item within the list it came from (the sent list for items
    that were sent), so an output that reached the model without its call reads ``orphan output``.
    """
    stored_status, sent_status = statuses(stored, pending), statuses(sent, pending)
    matcher = difflib.SequenceMatcher(
        a=[identity(i) for i in stored], b=[identity(i) for i in sent], autojunk=False
    )
    rows: list[dict[str, Any]] = []

    def row(side: str, i: int | None, j: int | None) -> None:
        item = sent[j] if j is not None else stored[i]  # type: ignore[index]
        status = sent_status[j] if j is not None else stored_status[i]  # type: ignore[index]
        rows.append(
            {
                "side": side,
                "stored_at": "" if i is None else str(i),
                "sent_at": "" if j is None else str(j),
                "type": item_type(item),
                "call_id": item_key(item) or "",
                "preview": preview(item),
                "status": status,
            }
        )

    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                row("both", i, j)
            continue
        for i in range(i1, i2):
            row("only stored", i, None)
        for j in range(j1, j2):
            row("only sent", None, j)
    return pd.DataFrame(rows, columns=DIFF_COLUMNS)


def diff_text(frame: pd.DataFrame) -> str:
    """A diff frame as the body of a ``diff`` fence: ``-`` only stored, ``+`` only sent."""
    marks = {"both": " ", "only stored": "-", "only sent": "+"}
    lines = []
    for record in frame.to_dict("records"):
        status = f"  [{record['status']}]" if record["status"] else ""
        call = f" {record['call_id']}" if record["call_id"] else ""
        lines.append(f"{marks[record['side']]} {record['type']}{call}: {record['preview']}{status}")
    return "\n".join(lines)


STATUS_COLOURS = {
    "orphan output": "background-color: #f5b7b1",
    "open call": "background-color: #fad7a0",
    "pending approval": "background-color: #fcf3cf",
}


class Highlighted:
    """A frame shown with rows coloured by status; its plain-text form is the frame itself.

    (A bare ``Styler`` prints its memory address as plain text, which would make notebooks
    differ on every run.)
    """

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame

    def styler(self) -> Styler:
        def colour(row: pd.Series) -> list[str]:
            return [STATUS_COLOURS.get(str(row["status"]), "")] * len(row)

        # A fixed uuid keeps the generated CSS ids, and so the notebook, reproducible.
        return self.frame.style.apply(colour, axis=1).set_uuid("items")

    def _repr_html_(self) -> str:
        return str(self.styler().to_html())

    def __repr__(self) -> str:
        return str(self.frame.to_string())


def highlight(frame: pd.DataFrame) -> Highlighted:
    """A local extra: rows coloured by status. The words stay, since GitHub strips the colour."""
    return Highlighted(frame)


def _listed(items: Sequence[Item]) -> str:
    """An item list in one line: ``message, function_call call_1, compaction``."""
    return ", ".join(" ".join(filter(None, (item_type(i), item_key(i)))) for i in items)


def requests_frame(exchanges: Sequence[Any]) -> pd.DataFrame:
    """One row per request the stand-in answered (``wire.app.standin_log``), in order: the
    endpoint as the SDK's client requested it (``/v1/responses``, as the README and notebook 09
    write it), what it carried (its input items, or the stored response it names), the items it
    sent unpaired, and the API's answer."""
    rows = []
    for number, exchange in enumerate(exchanges, start=1):
        body = exchange.body if isinstance(exchange.body, dict) else {}
        items = [i for i in body.get("input") or [] if isinstance(i, dict)]
        if isinstance(body.get("input"), str):
            items = [{"role": "user", "content": body["input"]}]
        named = body.get("previous_response_id")
        carried = _listed(items) + (f" after {named}" if named else "")
        unpaired = [f"{u.problem} {u.key}" for u in find_unpaired(items)]
        answer = f"{exchange.status} {exchange.error}".strip()
        rows.append(
            {
                "request": number,
                "endpoint": exchange.path,
                "carries": carried,
                "unpaired in it": ", ".join(unpaired),
                "answer": answer,
            }
        )
    columns = ["request", "endpoint", "carries", "unpaired in it", "answer"]
    return pd.DataFrame(rows, columns=columns)

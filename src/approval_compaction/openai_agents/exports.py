"""Exports: the sessions openai-agents' real runner stores, for every approval kind, as a team
exports them (``get_items()``): the doctor's test data (``lab.affected.exports`` writes them with
the other SDKs', ``doctor exports``).

Each conversation is the one driver's (``driver``), on the pinned ``openai-agents`` (this
environment) and the newest release (its release environment, through the ``worker``): a
question the model answers with a call of one approval kind, the decision and the resume (none
when abandoned), and a next question, on a plain session and on one compacting at every turn. A
kind a release cannot pause on is recorded with the reason (``not_applicable``), found by looking
for the feature.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from ..lab.affected import exports as shared
from ..lab.affected.exports import Choice, ExportRecord
from ..lab.releases import environments
from ..lab.releases.versions import sort_versions
from ..study.items import Item
from ..study.words import PINNED, TOOL_KINDS, Decision, Kind, ToolKind
from ..wire.standin import apply_patch_call, shell_call
from . import driver as _driver
from . import harness as _harness
from . import worker as _worker

# The Python study's tool kind for each approval kind, and the item its model answers with.
PYTHON_KINDS: dict[ToolKind, tuple[Kind, Item]] = {
    "function": ("function_approval", _harness.PENDING_CALL),
    "mcp": ("mcp_approval", _harness.MCP_REQUEST),
    "shell": ("shell_approval", shell_call(1)),
    "apply_patch": ("apply_patch_approval", apply_patch_call(1)),
}


def python_steps(kind: ToolKind, choice: Choice) -> list[_driver.Step]:
    """The conversation: the question that pauses on the kind's call, the decision and the
    resume (none when abandoned), the next question."""
    pause = _driver.Ask(_harness.QUESTIONS[0], (PYTHON_KINDS[kind][1],), stage="pause")
    nxt = _driver.Ask(_harness.QUESTIONS[1], (_harness.NEXT_ANSWER,))
    if choice == "abandon":
        return [pause, nxt]
    decision: Decision = "reject" if choice == "reject" else "approve"
    return [
        pause,
        _driver.Cross("json"),
        _driver.Decide(decision),
        _driver.Resume((_harness.FINISHED,)),
        nxt,
    ]


def python_missing(kind: ToolKind, python: str) -> str:
    """Why the release ``python`` runs cannot pause on ``kind`` ("" when it can): the
    ``computer`` tool of the Python SDK has no ``needs_approval`` (``ComputerTool``'s fields)."""
    if kind != "computer":
        return ""
    probe = (
        "import dataclasses, agents; "
        "print('needs_approval' in {f.name for f in dataclasses.fields(agents.ComputerTool)})"
    )
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=False)
    if done.stdout.strip() == "True":
        return "ComputerTool has needs_approval, but the export's computer call is not scripted"
    return "agents.ComputerTool has no needs_approval: a computer call never pauses for approval"


def python_records(
    release: str, worker: _worker.Worker | None, python: str
) -> Iterator[tuple[ExportRecord, Any]]:
    """Each Python conversation on ``release`` (here when ``worker`` is None, else in the
    worker's interpreter), and its export."""
    for kind in TOOL_KINDS:
        for choice in shared.CHOICES:
            for compaction in shared.COMPACTIONS:
                base = ExportRecord("python", release, kind, choice, compaction)
                why = python_missing(kind, python)
                if why:
                    yield dataclasses.replace(base, not_applicable=why), None
                    continue
                trigger: _driver.Trigger = "always" if compaction == "on" else "never"
                kinds = (PYTHON_KINDS[kind][0],)
                setup = _driver.Setup(shared.MODE, trigger, kinds, model="responses", go_on=True)
                done: _driver.Transcript = _driver.converse(
                    setup, python_steps(kind, choice), worker=worker
                )
                stages = [t.stage for t in done.turns if t.stage is not None]
                failed = next((t.error for t in done.turns if t.error and not t.http_status), "")
                if failed:
                    yield dataclasses.replace(base, not_applicable=failed), None
                    continue
                items = stages[-1].stored
                record = dataclasses.replace(
                    base,
                    items=len(items),
                    last_request=shared.last_request(stages),
                    exchanges=shared.exchanges(stages),
                )
                yield record, items


def python_exports() -> list[tuple[ExportRecord, Any]]:
    """Every conversation on the pinned release (here) and the newest (in its environment),
    each with its export (``None`` where the kind cannot pause)."""
    records: list[tuple[ExportRecord, Any]] = []
    newest = environments.newest_release()
    for release in sort_versions({PINNED, newest}):
        if release == PINNED:
            records += list(python_records(release, None, sys.executable))
            continue
        env = environments.release_environment(release, environments.default_envs())
        with _worker.Worker(str(env.python), environments.isolated_environ()) as worker:
            records += list(python_records(release, worker, str(env.python)))
    return records

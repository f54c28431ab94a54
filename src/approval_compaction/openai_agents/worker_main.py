"""Worker's main: the worker process's side of the process boundary (``worker.Worker`` starts
it). One JSON request per line in (a conversation's ``Setup``, the store file's path, the paused
state's JSON and the one kept aside, the counters, the steps), one JSON answer per line out (the
``Transcript``, the counters, the approved tools' runs and the state kept aside). It imports only
the study and the SDK, so a release's own interpreter runs it with the project's source folder on
``PYTHONPATH``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from .. import paths
from .driver import Driver, Setup, step_from_json, take_branches


async def answer(request: dict[str, Any]) -> dict[str, Any]:
    """Take one request's steps in a fresh driver on its store (only JSON and the file cross);
    a request with ``branches`` (steps) and ``positions`` takes them from each position of a
    trunk of plain turns instead (``driver.take_branches``), in a folder of its own."""
    setup = Setup.from_json(request["setup"])
    if "branches" in request:
        rest = [step_from_json(s) for s in request["branches"]]
        with tempfile.TemporaryDirectory(
            prefix="approval-compaction-branches-", dir=paths.scratch()
        ) as folder:
            done = await take_branches(setup, rest, request["positions"], Path(folder))
        return {"transcripts": [t.to_json() for t in done]}
    state, kept = request["state"], request["kept"]
    async with Driver(setup, Path(request["path"]), state=state, kept=kept) as driver:
        if request["counters"] is not None:
            driver.counters = request["counters"]
        transcript = await driver.transcript([step_from_json(s) for s in request["steps"]])
        approved = driver.dispatches.approved
        return {
            "transcript": transcript.to_json(),
            "counters": driver.counters,
            "dispatched": approved,
            "kept": driver.kept,
        }


def serve() -> None:
    """The worker loop: one JSON request per line in, one JSON answer per line out."""
    for line in sys.stdin:
        sys.stdout.write(json.dumps(asyncio.run(answer(json.loads(line)))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()

"""Upgrade: does the newest release heal a session an affected release already stored?

The pinned release (this environment) pauses and resumes with compaction on, which leaves a
poisoned ``SQLiteSession`` file. Copies of that file then take the next turn: on the pinned
release and on the newest release (in the sweep's environment for it, by ``turns``'s module
run with that release's interpreter), each as it was stored and after ``doctor repair``. The
next turn runs on the SDK's own ``OpenAIResponsesModel`` against the wire's API stand-in, which
answers an input the Responses API rejects with its HTTP 400 (the pairing check judges where
the wire cannot run). Each record keeps the stand-in's answer, what the turn sent to the model,
whether compaction still ran, and the verdict on what was stored after. The newest release's
check of the SDK's defaults runs in its environment too (``check``'s module).

Release environments are made only by ``python -m approval_compaction doctor data``
(``make doctor-data``), which writes ``data/doctor-upgrade.json`` and
``data/doctor-check-newest.json``; the notebook reads those files.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..analysis.pairing import orphan_outputs
from ..formats.files import write_atomic
from ..formats.records import read_json_list
from ..releases import environments
from ..study.harness import run_sync
from . import turns
from .verdict import judge

UPGRADE_DATA = paths.DATA / "doctor-upgrade.json"
CHECK_NEWEST_DATA = paths.DATA / "doctor-check-newest.json"
TIMEOUT_SECONDS = 600
REJECTED, ACCEPTED = "rejected", "accepted"


@dataclass(frozen=True)
class UpgradeRecord:
    """The next turn on one release, for a store as the pinned release left it or repaired."""

    release: str
    store: str
    next_turn: str
    judged_by: str
    api_answer: str
    orphan_outputs: str
    compaction_requests: int
    compaction_input_orphans: str
    stored_after: str
    model_input: list[dict[str, Any]]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UpgradeRecord:
        return cls(**data)


def record(store: str, turn: turns.TurnRecord) -> UpgradeRecord:
    """Judge one next turn: by the API stand-in's answer when it ran on the wire, else by the
    pairing check (the Responses API's rule)."""
    orphans = orphan_outputs(turn.model_input)
    answers = [h for h in turn.http if h["path"].endswith("/responses")]
    if turn.judged_by == "API stand-in":
        rejected = any(h["status"] >= 400 for h in answers)
        api = "; ".join(f"HTTP {h['status']}" + (f": {h['error']}" if h["error"] else "")
                        for h in answers)  # fmt: skip
    else:
        rejected, api = bool(orphans), ""
    compaction_orphans = sorted({key for req in turn.compaction_inputs for key in
                                 orphan_outputs(req)})  # fmt: skip
    return UpgradeRecord(
        release=turn.release,
        store=store,
        next_turn=REJECTED if rejected else ACCEPTED,
        judged_by=turn.judged_by,
        api_answer=api,
        orphan_outputs=" ".join(orphans),
        compaction_requests=turn.compaction_requests,
        compaction_input_orphans=" ".join(compaction_orphans),
        stored_after=judge("s", turn.stored_after).verdict,
        model_input=turn.model_input,
    )


def poison(store: Path) -> None:
    """Pause and resume on the pinned release with compaction on: the store is poisoned."""
    paused = run_sync(turns.pause(store))
    run_sync(turns.resume(store, paused.state))


def repaired_copy(source: Path, target: Path) -> None:
    from .repair import apply

    shutil.copyfile(source, target)
    run_sync(apply(str(target), target.with_suffix(".backup.jsonl")))


def run_module(env: environments.Environment, module: str, *args: str) -> Any:
    """Run one of the doctor's modules with the release's interpreter; its JSON output."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-doctor-") as folder:
        output = Path(folder) / "out.json"
        command = [str(env.python), "-m", module, *args, "--output", str(output)]
        proc = environments.run(
            command, TIMEOUT_SECONDS, cwd=folder, env=environments.isolated_environ()
        )
        if proc.returncode != 0 or not output.exists():
            detail = environments.last_line(proc.stderr)
            raise environments.SweepError(f"{env.version}: {module} failed: {detail}")
        return json.loads(output.read_text())


def upgrade_records(env: environments.Environment | None) -> list[UpgradeRecord]:
    """The next turn on the pinned and the newest release, on the poisoned and repaired store.

    Without ``env`` only the pinned release's turns run (in this process).
    """
    with tempfile.TemporaryDirectory(prefix="approval-compaction-upgrade-") as folder:
        base = Path(folder)
        poison(base / "poisoned.db")
        repaired_copy(base / "poisoned.db", base / "repaired.db")
        records = []
        for label in ("poisoned", "repaired"):
            here, there = base / f"{label}-pinned.db", base / f"{label}-newest.db"
            shutil.copyfile(base / f"{label}.db", here)
            shutil.copyfile(base / f"{label}.db", there)
            records.append(record(label, run_sync(turns.next_turn(here, wire=True))))
            if env is None:
                continue
            found = run_module(env, turns.MODULE, "next_turn", "--wire", "--store", str(there))
            records.append(record(label, turns.TurnRecord.from_json(found[0])))
        return records


def write_data(
    version: str, envs: Path, folder: Path = paths.DATA, report: Callable[[str], None] = print
) -> list[Path]:
    """Write the upgrade records and the newest release's default check under ``folder``."""
    env = environments.release_environment(version, envs)
    rows = upgrade_records(env)
    upgrade = folder / UPGRADE_DATA.name
    write_atomic(upgrade, json.dumps([asdict(r) for r in rows], indent=2) + "\n")
    report(f"wrote {upgrade.name}: {len(rows)} next turns")
    checked = run_module(env, "approval_compaction.doctor.check", "--turns", "20")
    newest = folder / CHECK_NEWEST_DATA.name
    write_atomic(newest, json.dumps(checked, indent=2) + "\n")
    report(f"wrote {newest.name}: {len(checked['rows'])} pause positions on {checked['release']}")
    return [upgrade, newest]


def load_upgrade(path: Path = UPGRADE_DATA) -> list[UpgradeRecord]:
    return read_json_list(path, UpgradeRecord.from_json)

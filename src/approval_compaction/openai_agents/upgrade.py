"""Upgrade: does the newest release heal a session an affected release already stored?

The pinned release (this environment) pauses and resumes with compaction on, which leaves a
poisoned ``SQLiteSession`` file; with the SDK's default ``compaction_mode="auto"`` the API
refuses the compaction at the pause instead, which leaves the call stored without its output
(the ``pause_failed`` store). Copies of those files then take the next turn: on the pinned release
and on the newest release (its ``worker``, started with the interpreter of the sweep's
environment for it), the poisoned one as it was stored and after ``doctor repair``. The next turn
runs on the SDK's own ``OpenAIResponsesModel`` against the wire's API stand-in, which answers an
input the Responses API rejects with its HTTP 400. Each record keeps the stand-in's answer, what
the turn sent to the model, whether compaction still ran, and the verdict on what was stored
after. The newest release's check of the SDK's defaults runs in its environment too.

Release environments are made only by ``python -m approval_compaction doctor data``
(``make doctor-data``), which writes ``data/doctor-upgrade.json`` and
``data/doctor-check-newest.json``; the notebook reads those files.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..analysis.pairing import orphan_outputs
from ..doctor.check import ACCEPTED, REJECTED, check_config, check_json, check_release
from ..doctor.repair import apply
from ..doctor.verdict import judge
from ..formats.records import write_json
from ..lab import paths
from ..lab.affected.upgrade import PAUSE_FAILED, STORES, UpgradeRecord
from ..lab.releases import environments
from ..study.loop import run_sync
from ..study.words import MODES
from . import driver as _driver
from . import harness as _harness
from . import worker as _worker

NEXT_TURN = [_driver.Ask(_harness.QUESTIONS[1], (_harness.NEXT_ANSWER,))]


def record(store: str, turn: _driver.Transcript) -> UpgradeRecord:
    """Judge one next turn on the wire by the API stand-in's answer to each model request."""
    stage = turn.stage("next_turn")
    sent = [item for request in stage.model_inputs for item in request]
    answers = [h for h in stage.http_requests if h["path"].endswith("/responses")]
    api = "; ".join(f"HTTP {h['status']}" + (f": {h['error']}" if "error" in h else "")
                    for h in answers)  # fmt: skip
    compaction_orphans = sorted({key for req in stage.compaction_inputs for key in
                                 orphan_outputs(req)})  # fmt: skip
    return UpgradeRecord(
        release=turn.sdk_version,
        store=store,
        next_turn=REJECTED if any(h["status"] >= 400 for h in answers) else ACCEPTED,
        judged_by="API stand-in",
        api_answer=api,
        orphan_outputs=" ".join(orphan_outputs(sent)),
        compaction_requests=len(stage.compaction_inputs),
        compaction_input_orphans=" ".join(compaction_orphans),
        stored_after=judge("s", stage.stored).verdict,
        model_input=sent,
    )


def poison(store: Path) -> list[dict[str, Any]]:
    """Pause and resume on the pinned release with compaction on: the store is poisoned. The
    items it holds after."""
    paused = _driver.converse(
        _driver.Setup(),
        [_driver.Ask(_harness.QUESTIONS[0], (_harness.PENDING_CALL,), stage="pause")],
        store,
    )
    resumed = _driver.converse(
        _driver.Setup(),
        [_driver.Decide(), _driver.Resume((_harness.FINISHED,))],
        store,
        state=paused.state,
    )
    return resumed.stage("resume").stored


def refuse(store: Path) -> list[dict[str, Any]]:
    """Pause on the pinned release with the SDK's default mode and compaction on: the API
    refuses the compaction request and the user's run raises. The items the store holds."""
    setup = _driver.Setup(mode="auto", go_on=True)
    paused = _driver.converse(
        setup, [_driver.Ask(_harness.QUESTIONS[0], (_harness.PENDING_CALL,), stage="pause")], store
    )
    return paused.stage("pause").stored


def pause_failed_compaction_inputs() -> list[list[dict[str, Any]]]:
    """The input of each compaction request the next turn on the ``pause_failed`` store sends,
    on the pinned release (here): what the stand-in answered 200 in that turn."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-upgrade-") as folder:
        store = Path(folder) / f"{PAUSE_FAILED}.db"
        refuse(store)
        turn = _driver.converse(
            _driver.Setup(STORES[PAUSE_FAILED], model="responses"), NEXT_TURN, store
        )
        return [list(items) for items in turn.stage("next_turn").compaction_inputs]


def repaired_copy(source: Path, target: Path) -> None:

    shutil.copyfile(source, target)
    run_sync(apply(str(target), target.with_suffix(".backup.jsonl")))


def upgrade_records(env: environments.Environment | None) -> list[UpgradeRecord]:
    """The next turn on the pinned and the newest release, on each store (``STORES``).

    Without ``env`` only the pinned release's turns run (in this process).
    """
    with tempfile.TemporaryDirectory(prefix="approval-compaction-upgrade-") as folder:
        base = Path(folder)
        poison(base / "poisoned.db")
        repaired_copy(base / "poisoned.db", base / "repaired.db")
        refuse(base / f"{PAUSE_FAILED}.db")
        records = []
        for label, mode in STORES.items():
            wire = _driver.Setup(mode, model="responses")
            here, there = base / f"{label}-pinned.db", base / f"{label}-newest.db"
            shutil.copyfile(base / f"{label}.db", here)
            shutil.copyfile(base / f"{label}.db", there)
            records.append(record(label, _driver.converse(wire, NEXT_TURN, here)))
            if env is None:
                continue
            with _worker.Worker(str(env.python), environments.isolated_environ()) as worker:
                records.append(
                    record(label, _driver.converse(wire, NEXT_TURN, there, worker=worker))
                )
        return records


CHECK_TURNS = 20  # pause positions 0 to 20 prior turns


def mode_checks(
    worker: _worker.Worker | None = None, turns: int = CHECK_TURNS
) -> list[dict[str, Any]]:
    """The doctor's check with the SDK's default trigger in each compaction mode, on the
    installed release (``worker``: on the release its interpreter runs)."""
    checks = []
    for mode in MODES:
        cfg = check_config(mode=mode)
        release, rows = check_release(cfg, turns, worker)
        checks.append(check_json(cfg, rows, release))
    return checks


def write_data(
    version: str, envs: Path, folder: Path = paths.DATA, report: Callable[[str], None] = print
) -> list[Path]:
    """Write the upgrade records, the newest release's default check, and the default trigger's
    check in each mode on the pinned release (here) and the newest, under ``folder``."""
    env = environments.release_environment(version, envs)
    data = paths.data(folder)
    rows = upgrade_records(env)
    write_json(data.doctor_upgrade, [asdict(r) for r in rows])
    report(f"wrote {data.doctor_upgrade.name}: {len(rows)} next turns")
    cfg = check_config()
    with _worker.Worker(str(env.python), environments.isolated_environ()) as worker:
        release, checked = check_release(cfg, CHECK_TURNS, worker)
        newest = mode_checks(worker)
    write_json(data.doctor_check_newest, check_json(cfg, checked, release))
    report(f"wrote {data.doctor_check_newest.name}: {len(checked)} pause positions on {release}")
    write_json(data.doctor_check_modes, [*mode_checks(), *newest])
    report(f"wrote {data.doctor_check_modes.name}: each mode on the pinned release and {release}")
    return [data.doctor_upgrade, data.doctor_check_newest, data.doctor_check_modes]

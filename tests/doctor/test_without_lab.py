"""What a team runs stands without the lab: every core name and every doctor step, lab blocked.

The import contracts cannot see a module loaded by name (the front door's ``__getattr__``,
``cli._lazy``), so this runs them in a fresh interpreter whose import system refuses
``approval_compaction.lab`` and everything under it, as an install without the ``[lab]``
extra would fail the first lab module that needs it (issue 45: ``doctor check`` reached
``lab/releases/versions.py`` and ``packaging``).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import needs
import pytest

from approval_compaction.js.harness import installed
from approval_compaction.lab import paths
from approval_compaction.lab.stores.synthetic import generate

pytestmark = pytest.mark.subprocess

# Runs in the fresh interpreter: the lab blocked, then the front door's core names, then each
# doctor step through the command line; prints what it saw as JSON on its last line.
WITHOUT_LAB = """
import contextlib, importlib.abc, io, json, sys

asked = []

class NoLab(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "approval_compaction.lab" or name.startswith("approval_compaction.lab."):
            asked.append(name)
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None

sys.meta_path.insert(0, NoLab())

import approval_compaction as ac
from approval_compaction.cli import main

core = list(ac.__all__)
for name in core:
    getattr(ac, name)
core_asked = list(asked)
try:
    import approval_compaction.lab
    lab_door = "opened"
except ModuleNotFoundError:
    lab_door = "blocked"
asked.clear()
store, backup, export, node_folder = sys.argv[1:5]
steps = {
    "scan": ["doctor", "scan", store, "--format", "json"],
    "repair": ["doctor", "repair", store, "--format", "json"],
    "repair --apply": ["doctor", "repair", store, "--apply", "--backup", backup],
    "restore": ["doctor", "restore", backup],
    "check": ["doctor", "check", "--turns", "1", "--later", "1", "--format", "json"],
    "check --js": ["doctor", "check", "--js", node_folder, "--turns", "1", "--format", "json"],
    "items": ["doctor", "items", export, "--format", "json"],
    "sql": ["doctor", "sql", "--dialect", "sqlite"],
}
codes, outs = {}, {}
for step, argv in steps.items():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        codes[step] = main(argv)
    outs[step] = out.getvalue()
from approval_compaction.sdks import sdk_module
# What the doctor loads of an SDK folder by name (``doctor check --adk`` needs google-adk
# beside it to run; its modules must load without the lab all the same).
folders = [sdk_module("adk", m).__name__ for m in ("check", "harness", "items")]
loaded = sorted(m for m in sys.modules if m.startswith("approval_compaction.lab"))
print(json.dumps({"core": len(core), "core_asked": core_asked, "lab_door": lab_door,
                  "asked": asked, "loaded": loaded, "codes": codes, "outs": outs,
                  "folders": folders}))
"""


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("without-lab")
    store, export = folder / "store.db", folder / "export.json"
    asyncio.run(generate(str(store), 3, 6))  # healthy, poisoned, pending
    export.write_text(json.dumps([{"type": "function_call_result", "callId": "c1"}]))
    needs.require(None if installed() else "no node_modules: `make setup`", "JS doctor")
    argv = [str(store), str(folder / "backup.jsonl"), str(export), str(paths.ROOT)]
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_LAB, *argv],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_without_lab_every_core_front_door_name_imports(seen: dict[str, object]) -> None:
    """Each name of the core's front door resolves with the lab blocked, and asks for no lab
    module; the lab's door fails, so the block is real."""
    import approval_compaction as ac

    assert seen["core"] == len(ac.__all__)
    assert seen["core_asked"] == []
    assert seen["lab_door"] == "blocked"


def test_without_lab_every_doctor_step_runs(seen: dict[str, object]) -> None:
    codes = seen["codes"]
    assert codes == {  # scan, the dry run and items find a poisoned session (affected: 4)
        "scan": 4,
        "repair": 4,
        "repair --apply": 1,  # healed
        "restore": 0,
        "check": 0,
        "check --js": 4,  # the pinned 0.20.0 stops compacting over its 10 later turns
        "items": 4,
        "sql": 0,
    }
    outs: dict[str, str] = seen["outs"]  # type: ignore[assignment]
    verdicts = [r["verdict"] for r in json.loads(outs["scan"])]
    assert verdicts == ["healthy", "poisoned", "pending"]
    assert "1 repaired" in outs["repair --apply"]
    assert outs["restore"].splitlines()[-1] == "1 of 1 sessions as backed up"
    assert json.loads(outs["check"])["release"]
    assert json.loads(outs["check --js"])["answers"][0].startswith("@openai/agents ")
    assert json.loads(outs["items"])["verdict"] == "poisoned"
    assert "FROM judged WHERE orphan_outputs > 0" in outs["sql"]
    assert seen["asked"] == [] and seen["loaded"] == []


def test_without_lab_the_doctor_loads_an_sdk_folder_s_check_by_name(
    seen: dict[str, object],
) -> None:
    """The ADK folder sits above the lab; what the doctor loads of it stands without the lab."""
    names = ("check", "harness", "items")
    assert seen["folders"] == [f"approval_compaction.adk.{m}" for m in names]
    assert seen["asked"] == [] and seen["loaded"] == []

"""The install a team makes: the README's lines, from a clone, beside openai-agents alone, in a
fresh environment.

On the newest release and on the pinned (affected) one, the core holds no pandas, matplotlib,
Jupyter or doctor dependency; the workaround keeps every invariant of the sixteen cases on the
study's scripted model; ``doctor scan`` on a store written by the SDK's own ``SQLiteSession`` is
one line naming the ``[doctor]`` extra until it is installed, and then judges each session;
``doctor check`` answers in the ``[doctor]`` install, and ``doctor data`` (the lab's) is one line
naming ``[lab]``.
Each environment is built here with ``uv`` (the package registry, or uv's cache), running the
README's ``pip install`` lines (``readme.INSTALL_CORE``, ``INSTALL_DOCTOR``) in the folder that
holds a clone of this repository.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import needs
import pytest

from approval_compaction.lab.share.readme import INSTALL_CORE, INSTALL_DOCTOR, WORKAROUND_IMPORT
from approval_compaction.study.words import NEWEST, PINNED
from approval_compaction.testing.install import Env, clone, fresh_env, pip_arguments, uv_binary

pytestmark = pytest.mark.releases  # uv builds the wheel and fresh environments

NOT_IN_CORE = ("pandas", "matplotlib", "jupyterlab", "nbclient", "ipykernel", "msgspec",
               "sqlalchemy", "hypothesis", "tqdm")  # fmt: skip
# Two sessions as the SDK's SQLiteSession writes them: one paired, one holding an output whose
# call compaction dropped (what the pinned release leaves behind).
WRITE_STORE = """
import asyncio, sys
from agents import SQLiteSession
USER = {"role": "user", "content": "q"}
CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "x"}
async def main(path):
    for sid, items in (("healthy", [USER, CALL, OUTPUT]), ("poisoned", [USER, OUTPUT, USER])):
        session = SQLiteSession(sid, path)
        await session.add_items(items)
        session.close()
asyncio.run(main(sys.argv[1]))
"""
# The sixteen cases with the workaround, each judged: the invariants that do not hold.
RUN_CASES = """
import json
import shutil
from approval_compaction.analysis.invariants import evaluate
from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.openai_agents.harness import run_matrix
runs = run_matrix(wrap_session=defer_compaction_while_pending)
print(json.dumps({r.case.label: [v.invariant for v in evaluate(r) if v.holds is False]
                  for r in runs}))
"""


@pytest.fixture(scope="module")
def cloned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding a clone of this repository, where the README's lines are run."""
    needs.require(None if uv_binary() else "uv is not installed (make setup)", "install")
    folder = tmp_path_factory.mktemp("clone")
    clone(folder)
    return folder


@pytest.fixture(scope="module", params=[NEWEST, PINNED], ids=["newest", "pinned"])
def core(
    request: pytest.FixtureRequest, cloned: Path, tmp_path_factory: pytest.TempPathFactory
) -> Env:
    release = str(request.param)
    folder = tmp_path_factory.mktemp(f"core-{release}") / "env"
    line = pip_arguments(INSTALL_CORE)
    return fresh_env(folder, [f"openai-agents=={release}", *line], cwd=cloned)


@pytest.fixture(scope="module")
def store(core: Env, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store") / "store.db"
    written = core.run("-c", WRITE_STORE, str(path))
    assert written.returncode == 0, written.stderr
    return path


def test_core_install_holds_only_the_sdk_and_the_package(core: Env) -> None:
    assert [m for m in NOT_IN_CORE if core.has(m)] == []
    assert core.has("agents") and core.has("approval_compaction")
    imported = core.run("-c", WORKAROUND_IMPORT)  # the README's import, as it is written
    assert imported.returncode == 0, imported.stderr


def test_workaround_keeps_every_invariant_on_a_bare_install(core: Env) -> None:
    done = core.run("-c", RUN_CASES, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    broken = json.loads(done.stdout.splitlines()[-1])
    assert len(broken) == 16
    assert {label: names for label, names in broken.items() if names} == {}


def test_doctor_scan_without_its_extra_is_one_line_naming_it(core: Env, store: Path) -> None:
    done = core.run("-m", "approval_compaction", "doctor", "scan", str(store))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: the doctor needs msgspec: install approval-compaction[doctor]"
    ]


def test_doctor_items_without_its_extra_is_one_line_naming_it(core: Env, tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    export.write_text("[]")
    done = core.run("-m", "approval_compaction", "doctor", "items", str(export))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: the doctor needs msgspec: install approval-compaction[doctor]"
    ]


@pytest.fixture(scope="module")
def doctor(core: Env, cloned: Path, tmp_path_factory: pytest.TempPathFactory) -> Env:
    """The ``[doctor]`` install beside the same release: the README's line, from the clone."""
    version = core.run("-c", "import agents; print(agents.__version__)").stdout.strip()
    folder = tmp_path_factory.mktemp(f"doctor-{version}") / "env"
    line = pip_arguments(INSTALL_DOCTOR)
    return fresh_env(folder, [f"openai-agents=={version}", *line], cwd=cloned)


def test_doctor_scan_judges_a_store_the_sdk_wrote(doctor: Env, store: Path) -> None:
    assert [m for m in ("pandas", "matplotlib", "jupyterlab") if doctor.has(m)] == []
    done = doctor.run("-m", "approval_compaction", "doctor", "scan", str(store), "--format",
                      "json")  # fmt: skip
    assert done.returncode == 4, done.stderr  # affected: the poisoned session (docs/doctor.md)
    verdicts = {r["session_id"]: r["verdict"] for r in json.loads(done.stdout)}
    assert verdicts == {"healthy": "healthy", "poisoned": "poisoned"}


def test_doctor_check_runs_in_the_doctor_install(core: Env, doctor: Env) -> None:
    """Issue 45: the README's next command, ``doctor check``, ended in ``ModuleNotFoundError: No
    module named 'packaging'`` (it lived in the lab); it answers on the installed release."""
    done = doctor.run("-m", "approval_compaction", "doctor", "check", "--turns", "2", "--later",
                      "1", "--format", "json", timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    version = doctor.run("-c", "import agents; print(agents.__version__)").stdout.strip()
    assert found["release"] == version and len(found["rows"]) == 3
    assert found["answers"][0].startswith(f"openai-agents {version}, compaction_mode='auto'")


def test_doctor_data_in_the_doctor_install_is_one_line_naming_the_lab(
    doctor: Env, tmp_path: Path
) -> None:
    """``doctor data`` builds release environments: the lab's step, one line without it."""
    assert not doctor.has("packaging")  # the lab's dependency, not the doctor's
    done = doctor.run("-m", "approval_compaction", "doctor", "data", "--folder", str(tmp_path))
    assert (done.returncode, done.stderr.strip().splitlines()) == (
        2,
        ["error: this command needs packaging: install approval-compaction[lab]"],
    )


# One @openai/agents session as the pinned release stores it after a compacted pause and the
# resume: the decision's output without its call (tests/doctor/test_export.py runs it on the SDK).
JS_EXPORT = [
    {"type": "message", "role": "user", "content": "first question"},
    {"type": "compaction", "encrypted_content": "summary", "providerData": {"id": "c1"}},
    {"type": "function_call_result", "name": "protected_lookup", "callId": "call_standin_1",
     "status": "completed", "output": {"type": "text", "text": "looked up x"}},
]  # fmt: skip


def test_a_js_teams_doctor_runs_in_the_doctor_install(doctor: Env, tmp_path: Path) -> None:
    """A JS team's path from the ``[doctor]`` install: the JS driver ships in the wheel and runs
    the check on the @openai/agents of a folder (the repository's pinned one, left as it was);
    a session exported as JSON is judged and healed."""
    from approval_compaction.js.harness import missing
    from approval_compaction.lab import paths

    needs.require(None if shutil.which("node") else "node is not installed", "JS doctor")
    needs.require(None if not missing() else "npm ci has not run here", "JS doctor")
    argv = ["-m", "approval_compaction", "doctor", "check", "--js", str(paths.ROOT)]
    done = doctor.run(*argv, "--turns", "10", "--later", "1", "--format", "json", timeout=600)
    assert done.returncode == 4, done.stderr[-2000:]  # affected: the pause refused after 9 turns
    found = json.loads(done.stdout)
    pinned = json.loads((paths.ROOT / "package.json").read_text())["dependencies"]
    assert found["release"] == pinned["@openai/agents"] and len(found["rows"]) == 11
    assert found["answers"][0].startswith(f"@openai/agents {found['release']}, ")
    assert [r["prior_turns"] for r in found["rows"] if r["at_pause"] != "paused"] == [9]
    export, healed = tmp_path / "export.json", tmp_path / "healed.json"
    export.write_text(json.dumps(JS_EXPORT))
    argv = ["-m", "approval_compaction", "doctor", "items", str(export), "--output", str(healed)]
    done = doctor.run(*argv, "--format", "json")
    assert done.returncode == 1, done.stderr[-2000:]  # healed: the healed list written
    said = json.loads(done.stdout)
    assert (said["sdk"], said["verdict"], said["written"]) == (
        "@openai/agents",
        "poisoned",
        str(healed),
    )
    assert json.loads(healed.read_text())[2]["content"][0]["text"].startswith("[doctor] ")

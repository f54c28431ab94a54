"""The README's quick paths, run as written (issue 60): every command a team copies from "Your
first five minutes", for each SDK, in a folder of its own, from a clone of this repository.

A path's shell blocks run in one bash session each, in order (a later block runs in the
environment the first activated, as in the team's terminal); its Python block is the team's
application code, run by the environment's interpreter; its TypeScript block is compiled by
``tsc`` beside the copied declarations and run by Node. Between the README's blocks the test
does what the team's application would (store a session an affected release left poisoned,
export a JS session's items) and then holds each command to what the README says it does: the
check answers, the scan names the poisoned session, the repair heals it; the exit status of each
is the one ``docs/doctor.md`` gives. ``$REPO`` is this repository's committed tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import needs
import pytest

from approval_compaction import paths
from approval_compaction.adk.check import SPLIT
from approval_compaction.doctor import status
from approval_compaction.formats.markdown import fenced_blocks, section

# Each path installs from the package registry into a fresh environment (google-adk brings about
# a hundred packages): longer than the suite's default timeout on a loaded machine.
pytestmark = [pytest.mark.releases, pytest.mark.subprocess, pytest.mark.timeout(2400)]

README = paths.ROOT / "README.md"
QUICK = "## Your first five minutes"
HEADS = {
    "python": "**Python**",
    "js": "**JavaScript or TypeScript**",
    "adk": "**google-adk**",
}
LIMIT = 6_000  # the quick paths end within the README's first characters
TIMEOUT = 1_200
# What the Python team's application left in its store on an affected release: an output whose
# call compaction dropped, then the user's next question.
POISON = """
import asyncio
from agents import SQLiteSession
async def main():
    store = SQLiteSession("user-2", "sessions.db")
    await store.add_items([
        {"role": "user", "content": "q"},
        {"type": "function_call_output", "call_id": "c1", "output": "x"},
        {"role": "user", "content": "next"},
    ])
asyncio.run(main())
"""


def quick_path(name: str) -> list[tuple[str, str]]:
    """The fenced blocks of one SDK's quick path, in order."""
    text = section(README.read_text(), QUICK)
    starts = sorted((text.index(head), key) for key, head in HEADS.items())
    bounds = dict(
        zip([k for _, k in starts], [*(s for s, _ in starts[1:]), len(text)], strict=True)
    )
    begin = text.index(HEADS[name])
    return fenced_blocks(text[begin : bounds[name]])


def shell_lines(name: str, number: int) -> list[str]:
    """The commands of the ``number``-th shell block of a path (its comments left out, as a
    shell runs them)."""
    blocks = [body for info, body in quick_path(name) if info == "sh"]
    lines = blocks[number].splitlines()
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _env(work: Path) -> dict[str, str]:
    """The team's shell: this repository as ``$REPO``, this Python 3.11+ first on PATH, bytecode
    caching on, a key the SDKs' constructors ask for (nothing is sent)."""
    unset = ("PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    shim = work.parent / "bin"
    shim.mkdir(exist_ok=True)
    base = Path(getattr(sys, "_base_executable", sys.executable))
    for name in ("python3", "python"):
        if not (shim / name).exists():
            (shim / name).symlink_to(base)
    env["PATH"] = f"{shim}{os.pathsep}{env.get('PATH', '')}"
    env.update(REPO=str(paths.ROOT), OPENAI_API_KEY="unused-by-the-test")
    return env


def bash(lines: list[str], work: Path, activate: bool = True) -> subprocess.CompletedProcess[str]:
    """Run shell lines in one bash session in ``work`` (in the activated environment)."""
    head = ". .venv/bin/activate\n" if activate else ""
    script = "set -euo pipefail\n" + head + "\n".join(lines) + "\n"
    return subprocess.run(
        ["bash", "-c", script],
        cwd=work,
        env=_env(work),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


@pytest.fixture
def work(tmp_path: Path) -> Path:
    needs.require(None if shutil.which("git") else "git is not installed", "quick path")
    folder = tmp_path / "team"
    folder.mkdir()
    return folder


def test_quick_paths_sit_in_the_first_six_thousand_characters() -> None:
    text = README.read_text()
    start = text.index(QUICK)
    end = start + len(QUICK) + len(section(text, QUICK))
    assert end <= LIMIT, f"the quick paths end at character {end}"
    for name in HEADS:
        infos = [info for info, _ in quick_path(name)]
        assert infos and infos[0] == "sh", name
        assert any("git clone" in body for _, body in quick_path(name)), name


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    return done.stdout


def test_python_quick_path_runs_as_written(work: Path) -> None:
    """Clone, install, paste, check, scan and repair: the store the application wrote holds a
    poisoned session; the scan names it, the repair heals it, a second scan finds it healthy."""
    install = shell_lines("python", 0)
    _ok(bash(install, work, activate=False))
    (paste,) = [body for info, body in quick_path("python") if info == "python"]
    (work / "app.py").write_text(paste)
    (work / "poison.py").write_text(POISON)
    _ok(bash(["python app.py", "python poison.py"], work))
    check, scan, repair = shell_lines("python", 1)
    checked = bash([check], work)
    answers = checked.stdout.splitlines()[-2:]
    # the healthy answers: "not affected at any of ..." and "... keep compacting at all ..."
    hit = ": not affected at any of " not in answers[0] or any(
        w in answers[1] for w in ("stop compacting", "refuses")
    )
    assert checked.returncode == (status.AFFECTED if hit else status.HEALTHY), checked.stderr
    assert answers[0].startswith("openai-agents ")
    scanned = bash([scan], work)
    assert scanned.returncode == status.AFFECTED, scanned.stderr[-2000:]
    assert "poisoned" in scanned.stdout and "user-2" in scanned.stdout
    healed = bash([repair], work)
    assert healed.returncode == status.HEALED, healed.stderr[-2000:]
    again = bash([scan.replace("--all", "--format json")], work)
    assert again.returncode == status.HEALTHY, again.stderr[-2000:]
    verdicts = {r["session_id"]: r["verdict"] for r in json.loads(again.stdout)}
    assert verdicts["user-2"] == "healthy"


NPM_PROJECT = {"name": "team-app", "private": True, "type": "module"}


def test_js_quick_path_runs_as_written(work: Path) -> None:
    """A scratch Node project with the pinned ``@openai/agents``: the copied module and its
    declarations compile with ``tsc`` under the pasted lines, which run; the doctor checks the
    project's own SDK and heals an exported session, which loads back paired."""
    needs.require(None if shutil.which("npm") else "npm is not installed", "quick path")
    tsc = paths.ROOT / "js" / "sdk-test" / "node_modules" / ".bin" / "tsc"
    needs.require(None if tsc.exists() else "no tsc: `make js-sdk-test` installs it", "tsc")
    pinned = json.loads((paths.ROOT / "package.json").read_text())["dependencies"]
    (work / "package.json").write_text(json.dumps(NPM_PROJECT))
    packages = [f"{name}@{pinned[name]}" for name in ("@openai/agents", "openai", "zod")]
    _ok(bash(["npm install --no-audit --no-fund --loglevel=error " + " ".join(packages)], work,
             activate=False))  # fmt: skip
    _ok(bash(shell_lines("js", 0), work, activate=False))
    (paste,) = [body for info, body in quick_path("js") if info == "ts"]
    (work / "app.ts").write_text(paste)
    typed = subprocess.run(
        [str(tsc), "--noEmit", "--strict", "--module", "nodenext", "--target", "es2022",
         "--skipLibCheck", "app.ts"],  # fmt: skip
        cwd=work, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert typed.returncode == 0, typed.stdout[-3000:]
    export = (
        "\nawait underlyingSession.addItems([{ type: 'message', role: 'user', content: 'q' },"
        " { type: 'function_call_result', callId: 'c1', name: 't', status: 'completed',"
        " output: { type: 'text', text: 'x' } }]);\n"
        "import { writeFileSync } from 'node:fs';\n"
        "writeFileSync('items.json', JSON.stringify(await session.getItems()));\n"
    )
    (work / "app.mjs").write_text(paste + export)
    _ok(bash(["node app.mjs"], work, activate=False))
    venv, check, items = shell_lines("js", 1)
    _ok(bash([venv], work, activate=False))
    checked = bash([check], work)
    assert checked.returncode == status.AFFECTED, checked.stderr[-2000:]  # the pinned release
    assert f"@openai/agents {pinned['@openai/agents']}" in checked.stdout
    healed = bash([items], work)
    assert healed.returncode == status.HEALED, healed.stderr[-2000:]
    assert "poisoned" in healed.stdout, healed.stdout[-2000:]
    load = (
        "import { readFileSync } from 'node:fs';\n"
        "import { MemorySession } from '@openai/agents';\n"
        "const session = new MemorySession();\n"
        "const healed = JSON.parse(readFileSync('healed.json', 'utf8'));\n"
        "await session.clearSession();\nawait session.addItems(healed);\n"
        "console.log(JSON.stringify((await session.getItems()).map((i) => i.type ?? i.role)));\n"
    )
    (work / "load.mjs").write_text(load)
    loaded = json.loads(_ok(bash(["node load.mjs"], work, activate=False)))
    assert "function_call_result" not in loaded


def test_adk_quick_path_runs_as_written(work: Path) -> None:
    """google-adk from the package index beside the doctor; the check runs the installed
    release in every kind and answers for each."""
    *install, check = shell_lines("adk", 0)
    _ok(bash(install, work, activate=False))
    checked = bash([check], work)
    answers = [line for line in checked.stdout.splitlines() if line.startswith("google-adk ")]
    hit = any(w in a for w in ("affected", SPLIT, "refused", "stops compacting") for a in answers)
    assert checked.returncode == (status.AFFECTED if hit else status.HEALTHY), checked.stderr
    assert [a.split(",")[1].split(":")[0].strip() for a in answers] == [
        "window-0", "window-1", "tokens-0", "tokens-2",
    ]  # fmt: skip

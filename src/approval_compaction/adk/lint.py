"""Lint (ADK): the adk-python fix and its regression test checked as adk-python checks its code.

The release's sdist (``pip download --no-binary :all: google-adk==<pinned>``, from the package
index) is adk-python's ``src/`` tree with its ``pyproject.toml``, whose ``[tool.pyink]``
(80 columns, two-space indents), ``[tool.isort]`` (Google profile) and ``[tool.ruff]`` settings
the tools read as they are; its ``dev`` extra pins the tools (``TOOLS``; pylint is ``>=2.6``
there, pinned here). pylint runs with ``adk/fix/pylintrc``: adk-python's own format settings
(80 columns; import lines and URLs exempt) and its messages otherwise, on the touched module
before and after the patch: a message the patch brings is one the patched file has and the
released one does not. The patch is applied as a maintainer applies it, ``patch -p1`` in the
tree (``src/google/adk/...``); the regression test sits where it goes, ``tests/unittests/apps/``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..lab import paths
from ..lab.releases.driven import CheckRecord
from ..lab.releases.environments import run, uv_binary
from .packages import cache_folder, pinned
from .patched import FIX, LONG_RUNNING_FIX
from .sdk_test import ADK_REGRESSION_TEST, LONG_RUNNING_TEST

TOOLS = ("pyink==25.12", "isort==8.0.1", "ruff==0.15.17", "pylint==4.1.5")
PYLINTRC = paths.ROOT / "adk" / "fix" / "pylintrc"
TESTS = "tests/unittests/apps/"  # where adk-python keeps the regression tests
TEST_PATH = TESTS + ADK_REGRESSION_TEST.name
TIMEOUT = 600.0
_MESSAGE = re.compile(r"^[^:]+:\d+:\d+: ([A-Z]\d{4}): (.*) \(([\w-]+)\)$", re.M)


def _tools() -> Path:
    folder = cache_folder() / "_lint"
    marker = folder / "tools.txt"
    if marker.is_file() and marker.read_text().split() == list(TOOLS):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    done = run([uv_binary(), "pip", "install", "--quiet", "--target", str(folder), *TOOLS], 900)
    if done.returncode != 0:
        raise RuntimeError(f"installing {', '.join(TOOLS)} failed: {done.stderr.strip()[-200:]}")
    marker.write_text("\n".join(TOOLS) + "\n")
    return folder


def sdist_tree(version: str | None = None) -> Path:
    """The release's sdist, unpacked once in the cache (adk-python's ``src/`` and settings)."""
    release = version or pinned()
    folder = cache_folder() / "_sdist" / release
    tree = folder / f"google_adk-{release}"
    if (tree / "pyproject.toml").is_file():
        return tree
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary"]
    command += [":all:", "-d", str(folder), f"google-adk=={release}"]
    done = run(command, 600, cwd=folder)
    archive = next(folder.glob("google_adk-*.tar.gz"), None)
    if done.returncode != 0 or archive is None:
        raise RuntimeError(f"no sdist of google-adk {release}: {done.stderr.strip()[-200:]}")
    with tarfile.open(archive) as opened:
        opened.extractall(folder, filter="data")
    return tree


def _tool(tools: Path, module: str, arguments: Sequence[str], cwd: Path) -> tuple[int, str]:
    env = {"PYTHONPATH": str(tools), "PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    done = subprocess.run(
        [sys.executable, "-m", module, *arguments],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False,
    )  # fmt: skip
    return done.returncode, (done.stdout + done.stderr).replace(str(cwd) + "/", "")


def _pylint(tools: Path, tree: Path, path: str) -> set[tuple[str, str]]:
    _, said = _tool(tools, "pylint", [f"--rcfile={PYLINTRC}", "--score=n", path], tree)
    return {(m.group(3), m.group(2)) for m in _MESSAGE.finditer(said)}


def _patched_tree(tree: Path, work: Path, patch: Path, test: Path) -> Path:
    copy = work / tree.name
    shutil.copytree(tree, copy)
    done = subprocess.run(
        ["patch", "-p1", "--forward", "--batch", "-i", str(patch)],
        cwd=copy, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{patch.name} does not apply to the sdist: {done.stdout[-200:]}")
    target = copy / TESTS / test.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(test, target)
    return copy


def _touched(patch: Path) -> list[str]:
    return sorted(set(re.findall(r"^\+\+\+ b/(\S+)", patch.read_text(), re.M)))


def check_fix(
    patch: Path = FIX, test: Path = ADK_REGRESSION_TEST, subject: str = "adk"
) -> list[CheckRecord]:
    """pyink, isort, ruff and pylint on the patched modules and the fix's regression test."""
    tools, tree = _tools(), sdist_tree()
    touched = _touched(patch)
    files = [*touched, TESTS + test.name]
    records = []
    with tempfile.TemporaryDirectory(prefix="approval-compaction-adk-lint-") as scratch:
        patched = _patched_tree(tree, Path(scratch), patch, test)
        runs = {
            "pyink": (["--check", "--diff", "--config", "pyproject.toml", *files], "pyink --check"),
            "isort": (["--check-only", "--settings-path", "pyproject.toml", *files], "isort"),
            "ruff": (["check", *files], "ruff check"),
        }
        for tool, (arguments, command) in runs.items():
            code, said = _tool(tools, tool, arguments, patched)
            lines = [line for line in said.splitlines() if line.strip()]
            problems = 0 if code == 0 else max(1, sum(1 for line in lines if "would" in line))
            records.append(
                CheckRecord(
                    subject, tool, command, len(files), problems, "" if not code else lines[0]
                )
            )
        brought: set[tuple[str, str]] = set()
        for path in files:
            after = _pylint(tools, patched, path)
            before = _pylint(tools, tree, path) if (tree / path).is_file() else set()
            brought |= after - before
        said = "\n".join(f"{symbol}: {text}" for symbol, text in sorted(brought))
        records.append(
            CheckRecord(subject, "pylint", "pylint (new messages)", len(files), len(brought), said)
        )
    return records


def check_fixes() -> list[CheckRecord]:
    """The late answer's fix (subject ``adk``) and the long-running call's (``long-running``)."""
    return check_fix() + check_fix(LONG_RUNNING_FIX, LONG_RUNNING_TEST, "long-running")

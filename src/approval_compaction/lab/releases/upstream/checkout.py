"""Checkout: a release's unpacked sdist and the development environment its Makefile makes.

The sdist is fetched by pip (``pip download --no-binary :all:``) into the user's cache beside
the sweep's environments, and its environment is made as the Makefile's ``sync`` target makes
it (``uv sync --all-extras --all-packages --group dev``, with this interpreter), once per
release: a marker beside the checkout records the command it ran. The project's upstream-form
regression test is then copied into the checkout's ``tests/memory/``.

A patched SDK (``releases.patched``) runs the suite in a copy of the release's checkout beside
its scratch environment (``patched_checkout``): the development environment hard-linked, its
editable install pointed at the copy's ``src``, the sources and tests copied; the patch is
applied to the copy's ``src/agents``, or an SDK tree's ``src/agents`` and ``tests`` replace the
release's. The release's checkout is never written.
"""

from __future__ import annotations

import shutil
import sys
import tarfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....errors import InvestigationError
from ... import paths
from .. import environments
from ..patched import apply_patch, link_or_copy, made_whole, patched_root
from ..versions import PACKAGE

Report = Callable[[str], None]
UPSTREAM_TEST = paths.ROOT / "tests" / "sdk_regression" / "upstream" / "pending_approval_cases.py"
UPSTREAM_TEST_NAME = "test_compaction_pending_approval_cases.py"  # its name inside the checkout
UPSTREAM_TEST_FOLDER = "tests/memory"
LIVENESS_TEST_NAME = "test_compaction_liveness.py"  # the upstream-form liveness test, there
SYNC_TIMEOUT_SECONDS = 1800


class UpstreamError(InvestigationError):
    """The SDK's suite cannot be fetched or set up."""


@dataclass(frozen=True)
class Checkout:
    """A release's unpacked sdist and the development environment its Makefile makes."""

    version: str
    folder: Path  # the unpacked sdist: tests/, Makefile, uv.lock

    @property
    def python(self) -> Path:
        return self.folder / ".venv" / "bin" / "python"

    @property
    def marker(self) -> Path:
        return self.folder.parent / "approval-compaction.json"

    def ready(self, command: Sequence[str]) -> bool:
        return environments.recorded(self.marker, self.spec(command)) and self.python.exists()

    def spec(self, command: Sequence[str]) -> dict[str, object]:
        return {PACKAGE: self.version, "sync": list(command)}


def default_root() -> Path:
    """Where release checkouts live: beside the sweep's environments, in the user's cache."""
    return environments.default_envs() / "_upstream"


def sync_command(makefile: Path, uv: str) -> list[str]:
    """The Makefile's ``sync`` recipe, with this project's uv and interpreter."""
    lines = makefile.read_text().splitlines()
    for index, line in enumerate(lines):
        if line.startswith("sync:"):
            recipe = lines[index + 1].strip() if index + 1 < len(lines) else ""
            words = recipe.split()
            if words[:2] == ["uv", "sync"]:
                return [uv, *words[1:], "--python", sys.executable]
            raise UpstreamError(f"{makefile}: the sync target runs {recipe!r}, not uv sync")
    raise UpstreamError(f"{makefile} has no sync target")


def fetch(version: str, root: Path, run: environments.Runner = environments.run) -> Path:
    """The unpacked sdist of ``openai-agents==version`` under ``root/version``, fetched by pip."""
    home = root / version
    folder = home / f"openai_agents-{version}"
    if (folder / "Makefile").exists():
        return folder
    archive = environments.fetch_sdist(version, home, run)
    with tarfile.open(archive) as tar:  # refusing members that would land outside home
        tar.extractall(home, filter="data")
    if not (folder / "Makefile").exists():
        raise UpstreamError(f"{archive.name} has no Makefile at {folder.name}/")
    return folder


def prepare(
    version: str, root: Path, *, run: environments.Runner = environments.run, report: Report = print
) -> Checkout:
    """The release's checkout with its development environment, made once and reused."""
    checkout = Checkout(version, fetch(version, root, run))
    command = sync_command(checkout.folder / "Makefile", environments.uv_binary())
    if checkout.ready(command):
        return checkout
    report(f"{version}: uv {' '.join(command[1:])}")
    env = environments.isolated_environ(with_package=False)
    proc = run(command, SYNC_TIMEOUT_SECONDS, cwd=checkout.folder, env=env)
    if proc.returncode != 0:
        raise UpstreamError(f"{version}: make sync failed: {environments.last_line(proc.stderr)}")
    environments.record(checkout.marker, checkout.spec(command))
    return checkout


def install_upstream_test(
    folder: Path, source: Path = UPSTREAM_TEST, name: str = UPSTREAM_TEST_NAME
) -> str:
    """Copy an upstream-form test (the regression test unless told) into the checkout's
    ``tests/memory`` as ``name``; return its path there."""
    target = folder / UPSTREAM_TEST_FOLDER / name
    shutil.copyfile(source, target)
    return target.relative_to(folder).as_posix()


def _copy_checkout(source: Path, target: Path, final: Path) -> None:
    """The checkout with its ``.venv`` hard-linked (never written here) and the rest copied, its
    editable install naming ``final``, where the copy goes once made."""
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".venv"))

    shutil.copytree(source / ".venv", target / ".venv", symlinks=True, copy_function=link_or_copy)
    for pth in (target / ".venv").glob("lib/python*/site-packages/*.pth"):
        text = pth.read_text()
        if str(source) in text:  # the editable install: point it at the copy's sources
            pth.unlink()  # a new file, not the linked one
            pth.write_text(text.replace(str(source), str(final)))


def patched_checkout(checkout: Checkout, patched: Any, envs: Path | None = None) -> Checkout:
    """The release's checkout with the patched SDK in it, made once per patch beside the patch's
    scratch environment; a patch that does not apply leaves nothing behind."""

    home = patched_root(envs) / patched.key / "upstream"
    target = home / checkout.folder.name
    marker = home / f"{checkout.folder.name}.json"
    spec = {"base": checkout.version, "patch": patched.label}
    if environments.recorded(marker, spec) and (target / ".venv").is_dir():
        return Checkout(checkout.version, target)
    with made_whole(target, patched_root(envs)) as copy:  # a patch that fails leaves nothing
        _copy_checkout(checkout.folder, copy, target)
        if patched.tree is not None:
            for part in ("src/agents", "tests"):
                if (patched.tree.path / part).is_dir():
                    shutil.rmtree(copy / part, ignore_errors=True)
                    shutil.copytree(patched.tree.path / part, copy / part)
        for patch in patched.patches:
            apply_patch(patch, copy / "src", checkout.version)
    environments.record(marker, spec)
    return Checkout(checkout.version, target)

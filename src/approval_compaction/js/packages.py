"""Packages: ``@openai/agents`` releases installed with npm, each once, into the user's cache.

The pinned release is the repository's own package (``package.json`` and its committed lock,
installed by ``npm ci``). Every other release gets a folder of its own under the cache,
``approval-compaction/npm/<version>``, installed by ``npm install @openai/agents@<version>`` with
``--before`` a day after it and its sibling packages were published
(``data/js-release-dates.json``), so its dependencies resolve as they did for its users then,
and the same on every machine. npm keeps
what it downloaded in its own cache: a second install of the release is offline.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

from ..errors import InvestigationError
from ..lab import paths
from .files import data_file
from .harness import installed

PACKAGE = "@openai/agents"
FIRST = "0.3.6"  # the first release whose @openai/agents-openai has the compaction session
# The packages @openai/agents pins at its own version.
SIBLINGS = ("@openai/agents-core", "@openai/agents-openai", "@openai/agents-realtime")
INSTALL_SECONDS = 600.0
DATES = data_file("release_dates")  # each release and its date (``fetch_release_dates``)


class NpmError(InvestigationError):
    """npm, or one release's install, failed, in one line."""


def npm_binary() -> str:
    found = shutil.which("npm")
    if found is None:
        raise NpmError("npm not found: install Debian's nodejs and npm (make setup does)")
    return found


def pinned() -> str:
    """The release the repository's package.json pins."""
    data = json.loads((paths.ROOT / "package.json").read_text())
    return str(data["dependencies"][PACKAGE])


def cache_folder() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "approval-compaction" / "npm"


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("-")[0].split("."))


def release_dates(path: Path = DATES) -> dict[str, str]:
    """Each release's publication time, as npm's registry gave it (committed once fetched)."""
    if not path.is_file():
        raise NpmError(f"no {path.name}: run `python -m approval_compaction js-sweep --dates`")
    dates: dict[str, str] = json.loads(path.read_text())
    return dates


def fetch_release_dates(path: Path = DATES) -> Path:
    """Ask npm's registry when each release with the compaction session (``FIRST`` and later)
    was published, as the latest of ``@openai/agents`` and its ``SIBLINGS`` at that version (a
    sibling can come out days after the release that pins it), and write them."""
    from ..formats.files import write_atomic

    published = [_times(name) for name in (PACKAGE, *SIBLINGS)]
    kept = {
        v: max(t[v] for t in published if v in t)
        for v in published[0]
        if v[0].isdigit() and "-" not in v and _key(v) >= _key(FIRST)
    }
    ordered = dict(sorted(kept.items(), key=lambda item: _key(item[0])))
    write_atomic(path, json.dumps(ordered, indent=1) + "\n")
    return path


def _times(name: str) -> dict[str, str]:
    """Each version of ``name`` and when npm's registry says it was published (UTC)."""
    done = subprocess.run(
        [npm_binary(), "view", name, "time", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise NpmError(f"npm view {name} time failed: {_last(done.stderr)}")
    times = json.loads(done.stdout)
    return {v: _moment(str(t)).strftime("%Y-%m-%dT%H:%M:%SZ") for v, t in times.items()}


def releases(dates: dict[str, str] | None = None) -> list[str]:
    """The releases with the compaction session, oldest first."""
    return sorted(dates if dates is not None else release_dates(), key=_key)


def package_folder(version: str, dates: dict[str, str] | None = None) -> Path:
    """The folder whose ``node_modules`` holds ``version``: the repository's for the pinned
    release (``npm ci``), else its cached folder, installed on first use."""
    if version == pinned():
        if not installed(paths.ROOT):
            raise NpmError("the pinned @openai/agents is not installed: run `make setup`")
        return paths.ROOT
    folder = cache_folder() / version
    if installed(folder):
        return folder
    stamp = cutoff(version, dates if dates is not None else release_dates())
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text('{"private": true, "type": "module"}\n')
    command = [
        npm_binary(), "install", "--no-audit", "--no-fund", "--prefer-offline",
        f"--before={stamp}", f"{PACKAGE}@{version}",
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=INSTALL_SECONDS, check=False
    )
    if done.returncode != 0 or not installed(folder):
        shutil.rmtree(folder, ignore_errors=True)
        raise NpmError(f"npm could not install {PACKAGE}@{version}: {_last(done.stderr)}")
    return folder


def cutoff(version: str, dates: dict[str, str]) -> str:
    """The time npm resolves a release's dependencies at: a day after the release and its
    siblings were all published, what its users got then."""
    if version not in dates:
        raise NpmError(f"@openai/agents {version} is not a release with the compaction session")
    return (_moment(dates[version]) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _last(text: str) -> str:
    """npm's own words for what failed: its first error line that says more than a code and
    is not a pointer to its log."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    said = [
        line
        for line in lines
        if "error" in line and "complete log" not in line and not line.startswith("npm error code")
    ]
    return (said or lines or ["no output"])[0]

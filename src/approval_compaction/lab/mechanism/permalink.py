"""Permalinks: SDK source lines at a release's tag on GitHub, and the check that holds them.

A listing quotes only its marked lines and links the rest at the release's tag, e.g.
``https://github.com/openai/openai-agents-python/blob/v0.23.1/src/agents/run.py#L12-L40`` (the
repository tags each release ``vX.Y.Z`` and keeps the package under ``src/agents/``). The line
numbers are those of the installed files, read with ``inspect``; they hold on GitHub only if the
installed files are the tag's. The release's sdist on PyPI is built from the tag's tree and lays
its files out as ``openai_agents-X.Y.Z/src/agents/...``: ``differences`` compares it with the
installed ``agents`` package, file by file and byte for byte.

The sdist is fetched once, by pip, into the user's cache (``fetch_sdist``, ``make permalinks``):
never on the default path, and never under the tests, which read the cached copy.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..releases import environments
from ..releases.environments import SdistError as SdistError
from ..releases.versions import PACKAGE
from .source import site_packages

REPOSITORY = "https://github.com/openai/openai-agents-python"
SOURCE_ROOT = "src"  # the repository's folder that holds the agents package
PACKAGE_FOLDER = "agents"


def tag(version: str) -> str:
    """The release's git tag: ``v0.23.1``."""
    return f"v{version}"


def permalink(version: str, path: str, start: int, end: int | None = None) -> str:
    """A link to lines ``start``..``end`` of ``path`` (relative to site-packages, as an extract
    names it: ``agents/run.py``) at the release's tag."""
    if start < 1 or (end is not None and end < start):
        raise ValueError(f"no such line range: {start}..{end}")
    anchor = f"#L{start}" if end is None or end == start else f"#L{start}-L{end}"
    return f"{REPOSITORY}/blob/{tag(version)}/{SOURCE_ROOT}/{path}{anchor}"


def default_cache() -> Path:
    """Where sdists are kept: the user's cache, beside the release environments."""
    return environments.default_envs().parent / "sdists"


def sdist_archive(version: str, cache: Path | None = None) -> Path:
    """The cached sdist of the release (it may not exist yet)."""
    return environments.sdist_archive(version, cache or default_cache())


def fetch_sdist(
    version: str, cache: Path | None = None, run: environments.Runner = environments.run
) -> Path:
    """The release's sdist in the cache, downloaded by pip from the package index once."""
    return environments.fetch_sdist(version, cache or default_cache(), run)


def sdist_sources(archive: Path, version: str) -> dict[str, bytes]:
    """The sdist's ``src/agents/`` files, by their path relative to ``src/`` (``agents/run.py``)."""
    prefix = f"openai_agents-{version}/{SOURCE_ROOT}/"
    try:
        with tarfile.open(archive) as tar:
            found = {}
            for member in tar.getmembers():
                name = member.name.removeprefix(prefix)
                if member.isfile() and name != member.name and name.startswith("agents/"):
                    data = tar.extractfile(member)
                    found[name] = data.read() if data is not None else b""
    except (OSError, tarfile.TarError) as error:
        raise SdistError(f"{archive.name}: not a readable sdist: {error}") from None
    if not found:
        raise SdistError(f"{archive.name} has no {prefix}{PACKAGE_FOLDER}/")
    return found


def installed_sources(site_packages: Path) -> dict[str, bytes]:
    """The installed ``agents`` package's files (compiled caches aside), relative to
    ``site-packages``."""
    root = site_packages / PACKAGE_FOLDER
    return {
        path.relative_to(site_packages).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@dataclass(frozen=True)
class Differences:
    """Where two trees of files differ (the sdist's ``src/agents/`` and the installed package,
    or two releases' packages): the paths only the first or the second holds, and those whose
    bytes differ."""

    only_first: tuple[str, ...]
    only_second: tuple[str, ...]
    changed: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.only_first or self.only_second or self.changed)

    def said(self, first: str, second: str) -> str:
        """The differences in a line, ``first`` and ``second`` naming the trees."""
        parts = [
            f"{label}: {', '.join(names[:5])}{' ...' if len(names) > 5 else ''}"
            for label, names in (
                (f"only {first}", self.only_first),
                (f"only {second}", self.only_second),
                ("different", self.changed),
            )
            if names
        ]
        return "; ".join(parts) or "identical"


def differences(first: Mapping[str, bytes], second: Mapping[str, bytes]) -> Differences:
    """The files only one side has, and those whose bytes differ, each in path order."""
    return Differences(
        only_first=tuple(sorted(set(first) - set(second))),
        only_second=tuple(sorted(set(second) - set(first))),
        changed=tuple(sorted(p for p in set(first) & set(second) if first[p] != second[p])),
    )


def command(args: argparse.Namespace) -> int:
    """``permalinks``: fetch the installed release's sdist once, and check that the installed
    files are its ``src/agents/``, so that every permalink's line numbers hold."""

    version = importlib.metadata.version(PACKAGE)
    archive = fetch_sdist(version, Path(args.cache) if args.cache else None)
    sources = sdist_sources(archive, version)
    found = differences(sources, installed_sources(site_packages()))
    if found:
        told = found.said("in the sdist", "installed")
        raise SdistError(f"the installed {PACKAGE} {version} is not {tag(version)}'s: {told}")
    print(
        f"{PACKAGE} {version}: the {len(sources)} installed files equal src/agents/ at "
        f"{tag(version)} (from {archive.name})"
    )
    return 0

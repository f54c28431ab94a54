"""Versions: the ``openai-agents`` releases under study, their upload dates, and version specs.

A release is swept with the dependencies its users had when it came out, so each one carries
the moment it was uploaded (its last file, rounded up to the second): the ``--exclude-newer``
cutoff for resolving its environment. The dates come from the package index and are kept in
``data/release-dates.json``, so that a sweep with a warm cache also runs offline.

A version spec names releases: ``0.23.1``, a list ``0.8.0,0.23.1``, an inclusive range
``0.20.0..0.24.0``, or an open range ``0.20.0..`` / ``..0.10.0``; parts combine with commas.
"""

from __future__ import annotations

import functools
import json
import urllib.request
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from ...errors import InvestigationError
from ...formats.records import read_json, write_json

PACKAGE = "openai-agents"
FIRST_RELEASE = "0.8.0"  # the first release with human-in-the-loop approvals
INDEX_URL = f"https://pypi.org/pypi/{PACKAGE}/json"


class VersionSpecError(InvestigationError):
    """A ``--versions`` spec that is malformed or names no known release."""


@functools.cache
def version_key(version: str) -> Version:
    """Sort key: release order, so that ``0.10.0`` comes after ``0.9.3``."""
    return Version(version)


def sort_versions(versions: Iterable[str]) -> list[str]:
    return sorted(set(versions), key=version_key)


def cutoff(upload_times: Iterable[str]) -> str:
    """The last upload time of a release's files, rounded up to the next whole second."""
    last = max(datetime.fromisoformat(t.replace("Z", "+00:00")) for t in upload_times)
    whole = last.replace(microsecond=0) + timedelta(seconds=1 if last.microsecond else 0)
    return whole.strftime("%Y-%m-%dT%H:%M:%SZ")


def releases_from_index(payload: Mapping[str, Any], first: str = FIRST_RELEASE) -> dict[str, str]:
    """Final, non-yanked releases from ``first`` on, each with its cutoff, from the index JSON."""
    found: dict[str, str] = {}
    for text, files in payload.get("releases", {}).items():
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        live = [f for f in files if not f.get("yanked")]
        if version.is_prerelease or version.is_devrelease or version < Version(first) or not live:
            continue
        found[text] = cutoff(f["upload_time_iso_8601"] for f in live)
    return {v: found[v] for v in sort_versions(found)}


def fetch_releases(
    timeout: float = 10.0, package: str = PACKAGE, first: str = FIRST_RELEASE
) -> dict[str, str]:
    """Ask the package index for ``package``'s releases from ``first`` on and their cutoffs
    (raises OSError offline)."""
    url = INDEX_URL.replace(PACKAGE, package)
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310  # fixed https URL
        return releases_from_index(json.load(response), first)


def in_order(releases: Mapping[str, str]) -> dict[str, str]:
    """Releases and their cutoffs in release order."""
    return {v: str(releases[v]) for v in sort_versions(releases)}


def load_releases(path: Path) -> dict[str, str]:
    """The cached releases and cutoffs, in release order; empty when the file is missing."""
    return read_json(path, in_order) if path.exists() else {}


def save_releases(path: Path, releases: Mapping[str, str]) -> None:
    write_json(path, in_order(releases))


def _parse(text: str) -> Version:
    try:
        return Version(text.strip())
    except InvalidVersion:
        raise VersionSpecError(f"invalid version {text.strip()!r} in --versions") from None


def _span(known: Sequence[str]) -> str:
    return f"{known[0]}..{known[-1]}" if known else "none cached"


def parse_versions(spec: str | None, known: Sequence[str]) -> list[str]:
    """The known releases a spec names, in release order; every release for an empty spec."""
    ordered = sort_versions(known)
    if spec is None or not spec.strip():
        return ordered
    chosen: set[str] = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            raise VersionSpecError(f"empty entry in --versions {spec!r}")
        if ".." in part:
            chosen.update(_range(part, ordered))
            continue
        version = _parse(part)
        match = [v for v in ordered if Version(v) == version]
        if not match:
            raise VersionSpecError(
                f"{part} is not a known {PACKAGE} release (known: {_span(ordered)})"
            )
        chosen.add(match[0])
    return sort_versions(chosen)


def _range(part: str, ordered: Sequence[str]) -> list[str]:
    start_text, _, end_text = part.partition("..")
    start = _parse(start_text) if start_text.strip() else None
    end = _parse(end_text) if end_text.strip() else None
    if start is not None and end is not None and start > end:
        raise VersionSpecError(f"range {part!r} runs backwards: {start} is after {end}")
    inside = [
        v
        for v in ordered
        if (start is None or start <= Version(v)) and (end is None or Version(v) <= end)
    ]
    if not inside:
        raise VersionSpecError(f"range {part!r} holds no known release (known: {_span(ordered)})")
    return inside


def needs_index(spec: str | None, known: Sequence[str]) -> bool:
    """Whether a spec may reach past the cached list: no spec, an open end, or an unknown name."""
    if spec is None or not spec.strip():
        return True
    for part in spec.split(","):
        start, sep, end = part.strip().partition("..")
        if sep and not end.strip():
            return True
        for text in (start, end) if sep else (start,):
            try:
                if text.strip() and Version(text.strip()) not in {Version(v) for v in known}:
                    return True
            except InvalidVersion:
                return False  # parse_versions reports it
    return False

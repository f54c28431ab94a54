"""Record: ``data/mechanism.json``, each recorded release's extracts and traced run.

The command writes it (the pinned release live, the others from their cached environments);
the notebook, the views and the tests read it. The file is parsed once, where it is read, into
frozen records: a ``MechanismRecord`` holds the catalogue's names, the case and one
``ReleaseMechanism`` per release (what ``probe`` returns: its ``Extract`` per function and its
``Trace``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...errors import InvestigationError
from ...formats.records import RecordsError, read_json, write_json
from ...study.capture import sdk_version
from ...study.scenario import Case
from .. import paths
from .catalogue import CATALOGUE, PINNED
from .source import Extract
from .trace import REPORT_CASE, Trace

RECORD = paths.DATA_FILES.mechanism


class MechanismError(InvestigationError):
    """The mechanism's data cannot be made or read: a missing environment or record."""


def pinned_here() -> None:
    """Check that this interpreter runs the pinned release (what is made live, in this process,
    is made by it); a one-line ``MechanismError`` otherwise."""
    installed = sdk_version()
    if installed != PINNED:
        raise MechanismError(f"openai-agents {installed} is installed, not the pinned {PINNED}")


@dataclass(frozen=True)
class ReleaseMechanism:
    """One release as its probe saw it: its version, each catalogued function, the report's
    case traced (``trace``: across the JSON boundary) and the same case across the in-memory
    boundary (``memory``); ``patch`` names a patched SDK (empty for the release as published)."""

    release: str
    functions: dict[str, Extract]
    trace: Trace
    memory: Trace | None = None
    patch: str = ""

    @property
    def traces(self) -> dict[str, Trace]:
        """The traced runs by boundary."""
        return {"json": self.trace} | ({"memory": self.memory} if self.memory else {})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReleaseMechanism:
        functions = {name: Extract.from_json(found) for name, found in data["functions"].items()}
        memory = Trace.from_json(data["memory"]) if data.get("memory") else None
        trace = Trace.from_json(data["trace"])
        return cls(str(data["release"]), functions, trace, memory, str(data.get("patch", "")))


@dataclass(frozen=True)
class MechanismRecord:
    """The record as committed: the catalogue's names, the case, each release's record."""

    catalogue: tuple[str, ...]
    case: Case
    releases: dict[str, ReleaseMechanism]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MechanismRecord:
        releases = {v: ReleaseMechanism.from_json(r) for v, r in data["releases"].items()}
        labels = {r.patch for r in releases.values()}
        if len(labels) > 1:  # patched and released runs never mix
            named = ", ".join(repr(label) if label else "released" for label in sorted(labels))
            raise ValueError(f"it mixes patched and released SDKs: {named}")
        return cls(tuple(data["catalogue"]), Case(**data["case"]), releases)

    def release(self, version: str, name: str = RECORD.name) -> ReleaseMechanism:
        """One recorded release; a one-line error naming the file when it holds none."""
        if version not in self.releases:
            raise MechanismError(f"{name} records no release {version}: run `make mechanism`")
        return self.releases[version]


def write_record(path: Path, releases: dict[str, ReleaseMechanism]) -> None:
    """The record of ``releases``, with the catalogue's names and the case, as JSON."""
    record = MechanismRecord(tuple(f.qualname for f in CATALOGUE), REPORT_CASE, releases)
    write_json(path, asdict(record), indent=1, sort_keys=True)


def load_record(path: Path = RECORD) -> MechanismRecord:
    try:
        return read_json(path, MechanismRecord.from_json)
    except RecordsError as error:
        raise MechanismError(f"{error}: run `make mechanism`") from None


def recorded_release(version: str, path: Path = RECORD) -> ReleaseMechanism:
    """One recorded release's record."""
    return load_record(path).release(version, path.name)


def recorded_extract(version: str, qualname: str, path: Path = RECORD) -> Extract:
    """One function's recorded extract in one release."""
    return recorded_release(version, path).functions[qualname]

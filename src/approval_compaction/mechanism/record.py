"""Record: ``data/mechanism.json``, each recorded release's extracts and traced run.

The command writes it (the pinned release live, the others from their cached environments);
the notebook, the views and the tests read it. A release's record is what ``probe`` returns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import paths
from ..errors import InvestigationError
from ..formats.records import RecordsError, read_json, write_json
from .catalogue import CATALOGUE
from .source import Extract
from .trace import REPORT_CASE

RECORD = paths.DATA_FILES.mechanism


class MechanismError(InvestigationError):
    """The mechanism's data cannot be made or read: a missing environment or record."""


def record_value(releases: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The record as committed: the catalogue's names, the case, each release's record."""
    return {
        "catalogue": [f.qualname for f in CATALOGUE],
        "case": REPORT_CASE.as_dict(),
        "releases": releases,
    }


def write_record(path: Path, releases: dict[str, dict[str, Any]]) -> None:
    write_json(path, record_value(releases), indent=1, sort_keys=True)


def load_record(path: Path = RECORD) -> dict[str, Any]:
    try:
        return read_json(path, dict)
    except RecordsError as error:
        raise MechanismError(f"{error}: run `make mechanism`") from None


def recorded_release(version: str, path: Path = RECORD) -> dict[str, Any]:
    """One recorded release's record."""
    releases: dict[str, dict[str, Any]] = load_record(path)["releases"]
    if version not in releases:
        raise MechanismError(f"{path.name} records no release {version}: run `make mechanism`")
    return releases[version]


def recorded_extract(version: str, qualname: str, path: Path = RECORD) -> Extract:
    """One function's recorded extract in one release."""
    found: Extract = recorded_release(version, path)["functions"][qualname]
    return found

"""Record: ``data/mechanism.json``, each recorded release's extracts and traced run.

The command writes it (the pinned release live, the others from their cached environments);
the notebook, the views and the tests read it. A release's record is what ``probe`` returns.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import InvestigationError
from .catalogue import CATALOGUE
from .source import Extract
from .trace import REPORT_CASE

RECORD = paths.DATA / "mechanism.json"


class MechanismError(InvestigationError):
    """The mechanism's data cannot be made or read: a missing environment or record."""


def record_text(releases: dict[str, dict[str, Any]]) -> str:
    """The record as committed: the catalogue's names, the case, each release's record."""
    record = {
        "catalogue": [f.qualname for f in CATALOGUE],
        "case": REPORT_CASE.as_dict(),
        "releases": releases,
    }
    return json.dumps(record, indent=1, sort_keys=True) + "\n"


def load_record(path: Path = RECORD) -> dict[str, Any]:
    try:
        record: dict[str, Any] = json.loads(path.read_text())
    except FileNotFoundError:
        raise MechanismError(f"no {path.name}: run `make mechanism`") from None
    except ValueError as error:
        raise MechanismError(f"{path.name} is not JSON ({error}): run `make mechanism`") from None
    return record


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

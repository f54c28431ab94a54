"""Probe: what one release's environment says about the catalogue, as JSON.

The command starts this module with a release's own interpreter, which has only the SDK and its
dependencies, as ``python -m approval_compaction.lab.mechanism.probe --output FILE`` with the
project's source folder on ``PYTHONPATH`` (as ``releases.probe`` is started). It writes the
release's version, every catalogued function's extract, and the trace of the report's case.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from ...formats.records import write_json
from ...sdks import sdk_module
from ...study.capture import sdk_version
from .record import ReleaseMechanism
from .source import extract_all
from .trace import BOUNDARY_CASES

MODULE = "approval_compaction.lab.mechanism.probe"


def release_record(patch: str = "") -> ReleaseMechanism:
    """The installed release (``patch`` names its patch, if any): its version, its extracts, and
    the report's case traced across each boundary."""
    trace = sdk_module("python", "trace")  # the Python SDK's folder, by name (sdks)
    traces = {boundary: trace.trace_case(case) for boundary, case in BOUNDARY_CASES.items()}
    return ReleaseMechanism(sdk_version(), extract_all(), traces["json"], traces["memory"], patch)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mechanism-probe", description=__doc__)
    parser.add_argument("--output", required=True, help="write the JSON record here")
    parser.add_argument("--patch", default="", help="the label of the patch applied here")
    args = parser.parse_args(argv)
    record = release_record(args.patch)
    write_json(Path(args.output), asdict(record), indent=None, sort_keys=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

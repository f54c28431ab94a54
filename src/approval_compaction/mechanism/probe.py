"""Probe: what one release's environment says about the catalogue, as JSON.

The command starts this module with a release's own interpreter, which has only the SDK and its
dependencies, as ``python -m approval_compaction.mechanism.probe --output FILE`` with the
project's source folder on ``PYTHONPATH`` (as ``releases.probe`` is started). It writes the
release's version, every catalogued function's extract, and the trace of the report's case.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from ..formats.records import write_json
from ..study.capture import sdk_version
from .record import ReleaseMechanism
from .source import extract_all
from .trace import trace_case

MODULE = "approval_compaction.mechanism.probe"


def release_record() -> ReleaseMechanism:
    """The installed release: its version, its extracts, and the traced run."""
    return ReleaseMechanism(sdk_version(), extract_all(), trace_case())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mechanism-probe", description=__doc__)
    parser.add_argument("--output", required=True, help="write the JSON record here")
    args = parser.parse_args(argv)
    write_json(Path(args.output), asdict(release_record()), indent=None, sort_keys=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

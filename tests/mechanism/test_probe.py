"""The probe: run as a module, it writes the installed release's record as JSON."""

from __future__ import annotations

import json
from pathlib import Path

from approval_compaction.lab.mechanism import probe
from approval_compaction.lab.mechanism.catalogue import CATALOGUE, PINNED
from approval_compaction.lab.mechanism.record import ReleaseMechanism, recorded_release


def test_probe_writes_what_the_committed_record_holds_for_the_pinned_release(
    tmp_path: Path,
) -> None:
    output = tmp_path / "probe.json"
    assert probe.main(["--output", str(output)]) == 0
    written = json.loads(output.read_text())
    assert written["release"] == PINNED
    assert sorted(written["functions"]) == sorted(f.qualname for f in CATALOGUE)
    found = ReleaseMechanism.from_json(written)
    assert found == recorded_release(PINNED), "run `make mechanism`"

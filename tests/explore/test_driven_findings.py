"""The drivers' committed findings (``make explore-drivers``): each read back whole, judged as
the one judge judges it now, and (full tier) replayed on its driver to the same violations."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.explore import driven, replay
from approval_compaction.lab.explore.driver import judge_step
from approval_compaction.lab.explore.rules import Setup
from approval_compaction.lab.explore.sdks import driven as registry
from approval_compaction.lab.explore.sdks import registry as drivers
from approval_compaction.lab.explore.search import Finding

DATA = paths.data(paths.DATA)
SDKS = tuple(drivers())  # every driver the search runs: js, adk and each SDK folder's
FILES = sorted(path for sdk in SDKS for path in DATA.counterexamples.glob(f"{sdk}-*.json"))


def test_every_driver_search_result_names_its_findings_files() -> None:
    for sdk in SDKS:
        results = [replay.load_result(p) for p in DATA.explore_results(sdk)]
        assert results, f"no committed search on the {sdk} driver: make explore-drivers"
        for result in results:
            assert result.sdk == sdk and result.exhausted
            for finding in result.findings:
                assert DATA.counterexample(finding.name).is_file()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_committed_finding_is_judged_as_the_judge_judges_it_now(path: Path) -> None:
    """Each step's safety verdicts, as recorded, are what the one judge says of its stage
    today, and the finding's label is its shape's (the liveness verdicts read each turn,
    which the replay below reruns)."""
    finding = replay.load(path)
    line = registry(finding.trace.conversation.sdk)
    moves = line.moves
    assert finding.name == path.stem
    for record in finding.trace.records:
        again = judge_step(
            record.stage,
            record.step.action,
            record.approvals,
            finding.trace.sdk_version,
            moves.model,
            moves.short,  # type: ignore[arg-type]  # the records' sdk word
        )
        mine = {j.invariant: j for j in record.judgements}
        assert all(mine[j.invariant].holds == j.holds for j in again), record.index
    broke = {i for i, _ in finding.pairs}
    shape = driven.known_as(moves, finding.trace.conversation, finding.trace.records, broke)
    assert (finding.label, finding.known_as) == (("known", shape) if shape else ("new", ""))


def _replayed(sdk: str) -> Iterator[tuple[Finding, Path]]:
    for path in FILES:
        finding = replay.load(path)
        if finding.trace.conversation.sdk == sdk and "+" not in finding.trace.sdk_version:
            yield finding, path


@pytest.mark.slow
@pytest.mark.subprocess
@pytest.mark.releases
@pytest.mark.enable_socket  # the JS driver's stand-in on 127.0.0.1
@pytest.mark.parametrize("sdk", SDKS)
def test_committed_findings_replay_to_the_same_violations(
    sdk: str, request: pytest.FixtureRequest
) -> None:
    """Each minimal sequence, run again on the release it was found on, breaks the same
    invariants at the same steps (one driver process per SDK for all of them)."""
    if sdk == "js":
        request.getfixturevalue("node_harness")
    line = registry(sdk)
    found = list(_replayed(sdk))
    assert found
    releases = {f.trace.sdk_version for f, _ in found}
    for release in releases:
        driver = line.open(release)
        try:
            drive = driven.Drive(line.moves, driver, Setup(()))
            for finding, path in found:
                if finding.trace.sdk_version != release:
                    continue
                again = driven.rerun(drive, finding.trace.conversation)
                assert replay.same_violations(finding.trace, again), path.name
        finally:
            driver.close()

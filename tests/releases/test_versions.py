"""Version specs, release lists from the index, and the cutoff each release resolves against."""

from __future__ import annotations

import pytest

from approval_compaction.cli import main
from approval_compaction.lab import paths
from approval_compaction.lab.releases import sweep
from approval_compaction.lab.releases.versions import (
    VersionSpecError,
    cutoff,
    load_releases,
    needs_index,
    parse_versions,
    releases_from_index,
)

KNOWN = ["0.8.0", "0.9.0", "0.10.0", "0.20.0", "0.22.3", "0.23.1", "0.24.0"]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (None, KNOWN),
        ("0.23.1", ["0.23.1"]),
        ("0.23.1,0.8.0", ["0.8.0", "0.23.1"]),
        ("0.9.0..0.20.0", ["0.9.0", "0.10.0", "0.20.0"]),
        ("0.21.0..0.23.5", ["0.22.3", "0.23.1"]),
        ("0.22.3..", ["0.22.3", "0.23.1", "0.24.0"]),
        ("..0.9.0", ["0.8.0", "0.9.0"]),
        ("0.8.0, 0.20.0..0.22.3,0.22.3", ["0.8.0", "0.20.0", "0.22.3"]),
        ("0.23.1.0", ["0.23.1"]),
    ],
    ids=[
        "all",
        "one",
        "list",
        "range",
        "range-loose-ends",
        "open-end",
        "open-start",
        "mixed",
        "pep440-equal",
    ],
)
def test_parse_versions_selects_known_releases_in_release_order(
    spec: str | None, expected: list[str]
) -> None:
    assert parse_versions(spec, KNOWN) == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("0.24.0..0.8.0", "runs backwards"),
        ("0.23.0", "not a known openai-agents release"),
        ("0.30.0..0.31.0", "holds no known release"),
        ("latest", "invalid version 'latest'"),
        ("0.8.0,,0.9.0", "empty entry"),
        ("0.8.0...0.9.0", "invalid version '.0.9.0'"),
    ],
    ids=["backwards", "unknown", "empty-range", "not-a-version", "empty-entry", "three-dots"],
)
def test_parse_versions_rejects_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(VersionSpecError, match=message):
        parse_versions(spec, KNOWN)


def test_parse_versions_orders_ten_after_nine() -> None:
    """Release order, not text order: 0.10.0 comes after 0.9.0."""
    assert parse_versions("0.9.0..0.10.0", ["0.10.0", "0.9.0", "0.8.0"]) == ["0.9.0", "0.10.0"]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [(None, True), ("0.8.0..", True), ("0.99.0", True), ("0.8.0..0.23.1", False), ("x", False)],
    ids=["everything", "open-end", "unknown-release", "closed-range", "invalid"],
)
def test_needs_index_only_when_the_cache_may_be_short(spec: str | None, expected: bool) -> None:
    assert needs_index(spec, KNOWN) is expected


def test_cutoff_rounds_the_last_upload_up_to_the_second() -> None:
    times = ["2026-02-05T02:51:50.501878Z", "2026-02-05T02:51:52.293421Z"]
    assert cutoff(times) == "2026-02-05T02:51:53Z"
    assert cutoff(["2026-02-05T02:51:52Z"]) == "2026-02-05T02:51:52Z"


def _file(uploaded: str, yanked: bool = False) -> dict[str, object]:
    return {"upload_time_iso_8601": uploaded, "yanked": yanked}


def test_releases_from_index_keeps_final_live_releases_from_the_first_with_approvals() -> None:
    payload = {
        "releases": {
            "0.7.0": [_file("2026-01-23T00:06:33Z")],
            "0.8.0": [_file("2026-02-05T02:51:50.5Z"), _file("2026-02-05T02:51:52.2Z")],
            "0.9.0rc1": [_file("2026-02-10T00:00:00Z")],
            "0.9.0": [_file("2026-02-13T22:12:10Z", yanked=True)],
            "0.10.0": [_file("2026-02-23T23:20:25Z")],
            "0.11.0": [],
        }
    }
    found = releases_from_index(payload)
    assert found == {"0.8.0": "2026-02-05T02:51:53Z", "0.10.0": "2026-02-23T23:20:25Z"}


def test_release_dates_cover_the_first_release_with_approvals_onwards() -> None:
    """The committed cutoffs let an offline sweep resolve every release it names."""
    releases = load_releases(paths.DATA_FILES.release_dates)
    assert next(iter(releases)) == "0.8.0"
    assert "0.23.1" in releases
    assert all(value.endswith("Z") for value in releases.values())


@pytest.fixture
def offline_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """The package index as seen offline: every request fails at once."""

    def unreachable() -> dict[str, str]:
        raise OSError("network is unreachable")

    monkeypatch.setattr(sweep, "fetch_releases", unreachable)


def test_resolve_releases_offline_falls_back_to_the_cached_dates(
    offline_index: None, capsys: pytest.CaptureFixture[str]
) -> None:
    versions, cutoffs = sweep.resolve_releases(None)
    assert versions == list(load_releases(paths.DATA_FILES.release_dates))
    assert set(versions) == set(cutoffs)
    assert (
        "package index unreachable (OSError); using release-dates.json" in capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sweep", "--versions", "0.24.0..0.8.0"], "runs backwards"),
        (["sweep", "--versions", "0.23.0"], "not a known openai-agents release"),
        (["sweep", "--versions", "0.8.0", "--jobs", "0"], "--jobs must be at least 1"),
        (["bisect", "--invariant", "no_such_invariant"], "unknown invariant 'no_such_invariant'"),
        (["bisect", "--invariant", "stored_history_paired", "--case", "x=y"], "unknown case"),
        (["bisect", "--invariant", "stored_history_paired", "--versions", "z"], "invalid version"),
    ],
    ids=[
        "backwards-range",
        "unknown-release",
        "zero-jobs",
        "unknown-invariant",
        "bad-case",
        "bad-version",
    ],
)
def test_cli_bad_input_is_one_line_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], offline_index: None
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1

"""Releases installed with npm: when their dependencies resolve, and what a failure says."""

from __future__ import annotations

import pytest

from approval_compaction.js.packages import NpmError, _last, cutoff, releases

DATES = {  # the latest of @openai/agents and its siblings at each version
    "0.16.0": "2026-08-15T03:20:44Z",
    "0.16.1": "2026-08-20T17:59:32Z",  # @openai/agents-core, four days after @openai/agents
}


def test_releases_sort_by_number_not_by_text() -> None:
    assert releases({"0.10.0": "", "0.9.1": "", "0.3.6": ""}) == ["0.3.6", "0.9.1", "0.10.0"]
    assert releases(DATES) == ["0.16.0", "0.16.1"]


def test_cutoff_is_a_day_after_the_last_sibling_so_a_late_one_still_resolves() -> None:
    """@openai/agents-core 0.16.1 was published four days after @openai/agents 0.16.1: the
    dates hold the later one, and npm resolves a day after it."""
    assert cutoff("0.16.1", DATES) == "2026-08-21T17:59:32Z"


def test_cutoff_of_an_unknown_release_is_one_line() -> None:
    with pytest.raises(NpmError, match="0.2.0 is not a release with the compaction session"):
        cutoff("0.2.0", DATES)


def test_npm_failure_is_its_own_error_line_not_the_pointer_to_its_log() -> None:
    said = (
        "npm error code ETARGET\n"
        "npm error notarget No matching version found for @openai/agents-core@0.16.1\n"
        "npm error A complete log of this run can be found in: /root/.npm/_logs/x.log\n"
    )
    assert _last(said) == (
        "npm error notarget No matching version found for @openai/agents-core@0.16.1"
    )

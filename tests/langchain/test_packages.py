"""LangChain's releases: the pin, the committed release dates, one environment per release."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.langchain.packages import (
    FIRST,
    LangchainEnvironmentError,
    environment,
    pinned,
    release_dates,
    releases,
)


def test_packages_the_pin_is_a_committed_1x_release() -> None:
    found = releases()
    assert found[0] == FIRST and pinned() == found[-1]
    assert all(v.startswith("1.") for v in found)


def test_packages_an_environment_resolves_as_of_its_release(tmp_path: Path) -> None:
    env = environment(pinned())
    assert env.exclude_newer == release_dates()[pinned()]
    assert env.requirements[0] == f"langchain=={pinned()}"
    assert {"langchain-openai", "langgraph-checkpoint-sqlite"} <= set(env.requirements)


def test_packages_an_unknown_release_or_no_dates_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(LangchainEnvironmentError, match="0.3.0 is not a 1.x release"):
        environment("0.3.0")
    with pytest.raises(LangchainEnvironmentError, match="^no langchain-release-dates.json"):
        release_dates(tmp_path / "langchain-release-dates.json")

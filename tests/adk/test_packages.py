"""The ADK release environments: what the pin file pins, and what each environment installs."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.adk.packages import (
    FIRST,
    AdkEnvironmentError,
    environment,
    pinned,
    release_dates,
    releases,
    requirements,
)


def test_packages_pin_file_pins_one_release_with_the_database_service_beside_it() -> None:
    assert pinned() in releases()
    assert any(line.startswith("sqlalchemy") for line in requirements())


def test_packages_environment_installs_the_release_and_the_pin_files_extras() -> None:
    env = environment(FIRST)
    assert env.wanted[0] == f"google-adk=={FIRST}"
    assert "aiosqlite" in env.wanted and env.exclude_newer == release_dates()[FIRST]
    assert env.folder.name == FIRST and env.spec()["requirements"].startswith("google-adk==")


def test_packages_release_without_both_features_is_one_line() -> None:
    with pytest.raises(AdkEnvironmentError, match="not a release with both features"):
        environment("1.14.0")


def test_packages_pin_file_without_a_pin_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("# nothing\nsqlalchemy\n")
    with pytest.raises(AdkEnvironmentError, match="pins no google-adk"):
        pinned(tmp_path / "requirements.txt")


def test_packages_a_release_before_the_openai_integration_is_refused_in_one_line() -> None:
    from approval_compaction.adk.packages import FIRST_RESPONSES, responses_environment

    with pytest.raises(AdkEnvironmentError, match=f"no OpenAIResponsesLlm.*{FIRST_RESPONSES}"):
        responses_environment("2.3.0")

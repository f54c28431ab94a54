"""The drivers' registry: one line per SDK, a one-line error for any other name."""

from __future__ import annotations

import pytest

from approval_compaction.errors import InvestigationError
from approval_compaction.lab.explore.sdks import Driven, driven


def test_sdks_each_line_carries_its_own_moves() -> None:
    assert driven("js").moves.short == "js"
    assert driven("adk").moves.short == "adk"
    assert driven("langchain").moves.short == "langchain"


def test_sdks_an_unknown_driver_is_one_line_naming_the_known_ones() -> None:
    with pytest.raises(
        InvestigationError, match=r"^no driver 'go': expected one of js, adk, langchain$"
    ):
        driven("go")


def unused(_: object) -> object:
    raise AssertionError("no driver is started")


def test_sdks_release_words_are_pinned_newest_or_the_version_as_it_is() -> None:
    line = Driven(
        driven("js").moves,
        unused,
        lambda: "1.0.0",
        lambda: "2.0.0",
        unused,  # type: ignore[arg-type]
    )
    assert line.release(None) == line.release("") == line.release("pinned") == "1.0.0"
    assert line.release("newest") == "2.0.0"
    assert line.release("1.5.0") == "1.5.0"

"""The suite plugin: every compaction session the SDK's tests build is made deferring, counted."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from agents import SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession

from approval_compaction.fix import suite_plugin
from approval_compaction.fix.workaround import DeferCompactionWhilePending


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The plugin installed, and the SDK's ``__init__`` put back afterwards."""
    original = OpenAIResponsesCompactionSession.__init__
    monkeypatch.setattr(OpenAIResponsesCompactionSession, "__init__", original)
    module = importlib.reload(suite_plugin)
    module.install()
    return module


def session(tmp_path: Path, cls: type[Any] = OpenAIResponsesCompactionSession) -> Any:
    return cls("s", SQLiteSession("s", str(tmp_path / "s.db")), client=object())


def test_install_makes_each_new_session_deferring_once(plugin: Any, tmp_path: Path) -> None:
    plugin.install()  # a second install leaves the wrapper as it is
    made = session(tmp_path)
    assert isinstance(made, DeferCompactionWhilePending)
    assert plugin._upgraded == [1]


def test_a_subclass_a_test_defines_is_left_as_written(plugin: Any, tmp_path: Path) -> None:
    class Own(OpenAIResponsesCompactionSession):
        pass

    assert type(session(tmp_path, Own)) is Own and plugin._upgraded == [0]


def test_unconfigure_writes_the_count_where_the_run_asked(
    plugin: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session(tmp_path)
    monkeypatch.setenv(plugin.COUNTS_VARIABLE, str(tmp_path))
    plugin.pytest_unconfigure(None)
    (written,) = tmp_path.glob("upgraded-*.txt")
    assert written.read_text() == "1\n"

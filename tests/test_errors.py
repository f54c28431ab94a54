"""Errors: every error a user can cause is an ``InvestigationError``, which the command line
prints as one line and exits 2 on."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from approval_compaction import paths
from approval_compaction.adk.harness import DRIVER
from approval_compaction.cli import main
from approval_compaction.errors import InvestigationError, MissingExtra, StateRestoreError, require

ADK_DRIVER = f"approval_compaction.adk.{DRIVER.stem}"
# the LangChain driver: a script each langchain release's own environment runs
LANGCHAIN_DRIVER = "approval_compaction.langchain.driver"

# Exceptions defined in the package that are not a user's error, and why.
NOT_FOR_USERS = {
    # hypothesis's failure signal inside the search: it must be an AssertionError to shrink
    "approval_compaction.lab.explore.rules.Violation",
    # raised inside a team's application when other writers changed the session at every
    # attempt: a RuntimeError the application retries, as it retries the store's own errors
    "approval_compaction.fix.workaround.HistoryKeptChanging",
    # the store fuzzer's injected failure: it must be the ConnectionError a dropped connection is
    "approval_compaction.testing.pyfuzz.StoreFault",
}


def defined_exceptions() -> list[type[BaseException]]:
    """Every public exception class the package's modules define."""
    found = []
    for module in pkgutil.walk_packages([str(paths.PACKAGE)], prefix="approval_compaction."):
        if module.name.endswith("__main__"):
            continue  # running it is the command line itself
        if module.name in (ADK_DRIVER, LANGCHAIN_DRIVER):
            continue  # scripts an SDK's own environment runs (its harness starts them there)
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.name
                and not name.startswith("_")
            ):
                found.append(value)
    return found


def test_errors_every_public_exception_is_an_investigation_error() -> None:
    found = defined_exceptions()
    assert StateRestoreError in found and len(found) > 20
    others = [
        f"{e.__module__}.{e.__name__}"
        for e in found
        if not issubclass(e, InvestigationError)
        and f"{e.__module__}.{e.__name__}" not in NOT_FOR_USERS
    ]
    assert others == []


def test_errors_message_is_the_text_given() -> None:
    """No class quotes or wraps its message (as ``KeyError`` would), so the CLI line is plain."""
    for error in defined_exceptions():
        if issubclass(error, InvestigationError):
            assert str(error.__new__(error, "the problem")) == "the problem", error


def test_errors_cli_prints_one_line_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bisect", "--invariant", "no_such_invariant"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_errors_require_names_the_missing_modules_and_their_extra() -> None:
    require("the scan", ["json"], "doctor")  # installed: nothing raised
    with pytest.raises(MissingExtra) as caught:
        require("the scan", ["json", "no_such_module_here"], "doctor")
    assert str(caught.value) == (
        "the scan needs no_such_module_here: install approval-compaction[doctor]"
    )
    assert caught.value.extra == "doctor" and isinstance(caught.value, InvestigationError)

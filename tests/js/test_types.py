"""The JS workaround's declarations (js/workaround.d.mts) against its module and the pinned SDK."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from needs import require

from approval_compaction import paths
from approval_compaction.js.types import (
    DECLARATIONS,
    SDK_TEST,
    declarations,
    type_check,
    typescript_installed,
)

pytestmark = [pytest.mark.subprocess, pytest.mark.usefixtures("node_harness", "_typescript")]


@pytest.fixture
def _typescript() -> None:
    if not typescript_installed():
        require("typescript is missing: `make js-sdk-test` installs js/sdk-test", "JS types")


def _project_with(tmp_path: Path, declared: str) -> Path:
    """A copy of the type check's files with ``declared`` as the workaround's declarations."""
    (tmp_path / "js" / "sdk-test").mkdir(parents=True)
    shutil.copy(paths.ROOT / "js" / "workaround.mjs", tmp_path / "js")
    (tmp_path / "js" / "workaround.d.mts").write_text(declared)
    for name in ("types-check.ts", "tsconfig.json"):
        shutil.copy(SDK_TEST / name, tmp_path / "js" / "sdk-test")
    (tmp_path / "node_modules").symlink_to(paths.ROOT / "node_modules")
    return tmp_path / "js" / "sdk-test" / "tsconfig.json"


def test_declarations_type_check_against_the_pinned_sdk() -> None:
    """A team wraps OpenAIResponsesCompactionSession, passes the wrapper to run() and reads its
    deferrals, retirements and late outputs: tsc --noEmit finds nothing."""
    assert type_check() == []


def test_declarations_name_every_export_and_member() -> None:
    """Every value the module exports and every member a wrapper has is declared, and nothing
    declared is missing at run time."""
    names = declarations()
    assert names.undeclared() == frozenset()
    assert names.missing() == frozenset()
    assert {"LATE_PREFIX", "lateOutputMessage"} <= names.declared
    assert "lateOutputs" in names.required
    assert names.symbols == frozenset()  # issue 49: the SDK's session brand was copied, undeclared


@pytest.mark.parametrize(
    ("original", "wrong", "error"),
    [
        ("  readonly lateOutputs: LateOutput[];\n", "", "TS2339"),
        (
            "lateOutputMessage(item: AgentInputItem): AssistantMessageItem;",
            "lateOutputMessage(item: AgentInputItem): string;",
            "TS2322",
        ),
        (
            "getItems(limit?: number, runContext?: RunContext<any>): Promise<AgentInputItem[]>;",
            "getItems(limit?: number, runContext?: RunContext<any>): Promise<string[]>;",
            "TS2322",
        ),
        (
            "addItems(items: AgentInputItem[], runContext?: RunContext<any>): Promise<void>;",
            "addItems(items: AgentInputItem[]): Promise<void>;",
            "TS2554",
        ),
    ],
    ids=[
        "late-outputs-left-out",
        "late-message-as-string",
        "items-not-session-items",
        "add-items-without-run-context",
    ],
)
def test_type_check_fails_on_a_wrong_declaration(
    tmp_path: Path, original: str, wrong: str, error: str
) -> None:
    """A declaration that drifts from the module's shape or the SDK's Session fails tsc."""
    text = DECLARATIONS.read_text()
    assert original in text
    errors = type_check(_project_with(tmp_path, text.replace(original, wrong)))
    assert any(error in line for line in errors), errors


def test_declarations_listing_catches_an_undeclared_export(tmp_path: Path) -> None:
    """An export the declarations leave out is reported, as is the member they drop."""
    js = tmp_path / "js"
    js.mkdir()
    shutil.copy(paths.ROOT / "js" / "workaround.mjs", js)
    text = DECLARATIONS.read_text()
    dropped = "export declare const LATE_PREFIX: '[workaround] ';\n"
    assert dropped in text
    (js / "workaround.d.mts").write_text(
        text.replace(dropped, "").replace("  readonly lateOutputs: LateOutput[];\n", "")
    )
    (tmp_path / "node_modules").symlink_to(paths.ROOT / "node_modules")
    assert declarations(js / "workaround.mjs").undeclared() == {"LATE_PREFIX", "lateOutputs"}

"""The record of a snapshot of openai-agents-js: what it holds, read from a small git repository
shaped like it (no network, no vitest)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from approval_compaction.js.fakes import CheckoutError
from approval_compaction.js.typecheck import TYPECHECK
from approval_compaction.js.upstream import SESSION_SOURCE, snapshot


def _repository(folder: Path, source: str, lib: str) -> Path:
    (folder / "packages/agents-openai").mkdir(parents=True)
    (folder / "packages/agents-openai/package.json").write_text(json.dumps({"version": "0.17.0"}))
    (folder / SESSION_SOURCE).parent.mkdir(parents=True)
    (folder / SESSION_SOURCE).write_text(source)
    ours = TYPECHECK.joinpath("tsconfig.json").read_text()
    (folder / "tsconfig.json").write_text(ours.replace('"ES2018"', f'"{lib}"'))
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "first"]):
        subprocess.run(
            ["git", "-c", "user.email=t@t", "-c", "user.name=t", *command],
            cwd=folder, check=True, capture_output=True,
        )  # fmt: skip
    return folder


def test_snapshot_says_what_it_holds_and_whether_its_compiler_options_are_ours(
    tmp_path: Path,
) -> None:
    found = snapshot(_repository(tmp_path, "export class S {}\n", "ES2018"))
    assert found["agents_openai"] == "0.17.0" and len(found["commit"]) == 40
    assert found["has_exchange_check"] is False
    assert (found["tsconfig_matches"], found["tsconfig_lib"], found["tsconfig_commits"]) == (
        True, ["ES2018"], 1,
    )  # fmt: skip


def test_snapshot_of_a_newer_tree_sees_the_exchange_check_and_other_options(
    tmp_path: Path,
) -> None:
    source = "getModelVisibleSessionItems(this, history, exchange);\n"
    found = snapshot(_repository(tmp_path, source, "ES2023"))
    assert found["has_exchange_check"] is True and found["tsconfig_matches"] is False


def test_a_folder_that_is_not_a_checkout_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(CheckoutError, match="is not a git checkout of openai-agents-js"):
        snapshot(tmp_path)

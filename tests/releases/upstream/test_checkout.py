"""Checkout: the Makefile's sync recipe followed, the environment made once, our test copied."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from approval_compaction.lab.releases.environments import SdistError
from approval_compaction.lab.releases.upstream import checkout
from approval_compaction.lab.releases.upstream.checkout import UpstreamError


def test_sync_command_is_the_makefiles_recipe_with_our_uv(root: Path) -> None:
    command = checkout.sync_command(root / "9.9.9" / "openai_agents-9.9.9" / "Makefile", "/x/uv")
    assert command[:6] == ["/x/uv", "sync", "--all-extras", "--all-packages", "--group", "dev"]
    assert command[6] == "--python"


@pytest.mark.parametrize(
    "text", ["lint:\n\truff check\n", "sync:\n\tpip install -e .\n"], ids=["no-sync", "not-uv"]
)
def test_sync_command_refuses_a_makefile_it_cannot_follow(tmp_path: Path, text: str) -> None:
    (tmp_path / "Makefile").write_text(text)
    with pytest.raises(UpstreamError, match="Makefile|uv sync"):
        checkout.sync_command(tmp_path / "Makefile", "uv")


def test_prepare_syncs_a_release_once(root: Path, fake: Callable[..., Any]) -> None:
    runner = fake({}, {})
    first = checkout.prepare("9.9.9", root, run=runner, report=lambda _: None)
    again = checkout.prepare("9.9.9", root, run=runner, report=lambda _: None)
    assert first == again and first.python.exists()
    assert runner.ran(" sync ") == 1 and runner.ran("pip download") == 0  # the sdist was there


def test_fetch_without_an_sdist_is_one_line(tmp_path: Path) -> None:
    def refused(
        command: list[str], timeout: float, **_: object
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "ERROR: No matching distribution\n")

    with pytest.raises(SdistError, match=r"^openai-agents==9\.9\.9: no sdist: ERROR: No match"):
        checkout.fetch("9.9.9", tmp_path, run=refused)


def test_install_upstream_test_copies_it_under_its_upstream_name(root: Path) -> None:
    folder = root / "9.9.9" / "openai_agents-9.9.9"
    placed = checkout.install_upstream_test(folder)
    assert placed == f"{checkout.UPSTREAM_TEST_FOLDER}/{checkout.UPSTREAM_TEST_NAME}"
    assert (folder / placed).read_text() == checkout.UPSTREAM_TEST.read_text()


def _checkout_with_editable_install(folder: Path) -> checkout.Checkout:
    site = folder / ".venv" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (site / "_openai_agents.pth").write_text(f"{folder / 'src'}\n")
    (site / "dependency.py").write_text("D = 1\n")
    (folder / "src" / "agents").mkdir(parents=True)
    (folder / "src" / "agents" / "__init__.py").write_text("VALUE = 1\n")
    (folder / "tests" / "memory").mkdir(parents=True)
    (folder / "tests" / "memory" / "test_x.py").write_text("def test_x(): pass\n")
    return checkout.Checkout("0.23.1", folder)


def test_patched_checkout_is_a_patched_copy_and_the_release_checkout_stays(tmp_path: Path) -> None:
    from approval_compaction.lab.releases.patched import Patched, patch_from_text

    original = _checkout_with_editable_install(tmp_path / "cache" / "openai_agents-0.23.1")
    diff = "--- a/src/agents/__init__.py\n+++ b/src/agents/__init__.py\n@@ -1 +1 @@\n"
    change = Patched("0.23.1", (patch_from_text("fix.diff", diff + "-VALUE = 1\n+VALUE = 2\n"),))
    made = checkout.patched_checkout(original, change, tmp_path / "envs")
    assert made.folder != original.folder and made.version == "0.23.1"
    assert (made.folder / "src" / "agents" / "__init__.py").read_text() == "VALUE = 2\n"
    assert (original.folder / "src" / "agents" / "__init__.py").read_text() == "VALUE = 1\n"
    site = made.folder / ".venv" / "lib" / "python3.11" / "site-packages"
    assert (site / "_openai_agents.pth").read_text() == f"{made.folder / 'src'}\n"
    assert (site / "dependency.py").samefile(
        original.folder / ".venv" / "lib" / "python3.11" / "site-packages" / "dependency.py"
    )
    placed = checkout.install_upstream_test(made.folder)  # writes into the copy only
    assert not (original.folder / placed).exists()
    assert checkout.patched_checkout(original, change, tmp_path / "envs") == made  # reused


def test_patched_checkout_refuses_a_patch_that_does_not_apply_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    from approval_compaction.lab.releases.patched import (
        PATCHED_FOLDER,
        Patched,
        PatchError,
        patch_from_text,
    )

    original = _checkout_with_editable_install(tmp_path / "cache" / "openai_agents-0.23.1")
    diff = "--- a/src/agents/__init__.py\n+++ b/src/agents/__init__.py\n@@ -1 +1 @@\n"
    stale = Patched("0.23.1", (patch_from_text("stale.diff", diff + "-VALUE = 9\n+VALUE = 2\n"),))
    with pytest.raises(PatchError, match=r"^stale.diff does not apply to openai-agents 0.23.1: "):
        checkout.patched_checkout(original, stale, tmp_path / "envs")
    assert list((tmp_path / "envs" / PATCHED_FOLDER).iterdir()) == []
    assert (original.folder / "src" / "agents" / "__init__.py").read_text() == "VALUE = 1\n"

"""The explore command: a search in another interpreter comes back whole, and its summary."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from approval_compaction.lab.explore import command
from approval_compaction.lab.explore.search import Options, SearchResult
from approval_compaction.lab.releases import environments
from approval_compaction.lab.releases.environments import Environment

TINY = Options(examples=3, seed=0, rounds=1, kinds=("function_approval",), boundaries=("memory",))


@pytest.mark.subprocess
def test_in_release_hands_the_options_over_and_reads_the_result_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """This project's interpreter stands in for a release's: hypothesis is already there."""
    this = Environment(Path(sys.prefix), "0.23.1", "")
    monkeypatch.setattr(environments, "release_environment", lambda *_: this)
    monkeypatch.setattr(environments, "install_tools", lambda folder, names: tmp_path)
    result = command.in_release("0.23.1", TINY)
    assert isinstance(result, SearchResult)
    assert (result.sdk_version, result.seed, result.examples, result.rounds) == ("0.23.1", 0, 3, 1)
    assert result.kinds == ("function_approval",)


def test_in_release_failure_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    broken = Environment(tmp_path, "9.9.9", "")
    broken.python.parent.mkdir()
    broken.python.write_text("#!/bin/sh\necho 'ModuleNotFoundError: hypothesis' >&2\nexit 1\n")
    broken.python.chmod(0o755)
    monkeypatch.setattr(environments, "release_environment", lambda *_: broken)
    monkeypatch.setattr(environments, "install_tools", lambda folder, names: tmp_path)
    with pytest.raises(
        environments.ProbeError,
        match=r"^9\.9\.9: the search failed: ModuleNotFoundError: hypothesis$",
    ):
        command.in_release("9.9.9", TINY)


def test_describe_says_what_holds_and_what_was_not_searched_to_the_end() -> None:
    skipped = {"shell": "no shell tool"}
    tally = {"examples": 5, "steps": 9}
    invariants = ("next_turn_input_paired",)
    result = SearchResult("0.24.0", True, 0, 3, 2, False, ("function",), skipped, invariants, tally)
    assert command.describe(result).splitlines() == [
        "openai-agents 0.24.0 with the workaround: 5 examples, 9 steps in 2 rounds (seed 0)",
        "  skipped shell: no shell tool",
        "  stopped after 2 rounds: the rest was not searched to the end",
    ]


@pytest.mark.subprocess
def test_in_release_carries_a_patch_label_into_the_result(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A patched SDK's search: the label goes in with the options and comes back on the
    result, which is written with it (and read back), and named in the summary."""
    from dataclasses import replace

    from approval_compaction.lab.explore.replay import load_result, load_results, save_result

    this = Environment(Path(sys.prefix), "0.23.1", "")
    monkeypatch.setattr(environments, "install_tools", lambda folder, names: tmp_path)
    result = command.in_release("0.23.1", replace(TINY, patch="fix.diff sha256:ab"), this)
    assert result.patch == "fix.diff sha256:ab"
    assert "with fix.diff sha256:ab" in command.describe(result).splitlines()[0]
    written = save_result(result, tmp_path / "patched")
    assert load_result(written[0]) == result
    assert load_results(tmp_path / "patched") == {"0.23.1": result}


def test_explore_results_that_mix_a_patch_and_a_release_are_refused(tmp_path: Path) -> None:
    from approval_compaction.lab.explore.replay import load_results, save_result
    from approval_compaction.lab.releases.patched import PatchError

    tally = {"examples": 1}
    released = SearchResult("0.23.1", False, 0, 1, 1, True, (), {}, (), tally)
    patched = SearchResult("0.24.0", False, 0, 1, 1, True, (), {}, (), tally, patch="x sha256:1")
    save_result(released, tmp_path)
    save_result(patched, tmp_path)
    with pytest.raises(PatchError, match="mix results of different SDKs"):
        load_results(tmp_path)


def test_driver_search_takes_one_patch_and_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from approval_compaction.cli import main

    argv = ["explore", "--driver", "adk", "--patch", "a.diff", "--patch", "b.diff"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == "error: a driver's search takes one --patch\n"

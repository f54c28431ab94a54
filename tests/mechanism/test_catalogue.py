"""The catalogue names functions the recorded releases have, and marks lines they contain."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.mechanism.catalogue import (
    CATALOGUE,
    NEWEST,
    PINNED,
    RELEASES,
    Function,
    UnknownFunctionError,
    entry,
)
from approval_compaction.lab.mechanism.record import load_record, recorded_extract
from approval_compaction.lab.mechanism.source import PRESENT, extract, mark_lines
from approval_compaction.lab.releases.environments import newest_release
from approval_compaction.lab.share.glossary import without_blocks
from approval_compaction.study.capture import STAGES, sdk_version

IDS = [f.qualname for f in CATALOGUE]
NOTEBOOK = paths.NOTEBOOKS / "03-inside-the-sdk.ipynb"
# An SDK function as notebook 03's markdown writes it: `Class.method` or a bare snake_case name.
SDK_NAME = re.compile(r"`(_?[A-Z]\w*\.\w+|_?[a-z]+(?:_[a-z]+)+)`")


def test_catalogue_pins_the_installed_and_the_newest_release() -> None:
    pin = re.search(r"^openai-agents==(\S+)$", (paths.ROOT / "requirements.txt").read_text(), re.M)
    assert pin is not None and pin.group(1) == PINNED == sdk_version()
    assert newest_release() == NEWEST


def test_catalogue_names_are_unique() -> None:
    assert len(IDS) == len(set(IDS))
    assert len({f.name for f in CATALOGUE}) == len(CATALOGUE)


@pytest.mark.parametrize("function", CATALOGUE, ids=IDS)
def test_catalogue_function_exists_in_the_installed_sdk_with_every_mark(function: Function) -> None:
    found = extract(function)
    assert found.status == PRESENT, f"{function.qualname} is not in the installed SDK"
    for mark in function.marks:
        lines = mark_lines(found, mark)
        assert len(lines) == 1, f"{function.qualname}: {mark.text!r} picks lines {lines}"


@pytest.mark.parametrize("function", CATALOGUE, ids=IDS)
@pytest.mark.parametrize("version", [PINNED, NEWEST])
def test_catalogue_marks_match_in_the_releases_whose_source_the_notebook_shows(
    function: Function, version: str
) -> None:
    """The notebook shows marked excerpts and diffs from these two releases' records: each mark
    picks exactly one line there, so no mark is ambiguous."""
    found = recorded_extract(version, function.qualname)
    assert found.status == PRESENT, f"{function.qualname} is absent in {version}"
    for mark in function.marks:
        lines = mark_lines(found, mark)
        assert len(lines) == 1, f"{version} {function.qualname}: {mark.text!r} on lines {lines}"


def test_catalogue_an_ambiguous_mark_is_caught() -> None:
    """A mark whose text is on two lines picks both (the test above then fails); ``after`` picks
    the one that follows its anchor."""
    from approval_compaction.lab.mechanism.catalogue import Mark
    from approval_compaction.lab.mechanism.source import Extract

    source = "def f():\n    if x:\n        go()\n    y = 1\n    if x:\n        go()\n"
    found = Extract(PRESENT, "agents/x.py", 10, source)
    assert mark_lines(found, Mark("go()", "twice")) == [12, 15]
    assert mark_lines(found, Mark("go()", "once", after="y = 1")) == [15]
    assert mark_lines(found, Mark("go()", "never", after="nowhere")) == []


def test_record_holds_every_catalogued_function_for_every_release() -> None:
    record = load_record()
    assert sorted(record.releases) == sorted(RELEASES)
    for version in RELEASES:
        assert record.releases[version].release == version
        assert sorted(record.releases[version].functions) == sorted(IDS)


def _notebook_markdown(path: Path) -> str:
    """The notebook's own markdown: its terms blocks are the glossary's words, not its names."""
    cells = json.loads(path.read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return without_blocks(text)


def test_notebook_names_only_catalogued_functions_present_in_the_releases_it_shows() -> None:
    # the study's stage names (``round_trip``, ``next_turn``) are its own words, not the SDK's;
    # ``suffix_start`` and ``is_automatic`` are locals of _run_compaction_locked that the notebook
    # quotes from its lines
    quoted = {"suffix_start", "is_automatic"}
    # the runner functions the trace names as the check's callers at the resume, which the
    # notebook names as outside the catalogue (r12: they appeared unexplained)
    callers = {"normalize_resumed_input", "prepare_model_input_items"}
    modes = {"previous_response_id"}  # a compaction mode's name, not a function
    ours = {"defer_compaction_while_pending"}  # the study's workaround, in the shared action
    found = set(SDK_NAME.findall(_notebook_markdown(NOTEBOOK)))
    names = found - set(STAGES) - quoted - callers - modes - ours
    assert names, "notebook 03 names no SDK function"
    for name in sorted(names):
        function = entry(name)  # raises for a name the catalogue does not have
        for version in (PINNED, NEWEST):
            assert recorded_extract(version, function.qualname).status == PRESENT, (
                f"notebook 03 names {name}, absent in {version}"
            )


def test_entry_unknown_name_raises() -> None:
    with pytest.raises(UnknownFunctionError, match="not in the mechanism catalogue"):
        entry("no_such_function")

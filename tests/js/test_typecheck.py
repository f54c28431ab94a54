"""The TypeScript forms of the JS fixes: their pieces, the host they are compiled in, and the
repository's own tools on them (slow: tsc, prettier and eslint run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from needs import require

from approval_compaction.js.patched import patched_folder
from approval_compaction.js.typecheck import (
    FORMS,
    HOST,
    TOOLS,
    TypecheckError,
    assemble,
    check,
    forms,
    pieces,
)

SESSION = "src/memory/openaiResponsesCompactionSession.ts"


def test_a_form_is_pieces_each_after_its_slot_line() -> None:
    found = pieces("// header\n// @@ cover: where\n  a;\n  b;\n// @@ methods: more\n  m() {}\n")
    assert found == {"cover": "  a;\n  b;\n", "methods": "  m() {}\n"}


def test_each_piece_of_each_form_has_a_slot_in_the_host() -> None:
    host = HOST.read_text()
    for name in FORMS:
        assembled = assemble(host, forms([name]))
        assert not re.search(r"^\s*// @@[\w-]+$", assembled, re.M)
        for piece in pieces(FORMS[name].read_text()).values():
            if "export {" not in piece:  # agents-core's export goes to another file
                assert piece in assembled


def test_a_slot_the_host_lacks_is_an_error() -> None:
    with pytest.raises(TypecheckError, match="no slot in the host for nowhere"):
        assemble(HOST.read_text(), {"nowhere": "x;\n"})


def test_the_host_without_pieces_keeps_the_releases_lines() -> None:
    assembled = assemble(HOST.read_text(), {})
    assert "automaticInput = getModelVisibleSessionItems(" in assembled
    assert "this.sessionItems = history;" in assembled


@pytest.fixture
def _tools() -> None:
    if not all(path.is_file() for path in TOOLS.values()):
        require("tsc, prettier or eslint is missing: `make js-sdk-test` installs them", "JS fix")


@pytest.mark.subprocess
@pytest.mark.usefixtures("node_harness", "_tools")
def test_the_stall_fix_compiles_under_the_repositorys_settings_and_findlastindex_would_not() -> (
    None
):
    """lib ES2018 has no ``findLastIndex``: the form that called it fails with TS2550; the form
    committed compiles, and prettier and eslint find nothing."""
    given = forms(["stall"])
    clean = check("stall", {SESSION: assemble(HOST.read_text(), given)})
    assert {row.tool: row.problems for row in clean} == {"tsc": 0, "prettier": 0, "eslint": 0}
    loop = "    let at = stored.length - 1;\n"
    methods = given["methods"]
    start = methods.index(loop)
    end = methods.index("    }\n", start) + len("    }\n")
    old = methods[:start] + (
        "    const at = stored.findLastIndex((item) => item.type === 'compaction');\n"
    ) + methods[end:]  # fmt: skip
    broken = check("old", {SESSION: assemble(HOST.read_text(), {**given, "methods": old})})
    tsc = next(row for row in broken if row.tool == "tsc")
    assert tsc.problems > 0 and "TS2550" in tsc.said


@pytest.mark.subprocess
@pytest.mark.usefixtures("node_harness", "_tools")
def test_the_pending_fix_compiles_against_the_packages_it_patches() -> None:
    folder = patched_folder(
        Path(__file__).resolve().parents[2] / "js/fix/agents-openai-0.20.0.diff"
    )
    rows = check("pending", {SESSION: assemble(HOST.read_text(), forms(["pending"]))}, folder)
    assert [row.problems for row in rows] == [0, 0, 0]

"""The JS study's commands: one-line errors before anything runs, and the table they print."""

from __future__ import annotations

import pytest
from needs import require

from approval_compaction import cli
from approval_compaction.js.harness import installed


def test_js_matrix_names_a_release_it_cannot_install_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A release without the compaction session is refused before npm is asked."""
    status = cli.main(["js-matrix", "--release", "0.2.0"])
    err = capsys.readouterr().err
    assert status != 0
    assert err.strip().splitlines() == [
        "error: @openai/agents 0.2.0 is not a release with the compaction session"
    ]


def test_js_matrix_rejects_a_bad_case_filter_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = cli.main(["js-matrix", "--case", "runner=walk"])
    assert status != 0
    assert "unknown runner 'walk'" in capsys.readouterr().err


@pytest.mark.enable_socket
@pytest.mark.subprocess
def test_js_matrix_prints_the_verdicts_of_the_cases_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not installed():
        require("the JS harness's packages are missing: `make setup` runs npm ci", "JS matrix")
    status = cli.main(["js-matrix", "--case", "compaction=off,runner=run", "--format", "csv"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert len(out) == 1 + 4 * 10  # the header, four cases, ten invariants (pairing both ways)
    assert all(",holds" in line for line in out[1:])

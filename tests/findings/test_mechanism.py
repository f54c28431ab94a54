"""Where in the SDK, read from the committed mechanism record."""

from __future__ import annotations

import pytest

from approval_compaction.lab.findings.mechanism import mechanism_finding
from approval_compaction.lab.mechanism.catalogue import NEWEST, PINNED
from approval_compaction.lab.mechanism.record import MechanismError, load_record


def test_mechanism_names_the_function_and_where_each_release_checks() -> None:
    found = mechanism_finding(load_record(), PINNED, NEWEST)
    assert found.function == "OpenAIResponsesCompactionSession._run_compaction_locked"
    assert found.called_at == ("pause",)
    assert found.old_block == "if snapshot is not None and (not complete or suffix_start > 0):"
    assert found.new_block == "if is_automatic:"
    assert found.old_line > found.new_line > 0
    assert (found.old_compacts_at, found.new_compacts_at) == (("pause",), ("next_turn",))


def test_mechanism_of_an_unrecorded_release_is_a_one_line_error() -> None:
    with pytest.raises(MechanismError, match="holds no release 0.9.9"):
        mechanism_finding(load_record(), "0.9.9", NEWEST)

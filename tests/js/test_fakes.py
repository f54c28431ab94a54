"""Which answer shape a test gives its fake ``responses.compact``: read from the test's text."""

from __future__ import annotations

import pytest

from approval_compaction import paths
from approval_compaction.js.fakes import fake_shapes, own, shape_of


@pytest.mark.parametrize(
    ("array", "shape"),
    [
        ("", "empty"),
        ("{ type: 'compaction', encrypted_content: 'x' }", "summary_only"),
        ("{ type: 'message', role: 'user', content: [] }, { type: 'compaction' }", "keeps_users"),
        ("{ role: 'user', content: 'a' }", "users_only"),
        ("{ type: 'message', role: 'assistant', content: [] }", "other"),
        ("compactedItem", "other"),
    ],
    ids=["empty", "summary-only", "keeps-users", "users-only", "assistant", "variable"],
)
def test_a_fake_answer_is_classified_by_its_items(array: str, shape: str) -> None:
    assert shape_of(array) == shape


def test_only_the_compact_mocks_answers_are_read() -> None:
    text = """
    const compact = vi.fn().mockResolvedValue({ output: [{ type: 'compaction' }], usage });
    const createMock = vi.fn().mockResolvedValue({ id: 'r', output: [{ type: 'compaction' }] });
    """
    found = fake_shapes(text, "x.test.ts", "here")
    assert [(f.line, f.shape) for f in found] == [(2, "summary_only")]


def test_this_projects_tests_name_their_answer_shape() -> None:
    shapes = {f.file: f.shape for f in own(paths.ROOT / "js" / "sdk-test" / "test")}
    assert shapes["openaiResponsesCompactionSession.stall.test.ts"] == "keeps_users"
    assert shapes["openaiResponsesCompactionSession.pendingApproval.test.ts"] == "summary_only"

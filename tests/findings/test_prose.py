"""Prose tables show their cells' markdown code as code, never as raw backticks (issue 23)."""

from __future__ import annotations

import pandas as pd
import pytest

from approval_compaction.lab.findings.prose import inline_html, plain, prose


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("a `function_call` <b>", "a <code>function_call</code> &lt;b&gt;"),
        ("``a `tick` b``", "<code>a `tick` b</code>"),
        ("no code & more", "no code &amp; more"),
    ],
    ids=["code-span", "double-ticks", "plain"],
)
def test_prose_inline_html_turns_code_spans_into_code(text: str, html: str) -> None:
    assert inline_html(text) == html


def test_prose_table_html_has_code_elements_and_no_backticks_and_nothing_cut() -> None:
    long = "a `function_call_output` whose `call_id` has no `function_call` " + "x" * 300
    frame = pd.DataFrame({"rejects": [long]}, index=pd.Index(["orphan_output"], name="name"))
    with pd.option_context("display.max_colwidth", 50):
        html = prose(frame)._repr_html_()
        text = repr(prose(frame))
    assert "<code>function_call_output</code>" in html and "`" not in html
    assert "x" * 300 in html and "x" * 300 in text
    assert "`" not in text and plain(long) in text

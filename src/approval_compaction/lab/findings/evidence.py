"""Evidence for notebook 09: the stand-in's rules this bug meets, each with the public sources
that show the real API's 400 (and the two checks no source settles, which the stand-in does not
judge), and each request the stand-in was sent as it answered it."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pandas as pd

from ...wire import rules
from ...wire.standin import Exchange

# The rules this bug meets: an orphan output at the next turn, an open call in a compaction.
MET = (rules.ORPHAN_OUTPUT, rules.OPEN_CALL_COMPACT)
# The check no public source settles: a compaction request whose own input holds an open call.
UNJUDGED = "open_function_call_in_compaction_input"
# r15: the rules name function calls only, while notebook 08's compaction takes custom, shell and
# apply_patch calls and hosted MCP approval requests too: the table says that no source settles
# those kinds either.
OTHER_KINDS = "other_call_kinds"
# r18: notebook 08 breaks `compaction_input_paired` on 0.23.1, a compaction request holding an
# orphan output, which the stand-in answers 200: the page named it in prose as a third check
# beside a table of "two checks"; it is a row of the table now.
ORPHAN_IN_COMPACTION = "orphan_function_call_output_in_compaction"
UNJUDGED_ANSWERS = {
    UNJUDGED: "not judged: the stand-in answers 200 with a compaction item",
    ORPHAN_IN_COMPACTION: "not judged: the stand-in answers 200 with a compaction item (it "
    "checks orphan outputs on /v1/responses only)",
    OTHER_KINDS: "not judged: the stand-in checks function calls and outputs only",
}
# What the table says each unjudged check covers, where ``docs/wire.md``'s wording carries an
# aside the table does not need (r15: the workaround's history, in a table of the API's rules).
UNJUDGED_WHAT = {
    OTHER_KINDS: "a call of any other tool kind (custom, shell, apply_patch, computer use, local "
    "shell, ...) without its output or its output without its call, and an "
    "mcp_approval_request without its response",
}
COLUMNS = ("rule", "what it checks", "endpoint", "answer", "public sources (what each shows)")


def _plain(text: str) -> str:
    """A table shows text, not markdown."""
    return text.replace("`", "")


def rules_met() -> pd.DataFrame:
    """One row per rule in ``MET`` (what it refuses, where, its answer, each source that shows
    the API's 400 and what it shows: r15, a source with no status, such as the SDK's own change
    history, is no evidence of the answer and stays in ``docs/wire.md``), then the
    ``UNJUDGED_ANSWERS`` checks with why no source settles them."""
    rows = [
        (
            r.name,
            _plain(r.rejects),
            ", ".join(r.endpoints),
            f"{r.status}: {r.example}",
            _plain("; ".join(f"{s.label}: {s.shows}" for s in r.sources if "400" in s.shows)),
        )
        for r in MET
    ]
    for name, answer in UNJUDGED_ANSWERS.items():
        unknown = next(u for u in rules.UNKNOWN if u.name == name)
        rows.append(
            (
                unknown.name,
                _plain(UNJUDGED_WHAT.get(name, unknown.what)),
                ", ".join(unknown.endpoints),
                answer,
                _plain(unknown.why),
            )
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def answered(log: Sequence[Exchange]) -> pd.DataFrame:
    """Each request the stand-in was sent: its endpoint, its body without the tools, and its
    answer (status and error message, if any)."""
    return pd.DataFrame(
        [
            (
                e.path,
                json.dumps({k: v for k, v in e.body.items() if k != "tools"}),
                f"{e.status}: {e.error}" if e.error else str(e.status),  # r16: as rules_met
            )
            for e in log
        ],
        columns=["endpoint", "body (without tools)", "answer"],
    )

"""Evidence for notebook 09: the stand-in's rules this bug meets, each with its public sources
(and the one check no source settles, which the stand-in does not judge), and each request the
stand-in was sent as it answered it."""

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
COLUMNS = ("rule", "what it checks", "endpoint", "answer", "public sources (what each shows)")


def _plain(text: str) -> str:
    """A table shows text, not markdown."""
    return text.replace("`", "")


def rules_met() -> pd.DataFrame:
    """One row per rule in ``MET`` (what it refuses, where, its answer, each source and what it
    shows), then the ``UNJUDGED`` check with why no source settles it."""
    rows = [
        (
            r.name,
            _plain(r.rejects),
            ", ".join(r.endpoints),
            f"{r.status}: {r.example}",
            _plain("; ".join(f"{s.label}: {s.shows}" for s in r.sources)),
        )
        for r in MET
    ]
    unknown = next(u for u in rules.UNKNOWN if u.name == UNJUDGED)
    rows.append(
        (
            unknown.name,
            _plain(unknown.what),
            ", ".join(unknown.endpoints),
            "not judged: the stand-in answers 200 with a compaction item",
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
                f"{e.status} {e.error}".strip(),
            )
            for e in log
        ],
        columns=["endpoint", "body (without tools)", "answer"],
    )

"""Edge cases: the workaround judged beyond the study's single pending call.

The scripts are the Python SDK's (its folder's ``edge_cases``: two pending calls decided
differently, both rejected, a hosted MCP approval request, a store that is not SQLite), reached
by name (``sdks``) as every SDK's folder is; ``edge_table`` runs each with each session wrapper
on both runners and names the invariants each run violates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...analysis.invariants import evaluate
from ...sdks import sdk_module

if TYPE_CHECKING:  # pandas only for edge_table; the wrapper's type is the study's
    import pandas as pd

    from ...study.scenario import SessionWrapper


def edge_table(wrappers: dict[str, SessionWrapper | None]) -> pd.DataFrame:
    """Per edge case and runner, for each wrapper: the invariants violated, and compactions."""
    import pandas as pd

    edges = sdk_module("python", "edge_cases")
    rows = []
    for edge in edges.EDGE_CASES:
        for runner in ("run", "run_streamed"):
            row: dict[str, Any] = {"edge case": edge.name, "runner": runner}
            for name, wrap in wrappers.items():
                run = edges.run_edge(edge, wrap, runner=runner)
                broken = [v.invariant for v in evaluate(run) if v.holds is not True]
                row[name] = ", ".join(broken) or "all hold"
                row[f"{name}: compactions"] = run.compaction_requests
            rows.append(row)
    return pd.DataFrame(rows).set_index(["edge case", "runner"])

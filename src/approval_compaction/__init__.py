"""approval-compaction: how automatic compaction orphans a tool call awaiting approval.

The public API runs the scenario's cases on the installed ``openai-agents`` release, judges
six invariants on what each case stored and sent, and shows the results as frames and figures.
"""

from .capture import STAGES, CaseRun, Stage
from .comparison import (
    compaction_counts,
    fixed_runs,
    load_runs,
    per_variant,
    stage_summaries,
    variant_matrices,
    variant_summary,
    workaround_answer,
)
from .crosscheck import regression_table
from .edge_cases import EDGE_CASES, edge_table
from .errors import InvestigationError, StateRestoreError
from .findings import diff_answer, finding, seed_table, walkthrough_answer
from .frames import diff_frame, diff_text, highlight, items_frame
from .harness import run_case, run_case_async, sdk_version
from .invariants import INVARIANTS, Verdict, evaluate
from .matrix import MatrixRecord, pivot, records, run_matrix, to_frame, violations
from .pairing import Unpaired, find_unpaired, open_calls, orphan_outputs
from .plots import heatmap
from .releases import (
    release_answer,
    release_bisections,
    release_boundaries,
    release_changes,
    release_coverage,
    release_grid,
    release_heatmap,
    release_table,
    release_violations,
    sweep_frame,
)
from .report import Report, build_report, write_report
from .scenario import Case, CaseValueError, all_cases, select_cases
from .sweep import ReleaseRecord
from .views import pending_ids, sent_table, stage_diff, stage_summary, stage_table
from .workaround import DeferCompactionWhilePending, defer_compaction_while_pending, open_groups

__all__ = [
    "EDGE_CASES",
    "INVARIANTS",
    "STAGES",
    "Case",
    "CaseRun",
    "CaseValueError",
    "DeferCompactionWhilePending",
    "InvestigationError",
    "MatrixRecord",
    "ReleaseRecord",
    "Report",
    "Stage",
    "StateRestoreError",
    "Unpaired",
    "Verdict",
    "all_cases",
    "build_report",
    "compaction_counts",
    "defer_compaction_while_pending",
    "diff_answer",
    "diff_frame",
    "diff_text",
    "edge_table",
    "evaluate",
    "find_unpaired",
    "finding",
    "fixed_runs",
    "heatmap",
    "highlight",
    "items_frame",
    "load_runs",
    "open_calls",
    "open_groups",
    "orphan_outputs",
    "pending_ids",
    "per_variant",
    "pivot",
    "records",
    "regression_table",
    "release_answer",
    "release_bisections",
    "release_boundaries",
    "release_changes",
    "release_coverage",
    "release_grid",
    "release_heatmap",
    "release_table",
    "release_violations",
    "run_case",
    "run_case_async",
    "run_matrix",
    "sdk_version",
    "seed_table",
    "select_cases",
    "sent_table",
    "variant_matrices",
    "stage_diff",
    "stage_summaries",
    "stage_summary",
    "stage_table",
    "sweep_frame",
    "to_frame",
    "variant_summary",
    "violations",
    "walkthrough_answer",
    "workaround_answer",
    "write_report",
]

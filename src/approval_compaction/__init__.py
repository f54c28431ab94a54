"""approval-compaction: how automatic compaction orphans a tool call awaiting approval.

The public API runs the scenario's cases on the installed ``openai-agents`` release, judges
six invariants on what each case stored and sent, and shows the results as frames and figures.
"""

from .capture import STAGES, CaseRun, Stage
from .errors import InvestigationError, StateRestoreError
from .findings import diff_answer, finding, seed_table, walkthrough_answer
from .frames import diff_frame, diff_text, highlight, items_frame
from .harness import run_case, run_case_async, sdk_version
from .invariants import INVARIANTS, Verdict, evaluate
from .matrix import MatrixRecord, pivot, records, run_matrix, to_frame, violations
from .pairing import Unpaired, find_unpaired, open_calls, orphan_outputs
from .plots import heatmap
from .report import Report, build_report, write_report
from .scenario import Case, CaseValueError, all_cases, select_cases
from .views import pending_ids, sent_table, stage_diff, stage_summary, stage_table

__all__ = [
    "INVARIANTS",
    "STAGES",
    "Case",
    "CaseRun",
    "CaseValueError",
    "InvestigationError",
    "MatrixRecord",
    "Report",
    "Stage",
    "StateRestoreError",
    "Unpaired",
    "Verdict",
    "all_cases",
    "build_report",
    "diff_answer",
    "diff_frame",
    "diff_text",
    "evaluate",
    "find_unpaired",
    "finding",
    "heatmap",
    "highlight",
    "items_frame",
    "open_calls",
    "orphan_outputs",
    "pending_ids",
    "pivot",
    "records",
    "run_case",
    "run_case_async",
    "run_matrix",
    "sdk_version",
    "seed_table",
    "select_cases",
    "sent_table",
    "stage_diff",
    "stage_summary",
    "stage_table",
    "to_frame",
    "violations",
    "walkthrough_answer",
    "write_report",
]

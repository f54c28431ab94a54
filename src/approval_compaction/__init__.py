"""approval-compaction: how automatic compaction orphans a tool call awaiting approval.

The public API runs the scenario's cases on the installed ``openai-agents`` release, judges
eight invariants on what each case stored and sent, and shows the results as frames and figures.

This front door is lazy (PEP 562): ``import approval_compaction`` loads nothing but this file,
and ``approval_compaction.run_case`` imports the study, and the SDK, on first use. Each name is
listed once below with the module that defines it; the subpackages are named after the stages
of the data flow: ``study``, ``analysis``, ``display``, ``releases``, ``fix``, ``share``.
"""

from __future__ import annotations

import importlib
from typing import Any

_SOURCES: dict[str, tuple[str, ...]] = {
    ".errors": ("InvestigationError", "StateRestoreError"),
    ".study.scenario": ("Case", "CaseValueError", "all_cases", "select_cases"),
    ".study.capture": ("STAGES", "CaseRun", "Stage", "pending_ids", "sdk_version"),
    ".study.harness": ("run_case", "run_case_async", "run_matrix"),
    ".analysis.pairing": ("Unpaired", "find_unpaired", "open_calls", "orphan_outputs"),
    ".analysis.invariants": ("INVARIANTS", "JudgedRun", "Verdict", "evaluate", "judge_all"),
    ".analysis.matrix": ("MatrixRecord", "records"),
    ".analysis.table": ("pivot", "seed_table", "to_frame", "violations"),
    ".analysis.outcomes": ("outcome_frame", "outcome_of"),
    ".analysis.meeting": ("Meeting", "all_meetings", "meetings"),
    ".analysis.folding": (
        "block_order",
        "choice_effects",
        "compare_to",
        "fold",
        "fold_frame",
        "violating_runs",
    ),
    ".findings.answers": (
        "diff_answer",
        "doctor_answers",
        "finding",
        "fold_answer",
        "meets_answer",
        "outcome_answer",
        "rules_answer",
        "severity_answer",
        "variant_summary",
        "walkthrough_answer",
        "workaround_answer",
    ),
    ".findings.load": ("Findings", "load_findings"),
    ".findings.mechanism": ("mechanism_finding",),
    ".findings.releases": ("releases_finding",),
    ".display.frames": ("diff_frame", "diff_text", "highlight", "items_frame"),
    ".display.details": ("Cut", "cut"),
    ".display.heatmap": ("heatmap", "release_heatmap"),
    ".display.stepper": ("Stepper", "stepper"),
    ".display.views": (
        "compaction_table",
        "diff_summary",
        "sent_table",
        "side_by_side",
        "stage_diff",
        "stage_summary",
        "stage_table",
        "state_items_table",
        "warnings_table",
    ),
    ".releases.sweep": ("ReleaseRecord", "load_meetings", "load_results"),
    ".releases.tables": ("release_grid", "release_table", "release_violations", "sweep_frame"),
    ".releases.crosscheck": ("regression_table",),
    ".releases.upstream.text": ("suite_answer",),
    ".releases.upstream.results": ("suite_changes", "suite_checks", "suite_runs"),
    ".fix.workaround": (
        "DeferCompactionWhilePending",
        "defer_compaction_while_pending",
        "open_groups",
    ),
    ".fix.comparison": (
        "compaction_counts",
        "fixed_runs",
        "load_runs",
        "per_variant",
        "stage_summaries",
    ),
    ".fix.edge_cases": ("EDGE_CASES", "edge_table"),
    ".mechanism.source": ("extract_all",),
    ".mechanism.trace": ("trace_case",),
    ".mechanism.record": ("load_record", "recorded_release"),
    ".mechanism.views": (
        "callers_frame",
        "change_frame",
        "era_stages",
        "presence_frame",
        "source_diff",
        "stage_frame",
        "step_excerpts",
        "trace_frame",
    ),
    ".wire.app": ("standin_client",),
    ".study.wiring": ("backend_for", "lenient_backend", "responses_backend"),
    ".analysis.evidence": ("body_diff", "conversion", "failure"),
    ".wire.rules": ("RULES", "UNKNOWN"),
    ".wire.standin": ("StandIn",),
    ".share.report": ("Report", "build_report", "write_report"),
    ".doctor.verdict": ("SessionReport", "judge"),
    ".doctor.scan": ("scan_store", "verdict_counts"),
    ".doctor.repair": ("Outcome", "RepairResult", "healed_message"),
    ".affected.check": ("CheckRow", "check_answer", "check_config", "load_check", "run_check"),
    ".affected.upgrade": ("UpgradeRecord", "load_upgrade", "upgrade_records"),
    ".affected.worker": ("WorkerComparison", "worker_comparisons"),
    ".affected.heal": ("Healed", "fill_store", "heal", "heal_on_postgres", "pinned_session_items"),
    ".affected.views": (
        "changes_frame",
        "check_compare",
        "check_frame",
        "item_checks_frame",
        "outcomes_frame",
        "reports_frame",
        "upgrade_frame",
        "worker_frame",
    ),
}
_MODULE_OF: dict[str, str] = {name: module for module, names in _SOURCES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use, and keep the name here."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

"""approval-compaction: how automatic compaction orphans a tool call awaiting approval.

The public API runs the scenario's cases on the installed ``openai-agents`` release, judges
its invariants on what each case stored and sent, and shows the results as frames and figures.

This front door is curated and lazy (PEP 562): it names what the notebooks and the README use,
``import approval_compaction`` loads nothing but this file, and ``approval_compaction.run_case``
imports the study, and the SDK, on first use. Each name is listed once below with the module
that defines it; everything else is imported from its module
(``from approval_compaction.lab.mechanism.views import trace_frame``, say). The package has
three wings: the core (``study``, ``analysis``, ``wire``, ``display``, ``fix``, ``formats``),
which needs only openai-agents (and the ``[notebooks]`` extra for frames and figures); the
``doctor`` (``[doctor]``, and one extra per backend); and the ``lab`` (``[lab]``), whose names
here are the notebooks' and need the lab's install.
"""

from __future__ import annotations

import importlib
from typing import Any

# What the notebooks and the README use, and nothing else (a test reads them and checks this);
# everything else stays importable from its module.
_SOURCES: dict[str, tuple[str, ...]] = {
    # the scenario and its runner
    ".study.scenario": ("Case", "select_cases"),
    ".study.capture": ("sdk_version",),
    ".study.harness": ("run_case", "run_matrix"),
    ".study.wiring": ("backend_for",),
    # judging the runs
    ".analysis.invariants": ("evaluate",),
    ".analysis.matrix": ("records",),
    ".analysis.table": ("pivot", "seed_table", "to_frame"),
    ".analysis.outcomes": ("outcome_frame",),
    ".analysis.meeting": ("all_meetings",),
    ".analysis.folding": (
        "block_order",
        "choice_effects",
        "compare_to",
        "fold_frame",
        "violating_runs",
    ),
    ".analysis.evidence": ("body_diff", "conversion", "failure"),
    # the findings, and the notebooks' answer lines
    ".analysis.story": ("diff_answer", "walkthrough_answer"),
    ".lab.findings.answers": ("outcome_answer", "rules_answer", "variant_summary"),
    ".lab.findings.releases": ("releases_finding",),
    # the frames and figures the notebooks show
    ".display.frames": ("diff_text", "items_frame"),
    ".display.details": ("cut",),
    ".display.prose": ("prose",),
    ".display.heatmap": ("heatmap", "release_heatmap"),
    ".display.stepper": ("stepper",),
    ".display.views": (
        "compaction_table",
        "sent_table",
        "stage_diff",
        "stage_summary",
        "stage_table",
        "state_items_table",
    ),
    # every release
    ".lab.releases.sweep": ("load_meetings", "load_results"),
    ".lab.releases.tables": ("release_grid", "release_table", "release_violations", "sweep_frame"),
    ".lab.releases.crosscheck": ("regression_table",),
    # the workaround
    ".fix.workaround": ("DeferCompactionWhilePending", "defer_compaction_while_pending"),
    ".lab.releases.comparison": (
        "compaction_counts",
        "load_runs",
        "per_variant",
        "stage_summaries",
    ),
    ".fix.edge_cases": ("edge_table",),
    # the JavaScript SDK (@openai/agents): its harness, item mapping, tables and citations
    ".lab.js.harness": ("Plan", "run_plan"),
    ".lab.js.items": ("wire_item",),
    ".lab.js.source": ("permalink",),
    ".lab.findings.js": ("js_errors_frame", "js_ranges_frame", "load_js"),
    ".lab.share.report_js": ("js_fix_frame", "js_workaround_ranges"),
    # the Responses API stand-in
    ".wire.app": ("standin_client",),
    ".wire.rules": ("RULES", "UNKNOWN"),
    # am I affected, and the heal (the doctor's verdict and notebook 07's experiments)
    ".doctor.verdict": ("judge",),
    ".doctor.check": ("check_config", "load_check", "run_check"),
    ".lab.affected.upgrade": ("load_upgrade", "upgrade_records"),
    ".lab.affected.worker": ("worker_comparisons",),
    ".lab.affected.heal": ("heal_on_postgres", "pinned_session_items"),
    ".lab.affected.views": (
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

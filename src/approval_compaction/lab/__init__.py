"""The lab's front door: the investigation behind the notebooks and the README.

The lab sweeps every release, takes the SDK's mechanism and its fix apart, searches
conversations with hypothesis, studies who is affected, and publishes the findings. It needs the
``[lab]`` extra; it imports the core and the doctor, and neither imports it.

This door is curated and lazy (PEP 562), as the core's is: it names what the notebooks use of the
lab, each once with its module, and holds the core's names too (``approval_compaction.lab.run_case``
is ``approval_compaction.run_case``), so a notebook of the lab imports one door.
"""

from __future__ import annotations

import importlib
from typing import Any

import approval_compaction as _core

# What the notebooks use of the lab, and nothing else (a test reads them and checks this).
_SOURCES: dict[str, tuple[str, ...]] = {
    # the findings and the notebooks' answer lines
    ".findings.answers": ("variant_summary",),
    ".findings.ranges": ("join_alike",),
    ".findings.releases": ("releases_finding",),
    # the matrix across cases and releases, the wire's evidence, the stepper
    ".findings.folding": ("block_order", "choice_effects"),
    ".findings.evidence": ("rules_met",),
    ".releases.heatmap": ("HOOK", "heatmap", "matrix_scope"),
    "approval_compaction.openai_agents.widget": ("stepper",),
    ".findings.keeping": ("keeping_turns",),
    ".releases.later_turns": ("load_liveness",),
    # every release
    ".releases.sweep": ("load_meetings", "load_results"),
    ".releases.crosscheck": ("regression_ranges",),
    "approval_compaction.openai_agents.comparison": (
        "compactions_by_boundary",
        "load_runs",
        "per_variant",
        "refused_by_mode",
    ),
    ".releases.upstream.results": ("suite_change_table",),
    # the mechanism inside the SDK
    ".mechanism.anatomy": ("load_anatomy",),
    ".mechanism.record": ("recorded_release",),
    ".mechanism.views": (
        "change_frame",
        "era_stages",
        "hunks_by_outcome",
        "kinds_frame",
        "modules_by_outcome",
        "moved_check",
        "step_excerpts",
        "trace_frame",
    ),
    # the property-based search
    # who is affected, and the heal
    ".affected.upgrade": ("load_upgrade",),
    "approval_compaction.openai_agents.upgrade": ("upgrade_records",),
    ".affected.heal": ("heal_new_sqlite",),
    "approval_compaction.openai_agents.late": ("late_answers",),
    "approval_compaction.openai_agents.session": (
        "compaction_frame",
        "healed_items",
        "diagnosis_frame",
        "load_session",
        "next_turn",
        "sent_items",
        "turn_answers",
    ),
    ".affected.views": (
        "changes_frame",
        "check_compare",
        "reports_frame",
        "upgrade_frame",
    ),
    ".share.later_turns_comment": (
        "diff_without",
        "liveness_by_mode",
        "missed_table",
        "released_runs",
    ),
    # the state-space search on the drivers (``make explore-drivers``)
    ".findings.searched": ("fix_words", "searched_cases", "searched_frame"),
}
# Modules the notebooks use as a whole (``rp.replay(...)``, ``paths.DATA_FILES``), by the name
# they are imported under; the lab's ``paths`` holds the core's locations too.
_MODULES: dict[str, str] = {
    "paths": ".paths",
    "replay": ".explore.replay",
}
# A name whose module gives it a meaning of its own, here under the name of what it gives.
_RENAMED: dict[str, tuple[str, str]] = {
    "liveness_test_body": (".share.later_turns_comment", "after_setup"),  # it, its setup left out
    "liveness_patch_file": (".share.later_turns_comment", "file_diff"),  # one file of the patch
    "liveness_test_outcomes": (".share.later_turns_comment", "test_outcomes"),  # its runs, printed
}
_DOOR = _core.Door(__name__, _SOURCES, _MODULES)
__all__ = sorted({*_DOOR.public, *_RENAMED, *_core.__all__})
__dir__ = _DOOR.listed


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use (a core name from the core's door),
    and keep the name here."""
    if name in _core.__all__ and name not in _DOOR.public:
        value = getattr(_core, name)
    elif name in _RENAMED:
        module, defined = _RENAMED[name]
        value = getattr(importlib.import_module(module, __name__), defined)
    else:
        return _DOOR.load(name)
    globals()[name] = value
    return value

"""Kinds table: the fix's anatomy per approval kind, one row each, from ``data/fix-anatomy.json``.

Each row is a kind the explorer knows (``Anatomy.kinds``): the cases it is judged on, the two
releases as published, the minimal fix ddmin found for it (hunks by number and name), what the
function kind's minimal fix alone does for it, the hunks whose revert from the newer release
brings its bug back, and the newer release with all but its own fix reverted. A kind a release
cannot make says why in the row instead (``absent``).
"""

from __future__ import annotations

import pandas as pd

from .anatomy import Anatomy, KindAnatomy, Outcome
from .views import group_names, outcome_kind


def _word(found: Outcome) -> str:
    return outcome_kind(found)


def kind_row(found: Anatomy, kind: KindAnatomy) -> dict[str, object]:
    """One kind's row."""
    number = found.numbers
    fix = ", ".join(f"{number[name]} ({name})" for name in kind.minimal_fix) or "none"
    return {
        "cases": len(kind.cases),
        "absent in": "; ".join(f"{v}: {why}" for v, why in kind.absent.items()) or "—",
        found.old: _word(kind.old_outcome),
        found.new: _word(kind.new_outcome),
        "minimal fix": fix,
        f"{found.old} + it": _word(kind.minimal_outcome),
        "1-minimal": "yes" if kind.one_minimal else "no",
        "sets ddmin tried": len(kind.search),
        f"{found.old} + the function fix alone": _word(kind.with_function_fix),
        f"reverted from {found.new}, bug back": group_names(kind.bug_back, number) or "none",
        f"{found.new} - all but its fix": _word(kind.rest_reverted),
    }


def kinds_frame(found: Anatomy) -> pd.DataFrame:
    """Every kind's row, indexed by the kind's name."""
    rows = {kind.label: kind_row(found, kind) for kind in found.kinds}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("approval kind")

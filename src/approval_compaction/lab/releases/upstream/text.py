"""Text: what the README and the notebook say about the SDK's suite, from the committed results.

``readme_block`` is the README's upstream-suite block (``share.readme`` writes it between its
markers): per release the notebook's sentence, then each change with its reason, the
parametrisations of one test on one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ... import paths
from ..versions import sort_versions
from .changes import shown_outcomes
from .results import NOT_EXPLAINED, load


def written_versions(folder: Path = paths.DATA) -> list[str]:
    """Releases with committed results, oldest first."""
    return sort_versions(paths.data(folder).upstream_suite_versions())


def _outcomes(count: int) -> str:
    return "1 outcome changes" if count == 1 else f"{count:,} outcomes change"


def suite_answer(versions: Sequence[str], folder: Path = paths.DATA) -> str:
    """One sentence per release, from its committed results."""
    sentences = []
    for version in versions:
        result = load(version, folder)
        fixed = next((r for r in result.runs if r.variant == "fix"), None)
        if fixed is None:
            sentences.append(f"openai-agents {version}: run without the workaround only.")
            continue
        explained = len(result.changes) - len(result.unexplained)
        sentences.append(
            f"openai-agents {version}: {fixed.tests:,} tests in {fixed.files} files, "
            f"{fixed.sessions_upgraded:,} compaction sessions made deferring; "
            f"{_outcomes(len(result.changes))} with the workaround "
            f"({explained} explained, {len(result.unexplained)} not)."
        )
    return " ".join(sentences)


def readme_block(folder: Path = paths.DATA) -> str:
    """The README's lines on the SDK's suite: per release its answer and each change's reason."""
    lines = []
    for version in written_versions(folder):
        result = load(version, folder)
        lines.append(f"- {suite_answer([version], folder)}")
        groups: dict[tuple[str, str, str, str], list[str]] = {}
        for change in result.changes:
            name, _, param = change.test.partition("[")
            baseline, fixed = shown_outcomes(change.baseline, change.fixed, change.message)
            key = (name, baseline, fixed, change.reason or NOT_EXPLAINED)
            groups.setdefault(key, []).append(param.rstrip("]"))
        for (name, baseline, fixed, why), params in groups.items():
            cases = f" ({', '.join(params)})" if any(params) else ""
            lines.append(f"  - `{name}`{cases}: {baseline} → {fixed}; {why}")
    return "\n".join(lines)

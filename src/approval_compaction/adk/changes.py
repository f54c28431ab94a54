"""Changes: what moved each boundary of the ADK sweep, named from the public record.

The sweep finds where a kind's result changes between two releases (``adk.finding``
``boundaries``); each change below is the first release of one such boundary, what changed in
the SDK, and where the public record shows it: adk-python's CHANGELOG entry and commit, its
issues, or, where the CHANGELOG names nothing, the release's own files as the package index
ships them. A test holds every computed boundary to a change here and every change to a
boundary.
"""

from __future__ import annotations

from ..lab.findings.driven import Change as Change

REPO = "https://github.com/google/adk-python"


def _commit(sha: str) -> str:
    return f"{REPO}/commit/{sha}"


def _issue(number: int) -> str:
    return f"{REPO}/issues/{number}"


CHANGES: tuple[Change, ...] = (
    Change(
        "1.18.0",
        "DatabaseSessionService hands a stored compaction back as a dict "
        "(StorageEvent.to_event rebuilds the actions with model_copy), and the release's "
        "prompt assembly raises on it: the next turn of a database session fails",
        f"{_issue(3487)} (1.18.0), {_issue(3707)}, {_issue(4047)} (1.19.0 to 1.21.0)",
    ),
    Change(
        "1.22.0",
        "the database reads events back validated (EventActions.model_validate in "
        "sessions/schemas/v0.py, the JSON event_data of schemas/v1.py): a compaction is "
        "an object again",
        "google-adk 1.22.0's sessions/schemas/v0.py and v1.py (the CHANGELOG entry is not "
        "in the stored copy read)",
    ),
    Change(
        "1.25.0",
        "EventsCompactionConfig gains token_threshold and event_retention_size, accepted "
        "only beside compaction_interval and overlap_size",
        "google-adk 1.25.0's apps/app.py",
    ),
    Change(
        "1.26.0",
        "the token threshold's split moves earlier until every retained function response "
        "keeps its call (_safe_token_compaction_split_index): the resume no longer raises, "
        "and with no events retained the call waiting for confirmation reaches the summariser "
        "without its response",
        "google-adk 1.26.0's apps/compaction.py (the CHANGELOG entry is not in the stored copy "
        "read)",
    ),
    Change(
        "2.0.0",
        "a root LlmAgent runs on the node runtime (Runner._run_node_async), which has no "
        "compaction step after an invocation (only the older _run_with_trace path runs one): "
        "the sliding window never runs, and the token threshold runs only before a model "
        "request (CompactionRequestProcessor), where no call waits for confirmation yet",
        "google-adk 2.0.0's runners.py (no CHANGELOG entry names it)",
    ),
    Change(
        "2.2.0",
        "the node runtime runs _run_compaction_for_sliding_window after each invocation, "
        "with 1.x's window: the call waiting for confirmation is compacted again (its "
        "placeholder answer counts as its response)",
        "google-adk 2.2.0's runners.py (no CHANGELOG entry names it)",
    ),
    Change(
        "2.3.0",
        "the window ends at its longest self-contained prefix (_longest_self_contained_"
        "prefix): no call waiting for confirmation is compacted",
        f'CHANGELOG 2.3.0: "prevent compaction from orphaning function responses" '
        f"({_commit('71b936bf48de2c1e66f6a032d132ca9cd70f6726')}); the bug: {_issue(4740)}",
    ),
    Change(
        "2.6.0",
        "the sliding-window fields become optional: a token threshold alone",
        f'CHANGELOG 2.6.0: "make EventsCompactionConfig sliding-window fields optional" '
        f"({_commit('ec42cfa237bc2613f62759962454aed6dea43130')}), closes {_issue(6398)}",
    ),
)

"""Catalogue: the SDK functions on the path of the pending call, and the lines that matter.

Each entry names one function by module and qualname, says its role in a sentence, and marks
its important lines by text (a substring of the line, with the reason it matters), never by
line number: ``source`` finds the numbers in whichever release is installed, and a test checks
that every mark still matches a line of the pinned and the newest release.

The steps follow the report's case (``run``, ``approve``, compaction on, ``json`` state):
``persist`` stores the pause's items and asks for compaction; ``compact`` decides and sends the
history to ``responses.compact``; ``replace`` swaps the stored history for the compaction
output; ``resume`` is where 0.22.1 made the resumed run stop compacting; ``prepare`` builds the
next turn's input from what is stored. Nothing here imports the SDK.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...errors import InvestigationError
from ..releases import NEWEST as NEWEST
from ..releases import PINNED as PINNED

Step = Literal["persist", "compact", "replace", "resume", "prepare"]
STEPS: tuple[Step, ...] = ("persist", "compact", "replace", "resume", "prepare")

ERA = ("0.22.0", "0.22.1")  # the sweep's boundary: 3 compaction requests before, 2 after
RELEASES = (PINNED, NEWEST, *ERA)  # the releases data/mechanism.json records

PERSISTENCE = "agents.run_internal.session_persistence"
COMPACTION = "agents.memory.openai_responses_compaction_session"
SESSION = "OpenAIResponsesCompactionSession"


@dataclass(frozen=True)
class Mark:
    """A line that matters: text the line contains, and why it matters. Where the text is on
    several lines, ``after`` picks one: the first line with the text after the first line that
    contains ``after`` (a test checks that every mark picks exactly one line)."""

    text: str
    reason: str
    after: str = ""


@dataclass(frozen=True)
class Function:
    """One SDK function on the path: where it lives, what it does there, its marked lines."""

    step: Step
    module: str
    qualname: str
    role: str
    marks: tuple[Mark, ...]

    @property
    def name(self) -> str:
        """The function's last name, as a reader would write it."""
        return self.qualname.rsplit(".", 1)[-1]


CATALOGUE: tuple[Function, ...] = (
    Function(
        "persist",
        PERSISTENCE,
        "save_result_to_session",
        "Appends a turn's items to the session (at the pause: the question and the pending "
        "function_call) and then asks for compaction.",
        (
            Mark(
                "has_local_tool_outputs = any(",
                "a turn counts as having tool work only if a tool ran; the pause's call awaits "
                "approval, so it has none",
            ),
            Mark(
                "await _session_add_items(session, items_to_save",
                "stores the turn, the function_call without its output included",
            ),
            Mark("await _apply_post_write_compaction(", "then decides on compaction"),
        ),
    ),
    Function(
        "persist",
        PERSISTENCE,
        "_apply_post_write_compaction",
        "Decides after an append whether to defer compaction (a tool ran) or to compact now.",
        (
            Mark(
                "if has_local_tool_outputs:",
                "only a tool output defers; a call awaiting approval is not one",
            ),
            Mark(
                "session.run_compaction,", "so at the pause it asks the session to compact at once"
            ),
        ),
    ),
    Function(
        "compact",
        COMPACTION,
        f"{SESSION}.run_compaction",
        "The session's public compaction entry point, which the runner calls after a turn.",
        (Mark("await self._run_compaction(", "hands over to the ownership gate"),),
    ),
    Function(
        "compact",
        COMPACTION,
        f"{SESSION}._run_compaction",
        "The ownership gate: skips compaction when the run no longer owns the history it "
        "appended (added in 0.22.1).",
        (
            Mark(
                "not isinstance(expected_generation, int)",
                "compaction runs only if the run holds the generation the session is at; after "
                "a resume its append left None here when it had none to expect (across JSON the "
                "restored run never read the history) or a stale one (in memory the context "
                "keeps the pause's read, which the pause's own compaction made stale)",
            ),
            Mark(
                "Skipped compaction because Session history changed",
                "the skip's warning: in 0.23.1 the resume skips on both boundaries, so the "
                "orphan output stays stored",
            ),
        ),
    ),
    Function(
        "compact",
        COMPACTION,
        f"{SESSION}._run_compaction_locked",
        "Decides whether to compact, matches the stored history to the model exchange, sends "
        "it to responses.compact and replaces the stored history with the output.",
        (
            Mark(
                "should_compact = force or self.should_trigger_compaction(",
                "the hook decides (the study's hook always says yes)",
            ),
            Mark(
                "if snapshot is not None and (not complete or suffix_start > 0):",
                "the branch for a partial snapshot, or for a part to replace that starts after "
                "the first item; at the pause the snapshot is complete and that part starts at "
                "the first item, so it does not run",
                after="session_items = list(reversed(matched_items))",
            ),
            Mark(
                "drop_orphan_function_calls(",
                "the pairing check, compaction's only check for a call without its output: in "
                "0.23.1 only inside that branch, so at the pause the "
                "pending call passes",
            ),
            Mark(
                "compacted = await self.client.responses.compact(",
                "sends the history (at the pause of 0.23.1: the pending call included)",
            ),
            Mark(
                "await snapshot.replace_suffix(suffix_start, output_items)",
                "stores the compaction output in place of that history: the pending call is gone",
            ),
        ),
    ),
    Function(
        "compact",
        "agents.run_internal.items",
        "drop_orphan_function_calls",
        "Removes calls that have no output (and, when asked, outputs whose call is gone); "
        "compaction compares its result with its input to detect an open call.",
        (
            Mark(
                "dropped_indexes.add(index)",
                "a call without its output is dropped",
                after="# Tool call entry will be dropped",
            ),
            Mark(
                "if output_pruning_indexes is not None:",
                "an output without its call is dropped only when the caller asks; compaction's "
                "check asks for every item, so it also finds a history already poisoned",
            ),
        ),
    ),
    Function(
        "replace",
        "agents.memory.sqlite_session",
        "SQLiteSession._get_compaction_snapshot",
        "Reads SQLiteSession's stored suffix for compaction and returns the function that "
        "replaces it in one transaction.",
        (
            Mark("len(rows) < limit", "complete: the store held fewer rows than asked for"),
            Mark("AND id >= ?", "deletes the stored suffix"),
            Mark("self._insert_items(conn, output)", "and inserts the compaction output"),
        ),
    ),
    Function(
        "replace",
        COMPACTION,
        f"{SESSION}._replace_underlying_session_items",
        "The whole-history replacement (clear, then add the output), for stores without "
        "snapshots and for every store before SQLiteSession had them.",
        (
            Mark("await self.underlying_session.clear_session()", "clears the stored history"),
            Mark(
                "await self.underlying_session.add_items(output_items)",
                "and adds only the compaction output",
            ),
        ),
    ),
    Function(
        "resume",
        PERSISTENCE,
        "_session_add_items",
        "Appends items and carries the wrapper's generation across the append, which decides "
        "whether the compaction that follows may run.",
        (
            Mark(
                'expected_generation = getattr(wrapper, "_session_compaction_generation", None)',
                "the generation the run read the history at: None for a run restored from JSON "
                "(it never read); a run resumed in memory keeps its context's, from the pause",
            ),
            Mark(
                "wrapper._session_compaction_generation = generation",
                "the append's answer: None unless nothing wrote since the run's read, which "
                "disowns the compaction after it",
            ),
        ),
    ),
    Function(
        "resume",
        COMPACTION,
        f"{SESSION}._add_items_with_generation",
        "Appends one batch and returns the new generation only if no other write came between "
        "the run's read and this append.",
        (
            Mark(
                "if expected_generation is not None and",
                "ownership needs a generation from a read and no other write since (this append "
                "is the one mutation after it)",
            ),
            Mark("return None", "no read, or a stale one: no ownership"),
        ),
    ),
    Function(
        "prepare",
        PERSISTENCE,
        "prepare_input_with_session",
        "Builds the next turn's input from the stored history plus the new question.",
        (
            Mark(
                "capture_compaction_generation=True",
                "a new turn reads the history with its generation (without a session limit, "
                "as here); a resumed run does not come here, on either boundary",
                after="else:",
            ),
            Mark(
                "converted_history + new_input_list", "the input: stored history, then the question"
            ),
            Mark(
                "output_pruning_indexes=output_pruning_indexes,",
                "None without a session limit: an output whose call is gone is kept and sent",
            ),
        ),
    ),
)


# 0.24.0's ``_run_compaction_locked`` read for the block its pairing check moved into: the
# ``if is_automatic:`` block every automatic compaction enters, around the partial-snapshot
# branch that held the check in 0.23.1 (notebook 12 quotes it from the newest release).
MOVED_CHECK = Function(
    "compact",
    COMPACTION,
    f"{SESSION}._run_compaction_locked",
    "The block the pairing check moved into, from its header to the check's return.",
    (
        Mark(
            "if is_automatic:",
            "the block every automatic compaction enters: one the runner starts after a turn, "
            "not a run_compaction() the application calls itself",
        ),
        Mark(
            "if snapshot is not None and (not complete or suffix_start > 0):",
            "the branch for a partial snapshot, which held the check in 0.23.1; at the pause "
            "the snapshot is complete, so this branch does not run",
            after="session_items = list(reversed(matched_items))",
        ),
        Mark(
            "if (",
            "the check's own branch, at the level of the partial-snapshot branch above, not "
            "inside it: it runs for every automatic compaction, whole snapshot or partial, on "
            "the stored items matched to the latest model exchange, not on "
            "the whole history",
            after="session_items = session_items[boundary:]",
        ),
        Mark(
            "drop_orphan_function_calls(",
            "the pairing check, the condition of that branch: its result differs from those "
            "items when one of them is a call without its output",
        ),
        Mark(
            "return",
            "a call without its output (the pending call) skips this compaction (it returns "
            "without compacting); each later automatic one is skipped the same way while the "
            "items it checks hold such a call",
            after="!= session_items",
        ),
    ),
)


class UnknownFunctionError(InvestigationError, LookupError):
    """A name that is not in the catalogue."""


def entry(name: str) -> Function:
    """The catalogued function with this qualname or last name."""
    for function in CATALOGUE:
        if name in (function.qualname, function.name):
            return function
    raise UnknownFunctionError(f"{name} is not in the mechanism catalogue")

"""Fuzz: the JS store fuzzer. The JS workaround (``js/workaround.mjs``) and the bare SDK under
store faults and random interleavings, judged here (the Python workaround's fuzzer,
``testing.pyfuzz``, keeps the same promises).

``js/storefuzz.mjs`` drives ``run()`` on the pinned ``@openai/agents`` with a store that fails at
one write (before it commits, after, or halfway) and, when fast-check draws the trials, a
scheduler that orders every store call, model call and compaction request at random; it writes
one JSON line per trial and judges nothing. ``problems`` judges a line against the promises a
team relies on, with the study's one pairing judge (``analysis.pairing`` over the wire's shapes,
``items``):

- **nothing stored is lost**: every item the store held is still there at the end, or a
  compaction that committed replaced it, or it was a dead call (``dead_items``: no answer can
  come; the workaround may retire it);
- **nothing duplicated**: no item is stored twice at the end;
- **no unpaired input**: no model input holds an output without its call, and no compaction
  request a call without its output or an output without its call (the invariants
  ``next_turn_input_paired``, ``compaction_input_complete`` and ``compaction_input_paired``
  read the same checks);
- **nothing stored unpaired**: the history at the end holds no output without its call.

``retried`` names the duplicates the SDK itself stores when a run whose write lost its
acknowledgement is retried. ``run_fuzz`` asks Node for seeded fast-check trials; ``run_trials``
for given ones (the fault tests in ``tests/js/test_workaround_faults.py``); ``batch_reads``
counts what storing one batch reads.
``benchmarks/js_workaround_turn.py`` measures a turn's reads and time on the same store, model
and compaction endpoint (``js/workaround-turn.mjs``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..analysis.pairing import dead_items, open_calls, orphan_outputs
from .harness import WORKAROUND, NodeError, node_binary
from .items import wire_items

FUZZER = paths.ROOT / "js" / "storefuzz.mjs"
# The JS item types that answer a call (js/workaround.mjs's RESULT_TYPE values).
OUTPUT_TYPES = frozenset(
    {"function_call_result", "computer_call_result", "shell_call_output",
     "apply_patch_call_output", "program_output"}
)  # fmt: skip
FAST_CHECK = paths.ROOT / "node_modules" / "fast-check" / "lib" / "fast-check.js"
TIMEOUT = 600.0  # seconds for one Node process

Record = dict[str, Any]


def _node(plan: dict[str, Any], timeout: float, package: Path = paths.ROOT) -> list[Record]:
    fuzzer = package / "js" / FUZZER.name
    if fuzzer != FUZZER:  # a release's folder: the fuzzer beside its node_modules
        fuzzer.parent.mkdir(exist_ok=True)
        for source in (WORKAROUND, FUZZER):
            shutil.copyfile(source, fuzzer.parent / source.name)
    env = {**os.environ, "FAST_CHECK": FAST_CHECK.as_uri()}
    try:
        done = subprocess.run(
            [node_binary(), str(fuzzer)],
            input=json.dumps(plan), capture_output=True, text=True, timeout=timeout,
            cwd=package, check=False, env=env,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise NodeError(f"the JS store fuzzer did not finish in {timeout:.0f} s") from None
    if done.returncode != 0:
        raise NodeError(f"the JS store fuzzer failed: {done.stderr.strip()[-800:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def run_trials(
    trials: Iterable[dict[str, Any]], timeout: float = TIMEOUT, parallel: bool = False
) -> list[Record]:
    """Each trial (see ``trial`` in ``js/storefuzz.mjs``) run once, in order; with ``parallel``,
    all at once in one process (trials that wait on real timers: ``delays``, latency), their
    records in the same order."""
    return _node({"trials": list(trials), "parallel": parallel}, timeout)


def run_fuzz(
    seed: int,
    runs: int,
    wrapped: bool | str = "both",
    race: bool = False,
    timeout: float = TIMEOUT,
    package: Path = paths.ROOT,
) -> list[Record]:
    """``runs`` trials fast-check draws from ``seed``, bare and wrapped (``"both"``) or one side;
    with ``race``, each the race of a resume and a new question after the user moved on. On the
    ``@openai/agents`` installed in ``package`` (``js.packages.package_folder`` gives a
    release's)."""
    plan = {"seed": seed, "runs": runs, "wrapped": wrapped, "race": race}
    return _node({"fuzz": plan}, timeout, package)


def batch_reads(pairs: int, wrapped: bool, timeout: float = TIMEOUT) -> Record:
    """How many item properties storing one batch of ``pairs`` calls and outputs reads."""
    [record] = _node({"batch": {"pairs": pairs, "wrapped": wrapped}}, timeout)
    return record


def _identity(item: Record) -> str:
    return json.dumps(item, sort_keys=True)


LATE_PREFIX = "[workaround] "  # js/workaround.mjs's LATE_PREFIX: an output stored as text


def _late_texts(items: list[Record]) -> set[str]:
    """The call ids named by the late outputs ``items`` hold as text (``lateOutputMessage``:
    ``[workaround] The tool call <name>:<call id> returned: ...``)."""
    found = set()
    for item in items:
        if item.get("role") != "assistant" or not isinstance(item.get("content"), list):
            continue
        for part in item["content"]:
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str) and text.startswith(f"{LATE_PREFIX}The tool call "):
                name = text[len(LATE_PREFIX) + len("The tool call ") :].split(" returned: ")[0]
                found.add(name.rsplit(":", 1)[-1])
    return found


def lost(record: Record) -> list[str]:
    """Items the store held that are gone at the end, neither replaced by a compaction that
    committed nor dead calls (as the pairing judge finds them where the item was last stored),
    nor outputs a write stored again as text (a late output the workaround wrote again as its
    text when its call was gone; that message is then held like any item). What the failing
    write itself added is not owed: its caller was told it failed. A transaction
    (``applyHistoryTransaction``) is read as a clear and an add in one."""
    held: dict[str, bool] = {}  # identity -> whether it was a dead call where last seen
    covered: set[str] = set()
    seen_compactions: set[str] = set()
    before_clear: list[Record] = record["initial"]
    current: list[Record] = record["initial"]

    def note(items: list[Record], failed: bool = False) -> None:
        dead = {u.position for u in dead_items(wire_items(items))}
        for position, item in enumerate(items):
            if not failed or _identity(item) in held:  # a failed write owes nothing it added
                held[_identity(item)] = position in dead

    note(current)
    seen_compactions |= {_identity(i) for i in current if i.get("type") == "compaction"}
    for write in record["ledger"]:
        if write["op"] in ("clear", "transaction"):
            before_clear = current
        fresh = [
            i for i in write["items"]
            if i.get("type") == "compaction" and _identity(i) not in seen_compactions
        ]  # fmt: skip
        if write["op"] in ("add", "transaction") and fresh:
            covered |= {_identity(i) for i in before_clear}
            seen_compactions |= {_identity(i) for i in fresh}
        current = write["after"]
        note(current, write["failed"])
    final = {_identity(i) for i in record["stored"]}
    # An output written again as its text is held as that message, itself judged like any item.
    as_text = _late_texts([i for write in record["ledger"] for i in write["items"]])

    def kept_as_text(key: str) -> bool:
        item = json.loads(key)
        return item.get("type") in OUTPUT_TYPES and item.get("callId") in as_text

    return sorted(
        k for k, dead in held.items()
        if k not in final and k not in covered and not dead and not kept_as_text(k)
    )  # fmt: skip


def duplicated(record: Record) -> list[str]:
    """Items stored more than once at the end."""
    keys = [_identity(i) for i in record["stored"]]
    return sorted({k for k in keys if keys.count(k) > 1})


def retried(record: Record) -> list[str]:
    """Duplicated items the SDK itself stores twice: ones a write added that committed and then
    failed (its acknowledgement lost) in a run the trial then retried with its ``RunState``. The
    runner cannot tell that such a write committed and stores its items again, bare or wrapped
    (a resumed tool output is the exception: the runner's pending-write record reconciles it)."""
    if not any(o["op"].split("@")[0] == "retry" and o["outcome"] == "answered"
               for o in record["outcomes"]):  # fmt: skip
        return []
    committed = {_identity(i) for w in record["ledger"] if w["failed"] for i in w["items"]}
    return [k for k in duplicated(record) if k in committed]


@dataclass(frozen=True)
class Problems:
    """What one trial broke, by promise (each list empty when it holds)."""

    lost: list[str]
    duplicated: list[str]
    unpaired_inputs: list[str]  # model inputs and compaction requests
    unpaired_stored: list[str]

    def any(self) -> bool:
        return bool(self.lost or self.duplicated or self.unpaired_inputs or self.unpaired_stored)


def problems(record: Record) -> Problems:
    """The promises one trial broke."""
    unpaired: list[str] = []
    for n, items in enumerate(record["model_inputs"]):
        unpaired += [f"model input {n}: output {k} without its call" for k in
                     orphan_outputs(wire_items(items))]  # fmt: skip
    for n, items in enumerate(record["compaction_inputs"]):
        wire = wire_items(items)
        unpaired += [f"compaction {n}: output {k} without its call" for k in orphan_outputs(wire)]
        unpaired += [f"compaction {n}: call {k} without its output" for k in open_calls(wire)]
    stored = [f"output {k} without its call" for k in orphan_outputs(wire_items(record["stored"]))]
    return Problems(lost(record), duplicated(record), unpaired, stored)

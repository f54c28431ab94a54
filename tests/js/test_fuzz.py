"""The JS store fuzzer's judge (``js.fuzz``) on records written by hand: what it counts as
lost, duplicated and unpaired, and what it lets pass."""

from __future__ import annotations

import json
from typing import Any

from approval_compaction.js.fuzz import Record, duplicated, lost, problems, retried

Q = {"role": "user", "content": "question 1"}
A = {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text",
     "text": "answer"}]}  # fmt: skip
CALL = {"type": "function_call", "id": "fc_1", "callId": "call_1", "name": "t", "arguments": "{}"}
OUT = {"type": "function_call_result", "callId": "call_1", "name": "t",
       "output": {"type": "text", "text": "done"}}  # fmt: skip
LATER = {"role": "user", "content": "question 2"}
CMP = {"type": "compaction", "id": "cmp_9", "encrypted_content": "s"}


def _record(initial: list[Any], ledger: list[tuple[str, list[Any], list[Any], bool]],
            **fields: Any) -> Record:  # fmt: skip
    """A trial's record: the store's writes as (op, items added, items after, failed)."""
    writes = [{"op": op, "items": items, "after": after, "failed": failed}
              for op, items, after, failed in ledger]  # fmt: skip
    stored = writes[-1]["after"] if writes else initial
    return {"initial": initial, "ledger": writes, "stored": stored, "model_inputs": [],
            "compaction_inputs": [], **fields}  # fmt: skip


def test_an_emptied_store_loses_what_it_held() -> None:
    """A clear that commits and is never followed by the old items: every item is lost."""
    record = _record([Q, A], [("clear", [], [], True)])
    assert len(lost(record)) == 2


def test_a_restored_store_loses_nothing() -> None:
    """Cleared, then put back: nothing lost."""
    record = _record([Q, A], [("clear", [], [], True), ("add", [Q, A], [Q, A], False)])
    assert lost(record) == []


def test_a_committed_compaction_covers_what_it_replaced() -> None:
    """A clear followed by the compaction's own items: the old history is covered, not lost."""
    compacted = [Q, CMP]
    record = _record([Q, A, CALL, OUT], [("clear", [], [], False),
                                         ("add", compacted, compacted, False)])  # fmt: skip
    assert lost(record) == []


def test_a_compaction_covers_only_the_history_it_replaced() -> None:
    """Items emptied by an earlier failure are not covered by a later compaction."""
    record = _record(
        [A],
        [("clear", [], [], True), ("add", [LATER], [LATER], False), ("clear", [], [], False),
         ("add", [LATER, CMP], [LATER, CMP], False)],
    )  # fmt: skip
    assert len(lost(record)) == 1


def test_a_failed_write_owes_what_it_added_and_a_dead_call_may_go() -> None:
    """What the failing write itself added is not owed; a dead call (a question follows it,
    no output) may be retired; a call still waiting may not."""
    added = _record([Q], [("add", [A], [Q, A], True), ("clear", [], [], False),
                          ("add", [Q], [Q], False)])  # fmt: skip
    assert lost(added) == []
    dead = _record([Q, CALL, LATER], [("clear", [], [], False), ("add", [Q, LATER], [Q, LATER],
                                                                False)])  # fmt: skip
    assert lost(dead) == []
    live = _record([Q, CALL], [("clear", [], [], False), ("add", [Q], [Q], False)])
    assert len(lost(live)) == 1


def test_an_item_stored_twice_is_duplicated() -> None:
    assert len(duplicated(_record([Q, A, A], []))) == 1
    assert duplicated(_record([Q, A], [])) == []


def test_unpaired_inputs_and_stored_outputs_are_found_by_the_pairing_judge() -> None:
    """An output sent or stored without its call, and a compaction request with a call and no
    output, are each a problem; a paired exchange is none."""
    record = _record(
        [Q, OUT],
        [],
        model_inputs=[[Q, CALL, OUT], [Q, OUT]],
        compaction_inputs=[[{"type": "function_call", "call_id": "call_1", "name": "t"}]],
    )
    found = problems(record)
    assert found.unpaired_inputs == [
        "model input 1: output call_1 without its call",
        "compaction 0: call call_1 without its output",
    ]
    assert found.unpaired_stored == ["output call_1 without its call"]
    assert found.any()
    assert not problems(_record([Q, CALL, OUT], [], model_inputs=[[Q, CALL, OUT]])).any()


LATE = "[workaround] The tool call t:call_1 returned: done"
TEXT = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": LATE}]}


def test_an_output_written_again_as_its_text_is_not_lost() -> None:
    """An output another process's compaction left alone, written again as its text: the
    output is held as that message, which is itself judged (lost when it goes)."""
    kept = [Q, CALL, LATER, CMP]
    writes = [("pop", [], kept, False), ("add", [TEXT], [*kept, TEXT], False)]
    healed = _record([*kept, OUT], writes)
    assert lost(healed) == []
    gone = _record([Q, CALL, LATER, CMP, OUT], [("pop", [], [Q, CALL, LATER, CMP], False)])
    assert lost(gone) == [json.dumps(OUT, sort_keys=True)]
    other = {**OUT, "callId": "call_2"}
    wrong = _record([Q, other], [("pop", [], [Q], False), ("add", [TEXT], [Q, TEXT], False)])
    assert lost(wrong) == [json.dumps(other, sort_keys=True)]


def test_a_transaction_is_read_as_a_clear_and_an_add() -> None:
    """A compaction written as one transaction covers the history it replaced, as a clear and
    an add do; one that writes no new compaction item covers nothing."""
    compacted = [Q, CMP]
    assert lost(_record([Q, A], [("transaction", compacted, compacted, False)])) == []
    assert len(lost(_record([Q, A], [("transaction", [Q], [Q], False)]))) == 1


def test_only_a_retried_runs_committed_write_may_be_stored_twice() -> None:
    """The SDK stores again what a write that committed and then failed added, when the run is
    retried: that duplicate is the SDK's; any other is not, and neither is one with no retry."""
    ledger = [("add", [A], [Q, A], True), ("add", [A], [Q, A, A], False)]
    answered = [{"op": "retry", "outcome": "answered"}]
    assert retried(_record([Q], ledger, outcomes=answered)) == [json.dumps(A, sort_keys=True)]
    assert retried(_record([Q], ledger, outcomes=[{"op": "ask", "outcome": "answered"}])) == []
    twice = [("add", [A], [Q, A], False), ("add", [A], [Q, A, A], False)]
    assert retried(_record([Q], twice, outcomes=answered)) == []

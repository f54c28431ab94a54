"""Heal: a whole scan, repair, compare and restore keeps every item, on the SDK's SQLite store
(what notebook 07 shows) and on a real PostgreSQL server through SQLAlchemySession."""

from __future__ import annotations

import needs
import pytest

from approval_compaction.lab.affected.heal import (
    REAL_SESSION,
    Healed,
    heal_new_sqlite,
    heal_on_postgres,
)
from approval_compaction.lab.stores import postgres


def _assert_healed(healed: Healed) -> None:
    summary = healed.summary()
    assert (summary.before["poisoned"], summary.before["stuck"]) == (3, 2)
    assert summary.repaired == summary.items_rewritten == 5
    assert summary.after["poisoned"] == summary.after["stuck"] == 0
    assert summary.after["pending"] == summary.before["pending"]  # may still be answered
    assert summary.items_backed_up_differently == 0
    assert summary.items_restored_same == summary.items_compared
    assert REAL_SESSION in {o.session_id for o in healed.applied.outcomes}


def test_heal_repairs_every_poisoned_session_and_restore_keeps_every_item() -> None:
    _assert_healed(heal_new_sqlite())


@pytest.mark.servers
@pytest.mark.enable_socket
def test_heal_on_postgres_reads_as_the_sqlite_heal() -> None:
    """The same sessions on a throwaway PostgreSQL (the full tier's server): the same verdicts
    before and after, and every item kept."""
    needs.require(postgres.available(), "PostgreSQL")
    on_server = heal_on_postgres()
    _assert_healed(on_server)
    assert on_server.summary() == heal_new_sqlite().summary()


def test_heal_new_sqlite_generates_the_sessions_asked_one_of_each_verdict() -> None:
    """Notebook 07 asks for 4 generated sessions without the pinned release's own: one healthy,
    poisoned, stuck and pending, and heals them as the full store."""
    healed = heal_new_sqlite(generated=4, real=False)
    summary = healed.summary()
    assert summary.sessions == 4
    assert REAL_SESSION not in {r.session_id for r in healed.before}
    assert (summary.before["healthy"], summary.before["pending"]) == (1, 1)
    assert (summary.before["poisoned"], summary.before["stuck"]) == (1, 1)
    assert summary.after["poisoned"] == summary.after["stuck"] == 0
    assert summary.after["pending"] == 1

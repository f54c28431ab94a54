"""Mechanism: where in the SDK the pending call is lost, read from ``data/mechanism.json``.

The record holds, per release, each catalogued function's source and a traced run of the
report's case. The finding names the function that compacts the pending call at the pause, the
stages it was called at, the block its pairing check (``drop_orphan_function_calls``) runs under
in the pinned release and in the fixing release, and the stages each release compacted at.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mechanism.catalogue import entry
from ..mechanism.record import MechanismError, MechanismRecord
from ..mechanism.views import check_block


@dataclass(frozen=True)
class Mechanism:
    """The function responsible in ``old``, where its check sits there and in ``new``, and the
    stages at which each release's traced run sent compaction requests."""

    old: str
    new: str
    function: str
    called_at: tuple[str, ...]
    old_line: int
    old_block: str
    new_line: int
    new_block: str
    old_compacts_at: tuple[str, ...]
    new_compacts_at: tuple[str, ...]


def mechanism_finding(record: MechanismRecord, old: str, new: str) -> Mechanism:
    """The finding from the mechanism record (``record.load_record``), for release ``old`` and
    its fix ``new``."""
    locked = entry("_run_compaction_locked").qualname
    releases = record.releases
    missing = [v for v in (old, new) if v not in releases]
    if missing:
        raise MechanismError(
            f"the mechanism record holds no release {missing[0]}: run `make mechanism`"
        )
    (line_old, block_old), (line_new, block_new) = (
        check_block(releases[v].functions[locked], v) for v in (old, new)
    )

    def compacts(version: str) -> tuple[str, ...]:
        stages = releases[version].trace.stages
        return tuple(s.name for s in stages if s.compaction_requests)

    return Mechanism(
        old=old,
        new=new,
        function=locked,
        called_at=releases[old].trace.calls[locked],
        old_line=line_old,
        old_block=block_old,
        new_line=line_new,
        new_block=block_new,
        old_compacts_at=compacts(old),
        new_compacts_at=compacts(new),
    )

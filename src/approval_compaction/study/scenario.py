"""Scenario: the four choices that make one case, and the sixteen cases they span.

A case fixes how the run is driven (``run`` or a fully consumed ``run_streamed``), what the
human decides (``approve`` / ``reject``), whether the compaction hook says yes (``on``) or no
(``off``), and how the paused state crosses to the resume (``json``: ``RunState.to_json()`` then
``from_json()``; ``memory``: the in-memory state, a control the original report did not run).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, cast

from ..errors import InvestigationError
from .words import (
    COMPACTIONS,
    DECISIONS,
    RUNNERS,
    STATE_BOUNDARIES,
    Compaction,
    Decision,
    Runner,
    StateBoundary,
)

# What a run may wrap its session with, beside the four choices: a function from the session to
# the one the run uses (the workaround, ``fix.workaround.defer_compaction_while_pending``, is one).
SessionWrapper = Callable[[Any], Any]

CHOICES: dict[str, tuple[str, ...]] = {
    "runner": RUNNERS,
    "decision": DECISIONS,
    "compaction": COMPACTIONS,
    "state_boundary": STATE_BOUNDARIES,
}


class CaseValueError(InvestigationError, ValueError):
    """A case field or value that is not one of the scenario's choices."""


@dataclass(frozen=True, order=True)
class Case:
    """One combination of the scenario's four choices."""

    runner: Runner = "run"
    decision: Decision = "approve"
    compaction: Compaction = "on"
    state_boundary: StateBoundary = "json"

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            _check(name, value)

    @property
    def label(self) -> str:
        """A short readable id, e.g. ``run/approve/on/json``."""
        return "/".join(asdict(self).values())

    def as_dict(self) -> dict[str, str]:
        return cast(dict[str, str], asdict(self))


def _check(name: str, value: object) -> None:
    if name not in CHOICES:
        raise CaseValueError(f"unknown case field {name!r}: expected one of {', '.join(CHOICES)}")
    if value not in CHOICES[name]:
        allowed = ", ".join(CHOICES[name])
        raise CaseValueError(f"unknown {name} {value!r}: expected one of {allowed}")


def all_cases() -> list[Case]:
    """The sixteen cases, in a stable order (runner, decision, compaction, boundary)."""
    combos = itertools.product(*CHOICES.values())
    return [Case(**dict(zip(CHOICES, combo, strict=True))) for combo in combos]  # type: ignore[arg-type]


def parse_filter(spec: str | None) -> dict[str, set[str]]:
    """Parse ``field=value[|value],field=value`` into a filter; an empty spec keeps all."""
    selected: dict[str, set[str]] = {}
    for part in (spec or "").split(","):
        if not part.strip():
            continue
        name, sep, values = part.partition("=")
        if not sep:
            raise CaseValueError(f"case filter {part.strip()!r} is not field=value")
        name = name.strip()
        for value in values.split("|"):
            _check(name, value.strip())
            selected.setdefault(name, set()).add(value.strip())
    return selected


def select_cases(spec: str | None = None, cases: Iterable[Case] | None = None) -> list[Case]:
    """The cases that match a filter spec such as ``decision=reject,compaction=on``."""
    wanted: Mapping[str, set[str]] = parse_filter(spec)
    pool = all_cases() if cases is None else list(cases)
    return [c for c in pool if all(getattr(c, k) in v for k, v in wanted.items())]


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Case))

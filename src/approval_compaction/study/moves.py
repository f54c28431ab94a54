"""Moves: what a state-space search may do next on one SDK's driver, as data.

The Python SDK's search (``lab/explore``) walks conversations by taking steps through the study's
driver in-process. A driver that runs in the SDK's own runtime (Node for a Node
SDK, a release's interpreter for a Python SDK) is searched the same way: its folder lists its
``Moves`` (the settings a conversation starts with and the steps it may take, each field's
values simplest first, which is where shrinking moves a choice), and its harness runs the steps
one request at a time in a driver process that stays up (``StepDriver``), answering each with
what the step sent, stored and left waiting (``StepAnswer``), its items already mapped to the
wire's shapes. One search, one judge: nothing here is specific to an SDK.

A move may need the conversation to hold something (``Move.needs``): an approval or a
confirmation the application can answer (``pending``), a paused state it kept aside (``kept``),
a long-running call whose result it can send (``waiting``); a driver's answer says which it
holds. ``Moves.shapes`` are the SDK's hand-picked situations and cases as steps: a finding
whose shape is one of them (or the start of one), in a setting they ran, is ``known``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .capture import Stage
from .words import Model

Needs = str  # "pending", "kept" or "waiting"
NEEDS: tuple[Needs, ...] = ("pending", "kept", "waiting")


@dataclass(frozen=True)
class Choice:
    """One field of a step or a setting and its values, simplest first; ``many``: a list of up
    to that many of them (a reply's calls)."""

    name: str
    values: tuple[Any, ...]
    many: int = 0


@dataclass(frozen=True)
class Move:
    """One kind of step: its action, the fields it draws, and what the conversation must hold
    for it (any one of ``needs``; none: always)."""

    action: str
    choices: tuple[Choice, ...] = ()
    needs: tuple[Needs, ...] = ()


@dataclass(frozen=True)
class Shape:
    """A hand-picked situation or case as steps (JSON, as a step writes itself), and the
    settings it ran in (each setting's values; one absent: any)."""

    name: str
    steps: tuple[Mapping[str, Any], ...]
    settings: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Moves:
    """One SDK's search space: its package, the short name its files carry, the settings a
    conversation starts with (``mode`` first: the compaction mode or kind), its steps, the
    kinds of call a reply can make (a call id starts with its kind), and its hand-picked
    shapes."""

    package: str
    short: str
    settings: tuple[Choice, ...]
    moves: tuple[Move, ...]
    kinds: tuple[str, ...]
    shapes: tuple[Shape, ...] = ()
    synthetic: Mapping[str, str] = field(default_factory=dict)  # an id prefix the SDK makes
    # up, and the kind its calls are (a confirmation request's prefix)
    model: Model = "scripted"  # how the driver's model requests are judged (``responses``:
    # over HTTP, by the stand-in's answers)
    designed: tuple[str, ...] = ()  # liveness invariants the SDK breaks by design where the
    # control breaks them too (a plain conversation in the same settings), and its source
    designed_source: str = ""

    def kind_of(self, key: str) -> str:
        """The kind an offending id came from (``?`` for an id no step made)."""
        kind = key.rsplit("-", 2)[0]
        if kind in self.kinds:
            return kind
        return next((k for prefix, k in self.synthetic.items() if key.startswith(prefix)), "?")


@dataclass(frozen=True)
class StepAnswer:
    """What one step did on a driver: each turn's stage (mapped to the wire's shapes), what
    the user met (``answered``, ``paused``, ``raised``, ...), the approvals it gave, the ids
    still waiting, what the conversation holds now (``needs``), and the version it ran on.
    ``not_applicable``: the driver cannot take the step as drawn (nothing ran)."""

    stages: tuple[Stage, ...] = ()
    outcome: str = "answered"
    approvals: int = 0
    pending: tuple[str, ...] = ()
    holds: frozenset[Needs] = frozenset()
    not_applicable: str = ""


class StepDriver(Protocol):
    """A driver process taking a searched conversation one step at a time."""

    version: str

    def start(self, settings: Mapping[str, Any]) -> str:
        """Open a new conversation with these settings: "" when it started, else why the
        release cannot run them."""
        ...

    def step(self, index: int, step: Mapping[str, Any]) -> StepAnswer:
        """Take one step (its JSON) of the open conversation."""
        ...

    def close(self) -> None:
        """Stop the driver process."""
        ...


@dataclass(frozen=True)
class Driven:
    """One SDK the search drives: its moves, its driver on a release, its two releases, and its
    driver on the pinned release with a patch (from its folder's ``fix/``), named ``V+FILE``."""

    moves: Moves
    open: Callable[[str], StepDriver]
    pinned: Callable[[], str]
    newest: Callable[[], str]
    patched: Callable[[Path], StepDriver]

    def release(self, word: str | None) -> str:
        """``pinned`` (the default), ``newest``, or a version as it is."""
        if word in (None, "", "pinned"):
            return self.pinned()
        return self.newest() if word == "newest" else str(word)

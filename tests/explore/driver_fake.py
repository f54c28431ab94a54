"""A fake driver for the search's tests: a few lines behind ``study.moves.StepDriver``, as
httpx's ``MockTransport`` is behind its transport."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from approval_compaction.study.capture import Stage
from approval_compaction.study.items import Item
from approval_compaction.study.moves import Choice, Move, Moves, Shape, StepAnswer

ASK_OPEN = {"action": "ask", "calls": ["open"]}
MOVES = Moves(
    package="fake-sdk",
    short="adk",  # a driver's short name (the records' ``sdk``)
    settings=(Choice("mode", ("a", "b")),),
    moves=(
        Move("ask", (Choice("calls", ("paired", "open"), many=2),)),
        Move("decide", needs=("pending",)),
        Move("continue"),
    ),
    kinds=("paired", "open"),
    shapes=(Shape("abandoned", (ASK_OPEN, {"action": "continue"}), {"mode": ("a",)}),),
    synthetic={"sys-": "system"},
)


class FakeDriver:
    """An SDK that stores each call (a ``paired`` one with its output) and compacts at every
    later turn unless a call waits for its output: then it never compacts again."""

    version = "1.0"

    def __init__(self) -> None:
        self.stored: list[Item] = []
        self.open: list[str] = []
        self.started: list[Mapping[str, Any]] = []

    def start(self, settings: Mapping[str, Any]) -> str:
        self.started.append(dict(settings))
        self.stored, self.open = [], []
        return ""

    def step(self, index: int, step: Mapping[str, Any]) -> StepAnswer:
        if step["action"] == "decide" and not self.open:
            return StepAnswer(not_applicable="nothing waits")
        if step["action"] == "ask":
            self.stored.append({"type": "message", "role": "user", "content": f"q{index}"})
            for n, kind in enumerate(step.get("calls", [])):
                key = f"{kind}-{index}-{n}"
                self.stored.append({"type": "function_call", "call_id": key, "name": kind})
                if kind == "paired":
                    self.stored.append({"type": "function_call_output", "call_id": key})
                else:
                    self.open.append(key)
            stages = [self.turn()]
        elif step["action"] == "decide":
            self.stored += [{"type": "function_call_output", "call_id": k} for k in self.open]
            self.open = []
            stages = [self.turn()]
        else:
            stages = [self.turn(compact=not self.open) for _ in range(3)]
        holds = frozenset({"pending"} if self.open else set())
        return StepAnswer(tuple(stages), pending=tuple(self.open), holds=holds)

    def turn(self, compact: bool = False) -> Stage:
        sent = [list(self.stored)] if compact else []
        if compact:
            self.stored = [{"type": "compaction", "summary": "s"}]
        self.stored.append({"type": "message", "role": "assistant", "content": "ok"})
        return Stage(name="next_turn", stored=list(self.stored), compaction_inputs=sent)

    def close(self) -> None:
        pass

"""Python store fuzzer: the workaround and the bare SDK as teams deploy them, judged here.

A trial (``Trial``) is data: the store (the SDK's ``SQLiteSession`` on a file, or ``ListStore``,
a store with no transaction of its own), the history it starts with, what the compaction hook
answers, whether each worker keeps the session object that served it (``kept``) or builds one
per request (``per_request``), the steps (``Ask``: a question, which the model answers with a
call awaiting approval when it asks to pause; ``Resume``: a worker decides its paused run and
resumes it; ``Race``: steps started together, each after its offset), how late reads answer,
and one store call that fails (``Fault``: before it does anything, or after it committed, its
acknowledgement lost). Every worker has its own handle on the one backing store.

``run_trials`` takes each trial through ``Runner.run`` with the study's agent, on a strict
model that refuses an input the API refuses (``wire.rules.check_pairing``), and the study's
compaction client; as an application does, a step that raised is retried once (a question asked
again, a resume with the same ``RunState``), unless the model refused it. It writes what it saw
(``Record``): every write to the store with the history after it (the ledger), the history at the
end, each model input and compaction request, each step's outcome, the refusals, the reads and
the faults injected. It judges nothing: ``problems`` judges a record with the study's one pairing
judge (``analysis.pairing``), for the promises a team relies on (the other workaround's
fuzzer, in its SDK's folder, judges the same):

- **nothing stored is lost**: every item the store held is there at the end, or a compaction
  that committed replaced it, or it was a dead call (``dead_items``, which the workaround
  retires); what a failed write added is not owed;
- **nothing duplicated**; **no unpaired input** (a model input with an output without its call, a
  compaction request with a call or output without its partner); **nothing stored unpaired**
  (an output stored without its call poisons the session: the API refuses every later turn).

``draw`` makes a trial from a seed (``random.Random``: no dependency, so the same trials run
in any release's own environment, ``run_in``); ``single_faults`` makes one trial per store call
of a clean run and each way it can fail. ``python -m approval_compaction.testing.pyfuzz`` reads
a plan as JSON on stdin and prints one record per line. ``tests/testing/test_pyfuzz.py`` runs
seeded trials, and ``docs/workaround.md`` shows their figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .. import paths
from ..analysis.pairing import dead_items, open_calls, orphan_outputs
from ..sdks import sdk_module

SESSION_ID = "fuzz"
ALL_ITEMS = 2_147_483_647  # a read of every stored item (``fix.workaround.ALL_ITEMS``)
TIMEOUT = 1800.0  # seconds for one interpreter's trials (``run_in``)
FaultMode = Literal["fail", "lost"]
StoreKind = Literal["sqlite", "list", "sqlalchemy", "redis"]
Handles = Literal["kept", "per_request"]
Item = dict[str, Any]
Record = dict[str, Any]


@dataclass(frozen=True)
class Ask:
    """A question from ``worker``'s user; with ``pause`` the model answers with a call awaiting
    approval, which pauses the run."""

    worker: str
    pause: bool = False


@dataclass(frozen=True)
class Resume:
    """``worker`` approves (or rejects) every call its paused run waits for, and resumes it."""

    worker: str
    approve: bool = True


@dataclass(frozen=True)
class Race:
    """Steps started together, each ``offsets_ms`` after the race begins."""

    steps: tuple[Ask | Resume, ...]
    offsets_ms: tuple[float, ...]


Step = Ask | Resume | Race


@dataclass(frozen=True)
class Fault:
    """The store call (reads and writes counted together, from 0) that fails: ``fail`` before
    it does anything, ``lost`` after a write committed (its acknowledgement lost; a read's
    answer lost is a failed read); and how many calls after it fail too, before they do
    anything (``then``: a connection that blips)."""

    op: int
    mode: FaultMode = "fail"
    then: int = 0


@dataclass(frozen=True)
class Trial:
    """One deployment's conversation (see the module's docstring)."""

    steps: tuple[Step, ...]
    store: StoreKind = "sqlite"
    handles: Handles = "kept"
    hook: bool = True
    history: tuple[Item, ...] = ()
    latency_ms: float = 0.0  # each read answers up to this late (uniform, from ``seed``)
    fault: Fault | None = None
    seed: int = 0
    ledger: bool = True  # keep each write's history after it (a benchmark does without)
    url: str = ""  # the server of a ``sqlalchemy`` or ``redis`` store

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"steps": [_step_json(step) for step in self.steps]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trial:
        fault = data.get("fault")
        return cls(
            **data
            | {
                "steps": tuple(_step_from_json(step) for step in data["steps"]),
                "history": tuple(data.get("history", ())),
                "fault": None if fault is None else Fault(**fault),
            }
        )


def _step_json(step: Step) -> dict[str, Any]:
    if isinstance(step, Race):
        inner = [_step_json(s) for s in step.steps]
        return {"step": "Race", "steps": inner, "offsets_ms": list(step.offsets_ms)}
    return {"step": type(step).__name__, **asdict(step)}


def _step_from_json(data: dict[str, Any]) -> Step:
    values = {k: v for k, v in data.items() if k != "step"}
    if data["step"] == "Race":
        inner = tuple(_step_from_json(s) for s in data["steps"])
        return Race(inner, tuple(data["offsets_ms"]))  # type: ignore[arg-type]
    return Ask(**values) if data["step"] == "Ask" else Resume(**values)


class StoreFault(ConnectionError):
    """The failure a fault injects: a connection that dropped."""


class ListStore:
    """A ``Session`` over a list shared by every handle: a store with no transaction (a custom
    or key-value store), which has neither a snapshot nor an atomic replacement."""

    session_settings = None

    def __init__(self, backing: list[Item], session_id: str = SESSION_ID) -> None:
        self.session_id = session_id
        self.items = backing

    async def get_items(self, limit: int | None = None) -> list[Item]:
        chosen = self.items if limit is None else self.items[-limit:] if limit > 0 else []
        copied: list[Item] = json.loads(json.dumps(chosen))  # as a store returns decoded rows
        return copied

    async def add_items(self, items: list[Any]) -> None:
        self.items.extend(json.loads(json.dumps(items)))

    async def pop_item(self) -> Item | None:
        return self.items.pop() if self.items else None

    async def clear_session(self) -> None:
        self.items.clear()


@dataclass
class Probe:
    """Every store call of a trial, whichever handle makes it: it counts them, injects the
    trial's fault, makes reads answer late, and keeps the ledger of writes."""

    fault: Fault | None
    latency_ms: float
    stored: Callable[[], Awaitable[list[Item]]]  # the history the backing store holds now
    rng: random.Random
    ops: list[str] = field(default_factory=list)  # "read" or "write", in order
    injected: int = 0
    ledger: list[Record] = field(default_factory=list)

    def _mode(self, kind: str) -> FaultMode | None:
        self.ops.append(kind)
        fault, op = self.fault, len(self.ops) - 1
        if fault is None or not fault.op <= op <= fault.op + fault.then:
            return None
        self.injected += 1
        return "fail" if kind == "read" or op > fault.op else fault.mode

    async def read(self, call: Callable[[], Awaitable[Any]]) -> Any:
        if self._mode("read") is not None:
            raise StoreFault("injected: the read failed")
        result = await call()
        if self.latency_ms:
            await asyncio.sleep(self.rng.uniform(0, self.latency_ms) / 1000)
        return result

    async def write(self, op: str, items: Sequence[Any], call: Callable[[], Awaitable[Any]]) -> Any:
        mode = self._mode("write")
        items_json = json.loads(json.dumps(list(items), default=str))
        entry: Record = {"op": op, "call": len(self.ops) - 1, "items": items_json}
        if mode == "fail":
            self.ledger.append(entry | {"after": await self.stored(), "failed": True})
            raise StoreFault("injected: the write failed")
        try:
            result = await call()
        except BaseException:
            self.ledger.append(entry | {"after": await self.stored(), "failed": True})
            raise
        self.ledger.append(entry | {"after": await self.stored(), "failed": mode == "lost"})
        if mode == "lost":
            raise StoreFault("injected: the write committed, its acknowledgement was lost")
        return result

    def attach(self, store: Any) -> Any:
        """Route ``store``'s calls through the probe (on the instance: its class stays the SDK's,
        which the SDK checks before it offers a snapshot)."""
        get_items, add_items = store.get_items, store.add_items
        pop_item, clear_session = store.pop_item, store.clear_session
        snapshot = getattr(store, "_get_compaction_snapshot", None)

        async def read(limit: int | None = None) -> Any:
            return await self.read(lambda: get_items(limit))

        async def add(items: list[Any]) -> None:
            await self.write("add", items, lambda: add_items(items))

        async def pop() -> Any:
            return await self.write("pop", [], pop_item)

        async def clear() -> None:
            await self.write("clear", [], clear_session)

        store.get_items, store.add_items, store.pop_item = read, add, pop
        store.clear_session = clear
        if snapshot is not None:
            store._get_compaction_snapshot = self._snapshots(snapshot)
        return store

    def _snapshots(self, reader: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def read_snapshot(limit: int, **options: Any) -> Any:
            found = await self.read(lambda: reader(limit, **options))
            if found is None:
                return None
            replace_suffix = found.replace_suffix

            async def replace_from(start: int, output: list[Any]) -> bool:
                done = await self.write("replace", output, lambda: replace_suffix(start, output))
                return bool(done)

            return replace(found, replace_suffix=replace_from)

        return read_snapshot


_TABLES: set[str] = set()  # the servers whose tables are made


class Backing:
    """The one store every handle of a trial opens: ``handle`` opens one as a worker would
    (each SQLite handle its own connections, each server handle its own client); ``stored``
    reads the history with a handle of its own, past the probe."""

    def __init__(self, trial: Trial, folder: Path, session_id: str) -> None:
        self.kind, self.url, self.session_id = trial.store, trial.url, session_id
        self.path = folder / "history.db"
        self.items: list[Item] = []  # the ``list`` store's
        self.opened: list[Any] = []
        self.observer = self.handle() if self.kind in ("sqlalchemy", "redis") else None

    def handle(self) -> Any:
        if self.kind == "sqlite":
            from agents import SQLiteSession

            store: Any = SQLiteSession(self.session_id, str(self.path))
        elif self.kind == "list":
            store = ListStore(self.items, self.session_id)
        elif self.kind == "sqlalchemy":
            from agents.extensions.memory import SQLAlchemySession

            store = SQLAlchemySession.from_url(self.session_id, url=self.url)
        else:
            import redis.asyncio
            from agents.extensions.memory import RedisSession

            store = RedisSession(self.session_id, redis_client=redis.asyncio.from_url(self.url))
        self.opened.append(store)
        return store

    async def stored(self) -> list[Item]:
        if self.kind == "list":
            copied: list[Item] = json.loads(json.dumps(self.items))
            return copied
        if self.kind == "sqlite":
            return _sqlite_rows(self.path, self.session_id)
        assert self.observer is not None
        return list(await self.observer.get_items(limit=ALL_ITEMS))

    async def seed(self, items: Sequence[Item]) -> None:
        """Create the server store's tables (MariaDB's as the doctor's tests make them: the SDK's
        own need a length it does not give), and write the trial's first history, past the
        probe."""
        if self.kind == "sqlalchemy" and self.url not in _TABLES:
            from ..lab.stores import synthetic

            await synthetic.create_tables(self.url)
            _TABLES.add(self.url)
        if not items:
            return
        if self.kind == "list":
            self.items.extend(json.loads(json.dumps(list(items))))
            return
        store = self.observer or self.handle()
        await store.add_items(list(items))

    async def close(self) -> None:
        for store in self.opened:
            engine = getattr(store, "engine", None)
            with contextlib.suppress(Exception):
                if engine is not None:
                    await engine.dispose()
                elif self.kind == "redis":
                    await store._redis.aclose()
                elif self.kind == "sqlite":
                    store.close()


def _sqlite_rows(path: Path, session_id: str) -> list[Item]:
    """The session's items as the file holds them (read with a connection of its own)."""
    if not path.exists():
        return []
    with contextlib.closing(sqlite3.connect(path)) as conn:
        try:
            rows = conn.execute(
                "SELECT message_data FROM agent_messages WHERE session_id = ? ORDER BY id",
                (session_id,),
            ).fetchall()
        except sqlite3.OperationalError:  # no table yet
            return []
    return [json.loads(data) for (data,) in rows]


def _strict_model() -> Any:
    if TYPE_CHECKING:  # the Python SDK's folder, reached by name (sdks); mypy reads it by import
        from ..openai_agents import model as scripted
        from ..openai_agents import tools
    else:
        scripted, tools = sdk_module("python", "model"), sdk_module("python", "tools")
    from ..study.items import to_items
    from ..wire.rules import RESPONSES, check_pairing
    from ..wire.transport import status_error

    class StrictModel(scripted.ScriptedModel):
        """Refuses an input as the API does; asked to pause, answers with a call to approve."""

        refused: int = 0

        def _next_output(self, input: str | list[Any], settings: Any = None) -> list[Any]:
            items = to_items(input)
            error = check_pairing(items)
            if error is not None:
                self.requests.append(items)
                self.refused += 1
                raise status_error(error, RESPONSES)
            last = items[-1] if items else {}
            asked = last.get("role") == "user" and "pause" in str(last.get("content"))
            n = self.calls + 1
            reply = (
                scripted.function_call(tools.TOOL_NAME, {"value": f"v{n}"}, call_id=f"call-{n}")
                if asked
                else scripted.assistant_message(f"answer {n}", item_id=f"msg-{n}")
            )
            self.steps = [[reply]]
            return super()._next_output(input, settings)

    return StrictModel()


@dataclass
class _Worker:
    session: Any = None  # the session object it keeps (``kept`` handles)
    state: Any = None  # its paused run


@dataclass
class _Conversation:
    """One trial's run: the backing store, its probe, the model and the workers."""

    trial: Trial
    wrapped: bool
    backing: Backing
    probe: Probe
    workers: dict[str, _Worker] = field(default_factory=dict)
    outcomes: list[str] = field(default_factory=list)
    asked: int = 0

    def __post_init__(self) -> None:
        if TYPE_CHECKING:  # the Python SDK's folder, reached by name (sdks)
            from ..openai_agents import tools, wiring
        else:
            tools, wiring = sdk_module("python", "tools"), sdk_module("python", "wiring")
        self.model = _strict_model()
        self.client = wiring.CompactionClient(True, "faithful", self.model.chain)
        self.agent = tools.build_agent(self.model)

    def handle(self) -> Any:
        """A new session object on the backing store, as a worker builds one."""
        from agents.memory import OpenAIResponsesCompactionSession

        answer = self.trial.hook
        session: Any = OpenAIResponsesCompactionSession(
            self.backing.session_id,
            self.probe.attach(self.backing.handle()),
            client=self.client,  # type: ignore[arg-type]  # the study's duck-typed client
            compaction_mode="input",
            should_trigger_compaction=lambda _: answer,
        )
        if self.wrapped:
            from ..fix.workaround import defer_compaction_while_pending

            session = defer_compaction_while_pending(session)
        return session

    def session_of(self, name: str) -> Any:
        worker = self.workers.setdefault(name, _Worker())
        if self.trial.handles == "per_request" or worker.session is None:
            worker.session = self.handle()
        return worker.session

    async def take(self, step: Step) -> None:
        if isinstance(step, Race):
            await asyncio.gather(
                *(self._later(s, o) for s, o in zip(step.steps, step.offsets_ms, strict=True))
            )
        elif isinstance(step, Ask):
            await self._ask(step)
        else:
            await self._resume(step)

    async def _later(self, step: Ask | Resume, offset_ms: float) -> None:
        await asyncio.sleep(offset_ms / 1000)
        await self.take(step)

    async def _ask(self, step: Ask) -> None:
        self.asked += 1
        question = f"{step.worker} {'pause' if step.pause else 'question'} {self.asked}"
        await self._run(step.worker, question)

    async def _resume(self, step: Resume) -> None:
        worker = self.workers.get(step.worker)
        if worker is None or worker.state is None:
            self.outcomes.append(f"{step.worker}: nothing paused")
            return
        state, worker.state = worker.state, None
        for interruption in state.get_interruptions():
            (state.approve if step.approve else state.reject)(interruption)
        await self._run(step.worker, state)

    async def _run(self, name: str, value: Any) -> None:
        """One run, retried once with the same input (the same ``RunState``) if it raised and
        the model did not refuse it."""
        import openai
        from agents import RunConfig, Runner

        if TYPE_CHECKING:  # the Python SDK's folder, reached by name (sdks)
            from ..openai_agents import state as state_io
        else:
            state_io = sdk_module("python", "state")

        config = RunConfig(tracing_disabled=True)
        for attempt in (1, 2):
            try:
                result = await Runner.run(
                    self.agent, value, session=self.session_of(name), run_config=config
                )
            except openai.APIStatusError:
                self.outcomes.append(f"{name}: refused")
                return
            except Exception as error:
                self.outcomes.append(f"{name}: error {type(error).__name__} (attempt {attempt})")
                continue
            if result.interruptions:
                text = state_io.to_text(result.to_state())  # kept as an application keeps it
                self.workers[name].state = await state_io.restore(self.agent, text)
                self.outcomes.append(f"{name}: paused")
            else:
                self.outcomes.append(f"{name}: answered")
            return


_RUNS = itertools.count()


async def _run_trial(trial: Trial, wrapped: bool, folder: Path) -> Record:
    from ..study.capture import sdk_version

    backing = Backing(trial, folder, f"{SESSION_ID}-{os.getpid()}-{next(_RUNS)}")
    stored = backing.stored if trial.ledger else _nothing
    probe = Probe(trial.fault, trial.latency_ms, stored, random.Random(trial.seed))
    conversation = _Conversation(trial, wrapped, backing, probe)
    marks: list[int] = []  # store calls made when each step ended
    seconds: list[float] = []  # each step's wall time
    cpu: list[float] = []  # and the CPU time of the process, its threads included
    try:
        await backing.seed(trial.history)
        initial = await backing.stored()
        for step in trial.steps:
            start, started = time.perf_counter(), time.process_time()
            await conversation.take(step)
            seconds.append(time.perf_counter() - start)
            cpu.append(time.process_time() - started)
            marks.append(len(probe.ops))
        final = await backing.stored()
    finally:
        await backing.close()
    return {
        "trial": trial.to_json(),
        "wrapped": wrapped,
        "sdk": sdk_version(),
        "initial": initial,
        "ledger": probe.ledger,
        "stored": final,
        "model_inputs": conversation.model.requests,
        "compaction_inputs": conversation.client.requests,
        "outcomes": conversation.outcomes,
        "refused": conversation.model.refused,
        "ops": probe.ops,
        "marks": marks,
        "seconds": seconds,
        "cpu": cpu,
        "injected": probe.injected,
    }


async def _nothing() -> list[Item]:
    return []


def run_trials(trials: Sequence[Trial], wrapped: Sequence[bool] = (True, False)) -> list[Record]:
    """Each trial run here, once for each of ``wrapped`` (with the workaround, bare)."""

    async def run_all() -> list[Record]:
        records = []
        for trial in trials:
            for wrap in wrapped:
                with tempfile.TemporaryDirectory(
                    prefix="approval-compaction-pyfuzz-", dir=paths.scratch()
                ) as folder:
                    records.append(await _run_trial(trial, wrap, Path(folder)))
        return records

    return asyncio.run(run_all())


def run_in(
    python: str, trials: Sequence[Trial], wrapped: Sequence[bool] = (True, False)
) -> list[Record]:
    """``run_trials`` in another interpreter (a release's own environment)."""
    from ..lab.releases import environments

    plan = {"trials": [t.to_json() for t in trials], "wrapped": list(wrapped)}
    with tempfile.TemporaryDirectory(prefix="approval-compaction-pyfuzz-") as folder:
        path = Path(folder) / "plan.json"
        path.write_text(json.dumps(plan))
        command = [python, "-m", "approval_compaction.testing.pyfuzz", str(path)]
        done = environments.run(command, TIMEOUT, env=environments.isolated_environ())
    if done.returncode != 0:
        raise RuntimeError(f"the Python store fuzzer failed: {done.stderr.strip()[-800:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


# The judge: what one record broke, read with the study's pairing judge.


def _identity(item: Item) -> str:
    return json.dumps(item, sort_keys=True)


def lost(record: Record) -> list[str]:
    """Items the store held that are gone at the end, neither replaced by a compaction that
    committed nor dead calls where last seen. What a failed write added is not owed."""
    held: dict[str, bool] = {}  # identity -> whether it was a dead call where last seen
    covered: set[str] = set()
    compactions: set[str] = set()
    current: list[Item] = record["initial"]
    before_clear = current

    def note(items: list[Item], failed: bool = False) -> None:
        dead = {u.position for u in dead_items(items)}
        for position, item in enumerate(items):
            if not failed or _identity(item) in held:
                held[_identity(item)] = position in dead

    note(current)
    compactions |= {_identity(i) for i in current if i.get("type") == "compaction"}
    for write in record["ledger"]:
        if write["op"] in ("clear", "replace"):
            before_clear = current
        fresh = [
            i for i in write["after"]
            if i.get("type") == "compaction" and _identity(i) not in compactions
        ]  # fmt: skip
        if fresh:
            covered |= {_identity(i) for i in [*before_clear, *current]}
            compactions |= {_identity(i) for i in fresh}
        current = write["after"]
        note(current, write["failed"])
    final = {_identity(i) for i in record["stored"]}
    return sorted(k for k, dead in held.items() if k not in final and k not in covered and not dead)


def duplicated(record: Record) -> list[str]:
    """Items stored more than once at the end."""
    keys = [_identity(i) for i in record["stored"]]
    return sorted({k for k in keys if keys.count(k) > 1})


@dataclass(frozen=True)
class Problems:
    """What one trial broke, by promise (each list empty when it holds)."""

    lost: list[str]
    duplicated: list[str]
    unpaired_inputs: list[str]  # model inputs and compaction requests
    unpaired_stored: list[str]  # outputs stored without their call: the session is poisoned

    def any(self) -> bool:
        return bool(self.lost or self.duplicated or self.unpaired_inputs or self.unpaired_stored)


def problems(record: Record) -> Problems:
    """The promises one trial broke."""
    unpaired: list[str] = []
    for n, items in enumerate(record["model_inputs"]):
        unpaired += [f"model input {n}: output {k} without its call" for k in orphan_outputs(items)]
    for n, items in enumerate(record["compaction_inputs"]):
        unpaired += [f"compaction {n}: output {k} without its call" for k in orphan_outputs(items)]
        unpaired += [f"compaction {n}: call {k} without its output" for k in open_calls(items)]
    stored = [f"output {k} without its call" for k in orphan_outputs(record["stored"])]
    return Problems(lost(record), duplicated(record), unpaired, stored)


@dataclass(frozen=True)
class Tally:
    """How many trials of a set broke each promise (a trial counts once per promise)."""

    trials: int
    faults: int  # trials in which a fault was injected
    lost: int
    duplicated: int
    unpaired_inputs: int
    poisoned: int  # an output stored without its call at the end
    refused: int  # trials in which the model refused a request


def tally(records: Sequence[Record]) -> Tally:
    """Count what ``records`` broke."""
    found = [problems(r) for r in records]
    return Tally(
        trials=len(records),
        faults=sum(bool(r["injected"]) for r in records),
        lost=sum(bool(p.lost) for p in found),
        duplicated=sum(bool(p.duplicated) for p in found),
        unpaired_inputs=sum(bool(p.unpaired_inputs) for p in found),
        poisoned=sum(bool(p.unpaired_stored) for p in found),
        refused=sum(bool(r["refused"]) for r in records),
    )


def in_contract(trial: Trial) -> bool:
    """Whether the workaround promises the trial every promise: a store with a conditional
    write (SQLite, SQLAlchemy), or one writer at a time (no ``Race``), as the SDK asks of an
    application that resumes a run (``resume_pending_session_write``: "serialize access")."""
    return trial.store in ("sqlite", "sqlalchemy") or not any(
        isinstance(step, Race) for step in trial.steps
    )


# The trials.

CALL = {"type": "function_call", "call_id": "old-call", "name": "protected_lookup",
        "arguments": '{"value": "old"}', "status": "completed"}  # fmt: skip
HISTORIES: dict[str, tuple[Item, ...]] = {
    "empty": (),
    "plain": (
        {"role": "user", "content": "earlier question"},
        {"role": "assistant", "content": "earlier answer"},
    ),
    "answered": (
        {"role": "user", "content": "earlier question"},
        CALL,
        {"type": "function_call_output", "call_id": "old-call", "output": "synthetic:old"},
        {"role": "assistant", "content": "earlier answer"},
    ),
    "dead": (
        {"role": "user", "content": "abandoned question"},
        CALL,
        {"role": "user", "content": "earlier question"},
        {"role": "assistant", "content": "earlier answer"},
    ),
}
SCENARIOS = ("prompt", "late", "race", "abandoned")
PARALLEL = 50  # dead calls per abandoned turn in ``long_history``


def long_history(size: int, dead: int, parallel: int = PARALLEL) -> tuple[Item, ...]:
    """About ``size`` items: ``dead`` calls abandoned ``parallel`` at a time (a question, the
    calls, never answered), then turns of a question, an answered call and an answer."""
    items: list[Item] = []
    for turn in range(0, dead, parallel):
        items.append({"role": "user", "content": f"abandoned {turn}"})
        items += [
            {**CALL, "call_id": f"dead-{turn + n}"} for n in range(min(parallel, dead - turn))
        ]
    turn = 0
    while len(items) < size:
        call_id = f"done-{turn}"
        items += [
            {"role": "user", "content": f"question {turn}"},
            {**CALL, "call_id": call_id},
            {"type": "function_call_output", "call_id": call_id, "output": "synthetic:done"},
            {"role": "assistant", "content": f"answer {turn}"},
        ]
        turn += 1
    return tuple(items)


def draw(seed: int, *, fault_ops: int = 24) -> Trial:
    """A trial drawn from ``seed``: a store, a history, the hook, the handles, the latency, the
    steps (a pause, then the scenario: a prompt resume, a late one after another worker's
    question, the two raced, or the approval abandoned; then a later question) and, in half the
    trials, a fault at one of the first ``fault_ops`` store calls."""
    rng = random.Random(seed)
    scenario = rng.choice(SCENARIOS)
    steps: list[Step] = [Ask("a", pause=True)]
    if scenario == "prompt":
        steps.append(Resume("a", approve=rng.random() < 0.8))
    elif scenario == "late":
        steps += [Ask("b"), Resume("a", approve=rng.random() < 0.8)]
    elif scenario == "race":
        offsets = (rng.uniform(0, 10), rng.uniform(0, 10))
        steps.append(Race((Resume("a", approve=rng.random() < 0.8), Ask("b")), offsets))
    else:
        steps.append(Ask("b"))
    steps.append(Ask(rng.choice("abc")))
    fault = None
    if rng.random() < 0.5:
        fault = Fault(rng.randrange(fault_ops), rng.choice(("fail", "lost")))
    return Trial(
        steps=tuple(steps),
        store=rng.choice(("sqlite", "sqlite", "list")),
        handles=rng.choice(("kept", "per_request")),
        hook=rng.random() < 0.8,
        history=HISTORIES[rng.choice(list(HISTORIES))],
        latency_ms=rng.choice((0.0, 1.0, 3.0, 10.0)),
        fault=fault,
        seed=seed,
    )


def races(
    handles: Handles,
    *,
    count: int = 40,
    span_ms: float = 40.0,
    latency_ms: float = 10.0,
    store: StoreKind = "sqlite",
) -> list[Trial]:
    """The issue's race, at ``count`` start times: worker ``a`` pauses; worker ``b``'s question
    (the hook says compact, so its turn retires ``a``'s call) and ``a``'s resume start together,
    the resume ``span_ms * k / count`` later; then a later question. Reads answer up to
    ``latency_ms`` late (a seed of its own for each start time)."""
    return [
        Trial(
            steps=(
                Ask("a", pause=True),
                Race((Ask("b"), Resume("a")), (0.0, span_ms * k / count)),
                Ask("c"),
            ),
            store=store,
            handles=handles,
            latency_ms=latency_ms,
            seed=k,
        )
        for k in range(count)
    ]


def reads_per_step(record: Record) -> list[int]:
    """How many store reads each step of the trial made."""
    ops, counts, start = record["ops"], [], 0
    for end in record["marks"]:
        counts.append(ops[start:end].count("read"))
        start = end
    return counts


def single_faults(trial: Trial, record: Record) -> Iterator[Trial]:
    """The trial once for each store call its clean run (``record``) made and each way that
    call can fail: a read fails; a write fails, or commits and loses its acknowledgement."""
    for op, kind in enumerate(record["ops"]):
        modes: tuple[FaultMode, ...] = ("fail",) if kind == "read" else ("fail", "lost")
        for mode in modes:
            yield replace(trial, fault=Fault(op, mode))


def main(argv: Sequence[str] = ()) -> None:
    """Read a plan (``{"trials": [...], "wrapped": [...]}``) from the file named first in
    ``argv`` (else stdin); print one record a line."""
    plan = json.loads(Path(argv[0]).read_text()) if argv else json.load(sys.stdin)
    trials = [Trial.from_json(t) for t in plan["trials"]]
    for record in run_trials(trials, plan.get("wrapped", (True, False))):
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

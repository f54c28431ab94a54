"""Workaround: defer automatic compaction while the latest exchange holds an unfinished group.

``defer_compaction_while_pending(session)`` brings 0.24.0's rule to the releases before it: an
automatic compaction whose items hold a call without its output, or a hosted MCP approval request
without its response, does not run; one the application asks for (``run_compaction()``) does.
It upgrades the given ``OpenAIResponsesCompactionSession`` in place to
``DeferCompactionWhilePending``, a subclass (or the one inside an ``EncryptedSession``), and
returns it. It promises: the decision reads only the latest model exchange; a *dead* call or
request (``analysis.pairing.dead_items``) is retired from the store before the compaction the
hook approved, so compaction never waits for good; a request without its response is left out
of a new turn's history (from 0.22.1); an output stored after its call was retired becomes an
assistant message saying what the tool returned. ``retirements``, ``withheld`` and
``late_outputs`` record each. Why, the releases and the evidence: ``docs/workaround.md``.
"""

from __future__ import annotations

import inspect
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.memory import OpenAIResponsesCompactionSession

from ..analysis.healing import healed_message
from ..analysis.pairing import CALL_TO_OUTPUT, OUTPUT_TO_CALL, Unpaired, dead_items, find_unpaired
from ..study.items import Item

logger = logging.getLogger("approval_compaction.workaround")
KEPT_DEFERRALS = 64
# Releases whose runner does not hand the session the latest model exchange: look this far back.
LEGACY_WINDOW = 64
LATE_PREFIX = "[workaround] "  # begins a late output stored as text
_LOCKED = hasattr(OpenAIResponsesCompactionSession, "_run_compaction_locked")
# From 0.22.1 the runner reads a new turn's history through this hook, with the reader its
# ``_session_get_items`` defines; the one other caller (settling a resumed run's pending write)
# passes a lambda, and is answered as the SDK answers it.
_NEW_TURN_READ = hasattr(OpenAIResponsesCompactionSession, "_get_items_with_generation")
NEW_TURN_READER = "_session_get_items.<locals>.read_items"

ReadItems = Callable[[int | None], Awaitable[tuple[list[Any], bool]]]
Hook = Callable[[dict[str, Any]], bool]
Proceed = Callable[[], Awaitable[None]]


def _mentions(cls: type[Any], name: str) -> bool:
    try:
        return name in inspect.getsource(cls)
    except (OSError, TypeError):  # no source to read: assume the older runner
        return False


# From 0.23 the runner marks its automatic compactions and hands over the model exchange;
# before, a compaction the runner asks for is told apart by the response id it always passes.
_MARKED = _mentions(OpenAIResponsesCompactionSession, "_session_compaction_is_automatic")


@dataclass(frozen=True)
class Retirement:
    """Dead calls and requests (``type:key``) removed from the store before an automatic
    compaction, and the items read."""

    removed: tuple[str, ...]
    items_read: int


@dataclass(frozen=True)
class LateOutput:
    """Outputs (``type:key``) stored as text because their call was no longer stored, and the
    stored items read to tell."""

    rewritten: tuple[str, ...]
    items_read: int


@dataclass(frozen=True)
class Withheld:
    """Hosted MCP approval requests (``type:key``) left out of a new turn's model input, their
    response absent from the history read for it."""

    left_out: tuple[str, ...]
    items_read: int


@dataclass(frozen=True)
class Deferral:
    """One compaction the session skipped, and the open items that made it wait."""

    args: dict[str, Any]
    open_items: tuple[str, ...]
    items_read: int  # stored items read for this decision (0: the session's own view sufficed)


PAIRING_FIELDS = ("type", "call_id", "id", "approval_request_id")


def pairing_view(item: Any) -> Item | None:
    """The fields pairing reads, from a dict or an SDK model; None for an item that never pairs."""
    mapping = isinstance(item, Mapping)
    kind = item.get("type") if mapping else getattr(item, "type", None)
    if kind not in CALL_TO_OUTPUT and kind not in OUTPUT_TO_CALL:
        return None
    if mapping:
        return {field: item.get(field) for field in PAIRING_FIELDS}
    return {field: getattr(item, field, None) for field in PAIRING_FIELDS}


def open_groups(items: Sequence[Any]) -> list[str]:
    """``type:key`` of every call without its output and approval request without its response.

    Only call and output items are looked at, and only their type and keys: no item is copied
    or serialised, so the scan costs little even over a long exchange.
    """
    plain = [view for view in map(pairing_view, items) if view is not None]
    return [
        f"{u.item_type}:{u.key or '?'}" for u in find_unpaired(plain) if u.problem == "open call"
    ]


def unanswered_requests(items: Sequence[Any]) -> list[int]:
    """The positions of the hosted MCP approval requests that no response in ``items``
    answers (``analysis.pairing``'s matching, by occurrence)."""
    views = [(n, view) for n, view in enumerate(map(pairing_view, items)) if view is not None]
    unpaired = find_unpaired([view for _, view in views])
    return [
        views[u.position][0]
        for u in unpaired
        if u.problem == "open call" and u.item_type == "mcp_approval_request"
    ]


def _rule_view(item: Any) -> Item:
    """The fields the dead-item rule reads (pairing's and ``role``), from a dict or a model."""
    names = (*PAIRING_FIELDS, "role")
    if isinstance(item, Mapping):
        return {field: item.get(field) for field in names}
    return {field: getattr(item, field, None) for field in names}


def _plain(item: Any) -> Item:
    """An item as the dict the runner stores (an SDK model dumped as JSON)."""
    if isinstance(item, Mapping):
        return dict(item)
    dumped: Item = item.model_dump(exclude_unset=True, mode="json")
    return dumped


def _named(u: Unpaired) -> str:
    return f"{u.item_type}:{u.key or '?'}"


def split_open(items: Sequence[Any]) -> tuple[list[str], list[str]]:
    """The open groups still waited for, and the dead ones (``analysis.pairing.dead_items``),
    each as ``type:key``."""
    views = [_rule_view(item) for item in items]
    dead = dead_items(views)
    gone = {u.position for u in dead}
    opened = [u for u in find_unpaired(views) if u.problem == "open call"]
    return [_named(u) for u in opened if u.position not in gone], [_named(u) for u in dead]


def is_automatic(wrapper: Any) -> bool:
    """Whether the runner, not the application, asked for this compaction."""
    return bool(getattr(wrapper, "_session_compaction_is_automatic", False))


def exchange_window(wrapper: Any) -> int:
    """How many stored items the latest model exchange can cover (0: the runner gave none)."""
    exchange = getattr(wrapper, "_session_compaction_model_exchange", None)
    if not exchange:
        return 0
    model_items = exchange[0]
    return len(model_items) + 1 if model_items else 0


def automatic_window(args: dict[str, Any], wrapper: Any, marked: bool | None = None) -> int:
    """How many latest items an automatic compaction is checked over; 0 if not automatic."""
    if _MARKED if marked is None else marked:
        return exchange_window(wrapper) if is_automatic(wrapper) else 0
    return LEGACY_WINDOW if args.get("response_id") else 0


class DeferCompactionWhilePending(OpenAIResponsesCompactionSession):
    """The SDK's compaction session, which waits while a call or approval is unanswered.

    On a runner that marks its automatic compactions (0.23 and later), the decision sits behind
    the session's decision hook: when the hook approves an automatic compaction, the items the
    SDK handed it (the history it already holds, or its own bounded view) are checked over the
    latest exchange, so a declined or impossible compaction reads nothing more. A forced
    automatic compaction skips the hook; only then is the latest exchange read, with its bound.
    """

    deferrals: deque[Deferral]
    retirements: deque[Retirement]
    late_outputs: deque[LateOutput]
    withheld: deque[Withheld]
    items_read: int  # stored items read by deferral decisions, over the session's life
    _hook: Hook
    _automatic_call: tuple[dict[str, Any], int] | None  # (args, window) while one runs

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._start_deferring()
        super().__init__(*args, **kwargs)

    def _start_deferring(self) -> None:
        self.deferrals = deque(maxlen=KEPT_DEFERRALS)  # the latest ones
        self.retirements = deque(maxlen=KEPT_DEFERRALS)
        self.late_outputs = deque(maxlen=KEPT_DEFERRALS)
        self.withheld = deque(maxlen=KEPT_DEFERRALS)
        self.items_read = 0
        self._automatic_call = None
        self._retiring = False  # the latest automatic decision found only dead items open
        if "should_trigger_compaction" in self.__dict__:  # an instance upgraded in place
            self._hook = self.__dict__.pop("should_trigger_compaction")

    @property
    def should_trigger_compaction(self) -> Hook:
        """The decision hook; during an automatic compaction, the hook and then the deferral."""
        return self._decide if self._automatic_call is not None else self._hook

    @should_trigger_compaction.setter
    def should_trigger_compaction(self, hook: Hook) -> None:
        self._hook = hook

    def _decide(self, context: dict[str, Any]) -> bool:
        if not self._hook(context):
            return False
        assert self._automatic_call is not None
        args, window = self._automatic_call
        items = list(context.get("session_items") or [])[-window:]
        live, dead = split_open(items)
        if dead and not live:  # retire the dead calls first, then compact (``_deferring``)
            self._retiring = True
            return False
        return not self._wait(args, live + dead, 0)

    def _wait(self, args: dict[str, Any], pending: list[str], items_read: int) -> bool:
        if pending:
            self.deferrals.append(Deferral(args, tuple(pending), items_read))
            logger.info("deferred compaction: history holds %s", ", ".join(pending))
        return bool(pending)

    async def _latest_items(self, window: int, read_items: ReadItems | None) -> list[Any]:
        """The last ``window`` items: from the session's own cache, else one bounded read."""
        cached = getattr(self, "_session_items", None)  # absent on old releases
        if read_items is None and cached is not None:
            return list(cached[-window:])
        if read_items is not None:  # an outer session's view (EncryptedSession decrypts)
            items, _ = await read_items(window)
        else:
            items = await self.underlying_session.get_items(limit=window)
        self.items_read += len(items)
        return list(items)[-window:]

    async def _read_and_wait(
        self, args: dict[str, Any], read_items: ReadItems | None, window: int
    ) -> bool:
        before = self.items_read
        items = await self._latest_items(window, read_items)
        live, dead = split_open(items)
        if dead and not live:
            await self._retire()
            return False
        return self._wait(args, live + dead, self.items_read - before)

    async def _retire(self) -> None:
        """Remove every dead call and request of the whole history from the store (read once,
        so a dead call older than the exchange that showed one is not left to stop the
        compaction a turn later), then replace the history as the SDK replaces it when it
        compacts, with its rollback where the release has one."""
        store = self.underlying_session
        items = list(await store.get_items())
        self.items_read += len(items)
        dead = dead_items([_rule_view(item) for item in items])
        gone = {u.position for u in dead}
        kept = [item for n, item in enumerate(items) if n not in gone]
        if not gone:
            return
        replace = getattr(self, "_replace_underlying_session_items", None)
        if replace is not None:
            await replace(output_items=kept, previous_items=items)
        else:  # releases before 0.16.1: clear, add, and put the history back if adding fails
            await store.clear_session()
            try:
                await store.add_items(kept)
            except BaseException:
                await store.clear_session()
                await store.add_items(items)
                raise
        for name in ("_session_items", "_compaction_candidate_items"):  # the SDK's caches
            if getattr(self, name, None) is not None:
                setattr(self, name, None)
        removed = tuple(sorted({_named(u) for u in dead}))
        self.retirements.append(Retirement(removed, len(items)))
        logger.info("retired dead calls before compaction: %s", ", ".join(removed))

    async def _as_stored(self, items: list[Any]) -> list[Any]:
        """The batch to store: each output whose call is neither earlier in it nor stored
        becomes the text ``healed_message`` makes of it (see above). Only call and output
        items are looked at (``pairing_view``): messages never change whether an output pairs."""
        batch = [(n, view) for n, view in enumerate(map(pairing_view, items)) if view is not None]
        if not any(u.problem == "orphan output" for u in find_unpaired([v for _, v in batch])):
            return items
        cached = getattr(self, "_session_items", None)
        stored = cached if cached is not None else await self.underlying_session.get_items()
        read = 0 if cached is not None else len(stored)
        self.items_read += read
        earlier = [view for view in map(pairing_view, stored) if view is not None]
        judged = find_unpaired(earlier + [v for _, v in batch])
        late = [u for u in judged if u.problem == "orphan output" and u.position >= len(earlier)]
        if not late:
            return items
        gone = {batch[u.position - len(earlier)][0] for u in late}
        kept = [
            healed_message(_plain(item), LATE_PREFIX) if n in gone else item
            for n, item in enumerate(items)
        ]
        rewritten = tuple(_named(u) for u in late)
        self.late_outputs.append(LateOutput(rewritten, read))
        logger.info("stored late outputs as text, their calls gone: %s", ", ".join(rewritten))
        return kept

    async def _deferring(
        self, args: Any, wrapper: Any, read_items: ReadItems | None, proceed: Proceed
    ) -> None:
        """Run ``proceed`` (the SDK's compaction), deferring it if automatic and a group is open."""
        plain = dict(args or {})
        window = automatic_window(plain, wrapper)
        if not window:
            await proceed()
            return
        if plain.get("force"):  # the SDK skips the hook: read the latest exchange ourselves
            if not await self._read_and_wait(plain, read_items, window):
                await proceed()
            return
        self._automatic_call, self._retiring = (plain, window), False
        try:
            await proceed()
            if self._retiring:  # the hook said yes; only dead calls stood in the way
                await self._retire()
                self._retiring = False
                await proceed()
        finally:
            self._automatic_call, self._retiring = None, False

    if _NEW_TURN_READ:

        async def _get_items_with_generation(self, read_items: Any) -> tuple[list[Any], int]:
            """The runner's read of the history a new turn's model input starts from
            (``prepare_input_with_session`` adds the new input after it; a resumed run takes its
            input from the paused state instead): an MCP approval request without its response
            is left out, as the SDK leaves an open tool call out (``drop_orphan_function_calls``).
            The new input makes it dead (``analysis.pairing``), so it is never sent; it stays
            stored until a compaction retires it. Any other read is the SDK's own."""
            items, generation = await super()._get_items_with_generation(read_items)
            if getattr(read_items, "__qualname__", None) != NEW_TURN_READER:
                return items, generation
            gone = set(unanswered_requests(items))
            if not gone:
                return items, generation
            kept = [item for n, item in enumerate(items) if n not in gone]
            views = [pairing_view(items[n]) for n in sorted(gone)]
            names = tuple(f"mcp_approval_request:{(v or {}).get('id') or '?'}" for v in views)
            self.withheld.append(Withheld(names, len(items)))
            logger.info("left unanswered MCP requests out of a new turn: %s", ", ".join(names))
            return kept, generation

    if _LOCKED:

        async def _run_compaction_locked(self, args: Any, *, wrapper: Any, **hooks: Any) -> None:
            """Under the session's lock: an automatic compaction waits for open groups."""
            base = super()._run_compaction_locked
            await self._deferring(
                args, wrapper, hooks.get("read_items"), lambda: base(args, wrapper=wrapper, **hooks)
            )

        async def _add_items_locked(self, items: list[Any]) -> None:
            """Under the session's lock: a late output is stored as text (``_as_stored``)."""
            await super()._add_items_locked(await self._as_stored(list(items)))

    else:  # releases before the session's lock

        async def add_items(self, items: list[Any]) -> None:
            """A late output is stored as text (``_as_stored``), then the SDK stores the batch."""
            await super().add_items(await self._as_stored(list(items)))

        async def run_compaction(self, args: Any = None, **kwargs: Any) -> None:
            """An automatic compaction waits for open groups, then runs as the SDK's would."""
            base = super().run_compaction
            await self._deferring(args, kwargs.get("wrapper"), None, lambda: base(args, **kwargs))


_DEFERRING: dict[type[Any], type[Any]] = {
    OpenAIResponsesCompactionSession: DeferCompactionWhilePending
}


def _deferring_class(cls: type[Any]) -> type[Any]:
    """The deferring form of a compaction session class (a user's subclass keeps its methods)."""
    if cls not in _DEFERRING:
        _DEFERRING[cls] = type(f"Deferring{cls.__name__}", (DeferCompactionWhilePending, cls), {})
    return _DEFERRING[cls]


def _compaction_session(session: Any) -> OpenAIResponsesCompactionSession:
    """The compaction session itself, or the one an outer session (EncryptedSession) wraps."""
    seen = session
    for _ in range(8):  # outer sessions nest a few deep at most
        if isinstance(seen, OpenAIResponsesCompactionSession):
            return seen
        seen = getattr(seen, "__dict__", {}).get("underlying_session")
        if seen is None:
            break
    raise TypeError(
        f"{type(session).__name__} is not an OpenAIResponsesCompactionSession and wraps none: "
        "nothing to defer"
    )


def defer_compaction_while_pending(session: Any) -> Any:
    """Make a compaction session wait for every call's output before it compacts automatically.

    The session (or the compaction session inside an outer one such as ``EncryptedSession``)
    becomes a ``DeferCompactionWhilePending`` in place; the given session is returned.
    """
    inner = _compaction_session(session)
    if not isinstance(inner, DeferCompactionWhilePending):
        inner.__class__ = _deferring_class(type(inner))
        assert isinstance(inner, DeferCompactionWhilePending)
        inner._start_deferring()
    return session

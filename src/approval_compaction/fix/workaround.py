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

import asyncio
import copy
import inspect
import logging
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.memory import OpenAIResponsesCompactionSession
from agents.memory import openai_responses_compaction_session as _sdk_session

from ..analysis.healing import healed_message
from ..analysis.pairing import (
    CALL_TO_OUTPUT,
    COMPACTION,
    OUTPUT_TO_CALL,
    Unpaired,
    dead_items,
    find_unpaired,
)
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
# From 0.16.1 a compaction replaces the whole history through this method, with its rollback.
_REPLACES = hasattr(OpenAIResponsesCompactionSession, "_replace_underlying_session_items")
NEW_TURN_READER = "_session_get_items.<locals>.read_items"

# Every stored item, as the SDK asks for the whole history (``_ALL_SESSION_ITEMS_LIMIT``): a
# store's ``session_settings.limit`` would otherwise cut a read with no limit.
ALL_ITEMS = 2_147_483_647
WRITE_ATTEMPTS = 8  # reads and conditional writes of one batch while other writers come first
RESTORE_ATTEMPTS = 3  # times a history is put back after a failed replacement
# The SDK's function that writes a resumed batch and keeps its record in ``pending`` (0.22.1 on).
PENDING_WRITER = "resume_pending_session_write"

ReadItems = Callable[[int | None], Awaitable[tuple[list[Any], bool]]]
SnapshotReader = Callable[[int], Awaitable[Any]]  # the SDK's ``_get_compaction_snapshot``
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


MCP_TYPES = frozenset(("mcp_approval_request", "mcp_approval_response"))


def _field(item: Any, name: str) -> Any:
    """One field of an item, a dict or an SDK model."""
    if type(item) is dict:  # what stores return: the exact type is checked fastest
        return item.get(name)
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name, None)


def _kind(item: Any) -> Any:
    return _field(item, "type")


def unanswered_requests(items: Sequence[Any]) -> list[int]:
    """The positions of the hosted MCP approval requests that no response in ``items``
    answers (``analysis.pairing``'s matching, by occurrence). Requests pair only with
    responses, so only those two kinds are viewed: one pass that reads each item's type."""
    positions = [n for n, item in enumerate(items) if _kind(item) in MCP_TYPES]
    if not positions:
        return []
    views = [(n, pairing_view(items[n])) for n in positions]
    unpaired = find_unpaired([view for _, view in views if view is not None])
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


_RULED = frozenset((*CALL_TO_OUTPUT, *OUTPUT_TO_CALL, COMPACTION))


def rule_views(items: Sequence[Any]) -> tuple[list[int], list[Item]]:
    """The items the dead-item rule reads (calls, outputs, compaction items and the user's
    messages), as views (``_rule_view``), and the position of each in ``items``: an assistant
    message or a reasoning item changes nothing the rule decides, so it is not copied."""
    positions, views = [], []
    for n, item in enumerate(items):
        if _field(item, "role") == "user" or _kind(item) in _RULED:
            positions.append(n)
            views.append(_rule_view(item))
    return positions, views


def split_open(items: Sequence[Any]) -> tuple[list[str], list[str]]:
    """The open groups still waited for, and the dead ones (``analysis.pairing.dead_items``),
    each as ``type:key``."""
    _, views = rule_views(items)
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


@dataclass(frozen=True)
class History:
    """The stored history as one read found it, and how to replace the items from a position on
    only while the store still holds them (None: the store offers no such write)."""

    items: list[Any]
    replace_from: Callable[[int, list[Any]], Awaitable[bool]] | None


class HistoryKeptChanging(RuntimeError):
    """A batch could not be stored: other writers changed the session at every attempt."""


async def _settled(step: Awaitable[Any]) -> Any:
    """Await ``step`` to its end even while the caller is being cancelled (a restore half done
    is worse than none), then raise the cancellation."""
    task = asyncio.ensure_future(step)
    cancelled: asyncio.CancelledError | None = None
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError as error:
            cancelled = cancelled or error
    result = task.result()
    if cancelled is not None:
        raise cancelled
    return result


def _pending_write(items: list[Any]) -> dict[str, Any] | None:
    """The SDK's record of the resumed batch this write stores (``resume_pending_session_write``'s
    ``pending``, which a retry with the same ``RunState`` compares the store with), found on
    the caller's stack; None when this write is not one."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == PENDING_WRITER:
            pending = frame.f_locals.get("pending")
            if isinstance(pending, dict) and pending.get("items") == items:
                return pending
            return None
        frame = frame.f_back  # type: ignore[assignment]  # None past the outermost frame
    return None


def _redis_replace(
    store: Any, items: list[Any]
) -> Callable[[int, list[Any]], Awaitable[bool]] | None:
    """For the SDK's ``RedisSession`` (its own class, not a subclass, which may store items
    otherwise), which has no snapshot: a replacement of the items from a position on, in one
    transaction (``WATCH``, ``MULTI``) that holds only while the stored list is ``items``, the
    history read; None for any other store."""
    try:
        from agents.extensions.memory.redis_session import RedisSession
        from redis.exceptions import WatchError
    except ImportError:  # the [redis] extra is not installed: no RedisSession to meet
        return None
    if type(store) is not RedisSession:
        return None
    key = store._messages_key

    async def replace_from(start: int, output: list[Any]) -> bool:
        rows = [await store._serialize_item(item) for item in output]
        async with store._redis.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(key)
                found, places = [], []  # the items get_items reads, and where each is stored
                stored = await pipe.lrange(key, 0, -1)
                for place, raw in enumerate(stored):
                    try:
                        text = raw.decode() if isinstance(raw, bytes) else raw
                        found.append(await store._deserialize_item(text))
                    except (ValueError, UnicodeDecodeError):  # skipped, as get_items skips it
                        continue
                    places.append(place)
                if found != items:
                    return False
                first = places[start] if start < len(places) else len(stored)
                pipe.multi()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
                if first:
                    pipe.ltrim(key, 0, first - 1)
                else:
                    pipe.delete(key)
                if rows:
                    pipe.rpush(key, *rows)
                pipe.hset(store._session_key, "updated_at", str(int(time.time())))
                if store._ttl is not None:
                    pipe.expire(store._session_key, store._ttl)
                    pipe.expire(key, store._ttl)
                await pipe.execute()
            except WatchError:  # another writer came between the comparison and the write
                return False
        return True

    return replace_from


class DeferCompactionWhilePending(OpenAIResponsesCompactionSession):
    """The SDK's compaction session, which waits while a call or approval is unanswered.

    On a runner that marks its automatic compactions (0.23 and later), the decision sits behind
    the session's decision hook: when the hook approves an automatic compaction, the items the
    SDK handed it (the history it already holds, or its own bounded view) are checked over the
    latest exchange, so a declined or impossible compaction reads nothing more. A forced
    automatic compaction skips the hook; only then is the latest exchange read, with its bound.

    What it writes itself (a retirement, a batch holding an output whose call is not in it) is
    judged on the store as one read finds it, never on the SDK's in-memory copy, which another
    worker's writes leave behind; where the store replaces its latest items in one transaction
    on the condition that they are unchanged (``_get_compaction_snapshot``: the SDK's SQLite,
    async SQLite and SQLAlchemy stores), the write is that transaction, so a writer that came
    between the read and the write makes it read and judge again.
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
        self._unrepaired: BaseException | None = None  # a failure that left history lost
        self._retired = False  # a forced compaction's decision retired dead calls
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
        """The last ``window`` items, in one bounded read of the store (the SDK's in-memory copy
        misses what another session object on the same store wrote)."""
        if read_items is not None:  # an outer session's view (EncryptedSession decrypts)
            items, _ = await read_items(window)
        else:
            items = await self.underlying_session.get_items(limit=window)
        self.items_read += len(items)
        return list(items)[-window:]

    async def _must_wait(
        self,
        args: dict[str, Any],
        read_items: ReadItems | None,
        window: int,
        read_snapshot: SnapshotReader | None,
    ) -> bool:
        """A forced automatic compaction's decision, on the latest exchange read here: whether
        it waits (an open group, or dead calls that could not be retired)."""
        before = self.items_read
        items = await self._latest_items(window, read_items)
        live, dead = split_open(items)
        if dead and not live:
            self._retired = await self._retire(read_snapshot)
            return not self._retired
        return self._wait(args, live + dead, self.items_read - before)

    async def _read_history(self, read_snapshot: SnapshotReader | None = None) -> History:
        """Every stored item, read once: through the store's snapshot where it has one (rows
        it can replace on the condition that they are unchanged), else ``get_items``."""
        store = self.underlying_session
        reader = read_snapshot or getattr(store, "_get_compaction_snapshot", None)
        if reader is not None:
            snapshot = await reader(ALL_ITEMS)
            if snapshot is not None and snapshot.complete:
                self.items_read += len(snapshot.items)
                return History(list(snapshot.items), snapshot.replace_suffix)
        items = list(await store.get_items(limit=ALL_ITEMS))
        self.items_read += len(items)
        return History(items, _redis_replace(store, items) if read_snapshot is None else None)

    def _remember(self, items: list[Any] | None) -> None:
        """Set the SDK's in-memory copy of the history (and its candidates) to what the store
        holds after a write of ours, or drop it (None) so that the SDK reads the store again;
        and count the write, as the SDK counts each of its own (``_mutation_generation``)."""
        if hasattr(self, "_mutation_generation"):
            self._mutation_generation += 1
        if not hasattr(self, "_session_items"):
            return
        normalize = getattr(_sdk_session, "_normalize_compaction_session_items", None)
        select = getattr(_sdk_session, "select_compaction_candidate_items", None)
        if items is None or normalize is None or select is None:
            self._session_items = self._compaction_candidate_items = None
            return
        history = normalize(list(items))
        self._session_items, self._compaction_candidate_items = history, select(history)

    async def _retire(self, read_snapshot: SnapshotReader | None = None) -> bool:
        """Remove every dead call and request of the whole history from the store (read once,
        so a dead call older than the exchange that showed one is not left to stop the
        compaction a turn later); whether the compaction may go on.

        Where the store has a snapshot, only the items from the first dead one on are
        replaced, in one transaction that holds only while they are as read. Elsewhere the whole
        history is replaced: in one step where the store offers it (``_atomic_replace_items``),
        else by clearing and adding, and the history read is put back after any failure. A
        failure that leaves the history whole is logged, not raised: the turn's answer is
        stored, and the next turn's compaction tries again."""
        try:
            history = await self._read_history(read_snapshot)
        except Exception as error:
            logger.warning(
                "compaction waits: reading the history to retire dead calls failed: %r", error
            )
            return False
        items = history.items
        positions, views = rule_views(items)
        dead = dead_items(views)
        if not dead:
            if read_snapshot is None:
                self._remember(items)
            return True
        gone = {positions[u.position] for u in dead}
        first = min(gone)
        kept = [item for n, item in enumerate(items) if n not in gone]
        if history.replace_from is not None:
            done = await self._replace_from(history.replace_from, first, kept[first:])
        else:
            done = await self._replace_whole(kept, items)
        if not done:
            return False
        self._remember(kept if read_snapshot is None else None)
        removed = tuple(sorted({_named(u) for u in dead}))
        self.retirements.append(Retirement(removed, len(items)))
        logger.info("retired dead calls before compaction: %s", ", ".join(removed))
        return True

    async def _replace_from(
        self, replace_from: Callable[[int, list[Any]], Awaitable[bool]], start: int, tail: list[Any]
    ) -> bool:
        """The store's one transaction; False when another writer came first, or it failed (it
        is all or nothing, so the history is whole either way)."""
        try:
            done = bool(await replace_from(start, tail))
        except Exception as error:
            self._remember(None)
            logger.warning("compaction waits: retiring dead calls failed, nothing lost: %r", error)
            return False
        if not done:
            logger.info("compaction waits: the history changed while dead calls were retired")
        return done

    async def _replace_whole(self, kept: list[Any], previous: list[Any]) -> bool:
        """Replace the whole history with ``kept``: in one step where the store offers it
        (``_atomic_replace_items``), else by clearing and adding, the history read put back
        after any failure (``_make_whole``). False when it failed and the history is whole."""
        store = self.underlying_session
        limit = getattr(self, "max_rollback_items", None)  # 0.22.x sessions have no such budget
        if limit is not None and len(previous) > limit:
            logger.warning("compaction waits: the history exceeds max_rollback_items")
            return False
        atomic = getattr(type(store), "_atomic_replace_items", None)
        if atomic is not None:
            try:
                if await atomic(store, kept):
                    return True
            except Exception as error:  # one transaction: the history is whole either way
                self._remember(None)
                logger.warning("compaction waits: retiring dead calls failed: %r", error)
                return False
        try:
            await store.clear_session()
            await store.add_items(list(kept))
        except BaseException as error:
            self._remember(None)
            await _settled(self._make_whole(previous, kept, error))
            if not isinstance(error, Exception):
                raise
            logger.warning("compaction waits: retiring dead calls failed, history whole: %r", error)
            return False
        return True

    async def _make_whole(
        self, previous: list[Any], replacement: list[Any], error: BaseException
    ) -> None:
        """After a replacement of the whole history failed (``error``): make sure the store holds
        ``previous`` or ``replacement`` (a clear whose acknowledgement was lost committed all
        the same, and the SDK puts nothing back when its read after it fails). What the store
        holds is read; unless it is one of the two, or if the read fails, ``previous`` is put
        back, ``RESTORE_ATTEMPTS`` times at most. If that fails, ``error`` is raised with the
        restore's error noted, and the session marks it unrepaired."""
        store = self.underlying_session
        try:
            found = list(await store.get_items(limit=ALL_ITEMS))
        except Exception:
            found = None
        if found is not None and (found == list(previous) or found == list(replacement)):
            return
        for attempt in range(1, RESTORE_ATTEMPTS + 1):
            try:
                await store.clear_session()
                if previous:
                    await store.add_items(list(previous))
                return
            except Exception as restore_error:
                if attempt == RESTORE_ATTEMPTS:
                    error.add_note(f"putting the history back failed too: {restore_error!r}")
                    self._unrepaired = error
                    raise error from None

    if _REPLACES:

        async def _replace_underlying_session_items(
            self, *, output_items: list[Any], previous_items: list[Any], **options: Any
        ) -> None:
            """The SDK's replacement of the whole history (a compaction's), which puts back what
            it replaced after a failure; where it could not (its read after a failed clear
            failed too), the history is put back here (``_make_whole``). Its error is raised."""
            try:
                await super()._replace_underlying_session_items(
                    output_items=output_items, previous_items=previous_items, **options
                )
            except BaseException as error:
                await _settled(self._make_whole(previous_items, output_items, error))
                raise

    def _as_stored(self, items: list[Any], stored: list[Any]) -> tuple[list[Any], tuple[str, ...]]:
        """The batch to store after ``stored``: each output whose call is neither earlier in it
        nor stored becomes the text ``healed_message`` makes of it (see above), and the names of
        those. Only call and output items are looked at (``pairing_view``): messages never
        change whether an output pairs."""
        batch = [(n, view) for n, view in enumerate(map(pairing_view, items)) if view is not None]
        earlier = [view for view in map(pairing_view, stored) if view is not None]
        judged = find_unpaired(earlier + [v for _, v in batch])
        late = [u for u in judged if u.problem == "orphan output" and u.position >= len(earlier)]
        if not late:
            return items, ()
        gone = {batch[u.position - len(earlier)][0] for u in late}
        kept = [
            healed_message(_plain(item), LATE_PREFIX) if n in gone else item
            for n, item in enumerate(items)
        ]
        return kept, tuple(_named(u) for u in late)

    async def _store(self, items: list[Any], write: Callable[[list[Any]], Awaitable[None]]) -> None:
        """Store a batch with ``write`` (the SDK's). A batch holding an output whose call is not
        in it is judged on the history read now (``_as_stored``); where the store has a
        snapshot, it is appended in the transaction that holds only while the latest stored item
        is the one read, which every write to the history replaces (else: read and judge
        again). A late output rewritten in a resumed batch is rewritten in the SDK's record of
        that batch too, so that a retry after a lost acknowledgement finds it stored."""
        plain = [view for view in map(pairing_view, items) if view is not None]
        if not any(u.problem == "orphan output" for u in find_unpaired(plain)):
            await write(items)
            return
        for _ in range(WRITE_ATTEMPTS):
            history = await self._read_history()
            batch, late = self._as_stored(items, history.items)
            if late:
                pending = _pending_write(items)
                if pending is not None:
                    pending["items"] = copy.deepcopy(batch)
            if history.replace_from is None or not history.items:
                await write(batch)
            elif not await self._append_if_unchanged(history, batch):
                continue
            if late:
                self.late_outputs.append(LateOutput(late, len(history.items)))
                logger.info("stored late outputs as text, their calls gone: %s", ", ".join(late))
            return
        raise HistoryKeptChanging(
            f"session {self.session_id!r} changed under each of {WRITE_ATTEMPTS} attempts to "
            "store a tool's output: nothing was stored"
        )

    async def _append_if_unchanged(self, history: History, batch: list[Any]) -> bool:
        """Append ``batch`` in the store's one transaction, which replaces the latest stored item
        with itself and holds only while that item is the one ``history`` read."""
        assert history.replace_from is not None
        last = len(history.items) - 1
        try:
            done = bool(await history.replace_from(last, [history.items[last], *batch]))
        except BaseException:
            self._remember(None)  # it may have committed: the SDK reads the store again
            raise
        if done:
            self._remember([*history.items, *batch])
        return done

    async def _deferring(
        self,
        args: Any,
        wrapper: Any,
        read_items: ReadItems | None,
        proceed: Proceed,
        read_snapshot: SnapshotReader | None = None,
    ) -> None:
        """Run ``proceed`` (the SDK's compaction), deferring it if automatic and a group is open."""
        plain = dict(args or {})
        window = automatic_window(plain, wrapper)
        if not window:
            await proceed()
            return
        self._unrepaired, self._retired = None, False
        if plain.get("force"):  # the SDK skips the hook: read the latest exchange ourselves
            if not await self._must_wait(plain, read_items, window, read_snapshot):
                await (self._after_retiring(proceed) if self._retired else proceed())
            return
        self._automatic_call, self._retiring = (plain, window), False
        try:
            await proceed()
            if self._retiring:  # the hook said yes; only dead calls stood in the way
                self._retiring = False
                if await self._retire(read_snapshot):
                    await self._after_retiring(proceed)
        finally:
            self._automatic_call, self._retiring = None, False

    async def _after_retiring(self, proceed: Proceed) -> None:
        """The compaction the retirement let go on, after the turn's answer is stored (the bare
        SDK would not have compacted: its dead calls stopped it): a failure that left the
        history whole (the request refused or cut, a transaction that did not commit, a
        replacement put back) is logged, not raised, so that an application that retries a
        failed turn does not ask its question twice. A failure that lost history is raised.
        Any other compaction fails as the SDK's does."""
        try:
            await proceed()
        except Exception as error:
            if self._unrepaired is error:
                raise
            self._remember(None)
            logger.warning("automatic compaction failed, history whole: %r", error)

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
                args,
                wrapper,
                hooks.get("read_items"),
                lambda: base(args, wrapper=wrapper, **hooks),
                hooks.get("read_snapshot"),
            )

        async def _add_items_locked(self, items: list[Any]) -> None:
            """Under the session's lock: a late output is stored as text (``_store``)."""
            await self._store(list(items), super()._add_items_locked)

    else:  # releases before the session's lock

        async def add_items(self, items: list[Any]) -> None:
            """A late output is stored as text (``_store``), then the SDK stores the batch."""
            await self._store(list(items), super().add_items)

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

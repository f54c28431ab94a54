"""Workaround: defer compaction while the stored history holds an unfinished item group.

On an affected release ``OpenAIResponsesCompactionSession`` compacts the history when a run
pauses for approval, so the pending call is summarised away and the output the resume appends
later has no call. The fix is to wait: while the stored history holds a call without its output
(a tool call waiting for approval, whether it will be approved or rejected) or a hosted MCP
approval request without its response, compaction is skipped; once every group is complete,
the wrapped session compacts as it would have. Apply it in one line, on the pinned release::

    session = defer_compaction_while_pending(OpenAIResponsesCompactionSession(...))

The wrapper follows the SDK's own ``EncryptedSession``: it defines the four ``Session`` methods
and ``run_compaction`` (with the ``wrapper`` keyword, so the runner still passes its run context
and still compacts automatically), and forwards every other attribute, including the private
hooks the runner looks up by name, to the wrapped session. A skipped compaction is not owed:
at the next turn the wrapped session's hook decides afresh, on a history that has only grown.

Wrap the outermost session the runner is given (an ``EncryptedSession`` only exposes compaction
when it directly wraps an ``OpenAIResponsesCompactionSession``). A call whose approval is never
resolved keeps compaction deferred until it is answered or the session is cleared.
"""

from __future__ import annotations

import inspect
import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis.pairing import find_unpaired
from ..study.items import Item, to_items

logger = logging.getLogger("approval_compaction.workaround")
KEPT_DEFERRALS = 64


@dataclass(frozen=True)
class Deferral:
    """One compaction the wrapper skipped, and the open items that made it wait."""

    args: dict[str, Any]
    open_items: tuple[str, ...]


def open_groups(items: Sequence[Any]) -> list[str]:
    """``type:key`` of every call without its output and approval request without its response."""
    plain: list[Item] = to_items(items)
    return [
        f"{u.item_type}:{u.key or '?'}" for u in find_unpaired(plain) if u.problem == "open call"
    ]


def _accepts_wrapper(method: Any) -> bool:
    try:
        return "wrapper" in inspect.signature(method).parameters
    except (TypeError, ValueError):  # a builtin or C callable: pass nothing extra
        return False


class DeferCompactionWhilePending:
    """A compaction session that waits for every call/approval group to be complete."""

    def __init__(self, session: Any) -> None:
        if not callable(getattr(session, "run_compaction", None)):
            raise TypeError(f"{type(session).__name__} has no run_compaction(): nothing to defer")
        self.inner = session
        self.session_id: str = session.session_id
        self.deferrals: deque[Deferral] = deque(maxlen=KEPT_DEFERRALS)  # the latest ones

    def __getattr__(self, name: str) -> Any:
        # Only called for names not found on the wrapper: the runner's private hooks
        # (``_defer_compaction``, ``_get_items_with_generation``, ...) and public attributes.
        if name == "inner":  # not yet set: avoid recursing during construction or unpickling
            raise AttributeError(name)
        return getattr(self.inner, name)

    @property
    def session_settings(self) -> Any:
        return getattr(self.inner, "session_settings", None)

    async def get_items(self, limit: int | None = None) -> list[Any]:
        return list(await self.inner.get_items(limit))

    async def add_items(self, items: list[Any]) -> None:
        await self.inner.add_items(items)

    async def pop_item(self) -> Any:
        return await self.inner.pop_item()

    async def clear_session(self) -> None:
        await self.inner.clear_session()

    async def run_compaction(self, args: Any = None, *, wrapper: Any = None) -> None:
        """Compact as the wrapped session would, unless a call or approval is still open."""
        pending = open_groups(await self.inner.get_items())
        if pending:
            self.deferrals.append(Deferral(dict(args or {}), tuple(pending)))
            logger.info("deferred compaction: history holds %s", ", ".join(pending))
            return
        if wrapper is not None and _accepts_wrapper(self.inner.run_compaction):
            await self.inner.run_compaction(args, wrapper=wrapper)
        else:
            await self.inner.run_compaction(args)


def defer_compaction_while_pending(session: Any) -> DeferCompactionWhilePending:
    """Wrap a compaction session so it never compacts a call away before its output is stored."""
    if isinstance(session, DeferCompactionWhilePending):
        return session
    return DeferCompactionWhilePending(session)

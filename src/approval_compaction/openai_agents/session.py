"""Session: a team's own session, stepped through as the notebooks step through a scenario.

``load_session`` reads one session: from a store the doctor reads (a ``SQLiteSession`` file, an
SQLAlchemy URL, a Redis URL) by its id, read-only, or from a JSON export (what ``get_items()``
returns, or another SDK's getter, ``doctor.export``: another SDK's items are mapped to the
wire's shapes, as that SDK maps them before it sends). ``next_turn`` takes one more
question on a copy of those items: the installed SDK's own runner and ``OpenAIResponsesModel``,
with the session's compaction mode and a compaction hook that says yes, against the Responses
API stand-in (``wire``), which answers as the API does. So the notebook shows the request the SDK
builds from the history, the API's answer, and what compaction sends and keeps; the team's store
is never written. ``healed`` is the list the doctor writes (``doctor items --output``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..display.frames import diff_frame, preview
from ..doctor.export import Export, judge_export, read_export
from ..doctor.stores import opened
from ..doctor.verdict import SessionReport, judge
from ..errors import InvestigationError
from ..lab.plugins import plugin
from ..study.items import Item
from ..study.loop import run_sync
from ..study.words import Mode
from . import driver as _driver
from . import harness as _harness

NEXT_QUESTION = "And one more question, please."


class SessionError(InvestigationError):
    """A session that cannot be read: no such file, no such session, an export that is not one."""


@dataclass(frozen=True)
class Session:
    """One session's items in the wire's shapes (what pairing reads), whose they are, and where
    they came from (the file's name only)."""

    sdk: str  # "python", or the name of the plugin whose SDK stored it
    source: str
    session_id: str
    items: tuple[Item, ...]


def load_session(path: Path, session_id: str | None = None) -> Session:
    """The session ``session_id`` of the store at ``path``, or the items of a JSON export."""
    if not path.exists():
        raise SessionError(f"no file at {path.name}")
    if path.suffix == ".json":
        export = read_export(path)
        return Session(export.sdk, path.name, session_id or path.stem, tuple(export.wire))
    if not session_id:
        raise SessionError(f"{path.name} is a store: name the session to read (session_id)")
    return run_sync(_read(str(path), path.name, session_id))


async def _read(store_text: str, name: str, session_id: str) -> Session:
    async with opened(store_text) as store:
        async for stored in store.sessions(session_id):
            items, unreadable = stored.items()
            if unreadable:
                raise SessionError(f"{unreadable} items of {session_id} in {name} are unreadable")
            return Session("python", name, session_id, tuple(items))
    raise SessionError(f"{name} holds no session {session_id!r}")


def session_verdict(session: Session) -> SessionReport:
    """The doctor's verdict on the session, as ``doctor scan`` gives it."""
    return judge(session.session_id, list(session.items))


def diagnosis_frame(session: Session) -> pd.DataFrame:
    """The doctor's diagnosis of the session as ``doctor scan`` gives it, one row: the
    diagnosis, the ids it names (orphan outputs, open calls) and the doctor's note."""
    report = session_verdict(session)
    row = {
        "session": report.session_id,
        "items": report.items,
        "compactions": report.compactions,
        "orphan outputs": " ".join(report.orphan_outputs) or "none",
        "open calls": " ".join(report.open_calls) or "none",
        "diagnosis": report.verdict,
        "the doctor's note": report.note,
    }
    return pd.DataFrame([row])


def healed_items(session: Session) -> list[Item]:
    """The healed list ``doctor items --output`` writes, in the wire's shapes."""
    return judge_export(Export(Path(session.source), list(session.items), "python")).healed()


def healed_frame(session: Session) -> pd.DataFrame:
    """The session against its healed list, aligned as ``diff_frame`` aligns stored and sent:
    ``both``, ``only stored`` (what the heal rewrote), ``only healed`` (what it wrote instead)."""
    healed = healed_items(session)
    frame = diff_frame(list(session.items), healed)
    frame["side"] = frame["side"].replace({"only sent": "only healed"})
    written = frame["side"].eq("only healed")  # what the heal wrote is shown whole
    frame.loc[written, "preview"] = [
        preview(healed[int(at)], width=None) for at in frame.loc[written, "sent_at"]
    ]
    return frame.rename(columns={"sent_at": "healed_at"})


def healed_sent_frame(session: Session, after: _driver.Transcript) -> pd.DataFrame:
    """The healed list against what the SDK sent with the next question after it, aligned as
    ``diff_frame`` aligns them (``stored_at`` is the position in the healed list): each item the
    doctor rewrote shown whole, its status ``the doctor's rewrite``."""
    healed = healed_items(session)
    frame = diff_frame(healed, sent_items(after))
    kept = {json.dumps(i, sort_keys=True) for i in session.items}
    rewritten = [
        str(at) for at, item in enumerate(healed) if json.dumps(item, sort_keys=True) not in kept
    ]
    rows = frame["stored_at"].isin(rewritten)
    frame.loc[rows, "preview"] = [
        preview(healed[int(at)], width=None) for at in frame.loc[rows, "stored_at"]
    ]
    frame.loc[rows, "status"] = "the doctor's rewrite"
    return frame.rename(columns={"stored_at": "healed_at"})


def next_turn(items: tuple[Item, ...] | list[Item], mode: Mode = "input") -> _driver.Transcript:
    """One more question after ``items``, on a copy: the installed SDK's runner and model over
    HTTP to the stand-in, compacting after the turn (``compaction_mode=mode``)."""
    plain = tuple(json.loads(json.dumps(item)) for item in items)  # no shared nesting
    setup = _driver.Setup(mode=mode, trigger="always", model="responses", history=plain)
    return _driver.converse(setup, [_driver.Ask(NEXT_QUESTION, (_harness.NEXT_ANSWER,))])


def sent_items(turn: _driver.Transcript) -> list[Item]:
    """The items the SDK sent to the model with the next question (its first request)."""
    stage = turn.stage("next_turn")
    return list(stage.model_inputs[0]) if stage.model_inputs else []


def turn_answers(turn: _driver.Transcript) -> list[tuple[str, int, str]]:
    """Each request the next turn sent over HTTP: its endpoint, the stand-in's status and the
    API's error message ("" when it answered)."""
    stage = turn.stage("next_turn")
    return [(h["path"], int(h["status"]), str(h.get("error", ""))) for h in stage.http_requests]


def compaction_of(turn: _driver.Transcript) -> tuple[list[Item], list[Item]]:
    """What compaction sent after the next turn (its last request; none when it did not run)
    and what the session stored after it."""
    stage = turn.stage("next_turn")
    return (list(stage.compaction_inputs[-1]) if stage.compaction_inputs else []), stage.stored


def compaction_frame(turns: dict[str, _driver.Transcript]) -> pd.DataFrame:
    """Per next turn (the session as stored, healed): the API's answer to the question, how many
    requests went to compaction, how many items they sent, and how many items the session kept."""
    rows = []
    for name, turn in turns.items():
        said = turn_answers(turn)
        sent, kept = compaction_of(turn)
        rows.append(
            {
                "session": name,
                "next question": f"HTTP {said[0][1]}" if said else "not sent",
                "compaction requests": len(turn.stage("next_turn").compaction_inputs),
                "items sent to compaction": len(sent),
                "items kept": len(kept),
            }
        )
    return pd.DataFrame(rows).set_index("session")


def write_example(path: Path) -> list[Item]:
    """Write the example store: what openai-agents (the installed release) leaves after a pause,
    a compaction in ``input`` mode, an approval and the resume; every row's time set to one
    fixed instant and the file vacuumed, so the file reads the same each time it is written."""
    import sqlite3

    from .upgrade import poison

    if path.exists():
        path.unlink()
    items = poison(path)
    with sqlite3.connect(path) as db:
        for table in ("agent_sessions", "agent_messages"):
            db.execute(f"UPDATE {table} SET created_at = '2026-01-01 00:00:00'")
        db.execute("UPDATE agent_sessions SET updated_at = '2026-01-01 00:00:00'")
    with sqlite3.connect(path) as db:
        db.execute("VACUUM")
    return items


def session_answer(
    session: Session,
    report: SessionReport,
    turn: _driver.Transcript,
    after: _driver.Transcript,
    stop: str | None = None,
) -> str:
    """The notebook's answer for this session: the doctor's verdict and what it names, the
    API's answer to the next question, and, healed, whether it is answered and compaction runs;
    ``stop`` says how a team stops new sessions breaking (another SDK's: ``stop_words``'s by
    default)."""
    refused = [(path, status, error) for path, status, error in turn_answers(turn) if status >= 400]
    head = f"`{session.session_id}` ({session.source}) is **{report.verdict}**"
    named = f": {report.note}" if report.note else ""
    if not refused:
        told = "the stand-in answers the next question"
    else:
        path, status, error = refused[0]
        told = f"the stand-in refuses the next question (HTTP {status} from `{path}`: {error})"
    healed_refused = [a for a in turn_answers(after) if a[1] >= 400]
    ran = bool(
        turn.stage("next_turn").compaction_inputs or after.stage("next_turn").compaction_inputs
    )
    if report.verdict == "healthy":
        return f"**Answer.** {head}{named}; {told}. Nothing to heal."
    fixed = "is answered" if not healed_refused else "is still refused"
    compacts = " and compaction runs" if ran and not healed_refused else ""
    return (
        f"**Answer.** {head}{named}; {told}. Once the doctor heals it, the next question "
        f"{fixed}{compacts}.\n\n**What to do.** First stop new sessions breaking "
        f"({stop or stop_words(session.sdk)}); then find and heal the stored sessions: `doctor "
        "scan STORE --all`, then `doctor repair STORE --all --apply` (notebook 07; an export: "
        "`doctor items --output`)."
        + (MAINTAINERS if report.verdict == "poisoned" and session.sdk == "python" else "")
    )


# What the SDK's maintainers do about a store an affected release poisoned: notebook 10's patch
# leaves such an output out of the model input (its *poisoned* rows: refused released, answered
# patched; in previous_response_id mode it then stops compacting), while the store keeps it.
MAINTAINERS = (
    "\n\nSDK maintainers: leave a stored output whose call is gone out of the model input, as "
    "`0.24.0-compaction-liveness.patch` does; notebook 10 runs it: the API then answers such a "
    "session, but in `previous_response_id` mode compaction then never runs again, and the store "
    "keeps the orphan output until `doctor repair` rewrites it."
)


def stop_words(sdk: str) -> str:
    """How a team stops new sessions of another SDK (a plugin's name) breaking: its plugin's
    ``stop``. openai-agents' is notebook 06's action with the releases the findings name
    (``lab.findings.headlines.stop_new_sessions``), which its caller passes as ``stop``."""
    if sdk == "python":
        raise InvestigationError(
            "openai-agents' stop is computed from the findings: pass "
            "lab.findings.headlines.stop_new_sessions(findings) as stop"
        )
    said = plugin(sdk).stop
    if said is None:
        raise InvestigationError(f"the {sdk} plugin says nothing on stopping new sessions breaking")
    return said

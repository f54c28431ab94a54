"""In the database: one read-only SQL query that lists the poisoned sessions where the data is.

``doctor sql --dialect sqlite|postgresql|mysql`` prints it for a DBA; ``doctor scan
--in-database`` runs it on the store. It asks exactly what ``verdict.judge`` asks, with the
engine's own JSON functions, over every row the SDK reads in its read order (``id``;
``created_at`` then ``id``; ``sequence_number`` per branch of an ``AdvancedSQLiteSession``),
pairing by occurrence as ``analysis.pairing`` does: a running sum per call kind and id finds
each orphan output, and the calls a group leaves open are dead when the session's last user
message or compaction item follows them. It lists each session (or branch) that needs repair,
one row each, with its verdict (``CRITERIA``: ``poisoned``, the worse, or ``stuck``), its
orphan outputs and its dead calls. Where the engine's JSON parser and Python's differ the query
follows the engine; the Python scan is the reference. How each step is computed, and the
engines' differences: ``docs/doctor.md``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Literal, TextIO

from ..analysis.pairing import CALL_TO_OUTPUT, COMPACTION
from .codec import KEY_ENV
from .scan import ReportWriter
from .stores import MESSAGES_TABLE, STRUCTURE_TABLE, Store, StoreError, opened

Dialect = Literal["sqlite", "postgresql", "mysql"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql", "mysql")
Order = Literal["id", "created_at", "branches"]
Criterion = Literal["poisoned", "stuck"]
CRITERIA: tuple[Criterion, ...] = ("poisoned", "stuck")  # verdict.NEEDS_REPAIR, in that order
DEPTH = 10

_WS = "[ \\t\\n\\r]*"
_STRING = '"(?:[^"\\\\\\x01-\\x1f]|\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4}))*"'
_JSONB_REFUSES = "\\\\u(?:0000|[dD][89a-fA-F])"  # escapes jsonb cannot hold
_SCALAR = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null"
_ARRAY = f"\\[{_WS}(?:[SV](?:{_WS},{_WS}[SV])*)?{_WS}\\]"
_MEMBER = f"S{_WS}:{_WS}[SV]"
_OBJECT = f"\\{{{_WS}(?:{_MEMBER}(?:{_WS},{_WS}{_MEMBER})*)?{_WS}\\}}"


@dataclass(frozen=True)
class Found:
    """One session (or branch) that needs repair as the database lists it."""

    session_id: str
    branch: str | None
    verdict: Criterion
    orphan_outputs: int
    dead_calls: int


def _pg_valid(text: str) -> str:
    """A PostgreSQL expression: whether ``text`` is a JSON object jsonb accepts."""
    reduced = (
        f"regexp_replace(regexp_replace({text}, '{_STRING}', 'S', 'g'), '{_SCALAR}', 'V', 'g')"
    )
    for _ in range(DEPTH):
        arrays = f"regexp_replace({reduced}, '{_ARRAY}', 'V', 'g')"
        reduced = f"regexp_replace({arrays}, '{_OBJECT}', 'V', 'g')"
    return (f"(ltrim({text}, E' \\t\\n\\r') LIKE '{{%' AND {text} !~ '{_JSONB_REFUSES}' "
            f"AND {reduced} ~ '^{_WS}V{_WS}$')")  # fmt: skip


def _kinds() -> str:
    rows = [
        f"SELECT '{call}' AS call_kind, '{output}' AS output_kind"
        for call, output in CALL_TO_OUTPUT.items()
    ]
    return "\n    UNION ALL ".join(rows)


@dataclass(frozen=True)
class _Json:
    """How one dialect reads a row's JSON: whether ``m.message_data`` is an object the engine
    reads (``valid``); a field of a valid row ``r`` when it is a string, else NULL (``text``),
    and whether it is absent or null (``missing``), ``{path}`` being ``$.<name>`` and ``{name}``
    the field's name; and a string literal to compare with (``word``)."""

    valid: str
    text: str
    missing: str
    word: str = "'{}'"

    def field(self, pattern: str, path: str) -> str:
        return pattern.format(path=path, name=path.removeprefix("$."))


_MYSQL_FIELD = "JSON_EXTRACT(r.message_data, '{path}')"
JSON_OF: dict[Dialect, _Json] = {
    "sqlite": _Json(
        "json_valid(m.message_data) AND json_type(m.message_data) = 'object'",
        "CASE WHEN json_type(r.message_data, '{path}') = 'text' "
        "THEN json_extract(r.message_data, '{path}') END",
        "COALESCE(json_type(r.message_data, '{path}'), 'null') = 'null'",
    ),
    "postgresql": _Json(
        "TRUE",  # the parsed ``j`` is tested instead (``_pg_valid``)
        "CASE WHEN jsonb_typeof(r.j -> '{name}') = 'string' THEN r.j ->> '{name}' END",
        "COALESCE(jsonb_typeof(r.j -> '{name}'), 'null') = 'null'",
    ),
    "mysql": _Json(  # strings compared byte for byte, whatever the column's collation
        "JSON_VALID(m.message_data) AND JSON_TYPE(m.message_data) = 'OBJECT'",
        f"CASE WHEN JSON_TYPE({_MYSQL_FIELD}) = 'STRING' "
        f"THEN CAST(JSON_UNQUOTE({_MYSQL_FIELD}) AS BINARY) END",
        f"COALESCE(JSON_TYPE({_MYSQL_FIELD}), 'NULL') = 'NULL'",
        "CAST('{}' AS BINARY)",
    ),
}


def _fields(dialect: Dialect) -> tuple[str, str, str, str, str, str]:
    """The validity test of ``m.message_data``, and then, for a valid row ``r``: its ``type``,
    ``call_id``, ``id`` and ``approval_request_id`` when each is a string, NULL otherwise; and
    1 when it is a later turn (``analysis.pairing.is_later_turn``: a user message, ``role`` the
    string ``user`` and ``type`` absent, null or the string ``message``; or ``type`` the string
    ``compaction``), else 0."""
    json_ = JSON_OF[dialect]

    def text(path: str) -> str:
        return json_.field(json_.text, path)

    kind, word = text("$.type"), json_.word
    user = (f"CASE WHEN ({text('$.role')} = {word.format('user')} AND "
            f"({json_.field(json_.missing, '$.type')} OR {kind} = {word.format('message')})) "
            f"OR {kind} = {word.format(COMPACTION)} THEN 1 ELSE 0 END")  # fmt: skip
    return json_.valid, kind, text("$.call_id"), text("$.id"), text("$.approval_request_id"), user


def query(dialect: Dialect, order: Order | None = None) -> str:
    """The read-only query listing the sessions that need repair: ``session_id``, ``branch``
    (NULL without branches), ``verdict`` (``poisoned`` or ``stuck``), ``orphan_outputs`` and
    ``dead_calls``, one row per such session or branch."""
    if dialect not in DIALECTS:
        raise StoreError(f"unknown dialect {dialect!r}: one of {', '.join(DIALECTS)}")
    order = order or ("id" if dialect == "sqlite" else "created_at")
    valid, kind, call, request, answer, user = _fields(dialect)
    if order == "branches":
        # AdvancedSQLiteSession's own join: by message id, the session the message's
        source = f"{STRUCTURE_TABLE} st JOIN {MESSAGES_TABLE} m ON m.id = st.message_id"
        branch, first, second = "st.branch_id", "st.sequence_number", "st.sequence_number"
    else:
        source, branch = f"{MESSAGES_TABLE} m", "NULL"
        first, second = ("m.id", "m.id") if order == "id" else ("m.created_at", "m.id")
    # Each stage is computed once per row (MATERIALIZED where the engine has it): an engine
    # that inlined them would parse every row's JSON once per reference.
    once = "" if dialect == "mysql" else " MATERIALIZED"
    parsed = ", m.message_data AS message_data"
    if dialect == "postgresql":
        parsed = f", CASE WHEN {_pg_valid('m.message_data')} THEN m.message_data::jsonb END AS j"
        valid = "jsonb_typeof(j) = 'object'"
        valid_from = "rows_all"
    request_kind, response_kind = (
        JSON_OF[dialect].word.format(k) for k in ("mcp_approval_request", "mcp_approval_response")
    )
    rows_stage = f"""rows_read AS{once} (
  SELECT m.session_id AS session_id, {branch} AS branch, {first} AS first_order,
         {second} AS second_order{parsed}
  FROM {source}
  WHERE {valid}
)"""
    if dialect == "postgresql":
        rows_stage = f"""rows_all AS MATERIALIZED (
  SELECT m.session_id AS session_id, {branch} AS branch, {first} AS first_order,
         {second} AS second_order{parsed}
  FROM {source}
),
rows_read AS MATERIALIZED (
  SELECT * FROM {valid_from} WHERE {valid}
)"""
    return f"""-- approval-compaction doctor: poisoned and stuck sessions, read-only, for {dialect}
WITH {rows_stage},
fields AS{once} (
  SELECT r.session_id, r.branch, r.first_order, r.second_order, {kind} AS kind,
         {call} AS call_id, {request} AS request_id, {answer} AS answer_id, {user} AS is_later
  FROM rows_read r
),
items AS (
  SELECT session_id, branch, first_order, second_order, kind, is_later,
         CASE kind WHEN {request_kind} THEN request_id WHEN {response_kind} THEN answer_id
              ELSE call_id END AS item_key,
         ROW_NUMBER() OVER (PARTITION BY session_id, branch
                            ORDER BY first_order, second_order) AS pos
  FROM fields
),
placed AS (
  SELECT session_id, branch, first_order, second_order, kind, item_key, pos,
         MAX(CASE WHEN is_later = 1 THEN pos END) OVER (PARTITION BY session_id, branch)
           AS last_turn
  FROM items
),
kinds AS (
    {_kinds()}
),
steps AS (
  SELECT i.session_id, i.branch, i.first_order, i.second_order, i.pos, i.last_turn,
         k.call_kind, i.item_key, CASE WHEN i.kind = k.call_kind THEN 1 ELSE -1 END AS step
  FROM placed i JOIN kinds k ON i.kind = k.call_kind OR i.kind = k.output_kind
),
walks AS (
  SELECT session_id, branch, call_kind, item_key, pos, last_turn, step,
         SUM(step) OVER (PARTITION BY session_id, branch, call_kind, item_key
                         ORDER BY first_order, second_order ROWS UNBOUNDED PRECEDING) AS balance,
         SUM(CASE WHEN step = 1 THEN 1 ELSE 0 END)
           OVER (PARTITION BY session_id, branch, call_kind, item_key
                 ORDER BY first_order, second_order ROWS UNBOUNDED PRECEDING) AS call_rank,
         ROW_NUMBER() OVER (PARTITION BY session_id, branch, call_kind, item_key
                            ORDER BY first_order, second_order) AS nth
  FROM steps
),
groups AS (
  SELECT session_id, branch, call_kind, pos, last_turn, step, call_rank, nth,
         MIN(balance) OVER (PARTITION BY session_id, branch, call_kind, item_key) AS low,
         SUM(step) OVER (PARTITION BY session_id, branch, call_kind, item_key) AS final,
         SUM(CASE WHEN step = 1 THEN 1 ELSE 0 END)
           OVER (PARTITION BY session_id, branch, call_kind, item_key) AS calls
  FROM walks
),
judged AS (
  SELECT session_id, branch,
         SUM(CASE WHEN nth = 1 AND low < 0 THEN -low ELSE 0 END) AS orphan_outputs,
         SUM(CASE WHEN step = 1 AND pos < last_turn
                   AND call_rank > calls - final - CASE WHEN low < 0 THEN -low ELSE 0 END
              THEN 1 ELSE 0 END) AS dead_calls
  FROM groups
  GROUP BY session_id, branch
)
SELECT session_id, branch,
       CASE WHEN orphan_outputs > 0 THEN 'poisoned' ELSE 'stuck' END AS verdict,
       orphan_outputs, dead_calls
FROM judged WHERE orphan_outputs > 0 OR dead_calls > 0
ORDER BY session_id, branch
"""


def store_query(store: Store) -> str:
    """The query fit for an open store (its dialect and read order), or a one-line error."""
    if store.dialect not in DIALECTS:
        raise StoreError(
            f"{store.spec.label} is a {store.dialect} store: --in-database needs an SQL database"
        )
    if store.codec.encrypted:
        raise StoreError(
            f"{store.spec.label} holds EncryptedSession items: only the doctor can decrypt them "
            "(scan without --in-database)"
        )
    dialect = next(d for d in DIALECTS if d == store.dialect)  # checked above
    order: Order = (
        "branches" if store.branches else "id" if store.spec.backend.file else "created_at"
    )
    return query(dialect, order)


async def find(store: Store) -> list[Found]:
    """Run the query in the store's own database: the poisoned and stuck sessions it lists."""
    sql = store_query(store)
    rows: list[Found] = []
    async for batch in store._batches(sql, {}):  # type: ignore[attr-defined]
        rows.extend(
            Found(str(sid), None if b is None else str(b), _criterion(v), int(n), int(d))
            for sid, b, v, n, d in batch
        )
    return rows


def _criterion(value: object) -> Criterion:
    text = value.decode() if isinstance(value, bytes) else str(value)
    if text not in CRITERIA:
        raise StoreError(f"the query returned an unknown verdict {text!r}")
    return text


async def scan_in_database(
    out: TextIO,
    text: str,
    fmt: str,
    session_id: str | None = None,
    *,
    key_env: str = KEY_ENV,
    ttl: int | None = None,
) -> list[Found]:
    """``doctor scan --in-database``: the poisoned and stuck sessions the query lists, as a
    table (with a summary line), JSON or CSV."""

    async with opened(text, key_env=key_env, ttl=ttl) as store:
        found = [f for f in await find(store) if session_id in (None, f.session_id)]
        branches = store.branches
    names = ("session_id", *(["branch"] if branches else []), "verdict", "orphan_outputs",
             "dead_calls")  # fmt: skip
    writer = ReportWriter(out, fmt, names, _summary)
    writer.start()
    for f in found:
        writer.write_row(asdict(f), f.verdict)
    writer.finish()
    return found


def _summary(counts: Counter[str]) -> str:
    """``2 sessions to repair: 1 poisoned, 1 stuck (listed by the database's own query)``."""
    total = sum(counts.values())
    said = ", ".join(f"{counts.get(word, 0)} {word}" for word in CRITERIA)
    plural = "s" if total != 1 else ""
    return f"{total} session{plural} to repair: {said} (listed by the database's own query)"

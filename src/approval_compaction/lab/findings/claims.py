"""Claims: what two published files may not say differently, checked against the one record.

``verdict.disagreements`` holds every page to the record's verdict per release. The claims
here are the others a reader set side by side and found contradicting (issue 61), each read
from the published text (the README, the reports, the docs, the rendered notebooks) and
compared with the record, so that two files can only agree:

- ``era_disagreements``: a page that lists the sweep's ranges of releases that read the same
  (a table headed ``span``, or a sentence saying they "read the same" or "record the same")
  lists exactly the record's eras; a table's ``releases in range`` counts the releases the
  sweep holds in the row's range.
- ``unscoped_stage_tables``: a per-stage table of a run (its header holds ``stored_items``) is
  titled with its model, ``scripted`` or ``over HTTP``: on the scripted model the next turn the
  API refuses is answered, and its store after that turn is not a user's.
- ``liveness_disagreements``: a liveness table (situations by ranges of releases) or a
  verdict's liveness clause (``abandoned stops compacting (previous_response_id)``) claims
  for each release, mode and situation a state the release's verdict record holds.
- ``outcome_disagreements``: a table of the SDK suite's changed tests names each outcome pair
  as the suite's files do (``xfailed``, ``failed [XPASS(strict)]``), not JUnit's ``skipped``.
- ``unscoped_fix_claims``: a sentence that calls one change "the whole fix" names the kinds of
  approval it fixes, since the record's minimal fix differs by kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .liveness import REFUSED, STUCK
from .releases import Era
from .verdict import BUG, CONTRACT, VERSION, ReleaseVerdict, statements

ROW = re.compile(r"^\s*\|(.*)\|\s*$")
RULE = re.compile(r"^\s*\|[\s:|-]+\|\s*$")
READ_SAME = re.compile(r"\b(?:read|record)s? the same\b")


def _cells(line: str) -> list[str]:
    found = ROW.match(line)
    return [c.strip() for c in re.split(r"(?<!\\)\|", found.group(1))] if found else []


def tables(text: str) -> list[tuple[str, list[str], list[list[str]]]]:
    """Each markdown table of ``text``: the nearest non-empty line above it (its title), its
    header cells, and its rows of cells."""
    lines = text.splitlines()
    found = []
    for i in range(len(lines) - 1):
        if (
            ROW.match(lines[i])
            and RULE.match(lines[i + 1])
            and (i == 0 or not ROW.match(lines[i - 1]))
        ):
            title = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            rows, k = [], i + 2
            while k < len(lines) and ROW.match(lines[k]):
                rows.append(_cells(lines[k]))
                k += 1
            found.append((title.strip(), _cells(lines[i]), rows))
    return found


def _members(span: str, order: Sequence[str]) -> list[str]:
    first, _, last = span.replace("\\", "").partition("..")
    if first not in order or (last and last not in order):
        return []
    return list(order[order.index(first) : order.index(last or first) + 1])


def _spans(text: str, order: Sequence[str]) -> list[str]:
    """The ranges of the sweep's releases a text names (``0.8.0..0.22.0``, ``0.23.1``)."""
    found = []
    for first, last in VERSION.findall(text):
        span = f"{first}..{last}" if last else first
        if _members(span, order):
            found.append(span)
    return found


def era_disagreements(
    text: str, eras: Sequence[Era], order: Sequence[str]
) -> list[tuple[str, str]]:
    """Each (what the text says, what the record holds) where a list of the sweep's ranges that
    read the same differs from the record's eras, or a ``releases in range`` count from the
    sweep's."""
    record = [e.span for e in eras]
    wrong = []
    for _, header, rows in tables(text):
        if header and header[0] == "span":
            said = [r[0] for r in rows if r and _members(r[0], order)]
            if said != record:
                wrong.append((", ".join(said), ", ".join(record)))
        if "releases in range" in header:
            at = header.index("releases in range")
            for row in rows:
                members = _members(row[0], order) if row else []
                if members and at < len(row) and row[at].isdigit():
                    if int(row[at]) != len(members):
                        wrong.append((f"{row[0]}: {row[at]}", f"{len(members)}"))
    for statement in statements(text):
        if READ_SAME.search(statement) and not statement.lstrip().startswith("|"):
            said = _spans(statement, order)
            if len(said) > 1 and said != record:
                wrong.append((", ".join(said), ", ".join(record)))
    return wrong


MODEL_SCOPE = re.compile(r"scripted|over HTTP|OpenAIResponses", re.I)


def unscoped_stage_tables(text: str) -> list[str]:
    """The titles of the per-stage tables of a run (a header holding ``stored_items``) that do
    not say which model ran it."""
    return [
        title or "(no title)"
        for title, header, _ in tables(text)
        if "stored_items" in header and not MODEL_SCOPE.search(title)
    ]


# A liveness state as a page words it, and the record's state it claims.
STATE_PHRASES = {"stops compacting": STUCK, "refused": REFUSED}
KEEPS_PHRASE = "keeps compacting"
CLAUSE = re.compile(
    r"(?P<names>[a-z_]+(?:, [a-z_]+)*) (?P<state>stops compacting|refused)"
    r" \((?P<modes>all modes|[a-z_, =]+)\)"
)


def _claimed(cell: str, every: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    """A liveness table's cell as (state, modes) claims, a state without modes in ``every``
    mode; ``keeps compacting`` claims no stop and no refusal in any mode."""
    if cell.strip() == KEEPS_PHRASE:
        return [(KEEPS_PHRASE, every)]
    claims = []
    for part in cell.split("; "):
        state, _, where = part.partition(" in ")
        if state.strip() in STATE_PHRASES:
            modes = tuple(m.strip() for m in where.split(",")) if where else every
            claims.append((STATE_PHRASES[state.strip()], modes))
    return claims


def _holds(record: ReleaseVerdict, situation: str, state: str, mode: str) -> bool:
    """Whether the release's verdict holds the situation in that state and mode (a claim that
    it keeps compacting holds when neither a bug nor the SDK's contract says otherwise)."""
    entries = [v for v in record.liveness if v.situation == situation and mode in v.modes]
    if state == KEEPS_PHRASE:
        return not [v for v in entries if v.kind in (BUG, CONTRACT) and v.state in (STUCK, REFUSED)]
    return any(v.state == state for v in entries)


def liveness_disagreements(
    text: str, verdicts: Sequence[ReleaseVerdict]
) -> list[tuple[str, str, str, str]]:
    """Each (release, situation, mode, state claimed) a page says and the release's verdict
    record does not hold: a liveness table's cells (situations down, ranges of releases
    across) and a verdict table's clauses (``abandoned stops compacting (input)``)."""
    order = [v.release for v in verdicts]
    by = {v.release: v for v in verdicts}
    every = tuple(dict.fromkeys(m.mode for v in verdicts for m in v.modes))
    situations = {x.situation for v in verdicts for x in v.liveness} | {"clean", "poisoned"}
    wrong = []
    for _, header, rows in tables(text):
        if header and header[0] == "situation":
            columns = [(i, _members(h, order)) for i, h in enumerate(header) if _members(h, order)]
            for row in rows:
                for i, releases in columns:
                    for state, modes in _claimed(row[i] if i < len(row) else "", every):
                        wrong += [
                            (release, row[0], mode, state)
                            for release in releases
                            for mode in modes
                            if row[0] in situations and not _holds(by[release], row[0], state, mode)
                        ]
        for row in rows:
            releases = _members(row[0], order) if row else []
            for cell in row[1:] if releases else []:
                for found in CLAUSE.finditer(cell):
                    said = found["modes"]
                    modes = every if said == "all modes" else tuple(said.split(", "))
                    names = [n for n in found["names"].split(", ") if n in situations]
                    state = STATE_PHRASES[found["state"]]
                    wrong += [
                        (release, name, mode, state)
                        for release in releases
                        for name in names
                        for mode in modes
                        if mode in every and not _holds(by[release], name, state, mode)
                    ]
    return sorted(set(wrong))


def outcome_disagreements(text: str, shown: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each (baseline, fixed) pair a table of changed tests shows that the suite's files do
    not (``shown``: the pairs as ``upstream.changes.shown_outcomes`` names them)."""
    allowed = {(b, f.replace("\\", "")) for b, f in shown}
    wrong = []
    for _, header, rows in tables(text):
        if "baseline" in header and "fixed" in header:
            b, f = header.index("baseline"), header.index("fixed")
            for row in rows:
                if max(b, f) < len(row):
                    pair = (row[b], row[f].replace("\\", ""))
                    if pair not in allowed:
                        wrong.append(pair)
    return wrong


WHOLE_FIX = re.compile(r"\bthe whole fix\b", re.I)


def unscoped_fix_claims(text: str, kinds: Iterable[str]) -> list[str]:
    """Each sentence that calls a change the whole fix without naming a kind of approval it is
    the whole fix for (``kinds``: the fix anatomy's labels: function, custom, hosted MCP, ...)."""
    named = re.compile("|".join(re.escape(k) for k in kinds) or r"$^", re.I)
    return [s for s in statements(text) if WHOLE_FIX.search(s) and not named.search(s)]

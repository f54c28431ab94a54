"""Source: a line of the installed ``@openai/agents`` as a permalink into its TypeScript.

The npm packages ship compiled ``dist/*.mjs`` with source maps (no sources). A line of the
compiled module is found by a piece of its text; its source map gives the TypeScript line it
came from, and the release's tag on GitHub gives the permalink, so a citation always points to
the line the installed release runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import sourcemap  # type: ignore[import-untyped]  # untyped; only this module reads maps

from ..lab import paths
from ..lab.releases.driven import SourceLineError

REPOSITORY = "https://github.com/openai/openai-agents-js"
SESSION = "agents-openai/dist/memory/openaiResponsesCompactionSession.mjs"
PERSISTENCE = "agents-core/dist/runner/sessionPersistence.mjs"


def ts_line(module: str, needle: str, package: Path = paths.ROOT) -> tuple[str, int]:
    """The TypeScript file (relative to its package) and line that compiled into the first line
    of ``module`` holding ``needle``."""
    path = package / "node_modules" / "@openai" / module
    lines = path.read_text().splitlines()
    number = next((n for n, line in enumerate(lines) if needle in line), None)
    if number is None:
        raise SourceLineError(f"{needle!r} is not in {module}")
    index = sourcemap.load(path.with_name(path.name + ".map").open())
    column = len(lines[number]) - len(lines[number].lstrip())
    token = index.lookup(line=number, column=column)
    source = (path.parent / token.src).resolve().relative_to(path.parent.parent.parent.resolve())
    return source.as_posix(), int(token.src_line) + 1


def permalink(module: str, needle: str, package: Path = paths.ROOT) -> str:
    """The line's permalink at the installed release's tag: ``.../blob/v0.20.0/packages/...``."""
    name = module.split("/")[0]
    meta = package / "node_modules" / "@openai" / name / "package.json"
    version = json.loads(meta.read_text())["version"]
    source, line = ts_line(module, needle, package)
    return f"{REPOSITORY}/blob/v{version}/packages/{name}/{source}#L{line}"


# Where the installed release compacts: what each line does, its module and a text on it.
COMPACTION_LINES: dict[str, tuple[str, str]] = {
    "the runner compacts after persisting a turn": (
        "agents-core/dist/runner/sessionPersistence.mjs",
        "await runCompactionOnSession(session, lastResponseId",
    ),
    "the session's coverage check": (
        "agents-openai/dist/memory/openaiResponsesCompactionSession.mjs",
        "getModelVisibleSessionItems(this",
    ),
    "the trigger decides": (
        "agents-openai/dist/memory/openaiResponsesCompactionSession.mjs",
        "await this.shouldTriggerCompaction({",
    ),
    "input mode sends the stored history": (
        "agents-openai/dist/memory/openaiResponsesCompactionSession.mjs",
        "compactRequest.input = getInputItems",
    ),
}


def compaction_lines(package: Path = paths.ROOT) -> dict[str, str]:
    """Each line of ``COMPACTION_LINES`` as its permalink at the installed release's tag."""
    return {
        what: permalink(module, needle, package)
        for what, (module, needle) in COMPACTION_LINES.items()
    }
